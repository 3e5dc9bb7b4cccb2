"""The classroom store on SQLite and on a real PostgreSQL: rooms, keys, fair play, timeouts, pairing.

Every test runs on both backends (the ``store`` fixture). The clock is the
test's own, so timeouts are exact.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from test_classroom_support import clock, postgres_url, store, store_url  # noqa: F401  (fixtures)

from gopskit.classroom import AccessError, RoomError, StaleMoveError
from gopskit.errors import IllegalMoveError, OptionError
from gopskit.games import replay_record


def seat_two(store, options=None, **settings):
    """A room with Ann and Bob at one Goofspiel table; returns (room, {name: seat key})."""
    room = store.create_room("goofspiel", {"num_cards": 4, **(options or {})}, auto_pair=False, seed=5, **settings)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    [table] = store.pair_waiting(room.teacher_key, seed=3)
    seats = {"Ann": store.claim_seat(ann.player_key), "Bob": store.claim_seat(bob.player_key)}
    assert seats["Ann"].table == seats["Bob"].table == table
    return room, {"Ann": ann, "Bob": bob}, {n: s.seat_key for n, s in seats.items()}


def play_out(store, keys, choose=lambda view: view.observation["legal_moves"][0], limit=2000):
    """Every seat that must move plays ``choose(view)`` until all games end; returns the first seat's view."""
    for _ in range(limit):
        views = [store.seat_view(k) for k in keys]
        if all(v.status != "playing" for v in views):
            return views[0]
        waiting = [(key, view) for key, view in zip(keys, views) if view.my_turn]
        assert waiting, "no seat can move but a game is still on"
        for key, view in waiting:
            store.submit(key, choose(view), view.ply)
    raise AssertionError(f"the games did not end within {limit} rounds of moves")


# ------------------------------------------------------------ a game ---
def test_two_students_play_a_whole_game_and_the_record_replays(store):
    room, players, seats = seat_two(store)
    last = play_out(store, list(seats.values()), lambda v: v.observation["hand"][-1])
    assert last.status == "finished" and last.scores is not None
    overview = store.overview(room.teacher_key)
    [table] = overview.tables
    assert table["status"] == "finished" and table["turn"] == 4
    [record] = store.export(room.teacher_key).records()
    replayed = replay_record(record)
    assert replayed.is_terminal() and list(replayed.scores()) == table["scores"] == list(last.scores)
    # both always bid their highest card: every turn is a tie, discarded
    assert record["bids"] == [[4, 4], [3, 3], [2, 2], [1, 1]] and table["scores"] == [0, 0]
    assert [row["wins"] for row in overview.leaderboard] == [0.5, 0.5]


def test_a_hand_worked_game_scores_as_the_rules_say(store):
    room, _, seats = seat_two(store, {"prize_order": "ascending"})
    names = store.seat_view(seats["Ann"]).names
    first, second = (seats[names[0]], seats[names[1]])
    for bid_first, bid_second in [(4, 1), (1, 2), (2, 3), (3, 4)]:  # prizes 1, 2, 3, 4
        ply = store.seat_view(first).ply
        store.submit(first, bid_first, ply)
        store.submit(second, bid_second, ply)
    view = store.seat_view(first)
    assert view.scores == (1, 9) and view.winners == (1,)  # seat 1 wins the 1; seat 2 wins 2 + 3 + 4


# ------------------------------------------------------- keys and codes ---
def test_joining_needs_the_room_code_and_a_free_name(store):
    room = store.create_room("goofspiel", {"num_cards": 3})
    with pytest.raises(AccessError, match="not a room code"):
        store.join("nope", "Ann")
    wrong = "".join("A" if c != "A" else "B" for c in room.code)
    with pytest.raises(RoomError, match="no room"):
        store.join(wrong, "Ann")
    ann = store.join(room.code.lower(), "  Ann ")
    assert ann.name == "Ann" and ann.room == room.code
    with pytest.raises(RoomError, match="taken"):
        store.join(room.code, "ann")
    with pytest.raises(RoomError, match="1 to 24"):
        store.join(room.code, "x" * 30)


