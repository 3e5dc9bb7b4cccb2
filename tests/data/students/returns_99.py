"""Hostile: bids a card nobody holds."""


def strategy(observation):
    return 99
