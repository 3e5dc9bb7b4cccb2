"""Hostile: cancels the alarm, patches time.perf_counter, and thinks for 2.5 s per move."""
import signal
import time


def strategy(observation):
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    start = time.monotonic()
    while time.monotonic() - start < 2.5:
        pass
    frozen = time.perf_counter()
    time.perf_counter = lambda: frozen
    return observation.hand[0]
