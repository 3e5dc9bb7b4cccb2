"""Students challenge each other (a room whose pairing is ``"challenge"``, or any waiting pair).

A challenge is open until the other student accepts (both are seated at a
new table, in random seat order, bots filling any other seat) or declines;
it is cancelled when either of them sits down elsewhere or the room ends.
"""

from __future__ import annotations

import numpy as np

from ..games.base import show
from .db import Tx
from .errors import RoomError
from .gameplay import room_row, rules_for
from .names import name_key
from .rooms import create_table, player_by_key, waiting_players
from .tokens import new_id

OPEN, ACCEPTED, DECLINED, CANCELLED = "open", "accepted", "declined", "cancelled"
#: Text longer than this is nobody's name (names have at most 24 characters, a few more before normalising).
MAX_LOOKUP = 200


def check_challenge(tx: Tx, player_key: str, target_name: str, lock: bool = False) -> tuple:
    """Every check of :func:`challenge`, nothing written: ``(me, room, target, id of the same challenge if open)``.

    Raises what :func:`challenge` would. Run in a read transaction first
    (``lock=False``, as a page does), it answers a challenge sent again and
    again, or to nobody, without the write lock the whole class shares.
    """
    me = player_by_key(tx, player_key)
    room = room_row(tx, me["room"], lock="update" if lock else None)
    if room["status"] != "open":
        raise RoomError("the room has ended")
    target = None
    if isinstance(target_name, str) and len(target_name) <= MAX_LOOKUP:  # longer text is nobody's name
        target = tx.one("SELECT * FROM players WHERE room = ? AND name_key = ? AND status = 'active'",
                        (room["code"], name_key(target_name)))
    if target is None:
        raise RoomError(f"nobody called {show(target_name, 40)} is in this room: pick a name from the list")
    if target["id"] == me["id"]:
        raise RoomError("you cannot challenge yourself: pick someone from the list")
    free = {p["id"] for p in waiting_players(tx, room["code"])}
    if me["id"] not in free or target["id"] not in free:
        raise RoomError("a challenge needs both of you waiting in the lobby: finish your game first")
    again = tx.one("SELECT id FROM challenges WHERE challenger = ? AND target = ? AND status = ?",
                   (me["id"], target["id"], OPEN))
    if tx.one("SELECT id FROM challenges WHERE challenger = ? AND target = ? AND status = ?",
              (target["id"], me["id"], OPEN)):  # two open challenges between the same pair could both be accepted
        raise RoomError(f"{target['name']} has already challenged you: accept that challenge in your lobby")
    return me, room, target, again and again["id"]


def challenge(tx: Tx, player_key: str, target_name: str, now: float) -> str:
    """Challenge the student called ``target_name`` in the same room; return the challenge's id.

    A challenge to the same student that is still open is not made again: its id is returned.
    """
    me, room, target, again = check_challenge(tx, player_key, target_name, lock=True)
    if again:
        return again
    challenge_id = new_id()
    tx.run("INSERT INTO challenges (id, room, challenger, target, status, created_at) VALUES (?, ?, ?, ?, ?, ?)",
           (challenge_id, room["code"], me["id"], target["id"], OPEN, now))
    tx.run("UPDATE rooms SET version = version + 1 WHERE code = ?", (room["code"],))
    return challenge_id


def check_answer(tx: Tx, player_key: str, challenge_id: str, lock: bool = False) -> tuple:
    """Every check of :func:`answer` that needs no write: ``(me, room, challenge row)``.

    Raises what :func:`answer` would for a challenge not made to this
    student or no longer open, so a page's repeated answers are refused from
    a read (``lock=False``).
    """
    if not isinstance(challenge_id, str):
        raise RoomError(f"a challenge is named by its id (text), not {show(challenge_id)}")
    me = player_by_key(tx, player_key)
    room = room_row(tx, me["room"], lock="update" if lock else None)
    row = tx.one("SELECT * FROM challenges WHERE id = ? AND target = ?", (challenge_id, me["id"]))
    if row is None:
        raise RoomError("that challenge was not made to you")
    if row["status"] != OPEN:
        raise RoomError(f"that challenge is no longer open (it was {row['status']})")
    return me, room, row


def answer(tx: Tx, player_key: str, challenge_id: str, accept: bool, now: float, seed=None) -> str | None:
    """Accept (returns the new table's id) or decline (returns ``None``) a challenge made to you."""
    me, room, row = check_answer(tx, player_key, challenge_id, lock=True)
    if not accept:
        tx.run("UPDATE challenges SET status = ? WHERE id = ?", (DECLINED, challenge_id))
        tx.run("UPDATE rooms SET version = version + 1 WHERE code = ?", (room["code"],))
        return None
    free = {p["id"] for p in waiting_players(tx, room["code"])}
    if row["challenger"] not in free or me["id"] not in free:
        tx.run("UPDATE challenges SET status = ? WHERE id = ?", (CANCELLED, challenge_id))
        raise RoomError("the challenger is already playing someone else: this challenge can no longer be accepted")
    rng = np.random.default_rng(seed)
    size = rules_for(room["game"], room["options"]).num_players
    pair = [row["challenger"], me["id"]]
    seating = [pair[i] for i in rng.permutation(2)] + [None] * (size - 2)
    table_id = create_table(tx, room, seating, "challenge", room["round"], int(rng.integers(2**62)), now)
    tx.run("UPDATE challenges SET status = ?, table_id = ? WHERE id = ?", (ACCEPTED, table_id, challenge_id))
    tx.run("UPDATE challenges SET status = ? WHERE status = ? AND (challenger IN (?, ?) OR target IN (?, ?))",
           (CANCELLED, OPEN, *pair, *pair))
    tx.run("UPDATE rooms SET version = version + 1 WHERE code = ?", (room["code"],))
    return table_id


def open_challenges(tx: Tx, player_id: str) -> dict[str, list[dict]]:
    """The open challenges made to and by a student: ``{"to_me": [...], "by_me": [...]}`` with names."""
    to_me = tx.all("SELECT c.id, p.name FROM challenges c JOIN players p ON p.id = c.challenger "
                   "WHERE c.target = ? AND c.status = ? ORDER BY c.created_at", (player_id, OPEN))
    by_me = tx.all("SELECT c.id, p.name FROM challenges c JOIN players p ON p.id = c.target "
                   "WHERE c.challenger = ? AND c.status = ? ORDER BY c.created_at", (player_id, OPEN))
    return {"to_me": to_me, "by_me": by_me}


__all__ = ["answer", "challenge", "check_answer", "check_challenge", "open_challenges"]
