"""Hostile: tries to read another entry's code (copycat.py) before bidding."""
import os


def strategy(observation):
    for path in ("../copycat.py", os.path.join(os.path.dirname(__file__), "..", "copycat.py")):
        with open(path) as handle:
            handle.read()
    return observation.prize
