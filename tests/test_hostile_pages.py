"""A classroom page's browser side is the hostile network: what its hand-made client can send.

Each Voila page obeys its browser, and a hand-made client can set any value
of a page's widgets and click any button, disabled or not, as fast as its
connection allows. These tests send what such a client would, through the
widget's own message handler (the path a browser's message takes):

* the browser bridge hands back whatever it likes as the "saved" key and the
  page's address: anything that is not what the page saved is ignored,
  never raised inside the widget callback;
* a click that changes nothing (a rematch or a challenge asked again, a
  challenge already answered) is answered from a read: it never takes the
  store's write lock, which the whole class shares. Counted on SQLite and
  on a real PostgreSQL, with the test's own clock (no timing).
"""

from __future__ import annotations

import doctest
import html
import json
import logging
import re

import pytest
from test_classroom_store import count_writes
from test_classroom_support import clock, postgres_url, store_url  # noqa: F401  (fixtures)

from gopskit.classroom import ClassroomStore, RoomError
from gopskit.widgets import classroom as apps
from gopskit.widgets.classroom import StudentApp, TeacherApp


def said(app) -> str:
    """The page's message line as the student reads it (the HTML's entities undone)."""
    return html.unescape(re.sub(r"<[^>]*>", "", app._message.value))


def browser_sends(widget, **state) -> None:
    """What a browser's message does to a widget: an ``update`` of its synced state, through its own handler.

    ipywidgets' handler logs (and swallows) what a callback raises, as a kernel
    would: anything logged here is a callback that raised, and fails the test.
    """
    caught = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = caught.append
    log = logging.getLogger(widget.log.name)
    log.addHandler(handler)
    try:
        widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                            "buffers": []})
    finally:
        log.removeHandler(handler)
    assert not caught, f"a callback raised on {str(state)[:80]}: {caught[0].getMessage()[:300]}"


# --------------------------------------------------------- browser bridge ---
def _bad_saved(url: str, key_field: str) -> list[str]:
    good_key = "k" * 32
    return [
        "[1]", "null", "true", "5", '"text"', "{", "not json at all", "1e999999", "[" * 5000, "{}",
        '{"player_key": 5}', '{"teacher_key": 5}',
        json.dumps({"store": url, key_field: 5}),
        json.dumps({"store": url, key_field: ["a" * 20]}),
        json.dumps({"store": url, key_field: {"a": 1}}),
        json.dumps({"store": url, key_field: None}),
        json.dumps({"store": url, key_field: "short"}),
        json.dumps({"store": url, key_field: "k" * 10_000}),  # too long for a key (and for the bridge)
        json.dumps({"store": url, key_field: "key with spaces and ; quotes'"}),
        json.dumps({"store": 7, key_field: good_key}),
        json.dumps({"store": [url], key_field: good_key}),
        json.dumps({key_field: good_key}),
        json.dumps({"store": url, key_field: good_key, "pad": "x" * 3_000_000}),  # megabytes of JSON
        "\x00\ud800 junk",
    ]


def test_a_student_page_ignores_whatever_else_the_browser_hands_back(tmp_path):
    url = str(tmp_path / "c.sqlite3")
    teacher = TeacherApp(url, bridge=False)
    teacher.create()
    for saved in _bad_saved(url, "player_key"):
        app = StudentApp(url)
        browser_sends(app.bridge, saved=saved, loaded=True)
        assert app.last_error is None, (saved[:40], app.last_error)
        assert app.phase == "join" and app.player_key is None and app._join_box.layout.display != "none"
        assert "gopskit-error" not in app._message.value, saved[:40]
        assert not app._join_button.disabled  # the page is connected and works: it joins
    app.join("Ann", teacher.code)
    assert app.phase == "lobby" and app.last_error is None
    forged = StudentApp(url)  # well-formed, but opens nothing: the page says so and keeps the form
    browser_sends(forged.bridge, saved=json.dumps({"store": url, "player_key": "k" * 32}), loaded=True)
    assert forged.last_error is None and forged.phase == "join"
    assert "matches no student: join the room with its code" in said(forged)