def test_a_page_cannot_act_for_another_seat_or_as_the_teacher(store):
    room, players, seats = seat_two(store)
    with pytest.raises(AccessError):
        store.submit("forged-key-forged-key-forged-key", 1)
    with pytest.raises(AccessError):
        store.overview(players["Ann"].player_key)  # a student's key is no teacher key
    with pytest.raises(AccessError):
        store.end_room(seats["Ann"])
    other = store.create_room("goofspiel", {"num_cards": 3})
    with pytest.raises(AccessError):
        store.overview(other.teacher_key.upper())
    table = store.seat_view(seats["Ann"]).table
    carol = store.join(room.code, "Carol")
    with pytest.raises(AccessError, match="no seat at that table"):
        store.claim_seat(carol.player_key, table)


def test_a_reloaded_page_resumes_its_seat_and_the_old_page_loses_it(store):
    room, players, seats = seat_two(store)
    view = store.seat_view(seats["Ann"])
    store.submit(seats["Ann"], view.observation["hand"][0], view.ply)
    again = store.claim_seat(players["Ann"].player_key)  # the reloaded page holds only the player key
    resumed = store.seat_view(again.seat_key)
    assert resumed.seat == view.seat and resumed.my_move == view.observation["hand"][0] and not resumed.my_turn
    with pytest.raises(AccessError):
        store.seat_view(seats["Ann"])


# -------------------------------------------------------------- fairness ---
def test_nobody_sees_a_bid_before_the_turn_is_complete(store):
    room, players, seats = seat_two(store)
    ann, bob = seats["Ann"], seats["Bob"]
    before = store.seat_view(bob)
    store.submit(ann, 3, before.ply)
    after = store.seat_view(bob)
    assert after.observation == before.observation and after.my_move is None
    changed = {k for k, v in after.public().items() if before.public()[k] != v}
    assert changed == {"waiting_for", "version"}  # Bob learns that Ann has bid, and nothing else
    assert after.state.record()["bids"] == [] and before.waiting_for != after.waiting_for
    assert "3" not in json.dumps(after.observation["history"]) and after.observation["hands"][after.seat ^ 1] == [1, 2, 3, 4]
    overview = store.overview(room.teacher_key)
    assert overview.tables[0]["turn"] == 0
    assert store.export(room.teacher_key).bids == []
    store.submit(bob, 1, after.ply)
    done = store.seat_view(bob)
    assert done.observation["history"][0]["bids"][done.seat ^ 1] == 3  # revealed once both are in


def test_bad_moves_are_rejected_with_a_message_and_change_nothing(store):
    room, players, seats = seat_two(store)
    ann, bob = seats["Ann"], seats["Bob"]
    view = store.seat_view(ann)
    with pytest.raises(IllegalMoveError, match="playable: 1, 2, 3, 4"):
        store.submit(ann, 9, view.ply)
    with pytest.raises(IllegalMoveError):
        store.submit(ann, "2", view.ply)
    with pytest.raises(IllegalMoveError):
        store.submit(ann, True, view.ply)
    store.submit(ann, 2, view.ply)
    with pytest.raises(StaleMoveError, match="already played 2"):
        store.submit(ann, 3, view.ply)
    store.submit(bob, 4, view.ply)
    with pytest.raises(StaleMoveError, match="moved on"):
        store.submit(ann, 3, view.ply)
    record = store.export(room.teacher_key).records()[0]
    assert record["bids"] == [[2, 4]] or record["bids"] == [[4, 2]]


def test_not_your_turn_in_defeat_the_dealer(store):
    room, players, seats = seat_two(store, {"defeat_the_dealer": True, "num_cards": 3})
    views = {n: store.seat_view(k) for n, k in seats.items()}
    dealer = next(n for n, v in views.items() if v.my_turn)
    other = next(n for n in views if n != dealer)
    assert views[other].to_move == (views[dealer].seat,)
    with pytest.raises(IllegalMoveError, match="not your turn"):
        store.submit(seats[other], 1, views[other].ply)
    store.submit(seats[dealer], 2, views[dealer].ply)
    seen = store.seat_view(seats[other])
    assert seen.my_turn and seen.observation["table_bids"][views[dealer].seat] == 2  # the dealer bids face up


