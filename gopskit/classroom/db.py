"""One small database layer for SQLite and PostgreSQL: same SQL, one transaction per action.

The classroom keeps everything in a database that every Voila kernel of a
class opens on its own. Two kinds are supported, with the same schema:

* **SQLite** (the default): one file, in WAL mode so that readers never wait
  for a writer; every write transaction starts with ``BEGIN IMMEDIATE``, so
  two writers queue instead of failing. Safe for many kernels on one machine
  (the teacher's laptop, one Binder or JupyterHub server); not on a network
  file system.
* **PostgreSQL**: for a school server whose kernels run on several machines.
  Writers lock the rows they change (``SELECT ... FOR UPDATE``).

SQL is written once with ``?`` placeholders; :class:`Tx` turns them into
``%s`` for PostgreSQL. :meth:`Database.run` runs a function inside a
transaction and retries it when the database reports a deadlock or a busy
lock, so callers write plain straight-line code.

Where the store is: :func:`default_url` reads ``GOPSKIT_CLASSROOM_DB`` (a
path, ``sqlite:///path`` or ``postgresql://...``), else a file in the user's
data folder.

>>> db = connect(":memory:")
>>> db.run(lambda tx: tx.one("SELECT 1 + 1 AS two")["two"])
2
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .errors import StoreError

T = TypeVar("T")
ENV_VAR = "GOPSKIT_CLASSROOM_DB"
RETRIES = 8
SQLITE_BUSY_MS = 20_000


def default_url() -> str:
    """The store every app of this machine shares, unless told otherwise.

    ``GOPSKIT_CLASSROOM_DB`` if set; else ``$XDG_DATA_HOME/gopskit/classroom.sqlite3``
    (``~/.local/share/gopskit/classroom.sqlite3``).
    """
    if os.environ.get(ENV_VAR):
        return os.environ[ENV_VAR]
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return str(base / "gopskit" / "classroom.sqlite3")


def dialect_of(url: str) -> str:
    """``"postgresql"`` for a ``postgresql://``/``postgres://`` URL, else ``"sqlite"``.

    >>> dialect_of("postgresql://teacher@db.school/gops"), dialect_of("/tmp/class.sqlite3")
    ('postgresql', 'sqlite')
    """
    return "postgresql" if url.startswith(("postgresql://", "postgres://")) else "sqlite"


class Tx:
    """One open transaction: ``one``, ``all`` and ``run`` take SQL with ``?`` placeholders."""

    def __init__(self, cursor, dialect: str):
        self._cursor = cursor
        self.dialect = dialect

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.dialect == "postgresql" else sql

    def all(self, sql: str, params: tuple = ()) -> list[dict[str, Any]]:
        """Every row, as dicts."""
        self._cursor.execute(self._sql(sql), params)
        return [dict(row) for row in self._cursor.fetchall()]

    def one(self, sql: str, params: tuple = ()) -> dict[str, Any] | None:
        """The first row as a dict, or ``None``."""
        self._cursor.execute(self._sql(sql), params)
        row = self._cursor.fetchone()
        return None if row is None else dict(row)

    def run(self, sql: str, params: tuple = ()) -> int:
        """Run a statement; return how many rows it changed."""
        self._cursor.execute(self._sql(sql), params)
        return self._cursor.rowcount

    def locked(self, sql: str, params: tuple = (), share: bool = False) -> dict[str, Any] | None:
        """``one`` with a row lock on PostgreSQL (SQLite's ``BEGIN IMMEDIATE`` already excludes writers)."""
        if self.dialect == "postgresql":
            sql += " FOR SHARE" if share else " FOR UPDATE"
        return self.one(sql, params)


class Database:
    """A connection to the store, shared by one process's apps; see the module docstring."""

    def __init__(self, url: str, dialect: str, connection):
        self.url = url
        self.dialect = dialect
        self._connection = connection
        self._lock = threading.RLock()

    def run(self, work: Callable[[Tx], T], write: bool = True) -> T:
        """Run ``work(tx)`` in one transaction; commit if it returns, roll back if it raises.

        A deadlock, a serialization failure, a busy database or a broken
        PostgreSQL connection (then it connects again) makes the whole
        function run again (at most ``RETRIES`` times), so ``work`` must not
        have effects outside the database.
        """
        for attempt in range(RETRIES):
            try:
                with self._lock:
                    return self._run_once(work, write)
            except _RETRYABLE[self.dialect] as exc:
                if not _is_retryable(exc):
                    raise
                if attempt == RETRIES - 1:
                    raise StoreError(f"the classroom store is too busy right now ({exc}); try again") from None
                time.sleep(0.01 * (attempt + 1))
            except _LOST_CONNECTION as exc:
                if self._lost(exc) and attempt < RETRIES - 1:
                    self._reconnect()  # the server restarted or the network dropped: connect again
                    continue
                raise StoreError(f"the classroom store failed ({str(exc).strip()}); try again") from None
        raise AssertionError("unreachable")

    def _lost(self, exc) -> bool:
        """True when a PostgreSQL connection broke (a server restart, a dropped network)."""
        return self.dialect == "postgresql" and (self._connection.closed or self._connection.broken)

    def _reconnect(self) -> None:
        with self._lock:
            try:
                self._connection.close()
            finally:
                self._connection = _connect_postgres(self.url)

    def _run_once(self, work, write):
        if self.dialect == "postgresql":
            with self._connection.transaction(), self._connection.cursor() as cursor:
                return work(Tx(cursor, self.dialect))
        cursor = self._connection.cursor()
        cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            result = work(Tx(cursor, self.dialect))
        except BaseException:
            self._connection.rollback()
            raise
        self._connection.commit()
        return result

    def is_conflict(self, exc: BaseException) -> bool:
        """True when ``exc`` is a unique-key violation (a row that is already there)."""
        if isinstance(exc, sqlite3.IntegrityError):
            return True
        return type(exc).__name__ in ("UniqueViolation", "IntegrityError")

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __repr__(self) -> str:
        return f"<Database {self.dialect} {_redacted(self.url)}>"


def connect(url: str | None = None) -> Database:
    """Open the store at ``url`` (see :func:`default_url`), creating an SQLite file's folder."""
    url = url or default_url()
    if dialect_of(url) == "postgresql":
        return Database(url, "postgresql", _connect_postgres(url))
    return Database(url, "sqlite", _connect_sqlite(url))


def _connect_sqlite(url: str):
    path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
    if path != ":memory:":
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the classroom store {path!r}: {exc.strerror}") from None
    try:
        connection = sqlite3.connect(path, timeout=SQLITE_BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        connection.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the classroom store {path!r}: {exc}") from None
    return connection


def _connect_postgres(url: str):
    try:
        import psycopg
        from psycopg.rows import dict_row
    except ImportError:
        raise StoreError("a PostgreSQL store needs psycopg 3: pip install 'psycopg[binary]'") from None
    try:
        return psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=10)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to the classroom store {_redacted(url)}: {str(exc).strip()}") from None


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    if "://" not in url or "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    user, host = rest.rsplit("@", 1)
    return f"{scheme}://{user.split(':', 1)[0]}:***@{host}" if ":" in user else url


def _postgres_errors() -> tuple:
    try:
        import psycopg
    except ImportError:
        return ()
    return (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure, psycopg.errors.LockNotAvailable)


def _postgres_lost() -> tuple:
    try:
        import psycopg
    except ImportError:
        return ()
    return (psycopg.OperationalError,)


_RETRYABLE = {"sqlite": (sqlite3.OperationalError,), "postgresql": _postgres_errors()}
_LOST_CONNECTION = _postgres_lost()


def _is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.OperationalError):
        return "locked" in str(exc) or "busy" in str(exc)
    return True


__all__ = ["Database", "ENV_VAR", "Tx", "connect", "default_url", "dialect_of"]
