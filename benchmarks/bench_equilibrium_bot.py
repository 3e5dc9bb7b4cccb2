"""How much the equilibrium bot beats every other Goofspiel bot by: figures, never a pass/fail test.

For each deck size and each other registered bot that plays two-player
Goofspiel, the bot plays ``--games`` seeded games (half in each seat) with
:func:`gopskit.play_many`. Printed per opponent: the mean point margin with
its standard error, how many standard errors that is, and the share of
games won, drawn and lost.

Up to 8 cards the bot plays the exact equilibrium (expected margin at least
0 against anyone). At 13 cards it plays exactly wherever it can: everywhere
when a complete 13-card solution is in the cache (``gopskit solve --cards
13``, or ``--solution FOLDER`` here, which links a solution folder into a
private cache), else the shipped opening book for the first three turns
(the third drawn exactly from the equilibrium: certified sampling from
values rounded to 0.0001 points, the shipped hard turns, or an exact solve
where neither tells) and an exact endgame solve
for the last ten.
``--against-heuristic`` adds the bot's heuristic alone
(``use_stored=False``) as an opponent. The slowest move is printed, overall
and for each way the bot chose its moves (it must answer within a second).

    python benchmarks/bench_equilibrium_bot.py                    # 8 cards x 2000 games, 13 cards x 400
    python benchmarks/bench_equilibrium_bot.py --cards 13 --games 1000
    python benchmarks/bench_equilibrium_bot.py --cards 13 --solution ~/.cache/gopskit/goofspiel-13-points-discard-layers --against-heuristic
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


class TimedBot(EquilibriumBot):
    """The equilibrium bot, keeping its slowest move and what chose its moves."""

    slowest = 0.0
    sources: dict = {}  # source -> [moves, slowest move's seconds]

    def act(self, obs):
        started = time.perf_counter()
        move = super().act(obs)
        took = time.perf_counter() - started
        TimedBot.slowest = max(TimedBot.slowest, took)
        moves, slowest = TimedBot.sources.get(self.source, (0, 0.0))
        TimedBot.sources[self.source] = (moves + 1, max(slowest, took))
        return move


def margins(rules, opponent, games: int, seed: int) -> np.ndarray:
    """The equilibrium bot's point margin in each game, half the games in each seat."""
    first = games // 2
    a = gopskit.play_many(rules, [TimedBot(progress=False), opponent], games=first, seed=seed)
    b = gopskit.play_many(rules, [opponent, TimedBot(progress=False)], games=games - first, seed=seed + 1)
    return np.concatenate([a[:, 0] - a[:, 1], b[:, 1] - b[:, 0]])


def report(cards: int, games: int, seed: int, ties: str, against_heuristic: bool) -> None:
    rules = Goofspiel(num_cards=cards, ties=ties)
    print(f"\n{cards} cards, ties={ties}, {games} games per opponent, seed {seed}")
    print(f"{'opponent':>14} {'margin':>8} {'± s.e.':>7} {'z':>6} {'won':>6} {'drawn':>6} {'lost':>6} {'seconds':>8} "
          f"{'slowest move':>12}  moves chosen by")
    opponents = [name for name in agent_names(rules) if name != EquilibriumBot.name]
    if against_heuristic:
        opponents.append(EquilibriumBot(progress=False, use_stored=False))
    for opponent in opponents:
        TimedBot.slowest, TimedBot.sources = 0.0, {}
        label = opponent if isinstance(opponent, str) else "its heuristic"
        started = time.perf_counter()
        m = margins(rules, opponent, games, seed)
        se = m.std(ddof=1) / np.sqrt(len(m))
        chosen = ", ".join(f"{k} {n} (slowest {t:.2f} s)" for k, (n, t) in sorted(TimedBot.sources.items()))
        print(f"{label:>14} {m.mean():>8.2f} {se:>7.2f} {m.mean() / se:>6.1f} {np.mean(m > 0):>6.1%} "
              f"{np.mean(m == 0):>6.1%} {np.mean(m < 0):>6.1%} {time.perf_counter() - started:>8.1f} "
              f"{TimedBot.slowest:>11.3f}s  {chosen}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="*", default=[8, 13], help="deck sizes (default 8 13)")
    parser.add_argument("--games", type=int, default=None, help="games per opponent (default 2000 at <= 8 cards, 400 above)")
    parser.add_argument("--ties", default="discard", help="tie rule, discard or carry (default discard)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--solution", default=None, help="a complete solution folder (gopskit solve --checkpoint) to play from")
    parser.add_argument("--against-heuristic", action="store_true", help="also play the bot's heuristic alone")
    args = parser.parse_args(argv)
    if args.solution:
        import json
        import os
        import tempfile
        from pathlib import Path

        from gopskit.solvers.storage import layer_folder_name

        meta = json.loads((Path(args.solution) / "meta.json").read_text())
        cache = Path(tempfile.mkdtemp(prefix="gopskit-bench-cache-"))
        (cache / layer_folder_name(meta["num_cards"], meta["objective"], meta["ties"])).symlink_to(Path(args.solution).resolve())
        os.environ["GOPSKIT_CACHE"] = str(cache)
    for cards in args.cards:
        games = args.games or (2000 if cards <= 8 else 400)
        report(cards, games, args.seed, args.ties, args.against_heuristic)
    return 0


if __name__ == "__main__":
    sys.exit(main())
