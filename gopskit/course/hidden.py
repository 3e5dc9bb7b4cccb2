"""Lesson 3 (bluffing and hidden information): the numbers behind its claims.

Three two-player variants hide something (rules in ``docs/rules/goofspiel.md``):

* **hidden bids**: after each turn only the winner is announced;
* **blind**: the prize is turned only after the bids are shown;
* **Defeat the Dealer**: the dealer alone sees the prize and bids first,
  face up; the other player bids knowing the dealer's card but not the prize.

:func:`solve` runs CFR+ (:mod:`gopskit.solvers.cfr`) on one hand of a variant
and keeps the result for the process; :func:`bluffing` summarises how often
the equilibrium bids high on a low prize or low on a high one;
:func:`outcome_grid` is the picture of an information set; and
:func:`possible_bids` is the deduction a player makes from "who won".

>>> possible_bids(4, my_bid=3, told="won")
[1, 2]
>>> outcome_grid(3)[2].tolist()   # I bid 3: their 1 and 2 look the same to me
['won', 'won', 'tie']
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ..errors import OptionError
from ..games.goofspiel import Goofspiel
from ..solvers._cfr_tree import build_tree
from ..agents import make_agent
from ..solvers.cfr import agent_strategies, best_response_value, bid_given_prize, cfr, game_value, solve_cfr
from ..solvers.cfr import exploitability as cfr_exploitability

VARIANTS = {
    "hidden bids": {"hidden_bids": True},
    "blind": {"blind": True},
    "defeat the dealer": {"defeat_the_dealer": True},
}
ITERATIONS = 400
OUTCOMES = ("lost", "tie", "won")


def rules_for(variant: str, num_cards: int = 4) -> Goofspiel:
    """The rules of one hand of ``variant`` ("hidden bids", "blind" or "defeat the dealer")."""
    if variant not in VARIANTS:
        raise OptionError(f"unknown variant {variant!r}; the lesson's variants: {', '.join(VARIANTS)}")
    return Goofspiel(num_cards=num_cards, **VARIANTS[variant])


def _dealer(variant: str) -> int | None:
    return 0 if variant == "defeat the dealer" else None


@functools.lru_cache(maxsize=8)
def solve(variant: str, num_cards: int = 4, iterations: int = ITERATIONS):
    """CFR+ on one hand of ``variant`` (player 1 deals in Defeat the Dealer); cached for the process."""
    return solve_cfr(rules_for(variant, num_cards), iterations, dealer=_dealer(variant))


def convergence(variant: str, num_cards: int = 4, iterations: int = ITERATIONS, every: int = 20,
                plus: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(iterations, exploitability)`` of the average strategy, measured every ``every`` iterations."""
    steps = [(s.iteration, s.exploitability) for s in cfr(rules_for(variant, num_cards), iterations, plus=plus,
                                                         dealer=_dealer(variant), every=every)
             if s.exploitability is not None]
    return np.array([s[0] for s in steps]), np.array([s[1] for s in steps])


def exploitability(solution) -> float:
    """What a perfect opponent gains against the solution's average strategy, points per hand."""
    return cfr_exploitability(solution)


def dealer_gap(dealer_bot: str | None = None, num_cards: int = 4) -> float:
    """What a best-replying non-dealer wins beyond the game's value against one way of dealing.

    ``dealer_bot`` names a kit bot playing the dealer (``"match-prize"``: the
    honest dealer, whose face-up card is the prize); ``None`` means the
    CFR+ equilibrium dealer. 0 means the dealer cannot be exploited.
    """
    solution = solve("defeat the dealer", num_cards)
    tree = solution.tree
    strategies = solution.average() if dealer_bot is None else agent_strategies(tree, make_agent(dealer_bot))
    return best_response_value(tree, strategies, responder=1) + game_value(solution)


def game_value_of(solution) -> float:
    """Player 1's expected points per hand when both follow the solution."""
    return game_value(solution)


class Bluffing(NamedTuple):
    """How one seat of an equilibrium bids against the prize.

    ``high_on_low``: among turns with a choice and a prize in the low half,
    the chance of a bid above the prize; ``low_on_high``: among turns with
    a prize in the high half, the chance of a bid below it.
    """

    high_on_low: float
    low_on_high: float


def bluffing(solution, player: int = 0) -> Bluffing:
    """Measure :class:`Bluffing` from the equilibrium's bid-given-prize table."""
    probs, mass = bid_given_prize(solution, player)
    n = probs.shape[0]
    low, high = range(1, n // 2 + 1), range(n - n // 2 + 1, n + 1)
    above = sum(mass[p - 1] * probs[p - 1, p:].sum() for p in low)
    below = sum(mass[p - 1] * probs[p - 1, : p - 1].sum() for p in high)
    low_mass, high_mass = sum(mass[p - 1] for p in low), sum(mass[p - 1] for p in high)
    return Bluffing(float(above / low_mass) if low_mass else 0.0, float(below / high_mass) if high_mass else 0.0)


def first_turn_information_sets(variant: str, num_cards: int = 4, player: int = 0) -> int:
    """How many different things ``player`` may know when making the first bid of a hand."""
    tree = build_tree(rules_for(variant, num_cards), _dealer(variant))
    level = tree.decision_level(0, player)
    return tree.levels[level].num_infosets


def outcome(my_bid: int, their_bid: int) -> str:
    """What a player is told after a hidden-bid turn: ``"won"``, ``"lost"`` or ``"tie"``."""
    return OUTCOMES[int(np.sign(my_bid - their_bid)) + 1]


def outcome_grid(num_cards: int) -> np.ndarray:
    """``grid[my_bid - 1, their_bid - 1]``: what I am told after the first turn under hidden bids.

    Cells of one row with the same word are positions I cannot tell apart:
    together they form one *information set* for my next bid.
    """
    cards = range(1, num_cards + 1)
    return np.array([[outcome(mine, theirs) for theirs in cards] for mine in cards])


def possible_bids(num_cards: int, my_bid: int, told: str) -> list[int]:
    """The opponent's first bids that fit what I was ``told`` (hidden bids)."""
    if told not in OUTCOMES:
        raise OptionError(f"an outcome is one of {', '.join(OUTCOMES)}, not {told!r}")
    grid = outcome_grid(num_cards)
    return [theirs for theirs in range(1, num_cards + 1) if grid[my_bid - 1, theirs - 1] == told]


__all__ = ["Bluffing", "ITERATIONS", "OUTCOMES", "VARIANTS", "bluffing", "convergence", "dealer_gap", "exploitability", "game_value_of",
           "first_turn_information_sets", "outcome", "outcome_grid", "possible_bids", "rules_for", "solve"]
