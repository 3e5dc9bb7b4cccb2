"""The classroom pages without a browser: the HTML they show and the apps driven by their methods.

A :class:`TeacherApp` and two :class:`StudentApp` objects share one store
file, as three Voila kernels would; ``tick()`` is what each page's poller
calls, so the tests call it by hand.
"""

from __future__ import annotations

import html
import json
import subprocess
import sys

import pytest

from gopskit.classroom import ClassroomStore
from gopskit.classroom import html as pages
from gopskit.classroom.reports import leaderboard
from gopskit.cards import card_name
from gopskit.widgets.classroom import StudentApp, TeacherApp
from gopskit.widgets.views.base import final_status


# ----------------------------------------------------------------- html ---
def test_names_are_escaped_everywhere_a_page_shows_them(tmp_path):
    store = ClassroomStore(str(tmp_path / "c.sqlite3"))
    room = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    evil = store.join(room.code, "<img src=x onerror=f()>")
    store.join(room.code, "Bob")
    store.pair_waiting(room.teacher_key, seed=1)
    shown = pages.lobby_html(store.lobby(evil.player_key)) + pages.overview_html(store.overview(room.teacher_key))
    assert "<img src=x" not in shown and "&lt;img src=x" in shown


def test_a_table_card_hides_scores_the_players_cannot_see(tmp_path):
    store = ClassroomStore(str(tmp_path / "c.sqlite3"))
    room = store.create_room("goofspiel", {"num_cards": 3, "face_down_trophies": True}, auto_pair=False)
    ann = store.join(room.code, "Ann")
    store.pair_waiting(room.teacher_key, seed=1)
    seat = store.claim_seat(ann.player_key).seat_key
    view = store.seat_view(seat)
    store.submit(seat, view.observation["hand"][-1], view.ply)
    [table] = store.overview(room.teacher_key).tables
    assert table["scores"] is None and "<td>?</td>" in pages.table_card_html(table)
    while (view := store.seat_view(seat)).status == "playing":
        store.submit(seat, view.observation["hand"][0], view.ply)
    [table] = store.overview(room.teacher_key).tables
    assert table["scores"] == list(view.scores) and "?" not in pages.table_card_html(table)


def test_room_code_and_leaderboard_html():
    assert ">KQ7<span>-</span>F3M<" in pages.room_code_html("KQ7F3M")
    tables = [{"status": "finished", "names": ["Ann", "Bob"], "kinds": ["student", "student"], "people": ["a", "b"],
               "scores": [3, 3], "winners": [0, 1]},
              {"status": "finished", "names": ["Bob", "bot (bot)"], "kinds": ["student", "bot"], "people": ["b", None],
               "scores": [5, 1], "winners": [0]}]
    rows = leaderboard(tables)
    assert [(r["name"], r["wins"], r["games"]) for r in rows] == [("Bob", 1.5, 2), ("Ann", 0.5, 1)]
    assert "<td>1½</td>" in pages.leaderboard_html(rows) and pages.leaderboard_html([]).startswith("<div")
    assert "<td>4.00</td>" in pages.leaderboard_html(rows)  # Bob's points per game, two decimals as in the tournament table


# ----------------------------------------------------------------- apps ---
@pytest.fixture
def classroom(tmp_path):
    url = str(tmp_path / "class.sqlite3")
    teacher = TeacherApp(url, export_folder=tmp_path)
    teacher._controls["num_cards"][1].value = 3
    teacher.create()
    ann, bob = StudentApp(url), StudentApp(url)
    ann.join("Ann", teacher.code)
    bob.join("Bob", teacher.code.lower())
    for app in (teacher, ann, bob):
        app.tick()
    return teacher, ann, bob


def _turn(first, second):
    for app in (first, second):
        board = app.board
        board.click_card(board.seat_view.observation["legal_moves"][-1])
        assert "You chose" in board.status
        board.confirm()


