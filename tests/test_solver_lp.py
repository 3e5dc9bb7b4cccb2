"""The compiled matrix-game solver against scipy's HiGHS and against hand-worked games."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from goofspiel_reference import highs_game
from gopskit.solvers import _exact_lp
from gopskit.solvers._exact_lp import STATUS_PURE, STATUS_SIMPLEX, matrix_game, solve_game


def _solve_with_status(M):
    M = np.asarray(M, dtype=float)
    m, n = M.shape
    x, y = np.zeros(m), np.zeros(n)
    value, status = solve_game(M, m, n, x, y, np.zeros((m + 1, n + 1)), np.zeros(m + n, dtype=np.int64))
    return value, status, x, y


def _assert_optimal(M, value, x, y, tol=1e-9):
    M = np.asarray(M, dtype=float)
    assert x.min() >= 0 and y.min() >= 0
    assert x.sum() == pytest.approx(1, abs=1e-12) and y.sum() == pytest.approx(1, abs=1e-12)
    assert (x @ M).min() >= value - tol, "the row strategy does not guarantee the value"
    assert (M @ y).max() <= value + tol, "the column strategy concedes more than the value"


def test_rock_paper_scissors():
    value, x, y = matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert value == pytest.approx(0, abs=1e-12)
    np.testing.assert_allclose(x, [1 / 3] * 3, atol=1e-12)
    np.testing.assert_allclose(y, [1 / 3] * 3, atol=1e-12)


def test_two_by_two_by_hand():
    """[[3,-1],[1,2]]: no saddle; value (3*2 - (-1)*1)/(3+2+1-1) = 7/5, rows mixed 1:4."""
    value, status, x, y = _solve_with_status([[3, -1], [1, 2]])
    assert status == STATUS_SIMPLEX
    assert value == pytest.approx(1.4, abs=1e-12)
    np.testing.assert_allclose(x, [0.2, 0.8], atol=1e-12)
    np.testing.assert_allclose(y, [0.6, 0.4], atol=1e-12)


def test_a_pure_saddle_point_needs_no_simplex():
    value, status, x, y = _solve_with_status([[4, 2, 5], [1, 0, 7], [3, 1, 2]])
    assert status == STATUS_PURE and value == 2
    assert x.tolist() == [1, 0, 0] and y.tolist() == [0, 1, 0]


def test_one_by_n_and_m_by_one():
    assert matrix_game([[3, -2, 5]])[0] == -2
    assert matrix_game([[3], [-2], [5]])[0] == 5


def test_near_duplicate_rows_regression():
    """A 9-card turn game whose near-equal rows once made the pivots divide by 1e-7."""
    M = [[-22.462816129650648, -25.121096791406963, -23.569613909133352, -20.05706686088083, -18.157241007406277, -18.157241007406277],
         [-18.462816129650648, -25.121096791406963, -23.569613909133352, -20.05706686088083, -18.15724113768048, -18.15724113768048],
         [-18.462816129650648, -25.121096791406963, -23.569613909133352, -20.05706686088083, -18.15724113768048, -18.15724113768048],
         [-18.462816129650648, -25.121096791406963, -23.569613909133352, -20.05706686088083, -18.15724113768048, -18.15724113768048],
         [-20.695428021778078, -18.88967551400875, -22.88967551400875, -24.95622666727951, -23.206386136440052, -23.206386136440052],
         [-23.800559050580983, -22.272789581905414, -20.59505582473647, -22.88967551400875, -26.88967551400875, -26.88967551400875]]
    value, status, x, y = _solve_with_status(M)
    assert status == STATUS_SIMPLEX
    assert value == pytest.approx(highs_game(M)[0], abs=1e-9)
    _assert_optimal(M, value, x, y)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 13), st.integers(1, 13), st.data())
def test_small_integer_games_match_highs(m, n, data):
    """Small integers make ties and degenerate pivots common: the hard case for a simplex."""
    M = data.draw(arrays(np.int64, (m, n), elements=st.integers(-3, 3))).astype(float)
    value, x, y = matrix_game(M)
    assert value == pytest.approx(highs_game(M)[0], abs=1e-9)
    _assert_optimal(M, value, x, y)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 13), st.integers(0, 2**32 - 1))
def test_real_games_with_repeated_and_nearly_repeated_rows_match_highs(size, seed):
    rng = np.random.default_rng(seed)
    M = rng.normal(scale=20, size=(size, size))
    if size > 2:  # copy some rows and columns, some with a tiny change, as Goofspiel turns have
        M[1] = M[0] + rng.choice([0.0, 1e-7, -1e-9])
        M[:, 2] = M[:, 0] + rng.choice([0.0, 1e-8])
    value, x, y = matrix_game(M)
    assert value == pytest.approx(highs_game(M)[0], abs=1e-8)
    _assert_optimal(M, value, x, y)


def test_many_random_games_are_certified_without_failure():
    rng = np.random.default_rng(2024)
    statuses = []
    for _ in range(2000):
        m, n = rng.integers(1, 14, size=2)
        M = np.round(rng.normal(size=(m, n)) * 10, int(rng.integers(0, 3)))
        value, status, x, y = _solve_with_status(M)
        statuses.append(status)
        _assert_optimal(M, value, x, y)
    assert set(statuses) <= {STATUS_PURE, STATUS_SIMPLEX}


@pytest.mark.parametrize("bad", [[], [[]], [[1, np.nan]], [1, 2, 3], [[[1]]]])
def test_bad_matrices_are_refused(bad):
    with pytest.raises(ValueError, match="matrix game"):
        matrix_game(bad)


def test_docstring_examples():
    assert doctest.testmod(_exact_lp).failed == 0
