"""Round-robin tournaments of bots and students' strategies (Axelrod's shape).

Stages kept apart: a :class:`Tournament` plays the tables and returns a
:class:`~gopskit.arena.results.ResultSet`; plots take the result set
(:mod:`gopskit.viz.tournament`).

How a tournament is played:

1. Every *table* is a set of distinct entries (every pair for two players;
   every trio, ... for more). Each table is played in every *seating*: for
   two players both seats (A-B and B-A); for more, each rotation of the seats
   (or every order with ``seatings="permutations"``).
2. Each seating plays ``games`` games. Game ``g`` of a table deals from the
   same seed in every seating (duplicate play: both entries meet the same
   prize orders from both seats), and every seed derives from the
   tournament's ``seed`` and the table's entry names, so a run repeats
   exactly and a table's games do not change when other entries join.
   Without ``seed`` a tournament draws a secret random one (``secrets``):
   a seed students could guess would let a strategy rebuild the deals and
   the bots' bids. It is saved with the results; give it back as ``seed``
   to replay the run.
3. Students' files run in sandboxes (:mod:`gopskit.arena.sandbox`; which
   isolation this machine gives is :attr:`Tournament.isolation`, saved with
   the results and printed by the command); bots in this process. A
   strategy's own ``random`` gets a one-way hash of the game's seed
   (:func:`~gopskit.arena.tables.student_seed`). Tables where every seat is a bot take the vectorised batch
   path of :func:`gopskit.play_many` when it can (points only, no records)
   unless ``bot_records=True``.
4. With ``out`` given, each finished table is written at once (atomically) to
   ``out/tables/``; ``resume=True`` skips the tables already there, so an
   interrupted run carries on without replaying finished matches.

>>> from gopskit.games.goofspiel import Goofspiel
>>> t = Tournament(Goofspiel(num_cards=5), ["random", "match-prize", "one-higher"], games=20, seed=1)
>>> results = t.run(progress=False)
>>> [row["name"] for row in results.ranking()][0] != "random"
True
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import pathlib
import secrets
import warnings
import zlib
from collections.abc import Callable, Sequence

import numpy as np
from tqdm.auto import tqdm

from ..agents import make_agent
from ..errors import OptionError
from .entries import Entry, bot_entry, check_entry, entries_from_folder, student_entry, unique_names
from .results import ResultSet
from .runner import Share, play_shares
from .sandbox import Limits, default_memory_budget, isolation, isolation_report

SEATINGS = ("rotations", "permutations")
MAX_PROCESSES = 4
FORMAT_VERSION = 1
HONEST_SANDBOX_BYTES = 100 * 2**20  # the least the automatic memory budget leaves each sandbox (an honest one: 14-28 MB)


@dataclasses.dataclass(frozen=True)
class Table:
    """One set of entries and the seatings it plays in."""

    key: str
    names: tuple[str, ...]
    seatings: tuple[tuple[str, ...], ...]
    seeds: tuple[int, ...]


class Tournament:
    """A round robin under one set of rules (see the module docstring).

    ``entries`` holds :class:`~gopskit.arena.entries.Entry` objects, bot
    names (``"match-prize"``) or paths of strategy files; :meth:`from_folder`
    enters a folder of submissions. ``memory_budget``: bytes of memory all
    the sandboxes may hold together, shared among the helper processes
    (``"auto"``: half of what the machine has free when the tournament is
    made, but never under 100 MB for each sandbox of a helper, so a class of
    honest files is never stopped; ``None``: no budget, only each sandbox's
    own limit); over it, the
    sandbox holding the most is stopped and its games are forfeits (see
    :class:`~gopskit.arena.sandbox.MemoryBudget`).
    """

    def __init__(self, rules, entries: Sequence, games: int = 100, seed: int | None = None,
                 limits: Limits | None = None,
                 seatings: str = "rotations", bot_records: bool = False, concurrent_tables: int = 4,
                 exploitability: bool | int = True, processes: int | None = None, memory_budget="auto"):
        self.rules = rules
        self.entries = unique_names([_as_entry(e) for e in entries])
        self.random_seed = seed is None
        self.games = _check_count("games", games, 1)
        self.seed = secrets.randbits(63) if seed is None else _check_count("seed", seed, 0)
        self.limits = limits or Limits()
        if seatings not in SEATINGS:
            raise OptionError(f"unknown seatings {seatings!r}; allowed: {', '.join(SEATINGS)}")
        self.seatings, self.bot_records = seatings, bool(bot_records)
        self.exploitability = exploitability
        self.concurrent_tables = _check_count("concurrent_tables", concurrent_tables, 1)
        default = min(os.cpu_count() or 1, MAX_PROCESSES)
        self.processes = _check_count("processes", default if processes is None else processes, 1)
        self.isolation = isolation() if any(e.kind == "student" for e in self.entries) else "none needed"
        self._auto_budget = isinstance(memory_budget, str) and memory_budget == "auto"
        if self._auto_budget:
            memory_budget = default_memory_budget()
        elif memory_budget is not None:
            memory_budget = _check_count("memory_budget", memory_budget, 64 * 2**20)
        self.memory_budget = memory_budget  # bytes all sandboxes may hold together (None: no budget)
        if len(self.entries) < rules.num_players:
            raise OptionError(f"{rules.name} with these options seats {rules.num_players} players; "
                              f"a tournament needs at least that many entries, got {len(self.entries)}")
        for entry in self.entries:
            if entry.kind == "bot" and not make_agent(entry.bot).supports(rules):
                raise OptionError(f"the bot {entry.bot!r} cannot play {rules.name} with these options")

    @classmethod
    def from_folder(cls, folder, rules, bots: Sequence[str] = (), **options) -> "Tournament":
        """Enter every strategy file of ``folder``, plus the named bots."""
        return cls(rules, [*entries_from_folder(folder), *(bot_entry(b) for b in bots)], **options)

    # -- the schedule ------------------------------------------------------
    def tables(self) -> list[Table]:
        """Every table in play order, with its seatings and game seeds."""
        names = [e.name for e in self.entries]
        tables = []
        for index, group in enumerate(itertools.combinations(names, self.rules.num_players)):
            if self.seatings == "permutations":
                seatings = tuple(itertools.permutations(group))
            else:
                seatings = tuple(group[k:] + group[:k] for k in range(len(group)))
            tables.append(Table(f"{index:05d}", group, seatings, self._seeds(group)))
        return tables

    def _seeds(self, group) -> tuple[int, ...]:
        label = zlib.crc32("\x00".join(sorted(group)).encode("utf-8"))
        root = np.random.SeedSequence([self.seed, label])
        return tuple(int(s.generate_state(2, np.uint32).view(np.uint64)[0] >> 1) for s in root.spawn(self.games))

    def manifest(self) -> dict:
        """What defines the run: a resumed run must match it exactly."""
        return {
            "format": FORMAT_VERSION, "game": self.rules.name, "options": self.rules.options(),
            "entries": [e.info() for e in self.entries], "games": self.games, "seed": self.seed,
            "seatings": self.seatings, "bot_records": self.bot_records,
            "limits": dataclasses.asdict(self.limits), "isolation": self.isolation,
        }

    # -- running -----------------------------------------------------------
    def check(self) -> list:
        """Check every student entry (loads, then one game against the random bot)."""
        return [check_entry(e, self.rules, self.limits, self.seed) for e in self.entries if e.kind == "student"]

    def run(self, out=None, resume: bool = False, progress: bool = True,
            on_table: Callable[[int, int], None] | None = None) -> ResultSet:
        """Play every table not yet finished and return the results.

        ``out``: a folder for the results (``tournament.json``, one file per
        finished table in ``tables/``, then ``results.json``, ``games.csv``,
        ``ranking.csv``). ``resume``: carry on a run interrupted in ``out``.
        Each entry's exploitability is computed at the end where it can be
        (small decks; see :mod:`gopskit.arena.exploitability`): up to 5 cards
        with ``exploitability=True``, up to N cards with ``exploitability=N``,
        not at all with ``False``.
        ``progress``: show a tqdm bar. ``on_table(done, total)`` is called
        after each finished table (the notebook widget's progress bar).
        """
        if out is not None and resume and self.random_seed:
            self.seed = _saved_seed(out, self.seed)  # carry on with the interrupted run's own seed
        if self.isolation == "fence":
            warnings.warn(isolation_report(), RuntimeWarning, stacklevel=2)
        store = _Store(out, self.manifest(), resume) if out is not None else None
        finished = store.finished() if store else {}
        todo = [t for t in self.tables() if t.key not in finished]
        checks: dict = {}
        total = len(todo) + len(finished)
        with tqdm(total=total, initial=len(finished), disable=not progress, desc="tables", unit="table") as bar:
            def emit(kind, key, payload):
                if kind == "check":
                    checks[key] = payload
                    return
                finished[key] = payload
                if store:
                    store.save_table(key, payload)
                bar.update(1)
                if on_table:
                    on_table(len(finished), total)

            play_shares(self._shares(todo, _timeouts(finished.values())), emit)
        results = self._results(finished, checks)
        if self.exploitability is not False:
            from .exploitability import MAX_CARDS, entry_exploitability

            cards = MAX_CARDS if self.exploitability is True else int(self.exploitability)
            results.exploitability, results.exploitability_notes = entry_exploitability(
                self.rules, self.entries, self.limits, max_cards=cards)
        if store:
            results.save(store.folder)
        return results

    def _shares(self, todo: list[Table], timeouts: dict) -> list[Share]:
        """Deal the tables (a few at a time) and the checks round the helper processes."""
        students = [e.name for e in self.entries if e.kind == "student"]
        chunks = [todo[i: i + self.concurrent_tables] for i in range(0, len(todo), self.concurrent_tables)]
        count = max(1, min(self.processes, len(chunks)))
        budget = None if self.memory_budget is None else self.memory_budget // count  # each helper its part
        if budget is not None and self._auto_budget:  # never below what honest files hold (14-28 MB each, measured)
            budget = max(budget, HONEST_SANDBOX_BYTES * len(students))
        return [Share(self, [t for chunk in chunks[k::count] for t in chunk], students[k::count], timeouts, budget)
                for k in range(count)]

    def _results(self, finished: dict, checks: dict) -> ResultSet:
        games, output = [], {}
        for key in sorted(finished):
            data = finished[key]
            games.extend({**g, "table": key} for g in data["games"])
            for name, text in data.get("output", {}).items():
                output[name] = (output.get(name, "") + text)[: self.limits.output_limit]
        entries = []
        for entry in self.entries:
            info = entry.info()
            if entry.kind == "student":
                info["check"] = checks.get(entry.name)
                info["output"] = output.get(entry.name, "")
            entries.append(info)
        return ResultSet(game=self.rules.name, options=self.rules.options(), seed=self.seed,
                         games_per_seating=self.games, entries=entries, games=games, isolation=self.isolation)


def _as_entry(spec) -> Entry:
    if isinstance(spec, Entry):
        return spec
    text = str(spec)
    if text.endswith(".py") or os.sep in text:
        return student_entry(text)
    return bot_entry(text)


def _check_count(name, value, low) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise OptionError(f"{name} must be a whole number, {low} or more, not {value!r}")
    return int(value)


# ------------------------------------------------------------ the store ---
class _Store:
    """The results folder: a manifest, then one file per finished table."""

    def __init__(self, folder, manifest: dict, resume: bool):
        self.folder = pathlib.Path(folder)
        self.tables = self.folder / "tables"
        path = self.folder / "tournament.json"
        if path.exists():
            if not resume:
                raise OptionError(f"{self.folder} already holds a tournament; resume it (--resume) "
                                  f"or choose another folder (--out)")
            _check_same(json.loads(path.read_text(encoding="utf-8")), manifest)
        elif self.tables.exists() and any(self.tables.iterdir()):
            raise OptionError(f"{self.folder}/tables holds results but no tournament.json; choose another folder")
        self.tables.mkdir(parents=True, exist_ok=True)
        write_atomic(path, manifest)

    def finished(self) -> dict:
        done = {}
        for path in sorted(self.tables.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # a torn file (never written atomically) is played again
            done[data["key"]] = data
        return done

    def save_table(self, key: str, data: dict) -> None:
        write_atomic(self.tables / f"{key}.json", data)


def _timeouts(finished_tables) -> dict:
    """Each entry's timed-out games in tables already played (a resumed run remembers them)."""
    counts: dict = {}
    for data in finished_tables:
        for game in data["games"]:
            for forfeit in game["forfeits"]:
                if forfeit["reason"] == "timeout":
                    counts[forfeit["entry"]] = counts.get(forfeit["entry"], 0) + 1
    return counts


def _saved_seed(out, default: int) -> int:
    """The seed of the run saved in ``out`` (``default`` when there is none)."""
    try:
        saved = json.loads((pathlib.Path(out) / "tournament.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default
    seed = saved.get("seed") if isinstance(saved, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0 else default


def _check_same(saved: dict, manifest: dict) -> None:
    for field in ("format", "game", "options", "entries", "games", "seed", "seatings", "bot_records"):
        if saved.get(field) != manifest.get(field):
            raise OptionError(f"cannot resume: the {field} differ from the interrupted run "
                              f"(start a new run in another folder, or restore them)")


def write_atomic(path, data) -> None:
    """Write JSON so that a reader sees the old file or the new one, never half of one."""
    path = pathlib.Path(path)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(temp, path)


__all__ = ["SEATINGS", "Table", "Tournament", "write_atomic"]
