"""Learning dynamics on matrix games: fictitious play and regret matching (and RM+).

Each algorithm is a *generator* yielding one step per iteration, so a widget
can animate the strategies as they move and plot the exploitability as it
falls; :func:`run` keeps only the last step and :func:`nash_conv_trace`
collects the exploitability curve.

``nash_conv`` in every step is how much the two players together could gain
by switching to a best response (0 exactly at an equilibrium; for a
zero-sum game it is ``max(A @ y) - min(x @ A)``).

>>> rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
>>> last = run(regret_matching(rps, iterations=2000, plus=True))
>>> last.row_average.round(2).tolist(), last.nash_conv < 0.01
([0.33, 0.33, 0.33], True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np

from ..errors import GopsError
from .matrix import MatrixGameError, _bimatrix, as_strategy


def nash_conv(row_payoffs, row_strategy, col_strategy, col_payoffs=None) -> float:
    """Sum of what each player gains by switching to a best response (0 at an equilibrium).

    >>> nash_conv([[1, -1], [-1, 1]], [1, 0], [1, 0])  # Pennies: the column player gains 2 by switching
    2.0
    """
    A, B = _bimatrix(row_payoffs, col_payoffs)
    x = as_strategy(row_strategy, A.shape[0], "row strategy")
    y = as_strategy(col_strategy, A.shape[1], "column strategy")
    return _nash_conv(A, B, x, y)


def _nash_conv(A, B, x, y) -> float:
    return float((A @ y).max() - x @ A @ y + (x @ B).max() - x @ B @ y)


class FictitiousPlayStep(NamedTuple):
    """One round of fictitious play: the moves just played and the empirical mixes so far."""

    iteration: int
    row_move: int
    col_move: int
    row_counts: np.ndarray
    col_counts: np.ndarray
    row_strategy: np.ndarray
    col_strategy: np.ndarray
    nash_conv: float


def fictitious_play(row_payoffs, col_payoffs=None, iterations: int = 1000, *, first_moves=(0, 0),
                    rng: np.random.Generator | None = None) -> Iterator[FictitiousPlayStep]:
    """Fictitious play (Brown, 1951): each player best-responds to the other's history.

    Steps:

    1. round 1: the players play ``first_moves``;
    2. every later round, each player (simultaneously) plays a pure best
       response to the *empirical frequencies* of the other's past moves;
       ties go to the lowest index, or are drawn with ``rng`` when given;
    3. yield the counts, the frequencies (the learned mixed strategies) and
       their ``nash_conv``.

    In two-player zero-sum games the frequencies converge to an equilibrium
    (Robinson, 1951), slowly and with cycles, which is what a widget shows.

    >>> steps = list(fictitious_play([[1, -1], [-1, 1]], iterations=400))
    >>> steps[-1].row_strategy.round(1).tolist()
    [0.5, 0.5]
    """
    A, B = _bimatrix(row_payoffs, col_payoffs)
    _check_iterations(iterations)
    i, j = (as_strategy(move, size, who).argmax() for move, size, who in
            zip(first_moves, A.shape, ("first row move", "first column move")))
    row_counts, col_counts = np.zeros(A.shape[0]), np.zeros(A.shape[1])
    for t in range(1, iterations + 1):
        row_counts[i] += 1
        col_counts[j] += 1
        x, y = row_counts / t, col_counts / t
        yield FictitiousPlayStep(t, int(i), int(j), row_counts.copy(), col_counts.copy(), x, y,
                                 _nash_conv(A, B, x, y))
        i, j = _pick_best(A @ y, rng), _pick_best(x @ B, rng)


def _pick_best(gains: np.ndarray, rng) -> int:
    best = np.flatnonzero(gains >= gains.max() - 1e-12)
    return int(best[0] if rng is None else rng.choice(best))


class RegretStep(NamedTuple):
    """One iteration of regret matching: the current mixes, the averages and their nash_conv."""

    iteration: int
    row_current: np.ndarray
    col_current: np.ndarray
    row_average: np.ndarray
    col_average: np.ndarray
    row_regrets: np.ndarray
    col_regrets: np.ndarray
    nash_conv: float


def regret_matching(row_payoffs, col_payoffs=None, iterations: int = 1000, *, plus: bool = False) -> Iterator[RegretStep]:
    """Regret matching (Hart & Mas-Colell, 2000), or regret matching+ (Tammelin, 2014).

    Steps, every iteration (with expected payoffs):

    1. play each strategy in proportion to its positive cumulative regret
       (uniformly when no regret is positive);
    2. add to each strategy's regret what it would have earned minus what
       the current mix earned against the other's current mix. Plain RM
       updates both players at once; RM+ floors every cumulative regret at
       0 and updates in turn (the column player answers the row player's
       updated mix), as CFR+ does;
    3. average the mixes over time (RM: equal weights; RM+: weight ``t``,
       which makes it converge much faster).

    The *average* strategies approach an equilibrium in zero-sum games
    (and a coarse correlated equilibrium in general); ``nash_conv`` is of the
    averages.

    >>> step = run(regret_matching([[1, -1], [-1, 1]], iterations=1000))
    >>> step.row_average.round(1).tolist()
    [0.5, 0.5]
    """
    A, B = _bimatrix(row_payoffs, col_payoffs)
    _check_iterations(iterations)
    regrets = [np.zeros(A.shape[0]), np.zeros(A.shape[1])]
    sums = [np.zeros(A.shape[0]), np.zeros(A.shape[1])]
    for t in range(1, iterations + 1):
        x, y = (_matched(r) for r in regrets)
        regrets[0] += A @ y - x @ A @ y
        if plus:  # RM+ updates in turn: the column player answers the row player's new mix
            regrets[0] = np.maximum(regrets[0], 0.0)
            x = _matched(regrets[0])
        regrets[1] += x @ B - x @ B @ y
        if plus:
            regrets[1] = np.maximum(regrets[1], 0.0)
        weight = t if plus else 1
        sums[0] += weight * x
        sums[1] += weight * y
        x_bar, y_bar = sums[0] / sums[0].sum(), sums[1] / sums[1].sum()
        yield RegretStep(t, x, y, x_bar, y_bar, regrets[0].copy(), regrets[1].copy(), _nash_conv(A, B, x_bar, y_bar))


def _matched(regret: np.ndarray) -> np.ndarray:
    positive = np.maximum(regret, 0.0)
    total = positive.sum()
    return positive / total if total > 0 else np.full(regret.size, 1.0 / regret.size)


def _check_iterations(iterations):
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise MatrixGameError(f"iterations must be a whole number of at least 1, not {iterations!r}")


def run(steps: Iterable):
    """Run a learning generator to the end and return its last step.

    >>> run(fictitious_play([[1, 0], [0, 1]], iterations=3)).iteration
    3
    """
    last = None
    for last in steps:
        pass
    if last is None:
        raise GopsError("the learning run produced no step")
    return last


def nash_conv_trace(steps: Iterable) -> np.ndarray:
    """The ``nash_conv`` of every step, as an array (for a convergence plot).

    >>> nash_conv_trace(regret_matching([[1, -1], [-1, 1]], iterations=5)).shape
    (5,)
    """
    return np.array([step.nash_conv for step in steps])


__all__ = ["FictitiousPlayStep", "RegretStep", "fictitious_play", "nash_conv", "nash_conv_trace",
           "regret_matching", "run"]
