"""Hostile: runs /bin/sh through _posixsubprocess.fork_exec (no audit event) to write outside its folder."""
import _posixsubprocess
import os
import sys

MARKERS = ("/tmp/gopskit-hostile-marker-fork-exec", "/var/tmp/gopskit-hostile-marker-fork-exec")


def strategy(observation):
    script = "; ".join(f"echo escaped > {path}" for path in MARKERS)
    args = [b"/bin/sh", b"-c", script.encode()]
    read, write = os.pipe()
    pid = _posixsubprocess.fork_exec(
        args, [b"/bin/sh"], True, (), None, None, -1, -1, -1, -1, -1, -1, read, write,
        False, False, -1, None, None, None, -1, None, False)
    os.waitpid(pid, 0)
    return observation.prize
