"""Hostile: rebuilds the random bot's bids from seeds (tournament seed 0, table seed from CRC32 of the names).

If it recognises its game it outbids the bot by one; otherwise it bids the prize.
The kit must give it nothing to recognise: tournament seeds are secret and a
student's seed is a one-way hash of the game's.
"""
import os
import sys
import zlib

import numpy as np

ME = os.path.splitext(os.path.basename(__file__))[0]


def _game_seeds(opponent, games=50, seed=0):
    label = zlib.crc32("\x00".join(sorted([ME, opponent])).encode("utf-8"))
    root = np.random.SeedSequence([seed, label])
    return [int(s.generate_state(2, np.uint32).view(np.uint64)[0] >> 1) for s in root.spawn(games)]


def _my_seed():
    frame = sys._getframe()
    while frame is not None:
        seed = frame.f_locals.get("seed")
        if isinstance(seed, int) and frame.f_code.co_name == "move":
            return seed
        frame = frame.f_back
    return None


def _bot_bid(game_seed, my_seat, observation):
    seat = 1 - my_seat
    streams = np.random.SeedSequence(game_seed).spawn(3)
    if int(streams[1 + my_seat].generate_state(1)[0]) != _my_seed():
        return None
    rng = np.random.default_rng(streams[1 + seat])
    hand = list(range(1, observation.num_cards + 1))
    bid = None
    for turn in list(observation.history) + [None]:
        bid = hand[int(rng.integers(len(hand)))]
        if turn is not None:
            hand.remove(turn.bids[seat])
    return bid


def strategy(observation):
    for game_seed in _game_seeds("random"):
        for seat in (0, 1):
            bid = _bot_bid(game_seed, seat, observation)
            if bid is not None and observation.player == seat:
                above = [c for c in observation.hand if c > bid]
                return min(above) if above and observation.prize >= 3 else min(observation.hand)
    return observation.prize if observation.prize in observation.hand else observation.hand[0]
