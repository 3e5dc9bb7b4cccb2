"""Hostile: prints its whole environment, hoping for the teacher's variables (the test reads the output)."""
import os


def strategy(observation):
    print("ENV", sorted(os.environ))
    return observation.prize if observation.prize in observation.hand else observation.hand[0]
