"""The classroom apps: a student's page and the teacher's page (ipywidgets, for Voila).

Each Voila page has its own kernel; the pages of one class meet in the
store (:class:`~gopskit.classroom.ClassroomStore`). A page polls the store's
few version numbers every :data:`STUDENT_POLL` seconds and redraws only when
one changes, so a reveal reaches every screen of a table within about one
poll. Three parts:

* :class:`SeatBoard` draws one seat's :class:`~gopskit.classroom.gameplay.SeatView`
  with the game's own view (:mod:`gopskit.widgets.views`): the same table,
  cards and history as the single-screen boards, the same test hooks
  (``gopskit-card``, ``gopskit-confirm``, ``gopskit-status``). A click is a
  move sent to the store, never applied locally.
* :class:`StudentApp`: name and room code, the lobby, the table, a rematch.
* :class:`TeacherApp`: make a room, watch every table, pair, end, export.
  When the server has a teacher passcode (``gopskit serve --host 0.0.0.0``
  makes one), the page asks for it before it shows the room form; a page
  that reopens its own room from the key its browser saved does not ask.

:class:`BrowserBridge` (an ``anywidget``) keeps the page's key in the
browser (``sessionStorage``, then ``localStorage``), so a reload resumes the
same seat, and beats every two seconds while the page is open: the store
counts a student as present only while their browser beats.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import threading
import time
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

import ipywidgets as widgets
import traitlets

from ..agents import agent_names, make_agent
from ..cards import counted
from ..classroom import ClassroomStore, challenges, gameplay, rooms
from ..classroom import html as pages
from ..classroom.db import default_url
from ..classroom.errors import AccessError
from ..classroom.live import BRIDGE_ESM, Poller
from ..classroom.pairing import PAIRINGS
from ..classroom.tokens import SERVED_BEYOND_ENV, hub_teacher_refusal, passcode_matches, served_passcode
from ..errors import GopsError, OptionError
from ..games import available_games, rules_class
from ..games.wording import describe_game  # the room's game in the boards' words (UI-free: the CLI says it too)
from ..viz.svg import points_chart_svg
from .assets import style_html
from .boards import view_for
from .cards import render_card
from .hand import SAY_THINKING_AFTER, close_gone, dress_button, hand_slots, wait_for_bots
from .panel import HintedControl, option_control, panel_message, read_control
from .seats import bot_label
from .views.base import final_status, render_history_table, render_summary

STUDENT_POLL = 0.1
TEACHER_POLL = 0.5
BEAT_MS = 2000
RESULT_SECONDS = 6.0  # a finished game stays on screen at least this long before the next one replaces it
NO_BRIDGE_AFTER = 10.0  # seconds without a browser beat before the kernel beats for the page itself
#: The longest text a page's browser may hand back from its storage (a page saves about 150 characters).
MAX_SAVED = 2000
#: The longest address a page's browser may report (longer ones are ignored).
MAX_PAGE_URL = 2000
_KEY = re.compile(r"[A-Za-z0-9_-]{16,200}")  # a key as the store makes them (URL-safe text)

try:
    import anywidget
except ImportError:  # pragma: no cover - the kit depends on it; without it pages just do not resume
    anywidget = None



def make_bridge(storage_key: str):
    """A :class:`BrowserBridge` for ``storage_key``, or ``None`` without anywidget."""
    if anywidget is None:
        return None

    class BrowserBridge(anywidget.AnyWidget):
        """Keeps one value in the browser's storage and beats while the page is open."""

        _esm = BRIDGE_ESM
        storage_key = traitlets.Unicode("").tag(sync=True)
        saved = traitlets.Unicode("").tag(sync=True)
        page_url = traitlets.Unicode("").tag(sync=True)
        to_save = traitlets.Unicode("").tag(sync=True)
        loaded = traitlets.Bool(False).tag(sync=True)
        beats = traitlets.Int(0).tag(sync=True)
        every_ms = traitlets.Int(BEAT_MS).tag(sync=True)

    return BrowserBridge(storage_key=storage_key)


def saved_keys(text, key_field: str) -> dict | None:
    """What a page's browser handed back from its storage, if it is what the page saved there; else ``None``.

    The browser's side of a page can be changed by anyone using it, so the
    value is checked like any message from it: text of at most
    :data:`MAX_SAVED` characters holding a JSON object whose ``store`` is
    text and whose ``key_field`` (``"player_key"``, ``"teacher_key"``) is a
    key as the store makes them. Anything else counts as nothing saved.

    >>> saved_keys('{"store": "/tmp/c.sqlite3", "player_key": "abcdefghijklmnop"}', "player_key")
    {'store': '/tmp/c.sqlite3', 'player_key': 'abcdefghijklmnop'}
    >>> [saved_keys(t, "player_key") for t in ("[1]", "null", '{"player_key": 5}', "{", "x" * 5000)]
    [None, None, None, None, None]
    """
    if not isinstance(text, str) or not text or len(text) > MAX_SAVED:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    store, key = data.get("store"), data.get(key_field)
    if not isinstance(store, str) or len(store) > MAX_SAVED or not isinstance(key, str) or not _KEY.fullmatch(key):
        return None
    return {"store": store, key_field: key}


def page_address(text) -> str:
    """The page's address as its browser reported it, if it is a web address; else ``""``.

    >>> page_address("http://10.0.0.5:8866/voila/render/classroom-teacher.ipynb")
    'http://10.0.0.5:8866/voila/render/classroom-teacher.ipynb'
    >>> [page_address(t) for t in ("http://[abc/", "http://h:99999999/", "x" * 3000, 5)]
    ['', '', '', '']
    """
    if not isinstance(text, str) or len(text) > MAX_PAGE_URL or not text.isprintable():
        return ""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  (raises ValueError on a port out of range)
    except ValueError:
        return ""
    return text if parts.scheme in ("http", "https") and parts.hostname else ""


