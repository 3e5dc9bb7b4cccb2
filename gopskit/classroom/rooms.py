"""Rooms, students and who plays whom: every function runs inside one store transaction.

A **room** is made by the teacher (:func:`create_room`) for one game and its
options; its code goes on the board. A store keeps at most
:data:`MAX_OPEN_ROOMS` rooms open at once; opening one first closes the rooms
nobody has used for :data:`IDLE_ROOM_HOURS` hours (:func:`close_idle_rooms`). Students :func:`join` with a name and
the code and wait in the lobby until they are seated at a **table**:

* ``random``: waiting students are shuffled into tables (the teacher's
  button, or at once when ``auto_pair`` is on and a table can be filled);
* ``round-robin``: the teacher starts a schedule (:mod:`.pairing`) and each
  round begins when every table of the room has finished;
* ``challenge``: a student challenges another, who accepts or declines.

Seats a student cannot fill go to the room's bot. A student's page holds a
*player key*; when they are seated it claims a *seat key* for that table
(:func:`claim_seat`), the only thing a move is accepted with. Claiming again
(a reloaded page) replaces the seat key, so an old page loses the seat.
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata

import numpy as np

from ..agents import agent_class, agent_names
from ..errors import OptionError
from ..games import available_games, rules_class
from ..spreadsheet import FORMULA_STARTS  # a name may not start like a formula (the export's bids.csv holds names)
from .db import Tx
from .errors import AccessError, RoomError
from .gameplay import PLAYING, advance, dumps, reclaim_seats, room_row, rules_for, table_state
from .names import MAX_MARKS, mixed_script, name_key, normal_name, stacked_marks
from .pairing import PAIRINGS, random_tables, round_robin
from .tokens import code_forms, hash_key, new_id, new_key, new_room_code, shown_code

MAX_NAME = 24
#: Students one room takes. Each joining page adds a row that every lobby and the teacher's page
#: list; without a cap a script reloading the student page could add thousands.
MAX_PLAYERS = 300
#: Rooms one store keeps open at once: far more than the teachers of a school open in a day. Each teacher's
#: page opens one; without a bound a script reloading that page would add rooms for ever.
MAX_OPEN_ROOMS = 200
#: An open room with no activity for this long (no student seen, no turn begun) is closed when a room is opened.
IDLE_ROOM_HOURS = 12
ROOMS_LOCK_KEY = 7_242_002  # any constant: "opening a room" (PostgreSQL advisory lock: one at a time)
AUTO_PAIR_REST = 15.0  # seconds after a game before auto-pairing seats a student again (a rematch fits in)
PREFERRED_BOTS = ("match-prize", "gops3-proportional", "throps-greedy", "gooseberry-middler", "dc-greedy",
                  "raj-proportional", "random")


@dataclasses.dataclass(frozen=True)
class RoomSettings:
    """How a room runs; the teacher may change these while it is open.

    ``pairing``: ``"random"``, ``"round-robin"`` or ``"challenge"``;
    ``bot``: the bot that fills empty seats and stands in for absent students
    (``None``: the first kit bot that plays the game); ``timeout``: seconds a
    student may be away, when it is their move, before the bot stands in;
    ``auto_pair``: seat waiting students as soon as a table can be filled;
    ``rematch``: may a finished table ask for a rematch.
    """

    pairing: str = "random"
    bot: str | None = None
    timeout: float = 60.0
    auto_pair: bool = True
    rematch: bool = True

    def checked(self, rules) -> "RoomSettings":
        """These settings with the bot filled in; :class:`OptionError` if one is wrong."""
        if self.pairing not in PAIRINGS:
            raise OptionError(f"unknown pairing {self.pairing!r}; allowed: {', '.join(PAIRINGS)}")
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) or not 5 <= self.timeout <= 3600:
            raise OptionError(f"the timeout is a number of seconds from 5 to 3600, not {self.timeout!r}")
        bot = self.bot or next(b for b in PREFERRED_BOTS if b in agent_names(rules))
        if not agent_class(bot)().supports(rules):
            raise OptionError(f"the bot {bot!r} cannot play {rules.name}; bots that can: {', '.join(agent_names(rules))}")
        return dataclasses.replace(self, bot=bot, timeout=float(self.timeout),
                                   auto_pair=bool(self.auto_pair), rematch=bool(self.rematch))


def settings_of(room: dict) -> RoomSettings:
    return RoomSettings(**json.loads(room["settings"]))


# ---------------------------------------------------------------- rooms ---
def create_room(tx: Tx, game: str, options: dict, settings: RoomSettings, now: float, code_seed=None) -> tuple[str, str]:
    """Make a room; return ``(code, teacher_key)``."""
    if game not in available_games():
        raise OptionError(f"unknown game {game!r}; the kit plays: {', '.join(available_games())}")
    try:
        rules = rules_class(game).from_options(options or {})
    except TypeError as exc:
        raise OptionError(f"bad options for {game}: {exc}") from None
    settings = settings.checked(rules)
    _make_room_for_one_more(tx, now)
    rng = np.random.default_rng(code_seed)
    for _attempt in range(50):
        code = new_room_code(None if code_seed is None else int(rng.integers(2**31)))
        if tx.one("SELECT code FROM rooms WHERE code = ?", (code,)) is None:
            break
    else:
        raise RoomError("could not find a free room code; try again")
    teacher_key = new_key()
    tx.run("INSERT INTO rooms (code, teacher_hash, game, options, settings, status, created_at) "
           "VALUES (?, ?, ?, ?, ?, 'open', ?)",
           (code, hash_key(teacher_key), game, dumps(rules.options()), dumps(dataclasses.asdict(settings)), now))
    return code, teacher_key


def _make_room_for_one_more(tx: Tx, now: float) -> None:
    """Close the idle rooms; refuse (:class:`RoomError`) when :data:`MAX_OPEN_ROOMS` are still open.

    Rooms are opened one at a time (SQLite's write lock; an advisory lock on
    PostgreSQL), so two teachers at once cannot both take the last place.
    """
    if tx.dialect == "postgresql":
        tx.one("SELECT pg_advisory_xact_lock(?) AS locked", (ROOMS_LOCK_KEY,))
    close_idle_rooms(tx, now)
    count = int(tx.one("SELECT COUNT(*) AS n FROM rooms WHERE status = 'open'")["n"])
    if count >= MAX_OPEN_ROOMS:
        raise RoomError(f"the classroom store already has {count} open rooms, the most it keeps at once; nothing was "
                        "opened. End the rooms that are over (“End room” on their teacher's page, gopskit classroom "
                        "end KEY, or gopskit classroom close-idle --minutes 30 for every room unused for half an hour), "
                        f"then try again; a room nobody has used for {IDLE_ROOM_HOURS} hours closes by itself")


def close_idle_rooms(tx: Tx, now: float, idle_seconds: float = IDLE_ROOM_HOURS * 3600) -> list[str]:
    """End every open room with no activity for ``idle_seconds``: made before then, no student seen since, no
    turn begun or game finished since. Returns their codes."""
    since = now - idle_seconds
    idle = tx.all("SELECT code FROM rooms r WHERE status = 'open' AND created_at < ? "
                  "AND NOT EXISTS (SELECT 1 FROM players p WHERE p.room = r.code AND p.last_seen >= ?) "
                  "AND NOT EXISTS (SELECT 1 FROM game_tables t WHERE t.room = r.code "
                  "AND (t.ply_started >= ? OR t.finished_at >= ?)) ORDER BY code", (since, since, since, since))
    for row in idle:
        _close_room(tx, row["code"], now)
    return [row["code"] for row in idle]


def teacher_room(tx: Tx, teacher_key: str, lock: bool = False) -> dict:
    """The room this teacher key opens, or :class:`AccessError`."""
    sql = "SELECT * FROM rooms WHERE teacher_hash = ?"
    row = tx.locked(sql, (hash_key(teacher_key),)) if lock else tx.one(sql, (hash_key(teacher_key),))
    if row is None:
        raise AccessError("this teacher key opens no room: only the page that made the room (or its key) may run it")
    return row


def update_settings(tx: Tx, teacher_key: str, changes: dict) -> RoomSettings:
    room = teacher_room(tx, teacher_key, lock=True)
    unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(RoomSettings)})
    if unknown:
        raise OptionError(f"unknown room {'setting' if len(unknown) == 1 else 'settings'}: {', '.join(unknown)}; allowed: pairing, bot, timeout, auto_pair, rematch")
    settings = dataclasses.replace(settings_of(room), **changes).checked(rules_for(room["game"], room["options"]))
    tx.run("UPDATE rooms SET settings = ?, version = version + 1 WHERE code = ?",
           (dumps(dataclasses.asdict(settings)), room["code"]))
    return settings


def end_room(tx: Tx, teacher_key: str, now: float) -> int:
    """Close the room: unfinished tables stop where they are. Returns how many were stopped."""
    room = teacher_room(tx, teacher_key, lock=True)
    if room["status"] != "open":
        return 0
    return _close_room(tx, room["code"], now)


def _close_room(tx: Tx, code: str, now: float) -> int:
    stopped = tx.run("UPDATE game_tables SET status = 'ended', finished_at = ?, version = version + 1 "
                     "WHERE room = ? AND status = ?", (now, code, PLAYING))
    tx.run("UPDATE challenges SET status = 'cancelled' WHERE room = ? AND status = 'open'", (code,))
    tx.run("UPDATE rooms SET status = 'ended', ended_at = ?, version = version + 1 WHERE code = ?", (now, code))
    return stopped


# ------------------------------------------------------------- students ---
def clean_name(name) -> str:
    """A student's name as shown: NFKC-normalised, trimmed, 1 to 24 printable characters, one alphabet a word.

    Characters that draw nothing are dropped (see :mod:`.names`: with one,
    a second "Ann" would look just like the first). Refused: a letter under
    more than three combining marks (drawn over the lines around it) and a
    first character ``= + - @`` (a spreadsheet opening the export would run
    the name as a formula).

    >>> clean_name("  Ada  Lovelace ")
    'Ada Lovelace'
    """
    if not isinstance(name, str):
        raise RoomError("your name is text, like Ada")
    text = normal_name(name)
    if not 1 <= len(text) <= MAX_NAME or any(unicodedata.category(c)[0] == "C" for c in text):
        raise RoomError(f"a name has 1 to {MAX_NAME} letters, digits or spaces; {_short(name)} does not fit")
    if stacked_marks(text):
        raise RoomError(f"{_short(text)} stacks more than {MAX_MARKS} accents or marks on one letter: "
                        "type your name as it is written, one accent or two a letter")
    if text.startswith(FORMULA_STARTS):
        raise RoomError(f"a name cannot start with {text[0]!r} (a spreadsheet would read {_short(text)} as a "
                        f"formula): start it with a letter or a digit")
    mixed = mixed_script(text)
    if mixed:
        raise RoomError(f"{text!r} mixes Latin letters with {mixed[1]} ones (the {mixed[0]!r} is {mixed[1]}): "
                        "type each word of your name in one alphabet")
    return text


def _short(name: str) -> str:
    text = repr(name)
    return text if len(text) <= 40 else text[:37] + "..."


def join(tx: Tx, code: str, name: str, now: float) -> tuple[str, str]:
    """Add a student to the room with this code; return ``(player_id, player_key)``.

    Names are compared by :func:`~gopskit.classroom.names.name_key`, so a name
    that only looks like one already in the room (another case, full-width
    letters, a Cyrillic or Greek look-alike letter) counts as taken.
    """
    forms = code_forms(code)  # a room opened before the look-alikes left the alphabet: its code as typed first
    if len(forms) > 1:  # none there: "there is no room" names the code as typed
        forms = [next((form for form in forms if tx.one("SELECT code FROM rooms WHERE code = ?", (form,))), forms[0])]
    room = room_row(tx, forms[0], lock="update")
    if room["status"] != "open":
        raise RoomError(f"room {shown_code(room['code'])} has ended; ask your teacher for the new code")
    shown = clean_name(name)
    key = name_key(shown)
    count = int(tx.one("SELECT COUNT(*) AS n FROM players WHERE room = ?", (room["code"],))["n"])
    if count >= MAX_PLAYERS:
        raise RoomError(f"room {shown_code(room['code'])} is full: it has {count} students, the most one room takes; "
                        "ask your teacher to open another room")
    taken = tx.one("SELECT name FROM players WHERE room = ? AND name_key = ?", (room["code"], key))
    if taken:
        alike = "" if taken["name"] == shown else f" (it looks just like {taken['name']!r}, who is already here)"
        raise RoomError(f"the name {shown!r} is taken in room {shown_code(room['code'])}{alike}: add an initial "
                        "(if it is you, reload your own page: it keeps your seat)")
    player_id, player_key = new_id(), new_key()
    tx.run("INSERT INTO players (id, room, name, name_key, token_hash, joined_at, last_seen, status) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, 'active')", (player_id, room["code"], shown, key, hash_key(player_key), now, now))
    tx.run("UPDATE rooms SET version = version + 1 WHERE code = ?", (room["code"],))
    return player_id, player_key


def player_by_key(tx: Tx, player_key: str) -> dict:
    row = tx.one("SELECT * FROM players WHERE token_hash = ?", (hash_key(player_key),))
    if row is None:
        raise AccessError("this page's key matches no student: join the room with its code")
    return row


def heartbeat(tx: Tx, player_key: str, now: float) -> dict:
    """The student's page is alive: note the time, and take back any seat a bot stood in for."""
    player = player_by_key(tx, player_key)
    tx.run("UPDATE players SET last_seen = ? WHERE id = ?", (now, player["id"]))
    reclaim_seats(tx, player["id"])
    return player


