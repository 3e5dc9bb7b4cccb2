"""The equilibrium bot's look-ahead at 13 cards: figures, never a pass/fail test.

A third-turn bid the shipped book cannot settle (about 3 in 10,000) needs
the exact solve of the rest of the hand, about 6 s. A bot that thinks ahead
(on a board, where a person waits) finds at turn 2, from the draw its third
bid will take, which of the 132 third turns it may meet need that solve,
and solves them while the person thinks.

Survey (default): ``--games`` seeded hands of the bot against random. For
each, the time of the turn-2 check, how many third turns it marks, and
whether the third turn that happened needed the solve (and was marked).

    python benchmarks/bench_look_ahead.py                # 2,000 hands
    python benchmarks/bench_look_ahead.py --games 300

Board (``--board``): finds a deal where the person can bid into such a
third turn, then plays it on a real board (the person waits ``--think``
seconds before each bid) with the look-ahead and without, and prints how
long the person's third bid waited for the bot's.

    python benchmarks/bench_look_ahead.py --board --think 3

Stopping (``--cancel``): that deal's third-turn solve, alone, then stopped
at 0.05 s to 6 s in: how long it takes to stop once told (the next move
stops the look-ahead's solves of the turns that did not happen).

    python benchmarks/bench_look_ahead.py --cancel
"""

from __future__ import annotations

import argparse
import copy
import sys
import time

import numpy as np

from gopskit.agents import make_agent
from gopskit.agents import equilibrium
from gopskit.agents.equilibrium import EquilibriumBot, _book_group, _next_positions
from gopskit.arena.match import start_game
from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers.opening import shipped_opening, turn_radius

RULES = Goofspiel(num_cards=13)


def _turn_two(seed: int, their_first=None):
    """A hand to the bot's (seat 1) second bid: ``(state, bot, bid, u)``, ``u`` the draw its third bid will take."""
    other, bot = make_agent("random"), EquilibriumBot(progress=False)
    state = start_game(RULES, [other, bot], seed)
    first = their_first if their_first is not None else other.act(state.observation(0))
    state.apply([first, bot.act(state.observation(1))])
    bid = bot.act(state.observation(1))
    return state, other, bot, bid, float(copy.deepcopy(bot.rng).random())


def _marked(pos, bid, u):
    book = shipped_opening(13)
    radius = turn_radius(book, len(pos["hand"]) - 1)
    return [after for after in _next_positions(pos, bid, "discard") if _book_group(book, after, radius, u) is None]


def survey(games: int) -> dict:
    checks, marked, unsettled, covered = [], [], 0, 0
    for seed in range(games):
        state, other, bot, bid, u = _turn_two(seed)
        pos = EquilibriumBot.position(state.observation(1))
        started = time.perf_counter()
        needed = _marked(pos, bid, u)
        checks.append(time.perf_counter() - started)
        marked.append(len(needed))
        state.apply([other.act(state.observation(0)), bid])
        third = EquilibriumBot.position(state.observation(1))
        book = shipped_opening(13)
        if _book_group(book, third, turn_radius(book, len(third["hand"])), u) is None:
            unsettled += 1
            covered += third in needed
    return {"checks": np.array(checks), "marked": np.array(marked), "unsettled": unsettled, "covered": covered}


def find_board_deal(limit: int = 3000):
    """``(seed, person's first bid, person's second bid)`` whose third turn the book cannot settle for the bot."""
    for seed in range(limit):
        state, _other, _bot, bid, u = _turn_two(seed, their_first=1)
        needed = _marked(EquilibriumBot.position(state.observation(1)), bid, u)
        for after in needed:
            theirs = next(c for c in state.observation(1).hands[0] if c not in after["opp_hand"])
            trial = copy.deepcopy(state)
            trial.apply([theirs, bid])
            if trial.observation(1).prize == after["prize"]:
                return seed, 1, theirs
    return None


