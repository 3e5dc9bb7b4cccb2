"""Bid a random card.

The tournament seeds Python's random module for every game, so the whole
tournament still repeats exactly from its seed.
"""
import random


def strategy(observation):
    return random.choice(observation.hand)