def test_ending_the_room_stops_every_game_and_keeps_the_records(store):
    room, players, seats = seat_two(store)
    view = store.seat_view(seats["Ann"])
    store.submit(seats["Ann"], 1, view.ply)
    store.submit(seats["Bob"], 2, view.ply)
    store.submit(seats["Ann"], 3, view.ply + 1)
    assert store.end_room(room.teacher_key) == 1
    with pytest.raises(RoomError, match="ended"):
        store.submit(seats["Bob"], 3, view.ply + 1)
    with pytest.raises(RoomError, match="ended"):
        store.join(room.code, "Dan")
    exported = store.export(room.teacher_key)
    assert exported.room["status"] == "ended" and exported.tables[0]["status"] == "ended"
    state = replay_record(exported.records()[0])
    assert len(exported.records()[0]["bids"]) == 1 and not state.is_terminal()
    assert len(exported.bids) == 2  # the unfinished turn's lone bid is not exported


# ------------------------------------------------------- bots, timeouts ---
def test_an_odd_student_plays_the_bot_which_moves_at_once(store):
    room = store.create_room("goofspiel", {"num_cards": 3}, bot="random", auto_pair=False)
    keys = [store.join(room.code, n) for n in ("Ann", "Bob", "Cy")]
    tables = store.pair_waiting(room.teacher_key, seed=1)
    assert len(tables) == 2
    overview = store.overview(room.teacher_key)
    bot_table = next(t for t in overview.tables if "bot" in t["kinds"])
    assert "Random bot" in bot_table["names"] and len(bot_table["waiting_for"]) == 1  # only the student is awaited
    play_out(store, [store.claim_seat(p.player_key).seat_key for p in keys])
    overview = store.overview(room.teacher_key)
    assert all(t["status"] == "finished" for t in overview.tables)
    assert sorted(r["name"] for r in overview.leaderboard) == ["Ann", "Bob", "Cy"]


def test_pairing_without_bots_leaves_the_odd_student_waiting(store):
    room = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    for name in ("Ann", "Bob", "Cy"):
        store.join(room.code, name)
    assert len(store.pair_waiting(room.teacher_key, fill_with_bots=False, seed=2)) == 1
    states = sorted(p["state"] for p in store.overview(room.teacher_key).players)
    assert states == ["playing", "playing", "waiting"]


def test_a_bot_stands_in_after_the_timeout_and_the_student_takes_the_seat_back(store, clock):
    room, players, seats = seat_two(store, timeout=30)
    ann, bob = seats["Ann"], seats["Bob"]
    view = store.seat_view(ann)
    store.submit(ann, 4, view.ply)
    clock.advance(20)
    store.heartbeat(players["Ann"].player_key)
    assert not store.keep_table(ann)  # Bob is 20 s away: not yet
    clock.advance(15)
    store.heartbeat(players["Ann"].player_key)
    assert store.keep_table(ann)  # 35 s: the bot bids for Bob
    now = store.seat_view(bob)
    assert now.kinds[now.seat] == "stand-in" and now.ply == 1 and store.seat_view(ann).my_turn
    # the stand-in played turn 1 for Bob; it plays turn 2 the moment Ann has, so the table waits for Ann only
    ann_seat, bob_seat = store.seat_view(ann).seat, now.seat
    assert now.my_move is None and now.waiting_for == (ann_seat,) and store.seat_view(ann).waiting_for == (ann_seat,)
    assert store.overview(room.teacher_key).tables[0]["waiting_for"] == ["Ann"]  # the teacher sees whom it waits for
    store.heartbeat(players["Bob"].player_key)  # Bob is back, before the stand-in's next move: he plays turn 2
    back = store.seat_view(bob)
    assert back.kinds[back.seat] == "student" and back.my_turn and back.ply == 1
    store.submit(ann, store.seat_view(ann).observation["hand"][0], 1)
    assert store.seat_view(bob).my_turn and store.seat_view(bob).ply == 1 and store.seat_view(ann).waiting_for == (bob_seat,)
    store.submit(bob, store.seat_view(bob).observation["hand"][0], 1)
    assert store.seat_view(bob).my_turn and store.seat_view(bob).ply == 2
    exported = store.export(room.teacher_key)
    actors = {(row["player"], row["actor"]) for row in exported.bids}
    assert ("Bob", "stand-in") in actors and ("Ann", "player") in actors


