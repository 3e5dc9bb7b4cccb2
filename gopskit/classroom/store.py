"""The classroom store: one object per page, every action one transaction.

:class:`ClassroomStore` is a thin facade over the functions of
:mod:`.rooms`, :mod:`.gameplay`, :mod:`.challenges`, :mod:`.reports` and
:mod:`.export`: it opens the database (creating and migrating it on first
use), reads the clock, and runs each action in one transaction.

Who may do what is decided by keys, never by names:

* the **teacher key** (from :meth:`~ClassroomStore.create_room`) runs the room;
* the **room code** lets a student join; joining gives a **player key**;
* a **seat key** (:meth:`~ClassroomStore.claim_seat`, with the player key)
  is the only thing a move is accepted with.

>>> store = ClassroomStore(":memory:")
>>> room = store.create_room("goofspiel", {"num_cards": 3}, seed=1)
>>> ann = store.join(room.code, "Ann")
>>> tables = store.pair_waiting(room.teacher_key, seed=2)   # Ann against the bot
>>> seat = store.claim_seat(ann.player_key)
>>> view = store.seat_view(seat.seat_key)
>>> view.my_turn, view.names
(True, ('Ann', 'Match-the-prize bot'))
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np

from ..errors import IllegalMoveError, OptionError
from ..games.base import as_move, seed_sequence, show
from . import challenges, export, gameplay, reports, rooms
from .db import Database, connect
from .errors import RoomError
from .migrations import migrate
from .tokens import hash_key

PlayerKey = str
#: Seconds within which a student's next heartbeat only reads (see :meth:`ClassroomStore.heartbeat`);
#: pages beat every two seconds and count as away after five at the least.
BEAT_WRITE_EVERY = 1.0


@dataclasses.dataclass(frozen=True)
class RoomKeys:
    code: str
    teacher_key: str


@dataclasses.dataclass(frozen=True)
class PlayerKeys:
    room: str
    name: str
    player_key: str


@dataclasses.dataclass(frozen=True)
class SeatKeys:
    table: str
    seat: int
    seat_key: str


@dataclasses.dataclass(frozen=True)
class Pulse:
    """The few numbers a page polls to know whether to redraw (cheap: no game is rebuilt)."""

    room_status: str
    room_version: int
    table: str | None
    table_status: str | None
    table_version: int
    seat_held: bool = True


class ClassroomStore:
    """See the module docstring. ``url``: a path, ``sqlite:///path`` or ``postgresql://...``."""

    def __init__(self, url: str | None = None, clock: Callable[[], float] = time.time, db: Database | None = None):
        self.db = db or connect(url)
        self.schema = migrate(self.db)
        self.clock = clock

    def _write(self, work):
        now = self.clock()
        return self.db.run(lambda tx: work(tx, now))

    def _read(self, work):
        now = self.clock()
        return self.db.run(lambda tx: work(tx, now), write=False)

    # -- the teacher -------------------------------------------------------
    def create_room(self, game: str = "goofspiel", options: dict | None = None, *, pairing: str = "random",
                    bot: str | None = None, timeout: float = 60.0, auto_pair: bool = True, rematch: bool = True,
                    seed=None) -> RoomKeys:
        """Open a room for ``game`` with ``options``; return its code (for the board) and the teacher key."""
        if not isinstance(game, str):
            raise OptionError(f"the game is named by text such as 'goofspiel', not {show(game)}")
        if options is not None and not isinstance(options, dict):
            raise OptionError(f"the options are a dict of option names and values, not {show(options)}")
        _check_seed(seed)
        settings = rooms.RoomSettings(pairing, bot, timeout, auto_pair, rematch)
        code, key = self._write(lambda tx, now: rooms.create_room(tx, game, options or {}, settings, now, seed))
        self._warm_bot(lambda tx: rooms.teacher_room(tx, key))
        return RoomKeys(code, key)

    def overview(self, teacher_key: str) -> reports.RoomOverview:
        return self._read(lambda tx, now: reports.overview(tx, teacher_key, now))

    def fingerprint(self, teacher_key: str) -> tuple:
        """Numbers that change whenever the teacher's dashboard would (cheap: no game is rebuilt)."""
        def work(tx, now):
            room = rooms.teacher_room(tx, teacher_key)
            tables = tx.one("SELECT COUNT(*) AS n, COALESCE(SUM(version), 0) AS v FROM game_tables WHERE room = ?",
                            (room["code"],))
            return room["status"], room["version"], int(tables["n"]), int(tables["v"])
        return self._read(work)

    def update_settings(self, teacher_key: str, **changes) -> rooms.RoomSettings:
        return self._write(lambda tx, now: rooms.update_settings(tx, teacher_key, changes))

    def pair_waiting(self, teacher_key: str, fill_with_bots: bool = True, seed=None) -> list[str]:
        """Seat every waiting student now (random tables; bots fill a short table). Returns the new tables."""
        _check_seed(seed)
        self._warm_bot(lambda tx: rooms.teacher_room(tx, teacher_key))

        def work(tx, now):
            room = rooms.teacher_room(tx, teacher_key, lock=True)
            return rooms.pair_waiting(tx, room, now, fill_with_bots, seed)
        return self._write(work)

    def start_round_robin(self, teacher_key: str, seed=None) -> int:
        """Plan a round robin of the students here now and start round 1; returns the number of rounds."""
        _check_seed(seed)
        self._warm_bot(lambda tx: rooms.teacher_room(tx, teacher_key))
        return self._write(lambda tx, now: rooms.start_round_robin(tx, teacher_key, now, seed))

    def end_room(self, teacher_key: str) -> int:
        """End the room: unfinished games stop; returns how many were stopped."""
        return self._write(lambda tx, now: rooms.end_room(tx, teacher_key, now))

    def keep_room(self, teacher_key: str) -> dict:
        """The teacher page's regular chores: bots stand in for absent students, auto-pairing, next round."""
        def snapshot(tx, now):
            room = rooms.teacher_room(tx, teacher_key)
            away_since = now - rooms.settings_of(room).timeout
            return [gameplay.away_snapshot(tx, t["id"], away_since) for t in _playing(tx, room)], None, away_since
        self._think_ahead(snapshot)
        self._warm_bot(lambda tx: rooms.teacher_room(tx, teacher_key))

        def work(tx, now):
            room = rooms.teacher_room(tx, teacher_key, lock=True)
            timeout = rooms.settings_of(room).timeout
            stood_in = sum(gameplay.stand_in_for_absent(tx, t["id"], now, timeout) for t in _playing(tx, room))
            return {"stand_ins": stood_in, **_schedule(tx, room, now)}
        return self._write(work)

    def close_idle_rooms(self, minutes: int | None = None) -> list[str]:
        """End every open room nobody has used for ``minutes`` (default: :data:`~.rooms.IDLE_ROOM_HOURS`);
        returns their codes. Opening a room does it with the default by itself."""
        if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1):
            raise RoomError(f"the minutes a room must have been unused are a whole number from 1, not {show(minutes)}")
        idle = rooms.IDLE_ROOM_HOURS * 3600 if minutes is None else minutes * 60
        return self._write(lambda tx, now: rooms.close_idle_rooms(tx, now, idle))

    def export(self, teacher_key: str) -> export.RoomExport:
        """Everything about the room: every game record, the seats, every move (see :mod:`.export`)."""
        return self._read(lambda tx, now: export.export_room(tx, teacher_key))

    # -- the students ------------------------------------------------------
    def join(self, code: str, name: str) -> PlayerKeys:
        """Join the room with this code under ``name``; keep the returned player key in the page."""
        player_id, key = self._write(lambda tx, now: rooms.join(tx, code, name, now))
        room = self._read(lambda tx, now: rooms.player_by_key(tx, key))
        self._warm_bot(lambda tx: gameplay.room_row(tx, room["room"]))
        return PlayerKeys(room["room"], room["name"], key)

    def heartbeat(self, player_key: str) -> None:
        """The page is alive (call every few seconds); takes back a seat a bot stood in for.

        A beat within :data:`BEAT_WRITE_EVERY` seconds of the last one, with
        no seat to take back, only reads: a page that beats a thousand times
        a second (a hostile client can make it) never holds the write lock
        the rest of the class needs.
        """
        def fresh(tx, now):
            player = rooms.player_by_key(tx, player_key)
            return 0 <= now - player["last_seen"] < BEAT_WRITE_EVERY and not rooms.stood_in(tx, player["id"])

        if not self._read(fresh):
            self._write(lambda tx, now: rooms.heartbeat(tx, player_key, now))

    def lobby(self, player_key: str) -> reports.Lobby:
        return self._read(lambda tx, now: reports.lobby(tx, player_key, now))

    def pulse(self, player_key: str, seat_key: str | None = None) -> Pulse:
        """Versions of the room and of the student's table: redraw when one changes.

        With ``seat_key``, ``seat_held`` says whether that key still holds its
        seat (False once another page of the same student claimed it).
        """
        def work(tx, now):
            player = rooms.player_by_key(tx, player_key)
            room = gameplay.room_row(tx, player["room"])
            seat = rooms.current_seat(tx, player["id"])
            held = seat_key is None or tx.one("SELECT seat FROM seats WHERE token_hash = ?",
                                              (hash_key(seat_key),)) is not None
            return Pulse(room["status"], room["version"], seat and seat["table_id"], seat and seat["status"],
                         seat["version"] if seat else -1, held)
        return self._read(work)

    def claim_seat(self, player_key: str, table: str | None = None) -> SeatKeys | None:
        """A fresh seat key for the student's current table (or ``table``); ``None`` if not seated."""
        if table is not None and not isinstance(table, str):
            raise RoomError(f"a table is named by its id (text), not {show(table)}")

        def work(tx, now):
            player = rooms.player_by_key(tx, player_key)
            table_id = table or (rooms.current_seat(tx, player["id"]) or {}).get("table_id")
            if table_id is None:
                return None
            return SeatKeys(table_id, *rooms.claim_seat(tx, player_key, table_id))
        return self._write(work)

    def seat_view(self, seat_key: str) -> gameplay.SeatView:
        """What this seat may see of its table now (see :class:`~.gameplay.SeatView`)."""
        return self._read(lambda tx, now: gameplay.seat_view(tx, seat_key))

    def submit(self, seat_key: str, move, ply: int | None = None) -> gameplay.SeatView:
        """Play ``move`` for this seat in ply ``ply`` (the one the page showed); returns the new view.

        Raises :class:`~gopskit.errors.IllegalMoveError` (or its subclass
        :class:`~.errors.StaleMoveError`) and changes nothing when the move
        is illegal, repeated, or for a ply that is over. ``ply`` is a whole
        number (or None); ``move`` a card number or card name.
        """
        if ply is not None and (isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or ply < 0):
            raise IllegalMoveError(f"the turn number (ply) is a whole number from 0, or None for the current turn; "
                                   f"not {show(ply)}: nothing was played")
        if as_move(move) is None:
            raise IllegalMoveError(f"{show(move)} is not a move: a move is a card number or a card name; nothing was played")
        ply = None if ply is None else int(ply)
        move = as_move(move)
        # refused clicks (again and again on a card, a turn that is over) are told so from a read: only
        # a move that can be played takes the write lock, which the whole class shares
        self._read(lambda tx, now: gameplay.check_submit(tx, seat_key, move, ply))

        def snapshot(tx, now):
            seat = gameplay.seat_by_key(tx, seat_key)
            snap = gameplay.table_snapshot(tx, seat["table_id"])
            stale = snap is not None and ply is not None and ply != snap.table["ply"]
            return [] if stale else [snap], {seat["seat"]: move}, None  # a stale move brings no bot moves
        self._think_ahead(snapshot)
        self._write(lambda tx, now: gameplay.submit(tx, seat_key, move, ply, now))
        return self.seat_view(seat_key)

    def think_for_bots(self, seat_key: str) -> None:
        """Let the bots at this seat's table work out their moves for the turn under way (see :func:`.gameplay.bots_due`).

        A student's page calls this once it has drawn a turn, so a slow bot
        thinks while the student does. Nothing is written and only time is
        at stake: whatever goes wrong here, the student's move finds again
        and reports.
        """
        def snapshot(tx, now):
            return gameplay.table_snapshot(tx, gameplay.seat_by_key(tx, seat_key)["table_id"])
        try:
            gameplay.bots_due(self._read(snapshot))
        except Exception:  # noqa: BLE001  (see the docstring)
            pass

    def _warm_bot(self, room_of) -> None:
        """Before a write that may seat new tables: :func:`.gameplay.warm_bot` for the room ``room_of(tx)`` reads.

        As with :meth:`_think_ahead`, a failure here only costs time.
        """
        try:
            gameplay.warm_bot(self._read(lambda tx, now: room_of(tx)))
        except Exception:  # noqa: BLE001  (the write that follows decides)
            pass

    def _think_ahead(self, snapshot) -> None:
        """Let bots work out their coming moves before the write transaction (see :func:`.gameplay.think_ahead`).

        ``snapshot(tx, now)`` reads ``(table snapshots, moves, away_since)``.
        Only time is at stake: whatever goes wrong here (a wrong key, an
        illegal move, a table that changed meanwhile) the transaction finds
        again and reports, or works out itself.
        """
        try:
            snaps, moves, away_since = self._read(snapshot)
            for snap in snaps:
                gameplay.think_ahead(snap, moves, away_since)
        except Exception:  # noqa: BLE001  (see the docstring: the write that follows decides)
            pass

    def keep_table(self, seat_key: str) -> bool:
        """Let the bot stand in for an absent student at this seat's table; True if it did."""
        def snapshot(tx, now):
            seat = gameplay.seat_by_key(tx, seat_key)
            away_since = now - rooms.settings_of(gameplay.room_row(tx, seat["room"])).timeout
            return [gameplay.away_snapshot(tx, seat["table_id"], away_since)], None, away_since
        self._think_ahead(snapshot)

        def work(tx, now):
            seat = gameplay.seat_by_key(tx, seat_key)
            room = gameplay.room_row(tx, seat["room"])
            return gameplay.stand_in_for_absent(tx, seat["table_id"], now, rooms.settings_of(room).timeout)
        return self._write(work)

    def keep_schedule(self, player_key: str) -> dict:
        """Public chores any page may do: auto-pair waiting students, start the next round.

        A read comes first, so the many pages that call this every second
        take the write lock only when there is something to do.
        """
        def needed(tx, now):
            room = gameplay.room_row(tx, rooms.player_by_key(tx, player_key)["room"])
            return rooms.schedule_due(tx, room, now)

        if not self._read(needed):
            return {"paired": 0, "next_round": False}
        self._warm_bot(lambda tx: gameplay.room_row(tx, rooms.player_by_key(tx, player_key)["room"]))

        def work(tx, now):
            room = gameplay.room_row(tx, rooms.player_by_key(tx, player_key)["room"], lock="update")
            return _schedule(tx, room, now)
        return self._write(work)

    def challenge(self, player_key: str, name: str) -> str:
        return self._write(lambda tx, now: challenges.challenge(tx, player_key, name, now))

    def answer_challenge(self, player_key: str, challenge_id: str, accept: bool, seed=None) -> str | None:
        if not isinstance(challenge_id, str):
            raise RoomError(f"a challenge is named by its id (text), not {show(challenge_id)}")
        if not isinstance(accept, bool):
            raise RoomError(f"answer a challenge with accept=True or accept=False, not {show(accept)}")
        _check_seed(seed)
        if accept:
            self._warm_bot(lambda tx: gameplay.room_row(tx, rooms.player_by_key(tx, player_key)["room"]))
        return self._write(lambda tx, now: challenges.answer(tx, player_key, challenge_id, accept, now, seed))

    def ask_rematch(self, seat_key: str, seed=None) -> str | None:
        """Ask for a rematch; returns the new table once every student at the table has asked."""
        _check_seed(seed)
        self._warm_bot(lambda tx: gameplay.room_row(tx, gameplay.seat_by_key(tx, seat_key)["room"]))

        def work(tx, now):
            return rooms.ask_rematch(tx, gameplay.seat_by_key(tx, seat_key), now, seed)
        return self._write(work)

    def leave(self, player_key: str) -> None:
        self._write(lambda tx, now: rooms.leave(tx, player_key))

    def close(self) -> None:
        self.db.close()


def _playing(tx, room: dict) -> list[dict]:
    return tx.all("SELECT id FROM game_tables WHERE room = ? AND status = ?", (room["code"], gameplay.PLAYING))


def _check_seed(seed) -> None:
    """A seed is None, a whole number 0 or more, or a list of them (else an OptionError that says so)."""
    seed_sequence(seed)


def _schedule(tx, room: dict, now: float) -> dict:
    if room["status"] != "open":
        return {"paired": 0, "next_round": False}
    paired = rooms.auto_pair(tx, room, now)
    started = rooms.next_round(tx, gameplay.room_row(tx, room["code"]), now)
    return {"paired": len(paired), "next_round": started}


__all__ = ["ClassroomStore", "PlayerKeys", "Pulse", "RoomError", "RoomKeys", "SeatKeys"]