def stood_in(tx: Tx, player_id: str) -> bool:
    """Whether a bot stands in for this student at an unfinished table (a heartbeat then takes the seat back)."""
    return tx.one("SELECT s.table_id FROM seats s JOIN game_tables t ON t.id = s.table_id WHERE s.player = ? "
                  "AND s.stand_in_since IS NOT NULL AND t.status = ? LIMIT 1", (player_id, PLAYING)) is not None


def leave(tx: Tx, player_key: str) -> None:
    """The student leaves the room: they are paired no more, and bots stand in at once."""
    player = player_by_key(tx, player_key)
    tx.run("UPDATE players SET status = 'left', last_seen = 0 WHERE id = ?", (player["id"],))
    tx.run("UPDATE rooms SET version = version + 1 WHERE code = ?", (player["room"],))


def current_seat(tx: Tx, player_id: str) -> dict | None:
    """The student's latest table (playing, else the last finished), or ``None``."""
    return tx.one("SELECT s.table_id, s.seat, t.status, t.version, t.number FROM seats s "
                  "JOIN game_tables t ON t.id = s.table_id WHERE s.player = ? "
                  "ORDER BY CASE WHEN t.status = ? THEN 0 ELSE 1 END, t.created_at DESC, t.number DESC LIMIT 1",
                  (player_id, PLAYING))


