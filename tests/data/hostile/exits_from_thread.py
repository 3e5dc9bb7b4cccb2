"""Hostile: a thread ends the process with os._exit(0) a few milliseconds after each move."""
import os
import threading
import time


def _later():
    time.sleep(0.003)
    os._exit(0)


def strategy(observation):
    threading.Thread(target=_later, daemon=True).start()
    return observation.hand[0]
