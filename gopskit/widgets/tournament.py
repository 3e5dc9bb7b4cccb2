"""A tournament in a notebook: the class folder, notebook functions and bots; run; read the results.

The widget only arranges: :class:`~gopskit.arena.tournament.Tournament`
plays, :mod:`gopskit.viz.tournament` draws, and :func:`ranking_html` (a pure
function tests can call) writes the table, its 95 % intervals and the rule
that ranks it.

**Which folder runs.** The app runs only the class folder the teacher
configured, never a path typed in the page (a page's controls can be set by
anyone who can reach the server). The folder is, in this order: the
environment variable ``GOPSKIT_TOURNAMENT_DIR`` of the server (set it before
``gopskit serve``), else the ``folder`` the notebook passes to
:class:`TournamentApp`. The page only chooses whether that folder takes part.

**Limits.** At most :data:`MAX_GAMES` games per seating, :data:`MAX_TOTAL_GAMES`
games in all and :data:`MAX_TIME_LIMIT` seconds per move; bigger tournaments
belong on the command line (``gopskit tournament``), which the message says.

>>> from gopskit.widgets.tournament import TournamentApp   # doctest: +SKIP
>>> def strategy(observation):                             # doctest: +SKIP
...     return observation.prize
>>> TournamentApp(functions=[strategy], bots=["random", "match-prize"])  # doctest: +SKIP

**Names.** The page names a bot by its readable label ("One-higher bot",
:func:`~gopskit.arena.results.entry_labels`), in the table, the sentences and
the plots; the bot picker also shows the name code takes
("One-higher bot (one-higher)", as in ``bots=[...]`` above). The results
keep the names: ``app.results`` and its files are as ``gopskit tournament``
writes them.
"""

from __future__ import annotations

import html
import io
import os
import pathlib
import tempfile

import ipywidgets as w

from ..agents import agent_names
from ..agents.labels import bot_label
from ..arena.entries import bot_entry, entries_from_folder, entry_from_function
from ..arena.results import RANKING_RULE, interval_text
from ..arena.sandbox import Limits
from ..arena.tournament import Tournament
from ..cards import counted
from ..errors import GopsError
from ..games.goofspiel import Goofspiel
from ..numbers import fixed
from .assets import style_html
from .panel import HintedControl

TOURNAMENT_DIR_ENV = "GOPSKIT_TOURNAMENT_DIR"
TOURNAMENT_LOCK_ENV = "GOPSKIT_TOURNAMENT_LOCK"  # where the one-run-at-a-time lock lives (default: the cache folder)
MAX_GAMES = 200
MAX_TOTAL_GAMES = 40_000
MAX_TIME_LIMIT = 5.0
TOURNAMENT_HINTS = {  # under each control, as on the boards' options panels
    "bots": "Ctrl-click (⌘-click on a Mac) to choose several",
    "cards": "cards in each suit: the prizes and each player's hand",
    "games": f"games each pair plays from each seat, on the same deals (1 to {MAX_GAMES})",
    "seed": "empty: new deals each run; a number replays a tournament exactly",
    "time": f"seconds a student's strategy may take per move (up to {MAX_TIME_LIMIT:g}); slower loses that game",
}

