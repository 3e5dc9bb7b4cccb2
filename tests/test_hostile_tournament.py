"""Tournaments facing a hostile class: file names that are formulas.

* A strategy file's name becomes the entry's name in ``games.csv`` and
  ``ranking.csv``: a file called ``=cmd.py`` must not put a formula in a
  spreadsheet that opens them.
"""

from __future__ import annotations

import csv
import pathlib

import pytest

from gopskit.arena.results import GAME_COLUMNS, RANKING_COLUMNS, ResultSet
from gopskit.cli import main

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


def test_one_rule_for_every_csv_the_kit_writes():
    """The classroom export and the tournament files share gopskit.spreadsheet (its examples hold)."""
    import doctest

    from gopskit import spreadsheet
    from gopskit.arena import results
    from gopskit.classroom import export, rooms

    assert doctest.testmod(spreadsheet).failed == 0
    assert export.inert is results.inert is spreadsheet.inert
    assert rooms.FORMULA_STARTS is spreadsheet.FORMULA_STARTS
