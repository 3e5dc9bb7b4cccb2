"""Classroom play: every student on their own laptop, one shared store.

Each Voila page runs in its own kernel, so the players of one game live in
different processes. They meet in a database (SQLite on one machine,
PostgreSQL on a school server): :class:`ClassroomStore` is the whole API.
The teacher's app (``notebooks/classroom-teacher.ipynb``) makes a room and
runs it; the students' app (``notebooks/classroom.ipynb``) joins it with the
code on the board. ``docs/classroom.md`` is the teacher's how-to.

>>> from gopskit.classroom import ClassroomStore
>>> store = ClassroomStore(":memory:")
>>> room = store.create_room("goofspiel", {"num_cards": 5})
>>> len(room.code)
6
"""

from __future__ import annotations

from .errors import AccessError, ClassroomError, RoomError, StaleMoveError, StoreError
from .export import RoomExport, load_export
from .store import ClassroomStore, PlayerKeys, Pulse, RoomKeys, SeatKeys

__all__ = ["AccessError", "ClassroomError", "ClassroomStore", "PlayerKeys", "Pulse", "RoomError", "RoomExport",
           "RoomKeys", "SeatKeys", "StaleMoveError", "StoreError", "load_export"]
