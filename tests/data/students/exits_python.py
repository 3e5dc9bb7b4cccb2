"""Hostile: stops its own Python process."""
import os


def strategy(observation):
    os._exit(1)
