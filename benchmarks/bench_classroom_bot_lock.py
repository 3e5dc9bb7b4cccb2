"""How long a game against a slow bot keeps the rest of the class waiting (figures, never pass/fail).

One student plays whole 13-card games against the ``equilibrium`` bot in a
room on an SQLite store, the classroom's default. Meanwhile another
connection, standing for every other student of the room, starts a write
transaction every few milliseconds and records how long it waited for the
lock. The bot's turn-4 solve (about a second) and its first move in a
process (opening the book) are the slow moves.

Two ways are measured, each in a fresh process:

* ``ahead``: the store's own way, bots think before the write transaction
  (:func:`gopskit.classroom.gameplay.think_ahead`, :func:`~gopskit.classroom.gameplay.warm_bot`);
* ``inside``: the earlier way, every bot move worked out inside it (the
  look-ahead switched off), the peer this is compared with.

Run:  python benchmarks/bench_classroom_bot_lock.py [--games 3] [--cards 13] [--bot equilibrium]
"""

from __future__ import annotations

import argparse
import multiprocessing
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

import numpy as np


def other_students(path: str, stop: threading.Event, waits: list) -> None:
    """Start a write transaction every 5 ms, as the rest of the room does, and record each wait."""
    connection = sqlite3.connect(path, timeout=60, isolation_level=None)
    while not stop.is_set():
        start = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        waits.append(time.perf_counter() - start)
        connection.execute("ROLLBACK")
        time.sleep(0.005)
    connection.close()


def run(way: str, games: int, cards: int, bot: str, out) -> None:
    from gopskit.classroom import ClassroomStore

    if way == "inside":
        ClassroomStore._think_ahead = lambda self, snapshot: None
        ClassroomStore._warm_bot = lambda self, room_of: None
    folder = tempfile.mkdtemp(prefix="gopskit-lock-")
    path = str(Path(folder) / "room.sqlite3")
    store = ClassroomStore(path)
    room = store.create_room("goofspiel", {"num_cards": cards}, bot=bot, auto_pair=False, seed=1)
    student = store.join(room.code, "Ann")
    waits: list = []
    stop = threading.Event()
    watcher = threading.Thread(target=other_students, args=(path, stop, waits))
    watcher.start()
    rng = np.random.default_rng(7)
    submits = []
    for game in range(games):
        store.pair_waiting(room.teacher_key, seed=game)
        seat = store.claim_seat(student.player_key).seat_key
        view = store.seat_view(seat)
        while view.status == "playing":
            time.sleep(0.05)  # the student looks at the board
            start = time.perf_counter()
            view = store.submit(seat, int(rng.choice(view.observation["hand"])), view.ply)
            submits.append(time.perf_counter() - start)
    stop.set()
    watcher.join()
    store.close()
    out.put((way, np.array(waits), np.array(submits)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--cards", type=int, default=13)
    parser.add_argument("--bot", default="equilibrium")
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    results = {}
    for way in ("ahead", "inside"):
        out = context.Queue()
        process = context.Process(target=run, args=(way, args.games, args.cards, args.bot, out))
        process.start()
        results[way] = out.get()
        process.join()
    print(f"{args.games} games of {args.cards} cards against the {args.bot} bot, SQLite store")
    print(f"{'way':>7} {'other writes':>12} {'longest wait':>13} {'waits > 0.1 s':>14} {'slowest submit':>15}")
    for way, waits, submits in results.values():
        print(f"{way:>7} {len(waits):>12} {waits.max():>12.3f}s {int((waits > 0.1).sum()):>14} {submits.max():>14.3f}s")
    ahead, inside = results["ahead"][1].max(), results["inside"][1].max()
    print(f"longest wait of another student's write: {inside / ahead:.0f}x shorter with the look-ahead "
          f"({inside:.3f} s -> {ahead:.3f} s)")


if __name__ == "__main__":
    main()
