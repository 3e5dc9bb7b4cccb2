"""The store's schema, as numbered migrations from day one.

The table ``schema_version`` lists every migration applied to a store. On
opening, :func:`migrate` applies the missing ones in order, in one
transaction (SQLite's ``BEGIN IMMEDIATE`` or a PostgreSQL advisory lock keeps
two kernels opening the store at once from racing), so next year's kit opens
this year's rooms. A store written by a *newer* kit is refused with a clear
message rather than misread.

The SQL is plain enough to run unchanged on SQLite and PostgreSQL: ``TEXT``,
``BIGINT``, ``DOUBLE PRECISION``; identifiers are short random strings made
in Python, JSON is kept as text, times are Unix seconds.

Rules for the future: never edit a released migration; add a new one with
the next number (and a test that a store at the old version upgrades).

>>> from gopskit.classroom.db import connect
>>> db = connect(":memory:")
>>> migrate(db) == MIGRATIONS[-1].version
True
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence

from .db import Database, Tx
from .errors import StoreError

ADVISORY_LOCK_KEY = 7_242_001  # any constant: "the gopskit classroom schema"


@dataclasses.dataclass(frozen=True)
class Migration:
    """One step of the schema: its number, a line saying what it adds, and its SQL."""

    version: int
    summary: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "rooms, players, game tables, seats and moves", (
        """CREATE TABLE rooms (
            code TEXT PRIMARY KEY,
            teacher_hash TEXT NOT NULL,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            settings TEXT NOT NULL,
            status TEXT NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,
            schedule TEXT,
            version BIGINT NOT NULL DEFAULT 0,
            created_at DOUBLE PRECISION NOT NULL,
            ended_at DOUBLE PRECISION)""",
        """CREATE TABLE players (
            id TEXT PRIMARY KEY,
            room TEXT NOT NULL REFERENCES rooms(code),
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            joined_at DOUBLE PRECISION NOT NULL,
            last_seen DOUBLE PRECISION NOT NULL,
            status TEXT NOT NULL,
            UNIQUE (room, name_key))""",
        """CREATE TABLE game_tables (
            id TEXT PRIMARY KEY,
            room TEXT NOT NULL REFERENCES rooms(code),
            number INTEGER NOT NULL,
            round INTEGER NOT NULL,
            origin TEXT NOT NULL,
            seed BIGINT NOT NULL,
            status TEXT NOT NULL,
            ply INTEGER NOT NULL DEFAULT 0,
            ply_started DOUBLE PRECISION NOT NULL,
            version BIGINT NOT NULL DEFAULT 0,
            scores TEXT,
            winners TEXT,
            record TEXT,
            created_at DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION,
            UNIQUE (room, number))""",
        """CREATE TABLE seats (
            table_id TEXT NOT NULL REFERENCES game_tables(id),
            seat INTEGER NOT NULL,
            player TEXT REFERENCES players(id),
            bot TEXT,
            token_hash TEXT UNIQUE,
            stand_in_since INTEGER,
            rematch INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, seat))""",
        """CREATE TABLE moves (
            table_id TEXT NOT NULL REFERENCES game_tables(id),
            ply INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            move TEXT NOT NULL,
            actor TEXT NOT NULL,
            made_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, ply, seat))""",
        "CREATE INDEX players_by_room ON players (room)",
        "CREATE INDEX tables_by_room ON game_tables (room, status)",
        "CREATE INDEX seats_by_player ON seats (player)",
    )),
    Migration(2, "challenges between students", (
        """CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            room TEXT NOT NULL REFERENCES rooms(code),
            challenger TEXT NOT NULL REFERENCES players(id),
            target TEXT NOT NULL REFERENCES players(id),
            status TEXT NOT NULL,
            table_id TEXT REFERENCES game_tables(id),
            created_at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX challenges_by_target ON challenges (target, status)",
    )),
)


def migrate(db: Database, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the store's schema up to the last of ``migrations``; return its version.

    Raises :class:`StoreError` if the store is newer than this kit knows.
    """
    _check_sequence(migrations)
    return db.run(lambda tx: _migrate(tx, migrations))


def schema_version(db: Database) -> int:
    """The newest migration applied to the store (0 for a new, empty store)."""
    return db.run(lambda tx: _current(tx), write=False) if _has_version_table(db) else 0


def _migrate(tx: Tx, migrations: Sequence[Migration]) -> int:
    if tx.dialect == "postgresql":
        tx.one("SELECT pg_advisory_xact_lock(?) AS locked", (ADVISORY_LOCK_KEY,))
    tx.run("""CREATE TABLE IF NOT EXISTS schema_version (
        version INTEGER PRIMARY KEY, summary TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)""")
    current = _current(tx)
    known = migrations[-1].version if migrations else 0
    if current > known:
        raise StoreError(
            f"this classroom store was written by a newer gopskit (schema {current}); this kit knows "
            f"schema {known} at most: upgrade gopskit on this machine, or use another store"
        )
    for step in migrations:
        if step.version > current:
            for statement in step.statements:
                tx.run(statement)
            tx.run("INSERT INTO schema_version (version, summary, applied_at) VALUES (?, ?, ?)",
                   (step.version, step.summary, time.time()))
    return max(current, known)


def _current(tx: Tx) -> int:
    row = tx.one("SELECT MAX(version) AS v FROM schema_version")
    return int(row["v"] or 0) if row else 0


def _has_version_table(db: Database) -> bool:
    if db.dialect == "postgresql":
        sql = "SELECT to_regclass('schema_version') IS NOT NULL AS present"
    else:
        sql = "SELECT COUNT(*) > 0 AS present FROM sqlite_master WHERE name = 'schema_version'"
    return bool(db.run(lambda tx: tx.one(sql)["present"], write=False))


def _check_sequence(migrations: Sequence[Migration]) -> None:
    numbers = [m.version for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise StoreError(f"migrations must be numbered 1, 2, 3, ... in order, not {numbers}")


__all__ = ["MIGRATIONS", "Migration", "migrate", "schema_version"]
