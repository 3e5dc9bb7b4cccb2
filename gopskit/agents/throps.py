"""Bots for Throps (Parlett). Besides the generic ``random`` bot:

=============  ================================================================
name           how it bids
=============  ================================================================
throps-greedy  wants the stock card only if taking it raises its score now;
               then bids the cheapest card sure to win (or its best card),
               otherwise throws away its weakest card
=============  ================================================================

It reads only its observation: its own hand, the stock card, everyone's
face-up winnings and the cards it has not seen yet.
"""

from __future__ import annotations

from ..games.throps import bid_rank, score_cards, suit_relation
from . import register
from .base import Agent

GAMES = ("throps",)


def bid_key(card: str, stock_card: str) -> tuple[int, int]:
    """How strong a bid is against ``stock_card``: rank first, then closeness of suit (bigger wins)."""
    return bid_rank(card), -suit_relation(card[-1], stock_card[-1])


def score_gain(obs) -> int:
    """How much this player's deal score would change if it took the stock card now."""
    mine = list(obs.won[obs.player])
    before = score_cards(mine, obs.scoring_suit).total
    return score_cards(mine + [obs.stock_card], obs.scoring_suit).total - before


@register
class Greedy(Agent):
    """Takes only the stock cards that raise its score, and wins them as cheaply as it can.

    Steps: (1) score its winnings with and without the stock card; (2) if
    the card helps (or costs nothing), it bids the cheapest card that beats
    every card it has not seen, so nobody can outbid it, or failing that its
    strongest card; (3) otherwise it throws away its weakest card, so it
    keeps its strength for cards it wants.

    Why it is sensible: bid cards are worth nothing once spent, and winning
    nothing already scores 40, so every stock card is a choice between
    building a suit and being saddled with minus points. Counting the unseen
    cards (the only information the game shows) tells it when a bid is safe.

    >>> from gopskit.arena import play_game
    >>> from gopskit.games.throps import Throps
    >>> play_game(Throps(target=None), ["throps-greedy", "random", "random"], seed=1).is_terminal()
    True
    """

    name = "throps-greedy"
    classifier = {"stochastic": False, "memory": "game", "uses_opponent_bids": True, "games": GAMES}

    def act(self, obs):
        stock = obs.stock_card
        mine = sorted(obs.legal_moves, key=lambda c: bid_key(c, stock))
        if score_gain(obs) < 0:
            return mine[0]
        threat = max((bid_key(c, stock) for c in obs.unseen), default=(0, 0))
        sure = [c for c in mine if bid_key(c, stock) > threat]
        return sure[0] if sure else mine[-1]
