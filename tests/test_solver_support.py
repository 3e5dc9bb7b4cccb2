"""The compiled solver's shortcuts: a neighbour's support, the fused fill, thread-independent values.

Most turn games share their optimal support with the game solved just
before them (same hands and prize, a neighbouring set of prizes still to
come), so the engine first tries that support with a small linear solve and
keeps it only when it passes the simplex's certificate. These tests check
that a guess can only ever give a certified value, that a right guess gives
the game's value, and that the shortcuts leave the solution unchanged:
the same numbers on one thread or two.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goofspiel_reference import highs_game

from gopskit.solvers._exact_engine import solve_layers
from gopskit.solvers._exact_kernel import fill_scan_points, fill_turn_matrix
from gopskit.solvers._exact_lp import matrix_game, scan_matrix, solve_on_support, support_masks
from gopskit.solvers._exact_tables import full_game_tables


def _guess(M: np.ndarray, rows: int, cols: int):
    m, n = M.shape
    x, y = np.zeros(m), np.zeros(n)
    found, _, low, scale = scan_matrix(M, m, n, x, y)
    T, labels = np.zeros((m + 1, n + 1)), np.zeros(4 * max(m, n), dtype=np.int64)
    ok, value = solve_on_support(M, m, n, rows, cols, x, y, T, labels, 1e-10, low, scale)
    return found, ok, value, x, y


games = st.integers(2, 9).flatmap(
    lambda k: st.lists(st.lists(st.integers(-20, 20), min_size=k, max_size=k), min_size=k, max_size=k))


@settings(max_examples=300, deadline=None)
@given(games, st.integers(0, 2**9 - 1), st.integers(0, 2**9 - 1))
def test_a_guessed_support_is_kept_only_when_it_certifies_the_value(matrix, rows, cols):
    M = np.array(matrix, dtype=float)
    k = M.shape[0]
    found, ok, value, x, y = _guess(M, rows & ((1 << k) - 1), cols & ((1 << k) - 1))
    if ok:
        assert value == pytest.approx(highs_game(M)[0], abs=1e-8)
        assert np.all(x >= 0) and np.all(y >= 0) and x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
        assert (x @ M).min() >= value - 1e-8 and (M @ y).max() <= value + 1e-8


def test_the_right_support_is_found_again():
    """On generic games (no ties: entries drawn from a continuous law) the equilibrium is unique
    and its support square, so the support alone must give the value back."""
    rng = np.random.default_rng(11)
    tried = 0
    for _ in range(500):
        k = int(rng.integers(2, 10))
        M = rng.normal(size=(k, k))
        value, x, y = matrix_game(M)
        rows, cols = support_masks(k, k, x, y)
        found, ok, guessed, *_ = _guess(M, rows, cols)
        if found:
            continue  # a saddle point: the engine never guesses there
        tried += 1
        assert ok and guessed == pytest.approx(value, abs=1e-9)
    assert tried > 300


def test_a_wrong_support_is_refused():
    rps = np.array([[0.0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert not _guess(rps, 0b011, 0b011)[1]
    assert _guess(rps, 0b111, 0b111)[1:3] == (True, pytest.approx(0.0, abs=1e-12))


def test_the_fused_fill_matches_the_general_one():
    tables = full_game_tables(6)
    sol = solve_layers(tables, "points", "discard", threads=1)
    rng = np.random.default_rng(7)
    for _ in range(200):
        j = int(rng.integers(2, 7))
        layer = tables.layers[j]
        q, pattern = int(rng.integers(layer.num_prize_sets)), int(rng.integers(layer.num_patterns))
        mask = int(layer.masks[q])
        t = int(rng.choice([t for t in range(6) if (mask >> t) & 1]))
        cq = int(tables.rank_of_mask[mask ^ (1 << t)])
        start, prize = int(sol.bases[j - 1][cq]), int(tables.prize_values[t])
        general, fused = np.empty((j, j)), np.empty((j, j))
        fill_turn_matrix(general, j, pattern, layer.child, layer.outcome, prize, 0, 0, sol.values[j - 1], start,
                         0, 0, False, False)
        x1, y1, x2, y2 = np.empty(j), np.empty(j), np.empty(j), np.empty(j)
        expected = scan_matrix(general, j, j, x1, y1)
        got = fill_scan_points(fused, j, pattern, layer.child, layer.outcome, prize, sol.values[j - 1], start, x2, y2)
        np.testing.assert_array_equal(fused, general)
        assert got == expected
        if got[0]:
            np.testing.assert_array_equal(x1, x2)
            np.testing.assert_array_equal(y1, y2)


@pytest.mark.parametrize("cards, objective, ties", [(8, "points", "discard"), (6, "win", "carry")])
def test_values_do_not_depend_on_the_number_of_threads(cards, objective, ties):
    tables = full_game_tables(cards)
    one = solve_layers(tables, objective, ties, threads=1)
    two = solve_layers(tables, objective, ties, threads=2)
    for a, b in zip(one.values, two.values):
        np.testing.assert_array_equal(a, b)
    assert one.stats.as_dict() | {"seconds": 0, "wall_seconds": 0} == two.stats.as_dict() | {"seconds": 0, "wall_seconds": 0}
    assert 0 < one.stats.support < one.stats.simplex
    assert "on a neighbour's support" in one.stats.methods_line()
