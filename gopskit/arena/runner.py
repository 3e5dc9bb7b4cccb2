"""Play a share of a tournament's tables, in this process or in helper processes.

A :class:`Share` is some tables and some submission checks, played with
sandboxes of its own. One share runs in this process; several run in
helper processes (``python -m gopskit.arena.runner``), one per CPU core, so
the engine work of a big class tournament is spread over the machine. Each
helper sends back every check and every finished table as soon as it has
it (pickled, length-prefixed, on its standard output); the tournament saves
them in the order they come and sorts them by table at the end, so the
results do not depend on which helper finished first.

Timeouts towards withdrawal (:class:`~gopskit.arena.sandbox.Limits`) are
counted within each helper process.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import subprocess
import sys
import traceback
from collections.abc import Callable

import numpy as np

from ..agents import make_agent
from ..errors import GopsError
from .entries import bot_entry, explain_forfeit
from .sandbox import MemoryBudget, SandboxWorker, start_all
from .tables import _number, play_tables


class Share:
    """Tables and checks to play with one set of sandboxes.

    ``timeouts`` holds each entry's timed-out games from earlier (a resumed
    run). :meth:`play` calls ``emit(kind, key, payload)`` with
    ``("check", entry name, {"ok", "message"})`` and
    ``("table", table key, table data)``.
    """

    def __init__(self, tournament, tables, check_names=(), timeouts=None, memory_budget=None):
        self.tournament, self.tables = tournament, list(tables)
        self.check_names, self.timeouts = list(check_names), dict(timeouts or {})
        self.memory_budget = memory_budget  # bytes this share's sandboxes may hold together (None: no budget)

    def play(self, emit: Callable) -> None:
        t = self.tournament
        workers = {e.name: SandboxWorker(e.path, t.limits) for e in t.entries if e.kind == "student"}
        self._budget = MemoryBudget(self.memory_budget)
        try:
            checks = self._checks(workers)
            for name in self.check_names:
                emit("check", name, checks[name])
            for name, count in self.timeouts.items():
                if name in workers:
                    workers[name].timeouts += count
            printed = dict.fromkeys(workers, 0)
            for start in range(0, len(self.tables), t.concurrent_tables):
                chunk = self.tables[start: start + t.concurrent_tables]
                for table, games in zip(chunk, self._play_chunk(chunk, workers)):
                    emit("table", table.key, _table_data(table, games, workers, printed))
        finally:
            for worker in workers.values():
                worker.close()

    def _checks(self, workers: dict) -> dict:
        """The submission checks, all at once, on the share's own sandboxes (no extra processes).

        Every entry plays one game against the random bot; their sandboxes
        start side by side and their games advance together.
        """
        t = self.tournament
        names = self.check_names
        ready = dict(zip(names, start_all([workers[name] for name in names])))
        self._budget.check(workers.values())  # what the files took at import, before any move
        verdicts = {name: {"ok": False, "message": workers[name].load_error} for name in names if not ready[name]}
        playing = [name for name in names if ready[name]]
        by_name = {e.name: e for e in t.entries}
        jobs = [([by_name[name]] + [bot_entry("random")] * (t.rules.num_players - 1), [t.seed]) for name in playing]
        played = (play_tables(t.rules, jobs, {name: workers[name] for name in playing}, prefix="check-",
                              budget=self._budget) if jobs else [])
        for name, (game,) in zip(playing, played):
            workers[name].reset_games()
            workers[name].timeouts = 0
            if game["forfeits"]:
                verdicts[name] = {"ok": False, "message": explain_forfeit(game["forfeits"][0])}
            else:
                verdicts[name] = {"ok": True, "message": "played a whole game against the random bot"}
        return verdicts

    def _play_chunk(self, chunk, workers) -> list[list[dict]]:
        """Play a few tables at once; bots-only tables may take the batch path."""
        t = self.tournament
        results: dict[str, list[dict]] = {}
        sandboxed = []
        for table in chunk:
            if self._batch_path(table):
                results[table.key] = self._play_batch(table)
            else:
                sandboxed.append(table)
        by_name = {e.name: e for e in t.entries}
        jobs = [([by_name[n] for n in seating], table.seeds) for table in sandboxed for seating in table.seatings]
        played = play_tables(t.rules, jobs, workers, prefix="t", budget=self._budget) if jobs else []
        for worker in workers.values():
            worker.reset_games()
        position = 0
        for table in sandboxed:
            games = played[position: position + len(table.seatings)]
            results[table.key] = [g for seating_games in games for g in seating_games]
            position += len(table.seatings)
        return [results[table.key] for table in chunk]

    def _batch_path(self, table) -> bool:
        from .batch import can_vectorise

        t = self.tournament
        if t.bot_records:
            return False
        entries = {e.name: e for e in t.entries}
        if any(entries[n].kind != "bot" for n in table.names):
            return False
        return can_vectorise(t.rules, [make_agent(entries[n].bot) for n in table.names])

    def _play_batch(self, table) -> list[dict]:
        from .batch import play_many

        t = self.tournament
        bots = {e.name: e.bot for e in t.entries}
        games = []
        for seating in table.seatings:
            points = play_many(t.rules, [bots[n] for n in seating], t.games, seed=table.seeds[0])
            for row in points:
                games.append({"seats": list(seating), "seed": None, "points": [_number(p) for p in row],
                              "winners": [int(p) for p in np.flatnonzero(row == row.max())],
                              "forfeits": [], "record": None})
        return games


def _table_data(table, games: list[dict], workers, printed: dict) -> dict:
    """A finished table as saved; ``output`` holds what its entries printed (new text only)."""
    output = {}
    for name in table.names:
        if name in workers and len(workers[name].output) > printed[name]:
            output[name] = workers[name].output[printed[name]:]
            printed[name] = len(workers[name].output)
    return {"key": table.key, "names": list(table.names), "seatings": [list(s) for s in table.seatings],
            "games": games, "output": output}


# --------------------------------------------------------- helper processes ---
def play_shares(shares: list[Share], emit: Callable) -> None:
    """Play ``shares``: the only one here, or each in a helper process of its own."""
    if len(shares) == 1:
        shares[0].play(emit)
        return
    helpers = [_start_helper(share) for share in shares]
    try:
        _collect(helpers, emit)
    finally:
        for helper in helpers:
            if helper.poll() is None:
                helper.kill()
            helper.wait()


def _start_helper(share: Share) -> subprocess.Popen:
    helper = subprocess.Popen([sys.executable, "-m", "gopskit.arena.runner"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    helper.stdin.write(pickle.dumps(share))
    helper.stdin.close()
    return helper


def _collect(helpers, emit) -> None:
    buffers = {h.stdout.fileno(): b"" for h in helpers}
    open_pipes = {h.stdout.fileno(): h for h in helpers}
    while open_pipes:
        ready, _, _ = select.select(list(open_pipes), [], [])
        for fd in ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                helper = open_pipes.pop(fd)
                if helper.wait() != 0:
                    raise GopsError(f"a tournament helper process failed (exit code {helper.returncode})")
                continue
            buffers[fd] += chunk
            while len(buffers[fd]) >= 4:
                size = struct.unpack(">I", buffers[fd][:4])[0]
                if len(buffers[fd]) < 4 + size:
                    break
                message, buffers[fd] = pickle.loads(buffers[fd][4: 4 + size]), buffers[fd][4 + size:]
                if message[0] == "error":
                    raise GopsError(f"a tournament helper process failed:\n{message[2]}")
                emit(*message)


def main() -> int:
    """The helper: read a pickled share on stdin, play it, write the results on stdout."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed by accident goes to stderr, not into the results

    def send(*message):
        data = pickle.dumps(message)
        out.write(struct.pack(">I", len(data)) + data)
        out.flush()

    try:
        share = pickle.loads(sys.stdin.buffer.read())
        share.play(send)
    except BaseException:  # noqa: BLE001 - reported to the tournament, which raises it
        send("error", None, traceback.format_exc())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
