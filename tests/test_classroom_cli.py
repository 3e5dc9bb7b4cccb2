"""``gopskit classroom ...`` from the command line: a room made, run, exported and compared."""

from __future__ import annotations

import time

import pytest

from gopskit.classroom import ClassroomStore
from gopskit.classroom.cli import parse_option
from gopskit.cli import main
from gopskit.errors import OptionError


def _run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_room_from_the_command_line(tmp_path, capsys):
    db = str(tmp_path / "class.sqlite3")
    status, out, _ = _run(capsys, "classroom", "create", "--db", db, "--option", "num_cards=3", "--bot", "random")
    assert status == 0 and "room code:" in out
    code = out.split("room code: ")[1].split()[0]
    assert len(code) == 7 and code[3] == "-"  # written KQ7-F3M, as every page writes it
    key = out.split("teacher key (keep it secret): ")[1].split()[0]
    store = ClassroomStore(db)
    ann = store.join(code, "Ann")
    assert _run(capsys, "classroom", "pair", key, "--db", db)[1].startswith("1 new table")
    seat = store.claim_seat(ann.player_key).seat_key
    while (view := store.seat_view(seat)).status == "playing":
        store.submit(seat, view.observation["legal_moves"][0], view.ply)
    status, out, _ = _run(capsys, "classroom", "status", key, "--db", db)
    # the game in the classroom pages' words (gopskit.games.wording), the code as every page writes it
    assert f"room {code} (open): Goofspiel: 3 cards; a tie discards the prize; prizes shuffled" in out
    assert "num cards" not in out and "num_cards" not in out
    assert "the Random bot stands in after 60 s" in out and "students (1): Ann (between games · 1 played)" in out
    assert "table 1: Ann " in out and ", Random bot (bot) " in out and "; finished, " in out
    assert "1. Ann: " in out and " in 1 game, " in out
    assert _run(capsys, "classroom", "end", key, "--db", db)[0] == 0
    status, out, _ = _run(capsys, "classroom", "export", key, "--db", db, "--out", str(tmp_path))
    zip_path = out.strip()
    assert status == 0 and zip_path.endswith(f"room-{code}.zip")  # the code as every page writes it
    status, out, _ = _run(capsys, "classroom", "compare", zip_path, "--bots", "match-prize")
    assert status == 0 and "equilibrium mean" in out and "Match-the-prize bot" in out and "share of student bids" in out
    assert "_mean" not in out and "match-prize" not in out  # column heads in words, not Python keys or bot ids
    status, out, _ = _run(capsys, "classroom", "check", "--db", db, "--rounds", "2")
    assert "schema version: 2" in out


def _gopskit(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "gopskit.cli", *args], capture_output=True, text=True, timeout=120)


def test_status_counts_turns_as_the_teachers_page_does(tmp_path):
    """A game just begun is on turn 1 (the page's count), waiting for the student; the students are counted."""
    db = str(tmp_path / "class.sqlite3")
    store = ClassroomStore(db)
    room = store.create_room("goofspiel", {"num_cards": 4, "ties": "carry"}, bot="one-higher")
    done = _gopskit("classroom", "status", room.teacher_key, "--db", db)
    assert done.returncode == 0, done.stderr
    assert "Goofspiel: 4 cards; a tie carries the prize over to the next turn; prizes shuffled" in done.stdout
    assert "students (0): nobody has joined yet" in done.stdout and "tables: none yet" in done.stdout
    store.join(room.code, "Ann")
    store.pair_waiting(room.teacher_key)
    out = _gopskit("classroom", "status", room.teacher_key, "--db", db).stdout
    assert "the One-higher bot stands in" in out
    assert "table 1: Ann 0, One-higher bot (bot) 0; turn 1, waiting for Ann" in out


