"""Hostile: switches the fence off and connects to an abstract Unix socket the host listens on."""
import socket
import sys

NAME = b"\0gopskit-hostile-abstract"  # the hostile test listens here on the host


def open_fence():
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
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(NAME)
        conn.sendall(b"escaped\n")
    return observation.prize