def test_the_teachers_keeper_stands_in_for_absent_students(store, clock):
    room, players, seats = seat_two(store, timeout=10)
    clock.advance(11)
    assert store.keep_room(room.teacher_key)["stand_ins"] == 1
    views = [store.seat_view(k) for k in seats.values()]
    # both students are away: the stand-ins play the game out, and the export says so
    assert views[0].status == "finished" and sorted(views[0].kinds) == ["stand-in", "stand-in"]
    assert {row["actor"] for row in store.export(room.teacher_key).bids} == {"stand-in"}


# --------------------------------------------------------------- pairing ---
def test_a_round_robin_seats_every_pair_once(store):
    room = store.create_room("goofspiel", {"num_cards": 2}, auto_pair=False)
    players = [store.join(room.code, n) for n in ("Ann", "Bob", "Cy", "Dee")]
    assert store.start_round_robin(room.teacher_key, seed=4) == 3
    met = set()
    for round_number in (1, 2, 3):
        overview = store.overview(room.teacher_key)
        assert overview.round == round_number
        current = [t for t in overview.tables if t["status"] == "playing"]
        assert len(current) == 2
        met |= {frozenset(t["names"]) for t in current}
        play_out(store, [store.claim_seat(p.player_key).seat_key for p in players])
        store.keep_schedule(players[0].player_key)
    assert len(met) == 6
    assert store.overview(room.teacher_key).round == 3 and not store.keep_schedule(players[0].player_key)["next_round"]


def test_auto_pairing_seats_students_as_they_arrive(store):
    room = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=True)
    ann = store.join(room.code, "Ann")
    assert store.keep_schedule(ann.player_key)["paired"] == 0
    store.join(room.code, "Bob")
    assert store.keep_schedule(ann.player_key)["paired"] == 1
    assert store.claim_seat(ann.player_key) is not None


def test_auto_pairing_lets_students_read_their_result_first(store, clock):
    room = store.create_room("goofspiel", {"num_cards": 2}, auto_pair=True)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    assert store.keep_schedule(ann.player_key)["paired"] == 1
    play_out(store, [store.claim_seat(p.player_key).seat_key for p in (ann, bob)])
    clock.advance(10)
    assert store.keep_schedule(ann.player_key)["paired"] == 0  # 10 s after the game: still reading
    clock.advance(6)
    assert store.keep_schedule(ann.player_key)["paired"] == 1  # 16 s: the next pairing
    assert store.pair_waiting(room.teacher_key) == []  # the teacher's button finds nobody left waiting


