"""Hostile: lifts Python's recursion limit and recurses without end (the C stack or the memory must give)."""
import sys


def _down(depth):
    return _down(depth + 1) + 1


def strategy(observation):
    sys.setrecursionlimit(10**8)
    return _down(0)
