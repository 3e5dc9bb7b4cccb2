"""Simulated students: what a student's page does, without a browser, for tests and load checks.

:func:`student_loop` joins a room and then does what the student app does:
poll the store's :class:`~.store.Pulse`, claim its seat when it is seated,
redraw (here: read its :class:`~.gameplay.SeatView`) when its table
changes, and play when it is its turn, until the room ends. Every view it
reads and every move it makes is logged, so a test can check afterwards
that no page ever saw a bid early, and a benchmark can time the reveals.

Run many at once with :func:`run_students` (one process each), or try a
room by hand: ``python -m gopskit.classroom.simulate URL CODE --students 8``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import time
from pathlib import Path

import numpy as np

from .gameplay import dumps
from .store import ClassroomStore

HEARTBEAT_EVERY = 2.0
SCHEDULE_EVERY = 1.0


@dataclasses.dataclass
class StudentLog:
    """What one simulated student saw and did (times are ``time.time()`` seconds)."""

    name: str
    views: list = dataclasses.field(default_factory=list)  # [table, ply, seat, status, observation hash, seen at]
    moves: list = dataclasses.field(default_factory=list)  # [table, ply, seat, move, sent at, stored at]
    errors: list = dataclasses.field(default_factory=list)

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(dataclasses.asdict(self)))

    @classmethod
    def load(cls, path) -> "StudentLog":
        return cls(**json.loads(Path(path).read_text()))


def observation_hash(observation: dict) -> str:
    """A short fingerprint of an observation, to compare what a page saw with a replay."""
    return hashlib.sha256(dumps(observation).encode()).hexdigest()[:16]


def student_loop(url: str, code: str, name: str, *, poll: float = 0.05, think: float = 0.0, seed=None,
                 limit: float = 600.0) -> StudentLog:
    """Join room ``code`` as ``name`` and play every game the room seats us at, until it ends."""
    store = ClassroomStore(url)
    rng = np.random.default_rng(seed)
    log = StudentLog(name)
    keys = store.join(code, name)
    seat, seen_version, last_beat, last_schedule = None, None, 0.0, 0.0
    deadline = time.time() + limit
    while time.time() < deadline:
        now = time.time()
        pulse = store.pulse(keys.player_key)
        if pulse.room_status != "open":
            break
        if now - last_beat > HEARTBEAT_EVERY:
            store.heartbeat(keys.player_key)
            last_beat = now
        if pulse.table and pulse.table_status == "playing":
            if seat is None or seat.table != pulse.table:
                seat, seen_version = store.claim_seat(keys.player_key, pulse.table), None
            if pulse.table_version != seen_version:
                seen_version = _look_and_play(store, seat, log, rng, think)
        elif now - last_schedule > SCHEDULE_EVERY:
            store.keep_schedule(keys.player_key)
            last_schedule = now
        time.sleep(poll)
    store.close()
    return log


def _look_and_play(store, seat, log: StudentLog, rng, think: float) -> int:
    """Read the seat's view and play while it is our turn (the view after a move may ask again)."""
    view = store.seat_view(seat.seat_key)
    while True:
        log.views.append([view.table, view.ply, view.seat, view.status, observation_hash(view.observation),
                          time.time()])
        if not view.my_turn:
            return view.version
        if think:
            time.sleep(float(rng.uniform(0, think)))
        legal = view.observation["legal_moves"]
        move, ply = legal[int(rng.integers(len(legal)))], view.ply
        sent = time.time()
        try:
            view = store.submit(seat.seat_key, move, ply)
        except Exception as exc:  # logged for the test to look at; a page would show it
            log.errors.append(f"{type(exc).__name__}: {exc}")
            return -1
        log.moves.append([view.table, ply, view.seat, move, sent, time.time()])


def _child(args) -> str:
    url, code, name, poll, think, seed, limit, out = args
    student_loop(url, code, name, poll=poll, think=think, seed=seed, limit=limit).save(out)
    return out


def run_students(url: str, code: str, count: int, folder, *, poll: float = 0.05, think: float = 0.0,
                 limit: float = 600.0, seed: int = 0):
    """Start ``count`` simulated students, one process each; return the pool's async result.

    Each writes its :class:`StudentLog` to ``folder/NAME.json`` when the room ends.
    """
    names = [f"Student {i + 1:02d}" for i in range(count)]
    jobs = [(url, code, n, poll, think, seed * 1000 + i, limit, str(Path(folder) / f"{n}.json"))
            for i, n in enumerate(names)]
    pool = multiprocessing.get_context("fork").Pool(count)
    result = pool.map_async(_child, jobs)
    pool.close()
    return pool, result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gopskit.classroom.simulate",
                                     description="simulated students join a room and play until it ends")
    parser.add_argument("url", help="the store: a path or postgresql://...")
    parser.add_argument("code", help="the room code")
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--think", type=float, default=1.0, help="longest thinking time per move, in seconds")
    parser.add_argument("--folder", default=".", help="where each student's log is written")
    args = parser.parse_args(argv)
    pool, result = run_students(args.url, args.code, args.students, args.folder, think=args.think)
    result.get()
    pool.join()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
