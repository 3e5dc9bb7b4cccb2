"""Tournament entries: the kit's bots and students' strategy files.

A student's strategy is a Python file with a function::

    def strategy(observation):
        return observation.prize      # the card to bid

or, for a strategy that remembers things during a game, a class::

    class Strategy:
        def reset(self):              # called before each game
            self.seen = []
        def strategy(self, observation):
            self.seen.append(observation.prize)
            return max(observation.hand)

A folder of such files is a class's submissions (:func:`entries_from_folder`);
functions written in a notebook become entries with :func:`entry_from_function`.
:func:`check_entry` is the submission check: it loads the file and plays one
game against the random bot, and explains any problem for a beginner.

>>> [e.name for e in [bot_entry("random"), bot_entry("match-prize")]]
['random', 'match-prize']
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import os
import pathlib
import tempfile
import textwrap

from ..agents import Agent, agent_class
from ..errors import AgentError, OptionError
from .sandbox import Limits, SandboxWorker, printable


@dataclasses.dataclass(frozen=True)
class Entry:
    """One player of a tournament: a bot (``kind="bot"``) or a student's file (``kind="student"``).

    ``origin`` says where a student entry came from when it is not a
    submitted file: ``"notebook"`` for a function written in the notebook
    (it still runs in a sandbox like any file). :attr:`label` is the word
    the results show.
    """

    name: str
    kind: str
    bot: str | None = None
    path: pathlib.Path | None = None
    digest: str = ""
    origin: str = ""

    @property
    def label(self) -> str:
        """``"bot"``, ``"student"`` (a submitted file) or ``"notebook"`` (a function written here)."""
        return self.origin or self.kind

    def info(self) -> dict:
        """JSON-ready description (saved with the results)."""
        info = {"name": self.name, "kind": self.kind, "bot": self.bot,
                "path": str(self.path) if self.path else None, "sha256": self.digest}
        if self.origin:
            info["origin"] = self.origin
        return info


def bot_entry(name: str, label: str | None = None) -> Entry:
    """Enter the registered bot ``name`` (checked now, so a typo fails early)."""
    agent_class(name)
    return Entry(name=label or name, kind="bot", bot=name)


def student_entry(path, name: str | None = None) -> Entry:
    """Enter the strategy file ``path``; its name is the file name without ``.py``.

    The name is shown and saved as text: bytes that are not UTF-8 and
    characters that cannot be shown (see :func:`~.sandbox.printable`) become
    ``\ufffd``, so a file called ``b"\\xff.py"`` or ``"\\x1b[2J.py"`` plays
    under a name the terminal, the CSV files and the apps can take.

    >>> import tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "ann\\x1b[2J.py").write_text("def strategy(observation):\\n    return 1\\n")
    >>> student_entry(folder / "ann\\x1b[2J.py").name
    'ann\ufffd[2J'
    """
    path = pathlib.Path(path)
    if not path.is_file():
        raise OptionError(f"no strategy file at {path}; give the path of a .py file")
    if path.suffix != ".py":
        raise OptionError(f"{path.name} is not a Python file; strategy files end in .py")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    shown = printable(os.fsencode(path.stem).decode("utf-8", "replace"))
    return Entry(name=name or shown, kind="student", path=path.resolve(), digest=digest)


def entries_from_folder(folder) -> list[Entry]:
    """Every ``*.py`` file of ``folder`` (sorted; names starting with ``_`` or ``.`` skipped)."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise OptionError(f"{folder} is not a folder; give the folder holding the students' .py files")
    files = sorted(p for p in folder.glob("*.py") if not p.name.startswith(("_", ".")))
    if not files:
        raise OptionError(f"{folder} holds no strategy files (*.py)")
    return [student_entry(p) for p in files]


MAX_ENTRY_NAME = 64  # characters of a notebook entry's name (its file's name, which a file system bounds)


def entry_from_function(func, name: str | None = None, folder=None) -> Entry:
    """Turn a function (or class) defined in a notebook into an entry (shown as kind ``notebook``).

    The function's source is written to its own file, so it runs in a
    sandbox like any submission. Put the imports it needs inside the
    function (``math`` and ``random`` are imported for you).
    """
    try:
        source = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        raise OptionError(f"cannot read the source of {func!r}; define it in a notebook cell or a file") from None
    name = func.__name__ if name is None else name
    if (not isinstance(name, str) or not 1 <= len(name) <= MAX_ENTRY_NAME or name.startswith(("_", "."))
            or any(c in name for c in '/\\:\0') or not name.isprintable()):
        raise OptionError(f"an entry's name is 1 to {MAX_ENTRY_NAME} characters, without / \\ or :, not starting "
                          f"with _ or . (a folder's tournament skips such files), not {printable(repr(name))[:60]}")
    alias = "Strategy" if isinstance(func, type) else "strategy"
    text = f"import math\nimport random\n\n{source}\n{alias} = {func.__name__}\n"
    folder = pathlib.Path(folder) if folder else pathlib.Path(tempfile.mkdtemp(prefix="gopskit-notebook-"))
    path = folder / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return dataclasses.replace(student_entry(path, name), origin="notebook")