_TABLE_STYLE = (  # fits 1024 px without scrolling: headers and long cells wrap at spaces (and "exploit-ability"), numbers never
    "<style>.gopskit-tournament-table{border-collapse:collapse;margin:6px 0;width:100%}"
    ".gopskit-tournament-table th,.gopskit-tournament-table td{padding:3px 6px;text-align:right;vertical-align:top;"
    "border-bottom:1px solid #ddd;white-space:nowrap;overflow-wrap:normal;word-break:keep-all}"
    ".gopskit-tournament-table th{white-space:normal;vertical-align:bottom}"
    # the entry's name wraps at spaces, hyphens and after underscores (<wbr>, _breakable), never inside a word:
    # overflow-wrap:anywhere let the column shrink below "Equilibrium" ("Equilibri" / "um bot" at 1280 px)
    ".gopskit-tournament-table td:nth-child(2){white-space:normal;overflow-wrap:normal;word-break:normal;min-width:6em}"
    ".gopskit-tournament-table td:nth-child(3),.gopskit-tournament-table td:nth-child(5){white-space:normal}"
    ".gopskit-tournament-table td:last-child{white-space:normal;min-width:12em}"
    ".gopskit-tournament-table td:nth-child(2),.gopskit-tournament-table th:nth-child(2),"
    ".gopskit-tournament-table td:last-child,.gopskit-tournament-table th:last-child{text-align:left}"
    ".gopskit-tournament-table th:nth-child(11){white-space:nowrap}"  # "exploit-ability" only where it must
    # a small projector (1024 px) and a laptop at 150 % zoom (853 px): closer cells, a narrower last column,
    # then smaller type (15 px, still legible), so all twelve columns stay on screen
    # (table.gopskit-tournament-table outweighs the kit's padding for the tournament's tables)
    "@media (max-width:1279px){.gopskit-tournament table.gopskit-tournament-table th,"
    ".gopskit-tournament table.gopskit-tournament-table td{padding:3px 4px}"
    ".gopskit-tournament-table th:nth-child(11){white-space:normal}"
    ".gopskit-tournament-table td:last-child{min-width:8em}}"
    "@media (max-width:959px){.gopskit-tournament table.gopskit-tournament-table th,"
    ".gopskit-tournament table.gopskit-tournament-table td{font-size:15px;padding:3px 3px}"
    ".gopskit-tournament-table td:last-child{min-width:7em}}</style>"
)
_MARKS = "¹²³⁴⁵⁶⁷⁸⁹"


def class_folder(default=None) -> pathlib.Path | None:
    """The class folder the teacher configured: ``$GOPSKIT_TOURNAMENT_DIR``, else ``default`` (or ``None``)."""
    configured = os.environ.get(TOURNAMENT_DIR_ENV, "").strip()
    if configured:
        return pathlib.Path(configured).expanduser()
    return pathlib.Path(default).expanduser() if default else None


_ISOLATION_WORDS = {
    "bubblewrap": "Student code ran in a bubblewrap sandbox, an operating-system boundary.",
    "fence": "Student code ran with the in-process fence only (no operating-system sandbox on this computer): "
             "it stops mistakes, not attacks.",
}


_LONGEST_RUN = 16  # letters of a name without a space, hyphen or underscore that stay on one line


def _breakable(name: str) -> str:
    """An entry's name for the ranking's narrow column: it breaks at spaces and hyphens, and after an
    underscore (``save_big_`` / ``cards``), where a reader sees a word end, never inside a word
    (``Equilibri`` / ``um bot``). Only a run of more than :data:`_LONGEST_RUN` letters with none of these
    (a file name such as ``mystrategyfinalversion``) may break inside, every 12 letters, so the table
    still fits the page.

    >>> _breakable("save_big_cards"), _breakable("Equilibrium bot"), _breakable("mystrategyfinalversion")
    ('save_<wbr>big_<wbr>cards', 'Equilibrium bot', 'mystrategyfi<wbr>nalversion')
    """
    import re

    def split(run: str) -> str:
        if len(run) <= _LONGEST_RUN:
            return html.escape(run)
        return "<wbr>".join(html.escape(run[k:k + 12]) for k in range(0, len(run), 12))

    return re.sub(r"[^\s_-]+", lambda m: split(m.group(0)), name).replace("_", "_<wbr>")


