"""Bid one card more than the prize, if I still hold one; otherwise my smallest card.

Beats copy_the_prize.py on almost every turn... and loses to anyone who
bids two more.
"""


def strategy(observation):
    higher = [card for card in observation.hand if card > observation.prize]
    if higher:
        return min(higher)
    return min(observation.hand)