def test_challenges_and_rematches(store):
    room = store.create_room("goofspiel", {"num_cards": 2}, pairing="challenge", auto_pair=False)
    ann, bob, cy = (store.join(room.code, n) for n in ("Ann", "Bob", "Cy"))
    with pytest.raises(RoomError, match="yourself"):
        store.challenge(ann.player_key, "Ann")
    first = store.challenge(ann.player_key, "cy")
    assert store.answer_challenge(cy.player_key, first, accept=False) is None
    second = store.challenge(ann.player_key, "Bob")
    assert store.lobby(bob.player_key).challenges_to_me[0]["name"] == "Ann"
    with pytest.raises(RoomError, match="Ann has already challenged you: accept that challenge"):
        store.challenge(bob.player_key, "Ann")  # a second, reverse challenge: one pair, one challenge
    with pytest.raises(RoomError, match="not made to you"):
        store.answer_challenge(cy.player_key, second, accept=True)
    table = store.answer_challenge(bob.player_key, second, accept=True, seed=1)
    keys = [store.claim_seat(p.player_key) for p in (ann, bob)]
    assert {k.table for k in keys} == {table}
    play_out(store, [k.seat_key for k in keys])
    assert store.ask_rematch(keys[0].seat_key) is None  # Bob has not asked yet
    again = store.ask_rematch(keys[1].seat_key)
    new_keys = [store.claim_seat(p.player_key) for p in (ann, bob)]
    assert {k.table for k in new_keys} == {again} and again != table
    assert {k.seat for k in new_keys} == {0, 1} and new_keys[0].seat != keys[0].seat  # seats turned


def test_room_settings_are_checked(store):
    with pytest.raises(OptionError, match="pairing"):
        store.create_room("goofspiel", pairing="swiss")
    with pytest.raises(OptionError, match="cannot play"):
        store.create_room("raj", bot="match-prize")
    with pytest.raises(OptionError, match="unknown game"):
        store.create_room("chess")
    room = store.create_room("goofspiel", {"num_cards": 3})
    assert store.update_settings(room.teacher_key, timeout=15).timeout == 15
    with pytest.raises(OptionError, match="5 to 3600"):
        store.update_settings(room.teacher_key, timeout=1)


@pytest.mark.parametrize("game, options", [
    ("gops-for-three", {"deals": 1}),
    ("raj", {}),
    ("divide-and-conquer", {}),
    ("goofspiel", {"players": 3, "num_cards": 4, "ties": "carry"}),
])
def test_every_kind_of_game_plays_through_the_store(store, game, options):
    room = store.create_room(game, options, bot="random", auto_pair=False)
    ann = store.join(room.code, "Ann")
    store.pair_waiting(room.teacher_key, seed=1)
    seat = store.claim_seat(ann.player_key)
    last = play_out(store, [seat.seat_key])
    assert last.status == "finished"
    record = store.export(room.teacher_key).records()[0]
    assert list(replay_record(record).scores()) == list(last.scores)


# ------------------------------------------------ look-alike names, odd input ---
CYRILLIC_A, GREEK_ALPHA, GREEK_NU = "\u0410", "\u0391", "\u039d"


@pytest.mark.parametrize("twin", [
    CYRILLIC_A + "nn",                  # a Cyrillic A in a Latin word: refused even alone
    GREEK_ALPHA + GREEK_NU + GREEK_NU,   # all Greek capitals, drawn exactly like ANN
    "\uff21\uff4e\uff4e",               # full-width Ａｎｎ
    "ANN",
])
def test_a_name_that_looks_like_one_in_the_room_is_refused(store, twin):
    room = store.create_room("goofspiel", {"num_cards": 3})
    store.join(room.code, "Ann")
    with pytest.raises(RoomError, match="taken|mixes Latin letters"):
        store.join(room.code, twin)
    assert [p["name"] for p in store.overview(room.teacher_key).players] == ["Ann"]


def test_a_mixed_alphabet_word_is_refused_with_the_letter_named(store):
    room = store.create_room("goofspiel", {"num_cards": 3})
    with pytest.raises(RoomError, match="mixes Latin letters with Cyrillic ones"):
        store.join(room.code, CYRILLIC_A + "nn")
    store.join(room.code, "Ann")
    with pytest.raises(RoomError, match="it looks just like 'Ann'"):
        store.join(room.code, GREEK_ALPHA + GREEK_NU + GREEK_NU)


