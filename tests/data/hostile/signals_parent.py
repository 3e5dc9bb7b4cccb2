"""Hostile: signals its parent through a pidfd (os.pidfd_open + signal.pidfd_send_signal), then os.kill."""
import os
import signal
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
    parent = os.getppid()
    fd = os.pidfd_open(parent)
    signal.pidfd_send_signal(fd, signal.SIGTERM)
    os.kill(parent, signal.SIGKILL)
    return observation.prize