def ranking_html(results) -> str:
    """The ranking (with 95 % intervals), why any exploitability is missing, the ranking rule and the forfeits.

    Entries are named as people read them (:meth:`~gopskit.arena.results.ResultSet.labels`: a bot by its label).
    """
    rows, ranking, shown = [], results.ranking(), results.labels()
    summary = results.play_summary()
    missing = results.missing_exploitability(ranking)
    mark = {name: _MARKS[k % len(_MARKS)] for k, (_, names) in enumerate(missing) for name in names}
    for r in ranking:
        exploit = fixed(r["exploitability"]) if r["exploitability"] is not None else f"n/a{mark.get(r['name'], '')}"
        mean = fixed(r["mean_points"]) if r["games"] else "&ndash;"
        rows.append(
            f"<tr><td>{r['rank']}</td><td><b>{_breakable(shown[r['name']])}</b></td><td>{html.escape(r['kind'])}</td>"
            f"<td>{mean}</td><td>{html.escape(interval_text(r))}</td><td>{r['wins']}</td><td>{r['draws']}</td>"
            f"<td>{r['losses']}</td><td>{r['forfeits']}</td><td>{r['opponents_beaten']}</td><td>{exploit}</td>"
            f"<td>{html.escape(summary.get(r['name'], ''))}</td></tr>")
    head = "".join(f"<th>{h}</th>" for h in ("#", "entry", "kind", "mean points", "95% interval", "wins", "draws",
                                                 "losses", "forfeits", "beats", "exploit&shy;ability", "how it plays"))
    table = (_TABLE_STYLE + "<table class='gopskit-tournament-table'>"
             f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    table += f"<p class='gopskit-rule'><b>How the table is ranked.</b> {html.escape(RANKING_RULE)}</p>"
    note = results.interval_note(labels=shown, rows=ranking)
    if note:
        table += f"<p class='gopskit-rule gopskit-interval-note'>{html.escape(note)}</p>"
    neighbours = "".join(f"<li>{html.escape(sentence)}</li>" for sentence in neighbour_texts(results, ranking))
    if neighbours:
        table += f"<p class='gopskit-rule'><b>Each entry against the next one down</b>, head to head (the ranking is over the whole field, so an entry can rank above a neighbour it loses to):</p><ul>{neighbours}</ul>"
    table += ("<p class='gopskit-rule'><b>Exploitability</b> is what a perfect opponent who knows the entry's "
              "strategy wins against it per game (0: nobody can beat it).")
    if missing:
        table += "".join(f" {_MARKS[k % len(_MARKS)]}n/a for {html.escape(', '.join(shown[n] for n in names))}: "
                         f"{html.escape(reason)}." for k, (reason, names) in enumerate(missing))
    table += "</p>"
    isolation = _ISOLATION_WORDS.get(getattr(results, "isolation", ""))
    if isolation:
        table += f"<p class='gopskit-rule'>{html.escape(isolation)}</p>"
    forfeits = "".join(f"<li><b>{html.escape(shown.get(f['entry'], f['entry']))}</b>: {f['count']} &times; "
                       f"{html.escape(f['reason'])} &ndash; {html.escape(f['example'])}</li>" for f in results.forfeits())
    if forfeits:
        table += ("<p>Forfeits (the forfeiting entry scores 0, the others the whole hand):</p>"
                  f"<ul>{forfeits}</ul>")
    return table


def neighbour_texts(results, ranking, limit: int | None = None) -> list[str]:
    """Each entry against the next one down, every neighbouring pair of the ranking (:meth:`ResultSet.neighbours`:
    entries that scored the same on every deal are said so), entries named by their labels (:meth:`ResultSet.labels`)."""
    return results.neighbours(limit, rows=ranking, labels=results.labels())


def _png(figure) -> bytes:
    """The figure as a PNG at :data:`~gopskit.viz.tournament.SCREEN_DPI` (two image pixels per CSS pixel)."""
    from ..viz.tournament import SCREEN_DPI

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=SCREEN_DPI, bbox_inches="tight")
    return buffer.getvalue()


def _css_width(png: bytes) -> str:
    """The width to show a :func:`_png` image at: half its pixels (100 CSS px per inch) at the laptop's
    text size, grown with the text on a projector (``--gopskit-px``, style.css), never wider than the page."""
    pixels = int.from_bytes(png[16:20], "big")  # the IHDR chunk's width
    return f"calc(var(--gopskit-px, 1px) * {pixels // 2})"


