"""Raj bots. Every bot reads only its :class:`~gopskit.games.raj.RajObservation`.

==================  ===========================================================
name                how it bids
==================  ===========================================================
random              a card from its hand, uniformly at random (any game)
raj-proportional    spends a card as high in its hand as the offer is big among
                    the prizes still to come; half as high for a negative offer
==================  ===========================================================
"""

from __future__ import annotations

from . import register
from .base import Agent

RAJ = ("raj",)


def stake_rank(offer_value: int, remaining: list[int]) -> float:
    """Where the offer's size sits among the sizes of every prize still in play, from 0 to 1.

    Sizes are absolute values (a -5 matters as much as a +5). Equal sizes
    count half, so the middle prize ranks 0.5.

    >>> stake_rank(10, [1, 5, 10]), stake_rank(1, [1, 5, 10])
    (0.8333333333333334, 0.16666666666666666)
    """
    size = abs(offer_value)
    sizes = [abs(v) for v in remaining]
    below = sum(s < size for s in sizes) + 0.5 * sum(s == size for s in sizes)
    return below / len(sizes)


def proportional_bid(obs, hand: tuple[int, ...] | None = None) -> int:
    """The card at the offer's stake rank in ``hand`` (default: the bot's own), halved for a negative offer."""
    hand = list(obs.hand if hand is None else hand)
    value = sum(obs.offer)
    rank = stake_rank(value, list(obs.unseen_prizes) + [value])
    if not obs.highest:
        rank /= 2
    return hand[min(len(hand) - 1, int(rank * len(hand)))]


@register
class RajProportional(Agent):
    """Spends a card in proportion to what is at stake.

    The offer's size is ranked among the prizes still to come (a big offer
    late in the game, when few big prizes are left, ranks high) and the bot
    bids the card at the same height in its own hand. A negative offer is
    dodged by not being the lowest, which takes a smaller card than winning
    outright, so for those it aims half as high. Why it is reasonable: it is
    the Raj form of Goofspiel's "bid what the prize is worth", which Ross
    (1971) showed is the best reply to a random bidder; spending in
    proportion keeps big cards for big prizes.
    """

    name = "raj-proportional"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": RAJ}

    def act(self, obs):
        return proportional_bid(obs)
