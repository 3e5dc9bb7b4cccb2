"""What the 13-card equilibrium bot gives away at turn 3 without the complete solution (figures, never pass/fail).

Without ``gopskit solve --cards 13`` on the machine, the bot plays turns 1-2
from the shipped opening book, turn 3 from an estimate, and turns 4-13 from
an exact solve. Turn 3 is the only move that is not an equilibrium move.
Its estimate is the shipped fit of the 10-card continuations
(:mod:`gopskit.solvers.continuation`); the bot's general three-feature
estimate, which it used before, is the peer. This measures what that costs, with the complete solution
as the judge: at each sampled turn-3 position, the expected points a
perfect opponent can hold the estimate's mixed bid to, against the game
value of that turn (what the equilibrium bid guarantees). Both continue
exactly afterwards, so the difference is the whole cost of the estimate,
in points per hand.

Positions are reached by playing turns 1-2 from the book for the bot and,
for the opponent, from the book too ("equilibrium") or uniformly at random.
For scale the same is printed for the ``match-prize`` bot's bid. The
positions are drawn with another seed than the fit's training and test
positions (11 and 12).

Needs the complete 13-card solution ("points", ties discarded): pass its
folder, or have it in the cache (``gopskit solve --cards 13``, under 8
minutes and 2.5 GiB here).

Run:  python benchmarks/bench_turn3_gap.py [--folder DIR] [--positions 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np


def sample_bid(policy: dict, rng) -> int:
    cards = sorted(policy)
    p = np.array([policy[c] for c in cards])
    return int(cards[rng.choice(len(cards), p=p / p.sum())])


def main() -> None:
    from gopskit.agents.equilibrium import lookahead_matrix
    from gopskit.solvers.continuation import shipped_continuation
    from gopskit.solvers._exact_lp import matrix_game
    from gopskit.solvers.opening import shipped_opening
    from gopskit.solvers.storage import _from_layer_folder, find_solution

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=None, help="the complete solution's layer folder")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    key = (13, "points", "discard")
    full = _from_layer_folder(args.folder, key) if args.folder else find_solution(*key)
    if full is None:
        sys.exit("no complete 13-card solution: run `gopskit solve --cards 13` first, or pass --folder")
    book = shipped_opening(*key)
    fitted = shipped_continuation(*key)
    rng = np.random.default_rng(args.seed)
    deck = tuple(range(1, 14))
    rows = {"equilibrium": [], "random": []}
    started = time.perf_counter()
    for n in range(args.positions):
        opponent = "equilibrium" if n % 2 == 0 else "random"
        order = [int(c) for c in rng.permutation(deck)]
        mine, theirs, prizes = list(deck), list(deck), list(deck)
        for turn in range(2):
            prize = order[turn]
            b = sample_bid(book.policy(mine, theirs, prizes, prize), rng)
            o = (sample_bid(book.policy(theirs, mine, prizes, prize), rng) if opponent == "equilibrium"
                 else int(rng.choice(theirs)))
            mine.remove(b), theirs.remove(o), prizes.remove(prize)
        prize = order[2]
        M = full.turn_matrix(mine, theirs, prizes, prize)
        value, exact_x, _ = matrix_game(M)
        _, fitted_x, _ = matrix_game(lookahead_matrix(mine, theirs, prizes, prize, fitted=fitted))
        _, general_x, _ = matrix_game(lookahead_matrix(mine, theirs, prizes, prize))
        match = np.zeros(len(mine))
        match[np.argmin(np.abs(np.array(sorted(mine)) - prize))] = 1.0
        rows[opponent].append([value - (x @ M).min() for x in (fitted_x, general_x, match, exact_x)])
    seconds = time.perf_counter() - started
    print(f"13 cards, points, ties discard: {args.positions} turn-3 positions ({seconds:.0f} s)")
    print("points per hand a perfect opponent takes from the bid, against the equilibrium bid's guarantee")
    print(f"{'opponent in turns 1-2':>22} {'positions':>9} {'fitted: mean':>13} {'90th pct':>9} {'max':>6}"
          f" {'general: mean':>14} {'90th pct':>9} {'max':>6} {'match-prize: mean':>18} {'equilibrium: max':>17}")
    everything = []
    for opponent, got in rows.items():
        got = np.array(got)
        everything.append(got)
        print(f"{opponent:>22} {len(got):>9} {got[:, 0].mean():>13.3f} {np.percentile(got[:, 0], 90):>9.3f}"
              f" {got[:, 0].max():>6.2f} {got[:, 1].mean():>14.3f} {np.percentile(got[:, 1], 90):>9.3f}"
              f" {got[:, 1].max():>6.2f} {got[:, 2].mean():>18.3f} {got[:, 3].max():>17.1e}")
    got = np.vstack(everything)
    print(f"the fitted estimate gives away {got[:, 1].mean() / got[:, 0].mean():.1f}x less than the general one "
          f"({got[:, 1].mean():.3f} -> {got[:, 0].mean():.3f} points a hand)")


if __name__ == "__main__":
    main()
