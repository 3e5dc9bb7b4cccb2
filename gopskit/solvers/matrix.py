"""Matrix games: zero-sum values, dominance, best responses, bimatrix equilibria.

A *matrix game* has a row player and a column player who each pick one of
their pure strategies at the same time. ``A[i, j]`` is what the row player
gets when row ``i`` meets column ``j``; in a zero-sum game the column player
gets ``-A[i, j]``, in a bimatrix (general-sum) game they get ``B[i, j]``.

Everything here is a plain function on numpy arrays (Nashpy's shape);
:class:`LabelledMatrix` only carries card labels for the lessons and
forwards to the functions.

>>> value, rows, cols = solve_zero_sum([[1, -1], [-1, 1]])   # Matching Pennies
>>> round(value, 9) + 0, rows.round(3).tolist(), cols.round(3).tolist()
(0.0, [0.5, 0.5], [0.5, 0.5])
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy.optimize import linprog

from ._matrix_base import (  # noqa: F401  (re-exported)
    TOLERANCE, DegenerateGameError, MatrixGameError, _bimatrix, as_payoff_matrix, as_strategy,
)


# ------------------------------------------------------------ zero-sum ---
class ZeroSumSolution(NamedTuple):
    """The value of a zero-sum game (to the row player) and one optimal strategy per player."""

    value: float
    row_strategy: np.ndarray
    col_strategy: np.ndarray


def solve_zero_sum(payoffs) -> ZeroSumSolution:
    """Value and optimal mixed strategies of the zero-sum game ``payoffs`` (row player's gains).

    Steps (von Neumann's minimax theorem as a linear program, solved by
    SciPy's HiGHS):

    1. if a pure saddle point exists, return it (no LP needed);
    2. the row player maximises ``v`` subject to ``x @ A[:, j] >= v`` for
       every column ``j``, ``x >= 0``, ``sum(x) == 1``;
    3. the column player solves the same problem on ``-A.T``; the two values
       agree (minimax theorem) and the function checks that they do.

    >>> solve_zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]).row_strategy.round(4).tolist()  # RPS
    [0.3333, 0.3333, 0.3333]
    """
    A = as_payoff_matrix(payoffs)
    saddle = pure_saddle_points(A)
    if saddle:
        i, j = saddle[0]
        return ZeroSumSolution(float(A[i, j]), as_strategy(i, A.shape[0]), as_strategy(j, A.shape[1]))
    value, rows = _maximin_lp(A)
    minus_value, cols = _maximin_lp(-A.T)
    if abs(value + minus_value) > 1e-6 * max(1.0, np.abs(A).max()):
        raise MatrixGameError(f"the LP solver disagreed with itself ({value} vs {-minus_value}); the matrix may be badly scaled")
    return ZeroSumSolution(value, rows, cols)


def _maximin_lp(A: np.ndarray) -> tuple[float, np.ndarray]:
    """Maximise the row player's guaranteed payoff: variables ``(x_1..x_m, v)``."""
    m, n = A.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0  # linprog minimises: minimise -v
    upper = np.hstack([-A.T, np.ones((n, 1))])  # v - x @ A[:, j] <= 0
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if result.status != 0:
        raise MatrixGameError(f"the LP solver failed on this matrix: {result.message}")
    x = np.clip(result.x[:m], 0, None)
    x /= x.sum()
    return float((x @ A).min()), x


def pure_saddle_points(payoffs) -> list[tuple[int, int]]:
    """Cells ``(i, j)`` that are the smallest in their row and the largest in their column.

    A saddle point solves a zero-sum game in pure strategies: neither player
    gains by moving away from it. Most games have none (the list is empty).

    >>> pure_saddle_points([[3, 1], [4, 2]])
    [(1, 1)]
    """
    A = as_payoff_matrix(payoffs)
    row_min = A.min(axis=1, keepdims=True)
    col_max = A.max(axis=0, keepdims=True)
    cells = np.argwhere((A == row_min) & (A == col_max))
    return [(int(i), int(j)) for i, j in cells]


def maximin_minimax(payoffs) -> tuple[float, float]:
    """The pure-strategy security levels: ``max_i min_j A[i, j]`` and ``min_j max_i A[i, j]``.

    The game's value always lies between them; they are equal exactly when
    there is a pure saddle point.

    >>> maximin_minimax([[1, -1], [-1, 1]])
    (-1.0, 1.0)
    """
    A = as_payoff_matrix(payoffs)
    return float(A.min(axis=1).max()), float(A.max(axis=0).min())


