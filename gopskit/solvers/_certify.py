"""Certifying a turn game that the compiled simplex could not certify.

The compiled solver (:mod:`._exact_lp`) checks every answer: the row
strategy must guarantee, and the column strategy concede, the same value to
within ``_GAP`` (relative). On a very large solve a handful of nearly
degenerate games miss that bar even after the Bland's-rule retry. Such a
game is never trusted: it goes down this chain until one method certifies
it, and the solution records which one did.

1. **HiGHS** (scipy's ``linprog``, dual simplex) with its feasibility
   tolerances tightened to 1e-10 (the smallest it accepts; its default is
   1e-7), both players' programs solved; the two
   strategies are checked with the same certificate as the compiled solver.
2. **Exact rational simplex.** The matrix entries are doubles, so each is a
   rational number exactly (:class:`fractions.Fraction` of a float loses
   nothing). The textbook program ``max sum(w), (M + shift) w <= 1, w >= 0``
   is solved in exact arithmetic with Bland's rule, which cannot cycle;
   the strategies read from the final tableau guarantee and concede exactly
   the same value, so the certificate holds with no tolerance at all. It is
   slow (milliseconds for a 13 x 13 game), which is why it comes last.

>>> value, x, y, method = certify_game([[3, -1], [1, 2]], methods=("exact",))
>>> method, value, [float(p) for p in x]
('exact', 1.4, [0.2, 0.8])
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

METHODS = ("highs", "exact")
_HIGHS_TOLERANCE = 1e-10  # HiGHS refuses feasibility tolerances below this


def certified_gap(M: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """``(lower, upper)``: what ``x`` guarantees the row player and what ``y`` concedes at most."""
    return float((x @ M).min()), float((M @ y).max())


def _normalised(p: np.ndarray) -> np.ndarray | None:
    p = np.clip(np.asarray(p, dtype=float), 0.0, None)
    total = p.sum()
    return p / total if total > 0 else None


def _highs_strategy(M: np.ndarray) -> np.ndarray | None:
    """The row player's maximin strategy of ``M`` by HiGHS: ``max v, x M >= v, sum x = 1``."""
    from scipy.optimize import linprog

    m, n = M.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0  # maximise v
    upper = np.hstack([-M.T, np.ones((n, 1))])  # v - (x M)_j <= 0
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    options = {"primal_feasibility_tolerance": _HIGHS_TOLERANCE, "dual_feasibility_tolerance": _HIGHS_TOLERANCE}
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds,
                     method="highs-ds", options=options)
    return _normalised(result.x[:m]) if result.status == 0 else None


def highs_game(M) -> tuple[float, np.ndarray, np.ndarray, float]:
    """Both players' strategies by HiGHS: ``(value, x, y, gap)``; ``gap`` is the certified gap (inf on failure)."""
    M = np.asarray(M, dtype=float)
    x, y = _highs_strategy(M), _highs_strategy(-M.T)
    if x is None or y is None:
        return float("nan"), np.zeros(M.shape[0]), np.zeros(M.shape[1]), float("inf")
    lower, upper = certified_gap(M, x, y)
    return 0.5 * (lower + upper), x, y, upper - lower


def exact_game(M) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """The exact value and optimal strategies of ``M`` (floats read as exact rationals).

    Solves ``max sum(w), (M + shift) w <= 1, w >= 0`` with a dense tableau
    in :class:`~fractions.Fraction` arithmetic and Bland's rule (Bland 1977:
    the lowest-index entering column and leaving row, which never cycles).
    """
    A = [[Fraction(float(a)) for a in row] for row in np.asarray(M, dtype=float)]
    m, n = len(A), len(A[0])
    shift = 1 - min(min(row) for row in A)
    ncol = n + m
    T = [[A[r][c] + shift for c in range(n)] + [Fraction(int(k == r)) for k in range(m)] + [Fraction(1)]
         for r in range(m)]
    T.append([Fraction(-1)] * n + [Fraction(0)] * (m + 1))
    basis = [n + r for r in range(m)]
    while True:
        col = next((c for c in range(ncol) if T[m][c] < 0), None)
        if col is None:
            break
        rows = [r for r in range(m) if T[r][col] > 0]
        best = min(T[r][ncol] / T[r][col] for r in rows)
        row = min((r for r in rows if T[r][ncol] / T[r][col] == best), key=lambda r: basis[r])
        pivot = T[row][col]
        T[row] = [v / pivot for v in T[row]]
        for r in range(m + 1):
            if r != row and T[r][col] != 0:
                f = T[r][col]
                T[r] = [a - f * b for a, b in zip(T[r], T[row])]
        basis[row] = col
    total = T[m][ncol]  # sum(w) at the optimum = 1 / (value + shift)
    y = [Fraction(0)] * n
    for r in range(m):
        if basis[r] < n:
            y[basis[r]] = T[r][ncol] / total
    x = [T[m][n + i] / total for i in range(m)]
    return 1 / total - shift, x, y


def _exact_certified(M) -> tuple[float, np.ndarray, np.ndarray] | None:
    value, x, y = exact_game(M)
    A = [[Fraction(float(a)) for a in row] for row in np.asarray(M, dtype=float)]
    lower = min(sum(x[i] * A[i][j] for i in range(len(x))) for j in range(len(y)))
    upper = max(sum(A[i][j] * y[j] for j in range(len(y))) for i in range(len(x)))
    if not (lower == upper == value and min(x) >= 0 and min(y) >= 0):
        return None
    return float(value), np.array([float(p) for p in x]), np.array([float(p) for p in y])


def certify_game(M, gap: float = 1e-10, methods=METHODS):
    """Solve ``M`` by the first method of ``methods`` that certifies it.

    Returns ``(value, x, y, method)``; ``method`` is ``"highs"`` (certified gap
    at most ``gap`` times the largest entry), ``"exact"`` (exact rational
    optimum) or ``"failed"`` if none did (the value is then HiGHS's midpoint,
    or nan).
    """
    M = np.asarray(M, dtype=float)
    unknown = set(methods) - set(METHODS)
    if unknown:
        raise ValueError(f"unknown certifying methods {sorted(unknown)}; allowed: {', '.join(METHODS)}")
    scale = max(1.0, float(np.abs(M).max()))
    fallback = (float("nan"), np.zeros(M.shape[0]), np.zeros(M.shape[1]))
    for method in methods:
        if method == "highs":
            value, x, y, width = highs_game(M)
            if width <= gap * scale:
                return value, x, y, "highs"
            if np.isfinite(value):
                fallback = (value, x, y)
        else:
            exact = _exact_certified(M)
            if exact is not None:
                return (*exact, "exact")
    return (*fallback, "failed")