def unique_names(entries: list[Entry]) -> list[Entry]:
    """Rename entries that share a name: ``alice``, ``alice (2)``, ..."""
    seen: dict[str, int] = {}
    out = []
    for entry in entries:
        count = seen[entry.name] = seen.get(entry.name, 0) + 1
        out.append(entry if count == 1 else dataclasses.replace(entry, name=f"{entry.name} ({count})"))
    return out


# ----------------------------------------------------- a student as agent ---
class SandboxAgent(Agent):
    """A student's strategy file as an ordinary agent (one move per round trip).

    For boards, :func:`gopskit.arena.play_game` and solvers; tournaments use
    the faster batched path. A forfeit (error, timeout, not a card) raises
    :class:`~gopskit.errors.AgentError` with the sentence for the student.
    Close it with :meth:`close` (or use it in a ``with`` block).
    """

    name = "student"
    classifier = {"stochastic": False, "memory": "game", "uses_opponent_bids": True, "games": ("*",)}

    def __init__(self, path, limits: Limits | None = None):
        super().__init__()
        self.worker = SandboxWorker(path, limits)
        self.label = pathlib.Path(path).stem
        self._games, self._seed = 0, 0

    def supports(self, rules) -> bool:
        return True

    def reset(self, rules, player, rng=None):
        super().reset(rules, player, rng)
        self.worker.reset_games()
        self._games += 1
        from .tables import student_seed

        # one-way, as in tournaments: the number the sandbox sees says nothing of any generator here
        self._seed = student_seed(int(self.rng.integers(2**62)), player)

    def act(self, observation):
        from .tables import judge_move, observation_data

        key = f"game-{self._games}"
        reply = self.worker.play([(key, self._seed, observation_data(observation))])[key]
        if reply.ok:
            reply = judge_move(reply.move, observation.legal_moves)
        if not reply.ok:
            raise AgentError(f"{self.label}: {reply.detail}")
        return reply.move

    def close(self):
        self.worker.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ----------------------------------------------------- submission check ---
@dataclasses.dataclass(frozen=True)
class EntryCheck:
    """The verdict on one submission: ``ok`` and a message for the student."""

    name: str
    ok: bool
    message: str

    def __str__(self) -> str:
        return f"{'OK  ' if self.ok else 'FAIL'} {self.name}: {self.message}"


def check_entry(entry, rules=None, limits: Limits | None = None, seed: int = 0) -> EntryCheck:
    """Load a strategy and play one game in seat 1 against the random bot (every other seat).

    The message says what was wrong and where (the line, the turn, what was
    expected), in words a beginner can act on.
    """
    from ..games.goofspiel import Goofspiel
    from .tables import play_games

    entry = entry if isinstance(entry, Entry) else student_entry(entry)
    rules = rules or Goofspiel(num_cards=13)
    with SandboxWorker(entry.path, limits) as worker:
        if not worker.start():
            return EntryCheck(entry.name, False, f"{entry.path.name}: {worker.load_error}")
        seats = [entry] + [bot_entry("random")] * (rules.num_players - 1)
        game = play_games(rules, seats, [seed], {entry.name: worker})[0]
    if game["forfeits"]:
        return EntryCheck(entry.name, False, explain_forfeit(game["forfeits"][0], entry.path.name))
    points = ", ".join(f"{p:g}" for p in game["points"])
    return EntryCheck(entry.name, True, f"played a whole game against the random bot (points: {points})")


def explain_forfeit(forfeit: dict, filename: str = "") -> str:
    """One sentence for a student: ``'turn 3: bid 14, which is not a card ...'``."""
    where = f"{filename}, " if filename else ""
    lead = {
        "exception": "your strategy raised ",
        "crash": "your strategy stopped working: ",
        "load": "the file could not be used: ",
        "withdrawn": "your strategy was ",
    }.get(forfeit["reason"], "your strategy ")
    return f"{where}turn {forfeit.get('turn', '?')}: {lead}{forfeit['detail']}"


__all__ = ["Entry", "EntryCheck", "SandboxAgent", "bot_entry", "check_entry", "entries_from_folder", "entry_from_function",
           "explain_forfeit", "student_entry", "unique_names"]
