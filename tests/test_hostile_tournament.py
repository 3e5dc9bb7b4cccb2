"""Tournaments facing a hostile class: file names that are formulas, and every student pressing Run.

* A strategy file's name becomes the entry's name in ``games.csv`` and
  ``ranking.csv``: a file called ``=cmd.py`` must not put a formula in a
  spreadsheet that opens them.
* Each tournament app page is its own process; one tournament runs at a time
  on the machine (an operating-system lock), and a second Run is refused at
  once with a message. Checked with a second real process holding the lock.
"""

from __future__ import annotations

import csv
import os
import pathlib
import signal
import subprocess
import sys

import pytest

from gopskit.arena.results import GAME_COLUMNS, RANKING_COLUMNS, ResultSet
from gopskit.cli import main
from gopskit.errors import OptionError
from gopskit.errors import GopsError

ROOT = pathlib.Path(__file__).resolve().parents[1]
STUDENTS = ROOT / "examples" / "students"
FORMULAS = ("=cmd", "+1", "-x", "@a")


def raw_rows(path: pathlib.Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


# ----------------------------------------------------------- CSV formulas ---
def test_strategy_files_named_like_formulas_are_written_as_text(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in FORMULAS:
        (folder / f"{name}.py").write_text((STUDENTS / "copy_the_prize.py").read_text())
    out = tmp_path / "out"
    assert main(["tournament", str(folder), "--bots", "random", "--games", "1", "--cards", "3", "--out", str(out),
                 "--quiet", "--time-limit", "0.5"]) == 0
    ranking = raw_rows(out / "ranking.csv")
    assert tuple(ranking[0]) == RANKING_COLUMNS
    names = {row[1] for row in ranking[1:]}
    assert names == {"'" + n for n in FORMULAS} | {"random"}
    games = raw_rows(out / "games.csv")
    assert tuple(games[0]) == GAME_COLUMNS
    for row in games[1:]:
        cells = dict(zip(GAME_COLUMNS, row))
        assert cells["entry"] in names and cells["opponents"][0] not in "=+-@", row
        int(cells["game"]), int(cells["seat"]), float(cells["points"])  # numbers stay numbers
    assert set(ResultSet.load(out).names) == set(FORMULAS) | {"random"}  # results.json keeps the names as they are


def test_every_text_cell_is_inert_and_numbers_are_left_alone(tmp_path):
    entries = [{"name": "\tx", "kind": "=kind"}, {"name": "b", "kind": "student"}]
    games = [{"seats": ["\tx", "b"], "seed": 1, "points": [-3, 2.5], "winners": [1], "record": None, "table": "-t",
              "forfeits": [{"seat": 0, "entry": "\tx", "reason": "@reason", "detail": "=HYPERLINK(\"x\")",
                            "turn": 1}]}]
    ResultSet("goofspiel", {"num_cards": 3}, 0, 1, entries, games).save(tmp_path)
    header, first, second = raw_rows(tmp_path / "games.csv")
    row = dict(zip(header, first))
    assert row == {"game": "0", "table": "'-t", "seed": "1", "seat": "1", "entry": "'\tx", "opponents": "b",
                   "points": "-3", "result": "loss", "forfeit": "'@reason", "forfeit_detail": "'=HYPERLINK(\"x\")"}
    assert dict(zip(header, second))["opponents"] == "'\tx" and dict(zip(header, second))["points"] == "2.5"
    ranking = {r[1]: dict(zip(RANKING_COLUMNS, r)) for r in raw_rows(tmp_path / "ranking.csv")[1:]}
    assert ranking["'\tx"]["kind"] == "'=kind" and ranking["'\tx"]["mean_points"] == "-3.0"
    assert ranking["b"]["name"] == "b" and ranking["b"]["kind"] == "student"


# ------------------------------------------------------ one run at a time ---
HOLDER = """
import sys
from gopskit.widgets.tournament import take_the_machine
held = take_the_machine()
print("held", flush=True)
sys.stdin.read()  # until the test closes our input (or kills us)
held.close()
print("released", flush=True)
"""


@pytest.fixture
def holder(tmp_path, monkeypatch):
    """Start a second process that takes the tournament lock; yields it once it holds it."""
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_LOCK", raising=False)  # the lock where a teacher's server keeps it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-c", HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, env=env)
    try:
        assert process.stdout.readline().strip() == "held"
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=60)
        process.stdout.close()
        process.stdin.close()


def app_for_a_small_tournament():
    from gopskit.widgets.tournament import TournamentApp

    app = TournamentApp(bots=["random", "match-prize"], num_cards=3)
    app.games.value = 1
    app.time_limit.value = 0.5
    return app


def test_a_second_run_is_refused_while_another_process_runs_one(holder, monkeypatch):
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = app_for_a_small_tournament()
    assert app.run() is None
    assert "A tournament is already running on this computer" in app.status.value
    assert "Try again when it ends." in app.status.value
    assert not app.run_button.disabled and app.last_error is None and app.progress.value == 0
    holder.stdin.close()  # the other run ends
    assert holder.stdout.readline().strip() == "released"
    results = app.run()  # the same page runs once it is free
    assert results is not None and "Done" in app.status.value