def claim_seat(tx: Tx, player_key: str, table_id: str) -> tuple[int, str]:
    """Give this student's page a fresh key for its seat at ``table_id``; return ``(seat, seat_key)``."""
    player = player_by_key(tx, player_key)
    seat = tx.one("SELECT seat FROM seats WHERE table_id = ? AND player = ?", (table_id, player["id"]))
    if seat is None:
        raise AccessError("you have no seat at that table: a page can only play its own student's seat")
    seat_key = new_key()
    tx.run("UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ?", (hash_key(seat_key), table_id, seat["seat"]))
    return seat["seat"], seat_key


def waiting_players(tx: Tx, code: str, present_since: float | None = None, rested_since: float | None = None) -> list[dict]:
    """Active students of the room with no unfinished table.

    ``present_since``: only those seen since then; ``rested_since``: only
    those whose last game ended before then (time to read the result, or ask
    for a rematch, before auto-pairing seats them again).
    """
    rows = tx.all("SELECT p.id, p.name, p.last_seen, (SELECT MAX(t.finished_at) FROM seats s JOIN game_tables t "
                  "ON t.id = s.table_id WHERE s.player = p.id) AS last_game FROM players p "
                  "WHERE p.room = ? AND p.status = 'active' AND NOT EXISTS (SELECT 1 FROM seats s "
                  "JOIN game_tables t ON t.id = s.table_id WHERE s.player = p.id AND t.status = ?) "
                  "ORDER BY p.joined_at, p.id", (code, PLAYING))
    return [r for r in rows if (present_since is None or r["last_seen"] >= present_since)
            and (rested_since is None or r["last_game"] is None or r["last_game"] <= rested_since)]