def test_a_teacher_page_ignores_whatever_else_the_browser_hands_back(tmp_path):
    url = str(tmp_path / "c.sqlite3")
    first = TeacherApp(url)
    first.create()
    for saved in _bad_saved(url, "teacher_key"):
        app = TeacherApp(url)
        browser_sends(app.bridge, saved=saved, loaded=True)
        assert app.last_error is None, (saved[:40], app.last_error)
        assert app.teacher_key is None and app._form.layout.display != "none"
        assert "gopskit-error" not in app._message.value, saved[:40]
    app.create()  # the form still works
    assert app.code and app.code != first.code and app.last_error is None
    browser_sends(app.bridge, saved=first.bridge.to_save, loaded=False)
    browser_sends(app.bridge, loaded=True)  # a real key of another room, after the page has its own: kept out
    assert app.teacher_key is not None and app.code != first.code


def test_a_teacher_page_ignores_an_address_that_is_no_web_address(tmp_path):
    app = TeacherApp(str(tmp_path / "c.sqlite3"))
    app.create()
    for address in ["http://[abc/voila/render/classroom-teacher.ipynb", "http://h:99999999/x.ipynb",
                    "http://" + "a" * 3_000_000 + "/x.ipynb", "http://h\x00st/x.ipynb", "javascript:alert(1)", ""]:
        browser_sends(app.bridge, page_url=address)
        assert app.last_error is None and "gopskit-error" not in app._message.value, address[:40]
        assert app.students_addresses() == [], address[:40]
        assert "classroom.ipynb" in app._code_html.value and app.code[:3] in app._code_html.value
        browser_sends(app.bridge, page_url="http://10.0.0.5:8866/voila/render/classroom-teacher.ipynb")
        assert app.students_addresses() == ["http://10.0.0.5:8866/voila/render/classroom.ipynb"]


def test_the_page_module_keeps_its_examples():
    result = doctest.testmod(apps)
    assert result.failed == 0 and result.attempted >= 6


# ----------------------------------------------------------------- floods ---
@pytest.fixture
def shop(store_url, clock):  # noqa: F811  (the fixtures imported above)
    """One store on each backend with the test's clock, shared by the pages of a test (one kernel each, in life)."""
    store = ClassroomStore(store_url, clock=clock)
    yield store
    store.close()


def student(store, name: str, code: str) -> StudentApp:
    app = StudentApp(store.db.url, store=store, bridge=False)
    app.join(name, code)
    assert app.last_error is None and app.phase == "lobby", app._message.value
    return app


def challenge_room(shop):
    room = shop.create_room("goofspiel", {"num_cards": 3}, pairing="challenge", auto_pair=False, seed=4)
    ann, bob = student(shop, "Ann", room.code), student(shop, "Bob", room.code)
    for app in (ann, bob):
        app.tick()
    return room, ann, bob


def test_a_challenge_clicked_again_and_again_is_sent_once_and_only_read(shop):
    room, ann, bob = challenge_room(shop)
    writes = count_writes(shop)
    ann.challenge("Bob")
    assert writes.count(True) == 1 and "Challenge sent to Bob." in ann._message.value
    for _ in range(200):
        ann.challenge("Bob")
        ann.challenge("bob")  # the same student, as another page would type it
    assert writes.count(True) == 1
    assert [c["name"] for c in shop.lobby(bob.player_key).challenges_to_me] == ["Ann"]
    assert ann.last_error is None and "Challenge sent to Bob." in ann._message.value


def test_a_challenge_to_nobody_is_refused_from_a_read_with_a_short_message(shop):
    room, ann, bob = challenge_room(shop)
    writes = count_writes(shop)
    for junk in ("x" * 4_000_000, "Zed", "Ann", "", "'; DROP TABLE players; --", "x" * 4_000_000):
        ann.challenge(junk)
        assert "gopskit-error" in ann._message.value and len(ann._message.value) < 300, ann._message.value[:300]
    assert said(ann).startswith("nobody called 'xxxxxxxxxx") and "... is in this room: pick a name" in said(ann)
    assert writes.count(True) == 0 and ann.last_error is None
    with pytest.raises(RoomError, match=r"^nobody called 'x+\.\.\. is in this room") as refused:
        shop.challenge(ann.player_key, "x" * 4_000_000)
    assert len(str(refused.value)) < 120


