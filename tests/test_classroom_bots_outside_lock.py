"""Bots think outside the store's write lock, on SQLite and on a real PostgreSQL.

A write transaction holds SQLite's single write lock (on PostgreSQL, the
table's row): a bot that thought inside one (the equilibrium bot solving the
rest of a 13-card hand, the CFR bot solving its hand on first use) kept every
other student of the room waiting, and past the busy timeout their moves
failed. The probe bot below asks the database, each time it is asked to
move, whether some transaction holds the lock it would contend for.
"""

from __future__ import annotations

import sqlite3

import pytest
from test_classroom_store import play_out
from test_classroom_support import clock, postgres_url, store, store_url  # noqa: F401  (fixtures)

from gopskit.agents import register
from gopskit.agents.base import Agent
from gopskit.classroom import ClassroomStore, gameplay


def store_locked(url: str) -> bool:
    """True if another connection holds the write lock a move would need."""
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as connection:
            try:
                with connection.transaction():
                    connection.execute("SELECT id FROM game_tables FOR UPDATE NOWAIT").fetchall()
            except psycopg.errors.LockNotAvailable:
                return True
        return False
    connection = sqlite3.connect(url, timeout=0, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc), exc
        return True
    finally:
        connection.close()


@register
class LockProbe(Agent):
    """Bids its lowest card; records, for each move it is asked for, whether the store was locked."""

    name = "test-lock-probe"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": ("goofspiel",)}
    url: str = ""
    asked: list = []  # one bool per move asked for: was a write transaction open?
    first: list = []  # the same for this process's first move (a bot's once-per-process work)

    def act(self, observation):
        locked = store_locked(LockProbe.url)
        if not LockProbe.asked and not LockProbe.first:
            LockProbe.first.append(locked)
        LockProbe.asked.append(locked)
        return min(observation.legal_moves)


@pytest.fixture
def probe(store_url, monkeypatch):
    monkeypatch.setattr(LockProbe, "url", store_url)
    monkeypatch.setattr(LockProbe, "asked", [])
    monkeypatch.setattr(LockProbe, "first", [])
    monkeypatch.setattr(gameplay, "_BOT_MOVES", {}, raising=False)
    monkeypatch.setattr(gameplay, "_WARMED", set(), raising=False)
    return LockProbe


def test_the_probe_sees_a_held_lock(store, store_url):
    """The check can fail: inside a write transaction that holds a table, the probe says "locked"."""
    room = store.create_room("goofspiel", {"num_cards": 3}, bot="random", auto_pair=False)
    store.join(room.code, "Ann")
    store.pair_waiting(room.teacher_key, seed=1)
    assert not store_locked(store_url)
    assert store.db.run(lambda tx: (tx.locked("SELECT id FROM game_tables"), store_locked(store_url))[1])


def test_a_game_against_a_bot_never_makes_it_think_inside_a_transaction(store, probe):
    room = store.create_room("goofspiel", {"num_cards": 5}, bot=probe.name, auto_pair=False, seed=1)
    ann = store.join(room.code, "Ann")
    assert probe.first == [False], "the bot's first move in this process was made inside a transaction"
    store.pair_waiting(room.teacher_key, seed=2)
    probe.asked.clear()  # the bot's once-per-process work was done above, outside any transaction
    view = play_out(store, [store.claim_seat(ann.player_key).seat_key])
    assert view.status == "finished" and view.names[1] == gameplay.bot_label(probe.name)
    assert len(probe.asked) >= 4 and not any(probe.asked), probe.asked
    bids = [row for row in store.export(room.teacher_key).bids if row["actor"] == "bot"]
    assert len(bids) == 5  # every bot bid was stored: the moves worked out ahead were used