def guarded(method):
    """Run a callback so that nothing it raises reaches the class: show it on the app's message line."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except GopsError as exc:
            self.show_message(str(exc), error=True)
        except Exception as exc:  # a bug: keep the page alive and the error for tests
            self.last_error = exc
            self.show_message(f"Something went wrong ({type(exc).__name__}: {exc}).", error=True)
        return None

    return wrapper


# ------------------------------------------------------------------ board ---
class SeatBoard(widgets.VBox):
    """One seat of a game that lives in the store; see the module docstring."""

    status = traitlets.Unicode("", help="the status line, as plain text")
    turn = traitlets.Int(0, help="complete plies so far")
    finished = traitlets.Bool(False)
    selected = traitlets.Any(None, allow_none=True)

    def __init__(self, game: str, play, shown=None):
        super().__init__()
        self.view, self._play, self.seat_view, self.last_error = view_for(game), play, None, None
        self._shown = shown  # called with each view once it is drawn
        self._cards: list = []
        self._slots: list = []  # the hand row's slots, in order; each belongs to the card it shows
        self._slot_by_key: dict = {}
        self._title, self._status, self._table, self._last = (widgets.HTML() for _ in range(4))
        self._status.add_class("gopskit-status")
        self._hand, self._summary, self._history = widgets.Box(), widgets.HTML(), widgets.HTML()
        self._hand.add_class("gopskit-hand")
        self._hand_label = widgets.HTML()  # a title over a row of choices that are not cards
        self._confirm = widgets.Button(description=self.view.confirm_label, icon="check", button_style="primary")
        self._confirm.add_class("gopskit-confirm")
        self._confirm.on_click(lambda _b: self._confirm_clicked())
        play_area = widgets.VBox([self._last, self._hand_label, self._hand, self._confirm])
        play_area.add_class("gopskit-play")
        main = widgets.Box([self._table, play_area])
        main.add_class("gopskit-main")
        self.children = [self._title, self._status, main, self._summary, self._history]
        self.add_class("gopskit-board")

    def show(self, seat_view) -> None:
        """Draw ``seat_view``; a chosen card stays chosen while it is still playable."""
        self.seat_view = seat_view
        if not seat_view.my_turn or self.selected not in seat_view.observation["legal_moves"]:
            self.selected = None
        self.turn, self.finished = seat_view.ply, seat_view.status != "playing"
        self._render()
        if self._shown is not None:
            self._shown(seat_view)

    @guarded
    def click_card(self, move) -> None:
        """Choose ``move`` (a click on that card); games without a confirm step play it at once."""
        seat_view = self._need_turn()
        if move not in seat_view.observation["legal_moves"]:
            raise GopsError(f"{move!r} cannot be played now; playable: {', '.join(map(str, seat_view.observation['legal_moves']))}")
        if self.view.confirm:
            self.selected = move
            self._render()
        else:
            self._send_move(move)

    @guarded
    def confirm(self) -> None:
        """Send the chosen card to the store (the confirm button, or Enter)."""
        self._need_turn()
        if self.selected is None:
            raise GopsError("choose a card first, then confirm")
        self._send_move(self.selected)

    def show_message(self, text: str, error: bool = False) -> None:
        self._set_status(text, error)

    def wait_for_bots(self) -> None:
        """The table's bots are still working out their moves as this student's goes: say so, grey the cards."""
        v, names = self.seat_view, self.names()
        bots = [names[p] for p, kind in enumerate(v.kinds) if kind != "student" and p != v.seat]
        if bots:
            self._set_status(wait_for_bots(self._slots, self._confirm, bots))

    def _send_move(self, move) -> None:
        try:
            seat_view = self._play(move, self.seat_view.ply)
        finally:
            self.selected = None
        self.show(seat_view)

    def _need_turn(self):
        if self.seat_view is None or not self.seat_view.my_turn:
            raise GopsError("it is not your turn now")
        return self.seat_view

    def names(self) -> list[str]:
        v = self.seat_view
        return [f"{n} (you)" if p == v.seat else n + (f" ({pages.SEAT_KIND_WORDS[k]})" if k == "stand-in" else "")
                for p, (n, k) in enumerate(zip(v.names, v.kinds))]

    def _render(self) -> None:
        v, names = self.seat_view, self.names()
        plain = list(v.names)
        self._title.value = (f'<div class="gopskit-title"><span class="gopskit-game">{escape(self.view.title)}</span>'
                             f'<span class="gopskit-rules-line">Table {v.number}</span></div>')
        self._table.value = self.view.render_table(v.state, v.seat, names)
        self._last.value = self.view.render_last(v.state, v.seat, plain)
        self._history.value = render_history_table(*self.view.history(v.state, v.seat, plain))
        self._render_hand()
        self._set_status(self._status_text(plain))
        if self.finished and v.scores is not None:
            series = self.view.points_by_turn(v.state)
            chart = (points_chart_svg(series, plain, title=self.view.chart_title, axis=self.view.chart_axis)
                     if len(series[0]) > 1 else "")
            self._summary.value = render_summary(plain, v.scores, v.winners, chart, rule=self.view.end_rule_text(v.state),
                                                 cut_off=self.view.cut_off_text(v.state))
        else:
            self._summary.value = ""

    def _status_text(self, names) -> str:
        v = self.seat_view
        if v.status == "finished":
            return final_status(names, v.scores, v.winners, rule=self.view.end_rule_text(v.state),
                                cut_off=self.view.cut_off_text(v.state))
        if v.status == "ended":
            return "The teacher has ended the room: this game stops here."
        waiting = " and ".join(names[p] for p in v.waiting_for if p != v.seat) or "the others"
        if v.my_move is not None:
            return f"You played {self._label(v.my_move)}. Waiting for {waiting}…"
        if not v.my_turn:
            return f"Waiting for {waiting}…"
        if self.selected is not None:
            return f"You chose {self._label(self.selected)}. Confirm (Enter), or pick another card."
        return self.view.prompt(v.state, v.seat, [f"{n}" for n in names])

    def _label(self, move) -> str:
        return next((c.label() for c in self._cards if c.move == move), str(move))

    def _slot_key(self, card) -> tuple:
        """What a slot stands for: this table, this deal, and the card's move."""
        v = self.seat_view
        hands = getattr(v.state, "hands", None)
        move = card.move if isinstance(card.move, (int, str, tuple)) else repr(card.move)
        return v.table, len(hands) if hands is not None else 1, move

    def _render_hand(self) -> None:
        """The hand row: a slot per card, kept by the card it shows (see :mod:`gopskit.widgets.hand`)."""
        v = self.seat_view
        self._cards = self.view.hand(v.state, v.seat) if v.status == "playing" else []
        keys = [self._slot_key(card) for card in self._cards]
        self._slots = hand_slots(self._slot_by_key, keys, self._card_clicked)
        for card, (box, face, button) in zip(self._cards, self._slots):
            chosen = card.move in (self.selected, v.my_move)
            face.value = self._face_html(card, chosen)
            button.disabled = not (v.my_turn and card.legal)
            dress_button(button, card, v.my_turn)
        self._hand.children = [slot[0] for slot in self._slots]
        close_gone(self._slot_by_key, keys)
        self._hand_label.value = self._hand_title()
        self._confirm.layout.display = None if self.view.confirm and v.my_turn else "none"
        self._confirm.disabled = self.selected is None

    def _hand_title(self) -> str:
        """Over a row of choices (a Goose's trick), the question the ordinary boards ask; nothing over cards."""
        if not self._cards or any(c.is_card for c in self._cards):
            return ""
        title = self.view.choice_title(self.seat_view.state, self.seat_view.seat, self.names())
        return f'<div class="gopskit-label">{escape(title)}</div>'

    @staticmethod
    def _face_html(card, chosen: bool) -> str:
        """A card of the hand row drawn as on the ordinary boards: a card face named by its one
        name, or a plain labelled choice for a move that is not a card (who takes a Goose's trick)."""
        selected = "gopskit-selected" if chosen else ""
        if not card.is_card:
            return f'<div class="gopskit-choice {selected}" data-name="{escape(card.label())}">{escape(card.label())}</div>'
        return render_card(card.rank, card.suit, size="large", classes=selected, name=card.label())

    def _card_clicked(self, key) -> None:
        """A click on the slot of card ``key``. A click sent before the page changed (the second click of a
        double click, a click as the table moved on) may name a card that has left the hand, or come when it is
        no longer this student's move: its button is gone or disabled on the screen, so it is dropped."""
        keys = [self._slot_key(card) for card in self._cards]
        if key not in keys or self.seat_view is None or not self.seat_view.my_turn:
            return
        card = self._cards[keys.index(key)]
        if card.legal:
            self.click_card(card.move)

    def _confirm_clicked(self) -> None:
        """The confirm button: disabled until a card is chosen, so a click with none chosen (the second of a
        double click) is dropped; :meth:`confirm` itself still refuses."""
        if self.selected is not None:
            self.confirm()

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status = text
        cls = "gopskit-status-text gopskit-error" if error else "gopskit-status-text"
        self._status.value = f'<div class="{cls}" aria-live="polite">{escape(text)}</div>'


