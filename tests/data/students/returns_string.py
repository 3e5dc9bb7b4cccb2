"""Hostile: returns text instead of a card."""


def strategy(observation):
    return "seven"
