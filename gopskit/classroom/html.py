"""The classroom pages' HTML, as pure functions of the store's views (no ipywidgets).

The apps in :mod:`gopskit.widgets.classroom` put these strings in HTML
widgets; tests call them directly. Everything a student may be shown comes
from a :class:`~.reports.Lobby`; the teacher's dashboard from a
:class:`~.reports.RoomOverview`.

A room code has one written form everywhere, :func:`code_text` (``KQ7-F3M``:
two halves to read aloud); a student may type it with or without the dash.

>>> room_code_html("KQ7F3M")
'<div class="gopskit-room-code" aria-label="room code KQ7-F3M">KQ7<span>-</span>F3M</div>'
"""

from __future__ import annotations

import re
from html import escape

from ..agents.labels import bot_label
from ..errors import GopsError
from ..games import rules_class
from ..numbers import fixed
from .tokens import shown_code

STATE_WORDS = {"waiting": "waiting", "playing": "playing", "away": "away", "left": "left"}
# each pairing's label (the teacher's form; in lower case, the room line) and what it does (the form's hint)
PAIRING_WORDS = {
    "random": ("Random tables", "waiting students are seated together at random; one left over plays the bot"),
    "round-robin": ("Round robin", "press “Start round robin”: every two students meet once, the bot standing in "
                    "for the odd one out"),
    "challenge": ("Challenges", "students pick their opponent in the lobby"),
}
# how a seat that no student plays is tagged beside its name
SEAT_KIND_WORDS = {"bot": "bot", "stand-in": "bot standing in"}


def pairing_words(pairing: str) -> str:
    """A room's pairing inside a line: ``'random tables'`` for ``random`` (the value itself if unknown)."""
    return PAIRING_WORDS[pairing][0].lower() if pairing in PAIRING_WORDS else str(pairing)

CLASSROOM_CSS = """
.gopskit-room-code { font: 700 calc(var(--gopskit-px, 1px) * 64)/1.1 ui-monospace, Menlo, Consolas, monospace; letter-spacing: .12em;
  color: #1b3a5c; padding: 8px 18px; border: 3px dashed #1b3a5c; border-radius: 12px; display: inline-block;
  margin: 4px 0 14px; }
.gopskit-room-code span { color: #999; }
.gopskit-classroom h2 { margin: 6px 0; }
.gopskit-people { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; padding: 0; list-style: none; }
.gopskit-person { border-radius: 14px; padding: 3px 10px; background: #eef2f6; border: 1px solid #c9d3de; }
.gopskit-person.gopskit-waiting { background: #e6f4ea; border-color: #8cc79b; }
.gopskit-person.gopskit-playing { background: #e8eefb; border-color: #8ea9e0; }
.gopskit-person.gopskit-away, .gopskit-person.gopskit-left { opacity: .55; }
.gopskit-person.gopskit-me { font-weight: 700; }
.gopskit-tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 8px; }
.gopskit-tablecard { border: 1px solid #c9d3de; border-radius: 8px; padding: 6px 10px; background: #fbfcfd; }
.gopskit-tablecard.gopskit-finished { background: #f3f3f3; }
.gopskit-tablecard .gopskit-caption { color: #3d3d3d; }
.gopskit-tablecard table { width: 100%; border-collapse: collapse; }
.gopskit-tablecard td { padding: 1px 4px; }
.gopskit-leaderboard { border-collapse: collapse; }
.gopskit-leaderboard th, .gopskit-leaderboard td { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: left; }
.gopskit-message { margin: 6px 0; }
.gopskit-addresses { list-style: none; padding: 0; margin: 4px 0 10px; }
.gopskit-student-url { font: 700 calc(var(--gopskit-px, 1px) * 26)/1.3 ui-monospace, Menlo, Consolas, monospace;
  color: #0072b2; overflow-wrap: anywhere; }
.gopskit-tablecard { border-width: 2px; }
.gopskit-person.gopskit-waiting { border-style: dashed; }
"""


def style_block() -> str:
    return f"<style>{CLASSROOM_CSS}</style>"


def code_text(code: str) -> str:
    """The room code as every page writes it: two halves joined by a dash.

    >>> code_text("KQ7F3M"), code_text("KQ7-F3M")
    ('KQ7-F3M', 'KQ7-F3M')
    """
    return shown_code(code)


