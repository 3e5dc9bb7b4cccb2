"""Learning dynamics: hand-checked first steps and convergence of the traces."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gopskit.errors import GopsError
from gopskit.solvers.learning import fictitious_play, nash_conv, nash_conv_trace, regret_matching, run
from gopskit.solvers.matrix import solve_zero_sum

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def test_nash_conv_by_hand():
    # Rock vs Rock in RPS: each could gain 1 by switching to Paper.
    assert nash_conv(RPS, [1, 0, 0], [1, 0, 0]) == 2.0
    assert nash_conv(RPS, [1 / 3] * 3, [1 / 3] * 3) == pytest.approx(0, abs=1e-12)
    # Prisoner's Dilemma at mutual cooperation: each gains 2 by defecting.
    assert nash_conv([[3, 0], [5, 1]], [1, 0], [1, 0], [[3, 5], [0, 1]]) == 4.0


def test_fictitious_play_first_rounds_by_hand():
    steps = list(fictitious_play(RPS, iterations=3))
    # Round 1: Rock vs Rock. Round 2: both answer Rock with Paper. Round 3: both have seen
    # one Rock and one Paper; Paper earns 1/2, Scissors 0, Rock -1/2, so Paper again.
    assert [(s.row_move, s.col_move) for s in steps] == [(0, 0), (1, 1), (1, 1)]
    assert steps[-1].row_counts.tolist() == [1, 2, 0]
    assert steps[-1].row_strategy == pytest.approx([1 / 3, 2 / 3, 0])


def test_fictitious_play_trace_falls_toward_zero_on_rps():
    trace = nash_conv_trace(fictitious_play(RPS, iterations=3000))
    assert trace[0] == 2.0
    assert trace[-1] < 0.05
    assert trace[-500:].max() < trace[:50].max() / 10


def test_regret_matching_first_step_by_hand():
    first = next(regret_matching(RPS))
    assert first.row_current == pytest.approx([1 / 3] * 3)  # no regret yet: uniform
    assert first.row_regrets == pytest.approx([0, 0, 0])  # uniform vs uniform: nothing to regret


@pytest.mark.parametrize("plus", [False, True])
def test_regret_matching_trace_falls_toward_zero_on_rps(plus):
    # A lopsided start: the column player must learn before the trace falls.
    A = np.array(RPS, float) + np.array([[0, 0, 0.5], [0, 0, 0], [0, 0, 0]])
    value = solve_zero_sum(A).value
    trace = nash_conv_trace(regret_matching(A, iterations=4000, plus=plus))
    assert trace[-1] < (0.002 if plus else 0.05)
    assert trace[-1] < trace[9]
    last = run(regret_matching(A, iterations=4000, plus=plus))
    assert last.row_average @ A @ last.col_average == pytest.approx(value, abs=0.05)


def test_regret_matching_plus_beats_plain_on_weighted_rps():
    A = [[0, -1, 2], [1, 0, -1], [-1, 1, 0]]  # Rock beats Scissors for 2: the equilibrium is not uniform
    plain = nash_conv_trace(regret_matching(A, iterations=1000))
    plus = nash_conv_trace(regret_matching(A, iterations=1000, plus=True))
    assert plain[-1] > 1e-4
    assert plus[-1] < plain[-1] / 5


def test_bad_iterations_rejected():
    with pytest.raises(GopsError, match="at least 1"):
        list(fictitious_play(RPS, iterations=0))
    with pytest.raises(GopsError, match="at least 1"):
        list(regret_matching(RPS, iterations=-3))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_rm_plus_approaches_the_lp_value_on_random_games(seed):
    A = np.random.default_rng(seed).integers(-4, 5, size=(3, 4)).astype(float)
    last = run(regret_matching(A, iterations=1200, plus=True))
    assert last.nash_conv < 0.05
    assert last.row_average @ A @ last.col_average == pytest.approx(solve_zero_sum(A).value, abs=0.05)
