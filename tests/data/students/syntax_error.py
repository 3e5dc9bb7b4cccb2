"""Broken: a missing colon on line 4."""


def strategy(observation)
    return observation.prize