def test_stand_ins_think_outside_the_transaction_too(store, clock, probe):
    room = store.create_room("goofspiel", {"num_cards": 4}, bot=probe.name, auto_pair=False, timeout=10, seed=5)
    players = [store.join(room.code, name) for name in ("Ann", "Bob")]
    store.pair_waiting(room.teacher_key, seed=3)
    ann, bob = (store.claim_seat(p.player_key).seat_key for p in players)
    store.submit(ann, store.seat_view(ann).observation["hand"][0], 0)
    clock.advance(11)
    store.heartbeat(players[0].player_key)
    assert store.keep_table(ann)  # Bob is away: the bot stands in at his seat
    view = store.seat_view(bob)
    assert view.kinds[view.seat] == "stand-in"
    play_out(store, [ann])  # Ann plays on against the stand-in
    clock.advance(11)
    room2 = store.create_room("goofspiel", {"num_cards": 3}, bot=probe.name, auto_pair=False, timeout=10, seed=6)
    for name in ("Cy", "Di"):
        store.join(room2.code, name)
    store.pair_waiting(room2.teacher_key, seed=4)
    clock.advance(11)
    asked = len(probe.asked)
    assert store.keep_room(room2.teacher_key)["stand_ins"] == 1  # both away (one table): stand-ins play the game out
    assert store.overview(room2.teacher_key).tables[0]["status"] == "finished"
    assert len(probe.asked) > asked + 4 and not any(probe.asked), probe.asked


def test_a_refused_move_sets_no_bot_thinking(store, probe):
    """A stale, repeated or illegal move is refused as before, and no bot works out what it would have brought."""
    from gopskit.classroom import StaleMoveError
    from gopskit.errors import IllegalMoveError

    room = store.create_room("goofspiel", {"num_cards": 4}, bot=probe.name, auto_pair=False, seed=1)
    ann = store.join(room.code, "Ann")
    store.pair_waiting(room.teacher_key, seed=2)
    seat = store.claim_seat(ann.player_key).seat_key
    store.submit(seat, 1, 0)  # turn 1 is complete: the bot bid the moment Ann did
    asked = len(probe.asked)
    for move, ply, error in ((2, 0, StaleMoveError), (9, 1, IllegalMoveError), (1, 1, IllegalMoveError)):
        with pytest.raises(error):
            store.submit(seat, move, ply)
    assert len(probe.asked) == asked
    store.submit(seat, 2, 1)
    assert len(probe.asked) == asked + 1


# ------------------------------------------- the bots think while the student does ---
@register
class OrderProbe(Agent):
    """Bids its lowest card and notes each time it is asked, with the cards it holds."""

    name = "test-think-order-probe"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": ("goofspiel",)}
    events: list = []

    def act(self, observation):
        OrderProbe.events.append(("bot thinks", len(observation.hand)))
        return min(observation.legal_moves)


def test_a_students_page_lets_the_bot_think_after_drawing_the_turn_never_between_click_and_reveal(
        store_url, monkeypatch):
    """The bot's move for a turn is worked out once the page shows that turn; the click then finds it ready.

    Before, a bot's move was made as its turn began, inside the student's
    previous click: a 13-card equilibrium bot's second-long solve at turn 4
    came between the click on turn 3 and its reveal.
    """
    from gopskit.widgets.classroom import SeatBoard, StudentApp

    monkeypatch.setattr(OrderProbe, "events", [])
    monkeypatch.setattr(gameplay, "_BOT_MOVES", {}, raising=False)
    shown = SeatBoard.show

    def show(board, view):
        OrderProbe.events.append(("shown", len(view.observation["hand"])))
        shown(board, view)
    monkeypatch.setattr(SeatBoard, "show", show)
    store = ClassroomStore(store_url)
    room = store.create_room("goofspiel", {"num_cards": 3}, bot=OrderProbe.name, auto_pair=False, seed=1)
    app = StudentApp(store_url)
    app.join("Ann", room.code)
    store.pair_waiting(room.teacher_key, seed=2)
    OrderProbe.events.clear()  # warming the bot up (its first move in this process) is not part of the game
    app.tick()
    while app.board.seat_view.status == "playing":
        thinking = app._thinking  # the bot thinks in a thread of the page's kernel: a student takes longer
        if thinking is not None:
            thinking.join(30)
        OrderProbe.events.append(("click", len(app.board.seat_view.observation["hand"])))
        app.board.click_card(app.board.seat_view.observation["legal_moves"][-1])
        app.board.confirm()
        assert app.board.last_error is None, app.board.status
    assert OrderProbe.events == [
        ("shown", 3), ("bot thinks", 3), ("click", 3),
        ("shown", 2), ("bot thinks", 2), ("click", 2),
        ("shown", 1), ("bot thinks", 1), ("click", 1),
        ("shown", 0),
    ], OrderProbe.events
    bids = [row for row in store.export(room.teacher_key).bids if row["actor"] == "bot"]
    assert [row["move"] for row in bids] == [1, 2, 3]  # the moves worked out early are the ones played
    store.close()
