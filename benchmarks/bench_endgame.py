"""How long an exact endgame of the 13-card game takes: figures, never a pass/fail test.

For each hand size, ``--positions`` random positions of the 13-card game
(both hands and the prizes still to come drawn from 1..13, seeded), points,
ties discard, on every core. Printed per hand size: the range of turn games
and of seconds of :func:`gopskit.solvers.solve_endgame` (tables included),
and from ``--turn-from`` cards on the same for
:func:`gopskit.solvers.solve_turn_endgame` with the highest prize turned.
The compiled engine is loaded and warmed up by a 3-card endgame before the
clock starts. docs/solver.md ("Endgames") quotes these figures. With
``--ties carry`` (and ``--pot``, the points a tie has carried so far) the
same for the tie rule that carries a tied prize on: the equilibrium bot's
thresholds for it (``CARRY_ENDGAME_CARDS``) come from these figures.

    python benchmarks/bench_endgame.py                 # 7 to 10 cards, 3 positions each
    python benchmarks/bench_endgame.py --cards 7-11    # 11 cards take about 17 s each
    python benchmarks/bench_endgame.py --ties carry --cards 7-10 --turn-from 8 --positions 1
"""

from __future__ import annotations

import argparse
import os
import random
import time


def _span(values, fmt) -> str:
    low, high = min(values), max(values)
    return fmt(low) if fmt(low) == fmt(high) else f"{fmt(low)}-{fmt(high)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="7-10", help="hand sizes, e.g. 7-11 (default 7-10)")
    parser.add_argument("--positions", type=int, default=3, help="random positions per hand size (default 3)")
    parser.add_argument("--turn-from", type=int, default=10, help="also time solve_turn_endgame from this size (default 10)")
    parser.add_argument("--ties", default="discard", choices=["discard", "carry"], help="tie rule (default discard)")
    parser.add_argument("--pot", type=int, default=0, help="with --ties carry: points carried into the position (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    low, _, high = args.cards.partition("-")
    sizes = range(int(low), int(high or low) + 1)

    from gopskit.solvers import solve_endgame, solve_turn_endgame

    solve_endgame([1, 2, 3], [1, 2, 3], [1, 2, 3])  # load and warm the compiled engine
    rng = random.Random(args.seed)
    deck = range(1, 14)
    print(f"Exact endgames of the 13-card game, points, ties {args.ties}"
          + (f" (pot {args.pot})" if args.pot else "") + f", {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'cards':>5}  {'turn games':>22}  {'whole endgame':>14}  {'after the turned prize':>34}")
    for n in sizes:
        games, seconds, turn_games, turn_seconds = [], [], [], []
        for _ in range(args.positions):
            hand, opp, prizes = (sorted(rng.sample(deck, n)) for _ in range(3))
            started = time.perf_counter()
            solution = solve_endgame(hand, opp, prizes, ties=args.ties, pot=args.pot)
            seconds.append(time.perf_counter() - started)
            games.append(solution.stats.games)
            if n >= args.turn_from:
                started = time.perf_counter()
                turn = solve_turn_endgame(hand, opp, prizes, prize=max(prizes), ties=args.ties, pot=args.pot)
                turn_seconds.append(time.perf_counter() - started)
                turn_games.append(turn.rest.stats.games)
        count = lambda g: f"{g / 1e6:.1f} million" if g >= 1e6 else f"{g:,}"  # noqa: E731
        secs = lambda s: f"{s:.2f} s"  # noqa: E731
        after = f"{_span(turn_seconds, secs)} ({_span(turn_games, count)})" if turn_seconds else ""
        print(f"{n:>5}  {_span(games, count):>22}  {_span(seconds, secs):>14}  {after:>34}")


if __name__ == "__main__":
    main()
