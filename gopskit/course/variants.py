"""Lesson 4 (more players, other rules): the measurements behind its claims.

* :func:`tie_rule_effect`: the same question under ``ties="discard"`` and
  ``"carry"``: how far the best reply beats match-prize, and how the exact
  equilibrium bids on the first turn.
* :func:`line_up_points`: average points per seat for several line-ups of
  bots (for the kingmaker effect in three-player games).
* Divide and Conquer: :func:`beaten_by`, :func:`three_cycle` (no card is
  best) and :func:`swap_fairness` (the hand swap makes every deal fair).
* Raj: :func:`raj_taker`, who takes an offer.

>>> beaten_by(12)
[2, 3, 4, 6]
>>> raj_taker([12, 7, 7], prize=-3)
0
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from ..agents.divide_and_conquer import solve_half
from ..arena.batch import play_many
from ..errors import OptionError
from ..games.divide_and_conquer import CARDS, beats
from ..games.raj import resolve_bids
from .mixed import first_turn_policy
from .pure import best_response


class TieRuleEffect(NamedTuple):
    """One tie rule's numbers: the best reply's lead over match-prize, the first-turn equilibrium bids."""

    ties: str
    best_reply_lead: float
    first_turn: np.ndarray  # [prize - 1, bid - 1]

    @property
    def matches_prize(self) -> float:
        """How often the equilibrium bids exactly the prize on the first turn (prizes equally likely)."""
        return float(np.diag(self.first_turn).mean())


def tie_rule_effect(num_cards: int = 6, ties=("discard", "carry")) -> dict[str, TieRuleEffect]:
    """Measure each tie rule (exact: best replies by backward induction, equilibria by the exact solver)."""
    return {rule: TieRuleEffect(rule, best_response("match-prize", num_cards, ties=rule).value,
                                first_turn_policy(num_cards, ties=rule)) for rule in ties}


def line_up_points(rules, line_ups, games: int = 200, seed: int = 0) -> dict[tuple, np.ndarray]:
    """Average points of each seat, for each line-up of bots (same seed: the same deals for every line-up)."""
    return {tuple(line_up): play_many(rules, list(line_up), games=games, seed=seed).mean(axis=0)
            for line_up in line_ups}


# --------------------------------------------------------- Divide and Conquer --
def beaten_by(card: int) -> list[int]:
    """The Divide and Conquer cards that beat ``card``."""
    if card not in CARDS:
        raise OptionError(f"Divide and Conquer cards are {', '.join(map(str, CARDS))}, not {card!r}")
    return [other for other in CARDS if other != card and beats(other, card)]


def three_cycle() -> tuple[int, int, int]:
    """Three cards each beating the next, the last beating the first (the smallest such triple)."""
    for a, b, c in itertools.permutations(CARDS, 3):
        if a < b and a < c and beats(a, b) and beats(b, c) and beats(c, a):
            return a, b, c
    raise AssertionError("Divide and Conquer always has a cycle")


class SwapFairness(NamedTuple):
    """Equilibrium trick difference for player 1 in each half of one deal, and the total."""

    first_half: float
    second_half: float

    @property
    def total(self) -> float:
        return self.first_half + self.second_half


def swap_fairness(hand, other) -> SwapFairness:
    """Player 1 holds ``hand`` in the first half and ``other`` in the second; both halves solved exactly."""
    hand, other = frozenset(hand), frozenset(other)
    if len(hand) != 5 or len(other) != 5 or hand & other or not hand | other <= set(CARDS):
        raise OptionError(f"a deal is two hands of five different cards from {', '.join(map(str, CARDS))}")
    return SwapFairness(solve_half(hand, other)[0], solve_half(other, hand)[0])


# ----------------------------------------------------------------------- Raj --
def raj_taker(bids, prize: int) -> int | None:
    """The seat that takes a Raj prize (None: every bid cancelled, the prize carries over)."""
    winner, _cancelled = resolve_bids(list(bids), highest=prize > 0)
    return winner


__all__ = ["SwapFairness", "TieRuleEffect", "beaten_by", "line_up_points", "raj_taker", "swap_fairness",
           "three_cycle", "tie_rule_effect"]
