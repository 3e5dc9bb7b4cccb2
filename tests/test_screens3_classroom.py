"""Screen audit 3 of the classroom pages: what the teacher's page shows must read right and be true.

The leaderboard gives equal records one place and writes a shared win as a
share; the sentence above the room code reads as one sentence in every mode;
room codes hold no projector look-alikes; the code's box keeps clear of the
line under it.
"""

from __future__ import annotations

import re

import pytest

from gopskit.classroom import ClassroomStore
from gopskit.classroom import html as pages
from gopskit.classroom.reports import leaderboard


def _finished(people, scores, winners, names=None):
    names = names or people
    return {"status": "finished", "names": list(names), "kinds": ["student"] * len(people), "people": list(people),
            "scores": list(scores), "winners": list(winners)}


def _cells(html_text: str) -> list[list[str]]:
    body = html_text.split("<tbody>")[1].split("</tbody>")[0]
    return [re.findall(r"<td>(.*?)</td>", row) for row in body.split("</tr>") if row]


# ------------------------------------------------------------ 1. leaderboard ---
def test_equal_records_share_a_place_and_the_next_counts_everyone_above():
    """The audit: two students with one drawn game each (½ win, 0.00 points a game) were placed 1 and 2."""
    rows = leaderboard([_finished(["Alice", "Bob"], [0, 0], [0, 1])])
    assert [(r["place"], r["name"]) for r in rows] == [(1, "Alice"), (1, "Bob")]
    tables = [_finished(["Ann", "Bob"], [3, 3], [0, 1]), _finished(["Cy", "Dee"], [3, 3], [0, 1]),
              _finished(["Eve", "Fay"], [5, 1], [0])]
    rows = leaderboard(tables)
    assert [(r["place"], r["name"]) for r in rows] == [(1, "Eve"), (2, "Ann"), (2, "Bob"), (2, "Cy"), (2, "Dee"),
                                                       (6, "Fay")]
    assert [c[0] for c in _cells(pages.leaderboard_html(rows))] == ["1", "2", "2", "2", "2", "6"]


def test_records_are_compared_exactly_so_equal_ones_tie_and_near_ones_do_not():
    # six three-way shares make two wins, as two wins alone do (added as floats they make 1.9999999999999998)
    three = [_finished(["Ann", "Bob", "Cy"], [2, 2, 2], [0, 1, 2]) for _ in range(6)]
    duel = [_finished(["Dee", "Eve"], [2, 1], [0])] * 2 + [_finished(["Dee", "Eve"], [2, 3], [1])] * 4
    places = {r["name"]: r["place"] for r in leaderboard(three + duel)}
    assert places == {"Eve": 1, "Ann": 2, "Bob": 2, "Cy": 2, "Dee": 2}
    # equal wins, 2/3 and 0.67 points per game: near, not equal, so two places
    rows = leaderboard([_finished(["Ann", "Bob"], [2, 0], []), _finished(["Ann", "Bob"], [0, 0], []),
                        _finished(["Ann", "Bob"], [0, 0], []), _finished(["Cy", "Dee"], [0.67, 0], [])])
    places = {r["name"]: r["place"] for r in rows}
    assert places["Cy"] == 1 and places["Ann"] == 2 and places["Bob"] == places["Dee"] == 3


def test_a_shared_win_is_written_as_a_share_and_explained_under_the_table():
    rows = leaderboard([_finished(["Alice", "Bob"], [0, 0], [0, 1])])
    shown = pages.leaderboard_html(rows)
    assert [c[3] for c in _cells(shown)] == ["½", "½"] and "0.5" not in shown
    assert "A win shared by two players on equal top scores (a draw) counts ½ to each." in shown
    rows = leaderboard([_finished(["Ann", "Bob", "Cy"], [2, 2, 1], [0, 1]), _finished(["Ann", "Bob", "Cy"], [2, 2, 2], [0, 1, 2])])
    shown = pages.leaderboard_html(rows)
    assert [c[3] for c in _cells(shown)] == ["⅚", "⅚", "⅓"]
    assert "½ when two share it, ⅓ when three do." in shown
    # no shared win: no note, whole numbers
    shown = pages.leaderboard_html(leaderboard([_finished(["Ann", "Bob"], [3, 1], [0])]))
    assert [c[3] for c in _cells(shown)] == ["1", "0"] and "shared" not in shown


