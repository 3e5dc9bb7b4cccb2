"""Hostile: asks for 8 GB of memory."""


def strategy(observation):
    block = bytearray(8 * 1024**3)
    return len(block)