# ---------------------------------------------------------------- helpers ---
_LABEL = {"description_width": "initial"}  # a label as wide as its words: never "Away afte…"
JOIN_FALLBACK = 5.0  # seconds: Join comes back even if the browser bridge never reports

ROOM_HINTS = {  # the room settings under the game's options, each explained under its control as the options are
    "bot": "plays the seats no student fills, and the seat of a student who is away",
    "timeout": "a student who sends nothing for this long on their move is “away”: the bot plays their seat "
               "until they come back",
    "auto": "waiting students are seated as soon as a table can be filled; any left over wait for "
            "“Seat waiting students”, which fills their table with the bot",
    "round-robin": "only with “Random tables”: in a round robin students are seated when you press "
                   "“Start round robin”",
    "challenge": "only with “Random tables”: with challenges students are seated when a challenge is accepted",
}


def _title(name: str, line: str) -> str:
    """The apps' title line, as on the boards."""
    return (f'<div class="gopskit-title"><span class="gopskit-game">{escape(name)}</span>'
            f'<span class="gopskit-rules-line">{escape(line)}</span></div>')


def form_control(spec, value) -> widgets.Widget:
    """The teacher form's control for one game option; seats count from Player 1, as on the boards.

    >>> from gopskit.widgets.views.base import OptionSpec
    >>> form_control(OptionSpec("dealer", "First dealer (seat)", "int", low=0, high=6), 0).options[:2]
    (('Player 1', 0), ('Player 2', 1))
    """
    if spec.name == "dealer" and spec.kind == "int":
        seats = [(f"Player {seat + 1}", seat) for seat in range(spec.low, (spec.high or 6) + 1)]
        control = widgets.Dropdown(options=seats, value=int(value or 0), description="First dealer", style=_LABEL)
        control.add_class("gopskit-option")
        return control
    return option_control(spec, value)


def network_addresses() -> list[str]:
    """This computer's IPv4 addresses other than loopback (from its own name: nothing is sent anywhere)."""
    import socket

    try:
        found = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        return []
    return sorted(a for a in found if not a.startswith("127."))


# ---------------------------------------------------------------- student ---
def _button(label: str, css: str, style: str = "", icon: str = "") -> widgets.Button:
    button = widgets.Button(description=label, button_style=style, icon=icon, layout=widgets.Layout(width="auto"))
    button.add_class(css)
    return button


