"""Hostile: raises an error on every move."""


def strategy(observation):
    return observation.prize / 0
