"""How often the 13-card bot's exact third bid comes straight from the shipped book (figures, never pass/fail).

Without ``gopskit solve --cards 13`` on the machine, the bot's third turn is
built from the shipped 10-card values rounded to 0.001 points. It still
bids exactly from the equilibrium (:mod:`gopskit.solvers.certified`): for
the drawn ``u`` it proves from the rounded game which card the exact mix
gives, and where it cannot it solves the turn and the rest of the hand
exactly. This prints, over third turns the bot can meet (its first two bids
on the book's supports, the other side's bids and the prizes at random):

* the share of turns the book certifies, and why the others fail;
* the mean chance that a draw falls where a certified box cannot tell;
* so the share of third bids made from the book alone;
* the time of a certified bid (turn game built from the book and proved)
  against the exact solve it replaces, timed on ``--exact`` of the turns.

With ``--check`` (needs the complete 13-card solution: ``--folder`` or the
cache) every certified answer on a grid of 400 draws is compared with the
exact mix's: the count of disagreements must be 0.

Run:  python benchmarks/bench_turn3_certified.py [--positions 2000] [--exact 3] [--check] [--seed 2026]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np


def third_turns(book, count: int, rng):
    """(hand, opp, prizes, prize): the bot's first two bids drawn from the book, the rest uniformly."""
    deck = list(range(1, 14))
    for _ in range(count):
        prizes, hand, opp = list(deck), list(deck), list(deck)
        for _turn in range(2):
            prize = int(rng.choice(prizes))
            policy = book.policy(hand, opp, prizes, prize)
            cards = sorted(policy)
            p = np.array([policy[c] for c in cards])
            hand.remove(int(cards[rng.choice(len(cards), p=p / p.sum())]))
            opp.remove(int(rng.choice(opp)))
            prizes.remove(prize)
        yield hand, opp, prizes, int(rng.choice(prizes))


def main() -> None:
    from gopskit.solvers.certified import box_turn, group_at, grouped_box, interchangeable
    from gopskit.solvers.exact import solve_turn_endgame
    from gopskit.solvers.opening import shipped_opening, turn_radius
    from gopskit.solvers.storage import _from_layer_folder, find_solution

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--exact", type=int, default=3, help="turns also solved exactly, for the time it takes")
    parser.add_argument("--check", action="store_true", help="compare with the complete solution")
    parser.add_argument("--folder", type=Path, default=None, help="the complete solution's layer folder")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    book = shipped_opening(13)
    radius = turn_radius(book, 11)
    full = None
    if args.check:
        full = _from_layer_folder(args.folder, (13, "points", "discard")) if args.folder else find_solution(13)
        if full is None:
            sys.exit("--check needs the complete 13-card solution: gopskit solve --cards 13 (or --folder DIR)")
    solve_turn_endgame([1, 2, 3], [1, 2, 3], [1, 2, 3], 3)  # load the compiled engine before any clock starts
    box_turn(np.array([[1.0, -1.0], [-1.0, 1.0]]), radius)
    rng = np.random.default_rng(args.seed)
    turns = list(third_turns(book, args.positions, rng))
    grid = np.linspace(0, 1, 400, endpoint=False)
    certified, ambiguity, seconds, wrong = 0, [], [], 0
    for hand, opp, prizes, prize in turns:
        started = time.perf_counter()
        rows, cols = interchangeable(hand, opp), interchangeable(opp, hand)
        box = grouped_box(book.turn_matrix(hand, opp, prizes, prize), radius, rows, cols)
        seconds.append(time.perf_counter() - started)
        if box is None:
            continue
        certified += 1
        ambiguity.append(box.ambiguity())
        if full is not None:
            policy = full.policy(hand, opp, prizes, prize)
            exact = [sum(policy[hand[i]] for i in run) for run in rows]
            wrong += sum(box.group_at(u) not in (None, group_at(exact, u)) for u in grid)
    exact_seconds = []
    for hand, opp, prizes, prize in turns[:args.exact]:
        started = time.perf_counter()
        solve_turn_endgame(hand, opp, prizes, prize)
        exact_seconds.append(time.perf_counter() - started)

    n = len(turns)
    mean_ambiguity = float(np.mean(ambiguity)) if ambiguity else float("nan")
    from_book = certified / n * (1 - mean_ambiguity)
    print(f"13-card third turns, the bot on the book's supports, {n} turns (seed {args.seed}), "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; entries within {radius:.7f}")
    print(f"  certified from the book:       {certified / n:.1%} of turns")
    print(f"  draws a certified box cannot tell: {mean_ambiguity:.2%} on average")
    print(f"  third bids from the book alone: {from_book:.1%} (the others solve exactly)")
    print(f"  a certified bid: {1000 * float(np.median(seconds)):.1f} ms median, {1000 * max(seconds):.1f} ms at most")
    if exact_seconds:
        print(f"  the exact solve it replaces: {min(exact_seconds):.1f}-{max(exact_seconds):.1f} s "
              f"({len(exact_seconds)} turns; {float(np.median(exact_seconds)) / float(np.median(seconds)):,.0f}x the median certified bid)")
    if full is not None:
        print(f"  checked against the complete solution on {len(grid)} draws per turn: {wrong} disagreements")


if __name__ == "__main__":
    main()
