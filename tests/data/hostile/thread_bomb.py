"""Hostile: starts threads that never end, as many as it can."""
import threading
import time


def _forever():
    while True:
        time.sleep(1)


def strategy(observation):
    for _ in range(100_000):
        threading.Thread(target=_forever, daemon=True).start()
    return observation.prize
