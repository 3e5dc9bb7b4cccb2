"""Game tables in the store: moves checked by the engine, bots, stand-ins, seat views.

The store keeps, for each table, the rules (from its room), the deal's seed
and every move (one row per seat per *ply*: a ply is one joint move of the
engine, e.g. one Goofspiel turn, or one card in a trick game). The engine is
the authority: a state is rebuilt from the seed and the **complete** plies
only, and every move is checked against it inside the transaction that
stores it.

Why nobody sees a bid early: a seat's page gets a :class:`SeatView` built
from the complete plies, plus its *own* pending move; the SQL that reads
moves for a page never returns another seat's move of the ply in progress
(see :func:`complete_moves`). Only when the last move of a ply arrives is
the joint move applied, and then every page of the table sees it at once.

Bots are deterministic: the bot for seat ``s`` at ply ``k`` of a table
seeded ``x`` gets a generator seeded ``(x, s, k)``, so any process may make
its move and the result is the same.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import threading
from collections import defaultdict
from typing import Any

import numpy as np

from ..agents import make_agent
from ..agents.labels import bot_label
from ..errors import IllegalMoveError
from ..games import rules_class
from ..games.base import GameState, MatchState, Rules, show
from .db import Tx
from .errors import AccessError, RoomError, StaleMoveError
from .tokens import hash_key, shown_code

PLAYING, FINISHED, ENDED = "playing", "finished", "ended"
ACTORS = ("player", "bot", "stand-in")


def dumps(value) -> str:
    """Compact, sorted JSON (the store's text columns)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@functools.lru_cache(maxsize=64)
def rules_for(game: str, options_json: str) -> Rules:
    """The rules of a room (cached: every move of the room rebuilds with them)."""
    return rules_class(game).from_options(json.loads(options_json))


# ---------------------------------------------------------------- views ---
@dataclasses.dataclass(frozen=True)
class SeatView:
    """What one seat's page may know about its table right now.

    ``observation`` is the engine's ``observation(seat).to_dict()`` after the
    complete plies; ``my_move`` is this seat's own move in the ply under way
    (``None`` if it has not moved); ``waiting_for`` the seats still to move
    (a face-down card on the table is public, its value is not). ``state``
    is the engine state after the complete plies, for drawing the board in
    this page's kernel with this seat as the viewer; it holds no move of the
    ply under way.
    """

    table: str
    number: int
    round: int
    seat: int
    ply: int
    version: int
    status: str
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    observation: dict
    to_move: tuple[int, ...]
    waiting_for: tuple[int, ...]
    my_move: Any
    scores: tuple | None
    winners: tuple[int, ...]
    rematch: tuple[int, ...]
    state: GameState = dataclasses.field(repr=False, compare=False)

    @property
    def my_turn(self) -> bool:
        """True when this seat must move and has not."""
        return self.status == PLAYING and self.seat in self.waiting_for

    def public(self) -> dict:
        """Everything but the engine state, as plain data (what the page may be sent)."""
        data = dataclasses.asdict(dataclasses.replace(self, state=None))
        data.pop("state")
        return data


# ------------------------------------------------------------- reading ---
def table_row(tx: Tx, table_id: str, lock: bool = False) -> dict:
    sql = "SELECT * FROM game_tables WHERE id = ?"
    row = tx.locked(sql, (table_id,)) if lock else tx.one(sql, (table_id,))
    if row is None:
        raise RoomError("this game table no longer exists")
    return row


def room_row(tx: Tx, code: str, lock: str | None = None) -> dict:
    sql = "SELECT * FROM rooms WHERE code = ?"
    row = tx.locked(sql, (code,), share=lock == "share") if lock else tx.one(sql, (code,))
    if row is None:
        raise RoomError(f"there is no room {shown_code(code)}; check the code on the board")
    return row


def seat_by_key(tx: Tx, seat_key: str) -> dict:
    """The seat whose key this is (with its table's room), or :class:`AccessError`."""
    row = tx.one("SELECT s.*, t.room FROM seats s JOIN game_tables t ON t.id = s.table_id WHERE s.token_hash = ?",
                 (hash_key(seat_key),))
    if row is None:
        raise AccessError("this page's seat key matches no seat: it cannot play for anyone (rejoin the room)")
    return row


def seats_of(tx: Tx, table_id: str) -> list[dict]:
    """The seats of a table in order, with the students' names."""
    return tx.all("SELECT s.seat, s.player, s.bot, s.stand_in_since, s.rematch, p.name, p.last_seen "
                  "FROM seats s LEFT JOIN players p ON p.id = s.player WHERE s.table_id = ? ORDER BY s.seat",
                  (table_id,))


def complete_moves(tx: Tx, table: dict) -> list[dict[int, Any]]:
    """The joint moves of the complete plies (``ply < table.ply``), in order.

    The ``WHERE ply < ?`` is the fairness rule: the ply under way is never read here.
    """
    rows = tx.all("SELECT ply, seat, move FROM moves WHERE table_id = ? AND ply < ? ORDER BY ply, seat",
                  (table["id"], table["ply"]))
    joint: dict[int, dict[int, Any]] = defaultdict(dict)
    for row in rows:
        joint[row["ply"]][row["seat"]] = json.loads(row["move"])
    return [joint[k] for k in range(table["ply"])]


def pending_moves(tx: Tx, table: dict) -> dict[int, Any]:
    """Every move of the ply under way: for the store's own checks only, never for a page."""
    rows = tx.all("SELECT seat, move FROM moves WHERE table_id = ? AND ply = ?", (table["id"], table["ply"]))
    return {row["seat"]: json.loads(row["move"]) for row in rows}


def rebuild(rules: Rules, table: dict, joint_moves: list[dict[int, Any]]) -> GameState:
    """The engine state after ``joint_moves``, from the table's seed (the engine checks each)."""
    state = rules.new_game(int(table["seed"]))
    for joint in joint_moves:
        state.apply(joint)
    return state


def table_state(tx: Tx, table: dict, room: dict) -> GameState:
    return rebuild(rules_for(room["game"], room["options"]), table, complete_moves(tx, table))


def seat_view(tx: Tx, seat_key: str) -> SeatView:
    """The :class:`SeatView` of the seat whose key this is."""
    seat = seat_by_key(tx, seat_key)
    table = table_row(tx, seat["table_id"])
    room = room_row(tx, table["room"])
    state = table_state(tx, table, room)
    mine = tx.one("SELECT move FROM moves WHERE table_id = ? AND ply = ? AND seat = ?",
                  (table["id"], table["ply"], seat["seat"]))
    moved = tx.all("SELECT seat FROM moves WHERE table_id = ? AND ply = ?", (table["id"], table["ply"]))
    done = {row["seat"] for row in moved}
    seats = seats_of(tx, table["id"])
    over = state.is_terminal()
    return SeatView(
        table=table["id"], number=table["number"], round=table["round"], seat=seat["seat"], ply=table["ply"],
        version=table["version"], status=table["status"],
        names=tuple(seat_name(s) for s in seats), kinds=tuple(seat_kind(s) for s in seats),
        observation=state.observation(seat["seat"]).to_dict(), to_move=tuple(state.to_move()),
        waiting_for=tuple(still_to_move(state, seats, done)) if table["status"] == PLAYING else (),
        my_move=json.loads(mine["move"]) if mine else None,
        scores=tuple(state.scores()) if over else None, winners=tuple(state.winners()),
        rematch=tuple(s["seat"] for s in seats if s["rematch"]), state=state,
    )


def seat_name(seat: dict) -> str:
    return seat["name"] if seat["player"] else bot_label(seat["bot"])


def seat_kind(seat: dict) -> str:
    if not seat["player"]:
        return "bot"
    return "stand-in" if seat["stand_in_since"] is not None else "student"


# ------------------------------------------------------------- writing ---
def submit(tx: Tx, seat_key: str, move, ply: int | None, now: float) -> None:
    """Store one seat's move after checking it against the engine; then play on (see :func:`advance`)."""
    seat, room, table, state, canonical = check_submit(tx, seat_key, move, ply, lock=True)
    player = seat["seat"]
    if seat["stand_in_since"] is not None:  # the student is back: they take the seat over again
        tx.run("UPDATE seats SET stand_in_since = NULL WHERE table_id = ? AND seat = ?", (table["id"], player))
    _insert_move(tx, table, player, canonical, "player", now)
    advance(tx, table, room, state, now)


def check_submit(tx: Tx, seat_key: str, move, ply: int | None, lock: bool = False):
    """Every check of :func:`submit`, nothing written: ``(seat, room, table, state, move as the engine spells it)``.

    Raises what :func:`submit` would. Run in a read transaction first
    (``lock=False``), it turns a flood of clicks that cannot be played (a
    card clicked again and again, a turn that is over) away without taking
    the store's write lock, which every other page of the class needs.
    """
    seat = seat_by_key(tx, seat_key)
    room = room_row(tx, seat["room"], lock="share" if lock else None)
    table = table_row(tx, seat["table_id"], lock=lock)
    _check_open(room, table)
    if ply is not None and ply != table["ply"]:
        raise StaleMoveError(f"that move was for turn {ply + 1}, but the game has moved on to turn {table['ply'] + 1}; "
                             "nothing was played: choose again")
    state = table_state(tx, table, room)
    player = seat["seat"]
    pending = pending_moves(tx, table)
    if player in pending:
        raise StaleMoveError(f"you already played {pending[player]!r} this turn; wait for the others")
    if player not in state.to_move():
        raise IllegalMoveError(f"it is not your turn: waiting for {_seat_list(state.to_move())}")
    return seat, room, table, state, legal_move(state, player, move)


def legal_move(state: GameState, player: int, move):
    """``move`` as the engine spells it, if legal for ``player``; else :class:`IllegalMoveError`."""
    legal = state.legal_moves(player)
    for candidate in legal:
        if candidate == move and type(candidate) is type(move) or (
                isinstance(move, (int, np.integer)) and not isinstance(move, bool)
                and isinstance(candidate, int) and candidate == move):
            return candidate
    shown = show(move) if not isinstance(move, int) or abs(move) < 10**12 else "a number of more than 12 digits"
    raise IllegalMoveError(f"{shown} cannot be played now; playable: {', '.join(map(str, legal)) or 'nothing'}")


def advance(tx: Tx, table: dict, room: dict, state: GameState, now: float) -> None:
    """Apply every complete ply, letting bots and stand-ins move when their turn comes; save the table.

    Runs inside the transaction that stored a move (or replaced a player),
    so a ply's last move, the reveal and the bots' next moves commit together.
    The bots' moves were usually worked out before it began (see
    :func:`think_ahead`), so the transaction only looks them up.
    """
    seats = {s["seat"]: s for s in seats_of(tx, table["id"])}

    def store(ply, player, move):
        _insert_move(tx, {**table, "ply": ply}, player, move, actor_of(seats[player]), now)

    ply = _play_on(room, table, state, seats, table["ply"], pending_moves(tx, table), store)
    _save(tx, table, state, ply, now if ply != table["ply"] else table["ply_started"], now)


def _play_on(room: dict, table: dict, state: GameState, seats: dict, ply: int, pending: dict, store=None) -> int:
    """Let the automatic seats move and apply each complete ply, until a person must move or the game is over.

    ``store(ply, player, move)`` is told each bot move; returns the ply reached.
    """
    while not state.is_terminal():
        if still_to_move(state, seats, pending):
            break  # the bots move once the people have (see still_to_move)
        for player in state.to_move():
            if player not in pending:
                move = bot_move(room, table, state, player, ply, seats[player]["bot"])
                if store is not None:
                    store(ply, player, move)
                pending[player] = move
        state.apply({p: pending[p] for p in state.to_move()})
        ply, pending = ply + 1, {}
    return ply


def still_to_move(state: GameState, seats, moved) -> list[int]:
    """The seats a table is waiting for: its people who must move and have not.

    Bots and stand-ins move the moment the last person of the ply has
    (:func:`_play_on`), never before: nothing they see can change meanwhile
    (the ply's moves stay hidden until all are in), and a bot that thinks
    for a second (the equilibrium bot solving the rest of a 13-card hand)
    then does so while its opponent thinks (:func:`bots_due`), not between
    the opponent's last click and the reveal. ``seats`` is indexed by seat.
    """
    return [p for p in state.to_move() if p not in moved and not automatic(seats[p])]


@dataclasses.dataclass
class TableSnapshot:
    """What :func:`think_ahead` needs of a table, read in a short transaction of its own."""

    room: dict
    table: dict
    state: GameState
    seats: dict
    pending: dict


def table_snapshot(tx: Tx, table_id: str) -> TableSnapshot | None:
    """The table as it stands (None unless it is being played)."""
    table = table_row(tx, table_id)
    if table["status"] != PLAYING:
        return None
    room = room_row(tx, table["room"])
    seats = {s["seat"]: dict(s) for s in seats_of(tx, table_id)}
    return TableSnapshot(room, table, table_state(tx, table, room), seats, pending_moves(tx, table))


def away_snapshot(tx: Tx, table_id: str, away_since: float) -> TableSnapshot | None:
    """The table's snapshot if one of its students has not been seen since ``away_since`` (else None: no game read)."""
    if any(away(seat, away_since) for seat in seats_of(tx, table_id)):
        return table_snapshot(tx, table_id)
    return None


def away(seat: dict, since: float) -> bool:
    """True for a student's seat, not yet stood in for, whose page has not been seen since ``since``."""
    return bool(seat["player"]) and seat["stand_in_since"] is None and seat["last_seen"] < since


def think_ahead(snap: TableSnapshot | None, moves: dict | None = None, away_since: float | None = None) -> None:
    """Work out, outside any transaction, the bot moves that storing ``moves`` (seat -> move) would bring.

    The store's write transaction holds SQLite's one write lock (on
    PostgreSQL, the table's row), so a bot thinking inside it (the
    equilibrium bot solves the rest of a 13-card hand in about a second)
    would keep every other student of the room waiting. Run first, this
    fills :func:`bot_move`'s memo; the transaction then finds each move
    there. ``away_since``: seats not seen since then are stood in for, as
    :func:`stand_in_for_absent` would. Nothing is written, and a move that
    is not legal stops the look ahead: the transaction reports it.
    """
    if snap is None:
        return
    state, seats, pending = snap.state, snap.seats, dict(snap.pending)
    for player, move in (moves or {}).items():
        if player in pending or player not in state.to_move():
            return
        pending[player] = legal_move(state, player, move)
        seats[player]["stand_in_since"] = None
    if away_since is not None:
        for seat in seats.values():
            if away(seat, away_since) and seat["seat"] in state.to_move() and seat["seat"] not in pending:
                seat["stand_in_since"] = snap.table["ply"]
    _play_on(snap.room, snap.table, state, seats, snap.table["ply"], pending)


def bots_due(snap: TableSnapshot | None) -> None:
    """Work out, outside any transaction, the moves the table's bots will make in the ply under way.

    They move only once the people have (:func:`still_to_move`), but what
    they will play is fixed already; a page calls this once it has drawn
    the turn, so a slow bot thinks while the person does, and the move the
    person then sends finds the bots' answers in :func:`bot_move`'s memo.
    Nothing is written.
    """
    if snap is None:
        return
    for player in snap.state.to_move():
        if player not in snap.pending and automatic(snap.seats[player]):
            bot_move(snap.room, snap.table, snap.state, player, snap.table["ply"], snap.seats[player]["bot"])


def automatic(seat: dict) -> bool:
    """True for a bot seat, or a student's seat a bot stands in for."""
    return not seat["player"] or seat["stand_in_since"] is not None


def actor_of(seat: dict) -> str:
    return "bot" if not seat["player"] else "stand-in"


def bot_move(room: dict, table: dict, state: GameState, player: int, ply: int, bot: str):
    """The move bot ``bot`` makes for ``player`` at ``ply``: the same in every process.

    It depends only on the bot, the rules, the table's seed, the seat, the
    ply and what the seat sees, so the process keeps the last
    ``BOT_MOVES_KEPT`` of them (:func:`think_ahead` works them out before
    the store's write transaction asks).
    """
    key = (bot, room["game"], room["options"], int(table["seed"]), player, ply,
           dumps(state.observation(player).to_dict()))
    with _BOT_MOVES_LOCK:
        if key in _BOT_MOVES:
            return _BOT_MOVES[key]
    agent = make_agent(bot)
    rng = np.random.default_rng(np.random.SeedSequence([int(table["seed"]), player, ply]))
    agent.reset(state.rules, player, rng)
    if hasattr(agent, "think_ahead"):  # a student waits on it, and its next move's generator is known
        agent.think_ahead = True
        agent.next_rng = np.random.default_rng(np.random.SeedSequence([int(table["seed"]), player, ply + 1]))
    move = legal_move(state, player, agent.act(state.observation(player)))
    with _BOT_MOVES_LOCK:
        _BOT_MOVES[key] = move
        while len(_BOT_MOVES) > BOT_MOVES_KEPT:
            _BOT_MOVES.pop(next(iter(_BOT_MOVES)))
    return move


def warm_bot(room: dict) -> None:
    """Let the room's bot do, outside any transaction, what it does once per process.

    A bot's first move in a process can be slow for reasons that have
    nothing to do with the position: the CFR bot solves its hand (a few
    seconds at 4 cards), the equilibrium bot opens a solution or its
    opening book. A new table's bots move inside the transaction that
    seats it (:func:`.rooms.create_table`), so the store calls this first;
    it plays the first turn of a game once, aside, and remembers that it did.
    """
    bot = json.loads(room["settings"]).get("bot")
    key = (bot, room["game"], room["options"])
    with _BOT_MOVES_LOCK:
        if bot is None or key in _WARMED:
            return
        _WARMED.add(key)
    rules = rules_for(room["game"], room["options"])
    state = rules.new_game(0)
    for player in state.to_move():
        agent = make_agent(bot)
        agent.reset(rules, player, np.random.default_rng(0))
        agent.act(state.observation(player))


_WARMED: set = set()  # (bot, game, options) warm_bot has played a first turn of
BOT_MOVES_KEPT = 1024
_BOT_MOVES: dict = {}  # see bot_move; oldest first
_BOT_MOVES_LOCK = threading.Lock()


def stand_in_for_absent(tx: Tx, table_id: str, now: float, timeout: float) -> bool:
    """Let the room's bot stand in for students who must move and have not been seen for ``timeout`` s.

    Returns True if anything changed (then the bots have moved too).
    """
    table = table_row(tx, table_id, lock=True)
    if table["status"] != PLAYING:
        return False
    room = room_row(tx, table["room"])
    state = table_state(tx, table, room)
    pending = pending_moves(tx, table)
    changed = False
    for seat in seats_of(tx, table_id):
        if away(seat, now - timeout) and seat["seat"] in state.to_move() and seat["seat"] not in pending:
            tx.run("UPDATE seats SET stand_in_since = ? WHERE table_id = ? AND seat = ?",
                   (table["ply"], table_id, seat["seat"]))
            changed = True
    if changed:
        advance(tx, table, room, state, now)
    return changed


def reclaim_seats(tx: Tx, player_id: str) -> None:
    """A student who was away is back: take their unfinished seats back from the stand-in bot."""
    tx.run("UPDATE seats SET stand_in_since = NULL WHERE player = ? AND stand_in_since IS NOT NULL AND table_id IN "
           "(SELECT id FROM game_tables WHERE status = ?)", (player_id, PLAYING))


def _insert_move(tx: Tx, table: dict, player: int, move, actor: str, now: float) -> None:
    tx.run("INSERT INTO moves (table_id, ply, seat, move, actor, made_at) VALUES (?, ?, ?, ?, ?, ?)",
           (table["id"], table["ply"], player, dumps(move), actor, now))


def _save(tx: Tx, table: dict, state: GameState, ply: int, started: float, now: float) -> None:
    if state.is_terminal():
        tx.run("UPDATE game_tables SET ply = ?, ply_started = ?, version = version + 1, status = ?, scores = ?, "
               "winners = ?, record = ?, finished_at = ? WHERE id = ?",
               (ply, started, FINISHED, dumps(list(state.scores())), dumps(list(state.winners())),
                dumps(state.record()), now, table["id"]))
    else:
        tx.run("UPDATE game_tables SET ply = ?, ply_started = ?, version = version + 1 WHERE id = ?",
               (ply, started, table["id"]))


def _check_open(room: dict, table: dict) -> None:
    if room["status"] != "open":
        raise RoomError("the teacher has ended this room: no more moves are accepted")
    if table["status"] == ENDED:
        raise RoomError("this game was stopped by the teacher: no more moves are accepted")
    if table["status"] == FINISHED:
        raise StaleMoveError("this game is over: no more moves are accepted (ask for a rematch or wait for the next pairing)")


def _seat_list(seats) -> str:
    seats = list(seats)
    return ("player " if len(seats) == 1 else "players ") + ", ".join(str(s + 1) for s in seats) if seats else "nobody"


def events_so_far(state: GameState) -> int:
    """Decided events (turns, tricks) so far, through every hand of a match."""
    hands = state.hands if isinstance(state, MatchState) else [state]
    return sum(1 for hand in hands for e in getattr(hand, "events", []) if e is not None)


__all__ = ["ACTORS", "ENDED", "FINISHED", "PLAYING", "SeatView", "advance", "bot_move", "check_submit", "complete_moves",
           "legal_move", "rebuild", "rules_for", "seat_view", "stand_in_for_absent", "submit", "table_snapshot",
           "think_ahead", "warm_bot", "away", "away_snapshot", "bots_due", "still_to_move"]