def test_teacher_and_two_students_play_a_game(classroom, tmp_path):
    teacher, ann, bob = classroom
    assert teacher.code and ann.phase == bob.phase == "table"
    assert "choose your bid" in ann.board.status and "choose your bid" in bob.board.status
    ann.board.click_card(ann.board.seat_view.observation["legal_moves"][0])
    ann.board.confirm()
    assert "Waiting for Bob" in ann.board.status
    bob.tick()
    assert bob.board.seat_view.observation["history"] == []  # Ann's bid is not shown to Bob
    bob.board.click_card(3)
    bob.board.confirm()
    ann.tick()
    assert ann.board.turn == 1 and len(ann.board.seat_view.observation["history"]) == 1
    for _ in range(2):
        _turn(ann, bob)
        ann.tick()
    assert ann.board.finished and ann.board.status.startswith("Game over") and bob.board.status == ann.board.status
    assert [b.description for b in ann._after.children] == ["Rematch", "Back to the lobby"]
    shown = ann._after.children
    for _ in range(3):  # each redraw after the game shows the same two buttons: none is made (and left open) again
        ann._redraw()
    assert all(a is b for a, b in zip(ann._after.children, shown)) and len(ann._after.children) == 2
    teacher.tick()
    assert [r["name"] for r in teacher.overview.leaderboard] in (["Ann", "Bob"], ["Bob", "Ann"])
    path = teacher.export()
    assert path.exists() and "gopskit-download" in teacher._download.value
    assert "Exported 1 game and 6 moves." in teacher._message.value  # 3 turns of 2 bids, in words, not 'game(s)'
    assert teacher.last_error is ann.last_error is bob.last_error is None


def test_a_rematch_when_both_ask(classroom):
    teacher, ann, bob = classroom
    for _ in range(3):
        _turn(ann, bob)
        ann.tick()
    first = ann.board.seat_view.table
    ann.ask_rematch()
    assert "waiting for the others" in ann._message.value
    bob.ask_rematch()
    ann._seen["finished"] = (first, -1e9)  # the result has been on screen long enough
    ann.tick()
    assert ann.board.seat_view.table != first and ann.board.seat_view.status == "playing"


def _button_of(board, move):
    """The hand row's button that shows ``move`` now (what a browser click on that card reaches)."""
    [button] = [slot[2] for card, slot in zip(board._cards, board._slots) if card.move == move]
    return button


def test_a_double_click_acts_once_and_never_on_the_card_that_moved_into_its_place(classroom):
    """The browser sends both clicks of a double click before the page redraws: the second names the card it hit."""
    teacher, ann, bob = classroom
    board = ann.board
    first = _button_of(board, 1)
    first.click()
    confirm = board._confirm
    confirm.click()
    confirm.click()  # the second click of a double click on Confirm, sent before it was greyed
    first.click()  # and a late click on the card just bid
    assert board.seat_view.my_move == 1 and "Waiting for Bob" in board.status and board.last_error is None
    bob.board.click_card(3)
    bob.board.confirm()
    ann.tick()
    assert board.turn == 1 and [c.move for c in board._cards] == [2, 3]
    first.click()  # a click that left the browser before the Ace left the hand: nothing, not the 2 now first
    assert board.selected is None and "choose your bid" in board.status
    assert not first.comm, "the slot of a card that left the hand is closed, not kept"
    assert len(board._slot_by_key) == 2


def test_bad_clicks_show_a_message_and_change_nothing(classroom):
    teacher, ann, bob = classroom
    ann.board.click_card(99)
    assert "cannot be played" in ann.board.status
    ann.board.confirm()
    assert "choose a card first" in ann.board.status
    ann.board.click_card(1)
    ann.board.confirm()
    ann.board.click_card(2)
    assert "not your turn" in ann.board.status
    assert ann.board.last_error is None and ann.board.seat_view.my_move == 1


def test_a_reloaded_page_resumes_from_the_browser_storage(classroom, tmp_path):
    teacher, ann, bob = classroom
    saved = ann.bridge.to_save
    assert json.loads(saved)["room"] == teacher.code
    again = StudentApp(str(tmp_path / "class.sqlite3"))  # the page after a reload: a new kernel
    again.bridge.saved = saved  # what the browser hands back
    again.bridge.loaded = True
    assert again.phase == "table" and again.board.seat_view.seat == ann.board.seat_view.seat
    ann.tick()
    assert "another page" in ann._message.value  # the old page gave up the seat


