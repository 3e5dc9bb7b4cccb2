"""Broken: takes two inputs."""


def strategy(observation, opponent):
    return observation.prize