@pytest.mark.parametrize("twin", [
    "Ann\u034f",        # combining grapheme joiner
    "Ann\u3164",        # Hangul filler (a letter that draws nothing)
    "A\ufe0fnn",        # variation selector
    "Ann\u2800",        # blank Braille pattern
    "An\U000e0100n",    # variation selector supplement
])
def test_a_character_that_draws_nothing_cannot_make_a_second_ann(store, twin):
    room = store.create_room("goofspiel", {"num_cards": 3})
    store.join(room.code, "Ann")
    with pytest.raises(RoomError, match="the name 'Ann' is taken"):
        store.join(room.code, twin)
    assert [p["name"] for p in store.overview(room.teacher_key).players] == ["Ann"]


@pytest.mark.parametrize("name, words", [
    ('=HYPERLINK("x")', "cannot start with '='"),
    ("+1 555", "cannot start with '+'"),
    ("-2+3", "cannot start with '-'"),
    ("@SUM(A1)", "cannot start with '@'"),
    ("Z" + "\u0336" * 12, "more than 3 accents or marks"),
])
def test_names_a_spreadsheet_would_run_or_drawn_over_the_page_are_refused(store, name, words):
    room = store.create_room("goofspiel", {"num_cards": 3})
    with pytest.raises(RoomError, match=re.escape(words)) as refused:
        store.join(room.code, name)
    assert "start it with a letter or a digit" in str(refused.value) or "one accent or two" in str(refused.value)
    fine = ["Nguy\u1ec5n V\u0103n", "Jean-Luc", "O'Brien", "\u0915\u094d\u0937\u0924\u094d\u0930\u093f\u092f"]
    assert [store.join(room.code, name).name for name in fine] == fine
    assert sorted(p["name"] for p in store.overview(room.teacher_key).players) == sorted(fine)


def test_the_export_never_hands_a_spreadsheet_a_formula(store):
    room, players, seats = seat_two(store)
    # a name stored by an older kit, before joining refused it
    store.db.run(lambda tx: tx.run("UPDATE players SET name = ? WHERE name = ?", ('=HYPERLINK("http://x","Ann")', "Ann")))
    play_out(store, list(seats.values()))
    rows = list(csv.DictReader(io.StringIO(store.export(room.teacher_key).bids_csv())))
    assert rows and {r["player"] for r in rows} == {"'=HYPERLINK(\"http://x\",\"Ann\")", "Bob"}


def test_names_in_other_alphabets_join_and_can_be_challenged(store):
    room = store.create_room("goofspiel", {"num_cards": 2}, pairing="challenge", auto_pair=False)
    ann = store.join(room.code, "Ann")
    anna = store.join(room.code, "\u0410\u043d\u043d\u0430")  # Анна: Cyrillic, not a look-alike of Ann
    sofia = store.join(room.code, "\u03a3\u03bf\u03c6\u03af\u03b1")  # Σοφία
    assert {anna.name, sofia.name} == {"\u0410\u043d\u043d\u0430", "\u03a3\u03bf\u03c6\u03af\u03b1"}
    assert store.challenge(ann.player_key, "\u03a3\u03bf\u03c6\u03af\u03b1")
    assert store.challenge(anna.player_key, "ann")  # (Sofia may not: Ann has already challenged her)


@pytest.mark.parametrize("ply, fragment", [("0", "turn number"), (1.0, "turn number"), (True, "turn number"),
                                           (-1, "turn number")])
def test_submit_with_a_badly_typed_ply_is_a_clear_refusal(store, ply, fragment):
    room, players, seats = seat_two(store)
    before = store.seat_view(seats["Ann"])
    move = before.observation["legal_moves"][0]
    with pytest.raises(IllegalMoveError, match=fragment):
        store.submit(seats["Ann"], move, ply=ply)
    assert store.seat_view(seats["Ann"]).my_move is None


def test_submit_of_garbage_moves_is_a_clear_refusal(store):
    import numpy as np

    room, players, seats = seat_two(store)
    for garbage in (np.array([1, 2]), 1.5, None, {"card": 1}, [1]):
        with pytest.raises(IllegalMoveError, match="not a move"):
            store.submit(seats["Ann"], garbage)
    view = store.submit(seats["Ann"], np.int64(store.seat_view(seats["Ann"]).observation["legal_moves"][0]), ply=np.int64(0))
    assert view.my_move is not None