def test_ending_the_room_takes_two_clicks_and_reaches_the_students(classroom):
    teacher, ann, bob = classroom
    teacher.end()
    assert "again" in teacher._message.value and teacher.store.overview(teacher.teacher_key).status == "open"
    teacher.end()
    assert teacher.store.overview(teacher.teacher_key).status == "ended"
    ann.tick()
    assert ann.phase == "ended" and "ended" in ann._message.value and "ended" in ann.board.status


def test_the_teacher_page_reopens_its_room_from_the_browser_storage(classroom, tmp_path):
    teacher, ann, bob = classroom
    again = TeacherApp(str(tmp_path / "class.sqlite3"))
    again.bridge.saved = teacher.bridge.to_save
    again.bridge.loaded = True
    assert again.code == teacher.code and len(again.overview.players) == 2


def test_join_errors_are_shown_not_raised(tmp_path):
    app = StudentApp(str(tmp_path / "c.sqlite3"))
    app.join("Ann", "ZZZZZZ")
    assert "no room" in app._message.value and app.phase == "join" and app.last_error is None


def test_the_apps_notebooks_run_in_a_kernel_without_touching_the_store(tmp_path):
    code = ("import os; os.environ['GOPSKIT_CLASSROOM_DB'] = {!r}; "
            "from gopskit.widgets.classroom import student_app, teacher_app; "
            "student_app(); teacher_app(); print(os.path.exists({!r}))").format(
        str(tmp_path / "never.sqlite3"), str(tmp_path / "never.sqlite3"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"  # opening the pages creates no database: only joining or a room does


@pytest.mark.parametrize("game, options", [("raj", {}), ("gops-for-three", {"deals": 1}), ("divide-and-conquer", {})])
def test_the_student_page_plays_other_games_with_their_own_boards(tmp_path, game, options):
    url = str(tmp_path / "c.sqlite3")
    store = ClassroomStore(url)
    room = store.create_room(game, options, bot="random", auto_pair=False)
    app = StudentApp(url)
    app.join("Ann", room.code)
    store.pair_waiting(room.teacher_key, seed=3)
    app.tick()
    for _ in range(500):
        view = app.board.seat_view
        if view.status != "playing":
            break
        assert view.my_turn, app.board.status
        app.board.click_card(view.observation["legal_moves"][0])
        if app.board.view.confirm:
            app.board.confirm()
        assert app.board.last_error is None and app.last_error is None, app.board.status
    assert app.board.finished and app.board.status.startswith("Game over")
    assert "Ann (you)" in app.board._table.value


# ------------------------------------------------- issue 12: what the pages say ---
def _finish(ann, bob):
    while ann.board.seat_view.status == "playing":
        _turn(ann, bob)
        ann.tick()
    bob.tick()


def test_the_room_code_has_one_form_on_every_page_and_both_forms_join(classroom, tmp_path):
    teacher, ann, bob = classroom
    shown = pages.code_text(teacher.code)
    assert len(shown) == 7 and shown[3] == "-" and shown.replace("-", "") == teacher.code
    assert f"room code {shown}" in teacher._code_html.value
    for student in (ann, bob):
        assert f"Room {shown}<" in student._lobby.value and teacher.code not in student._lobby.value
    carl, dan = StudentApp(str(tmp_path / "class.sqlite3")), StudentApp(str(tmp_path / "class.sqlite3"))
    carl.join("Carl", shown.lower())  # with the dash, as the projector shows it
    dan.join("Dan", teacher.code)  # without it
    assert carl.phase == dan.phase == "lobby" and f"room {shown}." in carl._message.value
    lost = StudentApp(str(tmp_path / "class.sqlite3"))
    lost.join("Eve", "zzzzzz")  # the messages write a code the same way
    assert "no room ZZZ-ZZZ" in lost._message.value
    lost.join("Carl", shown)
    assert f"taken in room {shown}" in lost._message.value


def test_after_a_game_the_lobby_says_game_over_not_wait_to_be_seated(classroom):
    teacher, ann, bob = classroom
    teacher.store.update_settings(teacher.teacher_key, auto_pair=False)  # no new table: the lobby between games
    _finish(ann, bob)
    ann._refresh_lobby()
    lobby = ann._lobby.value
    assert ann.board.status.startswith("Game over")
    assert "Game over" in lobby and "will seat you" not in lobby, lobby
    assert "between games · 1 played" in lobby and ">waiting<" not in lobby


def test_the_teacher_form_counts_seats_from_player_1_and_explains_every_number(tmp_path):
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"))
    dealer = teacher._controls["dealer"][1]
    assert dealer.options[0] == ("Player 1", 0) and dealer.value == 0
    target = teacher._controls["target"][1]
    assert "0: one hand" in target.description  # "Match to 0" says what 0 means, in its label
    assert "0: one hand" not in teacher._hinted["target"].hint.value  # and its hint does not say it twice
    dealer_box = next(b for b in teacher._options_box.children if dealer in b.children)
    assert dealer_box.layout.display == "none"  # only Defeat the Dealer has a dealer
    teacher._controls["defeat_the_dealer"][1].value = True
    assert dealer_box.layout.display is None
    dealer.value = 1
    assert teacher.options()["dealer"] == 1 and teacher.options()["defeat_the_dealer"] is True
    for control in (teacher._timeout, teacher._pairing, teacher._bot, teacher._game):
        assert control.style.description_width == "initial", control.description  # never "Away afte…"


def test_the_teacher_form_says_which_bids_of_the_equilibrium_bot_are_estimates(tmp_path, monkeypatch):
    from gopskit.agents.equilibrium import EquilibriumBot
    from gopskit.games.goofspiel import Goofspiel
    from gopskit.solvers import storage

    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))  # no complete solution of this machine's counts
    monkeypatch.setattr(storage, "_MEMORY", {})
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"))
    hint = lambda: teacher._bot_hinted.hint.value  # noqa: E731
    teacher._controls["num_cards"][1].value = 12
    assert "estimate" not in hint()  # the default bot says nothing more
    teacher._bot.value = "equilibrium"
    note = EquilibriumBot().seat_note(Goofspiel(num_cards=12))
    assert note.startswith("Equilibrium bot: its first 2 bids are estimates") and html.escape(note) in hint()
    teacher._controls["num_cards"][1].value = 10  # every bid exact: the hint is the bot's plain one again
    assert "estimate" not in hint() and "plays the seats no student fills" in hint()


