"""Benchmark: CFR+ and plain CFR exploitability traces on hidden-information Goofspiel.

Prints, for each variant and deck size, the exploitability of the average
strategy (points per hand) at checkpoints, and the time taken. Figures, not
pass/fail: the traces should fall toward 0, CFR+ faster than CFR.

    python benchmarks/bench_cfr.py            # 3 and 4 cards
    python benchmarks/bench_cfr.py --cards 5  # add 5 cards (a few minutes)
"""

from __future__ import annotations

import argparse
import time

from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers._cfr_tree import build_tree
from gopskit.solvers.cfr import cfr, game_value, low_prize_overbid_share

VARIANTS = {"hidden bids": dict(hidden_bids=True), "blind": dict(blind=True),
            "defeat the dealer": dict(defeat_the_dealer=True)}


def trace(rules, iterations, every, plus):
    started = time.perf_counter()
    points, solution = [], None
    for step in cfr(rules, iterations, plus=plus, every=every):
        solution = step.solution
        if step.exploitability is not None:
            points.append((step.iteration, step.exploitability))
    return points, time.perf_counter() - started, solution


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="*", default=[3, 4])
    parser.add_argument("--iterations", type=int, default=None)
    args = parser.parse_args(argv)
    for n in args.cards:
        iterations = args.iterations or {3: 500, 4: 500, 5: 100}.get(n, 100)
        every = max(1, iterations // 5)
        for name, options in VARIANTS.items():
            rules = Goofspiel(num_cards=n, **options)
            started = time.perf_counter()
            tree = build_tree(rules)
            built = time.perf_counter() - started
            nodes = sum(level.size for level in tree.levels) + tree.utility.size
            print(f"\n{name}, {n} cards: {nodes:,} nodes, tree built in {built:.1f}s")
            for plus in (False, True):
                points, seconds, solution = trace(rules, iterations, every, plus)
                shown = "  ".join(f"{t}:{e:.4f}" for t, e in points)
                print(f"  {'CFR+' if plus else 'CFR '} {seconds:6.1f}s  exploitability at iteration {shown}")
            print(f"  CFR+: value to seat 1 {game_value(solution):+.4f}, "
                  f"bids above a low prize {low_prize_overbid_share(solution):.1%}")


if __name__ == "__main__":
    main()
