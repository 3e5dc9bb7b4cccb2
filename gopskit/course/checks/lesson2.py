"""Lesson 2 (mixed equilibria): checkers for its exercises."""

from __future__ import annotations

import numpy as np

from ..feedback import as_int, as_number, correct, describe, is_blank, not_answered, wrong
from ..mixed import endgame, first_turn_policy, parity_split, solve_two_by_two
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"
PARITY_PRIZE = 7
FP_COUNTS = {1: 7, 3: 3}  # the opponent's past bids in exercise 4


def _close(a: float, b: float, tol: float = 0.005) -> bool:
    return abs(a - b) <= tol


def _probability(answer, name, exercise):
    if is_blank(answer):
        return None, not_answered(exercise, name)
    x = as_number(answer)
    if x is None:
        return None, wrong(exercise, f"{name} should be a probability, a number such as 0.35, not {describe(answer)}")
    if not 0 <= x <= 1:
        return None, wrong(exercise, f"{x:g} is not a probability: a probability lies between 0 and 1")
    return x, None


@checker(2, E1)
def check_endgame_mix(p_bid_two):
    """Exercise 1: the chance of bidding 2 that makes the opponent indifferent."""
    x, problem = _probability(p_bid_two, "p_bid_two", E1)
    if problem is not None:
        return problem
    hand = solve_two_by_two(endgame().payoffs)
    p, q = float(hand.row_mix), float(hand.col_mix)
    if _close(x, p):
        return correct(E1, f"p = {p:g}: then a bid of 1 from them earns you 3p + 1(1 - p) = {3 * p + 1 - p:g} and "
                           f"a bid of 3 earns -p + 2(1 - p) = {-p + 2 * (1 - p):g}: the same, so they cannot exploit you.")
    if _close(x, 1 - p):
        return wrong(E1, f"{x:g} is the chance of bidding 3, not 2", "p is the chance of the first row, bidding 2")
    if _close(x, q) or _close(x, 1 - q):
        return wrong(E1, f"{x:g} is the *opponent's* equilibrium mix; you need the mix that makes the opponent "
                         "indifferent between their two bids", "set your payoff against their 1 equal to against their 3")
    if _close(x, 0.5):
        return wrong(E1, "50-50 is not it: against 50-50 the opponent's 3 holds you to 0.5, their 1 gives you 2",
                     "set 3p + 1(1 - p) equal to -p + 2(1 - p)")
    against_1, against_3 = 3 * x + (1 - x), -x + 2 * (1 - x)
    better = "bidding 3 (your payoff falls to " + f"{against_3:.2f})" if against_3 < against_1 else \
        "bidding 1 (your payoff falls to " + f"{against_1:.2f})"
    return wrong(E1, f"with p = {x:g} the opponent is not indifferent: they do best by {better}",
                 "solve 3p + (1 - p) = -p + 2(1 - p)")


@checker(2, E2)
def check_endgame_value(endgame_value):
    """Exercise 2: the value of the endgame (7/5)."""
    if is_blank(endgame_value):
        return not_answered(E2, "endgame_value")
    x = as_number(endgame_value)
    if x is None:
        return wrong(E2, f"endgame_value should be a number of points, not {describe(endgame_value)}")
    value = float(solve_two_by_two(endgame().payoffs).value)
    if _close(x, value):
        return correct(E2, f"{value:g} points: more than the {1:g} you can guarantee with a pure bid (always 3), "
                           f"less than the {2:g} the opponent could hold you to with a pure bid: mixing closes the gap.")
    messages = {1.0: "1 is what you can guarantee with a pure bid (always 3); mixing does better",
                2.0: "2 is what the opponent can hold you to with a pure bid; mixing helps them too",
                1.5: "1.5 is halfway between 1 and 2, but the value is not a midpoint: compute it from the mix",
                0.0: "0 would be the value of the whole (symmetric) game; this endgame favours you"}
    for known, message in messages.items():
        if _close(x, known):
            return wrong(E2, message, "the value is 3p + 1(1 - p) with your equilibrium p")
    return wrong(E2, f"{x:g} is not it", "put your p from exercise 1 into 3p + 1(1 - p)")


@checker(2, E3)
def check_parity(parity_on_seven):
    """Exercise 3: which parity the 8-card equilibrium prefers on prize 7."""
    if is_blank(parity_on_seven):
        return not_answered(E3, "parity_on_seven")
    answer = parity_on_seven.strip().lower() if isinstance(parity_on_seven, str) else None
    if answer not in ("odd", "even"):
        return wrong(E3, f"answer \"odd\" or \"even\", not {describe(parity_on_seven)}")
    odd, even = parity_split(first_turn_policy(8))[PARITY_PRIZE - 1]
    truth = "odd" if odd > even else "even"
    if answer == truth:
        return correct(E3, f"{truth}: on the 7 the equilibrium bids an even card with probability {even:.2f}. "
                           "Its bids form a comb (every other card), not a hill around the prize.")
    return wrong(E3, f"on the 7 the chance of an {answer} bid is only {odd if answer == 'odd' else even:.2f}",
                 f"read row {PARITY_PRIZE} of the heat map and add the odd and even columns")


@checker(2, E4)
def check_fictitious_play_bid(next_bid):
    """Exercise 4: fictitious play's next bid in the endgame after the opponent bid 1 seven times and 3 three times."""
    if is_blank(next_bid):
        return not_answered(E4, "next_bid")
    game = endgame()
    bid = as_int(next_bid)
    if bid not in game.row_labels:
        return wrong(E4, f"in the endgame you hold {game.row_labels[0]} and {game.row_labels[1]}: "
                         f"answer one of them, not {describe(next_bid)}")
    frequencies = np.array([FP_COUNTS[c] for c in game.col_labels], dtype=float)
    frequencies /= frequencies.sum()
    earnings = game.payoffs @ frequencies
    text = ", ".join(f"bidding {c} earns {e:.2f}" for c, e in zip(game.row_labels, earnings))
    best = game.row_labels[int(np.argmax(earnings))]
    if bid == best:
        return correct(E4, f"{best}: against their past mix (70% 1s, 30% 3s) {text}. Fictitious play bids the "
                           "best reply to the other player's history, round after round.")
    return wrong(E4, f"against their past mix (70% 1s, 30% 3s) {text}",
                 "fictitious play picks the bid with the highest average payoff against the opponent's history")