def test_a_run_that_dies_frees_the_machine(holder, monkeypatch):
    from gopskit.widgets.tournament import take_the_machine

    with pytest.raises(GopsError, match="already running"):
        take_the_machine()
    holder.send_signal(signal.SIGKILL)  # the kernel running it crashed, or was culled
    holder.wait(timeout=60)
    take_the_machine().close()  # free again


def test_two_pages_of_one_process_share_the_bound_too(tmp_path, monkeypatch):
    """Two apps (two pages) in one process: the lock is the file's, not the process's."""
    from gopskit.widgets import tournament as module

    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_LOCK", raising=False)  # the lock where a teacher's server keeps it
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    first, second = app_for_a_small_tournament(), app_for_a_small_tournament()
    seen = []
    advance = first._advance

    def while_first_runs(done, total):  # the second page presses Run while the first is playing
        if not seen:
            seen.append(second.run())
            seen.append(second.status.value)
        advance(done, total)

    first._advance = while_first_runs
    assert first.run() is not None and "Done" in first.status.value
    assert seen[0] is None and "already running" in seen[1]
    assert second.run() is not None  # and the lock went with the first run
    assert module.run_lock_path() == tmp_path / "cache" / "tournament.lock"


def test_one_rule_for_every_csv_the_kit_writes():
    """The classroom export and the tournament files share gopskit.spreadsheet (its examples hold)."""
    import doctest

    from gopskit import spreadsheet
    from gopskit.arena import results
    from gopskit.classroom import export, rooms

    assert doctest.testmod(spreadsheet).failed == 0
    assert export.inert is results.inert is spreadsheet.inert
    assert rooms.FORMULA_STARTS is spreadsheet.FORMULA_STARTS


HOG = """
HELD = bytearray(150 * 2**20)
for k in range(0, len(HELD), 4096):
    HELD[k] = 1  # touched: resident, not only reserved


def strategy(observation):
    return observation.legal_moves[0]
"""


def test_sandboxes_that_together_pass_the_memory_budget_lose_the_largest_and_the_tournament_goes_on(tmp_path):
    """Each hog is far under its own limit, but three of them pass the budget: the largest is stopped, its games
    are forfeits that say why, and the honest entry and the tournament are untouched."""
    from gopskit.arena.sandbox import Limits
    from gopskit.arena.tournament import Tournament
    from gopskit.games.goofspiel import Goofspiel

    for name in ("hog_a", "hog_b", "hog_c"):
        (tmp_path / f"{name}.py").write_text(HOG, encoding="utf-8")
    (tmp_path / "honest.py").write_text("def strategy(observation):\n    return observation.prize\n", encoding="utf-8")
    budget = 400 * 2**20  # room for two hogs, not three
    results = Tournament.from_folder(tmp_path, Goofspiel(num_cards=4), bots=["random"], games=2, seed=3,
                                     limits=Limits(time_limit=2, load_time_limit=20), processes=1,
                                     exploitability=False, memory_budget=budget).run(progress=False)
    forfeits = results.forfeits()
    stopped = [f for f in forfeits if "together passed their 400 MB" in f["example"]]
    assert stopped and {f["entry"] for f in stopped} <= {"hog_a", "hog_b", "hog_c"}, forfeits
    assert not [f for f in forfeits if f["entry"] in ("honest", "random")]
    expected = len(Tournament.from_folder(tmp_path, Goofspiel(num_cards=4), bots=["random"], games=2,
                                          exploitability=False).tables())
    assert len({g["table"] for g in results.games}) == expected  # every table played


def test_a_memory_budget_is_checked():
    from gopskit.arena.tournament import Tournament
    from gopskit.games.goofspiel import Goofspiel

    with pytest.raises(OptionError, match="memory_budget must be a whole number"):
        Tournament(Goofspiel(num_cards=3), ["random", "match-prize"], memory_budget=1000)
    assert Tournament(Goofspiel(num_cards=3), ["random", "match-prize"], memory_budget=None).memory_budget is None
    assert Tournament(Goofspiel(num_cards=3), ["random", "match-prize"]).memory_budget > 0  # half the free memory


def test_the_automatic_memory_budget_never_squeezes_a_class_of_honest_files(tmp_path):
    """Half the free memory may be little on a laptop: each helper still leaves 100 MB for every sandbox it runs."""
    from gopskit.arena.tournament import HONEST_SANDBOX_BYTES, Tournament
    from gopskit.games.goofspiel import Goofspiel

    for k in range(6):
        (tmp_path / f"s{k}.py").write_text("def strategy(observation):\n    return observation.prize\n", encoding="utf-8")
    auto = Tournament.from_folder(tmp_path, Goofspiel(num_cards=3), processes=2)
    auto.memory_budget = 64 * 2**20  # a machine with 128 MB free
    assert all(share.memory_budget == 6 * HONEST_SANDBOX_BYTES for share in auto._shares(auto.tables(), {}))
    given = Tournament.from_folder(tmp_path, Goofspiel(num_cards=3), processes=2, memory_budget=400 * 2**20)
    assert all(share.memory_budget == 200 * 2**20 for share in given._shares(given.tables(), {}))  # as given, halved


def test_the_command_takes_a_memory_budget_and_checks_it(tmp_path, capsys):
    assert main(["tournament", "--bots", "random,match-prize", "--memory-budget", "10", "--out", str(tmp_path)]) == 2
    assert "--memory-budget takes megabytes for all the strategies together, 64 or more" in capsys.readouterr().err
