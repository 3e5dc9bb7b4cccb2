"""Hostile: imports the kit to build the bots and the engine inside its sandbox."""


def strategy(observation):
    import gopskit.agents  # noqa: F401 - the import itself is the attack

    return observation.prize
