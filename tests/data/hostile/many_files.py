"""Hostile: fills its folder with many 8 MB files (each under the file-size cap)."""


def strategy(observation):
    block = b"x" * (8 * 2**20)
    for number in range(200):  # 1.6 GB in all
        with open(f"part-{number}.bin", "wb") as handle:
            handle.write(block)
    return observation.prize
