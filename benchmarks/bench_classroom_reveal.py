"""How long a student waits, in a live classroom, from a click to its reveal (figures, never pass/fail).

One student plays 13-card games against the ``equilibrium`` bot at a room
on an SQLite store, as the student's page does: the page draws each turn,
lets the table's bots choose their moves (``store.think_for_bots``, which
blocks the page's kernel as the real page does), and the student clicks
``--think`` seconds after the turn was drawn. A click that arrives while
the bot still thinks is handled when it is done, so the wait is measured
from the click to the moment the reveal is back, not from the moment the
kernel turned to the click.

Two ways are measured:

* ``page``: the student's page as it is, bots choosing while the student thinks;
* ``at click``: no thinking ahead, so each bot move is worked out after the
  click (in the store's look-ahead, before its write transaction). This is
  what a click cost when bots moved at the start of their turn, where the
  bot's turn-4 solve sat between the click on turn 3 and its reveal.

Run:  python benchmarks/bench_classroom_reveal.py [--games 4] [--think 0 0.5 1 2] [--cards 13]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np


def play(store, room, student, games: int, think: float, ahead: bool) -> dict:
    """``{cards in hand at the click: [seconds from click to reveal, ...]}``."""
    waits: dict = {}
    rng = np.random.default_rng(7)
    for game in range(games):
        store.heartbeat(student.player_key)
        assert store.pair_waiting(room.teacher_key, seed=1000 * game + int(think * 100) + ahead), "not seated"
        seat = store.claim_seat(student.player_key).seat_key
        view = store.seat_view(seat)
        while view.status == "playing":
            drawn = time.perf_counter()
            if ahead:
                store.think_for_bots(seat)  # the page's kernel is busy until this returns
            click = drawn + think
            if time.perf_counter() < click:
                time.sleep(click - time.perf_counter())
            cards = len(view.observation["hand"])
            view = store.submit(seat, int(rng.choice(view.observation["hand"])), view.ply)
            store.heartbeat(student.player_key)  # the page beats every two seconds
            waits.setdefault(cards, []).append(time.perf_counter() - click)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per think time and way (default 4)")
    parser.add_argument("--think", type=float, nargs="+", default=[0.0, 0.5, 1.0, 2.0],
                        help="seconds from a turn's drawing to the click (default 0 0.5 1 2)")
    parser.add_argument("--cards", type=int, default=13)
    parser.add_argument("--bot", default="equilibrium")
    args = parser.parse_args()
    from gopskit.classroom import ClassroomStore

    store = ClassroomStore(str(Path(tempfile.mkdtemp(prefix="gopskit-reveal-")) / "room.sqlite3"))
    room = store.create_room("goofspiel", {"num_cards": args.cards}, bot=args.bot, auto_pair=False, seed=1)
    student = store.join(room.code, "Ann")
    play(store, room, student, 1, 0.0, True)  # the bot's once-per-process work (opening its book) is not timed
    print(f"{args.cards} cards against the {args.bot} bot, {args.games} games per row: seconds from click to reveal")
    print(f"{'think':>6}  {'way':<9} {'clicks':>6} {'median':>7} {'slowest':>8} {'slowest turn':>13}")
    for think in args.think:
        for ahead in (True, False):
            waits = play(store, room, student, args.games, think, ahead)
            every = np.concatenate([np.array(w) for w in waits.values()])
            cards, worst = max(((c, max(w)) for c, w in waits.items()), key=lambda item: item[1])
            turn = args.cards - cards + 1
            print(f"{think:>6.2f}  {'page' if ahead else 'at click':<9} {len(every):>6} {np.median(every):>7.3f} "
                  f"{every.max():>8.3f} {f'turn {turn}':>13}")
    store.close()


if __name__ == "__main__":
    main()