class TournamentApp(w.VBox):
    """Pick entries and options, press *Run tournament*, read the table and plots.

    ``functions``: strategies written in the notebook (each runs in its own
    sandbox, like a submitted file, and is listed as kind ``notebook``);
    ``folder``: the class folder used when the server sets no
    ``GOPSKIT_TOURNAMENT_DIR`` (see the module docstring); ``bots``: the bots
    ticked at the start.
    """

    crash_advice = " The tournament was stopped; the page still works: press Run tournament to try again."

    def __init__(self, functions=(), folder=None, bots=("random", "match-prize"), num_cards: int = 13):
        self.functions = list(functions)
        self.results = None
        self.last_error = None
        # one scratch folder per app for the notebook functions' files, removed with the app (or at exit)
        self._scratch = tempfile.TemporaryDirectory(prefix="gopskit-notebook-")
        self.class_folder = class_folder(folder)  # a Python attribute: no browser message can change it
        self.bots = w.SelectMultiple(options=bot_options(Goofspiel()), value=tuple(bots), rows=6,
                                     description="Bots")
        self.use_folder = w.Checkbox(value=self.class_folder is not None, description=self._folder_label(),
                                     disabled=self.class_folder is None, indent=False)
        self.cards = w.IntSlider(value=num_cards, min=3, max=13, description="Cards")
        self.games = w.BoundedIntText(value=20, min=1, max=MAX_GAMES, description="Games")
        self.seed = w.Text(value="", description="Seed", placeholder="random")
        self.time_limit = w.BoundedFloatText(value=1.0, min=0.05, max=MAX_TIME_LIMIT, step=0.1,
                                             description="Time (s)")
        self.run_button = w.Button(description="Run tournament", button_style="primary", icon="play")
        self.run_button.add_class("gopskit-run")
        self.progress = w.IntProgress(value=0, min=0, max=1)
        self.progress_label = w.HTML(tables_played(None, None))
        self.progress_label.add_class("gopskit-progress-label")
        self.notebook_note = w.HTML(notebook_entries_html(self.functions))
        self.notebook_note.add_class("gopskit-notebook-entries")
        self.status = w.HTML("Choose entries and press <b>Run tournament</b>.")
        self.status.add_class("gopskit-status")
        self.table = w.HTML()
        self.plots = w.Tab(children=[w.Image(format="png") for _ in range(3)], layout=w.Layout(display="none"))
        for index, title in enumerate(("Head to head", "Points", "Bids")):
            self.plots.set_title(index, title)
        self.run_button.on_click(lambda _: self.run())
        self.hinted = {name: HintedControl(control, TOURNAMENT_HINTS[name]) for name, control in
                       (("bots", self.bots), ("cards", self.cards), ("games", self.games), ("seed", self.seed),
                        ("time", self.time_limit))}
        grid = w.HBox([self.hinted[name] for name in ("cards", "games", "seed", "time")],
                      layout=w.Layout(flex_flow="row wrap"))
        grid.add_class("gopskit-option-grid")
        options = w.VBox([self.use_folder, *([self.notebook_note] if self.functions else []), self.hinted["bots"], grid])
        header = w.HTML(style_html())  # the boards' stylesheet
        options.add_class("gopskit-form")
        self.table.add_class("gopskit-results")
        super().__init__([header, options, w.HBox([self.run_button, self.progress_label, self.progress], layout=w.Layout(flex_flow="row wrap", align_items="center")), self.status, self.table,
                          self.plots])
        self.add_class("gopskit-board")  # the boards' look (gopskit/widgets/style.css)
        self.add_class("gopskit-tournament")

    def close(self) -> None:
        """Close the widget and remove the notebook functions' scratch folder (also done at exit)."""
        self._scratch.cleanup()
        super().close()

    def _folder_label(self) -> str:
        if self.class_folder is None:
            return f"No class folder (the teacher sets {TOURNAMENT_DIR_ENV} before gopskit serve)"
        try:
            count = sum(1 for p in self.class_folder.glob("*.py") if not p.name.startswith(("_", ".")))
        except OSError:
            count = 0
        return f"Class folder {self.class_folder.name}/ ({counted(count, 'strategy file')})"

    def entries(self) -> list:
        """The entries the controls describe (notebook functions, the class folder's files, the bots)."""
        entries = [entry_from_function(f, folder=self._scratch.name) for f in self.functions]
        if self.class_folder is not None and self.use_folder.value:
            entries += entries_from_folder(self.class_folder)
        return entries + [bot_entry(name) for name in self.bots.value]

    def tournament(self) -> Tournament:
        """The tournament the controls describe, within the app's limits (a clear error beyond them)."""
        games, limit = int(self.games.value), float(self.time_limit.value)
        if not 1 <= games <= MAX_GAMES:
            raise GopsError(f"games per seating: 1 to {MAX_GAMES} here, not {games}; "
                            f"for more, run gopskit tournament on the command line")
        if not 0.05 <= limit <= MAX_TIME_LIMIT:
            raise GopsError(f"time per move: 0.05 to {MAX_TIME_LIMIT:g} seconds, not {limit:g}")
        rules, entries = Goofspiel(num_cards=self.cards.value), self.entries()
        if len(entries) < rules.num_players:
            raise GopsError(f"a tournament needs at least {rules.num_players} entries, and these controls give "
                            f"{len(entries)}: choose more bots (Ctrl-click, or Cmd-click on a Mac, picks several)"
                            + (" or let the class folder take part" if self.class_folder is not None else ""))
        tournament = Tournament(rules, entries, games=games, seed=_seed(self.seed.value), limits=Limits(time_limit=limit))
        total = sum(len(t.seatings) for t in tournament.tables()) * games
        if total > MAX_TOTAL_GAMES:
            raise GopsError(f"that is {total:,} games; the app plays up to {MAX_TOTAL_GAMES:,} "
                            f"(fewer games per seating or fewer entries), or run gopskit tournament "
                            f"on the command line for a bigger one")
        return tournament

    def run(self):
        """Play the tournament the controls describe; show the results (or what went wrong)."""
        self.run_button.disabled = True
        self.status.value = "Checking the entries and starting their sandboxes&hellip;"
        machine = None
        try:
            tournament = self.tournament()  # the controls checked first: a refusal needs no lock
            machine = take_the_machine()  # one tournament at a time on this computer, whichever page starts it
            self._show_progress(0, len(tournament.tables()))
            results = tournament.run(progress=False, on_table=self._advance)
            self.show(results)
        except GopsError as exc:
            self._error(str(exc))
            return None
        except Exception as exc:  # a bug: the class sees a sentence, never a traceback
            self.last_error = exc
            self._error(f"Something went wrong ({type(exc).__name__}).{self.crash_advice}")
            return None
        finally:
            if machine is not None:
                machine.close()
            self.run_button.disabled = False
        return self.results

    def _error(self, text: str) -> None:
        """Say what went wrong; old results stay off the screen (they are not of these controls)."""
        self.reset(status=f"<span class='gopskit-error' style='color:#b00'>{html.escape(text)}</span>")

    def _show_progress(self, done: int, total: int) -> None:
        """The bar and its label: ``done`` of ``total`` tables played."""
        self.progress.max, self.progress.value = max(total, 1), done
        self.progress_label.value = tables_played(done, total)

    def _advance(self, done: int, total: int) -> None:
        self._show_progress(done, total)
        more = " Computing the exploitability and the plots&hellip;" if done == total else ""
        self.status.value = f"Played {done} of {total} tables&hellip;{more}"

    def show(self, results) -> None:
        """Fill the table and the plots from a result set (also for results loaded from disk)."""
        from ..viz.tournament import plot_bidding_profiles, plot_distributions, plot_head_to_head

        self.results = results
        self.table.value = ranking_html(results)
        labels = results.labels()
        for image, plot in zip(self.plots.children, (plot_head_to_head, plot_distributions, plot_bidding_profiles)):
            image.value = _png(plot(results, labels=labels))
            image.layout.width = _css_width(bytes(image.value))
            image.layout.max_width = "100%"
            image.layout.height = "auto"
        self.plots.layout.display = None
        played = len(results.games)
        self.status.value = (f"Done: {played:,} {'game' if played == 1 else 'games'}. Seed {results.seed} "
                             f"(type it in Seed to replay this very tournament).")

    def reset(self, status: str = "Choose entries and press <b>Run tournament</b>.") -> None:
        """Clear the results (the controls keep their values)."""
        self.results = None
        self.table.value = ""
        self.progress.value = 0
        self.progress_label.value = tables_played(None, None)
        for image in self.plots.children:
            image.value = b""
        self.plots.layout.display = "none"
        self.status.value = status


