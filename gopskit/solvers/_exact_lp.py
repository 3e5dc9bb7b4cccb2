"""A compiled solver for small dense zero-sum matrix games.

The exact Goofspiel solver meets hundreds of thousands to billions of tiny
games (at most 13 x 13). A general LP library call costs milliseconds each; this
module solves one in about a microsecond, in three steps:

1. **Pure saddle point.** The largest row minimum is compared with the
   smallest column maximum; when they meet, both players have a pure optimal
   bid and no LP is needed (most Goofspiel turns end here).
2. **Simplex.** Otherwise the textbook reduction of a matrix game to a linear
   program (Dantzig 1951; see e.g. von Stengel, *Game Theory Basics*, ch. 9):
   shift the matrix so every entry is at least 1, then
   ``maximise sum(w) subject to A w <= 1, w >= 0``. The value is
   ``1 / sum(w)`` minus the shift, the column player's strategy is
   ``w / sum(w)`` and the row player's comes from the dual prices of the
   slack columns. A dense tableau with Dantzig's pivot rule is used; after
   ``_DANTZIG_PIVOTS`` pivots it falls back to Bland's rule, which cannot
   cycle.
3. **Certificate.** Both strategies are clipped, normalised and checked: the
   row strategy guarantees ``lower = min_j (x M)_j``, the column strategy
   concedes at most ``upper = max_i (M y)_i``. If ``upper - lower`` exceeds
   ``_GAP`` the solve is repeated with Bland's rule from the start; the value
   returned is the midpoint of the certified interval.

Everything here is tested against scipy's HiGHS (``tests/test_solver_lp.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

STATUS_PURE, STATUS_SIMPLEX, STATUS_FAILED = 0, 1, 2
_EPS = 1e-11  # pivots and reduced costs smaller than this count as zero
_HARRIS = 1e-9  # feasibility slack of the ratio test's first pass
_GAP = 1e-10  # the largest certified gap accepted without a retry
_DANTZIG_PIVOTS = 60


@njit(cache=True)
def pure_saddle(M, m, n, x, y):
    """Look for a pure saddle point of ``M[:m, :n]``.

    Returns ``(found, value)``; when found, ``x`` and ``y`` hold the pure
    strategies (one 1.0 each).
    """
    best_row, maxmin = 0, -np.inf
    for i in range(m):
        low = M[i, 0]
        for j in range(1, n):
            if M[i, j] < low:
                low = M[i, j]
        if low > maxmin:
            maxmin, best_row = low, i
    best_col, minmax = 0, np.inf
    for j in range(n):
        high = M[0, j]
        for i in range(1, m):
            if M[i, j] > high:
                high = M[i, j]
        if high < minmax:
            minmax, best_col = high, j
    if maxmin < minmax - 1e-12:
        return False, 0.0
    x[:m] = 0.0
    y[:n] = 0.0
    x[best_row] = 1.0
    y[best_col] = 1.0
    return True, M[best_row, best_col]


@njit(cache=True)
def _entering_column(T, m, ncol, bland):
    """The column to enter the basis, or -1 at the optimum."""
    best, best_cost = -1, -_EPS
    for c in range(ncol):
        cost = T[m, c]
        if cost < best_cost:
            best, best_cost = c, cost
            if bland:
                return c
    return best


@njit(cache=True)
def _leaving_row(T, m, ncol, col, basis, bland):
    """The row leaving the basis for ``col``: Harris's two-pass ratio test.

    Pass 1 finds the smallest ratio with every right-hand side relaxed by
    ``_HARRIS``; pass 2 takes, among the rows within that bound, the largest
    pivot element (Bland: the smallest basic index), so near-ties never make
    the tableau divide by a tiny number.
    """
    bound = np.inf
    for r in range(m):
        a = T[r, col]
        if a > _EPS:
            bound = min(bound, (max(T[r, ncol], 0.0) + _HARRIS) / a)
    row, best = -1, -1.0
    for r in range(m):
        a = T[r, col]
        if a > _EPS and max(T[r, ncol], 0.0) / a <= bound:
            if row < 0 or (bland and basis[r] < basis[row]) or (not bland and a > best):
                row, best = r, a
    return row


@njit(cache=True)
def _pivot(T, m, ncol, row, col):
    inv = 1.0 / T[row, col]
    for c in range(ncol + 1):
        T[row, c] *= inv
    for r in range(m + 1):
        if r != row:
            f = T[r, col]
            if f != 0.0:
                for c in range(ncol + 1):
                    T[r, c] -= f * T[row, c]
            T[r, col] = 0.0
    T[row, col] = 1.0


@njit(cache=True)
def _run_simplex(M, m, n, shift, T, basis, bland_only):
    """Fill and solve the tableau of ``max sum(w), (M + shift) w <= 1``; False if it stalled."""
    ncol = n + m
    T[: m + 1, : ncol + 1] = 0.0
    for r in range(m):
        for c in range(n):
            T[r, c] = M[r, c] + shift
        T[r, n + r] = 1.0
        T[r, ncol] = 1.0
        basis[r] = n + r
    for c in range(n):
        T[m, c] = -1.0
    for it in range(50 * (m + n) + 100):
        bland = bland_only or it >= _DANTZIG_PIVOTS
        col = _entering_column(T, m, ncol, bland)
        if col < 0:
            return True
        row = _leaving_row(T, m, ncol, col, basis, bland)
        if row < 0:  # unbounded: impossible for a shifted positive matrix
            return False
        _pivot(T, m, ncol, row, col)
        basis[row] = col
    return False


@njit(cache=True)
def _read_strategies(T, m, n, basis, x, y):
    """Turn the final tableau into normalised mixed strategies ``x`` and ``y``."""
    ncol = n + m
    x[:m] = 0.0
    y[:n] = 0.0
    for r in range(m):
        if basis[r] < n:
            y[basis[r]] = max(T[r, ncol], 0.0)
    for i in range(m):
        x[i] = max(T[m, n + i], 0.0)
    sx, sy = x[:m].sum(), y[:n].sum()
    if sx <= 0.0 or sy <= 0.0:
        return False
    x[:m] /= sx
    y[:n] /= sy
    return True


@njit(cache=True)
def certified_bounds(M, m, n, x, y):
    """``(lower, upper)``: what ``x`` guarantees the row player, what ``y`` concedes at most."""
    lower, upper = np.inf, -np.inf
    for j in range(n):
        s = 0.0
        for i in range(m):
            s += x[i] * M[i, j]
        lower = min(lower, s)
    for i in range(m):
        s = 0.0
        for j in range(n):
            s += M[i, j] * y[j]
        upper = max(upper, s)
    return lower, upper


@njit(cache=True)
def solve_game(M, m, n, x, y, T, basis):
    """Value of the zero-sum game ``M[:m, :n]`` (row player maximises).

    Writes optimal strategies into ``x[:m]`` and ``y[:n]``. ``T`` is a work
    array of at least ``(m + 1, m + n + 1)``, ``basis`` of at least ``m``.
    Returns ``(value, status)`` with status ``STATUS_PURE``,
    ``STATUS_SIMPLEX`` or ``STATUS_FAILED`` (certified gap still above
    ``_GAP`` after the Bland retry; the value is then the interval midpoint,
    and :mod:`._certify` must settle the game).
    """
    return solve_game_gap(M, m, n, x, y, T, basis, _GAP)


@njit(cache=True)
def solve_game_gap(M, m, n, x, y, T, basis, gap):
    """:func:`solve_game` with the accepted certified gap (relative) given: a test passes a
    negative ``gap`` to send every simplex game to the certifying fallback."""
    found, value = pure_saddle(M, m, n, x, y)
    if found:
        return value, STATUS_PURE
    low = np.inf
    for i in range(m):
        for j in range(n):
            low = min(low, M[i, j])
    shift = 1.0 - low
    scale = 1.0
    for i in range(m):
        for j in range(n):
            scale = max(scale, abs(M[i, j]))
    for attempt in range(2):
        ok = _run_simplex(M, m, n, shift, T, basis, attempt == 1)
        if ok and _read_strategies(T, m, n, basis, x, y):
            lower, upper = certified_bounds(M, m, n, x, y)
            if upper - lower <= gap * scale:
                return 0.5 * (lower + upper), STATUS_SIMPLEX
    lower, upper = certified_bounds(M, m, n, x, y)
    return 0.5 * (lower + upper), STATUS_FAILED


def matrix_game(matrix) -> tuple[float, np.ndarray, np.ndarray]:
    """Solve a zero-sum matrix game: ``(value, row strategy, column strategy)``.

    The row player maximises. A thin Python front to the compiled solver,
    for tests and one-off positions.

    >>> value, x, y = matrix_game([[3, -1], [1, 2]])
    >>> round(value, 12), [round(float(p), 12) for p in x]
    (1.4, [0.2, 0.8])
    """
    M = np.ascontiguousarray(matrix, dtype=np.float64)
    if M.ndim != 2 or M.shape[0] == 0 or M.shape[1] == 0 or not np.all(np.isfinite(M)):
        raise ValueError(f"a matrix game needs a finite, non-empty 2-D array, not shape {M.shape}")
    m, n = M.shape
    x, y = np.zeros(m), np.zeros(n)
    T, basis = np.zeros((m + 1, m + n + 1)), np.zeros(m, dtype=np.int64)
    value, _status = solve_game(M, m, n, x, y, T, basis)
    return float(value), x, y