def test_the_terminal_status_ranks_and_words_shared_wins_as_the_page_does(tmp_path, capsys):
    from gopskit.cli import main

    store = ClassroomStore(str(tmp_path / "c.sqlite3"))
    room = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    keys = [store.join(room.code, name).player_key for name in ("Ann", "Bob")]
    store.pair_waiting(room.teacher_key, seed=1)
    seats = [store.claim_seat(k).seat_key for k in keys]
    while (view := store.seat_view(seats[0])).status == "playing":  # both bid the same card: every prize tied
        for seat in seats:
            store.submit(seat, view.observation["hand"][0], view.ply)
    assert main(["classroom", "status", room.teacher_key, "--db", str(tmp_path / "c.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert "  1. Ann: ½ win in 1 game" in out and "  1. Bob: ½ win in 1 game" in out
    assert "(A win shared by two players on equal top scores (a draw) counts ½ to each.)" in out


# ------------------------------------------------- 2. the sentence over the code ---
def _words_before_the_code(shown: str) -> str:
    """The text above the room code, as a reader sees it: tags dropped, each address replaced by ADDRESS."""
    import html

    above = shown.split('<div class="gopskit-room-code"')[0]
    above = re.sub(r"<li>.*?</li>", " ADDRESS ", above)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", above)).split())


@pytest.mark.parametrize("page, served_beyond, lan", [
    ("http://localhost:8866/voila/render/classroom-teacher.ipynb", "0", []),  # served for this computer only
    ("http://localhost:8866/voila/render/classroom-teacher.ipynb", None, []),  # no network address found
    ("", None, []),  # the browser has not reported its address yet
    ("http://localhost:8866/voila/render/classroom-teacher.ipynb", "1", ["192.168.7.20"]),
    ("http://localhost:8866/voila/render/classroom-teacher.ipynb", "1", ["192.168.7.20", "10.0.0.4"]),
    ("http://10.1.2.3:8866/voila/render/classroom-teacher.ipynb", None, []),  # a LAN address
    ("https://hub.school/user/ms-k/voila/render/classroom-teacher.ipynb", None, []),  # a JupyterHub
])
def test_the_words_over_the_room_code_are_one_sentence_in_every_mode(tmp_path, monkeypatch, page, served_beyond, lan):
    """The audit: "Students open the classroom page of this server (classroom.ipynb)." then "and type the room code:"."""
    import gopskit.widgets.classroom as app_module
    from gopskit.classroom.tokens import SERVED_BEYOND_ENV
    from gopskit.widgets.classroom import TeacherApp

    if served_beyond is None:
        monkeypatch.delenv(SERVED_BEYOND_ENV, raising=False)
    else:
        monkeypatch.setenv(SERVED_BEYOND_ENV, served_beyond)
    monkeypatch.setattr(app_module, "network_addresses", lambda: lan)
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"))
    teacher.create()
    teacher.bridge.page_url = page
    words = _words_before_the_code(teacher._code_html.value)
    sentence = re.fullmatch(r"Students open (.+) and type the room code:", words)
    assert sentence, words
    middle = sentence.group(1).replace("(classroom.ipynb)", "")  # a file name's dot ends no sentence
    assert not re.search(r"[.:;!?](\s|$)", middle), words  # nothing ends the sentence before "and type"
    if "ADDRESS" in words:
        assert middle.startswith("this address on their laptop")
    else:
        assert middle.startswith("the classroom page of this server")


# ------------------------------------------------------ 3. room codes' alphabet ---
# what a class reads one for another on a projector or the board (defined here, apart from the kit's own list)
PROJECTOR_LOOK_ALIKES = ("0OQ", "1IL", "2Z", "5S", "6G", "8B", "UV")


def test_no_two_characters_of_the_code_alphabet_look_alike():
    """The audit: the code shown was 5SD-GGD (5/S and 6/G side by side); the alphabet also had 2/Z, 8/B, U/V."""
    from gopskit.classroom.tokens import CODE_ALPHABET, LOOK_ALIKES

    assert len(set(CODE_ALPHABET)) == len(CODE_ALPHABET)
    for group in PROJECTOR_LOOK_ALIKES + LOOK_ALIKES:
        assert len(set(group) & set(CODE_ALPHABET)) <= 1, group
    assert not set("0O1IL") & set(CODE_ALPHABET)


def test_the_numbers_said_about_the_codes_follow_from_the_alphabet():
    import math
    from pathlib import Path

    from gopskit.classroom import tokens

    size, codes = len(tokens.CODE_ALPHABET), len(tokens.CODE_ALPHABET) ** tokens.CODE_LENGTH
    bits = round(tokens.PASSCODE_GROUPS * tokens.PASSCODE_GROUP * math.log2(size))
    doc = " ".join(tokens.__doc__.split())
    assert f"{size} letters and digits" in doc and f"so {codes:,} codes" in doc and f"about {bits} bits" in doc
    assert f"{len(tokens.OLD_CODE_ALPHABET)} characters" in doc
    guide = " ".join((Path(__file__).parents[1] / "docs" / "classroom.md").read_text().split())
    assert f"six of {size} letters and digits" in guide and f"{codes:,} codes" in guide
    assert tokens.CODE_LENGTH == 6 and "six characters" in doc


@pytest.mark.parametrize("typed, stored", [
    ("kq7-f3m", "KQ7F3M"), ("KO7F3M", "KQ7F3M"), ("k07 f3m", "KQ7F3M"),
    ("A5S-66G", "A55666"), ("zz2-8b8", "222888"), ("UVU-VUV", "VVVVVV"),
])
def test_a_typed_look_alike_is_read_as_the_alphabets_character(typed, stored):
    from gopskit.classroom.tokens import CODE_ALPHABET, normal_code

    assert normal_code(typed) == stored and set(stored) <= set(CODE_ALPHABET)


def test_codes_with_one_i_or_l_are_refused_with_the_reason():
    from gopskit.classroom.errors import AccessError
    from gopskit.classroom.tokens import normal_code

    for typed in ("KQ1-F3M", "kqi-f3m", "KQL-F3M"):
        with pytest.raises(AccessError, match="room codes have no 1, I or L"):
            normal_code(typed)


def test_fresh_codes_and_passcodes_use_only_the_new_alphabet():
    from gopskit.classroom.tokens import CODE_ALPHABET, new_passcode, new_room_code

    drawn = "".join(new_room_code() for _ in range(400)) + "".join(new_room_code(seed=s) for s in range(100))
    assert set(drawn) <= set(CODE_ALPHABET) and set(drawn) == set(CODE_ALPHABET)
    assert set("".join(new_passcode() for _ in range(200)).replace("-", "")) <= set(CODE_ALPHABET)


def test_a_room_opened_with_the_old_alphabet_is_still_joined_by_its_code(tmp_path):
    """A store kept from an older kit may hold an open room coded 5SD-GGD: typed as shown, it is that room;
    the same letters read as look-alikes (55D-66D) are another room, if one is open."""
    from gopskit.classroom.errors import RoomError

    store = ClassroomStore(str(tmp_path / "c.sqlite3"))
    old = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    new = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
    for room, code in ((old, "5SDGGD"), (new, "55D66D")):  # as an older kit stored them
        store.db.run(lambda tx, room=room, code=code: tx.run("UPDATE rooms SET code = ? WHERE code = ?", (code, room.code)))
    assert store.lobby(store.join("5sd-ggd", "Ann").player_key).room == "5SDGGD"
    assert store.lobby(store.join("55D-66D", "Bob").player_key).room == "55D66D"
    assert store.lobby(store.join("5SDG6D", "Cy").player_key).room == "55D66D"  # not the old code: read as the new one
    with pytest.raises(RoomError, match="there is no room 5SD-GGX"):
        store.join("5SD-GGX", "Dee")


# ------------------------------------------------------ 4. room the code box keeps ---
def test_the_room_code_box_keeps_clear_of_the_lines_around_it():
    """The audit: on the teacher's page the code's dashed box touched the warning line under it."""
    rule = re.search(r"\.gopskit-room-code\s*\{([^}]*)\}", pages.CLASSROOM_CSS).group(1)
    margin = re.search(r"(?<![-\w])margin:\s*([^;]+);", rule)
    assert margin, rule
    sides = [float(v.removesuffix("px")) for v in margin.group(1).split()]
    top, bottom = {1: (sides[0],) * 2, 2: (sides[0],) * 2, 3: (sides[0], sides[2]), 4: (sides[0], sides[2])}[len(sides)]
    assert bottom >= 10 and top >= 4  # the warning under the code, the sentence over it