def room_code_html(code: str) -> str:
    """The room code, large, for the board and the projector (the same form as :func:`code_text`)."""
    first, second = code_text(code).split("-")
    return (f'<div class="gopskit-room-code" aria-label="room code {escape(code_text(code))}">{escape(first)}'
            f'<span>-</span>{escape(second)}</div>')


STUDENT_PAGE = "classroom.ipynb"
LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def student_addresses(page_url: str, network_addresses=()) -> list[str]:
    """The addresses students type to open their page, from the address of the teacher's page.

    The students' page sits beside the teacher's (``classroom.ipynb``). A
    teacher who opened ``localhost`` gets the same page at each of this
    computer's ``network_addresses`` instead: ``localhost`` on a student's
    laptop is the student's own laptop. On a JupyterHub (a page under
    ``/user/NAME/``) every student has their own server: the address goes
    through the hub's ``/hub/user-redirect/``, which takes each student to
    the same page on their own server.

    >>> student_addresses("http://10.0.0.5:8866/voila/render/classroom-teacher.ipynb?x=1")
    ['http://10.0.0.5:8866/voila/render/classroom.ipynb']
    >>> student_addresses("http://localhost:8866/voila/render/classroom-teacher.ipynb", ["192.168.1.20"])
    ['http://192.168.1.20:8866/voila/render/classroom.ipynb']
    >>> student_addresses("https://hub.school/user/ms-k/voila/render/gopskit/classroom-teacher.ipynb")
    ['https://hub.school/hub/user-redirect/voila/render/gopskit/classroom.ipynb']
    """
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(page_url or "")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return []
    folder = parts.path.rsplit("/", 1)[0]
    path = f"{folder}/{STUDENT_PAGE}"
    hub = re.match(r"^(.*?)/user/[^/]+/(.*)$", path)
    if hub:
        path = f"{hub[1]}/hub/user-redirect/{hub[2]}"
    if parts.hostname not in LOOPBACK or not network_addresses:
        return [urlunsplit((parts.scheme, parts.netloc, path, "", ""))]
    port = f":{parts.port}" if parts.port else ""
    return [urlunsplit((parts.scheme, f"{address}{port}", path, "", "")) for address in network_addresses]


def is_loopback(page_url: str) -> bool:
    """Whether the teacher's page was opened as ``localhost`` (students cannot use that name)."""
    from urllib.parse import urlsplit

    return (urlsplit(page_url or "").hostname or "") in LOOPBACK


def students_address_html(addresses) -> str:
    """Where students go: each address of :func:`student_addresses`, large enough to copy from a projector."""
    if not addresses:
        return ""
    links = "".join(f'<li><a class="gopskit-student-url" href="{escape(a)}" target="_blank">{escape(a)}</a></li>'
                    for a in addresses)
    return f'<ul class="gopskit-addresses">{links}</ul>'


def people_html(players, me: str | None = None) -> str:
    """The students of a room as chips: name and whether they wait, play or are away."""
    if not players:
        return '<div class="gopskit-caption">Nobody has joined yet.</div>'
    chips = []
    for p in players:
        mine = " gopskit-me" if p["name"] == me else ""
        word = _state_word(p)
        chips.append(f'<li class="gopskit-person gopskit-{escape(p["state"])}{mine}">{escape(p["name"])} '
                     f'<small>{word}</small></li>')
    return f'<ul class="gopskit-people">{"".join(chips)}</ul>'


def _state_word(player: dict) -> str:
    """What a chip says: a student back from a finished game is "between games", not just "waiting".

    >>> _state_word({"state": "waiting", "games": 0}), _state_word({"state": "waiting", "games": 2})
    ('waiting', 'between games · 2 played')
    """
    games = int(player.get("games") or 0)
    if player["state"] == "waiting" and games:
        return f"between games · {games} played"
    return STATE_WORDS.get(player["state"], player["state"])


def game_line(game: str, options: dict) -> str:
    """One line naming the game and the options that differ from the game's defaults.

    >>> game_line("goofspiel", {"num_cards": 5, "ties": "discard"})
    'Goofspiel (num cards 5)'
    """
    try:
        defaults = rules_class(game)().options()
    except GopsError:
        defaults = {}
    shown = [f"{k.replace('_', ' ')} {_word(v)}" for k, v in options.items() if defaults.get(k, object()) != v]
    title = game.replace("-", " ").capitalize()
    return f"{title} ({', '.join(shown[:5])})" if shown else title