# --------------------------------------------------------------- tables ---
def create_table(tx: Tx, room: dict, seating: list, origin: str, round_number: int, seed: int, now: float) -> str:
    """Seat ``seating`` (player ids, ``None`` for the room's bot) at a new table; a bot that leads alone moves at once."""
    if room["status"] != "open":
        raise RoomError("the room has ended: no new games")
    number = int(tx.one("SELECT COALESCE(MAX(number), 0) AS n FROM game_tables WHERE room = ?", (room["code"],))["n"]) + 1
    table_id = new_id()
    tx.run("INSERT INTO game_tables (id, room, number, round, origin, seed, status, ply, ply_started, created_at) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
           (table_id, room["code"], number, round_number, origin, int(seed), PLAYING, now, now))
    bot = settings_of(room).bot
    for seat, player in enumerate(seating):
        tx.run("INSERT INTO seats (table_id, seat, player, bot) VALUES (?, ?, ?, ?)", (table_id, seat, player, bot))
    _cancel_challenges(tx, room, [p for p in seating if p])
    table = tx.one("SELECT * FROM game_tables WHERE id = ?", (table_id,))
    advance(tx, table, room, table_state(tx, table, room), now)
    return table_id


def _cancel_challenges(tx: Tx, room: dict, players: list) -> None:
    """The open challenges made to or by students who just sat down at a table are cancelled."""
    if not players:
        return
    marks = ", ".join("?" * len(players))
    if tx.run(f"UPDATE challenges SET status = 'cancelled' WHERE room = ? AND status = 'open' AND "
              f"(challenger IN ({marks}) OR target IN ({marks}))", (room["code"], *players, *players)):
        tx.run("UPDATE rooms SET version = version + 1 WHERE code = ?", (room["code"],))


