"""Lesson 2 (mixed equilibria): checkers for its exercises."""

from __future__ import annotations

import numpy as np

from ..feedback import as_int, as_number, correct, describe, is_blank, not_answered, quoted_number_note, wrong
from ..mixed import endgame, lp_game, solve_two_by_two
from ...solvers.matrix import maximin_minimax, solve_zero_sum
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"
FP_COUNTS = {1: 7, 3: 3}  # the opponent's past bids in exercise 4


def _close(a: float, b: float, tol: float = 0.005) -> bool:
    return abs(a - b) <= tol


def _probability(answer, name, exercise):
    if is_blank(answer):
        return None, not_answered(exercise, name)
    x = as_number(answer)
    if x is None:
        return None, wrong(exercise, f"{name} should be a probability, a number such as 0.35, not {describe(answer)}{quoted_number_note(answer)}")
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
        return wrong(E2, f"endgame_value should be a number of points, not {describe(endgame_value)}{quoted_number_note(endgame_value)}")
    value = float(solve_two_by_two(endgame().payoffs).value)
    pure_low, pure_high = maximin_minimax(endgame().payoffs)
    if _close(x, value):
        return correct(E2, f"{value:g} points: more than the {pure_low:g} you can guarantee with a pure bid (always 3), "
                           f"less than the {pure_high:g} the opponent could hold you to with a pure bid: mixing closes "
                           "the gap.")
    messages = {1.0: "1 is what you can guarantee with a pure bid (always 3); mixing does better",
                2.0: "2 is what the opponent can hold you to with a pure bid; mixing helps them too",
                1.5: "1.5 is halfway between 1 and 2, but the value is not a midpoint: compute it from the mix",
                0.0: "0 would be the value of the whole (symmetric) game; this endgame favours you"}
    for known, message in messages.items():
        if _close(x, known):
            return wrong(E2, message, "the value is 3p + 1(1 - p) with your equilibrium p")
    p = float(solve_two_by_two(endgame().payoffs).row_mix)
    if _close(x, -value):
        return wrong(E2, f"{x:g} is the endgame's value to your opponent (their points minus yours); the question asks "
                         "for yours, and you hold the better cards", "put your p from exercise 1 into 3p + 1(1 - p)")
    if _close(x, p) or _close(x, 1 - p):
        return wrong(E2, f"{x:g} is a probability from exercise 1 (the chance of bidding {2 if _close(x, p) else 3}), "
                         "not a number of points", "put your p from exercise 1 into 3p + 1(1 - p)")
    return wrong(E2, f"{x:g} is not it", "put your p from exercise 1 into 3p + 1(1 - p)")


def _show(x: float) -> str:
    return f"{round(float(x), 4) + 0.0:.4f}"  # + 0.0: never print -0.0000


def _lp_test_games():
    """The games exercise 3's solver is tried on: the 3 x 3 turn, the endgame, and the endgame from the other side
    (a negative value: it catches a value variable left with linprog's default bound v >= 0)."""
    turn, end = lp_game().payoffs, endgame().payoffs
    return {"the 3 x 3 turn": turn, "the endgame": end, "the endgame seen by your opponent": -end.T}


def _failure_hint(exc: Exception, value: float) -> str:
    """What to look at when the student's solver raised ``exc`` on a game worth ``value``."""
    if "NoneType" in str(exc) and value < -1e-9:
        return ("linprog found no solution (result.x is None): linprog keeps every variable >= 0 unless told "
                "otherwise, and this game's value is negative: give v bounds (None, None)")
    if "NoneType" in str(exc):
        return "linprog found no solution (result.x is None): print result.message to see why"
    return "return the value and the row player's probabilities, in that order"