def _word(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    return "custom" if isinstance(value, (list, tuple)) else str(value)


def lobby_html(lobby, describe=game_line) -> str:
    """The student's lobby: the room, who is here, and what happens next.

    ``describe(game, options)`` is the line naming the game and its rules
    (the pages pass one in the boards' words; by default :func:`game_line`).
    """
    if lobby.status != "open":
        next_step = "The teacher has ended this room. Thank you for playing!"
    elif lobby.table_status == "playing":
        next_step = "You are playing: your table is below."
    elif lobby.table_status == "finished" and lobby.pairing == "round-robin" and lobby.rounds:
        next_step = (f"Game over: your result is below. Round robin: round {lobby.round} of {lobby.rounds}; "
                     "the next round starts when every table has finished.")
    elif lobby.table_status == "finished":
        next_step = "Game over: your result is below. Ask for a rematch, or wait: you will be seated at a new table."
    elif lobby.pairing == "challenge":
        next_step = "Challenge someone who is waiting, or wait to be challenged."
    elif lobby.pairing == "round-robin" and lobby.rounds:
        next_step = f"Round robin: round {lobby.round} of {lobby.rounds}. Your next game starts when every table has finished."
    else:
        next_step = "Wait a moment: you will be seated at a table."
    return (
        f'<div class="gopskit-classroom"><h2>Room {escape(code_text(lobby.room))}</h2>'
        f'<div class="gopskit-caption">{escape(describe(lobby.game, lobby.options))} · you are '
        f'<b>{escape(lobby.me)}</b></div><div class="gopskit-message">{escape(next_step)}</div>'
        f"{people_html(lobby.players, lobby.me)}</div>"
    )


def table_card_html(table: dict) -> str:
    """One table on the teacher's dashboard: seats, scores as the players see them, the turn, who is awaited."""
    scores = table["scores"]
    rows = []
    for seat, (name, kind) in enumerate(zip(table["names"], table["kinds"])):
        score = "?" if scores is None else _number(scores[seat])
        lead = " <b>★</b>" if table["status"] == "finished" and seat in table["winners"] else ""
        tag = f' <small>({SEAT_KIND_WORDS[kind]})</small>' if kind in SEAT_KIND_WORDS else ""
        rows.append(f"<tr><td>{escape(name)}{tag}{lead}</td><td>{score}</td></tr>")
    if table["status"] == "playing":
        waiting = ", ".join(table["waiting_for"]) or "the reveal"
        state = f"turn {table['turn'] + 1}, waiting for {escape(waiting)}"
    else:
        state = "finished" if table["status"] == "finished" else "stopped when the room ended"
    return (
        f'<div class="gopskit-tablecard gopskit-{escape(table["status"])}"><b>Table {table["number"]}</b>'
        f' <span class="gopskit-caption">{_origin(table)}</span>'
        f'<table>{"".join(rows)}</table><div class="gopskit-caption">{state}</div></div>'
    )


def _origin(table: dict) -> str:
    words = {"random": "random table", "round-robin": "round robin", "challenge": "challenge", "rematch": "rematch"}
    word = words.get(table["origin"], table["origin"])
    return escape(f"round {table['round']} · {word}" if table["round"] else word)


def tables_html(tables, show_finished: int = 12) -> str:
    """Every playing table, then the latest finished ones."""
    playing = [t for t in tables if t["status"] == "playing"]
    done = [t for t in tables if t["status"] != "playing"][::-1][:show_finished]
    if not tables:
        return '<div class="gopskit-caption">No table yet: pair the students.</div>'
    cards = "".join(table_card_html(t) for t in playing + done)
    return f'<div class="gopskit-tables">{cards}</div>'


_VULGAR = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 5): "⅕", (2, 5): "⅖", (3, 5): "⅗",
           (4, 5): "⅘", (1, 6): "⅙", (5, 6): "⅚", (1, 8): "⅛", (3, 8): "⅜", (5, 8): "⅝", (7, 8): "⅞"}