def seat_tables(tx: Tx, room: dict, tables: list, origin: str, round_number: int, rng, now: float) -> list[str]:
    return [create_table(tx, room, seating, origin, round_number, int(rng.integers(2**62)), now) for seating in tables]


def pair_waiting(tx: Tx, room: dict, now: float, fill_with_bots: bool, seed=None, rest: float = 0.0) -> list[str]:
    """Shuffle the waiting, present students into tables; a short last table gets bots (or waits).

    ``rest``: leave out students whose last game ended less than this many seconds ago.
    """
    settings = settings_of(room)
    size = rules_for(room["game"], room["options"]).num_players
    waiting = [p["id"] for p in waiting_players(tx, room["code"], now - settings.timeout, now - rest)]
    rng = np.random.default_rng(seed)
    tables = random_tables(waiting, size, rng)
    if not fill_with_bots:
        tables = [t for t in tables if None not in t]
    created = seat_tables(tx, room, tables, "random", room["round"], rng, now)
    if created:
        tx.run("UPDATE rooms SET version = version + 1 WHERE code = ?", (room["code"],))
    return created


def start_round_robin(tx: Tx, teacher_key: str, now: float, seed=None) -> int:
    """Plan a round robin of the present students; start round 1 now if no table is playing. Returns the rounds."""
    room = teacher_room(tx, teacher_key, lock=True)
    settings = settings_of(room)
    size = rules_for(room["game"], room["options"]).num_players
    players = [p["id"] for p in tx.all("SELECT id FROM players WHERE room = ? AND status = 'active' AND last_seen >= ? "
                                       "ORDER BY joined_at, id", (room["code"], now - settings.timeout))]
    order = [players[i] for i in np.random.default_rng(seed).permutation(len(players))]
    schedule = round_robin(order, size)
    if not schedule:
        raise RoomError("nobody is in the room yet: wait until the students have joined")
    tx.run("UPDATE rooms SET schedule = ?, round = 0, settings = ?, version = version + 1 WHERE code = ?",
           (dumps({"rounds": schedule, "seed": int(np.random.default_rng(seed).integers(2**62))}),
            dumps(dataclasses.asdict(dataclasses.replace(settings, pairing="round-robin"))), room["code"]))
    next_round(tx, room_row(tx, room["code"]), now)
    return len(schedule)


def next_round(tx: Tx, room: dict, now: float) -> bool:
    """Start the next round of the room's round robin if every table has finished; True if one began."""
    if not room["schedule"] or room["status"] != "open":
        return False
    plan = json.loads(room["schedule"])
    if room["round"] >= len(plan["rounds"]):
        return False
    if tx.one("SELECT id FROM game_tables WHERE room = ? AND status = ? LIMIT 1", (room["code"], PLAYING)):
        return False
    rng = np.random.default_rng([plan["seed"], room["round"]])
    seat_tables(tx, room, plan["rounds"][room["round"]], "round-robin", room["round"] + 1, rng, now)
    tx.run("UPDATE rooms SET round = round + 1, version = version + 1 WHERE code = ?", (room["code"],))
    return True


