"""Nash equilibria of small bimatrix games by support enumeration (re-exported by :mod:`.matrix`)."""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np
from scipy.optimize import linprog

from ._matrix_base import TOLERANCE, DegenerateGameError, MatrixGameError, _bimatrix

MAX_SUPPORT_PAIRS = 200_000


class Equilibrium(NamedTuple):
    """One Nash equilibrium of a bimatrix game and what each player expects to get."""

    row_strategy: np.ndarray
    col_strategy: np.ndarray
    row_payoff: float
    col_payoff: float


def nash_equilibria(row_payoffs, col_payoffs=None, *, degenerate: str = "raise") -> list[Equilibrium]:
    """All Nash equilibria of a small bimatrix game, by support enumeration.

    Steps (support enumeration, von Stengel, *Equilibrium computation for
    two-player games*, 2007): for every pair of supports ``S`` (rows) and ``T``
    (columns) of equal size, solve the linear equations that make the
    column player indifferent among ``T`` (using ``x`` on ``S``) and the row
    player indifferent among ``S`` (using ``y`` on ``T``); keep the solutions
    that are probabilities and where no strategy outside the support does
    better. In a *nondegenerate* game this finds every equilibrium, each once.

    A *degenerate* game (a mixed strategy with support size k has more than
    k best responses, e.g. two equal payoffs in a column) may have
    infinitely many equilibria. ``degenerate="raise"`` (default) refuses it
    with :class:`DegenerateGameError`; ``degenerate="allow"`` tries every
    pair of supports of any sizes with a linear program and returns one
    equilibrium per support pair that has any (duplicates removed): every
    extreme point may not be listed, but every list entry is an equilibrium.

    >>> eqs = nash_equilibria([[3, 0], [0, 2]], [[2, 0], [0, 3]])  # Battle of the Sexes
    >>> [e.row_strategy.round(2).tolist() for e in eqs]
    [[1.0, 0.0], [0.0, 1.0], [0.6, 0.4]]
    """
    A, B = _bimatrix(row_payoffs, col_payoffs)
    if degenerate not in ("raise", "allow"):
        raise MatrixGameError(f"degenerate must be 'raise' or 'allow', not {degenerate!r}")
    m, n = A.shape
    if degenerate == "raise":
        pairs = sum(math.comb(m, k) * math.comb(n, k) for k in range(1, min(m, n) + 1))
    else:
        pairs = (2**m - 1) * (2**n - 1)
    if pairs > MAX_SUPPORT_PAIRS:
        raise MatrixGameError(
            f"a {m}x{n} game has {pairs} support pairs to try, more than the {MAX_SUPPORT_PAIRS} allowed; "
            "support enumeration is for small games (eliminate dominated strategies first)"
        )
    if degenerate == "raise":
        why = degeneracy_witness(A, B)
        if why:
            raise DegenerateGameError(f"the game is degenerate: {why}; call with degenerate='allow' to list "
                                      "one equilibrium per support pair (there may be infinitely many)")
        found = [e for S, T in _equal_supports(m, n) if (e := _square_support_equilibrium(A, B, S, T))]
    else:
        found = [e for S in _supports(m) for T in _supports(n) if (e := _lp_support_equilibrium(A, B, S, T))]
    return _unique(found)


def _supports(size):
    return [s for k in range(1, size + 1) for s in itertools.combinations(range(size), k)]


def _equal_supports(m, n):
    for k in range(1, min(m, n) + 1):
        for S in itertools.combinations(range(m), k):
            for T in itertools.combinations(range(n), k):
                yield S, T


def _indifferent_mix(M: np.ndarray):
    """Solve for a mix ``p`` (over M's rows) making every column of ``M`` pay the same; None if singular."""
    k = M.shape[0]
    system = np.zeros((k + 1, k + 1))
    system[:k, :k] = M.T
    system[:k, k] = -1.0
    system[k, :k] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    try:
        solution = np.linalg.solve(system, rhs)
    except np.linalg.LinAlgError:
        return None
    return solution[:k]


