"""What the pages see of a room: the student's lobby, the teacher's overview, the leaderboard.

A student's :class:`Lobby` names the students and whether each is waiting,
playing or away; it never holds another table's cards or bids. The
teacher's :class:`RoomOverview` shows every table's turn and the scores *as
the players see them* (a variant with face-down trophies shows no score
until the end), so the teacher's screen can go on the projector.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

from .challenges import open_challenges
from .db import Tx
from .gameplay import PLAYING, events_so_far, room_row, seat_kind, seat_name, seats_of, still_to_move, table_state
from .rooms import current_seat, player_by_key, settings_of, teacher_room


@dataclasses.dataclass(frozen=True)
class Lobby:
    """A student's view of the room (see the module docstring)."""

    room: str
    game: str
    options: dict
    status: str
    pairing: str
    round: int
    rounds: int
    me: str
    players: tuple[dict, ...]
    challenges_to_me: tuple[dict, ...]
    my_challenges: tuple[dict, ...]
    table: str | None
    table_status: str | None
    version: int


@dataclasses.dataclass(frozen=True)
class RoomOverview:
    """The teacher's view: settings, students, every table, the leaderboard."""

    code: str
    game: str
    options: dict
    settings: dict
    status: str
    round: int
    rounds: int
    players: tuple[dict, ...]
    tables: tuple[dict, ...]
    leaderboard: tuple[dict, ...]
    version: int


def player_states(tx: Tx, code: str, now: float, timeout: float) -> list[dict]:
    """Every student of the room: name, ``state`` (waiting, playing, away, left) and games finished."""
    rows = tx.all(
        "SELECT p.id, p.name, p.status, p.last_seen, "
        "(SELECT t.number FROM seats s JOIN game_tables t ON t.id = s.table_id "
        " WHERE s.player = p.id AND t.status = ? ORDER BY t.number DESC LIMIT 1) AS table_number, "
        "(SELECT COUNT(*) FROM seats s JOIN game_tables t ON t.id = s.table_id "
        " WHERE s.player = p.id AND t.status = 'finished') AS games "
        "FROM players p WHERE p.room = ? ORDER BY p.joined_at, p.id", (PLAYING, code))
    out = []
    for r in rows:
        if r["status"] == "left":
            state = "left"
        elif r["last_seen"] < now - timeout:
            state = "away"
        else:
            state = "playing" if r["table_number"] is not None else "waiting"
        out.append({"name": r["name"], "state": state, "table": r["table_number"], "games": int(r["games"]),
                    "seen_ago": max(0.0, now - r["last_seen"])})
    return out


def lobby(tx: Tx, player_key: str, now: float) -> Lobby:
    me = player_by_key(tx, player_key)
    room = room_row(tx, me["room"])
    settings = settings_of(room)
    seat = current_seat(tx, me["id"])
    challenges = open_challenges(tx, me["id"])
    players = [{k: p[k] for k in ("name", "state", "games")} for p in player_states(tx, room["code"], now, settings.timeout)]
    return Lobby(
        room=room["code"], game=room["game"], options=json.loads(room["options"]), status=room["status"],
        pairing=settings.pairing, round=room["round"], rounds=_rounds(room), me=me["name"], players=tuple(players),
        challenges_to_me=tuple(challenges["to_me"]), my_challenges=tuple(challenges["by_me"]),
        table=seat["table_id"] if seat else None, table_status=seat["status"] if seat else None,
        version=room["version"],
    )


def overview(tx: Tx, teacher_key: str, now: float) -> RoomOverview:
    room = teacher_room(tx, teacher_key)
    settings = settings_of(room)
    tables = [table_summary(tx, t, room) for t in
              tx.all("SELECT * FROM game_tables WHERE room = ? ORDER BY number", (room["code"],))]
    return RoomOverview(
        code=room["code"], game=room["game"], options=json.loads(room["options"]),
        settings=dataclasses.asdict(settings), status=room["status"], round=room["round"], rounds=_rounds(room),
        players=tuple(player_states(tx, room["code"], now, settings.timeout)), tables=tuple(tables),
        leaderboard=tuple(leaderboard(tables)), version=room["version"],
    )


_DONE_TABLES: dict[tuple[str, int], dict] = {}  # summaries of finished tables never change: keep them
_DONE_LIMIT = 20_000


