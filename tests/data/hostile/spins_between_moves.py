"""Hostile: leaves a thread spinning after its move, stealing the processor from everyone else's moves."""
import threading

started = []


def _spin():
    while True:
        pass


def strategy(observation):
    if not started:
        started.append(threading.Thread(target=_spin, daemon=True))
        started[0].start()
    return observation.hand[0]
