"""Lesson 1 (pure strategy): the numbers behind its claims.

* :func:`points_against_random`: what a *plan* (a fixed card for each prize)
  expects against an opponent who bids at random. Each of the opponent's
  cards is equally likely to land on any prize, so bidding card ``b`` on
  prize ``p`` wins it with chance ``(b - 1) / n`` and ties with chance
  ``1 / n``; summing over prizes gives exact expectations. The sum of
  ``p * b`` is largest when big cards go on big prizes (the rearrangement
  inequality), which is why matching the prize is the best plan, and
  Ross (1971) proved no adaptive strategy does better either.
* :func:`plan_matrix`: two-player Gops where each player fixes a plan in
  advance, as a payoff matrix (``n!`` plans each; small decks only).
* :func:`best_response`: the exact best reply to a bot whose bid depends
  only on its hand, the prize and the prizes left (match-prize, one-higher,
  greedy-high), by backward induction over positions;
  :func:`lead_against_match_prize` the same value from any position (every
  subgame, on the path of play or not) and :func:`game_tree_text` the
  drawn tree of a small game against match-prize.
* :func:`weak_elimination_outcomes`: every result iterated *weak*
  elimination can reach, over every order of striking strategies out
  (:data:`ORDER_EXAMPLE` is a game where the order changes the result).

>>> points_against_random([1, 2, 3, 4, 5])          # match the prize, 5 cards
PlanPoints(mine=Fraction(8, 1), theirs=Fraction(4, 1), discarded=Fraction(3, 1))
>>> plan_matrix(2).to_text()
'      12  21\\n12     0   1\\n21    -1   0'
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ..agents import make_agent
from ..arena.batch import play_many
from ..errors import OptionError
from ..games.goofspiel import Goofspiel
from ..solvers.matrix import LabelledMatrix

MAX_PLAN_CARDS = 5


class PlanPoints(NamedTuple):
    """Expected points of a plan against a random bidder: yours, theirs, and thrown away on ties."""

    mine: Fraction
    theirs: Fraction
    discarded: Fraction

    @property
    def difference(self) -> Fraction:
        return self.mine - self.theirs


def _check_plan(plan) -> tuple[int, ...]:
    plan = tuple(int(b) for b in plan)
    n = len(plan)
    if sorted(plan) != list(range(1, n + 1)):
        raise OptionError(f"a plan lists the card bid on prize 1, 2, ..., n: each card 1..{n} once, not {plan}")
    return plan


def points_against_random(plan) -> PlanPoints:
    """Exact expected points when ``plan[p - 1]`` is bid on prize ``p`` against a random bidder (ties discard).

    >>> points_against_random([2, 1]).difference     # the wrong way round loses
    Fraction(-1, 2)
    """
    plan = _check_plan(plan)
    n = len(plan)
    mine = sum(Fraction(p * (b - 1), n) for p, b in enumerate(plan, 1))
    theirs = sum(Fraction(p * (n - b), n) for p, b in enumerate(plan, 1))
    return PlanPoints(mine, theirs, Fraction(n * (n + 1), 2) - mine - theirs)


def plan_label(plan) -> str:
    """``(2, 1, 3)`` -> ``'213'``: the card bid on prize 1, then on prize 2, ..."""
    return "".join(map(str, plan))


def plan_difference(mine, theirs) -> int:
    """Points I win minus points they win when both follow fixed plans (ties discard)."""
    return sum(p * int(np.sign(a - b)) for p, (a, b) in enumerate(zip(mine, theirs), 1))


@functools.lru_cache(maxsize=8)
def plan_matrix(num_cards: int) -> LabelledMatrix:
    """The payoff matrix of plan-against-plan Gops: rows my plans, columns theirs, entries my point difference.

    The prize order does not matter once both plans are fixed, so each
    entry is exact.
    """
    if isinstance(num_cards, bool) or not isinstance(num_cards, int) or not 1 <= num_cards <= MAX_PLAN_CARDS:
        raise OptionError(f"plan matrices are for 1 to {MAX_PLAN_CARDS} cards (n! plans each), not {num_cards!r}")
    plans = list(itertools.permutations(range(1, num_cards + 1)))
    payoffs = [[plan_difference(a, b) for b in plans] for a in plans]
    labels = [plan_label(p) for p in plans]
    return LabelledMatrix(payoffs, labels, labels, title=f"{num_cards}-card Gops, plan against plan")


def strictly_dominated_plans(num_cards: int) -> dict[str, list[str]]:
    """Each plan that some other plan beats against *every* opponent plan, with the plans that do.

    >>> strictly_dominated_plans(2)
    {'21': ['12']}
    """
    game = plan_matrix(num_cards)
    A = game.payoffs
    found = {}
    for i, label in enumerate(game.row_labels):
        better = [game.row_labels[k] for k in range(len(A)) if k != i and np.all(A[k] > A[i])]
        if better:
            found[label] = better
    return found


def match_prize_edge(num_cards: int) -> Fraction:
    """Exact expected point difference of match-prize over a random bidder: sum of p(2p - n - 1)/n.

    >>> match_prize_edge(13)
    Fraction(28, 1)
    """
    return points_against_random(range(1, num_cards + 1)).difference


def against_random(bots, decks, games: int = 2000, seed: int = 0) -> dict:
    """Simulate each bot against the random bidder for each deck size.

    Returns ``{"decks": [...], "mean": {bot: [...]}, "error": {bot: [...]},
    "exact": {"match-prize (exact)": [...]}}``: mean point difference per
    game and twice its standard error (a 95% band).
    """
    decks = list(decks)
    means = {bot: [] for bot in bots}
    errors = {bot: [] for bot in bots}
    for k, n in enumerate(decks):
        for j, bot in enumerate(bots):
            points = play_many(Goofspiel(num_cards=n), [bot, "random"], games=games, seed=[seed, k, j])
            diff = points[:, 0] - points[:, 1]
            means[bot].append(float(diff.mean()))
            errors[bot].append(float(2 * diff.std(ddof=1) / np.sqrt(games)))
    exact = {"match-prize (exact)": [float(match_prize_edge(n)) for n in decks]}
    return {"decks": decks, "mean": means, "error": errors, "exact": exact}


# ------------------------------------------------------------ best reply --
class BestResponse(NamedTuple):
    """The exact best reply to a bot: its expected point difference and its bid in each position met."""

    value: float
    bids: dict  # (hand, bot's hand, prizes left, prize) -> card


def _position_state(rules: Goofspiel, hand, other, prizes, prize):
    """A game state at this position (the past turns paired in card order: the bots asked about ignore them)."""
    past_prizes = sorted(set(rules.cards()) - set(prizes))
    mine, theirs = sorted(set(rules.cards()) - set(hand)), sorted(set(rules.cards()) - set(other))
    record = {"prizes": past_prizes + [prize], "bids": [[a, b] for a, b in zip(mine, theirs)]}
    return rules.replay_hand(record, 0)


def best_response(bot, num_cards: int = 5, ties: str = "discard") -> BestResponse:
    """The best reply to a deterministic, memoryless Goofspiel bot, by backward induction.

    Steps: a position is (my hand, the bot's hand, the prizes left). For
    each prize that can turn next (all equally likely), ask the bot for its
    bid, try every card of mine, and keep the card that maximises points
    won now plus the value of the position reached; average over the prize.
    Only bots whose bid depends on nothing but the position qualify (their
    classifier says ``memory="none"`` and ``stochastic=False``).

    >>> best_response("match-prize", num_cards=5).value   # win every prize but the top one
    5.0
    """
    agent = make_agent(bot)
    if agent.classifier.get("stochastic") or agent.classifier.get("memory") != "none":
        raise OptionError(f"the exact best reply here needs a deterministic bot that ignores history; "
                          f"{agent.name} is not one")
    if ties not in ("discard", "carry"):
        raise OptionError(f"ties must be 'discard' or 'carry' here, not {ties!r}")
    rules = Goofspiel(num_cards=num_cards, ties=ties)
    agent.reset(rules, 1, np.random.default_rng(0))
    bids: dict = {}

    @functools.lru_cache(maxsize=None)
    def value(hand, other, prizes, pot):
        if not prizes:
            return 0.0
        total = 0.0
        for prize in prizes:
            their = agent.act(_position_state(rules, hand, other, prizes, prize).observation(1))
            rest = tuple(p for p in prizes if p != prize)
            options = {}
            for card in hand:
                offer = prize + pot
                now = offer if card > their else -offer if card < their else 0
                carried = offer if (card == their and ties == "carry" and rest) else 0
                after = (tuple(c for c in hand if c != card), tuple(c for c in other if c != their), rest)
                options[card] = now + value(*after, carried)
            best = max(options, key=lambda c: (options[c], -c))
            bids[(hand, other, prizes, prize)] = best
            total += options[best]
        return total / len(prizes)

    cards = tuple(rules.cards())
    return BestResponse(value(cards, cards, cards, 0), bids)


def lead_against_match_prize(hand, prizes) -> Fraction:
    """My best expected lead over match-prize from a position, by backward induction (exact).

    Match-prize bids every prize as it turns, so its hand is always the set
    of prizes left: a position is my ``hand`` and the ``prizes`` left (of
    equal size). Steps: for each prize that may turn next (equally likely),
    try each of my cards, score ``+prize``, ``-prize`` or 0 against the
    prize-card, add the value of the position reached, keep the best card;
    average over the prizes. Defined in every position, so the reply it
    describes is best against match-prize in every subgame (the pair of the
    two is still not subgame perfect: match-prize is no best reply to it).

    >>> lead_against_match_prize((1, 2, 3, 4, 5), (1, 2, 3, 4, 5))
    Fraction(5, 1)
    >>> lead_against_match_prize((1, 2), (2, 3))   # off the path of play: hands that match-prize never leaves
    Fraction(-3, 1)
    """
    return _lead(*_position(hand, prizes))


def _position(hand, prizes) -> tuple[tuple, tuple]:
    """``(hand, prizes)`` sorted, checked: as many different cards in hand as prizes left."""
    hand, prizes = tuple(sorted(int(c) for c in hand)), tuple(sorted(int(p) for p in prizes))
    if len(hand) != len(prizes) or len(set(hand)) != len(hand) or len(set(prizes)) != len(prizes):
        raise OptionError(f"a position needs as many different cards in hand as prizes left; got {hand} and {prizes}")
    return hand, prizes


def _match_prize_bid(prize, prizes):
    return prize


@functools.lru_cache(maxsize=1 << 18)
def _lead(hand: tuple, prizes: tuple, their_bid=_match_prize_bid) -> Fraction:
    """The backward induction of :func:`lead_against` (by default against match-prize), kept across calls."""
    if not prizes:
        return Fraction(0)
    total = Fraction(0)
    for prize in prizes:
        theirs = their_bid(prize, prizes)
        rest = tuple(p for p in prizes if p != prize)
        total += max(prize * int(np.sign(card - theirs)) + _lead(tuple(c for c in hand if c != card), rest, their_bid)
                     for card in hand)
    return total / len(prizes)


def lead_against(hand, prizes, their_bid) -> Fraction:
    """My best expected lead from a position against a bot whose card is ``their_bid(prize, prizes)`` (exact).

    The same backward induction as :func:`lead_against_match_prize`, for any
    bot whose card depends only on the prize turned and the prizes left
    (``prizes`` includes the one turned): match-prize is
    ``lambda prize, prizes: prize``; greedy-high, which spends its cards from
    the top, holds 1..k with k prizes left and bids k, whatever the prize:
    ``lambda prize, prizes: len(prizes)``. Against such a bot the order of the
    prizes matters, so averaging over the prize (not choosing it) counts.

    >>> lead_against((1, 2, 3, 4, 5), (1, 2, 3, 4, 5), lambda prize, prizes: prize)
    Fraction(5, 1)
    >>> float(lead_against((1, 2, 3, 4, 5), (1, 2, 3, 4, 5), lambda prize, prizes: len(prizes)))
    9.008333333333333
    """
    return _lead(*_position(hand, prizes), their_bid)


def game_tree_text(num_cards: int = 2) -> str:
    """The whole game tree of ``num_cards``-card Gops against match-prize, drawn as text with backward induction.

    Chance nodes (which prize turns, equally likely) alternate with my
    decisions (which card); every node shows its value (my expected lead)
    and a star marks the card backward induction keeps. Small decks only.

    >>> print(game_tree_text(2).splitlines()[0])
    start: my hand 12, value +0.00 (average over the prize that turns)
    """
    if not 1 <= num_cards <= 3:
        raise OptionError(f"the drawn tree is for 1 to 3 cards (it doubles in size with every card), not {num_cards!r}")
    cards = tuple(range(1, num_cards + 1))
    lines = [f"start: my hand {plan_label(cards)}, value {float(_lead(cards, cards)):+.2f} (average over the prize that turns)"]
    _draw(cards, cards, "", lines)
    return "\n".join(lines)


def _draw(hand, prizes, indent, lines):
    for prize in prizes:
        rest = tuple(p for p in prizes if p != prize)
        options = {card: prize * int(np.sign(card - prize)) + _lead(tuple(c for c in hand if c != card), rest)
                   for card in hand}
        best = max(options, key=lambda c: (options[c], -c))
        lines.append(f"{indent}+- prize {prize} turns (chance 1/{len(prizes)}); match-prize bids {prize}")
        for card in hand:
            now = prize * int(np.sign(card - prize))
            star = "  <- best" if card == best and len(hand) > 1 else ""
            lines.append(f"{indent}|   +- I bid {card}: {now:+d} now, value {float(options[card]):+.2f}{star}")
            if rest:
                _draw(tuple(c for c in hand if c != card), rest, indent + "|   |   ", lines)


# ------------------------------------------------------- weak elimination --
ORDER_EXAMPLE = LabelledMatrix([[1, 1], [1, 0], [0, 1]], ["top", "middle", "bottom"], ["left", "right"],
                               title="a game where the order of weak elimination matters")


def weak_elimination_outcomes(payoffs) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every ``(rows, columns)`` left standing by iterated weak elimination, over all orders (zero-sum, row maximises).

    Steps: from the full game, try striking out *each* weakly dominated row
    or column (never better anywhere, worse somewhere than another
    strategy still in play), recursively, and collect where each order
    stops. Strict elimination always ends in one place; weak may not.
    Small matrices only (each subgame is visited once).

    >>> weak_elimination_outcomes(ORDER_EXAMPLE.payoffs)   # three different ends
    [((0,), (0,)), ((0,), (0, 1)), ((0,), (1,))]
    """
    A = np.asarray(payoffs, dtype=float)
    if A.ndim != 2 or A.size == 0 or A.size > 400:
        raise OptionError(f"weak_elimination_outcomes takes a matrix of at most 400 entries, not shape {A.shape}")

    @functools.lru_cache(maxsize=None)
    def ends(rows: tuple, cols: tuple) -> frozenset:
        sub = A[np.ix_(rows, cols)]
        nexts = [(rows[:k] + rows[k + 1:], cols) for k in range(len(rows)) if _weakly_beaten(sub, k)]
        nexts += [(rows, cols[:k] + cols[k + 1:]) for k in range(len(cols)) if _weakly_beaten(-sub.T, k)]
        return frozenset([(rows, cols)]) if not nexts else frozenset().union(*(ends(*n) for n in nexts))

    return sorted(ends(tuple(range(A.shape[0])), tuple(range(A.shape[1]))))


def _weakly_beaten(sub: np.ndarray, k: int) -> bool:
    """Row ``k`` of ``sub`` is weakly dominated by another row (at least as good everywhere, better somewhere)."""
    others = np.delete(sub, k, axis=0)
    return bool(np.any(np.all(others >= sub[k], axis=1) & np.any(others > sub[k], axis=1)))


__all__ = ["BestResponse", "ORDER_EXAMPLE", "game_tree_text", "lead_against", "lead_against_match_prize", "weak_elimination_outcomes", "PlanPoints", "against_random", "best_response", "match_prize_edge", "plan_difference", "plan_label", "plan_matrix",
           "points_against_random", "strictly_dominated_plans"]