def test_compare_refuses_bots_it_cannot_compare_and_says_which_it_can(tmp_path):
    """The bots are checked before the zip is read (a Divide and Conquer bot crashed on Goofspiel bids; a bot
    named 'equilibrium' overwrote the equilibrium's own column)."""
    zip_path = str(tmp_path / "room.zip")
    done = _gopskit("classroom", "compare", zip_path, "--bots", "random,dc-greedy")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "'dc-greedy' cannot bid in two-player Goofspiel" in done.stderr
    assert "the bots that can: random, match-prize, one-higher" in done.stderr
    done = _gopskit("classroom", "compare", zip_path, "--bots", "equilibrium")
    assert done.returncode == 2 and "the equilibrium has a column of its own" in done.stderr, done.stderr


def test_refusals_say_what_the_room_can_take(tmp_path):
    db = str(tmp_path / "class.sqlite3")
    done = _gopskit("classroom", "create", "--db", db, "--game", "raj", "--bot", "nope")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.strip().endswith("unknown bot 'nope' in --bot; the bots that play Raj with these options: "
                                        "random, raj-proportional")  # not every game's bots
    done = _gopskit("classroom", "simulate", "KQ7-F3M", "--db", db, "--students", "0")
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "--students takes a whole number of simulated students, 1 or more, not 0" in done.stderr


def test_bad_input_is_one_line_and_status_two(tmp_path, capsys):
    db = str(tmp_path / "class.sqlite3")
    status, _, err = _run(capsys, "classroom", "create", "--db", db, "--option", "num_cards=40")
    assert status == 2 and err.count("\n") == 1 and "1 to 13" in err
    status, _, err = _run(capsys, "classroom", "status", "not-a-teacher-key-at-all", "--db", db)
    assert status == 2 and "opens no room" in err
    with pytest.raises(OptionError, match="NAME=VALUE"):
        parse_option("num_cards")
    assert parse_option("prize_order=[3,1,2]") == ("prize_order", [3, 1, 2])


def test_the_teachers_how_to_runs_as_written():
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "classroom.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


@pytest.mark.parametrize("name", ["analysis", "db", "html", "live", "migrations", "pairing", "store", "tokens",
                                  "rooms", "reports", "cli", "__init__"])
def test_the_docstring_examples_hold(name):
    import doctest
    import importlib

    module = importlib.import_module("gopskit.classroom" if name == "__init__" else f"gopskit.classroom.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_a_key_never_starts_like_an_option(monkeypatch):
    """``gopskit classroom pair KEY``: a key starting with '-' was read as an unknown option (one in 32 did)."""
    import itertools

    from gopskit.classroom import tokens

    made = itertools.chain(["-dash-first-key-0123456789abc", "_under-first-key-0123456789"], itertools.repeat("K" * 32))
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda _n: next(made))
    assert tokens.new_key() == "K" * 32  # the two that start like options are passed over


def test_close_idle_ends_the_rooms_nobody_uses(tmp_path, capsys):
    """A store filled with rooms nobody uses (a hostile page reloaded again and again) is tidied from a terminal."""
    from gopskit.classroom.tokens import shown_code

    db = str(tmp_path / "class.sqlite3")
    yesterday = ClassroomStore(db, clock=lambda: time.time() - 3600)
    unused = [yesterday.create_room("goofspiel", {"num_cards": 3}) for _ in range(3)]
    ann = yesterday.join(unused[0].code, "Ann")
    now = ClassroomStore(db)
    now.heartbeat(ann.player_key)  # Ann's page is open: her room is in use
    fresh = now.create_room("goofspiel", {"num_cards": 3})
    status, out, _ = _run(capsys, "classroom", "close-idle", "--db", db, "--minutes", "30")
    ended = sorted(shown_code(k.code) for k in unused[1:])
    assert status == 0 and out == f"2 rooms ended: {', '.join(ended)}\n"
    assert [now.overview(k.teacher_key).status for k in (*unused, fresh)] == ["open", "ended", "ended", "open"]
    assert _run(capsys, "classroom", "close-idle", "--db", db)[1] == "0 rooms ended\n"  # 12 hours by default
    status, out, err = _run(capsys, "classroom", "close-idle", "--db", db, "--minutes", "0")
    assert status == 2 and err == ("gopskit: the minutes a room must have been unused are a whole number from 1, "
                                   "not 0\n")