def tables_played(done: int | None, total: int | None) -> str:
    """The progress bar's label: ``'Tables played: 3 of 28'`` (before a run: none yet). A table is one pair
    of entries (two players a game: :meth:`~gopskit.arena.tournament.Tournament.tables`) and all its games.

    >>> tables_played(3, 28)
    '<b>Tables played</b> (one per pair of entries): 3 of 28'
    """
    count = "none yet" if total is None else f"{done:,} of {total:,}"
    return f"<b>Tables played</b> (one per pair of entries): {count}"


def notebook_entries_html(functions) -> str:
    """The notebook's own strategies, named in the form (their code may be hidden, as on a served page): each
    with the first line of its docstring; they always take part.

    >>> def strategy(observation):
    ...     \"\"\"Bid the card worth as much as the prize.\"\"\"
    >>> notebook_entries_html([strategy])
    '<b>From this notebook</b> (always in the tournament): <b>strategy</b> &ndash; Bid the card worth as much as the prize.'
    """
    if not functions:
        return ""
    parts = []
    for func in functions:
        doc = (getattr(func, "__doc__", None) or "").strip().splitlines()
        what = f" &ndash; {html.escape(doc[0].strip())}" if doc and doc[0].strip() else ""
        parts.append(f"<b>{html.escape(func.__name__)}</b>{what}")
    return f"<b>From this notebook</b> (always in the tournament): {'; '.join(parts)}"


