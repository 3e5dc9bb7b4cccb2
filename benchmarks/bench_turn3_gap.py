"""What the 13-card equilibrium bot gives away at turn 3 without the complete solution (figures, never pass/fail).

Without ``gopskit solve --cards 13`` on the machine, the bot plays turns 1-3
from the shipped opening book and turns 4-13 from an exact solve. The book's
turns 1-2 are exact; its turn 3 is built from the 10-card layer stored to
the nearest 0.0001 points (``goofspiel-13-points-discard-layer10.npz``), so
the mix it states (``policy``, which the explorer and the classroom's
comparison show) cannot give away more than 0.0001 points a hand. The bot's
bids there are exact all the same (certified sampling:
``bench_turn3_certified.py``). This measures what the stated mix gives away, with the complete solution as the judge: at each sampled
turn-3 position, the expected points a perfect opponent can hold the bid to,
against the game value of that turn (what the equilibrium bid guarantees).
Both continue exactly afterwards, so the difference is the whole cost, in
points per hand. The peer is the bot's general estimate, which played turn
3 before the layer was shipped; for scale, the ``match-prize`` bot's bid.

Positions are reached by playing turns 1-2 from the book for the bot and,
for the opponent, from the book too ("equilibrium") or uniformly at random.

Needs the complete 13-card solution ("points", ties discarded): pass its
folder, or have it in the cache (``gopskit solve --cards 13``, under 8
minutes and 2.5 GiB here).

Run:  python benchmarks/bench_turn3_gap.py [--folder DIR] [--positions 1000] [--seed 2026]
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
    from gopskit.solvers._exact_lp import matrix_game
    from gopskit.solvers.opening import shipped_opening
    from gopskit.solvers.storage import _from_layer_folder, find_solution

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=None, help="the complete solution's layer folder")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    key = (13, "points", "discard")
    full = _from_layer_folder(args.folder, key) if args.folder else find_solution(*key)
    if full is None:
        sys.exit("no complete 13-card solution: run `gopskit solve --cards 13` first, or pass --folder")
    book = shipped_opening(*key)
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
        book_policy = book.policy(mine, theirs, prizes, prize)
        book_x = np.array([book_policy[c] for c in sorted(mine)])
        _, general_x, _ = matrix_game(lookahead_matrix(mine, theirs, prizes, prize))
        match = np.zeros(len(mine))
        match[np.argmin(np.abs(np.array(sorted(mine)) - prize))] = 1.0
        rows[opponent].append([value - (x @ M).min() for x in (book_x, general_x, match, exact_x)])
    seconds = time.perf_counter() - started
    print(f"13 cards, points, ties discard: {args.positions} turn-3 positions ({seconds:.0f} s)")
    print("points per hand a perfect opponent takes from the bid, against the equilibrium bid's guarantee")
    print(f"{'opponent in turns 1-2':>22} {'positions':>9} {'book: mean':>13} {'90th pct':>9} {'max':>9}"
          f" {'general: mean':>14} {'90th pct':>9} {'max':>6} {'match-prize: mean':>18} {'equilibrium: max':>17}")
    everything = []
    for opponent, got in rows.items():
        got = np.array(got)
        everything.append(got)
        print(f"{opponent:>22} {len(got):>9} {got[:, 0].mean():>13.1e} {np.percentile(got[:, 0], 90):>9.1e}"
              f" {got[:, 0].max():>9.1e} {got[:, 1].mean():>14.3f} {np.percentile(got[:, 1], 90):>9.3f}"
              f" {got[:, 1].max():>6.2f} {got[:, 2].mean():>18.3f} {got[:, 3].max():>17.1e}")
    got = np.vstack(everything)
    print(f"turn 3 from the book gives away at most {got[:, 0].max():.1e} points a hand (mean {got[:, 0].mean():.1e}); "
          f"the general estimate {got[:, 1].mean():.3f} on average, {got[:, 1].max():.2f} at most")


if __name__ == "__main__":
    main()