class StudentApp(widgets.VBox):
    """A student's page: join with a name and the room code, wait, play, ask for a rematch.

    ``phase`` is ``"join"``, ``"lobby"``, ``"table"``, ``"ended"``, or
    ``"elsewhere"`` once another page of the same student took the seat. The
    store opens on the first join (``url``: see :func:`~gopskit.classroom.db.default_url`).
    """

    phase = traitlets.Unicode("join")

    def __init__(self, url: str | None = None, store: ClassroomStore | None = None, poll: float = STUDENT_POLL,
                 bridge: bool = True):
        super().__init__()
        self.url, self.store, self.last_error = url, store, None
        self.player_key = self.room = self.seat = None
        self._seen: dict = {}
        self._timers = {"beat": time.monotonic(), "keep": 0.0, "lobby": 0.0, "browser": None}
        self.poller = Poller(self.tick, poll)
        self._name = widgets.Text(placeholder="your name", description="Name", style=_LABEL)
        self._name.add_class("gopskit-name-input")
        self._code = widgets.Text(placeholder="e.g. KQ7-F3M", description="Room code", style=_LABEL)
        self._code.add_class("gopskit-code-input")
        self._join_button = join = _button("Join", "gopskit-join", "primary", "sign-in")
        join.on_click(lambda _b: self.join(self._name.value, self._code.value))
        self._join_box = widgets.VBox([widgets.HTML("<h2>Join your class</h2>"), self._name, self._code, join])
        self._join_box.add_class("gopskit-form")
        self._message, self._lobby, self._challenges = widgets.HTML(), widgets.HTML(), widgets.VBox()
        self._message.add_class("gopskit-message")
        self._board_box, self._after = widgets.VBox(), widgets.HBox()
        # the buttons under a finished game, made once: a redraw (each time the table changes) only shows them
        self._rematch = _button("Rematch", "gopskit-rematch", "success", "repeat")
        self._rematch.on_click(lambda _b: self.ask_rematch())
        self._back = _button("Back to the lobby", "gopskit-back", "", "arrow-left")
        self._back.on_click(lambda _b: self.back_to_lobby())
        self.board: SeatBoard | None = None
        self._thinking: threading.Thread | None = None  # the table's bots working out their moves (_let_bots_think)
        self._think_lock, self._think_again = threading.Lock(), False
        self.bridge = make_bridge("gopskit-classroom-student") if bridge else None
        extra = [self.bridge] if self.bridge is not None else []
        if self.bridge is not None:
            self.bridge.observe(self._browser_loaded, "loaded")
            self.bridge.observe(self._browser_beat, "beats")
            self._hold_join_until_connected()
        self.children = [widgets.HTML(style_html() + pages.style_block() + _title("Classroom", "play your classmates")),
                         self._message, self._join_box, self._lobby, self._challenges, self._board_box,
                         self._after] + extra
        self.add_class("gopskit-classroom-app")

    # -- joining -------------------------------------------------------------
    def _open(self) -> ClassroomStore:
        if self.store is None:
            self.store = ClassroomStore(self.url)
        return self.store

    def _hold_join_until_connected(self) -> None:
        """Keep Join disabled until the browser's side of the page is connected (the bridge has loaded).

        The button says so ("Connecting…") until the browser has reported
        through the bridge; then a click surely reaches the kernel. If the
        bridge never loads the button comes back after :data:`JOIN_FALLBACK`
        seconds (in a kernel Voila preheated, that time may pass before the
        page is opened: the button is then ready at once). Without a kernel
        loop (tests) there is nothing to wait for.
        """
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # plain Python (tests): nothing to wait for
        self._join_button.disabled, self._join_button.description = True, "Connecting…"
        loop.call_later(JOIN_FALLBACK, self._join_ready)

    def _join_ready(self, *_args) -> None:
        if self._join_button.description == "Connecting…":
            self._join_button.disabled, self._join_button.description = False, "Join"

    @guarded
    def join(self, name: str, code: str) -> None:
        """Join the room; the page keeps the student's key (in the browser too).

        The button is disabled while the store answers, and the page says so:
        a second click cannot join twice, and a slow first join is not mistaken
        for a click that did nothing.
        """
        if self.player_key is not None or self._join_button.description == "Joining…":
            return  # a second click queued behind the first: this page has joined already
        self._join_button.disabled, self._join_button.description = True, "Joining…"
        self.show_message("Joining the room…")
        try:
            keys = self._open().join(code, name)
        finally:
            self._join_button.disabled, self._join_button.description = False, "Join"
        self._enter(keys.player_key, keys.room)
        self.show_message(f"Welcome, {keys.name}! You are in room {pages.code_text(keys.room)}.")

    @guarded
    def resume(self, player_key: str) -> None:
        """Take up the student's place again (a reloaded page): same room, same seat."""
        lobby = self._open().lobby(player_key)
        if lobby.status != "open":  # last lesson's room (the browser still holds its key): keep the form
            self.show_message(f"Your last room, {pages.code_text(lobby.room)}, has ended: type your name and "
                              "today's room code.")
            return
        self._enter(player_key, lobby.room)
        self.show_message(f"Welcome back, {lobby.me}.")

    def _enter(self, player_key: str, room: str) -> None:
        self.player_key, self.room, self.phase = player_key, room, "lobby"
        self._join_box.layout.display = "none"
        if self.bridge is not None:
            self.bridge.to_save = json.dumps({"room": room, "player_key": player_key, "store": self._store_name()})
        self.store.heartbeat(player_key)
        self.tick()
        self.poller.start()

    def _store_name(self) -> str:
        return self.url or default_url()

    @guarded
    def _browser_loaded(self, change) -> None:
        self._timers["browser"] = time.monotonic()
        self._join_ready()
        data = saved_keys(self.bridge.saved, "player_key")  # None unless it is what this page saved
        if self.player_key is None and data is not None and data["store"] == self._store_name():
            self.resume(data["player_key"])

    def _browser_beat(self, _change) -> None:
        self._timers["browser"] = time.monotonic()
        if self.player_key is not None and self.phase != "ended":
            self._beat()

    @guarded
    def _beat(self) -> None:
        self.store.heartbeat(self.player_key)
        self._timers["beat"] = time.monotonic()

    # -- the loop --------------------------------------------------------------
    @guarded
    def tick(self) -> None:
        """One look at the store: redraw what changed, play on, keep the room moving."""
        if self.player_key is None:
            return
        pulse = self.store.pulse(self.player_key, self.seat.seat_key if self.seat else None)
        now = time.monotonic()
        if not pulse.seat_held:
            self.poller.stop()
            self.phase = "elsewhere"
            raise AccessError("this seat is now played from another page or tab; reload this page to take it back")
        if pulse.room_status != "open":
            self._room_ended()
        elif pulse.table and (pulse.table_status == "playing" or pulse.table == self._seen.get("table")):
            self._at_table(pulse, now)
        elif now - self._timers["keep"] > 1.0:
            self.store.keep_schedule(self.player_key)
            self._timers["keep"] = now
        if pulse.room_version != self._seen.get("room") or now - self._timers["lobby"] > 2.0:
            self._refresh_lobby()
            self._seen["room"], self._timers["lobby"] = pulse.room_version, now
        browser = self._timers["browser"]
        if (browser is None or now - browser > NO_BRIDGE_AFTER) and now - self._timers["beat"] > BEAT_MS / 1000:
            self._beat()  # no browser bridge (a plain kernel): the kernel vouches for the page itself

    def _at_table(self, pulse, now: float) -> None:
        if pulse.table != self._seen.get("table"):
            done = self._seen.get("finished")
            if done and done[0] == self._seen.get("table") and now - done[1] < RESULT_SECONDS:
                self.show_message("Your next game is ready: it starts in a moment.")
                return  # let the student read the result first
            self.seat = self.store.claim_seat(self.player_key, pulse.table)
            self._seen.update(table=pulse.table, version=None)
            if self.board is None:  # one board per page: a room plays one game, table after table
                self.board = SeatBoard(self._lobby_game, self._play, self._let_bots_think)
            self._board_box.children = [self.board]
            self.phase = "table"
        if pulse.table_version != self._seen.get("version"):
            self._redraw()
        if pulse.table_status == "playing" and now - self._timers["keep"] > 2.0:
            self.store.keep_table(self.seat.seat_key)
            self._timers["keep"] = now

    def _redraw(self) -> None:
        try:
            view = self.store.seat_view(self.seat.seat_key)
        except AccessError:
            self.poller.stop()
            raise AccessError("this seat is now played from another page or tab; reload this page to take it back") from None
        self.board.show(view)
        self._seen["version"] = view.version
        self._after_game(view)

    def _play(self, move, ply):
        thinking = self._thinking
        if thinking is not None and self.board is not None:
            thinking.join(SAY_THINKING_AFTER)
            if thinking.is_alive():
                self.board.wait_for_bots()  # the move may wait for them (a 13-card solve): the page says so meanwhile
        view = self.store.submit(self.seat.seat_key, move, ply)
        self._seen["version"] = view.version
        self._after_game(view)
        return view

    def _let_bots_think(self, view) -> None:
        """The turn is on screen: let the table's bots choose their moves now, in a thread, while the student thinks.

        Their moves wait in this kernel's memory (the student's page is this
        kernel's only client), so the click that follows is answered without
        waiting for a bot: a 13-card equilibrium bot's solve (a second, or
        rarely six at the third turn) happens while the student reads the
        turn, as on the single-page boards, and the page stays live
        meanwhile (the solver's compiled code frees the interpreter). One
        such thread at a time: a turn drawn while it runs is thought about
        by the same thread when it is done, and a move sent meanwhile works
        out what is still missing itself.
        """
        if not (view.my_turn and any(kind != "student" for p, kind in enumerate(view.kinds) if p != view.seat)):
            return
        with self._think_lock:
            self._think_again = True
            if self._thinking is None:
                self._thinking = threading.Thread(target=self._think_for_bots, args=(self.seat.seat_key,),
                                                  name="gopskit-bots-think", daemon=True)
                self._thinking.start()

    def _think_for_bots(self, seat_key: str) -> None:
        while True:
            with self._think_lock:
                if not self._think_again:
                    self._thinking = None
                    return
                self._think_again = False
            self.store.think_for_bots(seat_key)  # never raises: only time is at stake

    def _after_game(self, view) -> None:
        if view.status == "playing":
            self._after.children = []
            return
        if (self._seen.get("finished") or (None,))[0] != view.table:
            self._seen["finished"] = (view.table, time.monotonic())
        self._rematch.disabled = view.seat in view.rematch
        self._after.children = [self._rematch, self._back] if self._lobby_pairing != "round-robin" else [self._back]

    @guarded
    def ask_rematch(self) -> None:
        """Ask for a rematch. Asking again changes nothing, so it is answered from a read (see :meth:`_check`)."""
        if self.seat is None:
            raise GopsError("there is no finished game to rematch yet")
        seat_key = self.seat.seat_key
        due = self._check(lambda tx: rooms.rematch_due(tx, gameplay.seat_by_key(tx, seat_key)))
        table = self.store.ask_rematch(seat_key) if due else None
        self.show_message("A new game is starting." if table else "Rematch asked: waiting for the others to agree.")
        self.tick()

    def _check(self, work):
        """Run ``work(tx)``, a store function that only reads, in a read transaction; return what it returns.

        A page's client can click any button thousands of times a second, and
        every write takes the store's write lock, which the whole class shares.
        So a click first passes the checks of what it asks for in a read: one
        that would change nothing (a rematch or a challenge asked again, a
        challenge already answered) is answered from that read alone.
        """
        return self.store.db.run(work, write=False)

    def back_to_lobby(self) -> None:
        self._board_box.children, self._after.children, self.phase = [], [], "lobby"

    def _room_ended(self) -> None:
        if self.phase != "ended":
            self.phase = "ended"
            self.poller.stop()
            self._refresh_lobby()
            if self.board is not None and self.seat is not None:
                self._redraw()
            self.show_message("The teacher has ended this room. Thank you for playing!")

    # -- the lobby -------------------------------------------------------------
    @property
    def _lobby_game(self) -> str:
        return self._seen.get("game", "goofspiel")

    @property
    def _lobby_pairing(self) -> str:
        return self._seen.get("pairing", "random")

    def _refresh_lobby(self) -> None:
        lobby = self.store.lobby(self.player_key)
        self._seen.update(game=lobby.game, pairing=lobby.pairing)
        self._lobby.value = pages.lobby_html(lobby, describe_game)
        waiting = [p["name"] for p in lobby.players if p["state"] == "waiting" and p["name"] != lobby.me]
        shown = (tuple(c["id"] for c in lobby.challenges_to_me), tuple(waiting), lobby.status, lobby.pairing)
        if shown != self._seen.get("challenges"):  # rebuilt only on change: a half-made choice stays put
            self._seen["challenges"] = shown
            self._challenges.children = self._challenge_rows(lobby, waiting)

    def _challenge_rows(self, lobby, waiting) -> list:
        rows = []
        for challenge in lobby.challenges_to_me:
            yes, no = _button("Accept", "gopskit-accept", "success"), _button("Decline", "gopskit-decline")
            yes.on_click(lambda _b, c=challenge["id"]: self.answer(c, True))
            no.on_click(lambda _b, c=challenge["id"]: self.answer(c, False))
            rows.append(widgets.HBox([widgets.HTML(f"<b>{escape(challenge['name'])}</b> challenges you."), yes, no]))
        if lobby.status == "open" and lobby.pairing == "challenge" and waiting:
            pick = widgets.Dropdown(options=waiting, description="Challenge")
            go = _button("Send challenge", "gopskit-challenge", "primary")
            go.on_click(lambda _b: self.challenge(pick.value))
            rows.append(widgets.HBox([pick, go]))
        return rows

    @guarded
    def challenge(self, name: str) -> None:
        """Challenge the student called ``name``; a challenge already open is not sent again (a read only)."""
        player_key = self._need_key()
        target, open_already = self._check(lambda tx: challenges.check_challenge(tx, player_key, name)[2:])
        if open_already is None:
            self.store.challenge(player_key, name)
        self.show_message(f"Challenge sent to {target['name']}.")

    @guarded
    def answer(self, challenge_id: str, accept: bool) -> None:
        """Accept or decline a challenge; one no longer open is refused from a read."""
        player_key = self._need_key()
        self._check(lambda tx: challenges.check_answer(tx, player_key, challenge_id))
        self.store.answer_challenge(player_key, challenge_id, accept)
        self.tick()

    def _need_key(self) -> str:
        if self.player_key is None or self.store is None:
            raise GopsError("join the room first: type your name and the room code")
        return self.player_key

    def show_message(self, text: str, error: bool = False) -> None:
        cls = "gopskit-error" if error else "gopskit-caption"
        self._message.value = f'<div class="{cls}" aria-live="polite">{escape(text)}</div>'
        if error and self.board is not None:
            self.board.show_message(text, error=True)