@pytest.mark.parametrize("page, expected", [
    ("http://10.1.2.3:8866/voila/render/classroom-teacher.ipynb", "http://10.1.2.3:8866/voila/render/classroom.ipynb"),
    ("https://hub.school/user/ms-k/voila/render/classroom-teacher.ipynb?x=1",
     "https://hub.school/hub/user-redirect/voila/render/classroom.ipynb"),  # each student's own server
])
def test_the_teacher_page_shows_the_address_students_open(tmp_path, page, expected):
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"))
    teacher.create()
    teacher.bridge.page_url = page  # what the teacher's browser reports
    assert f'href="{expected}"' in teacher._code_html.value and "localhost" not in teacher._code_html.value


@pytest.mark.parametrize("served_beyond", [None, "1", "0"])
def test_a_teacher_on_localhost_is_told_what_students_open(tmp_path, monkeypatch, served_beyond):
    """Under ``gopskit serve`` the page knows whether students can reach the server; elsewhere it says when they can."""
    import gopskit.widgets.classroom as app_module
    from gopskit.classroom.tokens import SERVED_BEYOND_ENV

    if served_beyond is None:
        monkeypatch.delenv(SERVED_BEYOND_ENV, raising=False)
    else:
        monkeypatch.setenv(SERVED_BEYOND_ENV, served_beyond)
    monkeypatch.setattr(app_module, "network_addresses", lambda: ["192.168.7.20"])
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"))
    teacher.create()
    teacher.bridge.page_url = "http://localhost:8866/voila/render/classroom-teacher.ipynb"
    shown = teacher._code_html.value
    lan = "http://192.168.7.20:8866/voila/render/classroom.ipynb"
    # the sentence reads on: the address, then "and type the room code", then the code; a note comes after
    assert shown.index("Students open") < shown.index("and type the room code") < shown.index("gopskit-room-code")
    if served_beyond == "1":  # served to the network (--host 0.0.0.0): the addresses, and nothing to fix
        assert lan in shown and "gopskit-hint" not in shown
    elif served_beyond == "0":  # served to this computer only: no address would work, and the page says so
        assert lan not in shown and "no student can reach them" in shown and "--host 0.0.0.0" in shown
        assert shown.index("gopskit-room-code") < shown.index("no student can reach them")
    else:
        assert lan in shown and "only if the apps were started with" in shown and "--host 0.0.0.0" in shown


