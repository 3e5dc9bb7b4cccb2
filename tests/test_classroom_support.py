"""Fixtures shared by the classroom tests: a real PostgreSQL server, and a store on each backend.

``postgres_url`` starts (or reuses) the throwaway cluster of
``tests/ensure_postgres.sh`` (or takes ``GOPSKIT_TEST_POSTGRES_URL``); it
FAILS loudly when no PostgreSQL can be had: it never skips. Each test that
uses ``store_url`` gets a fresh, empty store: a new SQLite file, or a new
PostgreSQL schema (named in the URL's ``search_path``), dropped afterwards.

The test modules import these fixtures by name.
"""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

import pytest

from gopskit.classroom import ClassroomStore

SCRIPT = Path(__file__).with_name("ensure_postgres.sh")
BACKENDS = ("sqlite", "postgresql")


def start_postgres() -> tuple[str, bool]:
    """The URL of a running test server, and whether this call started it."""
    if os.environ.get("GOPSKIT_TEST_POSTGRES_URL"):
        return os.environ["GOPSKIT_TEST_POSTGRES_URL"], False
    try:
        result = subprocess.run(["bash", str(SCRIPT), "start"], capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.fail(f"could not run {SCRIPT}: {exc}", pytrace=False)
    lines = result.stdout.strip().splitlines()
    if result.returncode != 0 or not lines or not lines[-1].startswith("postgresql://"):
        pytest.fail(
            "PostgreSQL is needed for the classroom store tests and could not be started by "
            f"{SCRIPT.name} (exit {result.returncode}):\n{result.stderr.strip()}\n"
            "Install it with `sudo apt-get install postgresql`, or set GOPSKIT_TEST_POSTGRES_URL.",
            pytrace=False,
        )
    return lines[-1], "started a PostgreSQL cluster" in result.stderr


@pytest.fixture(scope="session")
def postgres_url():
    url, started = start_postgres()
    yield url
    if started and not os.environ.get("PYTEST_XDIST_WORKER"):
        subprocess.run(["bash", str(SCRIPT), "stop"], capture_output=True, timeout=120)


def fresh_schema(base_url: str) -> tuple[str, str]:
    """A new empty schema on the server: ``(url using it, schema name)``."""
    import psycopg

    schema = "t_" + secrets.token_hex(6)
    with psycopg.connect(base_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in base_url else "?"
    return f"{base_url}{separator}options=-csearch_path%3D{schema}", schema


def drop_schema(base_url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(base_url, autocommit=True) as connection:
        connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture(params=BACKENDS)
def store_url(request, tmp_path):
    """A URL of a fresh, empty store on each backend in turn."""
    if request.param == "sqlite":
        yield str(tmp_path / "classroom.sqlite3")
        return
    base = request.getfixturevalue("postgres_url")
    url, schema = fresh_schema(base)
    yield url
    drop_schema(base, schema)


class Clock:
    """A clock the test moves by hand (for timeouts)."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(store_url, clock):
    shop = ClassroomStore(store_url, clock=clock)
    yield shop
    shop.close()


def test_postgres_fixture_reaches_a_real_server(postgres_url):
    """The PostgreSQL the tests use is a real server (never a mock): it answers a version query."""
    import psycopg

    with psycopg.connect(postgres_url) as connection:
        version = connection.execute("SHOW server_version").fetchone()[0]
    assert version.split(".")[0].isdigit()
