"""Goofspiel bots: small named strategies, each with a classifier.

Every bot reads only its observation (hand, prize, history as seen). The
simple ones also have a vectorised form, :meth:`bid_batch`, which plays one
turn of many games at once for :func:`gopskit.play_many`; a test checks the two
forms agree move for move.

=============  ===============================================================
name           how it bids
=============  ===============================================================
random         a card from its hand, uniformly at random (any game)
match-prize    the card equal to the prize: Ross (1971) showed it is the best
               reply to a random opponent
one-higher     the cheapest card above the prize: it beats match-prize
greedy-high    always its highest card
adaptive       learns how far above or below the prize each opponent bids,
               predicts their next bid and outbids it cheaply when the prize
               is worth it, dumping its lowest card otherwise
=============  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import register
from .base import Agent, RandomAgent

GOOFSPIEL = ("goofspiel",)


def strength(card: int, num_cards: int, ace_high: bool) -> int:
    """How high ``card`` bids (a high Ace ranks above the top card)."""
    return num_cards + 1 if ace_high and card == 1 else card


def strength_table(num_cards: int, ace_high: bool) -> np.ndarray:
    """``table[card]`` is the card's strength, for cards 0..num_cards (0 unused)."""
    table = np.arange(num_cards + 1)
    if ace_high:
        table[1] = num_cards + 1
    return table


@dataclass
class BatchView:
    """One turn of many games, as one seat sees it (the vectorised observation).

    ``prize`` holds the prize card of every game (shape ``(games,)``),
    ``hand`` a boolean mask ``(games, num_cards + 1)`` of the cards still held
    (column 0 unused), ``memory`` a dict the agent may keep across turns of
    this batch.
    """

    turn: int
    prize: np.ndarray
    hand: np.ndarray
    num_cards: int
    ace_high: bool
    memory: dict = field(default_factory=dict)

    @property
    def strengths(self) -> np.ndarray:
        return strength_table(self.num_cards, self.ace_high)


class GoofspielBot(Agent):
    """Base of the Goofspiel bots: helpers to read a Goofspiel observation."""

    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": GOOFSPIEL}
    needs_prize = True  # bots that read the prize cannot batch-play blind variants

    def supports_batch(self, rules) -> bool:
        """Can :meth:`bid_batch` play under these rules (the prize is visible)?"""
        hidden = rules.blind or rules.defeat_the_dealer
        return hasattr(self, "bid_batch") and not (self.needs_prize and hidden)

    @staticmethod
    def _strength(obs, card):
        return strength(card, obs.num_cards, obs.ace_high)

    def _guess_prize(self, obs) -> int:
        """The prize, or when it is hidden, the unseen prize card nearest their mean."""
        if obs.prize is not None:
            return obs.prize
        unseen = obs.unseen_prizes or obs.hand
        mean = float(np.mean([self._strength(obs, c) for c in unseen]))
        return min(unseen, key=lambda c: (abs(self._strength(obs, c) - mean), c))

    def _nearest(self, obs, target_strength) -> int:
        return min(obs.legal_moves, key=lambda c: (abs(self._strength(obs, c) - target_strength), c))


@register
class RandomBot(RandomAgent):
    """Bids a card chosen uniformly at random (the generic random agent, batch-ready)."""

    name = "random"

    def supports_batch(self, rules) -> bool:
        return rules.name == "goofspiel"

    def bid_batch(self, view: BatchView, rng: np.random.Generator) -> np.ndarray:
        """A random permutation of the hand, drawn once per batch, read one turn at a time."""
        if "order" not in view.memory:
            games = view.prize.shape[0]
            cards = np.tile(np.arange(1, view.num_cards + 1, dtype=np.int64), (games, 1))
            view.memory["order"] = rng.permuted(cards, axis=1)
        return view.memory["order"][:, view.turn]


