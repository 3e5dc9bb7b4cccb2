"""Hostile: never answers."""
import time


def strategy(observation):
    time.sleep(10**6)
    return 1
