"""Hostile: writes to stdout in a loop, forever."""


def strategy(observation):
    while True:
        print("look at me! " * 10)