def _square_support_equilibrium(A, B, S, T):
    x_s = _indifferent_mix(B[np.ix_(S, T)])
    y_t = _indifferent_mix(A[np.ix_(S, T)].T)
    if x_s is None or y_t is None or x_s.min() < -TOLERANCE or y_t.min() < -TOLERANCE:
        return None
    x, y = np.zeros(A.shape[0]), np.zeros(A.shape[1])
    x[list(S)], y[list(T)] = np.clip(x_s, 0, None), np.clip(y_t, 0, None)
    return _checked(A, B, x / x.sum(), y / y.sum())


def _checked(A, B, x, y):
    row_gains, col_gains = A @ y, x @ B
    if row_gains.max() > x @ row_gains + 1e-7 or col_gains.max() > col_gains @ y + 1e-7:
        return None
    return Equilibrium(x, y, float(x @ A @ y), float(x @ B @ y))


def _lp_support_equilibrium(A, B, S, T):
    x = _lp_mix_making_best(B, S, T)
    y = _lp_mix_making_best(A.T, T, S)
    if x is None or y is None:
        return None
    return _checked(A, B, x, y)


def _lp_mix_making_best(M, S, T):
    """A mix on rows ``S`` of ``M`` under which every column in ``T`` is a best column (LP), or None."""
    m, n = M.shape
    k = len(S)
    sub = M[list(S)]  # k x n
    others = [j for j in range(n) if j not in T]
    rows_eq = [np.r_[sub[:, j], -1.0] for j in T] + [np.r_[np.ones(k), 0.0]]
    rhs_eq = [0.0] * len(T) + [1.0]
    rows_ub = [np.r_[sub[:, j], -1.0] for j in others]
    result = linprog(np.zeros(k + 1), A_ub=np.array(rows_ub) if rows_ub else None,
                     b_ub=np.zeros(len(rows_ub)) if rows_ub else None, A_eq=np.array(rows_eq), b_eq=rhs_eq,
                     bounds=[(0, None)] * k + [(None, None)], method="highs")
    if result.status != 0:
        return None
    x = np.zeros(m)
    x[list(S)] = np.clip(result.x[:k], 0, None)
    return x / x.sum()


def _unique(equilibria):
    kept = []
    for e in equilibria:
        if not any(np.allclose(e.row_strategy, k.row_strategy, atol=1e-7)
                   and np.allclose(e.col_strategy, k.col_strategy, atol=1e-7) for k in kept):
            kept.append(e)
    return kept


def degeneracy_witness(row_payoffs, col_payoffs=None) -> str | None:
    """Say why the bimatrix game is degenerate, or return None when it is nondegenerate.

    The game is degenerate when some mixed strategy with support size ``k``
    has more than ``k`` pure best responses (von Stengel's definition). The
    check tries every support ``S`` and every set of ``|S| + 1`` replies.

    >>> degeneracy_witness([[1, 1], [0, 2]], [[1, 1], [0, 2]])
    'row strategy mixing rows [0] has 2 best replies, columns [0, 1]'
    """
    A, B = _bimatrix(row_payoffs, col_payoffs)
    for player, M, other in (("row", B, "columns"), ("column", A.T, "rows")):
        k_max = min(M.shape[0], M.shape[1] - 1)
        for k in range(1, k_max + 1):
            for S in itertools.combinations(range(M.shape[0]), k):
                for T in itertools.combinations(range(M.shape[1]), k + 1):
                    if _makes_all_best(M, S, T):
                        return f"{player} strategy mixing {'rows' if player == 'row' else 'columns'} {list(S)} has {k + 1} best replies, {other} {list(T)}"
    return None


def _makes_all_best(M, S, T) -> bool:
    """Is there a mix on rows ``S`` under which every column in ``T`` is a best column?

    Least squares first (the usual case: the equations have no solution or
    exactly one); a linear program only when the equations are rank-deficient.
    """
    k = len(S)
    sub = M[list(S)]
    system = np.vstack([np.c_[sub[:, list(T)].T, -np.ones(len(T))], np.r_[np.ones(k), 0.0]])
    rhs = np.r_[np.zeros(len(T)), 1.0]
    solution, _, rank, _ = np.linalg.lstsq(system, rhs, rcond=None)
    if rank < k + 1:
        return _lp_mix_making_best(M, S, T) is not None
    if np.abs(system @ solution - rhs).max() > 1e-9 or solution[:k].min() < -TOLERANCE:
        return False
    return bool((solution[:k] @ sub).max() <= solution[k] + 1e-9)