@register
class MatchPrize(GoofspielBot):
    """Bids the card equal to the prize.

    Ross (1971) proved this is the best reply to an opponent who bids at
    random. When it cannot see the prize (blind), it bids the card nearest the
    mean of the prizes it has not seen.
    """

    name = "match-prize"

    def act(self, obs):
        prize = self._guess_prize(obs)
        return prize if prize in obs.legal_moves else self._nearest(obs, self._strength(obs, prize))

    def bid_batch(self, view, rng):
        rows = np.arange(view.prize.shape[0])
        bids = view.prize.copy()
        missing = ~view.hand[rows, bids]
        if missing.any():
            table = view.strengths
            gap = np.abs(table[None, :] - table[view.prize][:, None]) * 64 + np.arange(table.size)[None, :]
            gap = np.where(view.hand, gap, np.iinfo(np.int64).max)
            bids[missing] = gap[missing].argmin(axis=1)
        return bids


@register
class OneHigher(GoofspielBot):
    """Bids the cheapest card that beats the prize's own card; if none, its lowest card.

    Against match-prize it wins almost every prize by one. It is lesson 1's
    example that, from four cards on, every pure strategy can be beaten
    (with two or three cards match-prize cannot be).
    """

    name = "one-higher"

    def act(self, obs):
        prize = self._strength(obs, self._guess_prize(obs))
        above = [c for c in obs.legal_moves if self._strength(obs, c) > prize]
        pool = above or obs.legal_moves
        return min(pool, key=lambda c: self._strength(obs, c))

    def bid_batch(self, view, rng):
        table = view.strengths
        big = table.size + 1
        held = np.where(view.hand, table[None, :], big)
        above = np.where(held > table[view.prize][:, None], held, big)
        pick = np.where(above.min(axis=1) < big, above.argmin(axis=1), held.argmin(axis=1))
        return pick


@register
class GreedyHigh(GoofspielBot):
    """Always bids its highest card: wins early prizes, then runs out of strength."""

    name = "greedy-high"
    needs_prize = False

    def act(self, obs):
        return max(obs.legal_moves, key=lambda c: self._strength(obs, c))

    def bid_batch(self, view, rng):
        return np.where(view.hand, view.strengths[None, :], -1).argmax(axis=1)


@register
class Adaptive(GoofspielBot):
    """Learns each opponent's habit and outbids it cheaply.

    Steps, each turn:

    1. For every opponent, average how far their bids sat above or below the
       prize in the turns seen so far (recent turns weigh more); with no data
       it assumes they match the prize.
    2. Predict each opponent's bid as prize + that offset, snapped to a card
       they still hold; the highest prediction is the bid to beat.
    3. If its cheapest card above that bid costs at most ``overpay`` more than
       the prize, or the prize is the biggest left, it bids that card;
       otherwise it throws away its lowest card, saving strength.

    Under hidden bids it cannot learn, and plays as if everyone matched.
    """

    name = "adaptive"
    classifier = {"stochastic": False, "memory": "game", "uses_opponent_bids": True, "games": GOOFSPIEL}

    def __init__(self, overpay: int = 2, decay: float = 0.7):
        super().__init__()
        self.overpay = overpay
        self.decay = decay

    def _offset(self, obs, opponent) -> float:
        weight, total, seen = 1.0, 0.0, 0.0
        for turn in reversed(obs.history):
            bid = turn.bids[opponent]
            if bid is None:
                continue
            total += weight * (self._strength(obs, bid) - self._strength(obs, turn.prize))
            seen += weight
            weight *= self.decay
        return total / seen if seen else 0.0

    def _predicted_bid(self, obs, opponent, prize_strength) -> int:
        held = obs.hands[opponent] if obs.hands[opponent] is not None else obs.hand
        guess = prize_strength + self._offset(obs, opponent)
        if obs.table_bids[opponent] is not None:
            return self._strength(obs, obs.table_bids[opponent])
        return min((self._strength(obs, c) for c in held), key=lambda s: (abs(s - guess), -s))

    def act(self, obs):
        prize = self._strength(obs, self._guess_prize(obs))
        rivals = [q for q in range(obs.num_players) if q != obs.player and q in obs.eligible]
        to_beat = max((self._predicted_bid(obs, q, prize) for q in rivals), default=0)
        mine = sorted(obs.legal_moves, key=lambda c: self._strength(obs, c))
        winners = [c for c in mine if self._strength(obs, c) > to_beat]
        biggest_left = all(prize >= self._strength(obs, c) for c in obs.unseen_prizes)
        if winners and (self._strength(obs, winners[0]) - prize <= self.overpay or biggest_left):
            return winners[0]
        return mine[0]
