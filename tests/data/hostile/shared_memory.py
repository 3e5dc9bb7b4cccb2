"""Hostile: opens POSIX shared memory (_posixshmem.shm_open) to leave data outside its folder."""
import _posixshmem
import os

NAME = "/gopskit-hostile-shm"


def strategy(observation):
    fd = _posixshmem.shm_open(NAME, os.O_CREAT | os.O_RDWR, 0o600)
    os.write(fd, b"escaped")
    return observation.prize