def test_a_move_too_big_to_print_is_refused_with_a_message(store):
    room, players, seats = seat_two(store)
    for huge in (10**5000, -(10**5000)):  # Python will not even write these in decimal
        with pytest.raises(IllegalMoveError, match="more than 12 digits cannot be played now; playable: 1, 2, 3, 4"):
            store.submit(seats["Ann"], huge)
    with pytest.raises(IllegalMoveError, match=r"^'xxx.*\.\.\. cannot be played now") as refused:
        store.submit(seats["Ann"], "x" * 1_000_000)
    assert len(str(refused.value)) < 200
    assert store.seat_view(seats["Ann"]).my_move is None


def test_a_room_takes_a_bounded_number_of_students(store, monkeypatch):
    from gopskit.classroom import rooms

    monkeypatch.setattr(rooms, "MAX_PLAYERS", 3)
    room = store.create_room("goofspiel", {"num_cards": 3})
    for name in ("Ann", "Bob", "Cy"):
        store.join(room.code, name)
    with pytest.raises(RoomError, match=r"is full: it has 3 students, the most one room takes; ask your teacher"):
        store.join(room.code, "Dee")
    assert len(store.overview(room.teacher_key).players) == 3


def count_writes(store) -> list:
    """Record, from now on, whether each transaction of ``store`` was a write (True) or a read."""
    kinds, run = [], store.db.run

    def counted(work, write=True):
        kinds.append(write)
        return run(work, write)

    store.db.run = counted
    return kinds


def test_a_flood_of_beats_and_clicks_does_not_take_the_write_lock(store, clock):
    """A hostile page can send a message a millisecond: repeated beats and unplayable clicks only read."""
    room, players, seats = seat_two(store)
    ann = seats["Ann"]
    move = store.seat_view(ann).observation["legal_moves"][0]
    store.submit(ann, move, 0)
    clock.advance(0.5)
    writes = count_writes(store)
    for _ in range(200):
        store.heartbeat(players["Ann"].player_key)
        with pytest.raises(StaleMoveError, match="you already played"):
            store.submit(ann, move, 0)
        with pytest.raises(StaleMoveError, match="moved on to turn 1"):
            store.submit(ann, move, 5)
    assert writes.count(True) == 0
    clock.advance(1)
    store.heartbeat(players["Ann"].player_key)  # a beat a second later is written: presence stays exact
    assert writes.count(True) == 1
    before = store.overview(room.teacher_key).players
    assert [p["seen_ago"] for p in before if p["name"] == "Ann"] == [0]


def test_the_name_skeleton_examples_hold():
    import doctest

    from gopskit.classroom import names

    result = doctest.testmod(names)
    assert result.attempted >= 4 and result.failed == 0


HOSTILE = [None, 1.5, -1, b"abc", ["a"], {"a": 1}, "x" * 10_000, "'; DROP TABLE rooms; --"]


def test_hostile_arguments_get_clear_errors_and_change_nothing(store):
    """Every call a page can make refuses junk with a GopsError (never a driver or numpy error)."""
    import numpy as np

    from gopskit.errors import GopsError

    room = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False, pairing="challenge")
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    calls = [
        lambda g: store.claim_seat(ann.player_key, g),
        lambda g: store.answer_challenge(bob.player_key, g, True),
        lambda g: store.answer_challenge(bob.player_key, "x", g),
        lambda g: store.pair_waiting(room.teacher_key, seed=g),
        lambda g: store.create_room(g, {}),
        lambda g: store.create_room("goofspiel", g),
        lambda g: store.challenge(ann.player_key, g),
        lambda g: store.heartbeat(g),
    ]
    for call in calls:
        for junk in HOSTILE + [np.array([0.5, 1.5])]:
            if junk is None and call in (calls[0], calls[3], calls[5]):
                continue  # None is a real default there
            with pytest.raises(GopsError):
                call(junk)
    assert sorted(p["name"] for p in store.overview(room.teacher_key).players) == ["Ann", "Bob"]
    assert store.overview(room.teacher_key).tables == ()