# ------------------------------------------------------- best responses ---
def row_payoffs_against(payoffs, col_strategy) -> np.ndarray:
    """Expected payoff of each row against the column player's mixed strategy."""
    A = as_payoff_matrix(payoffs)
    return A @ as_strategy(col_strategy, A.shape[1], "column strategy")


def best_responses(payoffs, opponent_strategy, player: str = "row", tol: float = TOLERANCE) -> list[int]:
    """Indices of ``player``'s pure best responses to the other player's mixed strategy.

    ``payoffs`` is that player's own payoff matrix, rows always the row
    player's strategies: the row player's ``A``, or the column player's
    ``B`` (``-A`` in a zero-sum game).

    >>> best_responses([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], [1, 0, 0])  # against Rock: Paper
    [1]
    """
    A = as_payoff_matrix(payoffs)
    if player == "row":
        gains = A @ as_strategy(opponent_strategy, A.shape[1], "column strategy")
    elif player == "column":
        gains = as_strategy(opponent_strategy, A.shape[0], "row strategy") @ A
    else:
        raise MatrixGameError(f"player must be 'row' or 'column', not {player!r}")
    return [int(i) for i in np.flatnonzero(gains >= gains.max() - tol)]


# --------------------------------------------------------------- dominance --
@dataclasses.dataclass(frozen=True)
class EliminationStep:
    """One strategy struck out: ``player`` ("row"/"column"), its index, the dominating
    strategy (an index, or ``{index: probability}`` for a mixture) and ``kind`` ("strict"/"weak")."""

    player: str
    strategy: int
    dominated_by: int | dict
    kind: str

    def explain(self, row_labels: Sequence | None = None, col_labels: Sequence | None = None) -> str:
        labels = row_labels if self.player == "row" else col_labels
        name = (lambda i: str(labels[i])) if labels is not None else (lambda i: f"#{i}")
        if isinstance(self.dominated_by, dict):
            by = " + ".join(f"{p:.3g}x{name(i)}" for i, p in self.dominated_by.items())
        else:
            by = name(self.dominated_by)
        return f"{self.player} {name(self.strategy)} is {self.kind}ly dominated by {by}"


class Elimination(NamedTuple):
    """The elimination order and the original indices of the surviving rows and columns."""

    steps: list[EliminationStep]
    rows: list[int]
    cols: list[int]


def eliminate_dominated(row_payoffs, col_payoffs=None, *, weak: bool = False, mixed: bool = False) -> Elimination:
    """Iterated elimination of dominated strategies, one strategy at a time.

    ``col_payoffs`` defaults to ``-row_payoffs`` (a zero-sum game). Order, so
    that a lesson can replay it: each step scans the row player first, then
    the column player, strategies in index order, and strikes the first one
    that is strictly dominated; only when none is strict does it (with
    ``weak=True``) strike the first weakly dominated one (never worse, better
    somewhere). Dominating strategies are pure unless ``mixed=True``, when a
    mixture found by linear programming may dominate too. Strict elimination
    gives the same survivors in any order; weak elimination depends on it.

    >>> [(s.player, s.strategy, s.dominated_by) for s in eliminate_dominated([[3, 2], [1, 0]]).steps]
    [('row', 1, 0), ('column', 0, 1)]
    """
    A, B = _bimatrix(row_payoffs, col_payoffs)
    rows, cols, steps = list(range(A.shape[0])), list(range(A.shape[1])), []
    kinds = ("strict", "weak") if weak else ("strict",)
    while True:
        step = None
        for kind in kinds:
            step = _first_dominated(A, B, rows, cols, kind, mixed)
            if step:
                break
        if step is None:
            return Elimination(steps, rows, cols)
        steps.append(step)
        (rows if step.player == "row" else cols).remove(step.strategy)


def _first_dominated(A, B, rows, cols, kind, mixed):
    for player, own, other, table in (("row", rows, cols, A), ("column", cols, rows, B.T)):
        if len(own) < 2:
            continue
        sub = table[np.ix_(own, other)]
        for k, strategy in enumerate(own):
            by = _dominator(sub, k, kind, mixed)
            if by is not None:
                by = own[by] if not isinstance(by, dict) else {own[i]: p for i, p in by.items()}
                return EliminationStep(player, strategy, by, kind)
    return None


def _dominator(sub: np.ndarray, k: int, kind: str, mixed: bool):
    """Index (or mixture) of a strategy dominating row ``k`` of ``sub``, or None."""
    target = sub[k]
    for i in range(sub.shape[0]):
        if i == k:
            continue
        diff = sub[i] - target
        if kind == "strict" and np.all(diff > TOLERANCE):
            return i
        if kind == "weak" and np.all(diff >= -TOLERANCE) and np.any(diff > TOLERANCE):
            return i
    return _mixed_dominator(sub, k, kind) if mixed and sub.shape[0] > 2 else None


