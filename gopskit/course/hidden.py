"""Lesson 3 (bluffing and hidden information): the numbers behind its claims.

Three two-player variants hide something (rules in ``docs/rules/goofspiel.md``):

* **hidden bids**: after each turn only the winner is announced;
* **blind**: the prize is turned only after the bids are shown;
* **Defeat the Dealer**: the dealer alone sees the prize and bids first,
  face up; the other player bids knowing the dealer's card but not the prize.

:func:`solve` runs CFR+ (:mod:`gopskit.solvers.cfr`) on one hand of a variant
and keeps the result for the process; :func:`off_prize_bids` summarises how
often the equilibrium bids high on a low prize or low on a high one (not
bluffing by itself: the open game's equilibrium does it nearly as often);
:func:`outcome_grid` is the picture of an information set; and
:func:`possible_bids` is the deduction a player makes from "who won".

Two controls keep the lesson's claims honest:

* **open bids** (the ordinary game, bids shown) is solved the same way, so
  :func:`bluff_control` can set the hidden-bid statistics beside the
  open-bid ones: a *bluff* is only what changes because bids are hidden;
* :func:`spendthrift_dealer` plays out, in the engine, a dealer who throws
  its top card on a first prize of 1, against the value the dealer can
  guarantee.

:func:`information_set_values` is the exercise where a player must choose
one bid for two positions it cannot tell apart (a belief, then an average).

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
from ..solvers.cfr import (agent_strategies, best_response_value, bid_given_prize, cfr, game_value,
                           low_prize_overbid_share, solve_cfr)
from ..solvers.cfr import exploitability as cfr_exploitability

VARIANTS = {
    "hidden bids": {"hidden_bids": True},
    "blind": {"blind": True},
    "defeat the dealer": {"defeat_the_dealer": True},
}
CONTROL = "open bids"  # the ordinary game, bids shown: the control for every hidden variant
ITERATIONS = 400
OUTCOMES = ("lost", "tie", "won")


def rules_for(variant: str, num_cards: int = 4) -> Goofspiel:
    """The rules of one hand of ``variant`` ("hidden bids", "blind", "defeat the dealer" or "open bids")."""
    if variant == CONTROL:
        return Goofspiel(num_cards=num_cards)
    if variant not in VARIANTS:
        raise OptionError(f"unknown variant {variant!r}; the lesson's variants: {', '.join(VARIANTS)}, {CONTROL}")
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


class OffPrize(NamedTuple):
    """How often one seat of an equilibrium bids away from the prize.

    ``high_on_low``: among turns with a choice and a prize in the low half,
    the chance of a bid above the prize
    (:func:`gopskit.solvers.cfr.low_prize_overbid_share`); ``low_on_high``:
    among turns with a prize in the high half, the chance of a bid below it.
    Neither is a bluff on its own: ordinary mixing does both with bids shown
    too. :meth:`BluffControl.bluff` takes the difference from the open game.
    """

    high_on_low: float
    low_on_high: float


def off_prize_bids(solution, player: int = 0) -> OffPrize:
    """Measure :class:`OffPrize` from the equilibrium's bid-given-prize table."""
    probs, mass = bid_given_prize(solution, player)
    n = probs.shape[0]
    high = range(n - n // 2 + 1, n + 1)
    below = sum(mass[p - 1] * probs[p - 1, : p - 1].sum() for p in high)
    high_mass = sum(mass[p - 1] for p in high)
    return OffPrize(low_prize_overbid_share(solution, player), float(below / high_mass) if high_mass else 0.0)


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


# ---------------------------------------------------------- the controls --
class BluffControl(NamedTuple):
    """Bidding against the prize with bids hidden and with bids shown (both solved by CFR+ the same way).

    ``above[variant][p - 1]``: the chance of a bid above prize ``p``;
    ``below[variant][p - 1]``: of a bid below it (turns with a choice,
    weighted by how often play reaches them). ``summary[variant]`` is the
    :class:`OffPrize` pair.
    """

    above: dict
    below: dict
    summary: dict

    def bluff(self) -> OffPrize:
        """What hiding the bids adds: hidden minus open, for both statistics."""
        hidden, shown = self.summary["hidden bids"], self.summary[CONTROL]
        return OffPrize(hidden.high_on_low - shown.high_on_low, hidden.low_on_high - shown.low_on_high)


def bluff_control(num_cards: int = 4, player: int = 0) -> BluffControl:
    """Solve hidden bids and open bids alike and tabulate how each bids against the prize."""
    above, below, summary = {}, {}, {}
    for variant in ("hidden bids", CONTROL):
        solution = solve(variant, num_cards)
        probs, _mass = bid_given_prize(solution, player)
        n = probs.shape[0]
        above[variant] = [float(probs[p - 1, p:].sum()) for p in range(1, n + 1)]
        below[variant] = [float(probs[p - 1, : p - 1].sum()) for p in range(1, n + 1)]
        summary[variant] = off_prize_bids(solution, player)
    return BluffControl(above, below, summary)


class SpendthriftDealer(NamedTuple):
    """A dealer who bids its top card on a first prize of 1, played out exactly.

    ``results``: the dealer's point difference in every way the hand can
    go on (each order of the other prizes, each order of the dealer's other
    cards) when the other player answers each face-up card with the lowest
    card that beats it; ``per_hand``: the dealer's expected result per hand
    if it does this whenever the 1 comes first and plays the equilibrium
    otherwise, against a best reply; ``value``: what the equilibrium
    dealer guarantees.
    """

    results: list[int]
    per_hand: float
    value: float


def spendthrift_dealer(num_cards: int = 4) -> SpendthriftDealer:
    """Measure :class:`SpendthriftDealer` in Defeat the Dealer (the engine plays every line out)."""
    import itertools

    top, rest = num_cards, list(range(2, num_cards + 1))
    results = set()
    for prizes in itertools.permutations(rest):
        for plan in itertools.permutations(range(1, num_cards)):
            hand = Goofspiel(num_cards=num_cards, defeat_the_dealer=True,
                             prize_order=(1, *prizes)).new_hand(0, np.random.default_rng(0))
            for card in (top, *plan):
                hand.apply({0: card})
                theirs = hand.observation(1).legal_moves
                hand.apply({1: min([c for c in theirs if c > card] or theirs)})
            scores = hand.scores()
            results.add(int(scores[0] - scores[1]))
    solution = solve("defeat the dealer", num_cards)
    spender = agent_strategies(solution.tree, _Spendthrift(solution, top))
    per_hand = -best_response_value(solution.tree, spender, responder=1)
    return SpendthriftDealer(sorted(results), per_hand, game_value(solution))


class _Spendthrift:
    """The equilibrium dealer, except that it bids ``top`` on a first prize of 1 (a policy for the tree)."""

    name = "spendthrift dealer"

    def __init__(self, solution, top: int):
        self.solution, self.top = solution, top

    def reset(self, rules, player, rng=None):
        pass

    def policy(self, observation):
        if observation.player == 0 and observation.turn == 0 and observation.prize == 1:
            return {self.top: 1.0}
        return self.solution.policy(observation)


# ------------------------------------------------- one information set --
# the exercise: 3 cards, hidden bids, prizes 2, 1, 3; you bid your 3 on the 2 and win. The opponent is mostly
# honest, so its 2 is far more likely than its 1, and that belief decides which of your next bids is better
INFOSET_EXERCISE = {"num_cards": 3, "prize_order": (2, 1, 3), "my_first_bid": 3, "told": "won", "honesty": (4, 5)}


def mostly_honest_policy(hand, prize, honesty=INFOSET_EXERCISE["honesty"]) -> dict:
    """The exercise's opponent: bids the prize with chance ``honesty`` (if it holds it), else another card at random."""
    from fractions import Fraction

    h = Fraction(*honesty)
    hand = sorted(hand)
    if prize not in hand or len(hand) == 1:
        return {card: Fraction(1, len(hand)) for card in hand}
    others = [c for c in hand if c != prize]
    return {card: (h if card == prize else (1 - h) / len(others)) for card in hand}


class InformationSetValues(NamedTuple):
    """The exercise's numbers: my belief over their first bid, each bid's value in each position, and averaged."""

    belief: dict  # their first bid -> probability, given what I was told
    prior: dict  # their first bid -> probability before I was told (only the bids that fit)
    per_position: dict  # their first bid -> {my bid: expected lead over the turns left}
    values: dict  # my bid -> expected lead over the turns left, averaged over the information set


def information_set_values(num_cards: int = INFOSET_EXERCISE["num_cards"],
                           prize_order=INFOSET_EXERCISE["prize_order"],
                           my_first_bid: int = INFOSET_EXERCISE["my_first_bid"], told: str = INFOSET_EXERCISE["told"],
                           honesty=INFOSET_EXERCISE["honesty"]) -> InformationSetValues:
    """Hidden bids against :func:`mostly_honest_policy`: value of each next bid at one information set (exact).

    Steps: Bayes' rule gives the belief over the opponent's first bid (its
    policy, kept only where it fits what I was told); for each position in
    the set and each of my next bids, the engine plays out every way the
    opponent can bid (its policy again), the last turn being forced; the
    value of a bid at the information set is the belief-weighted average.
    The defaults are the lesson's exercise (:data:`INFOSET_EXERCISE`).

    >>> values = information_set_values()
    >>> {t: str(b) for t, b in values.belief.items()}, max(values.values, key=values.values.get)
    ({1: '1/9', 2: '8/9'}, 2)
    """
    rules = Goofspiel(num_cards=num_cards, hidden_bids=True, prize_order=tuple(prize_order))
    cards = tuple(rules.cards())
    if num_cards != 3 or len(prize_order) != 3:
        raise OptionError("the information-set exercise is a 3-card hand: one choice left after the first turn")
    first = mostly_honest_policy(cards, prize_order[0], honesty)
    fits = {t: w for t, w in first.items() if w > 0 and outcome(my_first_bid, t) == told}
    if not fits:
        raise OptionError(f"no first bid of the opponent fits: your {my_first_bid} and being told {told!r}")
    belief = {t: w / sum(fits.values()) for t, w in fits.items()}
    per_position = {}
    for theirs in belief:
        mine_left = [c for c in cards if c != my_first_bid]
        per_position[theirs] = {bid: _play_out(rules, (my_first_bid, theirs), bid, mine_left, honesty)
                                for bid in mine_left}
    values = {bid: sum(belief[t] * per_position[t][bid] for t in belief) for bid in per_position[next(iter(belief))]}
    return InformationSetValues(belief, fits, per_position, values)


def _play_out(rules, first_bids, my_bid, my_hand, honesty):
    """Expected lead over turns 2 and 3 when I bid ``my_bid`` on turn 2 (the engine scores every line)."""
    from fractions import Fraction

    total = Fraction(0)
    their_hand = [c for c in rules.cards() if c != first_bids[1]]
    for theirs, chance in mostly_honest_policy(their_hand, rules.prize_order[1], honesty).items():
        hand = rules.new_hand(0, np.random.default_rng(0))
        hand.apply(list(first_bids))
        before = hand.scores()
        hand.apply([my_bid, theirs])
        hand.apply([next(c for c in my_hand if c != my_bid), next(c for c in their_hand if c != theirs)])
        after = hand.scores()
        total += chance * int((after[0] - before[0]) - (after[1] - before[1]))
    return total


__all__ = ["BluffControl", "OffPrize", "CONTROL", "INFOSET_EXERCISE", "InformationSetValues", "SpendthriftDealer",
           "bluff_control", "information_set_values", "mostly_honest_policy", "spendthrift_dealer", "ITERATIONS", "OUTCOMES", "VARIANTS", "off_prize_bids", "convergence", "dealer_gap", "exploitability", "game_value_of",
           "first_turn_information_sets", "outcome", "outcome_grid", "possible_bids", "rules_for", "solve"]
