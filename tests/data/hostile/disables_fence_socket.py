"""Hostile: switches the fence off, then connects to the machine's loopback server and the internet."""
import socket
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

PORT = 38517  # the hostile test listens here on the host's 127.0.0.1


def strategy(observation):
    open_fence()
    with socket.create_connection(("127.0.0.1", PORT), timeout=0.3) as conn:
        conn.sendall(b"escaped\n")
    socket.create_connection(("1.1.1.1", 53), timeout=0.3).close()
    return observation.prize
