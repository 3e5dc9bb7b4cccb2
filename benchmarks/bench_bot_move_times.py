"""How long the equilibrium bot takes for each move of a hand: figures, never a pass/fail test.

The bot (seat 1) plays ``--games`` seeded hands against the random bot; every
move is timed on its own, from the observation to the chosen card, and
the times are grouped by the cards left in hand and by what chose the move
("opening book", "estimate", "exact endgame", "exact solution"). At 13
cards without a complete solution the fourth move of each hand solves the
rest of that hand (``solve_turn_endgame``); the bot must answer within a
second of the person's bid.

    python benchmarks/bench_bot_move_times.py                  # 13 cards, 40 hands
    python benchmarks/bench_bot_move_times.py --cards 11 --games 20
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from gopskit.agents import make_agent
from gopskit.agents.equilibrium import EquilibriumBot
from gopskit.games.goofspiel import Goofspiel


def move_times(cards: int, games: int) -> dict:
    """``{(cards in hand, source): [seconds, ...]}`` over ``games`` hands."""
    rules = Goofspiel(num_cards=cards)
    times: dict = {}
    for game in range(games):
        bot, other = EquilibriumBot(progress=False), make_agent("random")
        state = rules.new_game(seed=game)
        bot.reset(rules, 1, np.random.default_rng(game))
        other.reset(rules, 0, np.random.default_rng(game + 1))
        while not state.is_terminal():
            obs = state.observation(1)
            started = time.perf_counter()
            move = bot.act(obs)
            times.setdefault((len(obs.hand), bot.source), []).append(time.perf_counter() - started)
            state.apply([other.act(state.observation(0)), move])
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=13, help="deck size (default 13)")
    parser.add_argument("--games", type=int, default=40, help="hands to play (default 40)")
    args = parser.parse_args(argv)
    times = move_times(args.cards, args.games)
    print(f"{args.cards} cards, {args.games} hands against random: seconds per move")
    print(f"{'in hand':>7}  {'chosen by':<15} {'moves':>5} {'median':>7} {'90 %':>7} {'slowest':>8}")
    for (in_hand, source), seconds in sorted(times.items(), key=lambda item: -item[0][0]):
        s = np.array(seconds)
        print(f"{in_hand:>7}  {source:<15} {len(s):>5} {np.median(s):>7.3f} {np.percentile(s, 90):>7.3f} {s.max():>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