_SHARED_BY = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def wins_text(wins) -> str:
    """A leaderboard's wins, shares of shared wins written as fractions: ``'1½'``, ``'⅓'``, ``'2'``.

    >>> wins_text(1.5), wins_text(0.5), wins_text(2), wins_text(1 / 3 + 1 / 2), wins_text(5 / 12)
    ('1½', '½', '2', '⅚', '5/12')
    """
    from fractions import Fraction

    value = Fraction(float(wins)).limit_denominator(840)  # sums of 1/k for k up to 8 winners: exact
    whole, part = divmod(value, 1)
    if not part:
        return str(whole)
    glyph = _VULGAR.get((part.numerator, part.denominator), f"{part.numerator}/{part.denominator}")
    return (f"{whole} " if whole and "/" in glyph else str(whole) if whole else "") + glyph


def shared_wins_note(rows) -> str:
    """The sentence under a leaderboard that shows a share of a win, or ``""`` when every win is whole.

    >>> shared_wins_note([{"shares": [2]}])
    'A win shared by two players on equal top scores (a draw) counts ½ to each.'
    >>> shared_wins_note([{"shares": [2]}, {"shares": [2, 3]}])
    'A win shared by players on equal top scores counts as a share to each: ½ when two share it, ⅓ when three do.'
    """
    shares = sorted({k for r in rows for k in r.get("shares", ())})
    if not shares:
        return ""
    if shares == [2]:
        return "A win shared by two players on equal top scores (a draw) counts ½ to each."
    parts = [f"{wins_text(1 / k)} when {_SHARED_BY.get(k, str(k))} {'share it' if i == 0 else 'do'}"
             for i, k in enumerate(shares)]
    return f"A win shared by players on equal top scores counts as a share to each: {', '.join(parts)}."


def leaderboard_html(rows) -> str:
    """The leaderboard as a table (place, name, games, wins, points per game); equal records share a place.

    A share of a shared win is written as a fraction (``½``), and a note under
    the table says what it counts (see :func:`shared_wins_note`).
    """
    if not rows:
        return '<div class="gopskit-caption">The leaderboard fills as games finish.</div>'
    body = "".join(
        f"<tr><td>{r['place']}</td><td>{escape(r['name'])}</td><td>{r['games']}</td>"
        f"<td>{wins_text(r['wins'])}</td><td>{fixed(r['points_per_game'])}</td></tr>" for r in rows)
    note = shared_wins_note(rows)
    note = f'<div class="gopskit-caption">{escape(note)}</div>' if note else ""
    return ('<table class="gopskit-leaderboard"><thead><tr><th>#</th><th>Name</th><th>Games</th><th>Wins</th>'
            f"<th>Points per game</th></tr></thead><tbody>{body}</tbody></table>{note}")


def overview_html(overview, describe=game_line) -> str:
    """The teacher's dashboard below the buttons: students, tables, leaderboard (``describe``: see :func:`lobby_html`)."""
    settings = overview.settings
    pairing = pairing_words(settings["pairing"])
    rounds = f" · round {overview.round} of {overview.rounds}" if overview.rounds else ""
    status = "" if overview.status == "open" else " · <b>ended</b>"
    return (
        f'<div class="gopskit-classroom"><div class="gopskit-caption">{escape(describe(overview.game, overview.options))}'
        f" · {escape(pairing)}{rounds} · the {escape(bot_label(str(settings['bot'])))} stands in after "
        f"{_number(settings['timeout'])} s{status}</div>"
        f"<h3>Students ({len(overview.players)})</h3>{people_html(overview.players)}"
        f"<h3>Tables</h3>{tables_html(overview.tables)}"
        f"<h3>Leaderboard</h3>{leaderboard_html(overview.leaderboard)}</div>"
    )


def download_link_html(data: bytes, filename: str) -> str:
    """A link that saves ``data`` as ``filename`` from the browser (a data URL: no file server needed)."""
    import base64

    encoded = base64.b64encode(data).decode("ascii")
    return (f'<a class="gopskit-download" download="{escape(filename)}" '
            f'href="data:application/zip;base64,{encoded}">Download {escape(filename)}</a>')


def _number(value) -> str:
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:.1f}"


__all__ = ["PAIRING_WORDS", "SEAT_KIND_WORDS", "code_text", "download_link_html", "is_loopback", "student_addresses", "students_address_html", "game_line", "leaderboard_html", "shared_wins_note", "wins_text", "lobby_html", "overview_html", "pairing_words", "people_html",
           "room_code_html", "style_block", "table_card_html", "tables_html"]