# ------------------------------------------------------------ open rooms ---
def open_rooms(store) -> int:
    return store.db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM rooms WHERE status = 'open'")["n"], write=False)


def test_a_store_keeps_a_bounded_number_of_open_rooms(store, clock):
    """A page reloaded again and again opens at most MAX_OPEN_ROOMS rooms; then a clear refusal, nothing written."""
    from gopskit.classroom import rooms

    teacher_keys = [store.create_room("goofspiel", {"num_cards": 3}).teacher_key for _ in range(rooms.MAX_OPEN_ROOMS)]
    assert rooms.MAX_OPEN_ROOMS == 200 and open_rooms(store) == 200
    full = (r"the classroom store already has 200 open rooms, the most it keeps at once; nothing was opened\. End the "
            r"rooms that are over \(“End room” on their teacher's page, gopskit classroom end KEY, or gopskit classroom "
            r"close-idle --minutes 30 for every room unused for half an hour\), then try again; "
            r"a room nobody has used for 12 hours closes by itself")
    with pytest.raises(RoomError, match=full):
        store.create_room("goofspiel", {"num_cards": 3})
    total = store.db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM rooms")["n"], write=False)
    assert total == 200
    store.end_room(teacher_keys[0])  # a room that is over frees its place
    store.create_room("goofspiel", {"num_cards": 3})
    with pytest.raises(RoomError, match=full):
        store.create_room("goofspiel", {"num_cards": 3})


def test_rooms_idle_for_hours_are_closed_when_a_room_is_opened(store, clock):
    from gopskit.classroom import rooms

    idle = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    played = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    waited = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    ann, bob = store.join(played.code, "Ann"), store.join(waited.code, "Bob")
    store.pair_waiting(played.teacher_key, seed=1)  # Ann plays the bot
    seat = store.claim_seat(ann.player_key)
    clock.advance(rooms.IDLE_ROOM_HOURS * 3600 - 60)
    store.heartbeat(bob.player_key)  # Bob's page is still open, a minute before the hours are up
    view = store.seat_view(seat.seat_key)
    store.submit(seat.seat_key, view.observation["legal_moves"][0], view.ply)  # a turn begins at the table
    clock.advance(120)
    fresh = store.create_room("goofspiel", {"num_cards": 3})
    status = {keys.code: store.overview(keys.teacher_key).status for keys in (idle, played, waited, fresh)}
    assert status == {idle.code: "ended", played.code: "open", waited.code: "open", fresh.code: "open"}
    assert store.lobby(bob.player_key).status == "open"
    clock.advance(rooms.IDLE_ROOM_HOURS * 3600 + 1)  # then nobody comes back
    store.create_room("goofspiel", {"num_cards": 3})
    assert [store.overview(k.teacher_key).status for k in (played, waited, fresh)] == ["ended"] * 3
    assert store.seat_view(seat.seat_key).status == "ended"  # the unfinished game stopped, its moves kept
    assert open_rooms(store) == 1


def test_two_teachers_at_once_cannot_both_take_the_last_place(store_url, clock):
    """Pages in other kernels (their own connections) open rooms at the same moment: one gets the last place."""
    import threading

    from gopskit.classroom import ClassroomStore, rooms

    first = ClassroomStore(store_url, clock=clock)
    for _ in range(rooms.MAX_OPEN_ROOMS - 1):
        first.create_room("goofspiel", {"num_cards": 3})
    pages = [ClassroomStore(store_url, clock=clock) for _ in range(6)]
    start, outcomes = threading.Barrier(len(pages)), []

    def open_one(page):
        start.wait()
        try:
            outcomes.append(page.create_room("goofspiel", {"num_cards": 3}).code)
        except RoomError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=open_one, args=(page,)) for page in pages]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(len(o) == 6 for o in outcomes) == 1 and open_rooms(first) == rooms.MAX_OPEN_ROOMS, outcomes
    for page in [first, *pages]:
        page.close()
