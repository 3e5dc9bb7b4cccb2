"""Schema migrations, concurrency and invariants of the classroom store (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_classroom_support import clock, postgres_url, store, store_url  # noqa: F401  (fixtures)

from gopskit.classroom import ClassroomStore, RoomError, StaleMoveError, StoreError
from gopskit.classroom.db import connect, dialect_of
from gopskit.classroom.migrations import MIGRATIONS, Migration, migrate, schema_version
from gopskit.classroom.pairing import chunk, meetings, random_tables, round_robin
from gopskit.errors import GopsError, IllegalMoveError
from gopskit.games import replay_record


# ------------------------------------------------------------- migrations ---
def test_a_new_store_gets_every_migration(store_url):
    db = connect(store_url)
    assert schema_version(db) == 0
    assert migrate(db) == MIGRATIONS[-1].version == schema_version(db)
    assert migrate(db) == MIGRATIONS[-1].version  # twice is harmless
    db.close()


def test_last_years_store_opens_with_its_rooms(store_url):
    old = connect(store_url)
    migrate(old, MIGRATIONS[:1])  # a store made by a kit that knew only migration 1
    assert schema_version(old) == 1
    old.close()
    old = connect(store_url)  # that old schema has no challenges table yet
    assert old.run(lambda tx: tx.all("SELECT * FROM schema_version")) and not _has_table(old, "challenges")
    old.close()
    shop = ClassroomStore(store_url)
    assert shop.schema == MIGRATIONS[-1].version
    room = shop.create_room("goofspiel", {"num_cards": 3}, pairing="challenge")
    ann, _bob = shop.join(room.code, "Ann"), shop.join(room.code, "Bob")
    assert shop.challenge(ann.player_key, "Bob")
    shop.close()


def _has_table(db, name: str) -> bool:
    if db.dialect == "postgresql":
        return db.run(lambda tx: tx.one("SELECT to_regclass(?) IS NOT NULL AS present", (name,))["present"])
    return db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = ?", (name,))["n"] > 0)


def test_next_years_migration_keeps_this_years_rooms(store_url):
    shop = ClassroomStore(store_url)
    room = shop.create_room("goofspiel", {"num_cards": 3})
    shop.join(room.code, "Ann")
    shop.close()
    future = MIGRATIONS + (Migration(len(MIGRATIONS) + 1, "a motto per room", ("ALTER TABLE rooms ADD COLUMN motto TEXT",)),)
    db = connect(store_url)
    assert migrate(db, future) == len(future)
    assert db.run(lambda tx: tx.one("SELECT code, motto FROM rooms")) == {"code": room.code, "motto": None}
    db.close()
    with pytest.raises(StoreError, match="newer gopskit"):
        ClassroomStore(store_url)  # this year's kit refuses next year's store rather than misread it


def test_migrations_must_be_numbered_in_order(store_url):
    with pytest.raises(StoreError, match="numbered"):
        migrate(connect(store_url), (Migration(2, "x", ()),))


def test_store_urls_and_bad_places():
    assert dialect_of("postgres://a@b/c") == "postgresql" and dialect_of("sqlite:///x.db") == "sqlite"
    with pytest.raises(StoreError, match="cannot"):
        ClassroomStore("/proc/no-such-folder/classroom.sqlite3")
    with pytest.raises(StoreError, match="cannot connect"):
        ClassroomStore("postgresql://nobody:secret@127.0.0.1:1/none")
    try:
        ClassroomStore("postgresql://nobody:secret@127.0.0.1:1/none")
    except StoreError as exc:
        assert "secret" not in str(exc)  # the password never reaches the screen


def test_a_dropped_postgresql_connection_is_made_again(postgres_url):
    import psycopg
    from test_classroom_support import drop_schema, fresh_schema

    url, schema = fresh_schema(postgres_url)
    try:
        shop = ClassroomStore(url)
        room = shop.create_room("goofspiel", {"num_cards": 3})
        pid = shop.db.run(lambda tx: tx.one("SELECT pg_backend_pid() AS pid"))["pid"]
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        assert shop.join(room.code, "Ann").name == "Ann"  # the store connected again by itself
        assert shop.db.run(lambda tx: tx.one("SELECT pg_backend_pid() AS pid"))["pid"] != pid
        shop.close()
    finally:
        drop_schema(postgres_url, schema)


# ------------------------------------------------------------ concurrency ---
def _two_seats(url, seed=5):
    shop = ClassroomStore(url)
    room = shop.create_room("goofspiel", {"num_cards": 5}, auto_pair=False, seed=seed)
    players = [shop.join(room.code, n) for n in ("Ann", "Bob")]
    shop.pair_waiting(room.teacher_key, seed=1)
    return shop, room, [shop.claim_seat(p.player_key).seat_key for p in players]


def _race(actions):
    """Run the actions at the same moment in threads, each with its own connection; return results or errors."""
    barrier = threading.Barrier(len(actions))
    results = [None] * len(actions)

    def run(i, action):
        barrier.wait()
        try:
            results[i] = action()
        except GopsError as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_the_same_bid_sent_many_times_at_once_is_stored_once(store_url):
    shop, room, (ann, bob) = _two_seats(store_url)
    shops = [ClassroomStore(store_url) for _ in range(6)]
    results = _race([lambda s=s, c=c: s.submit(ann, c, 0) for s, c in zip(shops, [1, 2, 3, 4, 5, 1])])
    accepted = [r for r in results if not isinstance(r, Exception)]
    assert len(accepted) == 1 and all(isinstance(r, StaleMoveError) for r in results if r not in accepted)
    assert shop.seat_view(ann).my_move == accepted[0].my_move


def test_two_bids_at_once_both_count_and_the_turn_resolves_once(store_url):
    shop, room, (ann, bob) = _two_seats(store_url)
    for ply in range(5):
        a, b = ClassroomStore(store_url), ClassroomStore(store_url)
        results = _race([lambda a=a, p=ply: a.submit(ann, 5 - p, p), lambda b=b, p=ply: b.submit(bob, p + 1, p)])
        assert not any(isinstance(r, Exception) for r in results), results
    [record] = shop.export(room.teacher_key).records()
    assert len(record["bids"]) == 5 and replay_record(record).is_terminal()


def test_a_bid_during_end_room_either_lands_before_or_is_refused(store_url):
    shop, room, (ann, bob) = _two_seats(store_url)
    shop.submit(ann, 3, 0)
    a, b = ClassroomStore(store_url), ClassroomStore(store_url)
    bid, ended = _race([lambda: a.submit(bob, 4, 0), lambda: b.end_room(room.teacher_key)])
    [record] = shop.export(room.teacher_key).records()
    replay_record(record)
    if isinstance(bid, RoomError):
        assert record["bids"] == []
    else:
        assert len(record["bids"]) == 1
    assert shop.export(room.teacher_key).tables[0]["status"] == "ended"


# ----------------------------------------------------------- properties ---
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 6), st.integers(-1, 1)), max_size=25))
def test_any_order_of_moves_keeps_the_store_consistent(script):
    """Random bids (legal or not, on time or stale) from either seat: the record always replays and
    a seat's view never shows the other seat's bid of the turn under way."""
    shop = ClassroomStore(":memory:")
    room = shop.create_room("goofspiel", {"num_cards": 4, "ties": "carry"}, auto_pair=False, seed=2)
    players = [shop.join(room.code, n) for n in ("Ann", "Bob")]
    shop.pair_waiting(room.teacher_key, seed=1)
    keys = [shop.claim_seat(p.player_key).seat_key for p in players]
    for who, card, skew in script:
        view = shop.seat_view(keys[who])
        try:
            shop.submit(keys[who], card, view.ply + skew)
        except (IllegalMoveError, RoomError):
            pass
        other = shop.seat_view(keys[1 - who])
        history = other.observation["history"]
        assert len(history) == other.ply and other.state.record()["bids"] == [list(t["bids"]) for t in history]
    [record] = shop.export(room.teacher_key).records()
    assert list(replay_record(record).scores()) == list(shop.seat_view(keys[0]).state.scores())


@given(n=st.integers(1, 14))
def test_round_robin_meets_every_pair_exactly_once(n):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin(players, 2)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for tables in rounds:
        seated = [p for t in tables for p in t if p is not None]
        assert sorted(seated) == sorted(players)  # everybody plays every round, once
    counts = meetings(rounds)
    assert len(counts) == n * (n - 1) // 2 and set(counts.values()) <= {1}
    first = [t[0] for tables in rounds for t in tables if None not in t]
    games = {p: sum(p in t for tables in rounds for t in tables if None not in t) for p in players}
    for p in players:  # everyone sits first in half of their games against students, give or take one
        assert abs(2 * first.count(p) - games[p]) <= 2


@given(n=st.integers(0, 20), size=st.integers(2, 5), seed=st.integers(0, 99))
def test_random_tables_seat_everyone_once_with_bots_only_in_the_last(n, size, seed):
    players = list(range(n))
    tables = random_tables(players, size, seed)
    assert sorted(p for t in tables for p in t if p is not None) == players
    assert all(len(t) == size for t in tables) and all(None not in t for t in tables[:-1])
    assert random_tables(players, size, seed) == tables


def test_chunk_and_groups_of_three():
    assert chunk(["a", None, "b"], 3) == [["a", None, "b"]]
    rounds = round_robin(list("abcdef"), 3)
    assert len(rounds) == 5 and all(len(tables) == 2 for tables in rounds)
    with pytest.raises(GopsError, match="2 or more"):
        chunk([], 1)
