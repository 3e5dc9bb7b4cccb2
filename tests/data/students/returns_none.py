"""Hostile (a beginner's slip): forgets to return."""


def strategy(observation):
    bid = observation.prize
