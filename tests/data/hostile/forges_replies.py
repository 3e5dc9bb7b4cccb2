"""Hostile: finds the worker's protocol pipe and writes made-up answers and a fake end of batch."""
import os
import sys


def strategy(observation):
    frame = sys._getframe()
    while frame is not None:
        channel = frame.f_locals.get("channel")
        if channel is not None and hasattr(channel, "fd_out"):
            os.write(channel.fd_out, b"1\n1\n1\n1\nd{}\n" * 50)
            break
        frame = frame.f_back
    return observation.prize
