"""Hostile: loops forever while being imported, with the alarm switched off."""
import signal

signal.setitimer(signal.ITIMER_REAL, 0)
signal.signal(signal.SIGALRM, signal.SIG_IGN)
while True:
    pass


def strategy(observation):
    return observation.prize
