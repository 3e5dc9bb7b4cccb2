"""Errors of the classroom store: each says what was wrong and what to do.

All are :class:`~gopskit.errors.GopsError` subclasses, so a board's guard
shows them on the status line instead of a traceback.
"""

from __future__ import annotations

from ..errors import GopsError, IllegalMoveError


class ClassroomError(GopsError):
    """Base class of the classroom's errors."""


class RoomError(ClassroomError):
    """No such room, the room has ended, a name is taken, a setting is wrong."""


class AccessError(ClassroomError):
    """A key (room code, seat key, teacher key) does not match: the action is refused."""


class StaleMoveError(ClassroomError, IllegalMoveError):
    """A move arrived for a turn that is already over, or twice: nothing was changed."""


class StoreError(ClassroomError):
    """The store cannot be opened or used (bad URL, busy for too long, a newer schema)."""


__all__ = ["AccessError", "ClassroomError", "RoomError", "StaleMoveError", "StoreError"]