def _lp_answer_problem(answer, m: int) -> str | None:
    """Why ``answer`` is not a pair (value, m probabilities), or None if it has that shape."""
    if hasattr(answer, "x") and hasattr(answer, "status"):
        return ("it returned linprog's whole result; return the pair (value, strategy) taken from result.x")
    if isinstance(answer, (str, bytes, dict)) or not hasattr(answer, "__len__") or len(answer) != 2:
        return f"it returned {describe(answer)}; expected the pair (value, strategy)"
    first, second = answer
    if as_number(second) is not None and np.asarray(first, dtype=object).size == m:
        return "it returned (strategy, value); the order is (value, strategy)"
    try:
        x = np.asarray(second, dtype=float).ravel()
    except (TypeError, ValueError):
        return f"the strategy {describe(second)} is not a list of {m} numbers"
    if as_number(first) is None:
        return f"the value is {describe(first)}, not a number"
    if x.shape == (m + 1,):
        return (f"the strategy has {m + 1} entries, one too many: the last entry of result.x is v, not a "
                "probability")
    if x.shape != (m,):
        return f"the strategy {describe(second)} is not {m} probabilities, one per row"
    if not np.all(np.isfinite(x)):
        return f"the strategy {np.round(x, 3).tolist()} holds nan or infinity: did linprog succeed (result.status 0)?"
    return None


@checker(2, E3)
def check_linprog_solver(solve_with_linprog):
    """Exercise 3: solve_with_linprog(payoffs) -> (value, row strategy), set up by the student for scipy's linprog."""
    if is_blank(solve_with_linprog):
        return not_answered(E3, "solve_with_linprog")
    if not callable(solve_with_linprog):
        return wrong(E3, f"solve_with_linprog should be a function of a payoff matrix, not {describe(solve_with_linprog)}")
    for name, A in _lp_test_games().items():
        truth = solve_zero_sum(A)
        m = A.shape[0]
        try:
            answer = solve_with_linprog(A.copy())
        except Exception as exc:  # any error in the student's code becomes a sentence
            return wrong(E3, f"on {name} your function failed ({type(exc).__name__}: {exc}); it should return "
                             "(value, strategy)", _failure_hint(exc, truth.value))
        shape_problem = _lp_answer_problem(answer, m)
        if shape_problem is not None:
            return wrong(E3, f"on {name} (a {m} x {A.shape[1]} game) {shape_problem}",
                         "result.x holds [p_1, ..., p_m, v]: return (result.x[-1], result.x[:m])")
        value, strategy = answer
        v, x = as_number(value), np.asarray(strategy, dtype=float).ravel()
        if np.any(x < -1e-6) or abs(x.sum() - 1) > 1e-6:
            return wrong(E3, f"on {name} your strategy {np.round(x, 3).tolist()} is not a probability distribution",
                         "add the equality constraint p_1 + ... + p_m = 1 (A_eq, b_eq) and keep each p_i >= 0")
        if _close(v, -truth.value, 1e-4) and not _close(v, truth.value, 1e-4):
            return wrong(E3, f"on {name} your value has the wrong sign ({_show(v)}, should be {_show(truth.value)})",
                         "linprog minimises: to maximise v, minimise -v, then turn the sign back")
        if not _close(v, truth.value, 1e-4):
            hint = ("linprog's default bounds keep every variable >= 0: give v bounds (None, None)"
                    if truth.value < 0 and v >= -1e-6 else "each column j needs v - sum_i p_i A[i, j] <= 0")
            return wrong(E3, f"on {name} the value should be {_show(truth.value)}, not {_show(v)}", hint)
        guaranteed = float((x @ A).min())
        if guaranteed < truth.value - 1e-4:
            return wrong(E3, f"on {name} your strategy guarantees only {_show(guaranteed)}, below the value "
                             f"{_show(truth.value)}", "one constraint per column of the opponent: sum_i p_i A[i, j] >= v")
    turn = solve_zero_sum(lp_game().payoffs)
    mix = ", ".join(f"{p:.3f}" for p in turn.row_strategy)
    return correct(E3, f"your linear program matches the kit's solver on all three games. On the 3 x 3 turn the "
                       f"value is {round(turn.value, 3) + 0.0:.3f} and the mix ({mix}): a game that looks the same from both "
                       "sides is worth 0.")


@checker(2, E4)
def check_fictitious_play_bid(next_bid):
    """Exercise 4: fictitious play's next bid in the endgame after the opponent bid 1 seven times and 3 three times."""
    if is_blank(next_bid):
        return not_answered(E4, "next_bid")
    game = endgame()
    bid = as_int(next_bid)
    if bid not in game.row_labels:
        return wrong(E4, f"in the endgame you hold {game.row_labels[0]} and {game.row_labels[1]}: "
                         f"answer one of them, not {describe(next_bid)}{quoted_number_note(next_bid)}")
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