def table_summary(tx: Tx, table: dict, room: dict) -> dict:
    """One table for the teacher: who sits where, the turn, the scores the players can see."""
    key = (table["id"], table["version"])
    if key in _DONE_TABLES:
        return _DONE_TABLES[key]
    summary = _summary(tx, table, room)
    if table["status"] != PLAYING:
        if len(_DONE_TABLES) >= _DONE_LIMIT:
            _DONE_TABLES.clear()
        _DONE_TABLES[key] = summary
    return summary


def _summary(tx: Tx, table: dict, room: dict) -> dict:
    seats = seats_of(tx, table["id"])
    state = table_state(tx, table, room)
    moved = {r["seat"] for r in tx.all("SELECT seat FROM moves WHERE table_id = ? AND ply = ?",
                                       (table["id"], table["ply"]))}
    waiting = still_to_move(state, seats, moved) if table["status"] == PLAYING else []
    return {
        "id": table["id"], "number": table["number"], "round": table["round"], "origin": table["origin"],
        "status": table["status"], "names": [seat_name(s) for s in seats], "kinds": [seat_kind(s) for s in seats],
        "people": [s["player"] for s in seats], "turn": events_so_far(state), "ply": table["ply"],
        "scores": public_scores(state), "winners": list(state.winners()),
        "waiting_for": [seat_name(seats[p]) for p in waiting], "version": table["version"],
    }


def public_scores(state):
    """The scores every player at the table can see (``None`` while a variant hides them)."""
    if state.is_terminal():
        return list(state.scores())
    shown = getattr(state.observation(0), "scores", "absent")
    if shown is None:
        return None
    return list(state.scores())


def leaderboard(tables: list[dict]) -> list[dict]:
    """Students ranked by wins (a win shared by ``k`` players counts ``1/k`` to each), then points per game.

    Only finished games count; bots are left out. Equal records (the same
    wins and the same points per game, compared exactly) share a place, and
    the next record's place counts everyone above it: 1, 1, 3. Each row says
    in ``shares`` how many players shared each of its shared wins (sorted,
    without repeats), so a page can explain a fractional win.

    >>> t = {"status": "finished", "names": ["Ann", "bot (bot)"], "kinds": ["student", "bot"],
    ...      "people": ["a", None], "scores": [9, 6], "winners": [0]}
    >>> leaderboard([t])[0]["name"], leaderboard([t])[0]["wins"]
    ('Ann', 1.0)
    >>> draw = {"status": "finished", "names": ["Ann", "Bob"], "kinds": ["student", "student"],
    ...         "people": ["a", "b"], "scores": [3, 3], "winners": [0, 1]}
    >>> [(r["place"], r["name"], r["wins"], r["shares"]) for r in leaderboard([draw])]
    [(1, 'Ann', 0.5, [2]), (1, 'Bob', 0.5, [2])]
    """
    rows: dict[str, dict] = {}
    for table in tables:
        if table["status"] != "finished":
            continue
        for seat, (person, name) in enumerate(zip(table["people"], table["names"])):
            if person is None:
                continue
            row = rows.setdefault(person, {"name": name, "games": 0, "won": Fraction(0), "scored": Fraction(0),
                                           "shares": set()})
            row["games"] += 1
            row["scored"] += Fraction(table["scores"][seat])
            if seat in table["winners"]:
                row["won"] += Fraction(1, len(table["winners"]))
                if len(table["winners"]) > 1:
                    row["shares"].add(len(table["winners"]))
    records = {id(r): (r.pop("won"), r["scored"] / r["games"]) for r in rows.values()}  # exact: ties are ties
    ranked = sorted(rows.values(), key=lambda r: (-records[id(r)][0], -records[id(r)][1], r["name"]))
    for index, row in enumerate(ranked):
        wins, per_game = records[id(row)]
        before = ranked[index - 1] if index else None
        row["place"] = before["place"] if before and records[id(before)] == (wins, per_game) else index + 1
        row["wins"] = float(wins)
        row["points"] = float(row.pop("scored"))
        row["points_per_game"] = float(per_game)
        row["shares"] = sorted(row["shares"])
    return ranked


def _rounds(room: dict) -> int:
    return len(json.loads(room["schedule"])["rounds"]) if room["schedule"] else 0


__all__ = ["Lobby", "RoomOverview", "leaderboard", "lobby", "overview", "player_states", "public_scores"]
