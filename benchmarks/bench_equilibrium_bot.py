"""How much the equilibrium bot beats every other Goofspiel bot by: figures, never a pass/fail test.

For each deck size and each other registered bot that plays two-player
Goofspiel, the bot plays ``--games`` seeded games (half in each seat) with
:func:`gopskit.play_many`. Printed per opponent: the mean point margin with
its standard error, how many standard errors that is, and the share of
games won, drawn and lost.

Up to 8 cards the bot plays the exact equilibrium (expected margin at least
0 against anyone); at 13 cards it plays its documented heuristic.

    python benchmarks/bench_equilibrium_bot.py                    # 8 cards x 2000 games, 13 cards x 400
    python benchmarks/bench_equilibrium_bot.py --cards 13 --games 1000
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import gopskit
from gopskit.agents import agent_names
from gopskit.agents.equilibrium import EquilibriumBot
from gopskit.games.goofspiel import Goofspiel


def margins(rules, opponent: str, games: int, seed: int) -> np.ndarray:
    """The equilibrium bot's point margin in each game, half the games in each seat."""
    first = games // 2
    a = gopskit.play_many(rules, [EquilibriumBot(progress=False), opponent], games=first, seed=seed)
    b = gopskit.play_many(rules, [opponent, EquilibriumBot(progress=False)], games=games - first, seed=seed + 1)
    return np.concatenate([a[:, 0] - a[:, 1], b[:, 1] - b[:, 0]])


def report(cards: int, games: int, seed: int, ties: str) -> None:
    rules = Goofspiel(num_cards=cards, ties=ties)
    mode = "exact equilibrium" if cards <= 8 else "heuristic (lookahead + exact endgame)"
    print(f"\n{cards} cards, ties={ties}, {games} games per opponent, seed {seed}: {mode}")
    print(f"{'opponent':>14} {'margin':>8} {'± s.e.':>7} {'z':>6} {'won':>6} {'drawn':>6} {'lost':>6} {'seconds':>8}")
    for opponent in agent_names(rules):
        if opponent == EquilibriumBot.name:
            continue
        started = time.perf_counter()
        m = margins(rules, opponent, games, seed)
        se = m.std(ddof=1) / np.sqrt(len(m))
        print(f"{opponent:>14} {m.mean():>8.2f} {se:>7.2f} {m.mean() / se:>6.1f} {np.mean(m > 0):>6.1%} "
              f"{np.mean(m == 0):>6.1%} {np.mean(m < 0):>6.1%} {time.perf_counter() - started:>8.1f}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="*", default=[8, 13], help="deck sizes (default 8 13)")
    parser.add_argument("--games", type=int, default=None, help="games per opponent (default 2000 at <= 8 cards, 400 above)")
    parser.add_argument("--ties", default="discard", help="tie rule, discard or carry (default discard)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    for cards in args.cards:
        games = args.games or (2000 if cards <= 8 else 400)
        report(cards, games, args.seed, args.ties)
    return 0


if __name__ == "__main__":
    sys.exit(main())
