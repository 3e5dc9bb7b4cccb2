"""Hostile: keeps every block it allocates until memory runs out."""
blocks = []


def strategy(observation):
    while True:
        blocks.append(bytearray(64 * 2**20))
