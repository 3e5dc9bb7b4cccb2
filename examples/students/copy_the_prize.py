"""Bid the card with the same value as the prize.

Against an opponent who bids at random this is the best you can do
(S. M. Ross, 1971). Against a thinking opponent it is easy to beat:
they only have to bid one more.
"""


def strategy(observation):
    if observation.prize in observation.hand:
        return observation.prize
    return observation.hand[0]  # already spent (can happen when ties carry over): bid low