def test_join_waits_for_the_browser_link_and_cannot_join_twice(tmp_path):
    import asyncio

    async def page_in_a_kernel():
        app = StudentApp(str(tmp_path / "c.sqlite3"))
        before = (app._join_button.disabled, app._join_button.description)
        app.bridge.loaded = True  # the browser's side of the page is connected
        return app, before

    app, before = asyncio.run(page_in_a_kernel())
    assert before == (True, "Connecting…")  # a click now would be lost: the button says so
    assert not app._join_button.disabled and app._join_button.description == "Join"
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"))
    teacher.create()
    app.join("Ann", teacher.code)
    assert app.phase == "lobby" and app.last_error is None
    app.join("Ann", teacher.code)  # a second click that was queued behind the first
    assert "taken" not in app._message.value and "Welcome" in app._message.value
    assert len(teacher.store.overview(teacher.teacher_key).players) == 1


def test_a_page_saved_in_a_room_that_has_ended_offers_the_join_form_again(tmp_path):
    url = str(tmp_path / "c.sqlite3")
    old = TeacherApp(url)
    old.create()
    ann = StudentApp(url)
    ann.join("Ann", old.code)
    saved = ann.bridge.to_save
    old.end()
    old.end()
    today = StudentApp(url)  # the next lesson, the same browser: its storage still holds last week's key
    today.bridge.saved = saved
    today.bridge.loaded = True
    assert today.phase == "join" and today._join_box.layout.display != "none"
    assert "has ended" in today._message.value
    room = TeacherApp(url)
    room.create()
    today.join("Ann", room.code)
    assert today.phase == "lobby" and today.room == room.code


def _play_alone_against_bots(url, game, options, seed, each_turn=None):
    """A student seated with bots in a seeded room, clicking the first playable move to the end."""
    store = ClassroomStore(url)
    room = store.create_room(game, options, bot="random", auto_pair=False)
    app = StudentApp(url)
    app.join("Ann", room.code)
    store.pair_waiting(room.teacher_key, seed=seed)
    app.tick()
    for _ in range(500):
        board = app.board
        if board.seat_view.status != "playing":
            break
        if each_turn:
            each_turn(board)
        board.click_card(board.seat_view.observation["legal_moves"][0])
        if board.view.confirm and board.seat_view.my_turn:
            board.confirm()
        assert board.last_error is None and app.last_error is None, board.status
    assert app.board.finished
    return app.board


def test_a_match_cut_off_at_its_cap_says_so_as_the_ordinary_board_does(tmp_path):
    board = _play_alone_against_bots(str(tmp_path / "c.sqlite3"), "goofspiel",
                                     {"num_cards": 3, "target": 100, "max_hands": 2}, seed=3)
    state = board.seat_view.state
    assert state.cut_off()  # the engine: nobody reached 100 in two hands of three cards
    sentence = "Match cut off at its cap of 2 hands, before the target of 100 decided it."
    assert board.status.startswith(sentence) and "Game over" not in board.status
    assert "on the totals at the cut-off!" in board.status
    assert sentence in board._summary.value and "at the cut-off!</h3>" in board._summary.value
    assert board.status == final_status(board.seat_view.names, state.scores(), state.winners(),
                                        rule=board.view.end_rule_text(state), cut_off=board.view.cut_off_text(state))


