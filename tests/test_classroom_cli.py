"""``gopskit classroom ...`` from the command line: a room made, run, exported and compared."""

from __future__ import annotations

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
    assert "Goofspiel (num cards 3)" in out and "Ann vs Random bot" in out and "1. Ann" in out
    assert _run(capsys, "classroom", "end", key, "--db", db)[0] == 0
    status, out, _ = _run(capsys, "classroom", "export", key, "--db", db, "--out", str(tmp_path))
    zip_path = out.strip()
    assert status == 0 and zip_path.endswith(f"room-{code}.zip")  # the code as every page writes it
    status, out, _ = _run(capsys, "classroom", "compare", zip_path, "--bots", "match-prize")
    assert status == 0 and "equilibrium_mean" in out and "share of student bids" in out
    status, out, _ = _run(capsys, "classroom", "check", "--db", db, "--rounds", "2")
    assert "schema version: 2" in out


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