def board_wait(seed: int, bids: list, think: float, think_ahead: bool) -> list:
    """Play the person's ``bids`` on a real board, waiting ``think`` s before each: seconds each confirm waited."""
    from gopskit.widgets.boards import make_board

    board = make_board("goofspiel", seats=["human", "equilibrium"], num_cards=13, seed=0)
    equilibrium._ENDGAMES.clear()
    board.reset(seed=seed)
    board.agents[1].think_ahead = think_ahead
    waits = []
    for card in bids:
        time.sleep(think)
        started = time.perf_counter()
        board.click_card(card)
        if board.view.confirm:
            board.confirm()
        waits.append(time.perf_counter() - started)
        assert board.last_error is None, board.last_error
    return waits, board.agents[1].source


def stopping_times(seed: int = 75) -> tuple[float, list]:
    """The solve of deal ``seed``'s first marked third turn: its time alone, and ``(told at, stopped after)`` pairs."""
    import threading

    from gopskit.solvers.exact import SolveCancelled, solve_turn_endgame

    state, _other, _bot, bid, u = _turn_two(seed, their_first=1)
    after = _marked(EquilibriumBot.position(state.observation(1)), bid, u)[0]
    args = (after["hand"], after["opp_hand"], after["prizes"], after["prize"])
    started = time.perf_counter()
    solve_turn_endgame(*args)
    alone, stops = time.perf_counter() - started, []
    for at in (0.05, 0.3, 1, 2, 3, 4, 5, 6):
        cancel, stopped = threading.Event(), []

        def work():
            try:
                solve_turn_endgame(*args, cancel=cancel)
            except SolveCancelled:
                stopped.append(time.perf_counter())

        thread = threading.Thread(target=work)
        thread.start()
        time.sleep(at)
        told = time.perf_counter()
        cancel.set()
        thread.join()
        stops.append((at, stopped[0] - told if stopped else None))
    return alone, stops


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="hands to survey (default 2000)")
    parser.add_argument("--board", action="store_true", help="play a deal that needs the solve on a real board")
    parser.add_argument("--think", type=float, default=3.0, help="seconds the person waits before each bid (--board)")
    parser.add_argument("--cancel", action="store_true", help="how soon a third-turn solve stops once told")
    args = parser.parse_args(argv)
    if args.cancel:
        alone, stops = stopping_times()
        print(f"deal 75's third-turn solve: {alone:.2f} s alone; told to stop after ... s, it stopped within ... s:")
        print("  " + ", ".join(f"{at:g}: {'finished first' if s is None else f'{s:.2f}'}" for at, s in stops))
        return 0
    if args.board:
        found = find_board_deal()
        if found is None:
            print("no deal found")
            return 1
        seed, first, second = found
        print(f"deal {seed}: the person bids {first}, then {second}; the bot's third bid needs the exact solve")
        for think_ahead in (True, False):
            waits, source = board_wait(seed, [first, second, 13], args.think, think_ahead)
            print(f"  think_ahead={think_ahead!s:<5}  the person waits {args.think:.1f} s a turn; each bid waited "
                  + ", ".join(f"{w:.2f}" for w in waits) + f" s for the bot (third bid by: {source})")
        return 0
    figures = survey(args.games)
    checks, marked = figures["checks"], figures["marked"]
    print(f"13 cards, {args.games} hands against random: the turn-2 look-ahead")
    print(f"  check of the 132 third turns: median {np.median(checks) * 1000:.0f} ms, 90 % "
          f"{np.percentile(checks, 90) * 1000:.0f} ms, slowest {checks.max() * 1000:.0f} ms")
    print(f"  hands with a third turn to solve ahead: {np.mean(marked > 0):.1%} "
          f"(mean {marked.mean():.3f} solves a hand, at most {marked.max()})")
    print(f"  third turns that happened and needed the solve: {figures['unsettled']} "
          f"({figures['unsettled'] / args.games:.2%}); marked ahead: {figures['covered']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