def bot_options(rules) -> list[tuple[str, str]]:
    """The bot picker's choices for ``rules``: ``("One-higher bot (one-higher)", "one-higher")``: the label
    people read, then the name code takes (``TournamentApp(bots=[...])``, ``--bots``), which the value keeps.

    >>> bot_options(Goofspiel())[:2]
    [('Random bot (random)', 'random'), ('Match-the-prize bot (match-prize)', 'match-prize')]
    """
    return [(f"{bot_label(name)} ({name})", name) for name in agent_names(rules)]


def run_lock_path() -> pathlib.Path:
    """The file whose lock a running tournament holds: ``$GOPSKIT_TOURNAMENT_LOCK`` if set, else
    ``tournament.lock`` in the kit's cache folder (``$GOPSKIT_CACHE``, else ``~/.cache/gopskit``), which
    every page of the teacher's server shares (each test worker sets its own: it stands for another computer)."""
    from ..solvers.storage import cache_dir

    chosen = os.environ.get(TOURNAMENT_LOCK_ENV)
    return pathlib.Path(chosen) if chosen else cache_dir() / "tournament.lock"


def take_the_machine(path=None):
    """Hold the lock that lets one tournament run at a time on this computer; returns the open lock file.

    Each app page is its own process (a Voila kernel), and a tournament
    keeps a processor busy for as long as it runs: every student who opened
    the tournament app and pressed Run would add one more. The lock is the
    operating system's (``flock``) on :func:`run_lock_path` (or ``path``):
    closing the returned file releases it, and so does the end of the
    process that holds it, however it ends. While another process (or
    another page) holds it, this raises a :class:`~gopskit.errors.GopsError`
    at once, saying a tournament is running and to try again when it ends.
    """
    path = pathlib.Path(path) if path is not None else run_lock_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+b")  # noqa: SIM115  (kept open while the tournament runs; the caller closes it)
    except OSError as exc:
        raise GopsError(f"cannot open the tournament lock {path}: {exc.strerror}; "
                        f"set GOPSKIT_CACHE to a folder this server may write") from None
    try:
        _lock(handle)
    except OSError:
        handle.close()
        raise GopsError("A tournament is already running on this computer (started from another page): only one "
                        "runs at a time. Try again when it ends.") from None
    return handle


def _lock(handle) -> None:
    """Lock ``handle`` for this process without waiting (OSError when another holds it)."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def _seed(text: str) -> int | None:
    """The Seed box: empty for a random seed, else a whole number 0 or more."""
    text = str(text).strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 19:
        raise GopsError(f"seed: a whole number 0 or more (or empty for a random one), not {text[:30]!r}")
    return int(text)


__all__ = ["MAX_GAMES", "MAX_TIME_LIMIT", "MAX_TOTAL_GAMES", "TOURNAMENT_DIR_ENV", "TournamentApp", "bot_options",
           "class_folder", "neighbour_texts", "notebook_entries_html", "ranking_html", "run_lock_path",
           "tables_played", "take_the_machine"]
