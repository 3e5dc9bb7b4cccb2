"""Hostile: writes a file as big as it can in its own folder (file size and folder size are capped)."""


def strategy(observation):
    block = b"x" * 2**20
    with open("huge.bin", "wb") as handle:
        for _ in range(4096):  # 4 GB
            handle.write(block)
    return observation.prize
