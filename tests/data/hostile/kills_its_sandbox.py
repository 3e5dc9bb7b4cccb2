"""Hostile: kills its own process group (the sandbox) in the middle of a move."""
import os
import signal
import sys


def strategy(observation):
    frame = sys._getframe()
    while frame is not None:  # the fence refuses os.killpg; switch it off first
        fence = frame.f_locals.get("fence")
        if fence is not None and hasattr(fence, "Fence"):
            fence.Fence.__call__ = lambda self, event, args: None
        frame = frame.f_back
    os.killpg(0, signal.SIGKILL)
    return observation.prize
