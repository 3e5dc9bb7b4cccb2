"""Good: bid one card above the prize when possible, else the lowest card."""


def strategy(observation):
    higher = [card for card in observation.hand if card > observation.prize]
    return min(higher) if higher else min(observation.hand)
