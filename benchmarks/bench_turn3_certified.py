"""How often the 13-card bot's exact third bid comes straight from the shipped book (figures, never pass/fail).

Without ``gopskit solve --cards 13`` on the machine, the bot's third turn is
built from the shipped 10-card values rounded to 0.0001 points. It still
bids exactly from the equilibrium: the few turn shapes the rounded values
cannot settle have their exact mix shipped (:mod:`gopskit.solvers.hard_turns`);
for the others, from the drawn ``u`` it proves from the rounded game which
card the exact mix gives (:mod:`gopskit.solvers.certified`), and where it
cannot it solves the turn and the rest of the hand exactly. This prints,
over third turns the bot can meet (its first two bids on the book's
supports, the other side's bids and the prizes at random):

* the share of turns whose exact mix is stored, and of those certified;
* the mean chance that a draw falls where a certified box cannot tell;
* so the share of third bids made from the book alone;
* the time of a bid from the book (turn game built from the book and
  proved, or the stored mix looked up) against the exact solve it
  replaces, timed on ``--exact`` of the turns.

With ``--check`` (needs the complete 13-card solution: ``--folder`` or the
cache) every answer from the book on a grid of 400 draws is compared with
the exact mix's: the count of disagreements must be 0. With ``--every``,
certified sampling is also tried once on each of the 2.8 million turn
shapes the bot can meet (about 7 minutes on two cores).

Run:  python benchmarks/bench_turn3_certified.py [--positions 2000] [--exact 3] [--check [--folder DIR]] [--every] [--seed 2026]
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


_BOOK = None  # the book, for forked workers of every_shape


def _shapes(items):
    from gopskit.solvers.certified import grouped_box, interchangeable
    from gopskit.solvers.opening import turn_radius

    radius, out = turn_radius(_BOOK, 11), []
    for hand, opp, prizes, prize in items:
        box = grouped_box(_BOOK.turn_matrix(hand, opp, prizes, prize), radius, interchangeable(hand, opp),
                          interchangeable(opp, hand))
        out.append(-1.0 if box is None else box.ambiguity())
    return out


def every_shape(book) -> None:
    """Certified sampling tried on each turn shape the bot can meet, each counted once (not weighted by play)."""
    import multiprocessing

    from gopskit.solvers.hard_turns import reachable_turns

    global _BOOK
    _BOOK = book
    items = list(reachable_turns(book, 11).values())
    chunks = [items[i:i + 4000] for i in range(0, len(items), 4000)]
    with multiprocessing.get_context("fork").Pool() as pool:
        found = np.array([a for part in pool.imap(_shapes, chunks) for a in part])
    certified = found[found >= 0]
    print(f"  every turn shape the bot can meet ({len(found):,}, each once): {(found < 0).sum():,} not certified "
          f"({(found < 0).mean():.2%}); draws a certified box cannot tell: {certified.mean():.3%} on average")


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
    parser.add_argument("--every", action="store_true",
                        help="also try certified sampling on every turn shape the bot can meet (2.8 million: minutes)")
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
    certified, stored, ambiguity, seconds, wrong = 0, 0, [], [], 0
    hard = book.hard_turns
    for hand, opp, prizes, prize in turns:
        started = time.perf_counter()
        rows, cols = interchangeable(hand, opp), interchangeable(opp, hand)
        chances = None if hard is None else hard.group_chances(book, hand, opp, prizes, prize)
        box = None if chances is not None else grouped_box(book.turn_matrix(hand, opp, prizes, prize), radius, rows, cols)
        seconds.append(time.perf_counter() - started)
        exact = None
        if full is not None and (chances is not None or box is not None):
            policy = full.policy(hand, opp, prizes, prize)
            exact = [sum(policy[hand[i]] for i in run) for run in rows]
        if chances is not None:
            stored += 1
            if exact is not None:
                wrong += sum(group_at(chances, u) != group_at(exact, u) for u in grid)
            continue
        if box is None:
            continue
        certified += 1
        ambiguity.append(box.ambiguity())
        if exact is not None:
            wrong += sum(box.group_at(u) not in (None, group_at(exact, u)) for u in grid)
    exact_seconds = []
    for hand, opp, prizes, prize in turns[:args.exact]:
        started = time.perf_counter()
        solve_turn_endgame(hand, opp, prizes, prize)
        exact_seconds.append(time.perf_counter() - started)

    n = len(turns)
    mean_ambiguity = float(np.mean(ambiguity)) if ambiguity else float("nan")
    from_book = (certified * (1 - mean_ambiguity) + stored) / n
    print(f"13-card third turns, the bot on the book's supports, {n} turns (seed {args.seed}), "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; entries within {radius:.7f}")
    if hard is not None:
        print(f"  stored exact mix (hard turns): {stored / n:.2%} of turns; the file holds {len(hard):,} of the "
              f"{hard.meta['reachable']:,} turn shapes the bot can meet")
    print(f"  certified from the book:       {certified / n:.2%} of turns ({n - certified - stored} neither)")
    print(f"  draws a certified box cannot tell: {mean_ambiguity:.3%} on average")
    print(f"  third bids from the book alone: {from_book:.2%} (the others solve exactly)")
    print(f"  a bid from the book: {1000 * float(np.median(seconds)):.1f} ms median, {1000 * max(seconds):.1f} ms at most")
    if exact_seconds:
        print(f"  the exact solve it replaces: {min(exact_seconds):.1f}-{max(exact_seconds):.1f} s "
              f"({len(exact_seconds)} turns; {float(np.median(exact_seconds)) / float(np.median(seconds)):,.0f}x the median certified bid)")
    if full is not None:
        print(f"  checked against the complete solution on {len(grid)} draws per turn: {wrong} disagreements")
    if args.every:
        every_shape(book)


if __name__ == "__main__":
    main()