def _rematch_checks(tx: Tx, seat: dict, lock: bool) -> tuple[dict, dict]:
    """The refusals of :func:`ask_rematch` (rematches off, a game still on); returns ``(room, table)``."""
    room = room_row(tx, seat["room"], lock="update" if lock else None)
    settings = settings_of(room)
    if not settings.rematch or settings.pairing == "round-robin":
        raise RoomError("rematches are off in this room: wait for the next pairing")
    table = tx.one("SELECT * FROM game_tables WHERE id = ?", (seat["table_id"],))
    if table["status"] == PLAYING:
        raise RoomError("the game is still on: a rematch comes after it")
    return room, table


def _rematch_seating(tx: Tx, room: dict, table: dict) -> list | None:
    """The new table's seating once every student of ``table`` asked and all are free; else ``None``."""
    seats = tx.all("SELECT seat, player, rematch FROM seats WHERE table_id = ? ORDER BY seat", (table["id"],))
    people = [s for s in seats if s["player"]]
    if not all(s["rematch"] for s in people):
        return None
    free = {p["id"] for p in waiting_players(tx, room["code"])}
    if any(s["player"] not in free for s in people):
        return None
    seating = [s["player"] for s in seats]
    return seating[1:] + seating[:1]  # the next game starts with the next seat first


def rematch_due(tx: Tx, seat: dict) -> bool:
    """Every check of :func:`ask_rematch`, nothing written: would asking now change anything?

    Raises what :func:`ask_rematch` would. False when this seat has asked
    already and the rematch cannot start yet: asking again is then a no-op,
    which a page answers from this read instead of taking the write lock.
    """
    room, table = _rematch_checks(tx, seat, lock=False)
    return not seat["rematch"] or _rematch_seating(tx, room, table) is not None


def ask_rematch(tx: Tx, seat: dict, now: float, seed=None) -> str | None:
    """This seat wants a rematch; when every student of the table does, seat them again. Returns the new table."""
    room, table = _rematch_checks(tx, seat, lock=True)
    if not seat["rematch"]:
        tx.run("UPDATE seats SET rematch = 1 WHERE table_id = ? AND seat = ?", (table["id"], seat["seat"]))
    seating = _rematch_seating(tx, room, table)
    if seating is None:
        return None
    tx.run("UPDATE seats SET rematch = 0 WHERE table_id = ?", (table["id"],))
    rng = np.random.default_rng(seed)
    return create_table(tx, room, seating, "rematch", table["round"], int(rng.integers(2**62)), now)


def schedule_due(tx: Tx, room: dict, now: float) -> bool:
    """Would :func:`auto_pair` or :func:`next_round` do anything now? (A read only.)"""
    if room["status"] != "open":
        return False
    settings = settings_of(room)
    if room["schedule"]:
        plan_left = room["round"] < len(json.loads(room["schedule"])["rounds"])
        busy = tx.one("SELECT id FROM game_tables WHERE room = ? AND status = ? LIMIT 1", (room["code"], PLAYING))
        if plan_left and busy is None:
            return True
    if settings.pairing != "random" or not settings.auto_pair:
        return False
    size = rules_for(room["game"], room["options"]).num_players
    return len(waiting_players(tx, room["code"], now - settings.timeout, now - AUTO_PAIR_REST)) >= size


def auto_pair(tx: Tx, room: dict, now: float) -> list[str]:
    """In a random-pairing room with ``auto_pair`` on, seat waiting students in full tables.

    A student who just finished a game waits :data:`AUTO_PAIR_REST` seconds
    first: time to read the result and to ask for a rematch.
    """
    settings = settings_of(room)
    if room["status"] != "open" or settings.pairing != "random" or not settings.auto_pair:
        return []
    return pair_waiting(tx, room, now, fill_with_bots=False, rest=AUTO_PAIR_REST)


__all__ = ["IDLE_ROOM_HOURS", "MAX_OPEN_ROOMS", "RoomSettings", "ask_rematch", "auto_pair", "claim_seat",
           "close_idle_rooms", "create_room", "create_table",
           "current_seat", "end_room", "heartbeat", "join", "leave", "next_round", "pair_waiting",
           "player_by_key", "rematch_due", "schedule_due", "stood_in", "start_round_robin", "teacher_room", "update_settings", "waiting_players"]
