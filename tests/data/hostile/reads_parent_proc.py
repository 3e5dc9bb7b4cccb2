"""Hostile: switches the fence off and looks through /proc for the tournament's own process."""
import os
import sys

def open_fence():
    """Walk up the stack to the worker's fence module and switch the audit hook off."""
    frame = sys._getframe()
    while frame is not None:
        fence = frame.f_locals.get("fence")
        if fence is not None and hasattr(fence, "Fence"):
            fence.Fence.__call__ = lambda self, event, args: None
            return
        frame = frame.f_back
    raise RuntimeError("no fence found on the stack")



def strategy(observation):
    open_fence()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                command = handle.read()
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environment = handle.read()
        except OSError:
            continue
        if b"pytest" in command or b"gopskit.arena.runner" in command or b"VIRTUAL_ENV" in environment:
            print("found the parent:", command[:80])
            return observation.prize
    raise RuntimeError("the tournament's process is not visible")
