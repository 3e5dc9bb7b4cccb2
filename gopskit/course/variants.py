"""Lesson 4 (more players, other rules): the measurements behind its claims.

* :func:`tie_rule_effect`: the same question under ``ties="discard"`` and
  ``"carry"``: how far the best reply beats match-prize, and how the exact
  equilibrium bids on the first turn.
* Divide and Conquer: :func:`beaten_by`, :func:`three_cycle` (no card is
  best) and :func:`swap_fairness` (the hand swap makes every deal fair).
* Gops for three: :func:`seat_gap` (the kingmaker, measured with a 95 %
  interval) and :class:`Gops3Endgame`, the last two turns of a deal as a
  bimatrix game that students build and solve (general-sum: several
  equilibria, no single value).
* Raj: :func:`raj_taker`, who takes an offer; :func:`raj_risk`, the chance
  that a bid takes a negative prize against random bidders.

>>> beaten_by(12)
[2, 3, 4, 6]
>>> raj_taker([12, 7, 7], prize=-3)
0
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import NamedTuple

import numpy as np

from ..agents.divide_and_conquer import solve_half
from ..arena.batch import play_many
from ..arena.results import mean_interval
from ..errors import OptionError
from ..games.divide_and_conquer import CARDS, beats
from ..games.gops_for_three import deal_points
from ..games.gops_for_three import resolve_bids as gops3_resolve
from ..games.raj import resolve_bids
from ..solvers.matrix import Equilibrium, nash_equilibria
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


def seat_gap(rules, line_up, games: int = 200, seed: int = 0) -> dict:
    """Seat 1's points minus seat 2's per game for one line-up: :func:`~gopskit.arena.results.mean_interval` of it.

    Every game is a fresh seeded deal, so the games are independent and the
    95 % interval says how far the mean could move in a rerun.
    """
    points = play_many(rules, list(line_up), games=games, seed=seed)
    return mean_interval(points[:, 0] - points[:, 1])


# ------------------------------------------------------------ Gops for three --
HIGH_FIRST, LOW_FIRST = "high first", "low first"


@dataclasses.dataclass(frozen=True)
class Gops3Endgame:
    """The last two turns of a Gops-for-three deal: who plays which card first?

    ``totals`` are the prize totals so far, ``prizes`` the two diamonds still
    to come (in order), ``hands`` the two cards each player holds. Player 3
    always bids ``hands[2][0]`` first. Players 1 and 2 each choose to bid
    their higher card first or their lower card first; the second card is
    then forced. At the end the highest and the lowest total score, the
    middle one scores nothing (:func:`gopskit.games.gops_for_three.deal_points`).

    >>> game = Gops3Endgame()
    >>> game.outcome(HIGH_FIRST, HIGH_FIRST).points
    (10, 0, 25)
    """

    totals: tuple = (10, 16, 20)
    prizes: tuple = (6, 5)
    hands: tuple = ((8, 3), (9, 4), (7, 5))
    choices: tuple = (HIGH_FIRST, LOW_FIRST)

    def order(self, player: int, choice) -> tuple:
        """The two bids of ``player`` (0 or 1) for ``choice`` (``"high first"``/``"low first"``, or 0/1)."""
        choice = self.choices[choice] if isinstance(choice, int) else choice
        if choice not in self.choices:
            raise OptionError(f"a choice is {HIGH_FIRST!r} or {LOW_FIRST!r} (or 0 / 1), not {choice!r}")
        high, low = max(self.hands[player]), min(self.hands[player])
        return (high, low) if choice == HIGH_FIRST else (low, high)

    def outcome(self, first, second, third: tuple | None = None) -> "EndgameOutcome":
        """Play both turns for player 1's and player 2's choices (player 3: ``third`` or its fixed order)."""
        orders = [self.order(0, first), self.order(1, second), tuple(third or self.hands[2])]
        totals, story = list(self.totals), []
        for turn, prize in enumerate(self.prizes):
            bids = [order[turn] for order in orders]
            winner, reason, _pair = gops3_resolve(bids)
            if winner is None:
                raise OptionError(f"three equal bids {bids}: this endgame is only for different bids")
            totals[winner] += prize
            how = "two equal bids" if reason == "pair" else "the highest bid"
            story.append(f"prize {prize}: bids {bids[0]}, {bids[1]}, {bids[2]}: player {winner + 1} takes it ({how})")
        points, _rule = deal_points(totals, None)
        return EndgameOutcome(tuple(totals), tuple(points), tuple(story))

    def matrices(self) -> tuple[np.ndarray, np.ndarray]:
        """``(A, B)``: player 1's and player 2's deal points, rows = player 1's choice, columns = player 2's."""
        A = np.zeros((2, 2))
        B = np.zeros((2, 2))
        for i, first in enumerate(self.choices):
            for j, second in enumerate(self.choices):
                points = self.outcome(first, second).points
                A[i, j], B[i, j] = points[0], points[1]
        return A, B

    def equilibria(self) -> list[Equilibrium]:
        """Every Nash equilibrium of the 2 x 2 game (support enumeration, :func:`gopskit.solvers.matrix.nash_equilibria`)."""
        return nash_equilibria(*self.matrices())

    def pure_equilibria_three_players(self) -> list[tuple]:
        """Pure Nash equilibria when player 3 chooses its order too (a 2 x 2 x 2 game): ``(c1, c2, c3, points)``."""
        third_orders = [tuple(sorted(self.hands[2], reverse=True)), tuple(sorted(self.hands[2]))]
        profiles = {(a, b, c): self.outcome(self.choices[a], self.choices[b], third_orders[c]).points
                    for a, b, c in itertools.product(range(2), repeat=3)}
        found = []
        for profile, points in profiles.items():
            stable = True
            for player in range(3):
                other = list(profile)
                other[player] = 1 - other[player]
                if profiles[tuple(other)][player] > points[player]:
                    stable = False
            if stable:
                found.append((*(self.choices[k] for k in profile), points))
        return found


class EndgameOutcome(NamedTuple):
    """Final prize totals, the deal points they score, and one sentence per turn."""

    totals: tuple
    points: tuple
    story: tuple


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


def raj_risk(card: int, prize: int = -5, others: int = 2, cards=range(1, 16)) -> float:
    """The chance that bidding ``card`` takes ``prize`` when ``others`` players each bid uniformly from ``cards``.

    Exact: every combination of the others' bids is tried
    (:func:`raj_taker`); with ``prize < 0`` this is the risk of ending up
    with a negative card.

    >>> round(raj_risk(15), 4), round(raj_risk(1), 4)   # 14/225 and 196/225
    (0.0622, 0.8711)
    """
    cards = list(cards)
    if card not in cards:
        raise OptionError(f"card {card!r} is not one of the cards {cards[0]}..{cards[-1]}")
    combos = list(itertools.product(cards, repeat=others))
    return sum(raj_taker([card, *bids], prize) == 0 for bids in combos) / len(combos)


__all__ = ["EndgameOutcome", "Gops3Endgame", "HIGH_FIRST", "LOW_FIRST", "SwapFairness", "TieRuleEffect",
           "beaten_by", "raj_risk", "raj_taker", "seat_gap", "swap_fairness", "three_cycle",
           "tie_rule_effect"]