# ---------------------------------------------------------------- teacher ---
WRONG_PASSCODE = ("That is not the teacher passcode: type the one gopskit serve printed in its terminal "
                  "(case, spaces and dashes do not matter). No room was opened.")
NEED_PASSCODE = "type the teacher passcode first: a room opens only once it is right"
#: Wrong passcodes one page takes; then only a reload (paced by the server per address) gives more tries.
PASSCODE_TRIES = 5
TOO_MANY_TRIES = (f"{PASSCODE_TRIES} wrong passcodes on this page: reload the page to try again, with the passcode "
                  "gopskit serve printed in its terminal.")
_FROM_SERVER = object()


class TeacherApp(widgets.VBox):
    """The teacher's page: make a room, watch it live, pair the class, end it, export it.

    ``passcode``: the teacher passcode the page asks for before it shows the
    room form; by default the server's (:func:`~gopskit.classroom.tokens.served_passcode`),
    ``None`` for none. ``locked`` is true while it waits for it. After
    :data:`PASSCODE_TRIES` wrong ones the page takes no more (a reload does).
    """

    locked = traitlets.Bool(False)

    def __init__(self, url: str | None = None, store: ClassroomStore | None = None, poll: float = TEACHER_POLL,
                 bridge: bool = True, export_folder=None, passcode=_FROM_SERVER):
        super().__init__()
        self.url, self.store, self.last_error, self.teacher_key, self.code = url, store, None, None, None
        self._passcode = served_passcode() if passcode is _FROM_SERVER else passcode
        self._wrong_tries = 0
        self.export_folder = Path(export_folder) if export_folder else None
        self.poller, self._fingerprint, self._shown_at, self._end_asked = Poller(self.tick, poll), None, 0.0, -99.0
        # games by their display titles (the boards' own), the registry names stay the values
        self._game = widgets.Dropdown(options=[(view_for(g).title, g) for g in available_games()], value="goofspiel",
                                      description="Game", style=_LABEL)
        self._options_box, self._controls = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap")), {}
        self._options_box.add_class("gopskit-form-options")
        self._options_box.add_class("gopskit-option-grid")
        self._pairing = widgets.Dropdown(options=[(pages.PAIRING_WORDS[p][0], p) for p in PAIRINGS], value="random",
                                         description="Pairing", style=_LABEL)
        self._pairing_hinted = HintedControl(self._pairing)
        self._bot = widgets.Dropdown(description="Bot standing in", style=_LABEL)
        self._bot_hinted = HintedControl(self._bot, ROOM_HINTS["bot"])
        self._bot.observe(lambda _c: self._show_hints(), "value")
        self._timeout = widgets.BoundedIntText(value=60, min=5, max=3600, description="Away after (seconds)",
                                               style=_LABEL)
        self._timeout_hinted = HintedControl(self._timeout, ROOM_HINTS["timeout"])
        self._auto = widgets.Checkbox(value=True, description="Seat students as they arrive", indent=False)
        self._auto_hinted = HintedControl(self._auto)
        self._pairing.observe(lambda _c: self._pairing_changed(), "value")
        self._pairing_changed()
        create = _button("Open the room", "gopskit-create-room", "primary", "door-open")
        create.on_click(lambda _b: self.create())
        self._game.observe(lambda _c: self._game_changed(), "value")
        room_settings = widgets.HBox([self._pairing_hinted, self._bot_hinted, self._timeout_hinted, self._auto_hinted],
                                     layout=widgets.Layout(flex_flow="row wrap"))
        room_settings.add_class("gopskit-option-grid")
        self._form = widgets.VBox([widgets.HTML("<h2>Open a room</h2>"), self._game, self._options_box,
                                   room_settings, create])
        self._form.add_class("gopskit-form")
        self._code_html, self._dashboard, self._message, self._download = (widgets.HTML() for _ in range(4))
        self._message.add_class("gopskit-message")
        buttons = [("Seat waiting students", "gopskit-pair", self.pair), ("Start round robin", "gopskit-round-robin",
                   self.round_robin), ("Export", "gopskit-export", self.export), ("End room", "gopskit-end-room", self.end)]
        self._actions = widgets.HBox([self._action(label, css, call) for label, css, call in buttons])
        self._room_box = widgets.VBox([self._code_html, self._actions, self._download, self._dashboard])
        self._room_box.layout.display = "none"
        self._lock_box = self._passcode_form()
        self._refusal = hub_teacher_refusal()  # a student's own server on a hub whose teachers are named
        self.locked = self._passcode is not None or self._refusal is not None
        self._form.layout.display = "none" if self.locked else None
        self._lock_box.layout.display = None if self._passcode is not None and self._refusal is None else "none"
        self.bridge = make_bridge("gopskit-classroom-teacher") if bridge else None
        if self.bridge is not None:
            self.bridge.observe(self._browser_loaded, "loaded")
        self.children = [widgets.HTML(style_html() + pages.style_block() + _title("Classroom", "the teacher's page")),
                         self._message, self._lock_box, self._form, self._room_box] + (
                             [self.bridge] if self.bridge is not None else [])
        if self.bridge is not None:
            self.bridge.observe(lambda _c: self._show_code(), "page_url")
        self._game_changed()
        if self._refusal is not None:
            self._message.value = f'<div class="gopskit-error">{escape(self._refusal)}</div>'
        self.add_class("gopskit-classroom-app")

    def _passcode_form(self) -> widgets.VBox:
        """The passcode's box: what it is, where to find it, and the field (Enter or “Unlock” sends it)."""
        self._passcode_input = widgets.Password(description="Passcode", placeholder="e.g. KQ7F-3MXA-9PRT",
                                                continuous_update=False, style=_LABEL)
        self._passcode_input.add_class("gopskit-passcode-input")
        self._passcode_input.observe(lambda c: c["new"] and self.unlock(c["new"]), "value")
        unlock = _button("Unlock", "gopskit-unlock", "primary", "unlock")
        unlock.on_click(lambda _b: self.unlock(self._passcode_input.value))
        hint = ('<div class="gopskit-hint">This server keeps its rooms for the teacher: type the teacher passcode '
                "that <code>gopskit serve</code> printed in its terminal (students never need it).</div>")
        box = widgets.VBox([widgets.HTML("<h2>Teacher passcode</h2>" + hint), self._passcode_input, unlock])
        box.add_class("gopskit-form")
        return box

    @guarded
    def unlock(self, typed) -> bool:
        """Show the room form if ``typed`` is the teacher passcode; else say so, and nothing else."""
        if self._refusal is not None:
            raise AccessError(self._refusal)
        if not self.locked:
            return True
        if self._wrong_tries >= PASSCODE_TRIES:  # a script trying passcode after passcode
            raise AccessError(TOO_MANY_TRIES)
        right = passcode_matches(typed, self._passcode)
        self._passcode_input.value = ""
        if not right:
            self._wrong_tries += 1
            if self._wrong_tries >= PASSCODE_TRIES:
                self._passcode_input.disabled = True
                raise AccessError(TOO_MANY_TRIES)
            raise AccessError(WRONG_PASSCODE)
        self.locked = False
        self._lock_box.layout.display, self._form.layout.display = "none", None
        self.show_message("Passcode accepted: choose the game and open the room.")
        return True

    def _pairing_changed(self) -> None:
        """The pairing's hint, and “Seat students as they arrive” as it works: only with random tables."""
        random = self._pairing.value == "random"
        self._pairing_hinted.set_hint(pages.PAIRING_WORDS[self._pairing.value][1])
        self._auto.disabled = not random
        self._auto_hinted.set_hint(ROOM_HINTS["auto" if random else self._pairing.value])

    def _action(self, label, css, call) -> widgets.Button:
        button = _button(label, css, "danger" if css == "gopskit-end-room" else "")
        button.on_click(lambda _b: call())
        return button

    def _game_changed(self) -> None:
        view, cls = view_for(self._game.value), rules_class(self._game.value)
        defaults = {**cls().options(), **view.app_options}
        specs = [s for s in view.option_specs(cls) if s.name in cls.option_names()]
        self._controls = {s.name: (s, form_control(s, defaults.get(s.name))) for s in specs}
        self._hinted = {name: HintedControl(control) for name, (_s, control) in self._controls.items()}
        self._options_box.children = list(self._hinted.values())
        for _spec, control in self._controls.values():
            control.observe(lambda _c: self._show_hints(), "value")
        self._show_hints()
        if "dealer" in self._controls and "defeat_the_dealer" in self._controls:
            switch = self._controls["defeat_the_dealer"][1]
            switch.observe(lambda _c: self._dealer_shown(), "value")
            self._dealer_shown()
        bots = agent_names(cls.from_options(view.app_options))
        self._bot.options = [(bot_label(b), b) for b in bots]
        self._bot.value = next((b for b in view.bot_preference if b in bots), bots[0])

    def _show_hints(self) -> None:
        """Each option's explanation under its control, in the boards' words for the options now chosen
        (what the chosen tie rule does, what the Ace is worth); while the options do not go together, each
        says what its own value does."""
        view, cls = view_for(self._game.value), rules_class(self._game.value)
        try:
            rules = cls.from_options(view.settle_options(self.options()))
        except (GopsError, TypeError):
            rules = None
        for name, (spec, control) in self._controls.items():
            self._hinted[name].set_hint(spec.explain(control.value) if rules is None else view.option_help(spec, rules))
        self._show_bot_hint(rules)

    def _show_bot_hint(self, rules=None) -> None:
        """What the bot does, and what the bot chosen says of how it plays these rules (:meth:`Agent.seat_note`:
        the equilibrium bot, which of its bids are estimates)."""
        note = None
        if rules is not None and self._bot.value is not None:
            agent = make_agent(self._bot.value)
            note = agent.seat_note(rules) if agent.supports(rules) else None
        self._bot_hinted.set_hint(ROOM_HINTS["bot"] + (f". {note}" if note else ""))

    def _dealer_shown(self) -> None:
        """The first dealer matters only in Defeat the Dealer: its control shows only then."""
        shown = self._controls["defeat_the_dealer"][1].value
        for child in self._options_box.children:
            if self._controls["dealer"][1] in getattr(child, "children", ()):
                child.layout.display = None if shown else "none"

    def options(self) -> dict:
        return {name: read_control(spec, control) for name, (spec, control) in self._controls.items()}

    def _open(self) -> ClassroomStore:
        if self.store is None:
            self.store = ClassroomStore(self.url)
        return self.store

    @guarded
    def create(self) -> None:
        """Open a room with the form's game, options and settings; show its code.

        One room a page: the form is hidden once a room is open, and a hand-made
        client pressing its hidden button again opens nothing."""
        if self.teacher_key is not None:
            raise GopsError(f"this page already runs room {self.code}: open the teacher's page again (a new tab) "
                            "for another room")
        if self._refusal is not None:
            raise AccessError(self._refusal)
        if self.locked:  # a hand-made client pressing the hidden button
            raise AccessError(NEED_PASSCODE)
        try:
            room = self._open().create_room(self._game.value, self.options(), pairing=self._pairing.value,
                                            bot=self._bot.value, timeout=self._timeout.value, auto_pair=self._auto.value)
        except OptionError as exc:  # the engine's words for API users; the form's labels here
            raise OptionError(panel_message(str(exc), [spec for spec, _c in self._controls.values()])) from exc
        self._enter(room.teacher_key)

    @guarded
    def reopen(self, teacher_key: str) -> None:
        """Run a room again from its teacher key (a reloaded page, or another machine)."""
        self._open().overview(teacher_key)
        self._enter(teacher_key)

    def _enter(self, teacher_key: str) -> None:
        self.teacher_key = teacher_key
        overview = self.store.overview(teacher_key)
        self.code = overview.code
        if self.bridge is not None:
            self.bridge.to_save = json.dumps({"teacher_key": teacher_key, "store": self.url or default_url()})
        self.locked = False  # the teacher key is itself the secret
        self._lock_box.layout.display = self._form.layout.display = "none"
        self._room_box.layout.display = None
        self._show_code()
        self._show(overview)
        self.poller.start()

    def students_addresses(self) -> list[str]:
        """The addresses students open (from this page's own address; see :func:`~gopskit.classroom.html.student_addresses`)."""
        page = self._page_url()
        return pages.student_addresses(page, network_addresses() if pages.is_loopback(page) else ())

    def _page_url(self) -> str:
        """This page's address as its browser reported it (checked: see :func:`page_address`), or ``""``."""
        return page_address(self.bridge.page_url) if self.bridge is not None else ""

    @guarded
    def _show_code(self) -> None:
        """The room code and the address students open, large, for the projector."""
        if self.code is None:
            return
        page = self._page_url()
        served_beyond = os.environ.get(SERVED_BEYOND_ENV)  # "1"/"0" under gopskit serve, else unknown
        local_only = pages.is_loopback(page) and served_beyond == "0"
        addresses = [] if local_only else self.students_addresses()
        # one sentence in every mode, "Students open ... and type the room code:", the code after it
        if addresses:
            where = "Students open this address on their laptop" + (" (one of these)" if len(addresses) > 1 else "")
            where = (f"<div>{where}</div>{pages.students_address_html(addresses)}"
                     "<div>and type the room code:</div>")
        else:
            where = ("<div>Students open the <b>classroom</b> page of this server (classroom.ipynb) "
                     "and type the room code:</div>")
        note = ""
        if local_only:
            note = ('<div class="gopskit-hint gopskit-error">The apps were started for this computer only, so no '
                    "student can reach them: stop the server and start it again with "
                    "<code>gopskit serve --host 0.0.0.0</code> (or <code>make serve HOST=0.0.0.0</code>).</div>")
        elif pages.is_loopback(page) and served_beyond is None:
            note = ('<div class="gopskit-hint">This page was opened as localhost: students reach this computer at '
                    "its network address only if the apps were started with <code>gopskit serve --host 0.0.0.0</code>."
                    "</div>")
        self._code_html.value = f'<div class="gopskit-classroom">{where}{pages.room_code_html(self.code)}{note}</div>'

    @guarded
    def _browser_loaded(self, _change) -> None:
        data = saved_keys(self.bridge.saved, "teacher_key")  # None unless it is what this page saved
        if self.teacher_key is None and data is not None and data["store"] == (self.url or default_url()):
            self.reopen(data["teacher_key"])

    @guarded
    def tick(self) -> None:
        """Chores (stand-ins, auto-pairing, next round), then redraw if anything changed."""
        if self.teacher_key is None:
            return
        self.store.keep_room(self.teacher_key)
        mark = self.store.fingerprint(self.teacher_key)
        if mark != self._fingerprint or time.monotonic() - self._shown_at > 3.0:
            self._show(self.store.overview(self.teacher_key))
            self._fingerprint = mark
        if mark[0] != "open":
            self.poller.stop()

    def _show(self, overview) -> None:
        self.overview = overview
        self._dashboard.value = pages.overview_html(overview, describe_game)
        self._shown_at = time.monotonic()

    @guarded
    def pair(self) -> None:
        tables = self.store.pair_waiting(self.teacher_key)
        self.show_message(f"{counted(len(tables), 'new table')}." if tables else "Nobody is waiting.")
        self.tick()

    @guarded
    def round_robin(self) -> None:
        rounds = self.store.start_round_robin(self.teacher_key)
        self.show_message(f"Round robin planned: {rounds} rounds. Each starts when every table has finished.")
        self.tick()

    @guarded
    def end(self) -> None:
        """End the room (a second click within ten seconds confirms)."""
        if time.monotonic() - self._end_asked > 10.0:
            self._end_asked = time.monotonic()
            self.show_message("Click “End room” again to end it: unfinished games stop where they are.")
            return
        stopped = self.store.end_room(self.teacher_key)
        self.show_message(f"The room has ended ({counted(stopped, 'unfinished game')} stopped). Export it to keep everything.")
        self.tick()

    @guarded
    def export(self):
        """Write the room's export (records, bids.csv) and offer it as a download; returns its path."""
        data = self.store.export(self.teacher_key)
        folder = self.export_folder or Path(default_url()).parent / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        path = data.write(folder)
        self._download.value = pages.download_link_html(data.zip_bytes(), path.name) + f" <small>(also saved as {escape(str(path))})</small>"
        self.show_message(f"Exported {counted(len(data.tables), 'game')} and {counted(len(data.bids), 'move')}.")
        return path

    def show_message(self, text: str, error: bool = False) -> None:
        cls = "gopskit-error" if error else "gopskit-caption"
        self._message.value = f'<div class="{cls}" aria-live="polite">{escape(text)}</div>'


def student_app(url: str | None = None) -> StudentApp:
    """The student's page (``notebooks/classroom.ipynb``)."""
    return StudentApp(url)


def teacher_app(url: str | None = None) -> TeacherApp:
    """The teacher's page (``notebooks/classroom-teacher.ipynb``)."""
    return TeacherApp(url)


__all__ = ["SeatBoard", "StudentApp", "TeacherApp", "make_bridge", "student_app", "teacher_app"]