def test_the_hand_row_names_cards_and_goose_choices_as_the_ordinary_boards_do(tmp_path):
    seen = {"cards": 0, "choices": 0}

    def check(board):
        cards = board.view.hand(board.seat_view.state, board.seat_view.seat)
        for card, (_box, face, button) in zip(cards, board._slots):
            if card.is_card:
                seen["cards"] += 1
                if card.suit:  # a suited card is named with its suit ("Q♠"), never by its rank alone
                    assert card.label() == card_name(card.move) != card.rank
                assert button.tooltip.startswith(f"Play {card.label()}") and f'data-name="{card.label()}"' in face.value
                assert "gopskit-cardface" in face.value and "gopskit-choice" not in face.value
            else:
                seen["choices"] += 1
                assert button.tooltip.startswith(f"Choose {card.label()}") and card.label().startswith("Player ")
                assert "gopskit-choice" in face.value and "gopskit-cardface" not in face.value
                assert "your Goose won. Who takes the trick?" in board._hand_label.value
        if cards and all(card.is_card for card in cards):
            assert board._hand_label.value == ""
        tooltips = [button.tooltip for _box, _face, button in board._slots[:len(cards)]]
        assert len(set(tooltips)) == len(tooltips)  # two 2s of different suits never read the same

    board = _play_alone_against_bots(str(tmp_path / "c.sqlite3"), "gooseberry-fool", {}, seed=3, each_turn=check)
    assert seen["cards"] > 20 and seen["choices"] >= 1, seen
    state = board.seat_view.state
    assert f"({board.view.end_rule_text(state)})" in board.status  # the middling-score rule, as on the board


def test_the_table_bots_think_in_a_thread_while_the_student_page_stays_live(tmp_path, monkeypatch):
    """A slow bot (a 13-card solve) works out its move beside the page: the draw returns at once, one thread at a time.

    The student's move sent while it still thinks is answered all the same,
    and the game goes on.
    """
    import threading

    from gopskit.classroom import gameplay

    release, started, calls = threading.Event(), threading.Event(), []
    real = gameplay.bots_due

    def slow(snap):
        calls.append(threading.current_thread().name)
        started.set()
        release.wait(30)
        real(snap)

    monkeypatch.setattr(gameplay, "bots_due", slow)
    url = str(tmp_path / "c.sqlite3")
    store = ClassroomStore(url)
    room = store.create_room("goofspiel", {"num_cards": 4}, bot="random", auto_pair=False)
    app = StudentApp(url)
    app.join("Ann", room.code)
    store.pair_waiting(room.teacher_key, seed=3)
    app.tick()  # the board draws the first turn: the bot starts thinking, and tick returns
    thread = app._thinking
    try:
        assert started.wait(10) and calls == ["gopskit-bots-think"]
        app.tick()
        app.board.click_card(app.board.seat_view.observation["legal_moves"][0])  # a redraw: no second thread
        assert calls == ["gopskit-bots-think"] and thread.is_alive()
        said, real_status = [], app.board._set_status
        monkeypatch.setattr(app.board, "_set_status", lambda text, error=False: (said.append(text), real_status(text, error)))
        if app.board.view.confirm:
            app.board.confirm()
        # while the move went, the bot still thinking: the page said so first
        assert said[0] == "Random bot is still working out its move: the cards are turned over as soon as it has."
        assert app.board.last_error is None and app.last_error is None, app.board.status
        assert len(app.board.seat_view.observation["hand"]) == 3  # the bot answered; turn 2 is on screen
    finally:
        release.set()
    thread.join(10)
    assert not thread.is_alive() and app._thinking is None
    assert calls == ["gopskit-bots-think"] * 2  # turn 2, drawn while it thought about turn 1: the same thread went on
