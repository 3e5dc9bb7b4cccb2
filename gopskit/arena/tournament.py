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
3. Students' files run in sandboxes (:mod:`gopskit.arena.sandbox`); bots in
   this process. Tables where every seat is a bot take the vectorised batch
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
import zlib
from collections.abc import Callable, Sequence

import numpy as np
from tqdm.auto import tqdm

from ..agents import make_agent
from ..errors import OptionError
from .entries import Entry, bot_entry, check_entry, entries_from_folder, student_entry, unique_names
from .results import ResultSet
from .sandbox import Limits, SandboxWorker
from .tables import play_games, play_tables

SEATINGS = ("rotations", "permutations")
FORMAT_VERSION = 1


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
    enters a folder of submissions.
    """

    def __init__(self, rules, entries: Sequence, games: int = 100, seed: int = 0, limits: Limits | None = None,
                 seatings: str = "rotations", bot_records: bool = False, concurrent_tables: int = 4,
                 exploitability: bool = True):
        self.rules = rules
        self.entries = unique_names([_as_entry(e) for e in entries])
        self.games, self.seed = _check_count("games", games, 1), _check_count("seed", seed, 0)
        self.limits = limits or Limits()
        if seatings not in SEATINGS:
            raise OptionError(f"unknown seatings {seatings!r}; allowed: {', '.join(SEATINGS)}")
        self.seatings, self.bot_records = seatings, bool(bot_records)
        self.exploitability = bool(exploitability)
        self.concurrent_tables = _check_count("concurrent_tables", concurrent_tables, 1)
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
            "limits": dataclasses.asdict(self.limits),
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
        (small decks; see :mod:`gopskit.arena.exploitability`).
        ``progress``: show a tqdm bar. ``on_table(done, total)`` is called
        after each finished table (the notebook widget's progress bar).
        """
        store = _Store(out, self.manifest(), resume) if out is not None else None
        finished = store.finished() if store else {}
        todo = [t for t in self.tables() if t.key not in finished]
        workers = {e.name: SandboxWorker(e.path, self.limits) for e in self.entries if e.kind == "student"}
        try:
            checks = self._check_with(workers)
            _count_timeouts(workers, finished.values())
            total = len(todo) + len(finished)
            printed = dict.fromkeys(workers, 0)
            with tqdm(total=total, initial=len(finished), disable=not progress, desc="tables", unit="table") as bar:
                for chunk in _chunks(todo, self.concurrent_tables):
                    for table, games in zip(chunk, self._play_chunk(chunk, workers)):
                        finished[table.key] = self._table_data(table, games, workers, printed)
                        if store:
                            store.save_table(table.key, finished[table.key])
                        bar.update(1)
                        if on_table:
                            on_table(len(finished), total)
        finally:
            for worker in workers.values():
                worker.close()
        results = self._results(finished, checks)
        if self.exploitability:
            from .exploitability import entry_exploitability

            results.exploitability, results.exploitability_notes = entry_exploitability(
                self.rules, self.entries, self.limits)
        if store:
            results.save(store.folder)
        return results

    def _check_with(self, workers) -> dict:
        """The submission check, on the tournament's own sandboxes (no extra processes)."""
        checks = {}
        for entry in self.entries:
            if entry.kind != "student":
                continue
            worker = workers[entry.name]
            if not worker.start():
                checks[entry.name] = {"ok": False, "message": worker.load_error}
                continue
            seats = [entry] + [bot_entry("random")] * (self.rules.num_players - 1)
            game = play_games(self.rules, seats, [self.seed], {entry.name: worker}, prefix="check-")[0]
            worker.reset_games()
            worker.timeouts = 0
            forfeit = game["forfeits"][0] if game["forfeits"] else None
            checks[entry.name] = {"ok": forfeit is None, "message": _check_message(forfeit)}
        return checks

    def _play_chunk(self, chunk: Sequence[Table], workers) -> list[list[dict]]:
        """Play a few tables at once; bots-only tables may take the batch path."""
        results: dict[str, list[dict]] = {}
        sandboxed = []
        for table in chunk:
            if self._batch_path(table):
                results[table.key] = self._play_batch(table)
            else:
                sandboxed.append(table)
        by_name = {e.name: e for e in self.entries}
        jobs = [([by_name[n] for n in seating], table.seeds) for table in sandboxed for seating in table.seatings]
        played = play_tables(self.rules, jobs, workers, prefix="t")
        for worker in workers.values():
            worker.reset_games()
        position = 0
        for table in sandboxed:
            games = played[position: position + len(table.seatings)]
            results[table.key] = [g for seating_games in games for g in seating_games]
            position += len(table.seatings)
        return [results[t.key] for t in chunk]

    def _batch_path(self, table: Table) -> bool:
        from .batch import can_vectorise

        if self.bot_records:
            return False
        kinds = {e.name: e for e in self.entries}
        if any(kinds[n].kind != "bot" for n in table.names):
            return False
        return can_vectorise(self.rules, [make_agent(kinds[n].bot) for n in table.names])

    def _play_batch(self, table: Table) -> list[dict]:
        from .batch import play_many

        bots = {e.name: e.bot for e in self.entries}
        games = []
        for seating in table.seatings:
            points = play_many(self.rules, [bots[n] for n in seating], self.games, seed=table.seeds[0])
            for row in points:
                best = row.max()
                games.append({"seats": list(seating), "seed": None, "points": [_number(p) for p in row],
                              "winners": [int(p) for p in np.flatnonzero(row == best)],
                              "forfeits": [], "record": None})
        return games

    def _table_data(self, table: Table, games: list[dict], workers, printed: dict) -> dict:
        """A finished table as saved; ``output`` holds what its entries printed (new text only)."""
        output = {}
        for name in table.names:
            if name in workers and len(workers[name].output) > printed[name]:
                output[name] = workers[name].output[printed[name]:]
                printed[name] = len(workers[name].output)
        return {"key": table.key, "names": list(table.names), "seatings": [list(s) for s in table.seatings],
                "games": games, "output": output}

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
                         games_per_seating=self.games, entries=entries, games=games)


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


def _check_message(forfeit) -> str:
    from .entries import explain_forfeit

    if forfeit is None:
        return "played a whole game against the random bot"
    return explain_forfeit(forfeit)


def _count_timeouts(workers, finished_tables) -> None:
    """A resumed run remembers each entry's timeouts (towards withdrawal)."""
    for data in finished_tables:
        for game in data["games"]:
            for forfeit in game["forfeits"]:
                if forfeit["reason"] == "timeout" and forfeit["entry"] in workers:
                    workers[forfeit["entry"]].timeouts += 1


def _chunks(items, size):
    for start in range(0, len(items), size):
        yield items[start: start + size]


def _number(value):
    value = float(value)
    return int(value) if value.is_integer() else value


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
