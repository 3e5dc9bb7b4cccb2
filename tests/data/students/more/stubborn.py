"""Hostile: swallows the time-limit alarm and keeps looping (the parent must kill it)."""
import time


def strategy(observation):
    while True:
        try:
            time.sleep(100)
        except BaseException:
            pass