def _mixed_dominator(sub, k, kind):
    """LP: a mixture ``p`` of the other rows with ``p @ others >= target + eps``."""
    others = [i for i in range(sub.shape[0]) if i != k]
    M, target = sub[others], sub[k]
    n = M.shape[1]
    if kind == "strict":  # maximise one common margin eps
        cost = np.r_[np.zeros(len(others)), -1.0]
        upper = np.hstack([-M.T, np.ones((n, 1))])
        bounds = [(0, None)] * len(others) + [(None, 1.0)]
    else:  # maximise the total slack, each slack >= 0
        cost = np.r_[np.zeros(len(others)), -np.ones(n)]
        upper = np.hstack([-M.T, np.eye(n)])
        bounds = [(0, None)] * len(others) + [(0, 1.0)] * n
    equal = np.r_[np.ones(len(others)), np.zeros(upper.shape[1] - len(others))][None, :]
    result = linprog(cost, A_ub=upper, b_ub=-target, A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if result.status != 0 or -result.fun <= 1e-7:
        return None
    p = result.x[: len(others)]
    return {others[i]: float(p[i]) for i in np.flatnonzero(p > 1e-9)}


# ---------------------------------------------------- bimatrix equilibria --
from ._matrix_nash import Equilibrium, degeneracy_witness, nash_equilibria  # noqa: E402


# --------------------------------------------------------- labelled games --
@dataclasses.dataclass(frozen=True)
class LabelledMatrix:
    """A payoff matrix with a label for each row and column (e.g. card values), for display.

    ``payoffs`` are the row player's; ``col_payoffs`` the column player's
    (``None``: zero-sum). Methods forward to the module functions.

    >>> game = LabelledMatrix([[1, -1], [-1, 1]], ["heads", "tails"], ["heads", "tails"])
    >>> print(game.to_text())
             heads  tails
    heads        1     -1
    tails       -1      1
    """

    payoffs: np.ndarray
    row_labels: tuple
    col_labels: tuple
    col_payoffs: np.ndarray | None = None
    title: str = ""

    def __post_init__(self):
        object.__setattr__(self, "payoffs", as_payoff_matrix(self.payoffs))
        if self.col_payoffs is not None:
            object.__setattr__(self, "col_payoffs", _bimatrix(self.payoffs, self.col_payoffs)[1])
        object.__setattr__(self, "row_labels", tuple(self.row_labels))
        object.__setattr__(self, "col_labels", tuple(self.col_labels))
        if len(self.row_labels) != self.payoffs.shape[0] or len(self.col_labels) != self.payoffs.shape[1]:
            raise MatrixGameError(
                f"need {self.payoffs.shape[0]} row labels and {self.payoffs.shape[1]} column labels, "
                f"got {len(self.row_labels)} and {len(self.col_labels)}"
            )

    def solve(self) -> ZeroSumSolution:
        return solve_zero_sum(self.payoffs)

    def eliminate(self, weak: bool = False, mixed: bool = False) -> Elimination:
        return eliminate_dominated(self.payoffs, self.col_payoffs, weak=weak, mixed=mixed)

    def equilibria(self, degenerate: str = "raise") -> list[Equilibrium]:
        return nash_equilibria(self.payoffs, self.col_payoffs, degenerate=degenerate)

    def to_text(self, digits: int = 3) -> str:
        """The matrix as an aligned text table (rows labelled on the left)."""
        cells = [[f"{v:.{digits}g}" for v in row] for row in self.payoffs]
        width = max(len(str(x)) for x in (*self.row_labels, *self.col_labels, *itertools.chain(*cells))) + 2
        lines = [" " * width + "".join(f"{str(c):>{width}}" for c in self.col_labels)]
        lines += [f"{str(r):<{width}}" + "".join(f"{v:>{width}}" for v in row) for r, row in zip(self.row_labels, cells)]
        return "\n".join(line.rstrip() for line in lines)


from ._matrix_goofspiel import goofspiel_turn_matrix  # noqa: E402

__all__ = [
    "DegenerateGameError", "goofspiel_turn_matrix", "Elimination", "EliminationStep", "Equilibrium", "LabelledMatrix", "MatrixGameError",
    "ZeroSumSolution", "as_payoff_matrix", "as_strategy", "best_responses", "degeneracy_witness",
    "eliminate_dominated", "maximin_minimax", "nash_equilibria", "pure_saddle_points", "row_payoffs_against",
    "solve_zero_sum",
]
