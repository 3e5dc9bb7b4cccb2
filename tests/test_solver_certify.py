"""Turn games the compiled certificate rejects are settled by HiGHS or exact rationals, and counted."""

from __future__ import annotations

import doctest
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from gopskit.solvers import _certify
from gopskit.solvers._certify import certify_game, exact_game, highs_game
from gopskit.solvers._exact_engine import solve_layers
from gopskit.solvers._exact_tables import full_game_tables
from gopskit.solvers.exact import GoofspielSolution
from gopskit.solvers.storage import load_solution, save_solution


def test_exact_value_of_the_hand_worked_game():
    """[[3, -1], [1, 2]]: value 7/5 exactly, rows mixed 1:4, columns 3:2 (docs/solver.md)."""
    value, x, y = exact_game([[3, -1], [1, 2]])
    assert value == Fraction(7, 5)
    assert x == [Fraction(1, 5), Fraction(4, 5)] and y == [Fraction(3, 5), Fraction(2, 5)]


def test_rock_paper_scissors_exactly():
    value, x, y = exact_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert value == 0 and x == [Fraction(1, 3)] * 3 and y == [Fraction(1, 3)] * 3


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 6)),
              elements=st.floats(-20, 20, allow_nan=False, width=32)))
def test_exact_and_highs_agree_and_exact_certifies_with_no_gap(M):
    value, x, y = exact_game(M)
    A = [[Fraction(float(a)) for a in row] for row in M]
    assert min(x) >= 0 and min(y) >= 0 and sum(x) == 1 and sum(y) == 1
    lower = min(sum(x[i] * A[i][j] for i in range(len(x))) for j in range(len(y)))
    upper = max(sum(A[i][j] * y[j] for j in range(len(y))) for i in range(len(x)))
    assert lower == upper == value
    h_value, _hx, _hy, width = highs_game(M)
    assert width < 1e-8 * max(1.0, float(np.abs(M).max()))
    assert h_value == pytest.approx(float(value), abs=1e-8 * max(1.0, float(np.abs(M).max())))


def test_the_chain_stops_at_the_first_method_that_certifies():
    M = [[3, -1], [1, 2]]
    assert certify_game(M)[3] == "highs"
    assert certify_game(M, methods=("exact",))[3] == "exact"
    assert certify_game(M, gap=-1.0, methods=("highs", "exact"))[3] == "exact"  # HiGHS can never meet a negative gap
    value, _x, _y, method = certify_game(M, gap=-1.0, methods=("highs",))
    assert method == "failed" and value == pytest.approx(1.4)
    with pytest.raises(ValueError, match="allowed: highs, exact"):
        certify_game(M, methods=("glpk",))


def _max_difference(a, b):
    return max(float(np.abs(u - v).max()) for u, v in zip(a.values, b.values))


@pytest.mark.parametrize("cards, objective, ties", [(5, "points", "discard"), (4, "win", "carry"), (4, "points", "carry")])
@pytest.mark.parametrize("methods", [("highs", "exact"), ("exact",)])
def test_forced_fallback_gives_the_same_solution_and_counts_each_method(cards, objective, ties, methods):
    """A negative gap makes every compiled simplex certificate fail: the whole layer goes down the chain."""
    normal = solve_layers(full_game_tables(cards), objective, ties)
    forced = solve_layers(full_game_tables(cards), objective, ties, gap=-1.0, methods=methods)
    assert _max_difference(normal, forced) < 1e-12
    stats = forced.stats
    assert stats.simplex == 0 and stats.failed == 0 and stats.certified
    assert stats.highs + stats.exact == normal.stats.simplex > 0
    assert stats.pure == normal.stats.pure and stats.games == normal.stats.games
    assert getattr(stats, methods[0]) == normal.stats.simplex
    layer, q, pattern, lead, pot, prize, method = stats.settled[0]
    assert method == methods[0] and 1 <= layer <= cards and 1 <= prize <= cards
    assert f"by exact rationals {stats.exact:,}" in stats.methods_line()


def test_a_game_no_method_certifies_is_counted_and_said(monkeypatch):
    def loose_highs(M):
        value, x, y, _width = highs_game(M)
        return value, x, y, 1.0  # as if HiGHS's strategies left a gap of a whole point

    monkeypatch.setattr(_certify, "highs_game", loose_highs)
    forced = solve_layers(full_game_tables(3), "points", "discard", gap=-1.0, methods=("highs",))
    stats = forced.stats
    assert stats.failed == forced.stats.games - stats.pure > 0 and not stats.certified
    assert f"NOT CERTIFIED {stats.failed:,}" in stats.methods_line()


def test_settled_methods_survive_saving(tmp_path):
    engine = solve_layers(full_game_tables(4), "points", "discard", gap=-1.0, methods=("exact",))
    path = tmp_path / "gops4.npz"
    save_solution(GoofspielSolution(engine, 4), path)
    stats = load_solution(path, num_cards=4).stats
    assert stats.exact == engine.stats.exact > 0 and stats.settled == engine.stats.settled


def test_cli_reports_how_turn_games_were_settled(tmp_path):
    out = subprocess.run([sys.executable, "-m", "gopskit.cli", "solve", "--cards", "4", "--quiet", "--out",
                          str(tmp_path / "s.npz")], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "pure saddle" in out.stdout and "simplex" in out.stdout and "NOT CERTIFIED" not in out.stdout
    assert "WARNING" not in out.stderr


def test_module_examples():
    assert doctest.testmod(_certify).failed == 0