def test_a_challenge_answered_again_and_again_is_refused_from_a_read(shop):
    room, ann, bob = challenge_room(shop)
    ann.challenge("Bob")
    bob.tick()
    [offer] = shop.lobby(bob.player_key).challenges_to_me
    writes = count_writes(shop)
    bob.answer(offer["id"], False)
    assert writes.count(True) == 1 and shop.lobby(bob.player_key).challenges_to_me == ()
    for _ in range(200):
        bob.answer("no-such-challenge", True)
        bob.answer(offer["id"], True)
        bob.answer(offer["id"], False)
    assert writes.count(True) == 1
    assert "that challenge is no longer open (it was declined)" in said(bob)
    assert bob.last_error is None and bob.phase == "lobby"


def test_a_challenge_is_cancelled_when_its_player_sits_down_elsewhere(shop):
    """Accepting used to cancel it and roll the cancellation back with the refusal: a write every click."""
    room = shop.create_room("goofspiel", {"num_cards": 3}, pairing="challenge", auto_pair=False, seed=4)
    ann, bob = student(shop, "Ann", room.code), student(shop, "Bob", room.code)
    ann.challenge("Bob")
    [offer] = shop.lobby(bob.player_key).challenges_to_me
    shop.join(room.code, "Cy")
    tables = shop.pair_waiting(room.teacher_key, seed=1)  # the teacher seats everyone: a pair, and one with the bot
    assert len(tables) == 2 and shop.lobby(bob.player_key).challenges_to_me == ()
    writes = count_writes(shop)
    for _ in range(100):
        bob.answer(offer["id"], True)
    assert writes.count(True) == 0
    assert "that challenge is no longer open (it was cancelled)" in said(bob) and bob.last_error is None


def play_to_the_end(*apps_):
    while any(app.board.seat_view.status == "playing" for app in apps_):
        for app in apps_:
            app.tick()
            view = app.board.seat_view
            if view.my_turn:
                app.board.click_card(view.observation["legal_moves"][-1])
                app.board.confirm()
        for app in apps_:
            app.tick()


def test_a_rematch_clicked_again_and_again_is_asked_once_and_only_read(shop):
    room = shop.create_room("goofspiel", {"num_cards": 3}, auto_pair=False, seed=4)
    ann, bob = student(shop, "Ann", room.code), student(shop, "Bob", room.code)
    shop.pair_waiting(room.teacher_key, seed=2)
    for app in (ann, bob):
        app.tick()
    assert ann.phase == bob.phase == "table"
    first = ann.board.seat_view.table
    with pytest.raises(RoomError, match="still on"):
        shop.ask_rematch(ann.seat.seat_key)
    writes = count_writes(shop)
    for _ in range(50):
        ann.ask_rematch()  # before the end: refused from a read
    assert writes.count(True) == 0 and "the game is still on" in ann._message.value
    del writes[:]
    play_to_the_end(ann, bob)
    writes = count_writes(shop)
    ann.ask_rematch()
    assert writes.count(True) == 1 and "waiting for the others" in ann._message.value
    for _ in range(200):
        ann.ask_rematch()
    assert writes.count(True) == 1 and ann.last_error is None
    bob.ask_rematch()
    assert writes.count(True) == 2 and bob.last_error is None
    assert "A new game is starting." in said(bob) or "Your next game is ready" in said(bob)
    ann._seen["finished"] = (first, -1e9)  # the result has been on screen long enough
    ann.tick()
    assert ann.board.seat_view.table != first and ann.board.seat_view.status == "playing"
    before = writes.count(True)
    for _ in range(100):
        ann.ask_rematch()  # the new game is on: refused from a read
    assert writes.count(True) == before and "the game is still on" in ann._message.value


def test_a_rematch_click_with_no_game_says_so(tmp_path):
    app = StudentApp(str(tmp_path / "c.sqlite3"), bridge=False)
    app.ask_rematch()
    app.challenge("Bob")
    app.answer("x", True)
    assert app.last_error is None and "join the room first" in app._message.value


def test_a_teacher_page_opens_one_room_however_often_its_hidden_button_is_pressed(tmp_path):
    from gopskit.widgets.classroom import TeacherApp

    teacher = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False)
    teacher.create()
    code = teacher.code
    for _ in range(5):  # the form is hidden, but a page's client can still send the button's clicks
        teacher.create()
    rooms = teacher.store.db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM rooms")["n"], write=False)
    assert rooms == 1 and teacher.code == code
    assert f"already runs room {code}" in teacher._message.value
