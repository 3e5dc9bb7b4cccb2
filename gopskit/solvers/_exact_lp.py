"""A compiled solver for small dense zero-sum matrix games.

The exact Goofspiel solver meets hundreds of thousands to billions of tiny
games (at most 13 x 13). A general LP library call costs milliseconds each; this
module solves one in about a microsecond, in three steps:

1. **Pure saddle point.** The largest row minimum is compared with the
   smallest column maximum; when they meet, both players have a pure optimal
   bid and no LP is needed. The same pass over the matrix finds the shift
   and scale the simplex needs.
2. **Simplex.** Otherwise the textbook reduction of a matrix game to a linear
   program (Dantzig 1951; see e.g. von Stengel, *Game Theory Basics*, ch. 9):
   shift the matrix so every entry is at least 1, then
   ``maximise sum(w) subject to A w <= 1, w >= 0``. The value is
   ``1 / sum(w)`` minus the shift, the column player's strategy is
   ``w / sum(w)`` and the row player's comes from the dual prices of the
   slack columns. The tableau is the condensed (Tucker) one: a row per
   constraint and a column per *non-basic* variable, so a pivot touches
   ``(m + 1)(n + 1)`` numbers instead of ``(m + 1)(m + n + 1)`` for the full
   tableau with its slack identity, and the dual prices are read off the
   columns the slacks left for. Dantzig's pivot rule is used; after
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


@njit(cache=True, error_model="numpy")
def scan_matrix(M, m, n, x, y):
    """One pass over ``M[:m, :n]``: ``(saddle found, its value, smallest entry, scale)``.

    The scale is the largest absolute entry (at least 1): certificates are
    relative to it. ``y`` doubles as the column-maximum buffer, so on a
    saddle point ``x`` and ``y`` hold the pure strategies, otherwise ``y``
    is scratch.
    """
    low, high = np.inf, -np.inf
    for c in range(n):
        y[c] = -np.inf
    best_row, maxmin = 0, -np.inf
    for r in range(m):
        row_min = np.inf
        for c in range(n):
            v = M[r, c]
            if v < row_min:
                row_min = v
            if v > y[c]:
                y[c] = v
            if v > high:
                high = v
        if row_min > maxmin:
            maxmin, best_row = row_min, r
        if row_min < low:
            low = row_min
    best_col, minmax = 0, np.inf
    for c in range(n):
        if y[c] < minmax:
            minmax, best_col = y[c], c
    scale = max(1.0, max(abs(low), abs(high)))
    if maxmin < minmax - 1e-12:
        return False, 0.0, low, scale
    x[:m] = 0.0
    y[:n] = 0.0
    x[best_row] = 1.0
    y[best_col] = 1.0
    return True, M[best_row, best_col], low, scale


@njit(cache=True, error_model="numpy")
def _entering_column(T, m, n, labels, bland):
    """The column to enter the basis, or -1 at the optimum (Bland: the smallest label)."""
    best, best_cost = -1, -_EPS
    for c in range(n):
        cost = T[m, c]
        if cost < best_cost:
            if not bland:
                best, best_cost = c, cost
            elif best < 0 or labels[m + c] < labels[m + best]:
                best = c
    return best


@njit(cache=True, error_model="numpy")
def _leaving_row(T, m, n, col, labels, bland):
    """The row leaving the basis for ``col``: Harris's two-pass ratio test.

    Pass 1 finds the smallest ratio with every right-hand side relaxed by
    ``_HARRIS``; pass 2 takes, among the rows within that bound, the largest
    pivot element (Bland: the smallest basic label), so near-ties never make
    the tableau divide by a tiny number.
    """
    bound = np.inf
    for r in range(m):
        a = T[r, col]
        if a > _EPS:
            bound = min(bound, (max(T[r, n], 0.0) + _HARRIS) / a)
    row, best = -1, -1.0
    for r in range(m):
        a = T[r, col]
        if a > _EPS and max(T[r, n], 0.0) <= bound * a:
            if row < 0 or (bland and labels[r] < labels[row]) or (not bland and a > best):
                row, best = r, a
    return row


@njit(cache=True, error_model="numpy")
def _pivot(T, m, n, row, col, labels):
    """Exchange basic ``row`` and non-basic ``col`` in the condensed tableau.

    Returns Dantzig's next entering column (the most negative reduced cost,
    -1 at the optimum), found while the cost row is updated.
    """
    inv = 1.0 / T[row, col]
    for c in range(n + 1):
        T[row, c] *= inv
    for r in range(m):
        if r != row:
            f = T[r, col]
            if f != 0.0:
                for c in range(n + 1):
                    T[r, c] -= f * T[row, c]
            T[r, col] = -f * inv
    f = T[m, col]
    best, best_cost = -1, -_EPS
    for c in range(n + 1):
        v = T[m, c] - f * T[row, c]
        T[m, c] = v
        if c != col and c < n and v < best_cost:
            best, best_cost = c, v
    v = -f * inv
    T[m, col] = v
    if v < best_cost:
        best = col
    T[row, col] = inv
    labels[row], labels[m + col] = labels[m + col], labels[row]
    return best


@njit(cache=True, error_model="numpy")
def _run_simplex(M, m, n, shift, T, labels, bland_only):
    """Fill and solve the condensed tableau of ``max sum(w), (M + shift) w <= 1``; False if it stalled.

    ``T[:m, :n]`` holds the constraint rows, ``T[:m, n]`` the right-hand
    sides, ``T[m, :n]`` the reduced costs and ``T[m, n]`` the objective.
    ``labels[:m]`` name the basic variables of the rows and ``labels[m:]``
    the non-basic ones of the columns: ``0..n-1`` are ``w``, ``n..n+m-1``
    the slacks.
    """
    for r in range(m):
        for c in range(n):
            T[r, c] = M[r, c] + shift
        T[r, n] = 1.0
        labels[r] = n + r
    for c in range(n):
        T[m, c] = -1.0
        labels[m + c] = c
    T[m, n] = 0.0
    col = 0  # every reduced cost is -1: Dantzig takes the first
    for it in range(50 * (m + n) + 100):
        bland = bland_only or it >= _DANTZIG_PIVOTS
        if bland:
            col = _entering_column(T, m, n, labels, True)
        if col < 0:
            return True
        row = _leaving_row(T, m, n, col, labels, bland)
        if row < 0:  # unbounded: impossible for a shifted positive matrix
            return False
        col = _pivot(T, m, n, row, col, labels)
    return False


@njit(cache=True, error_model="numpy")
def _read_strategies(T, m, n, labels, x, y):
    """Turn the final tableau into normalised mixed strategies ``x`` and ``y``.

    The column player's weights are the basic ``w``; the row player's are
    the reduced costs of the non-basic slacks (the dual prices).
    """
    x[:m] = 0.0
    y[:n] = 0.0
    for r in range(m):
        if labels[r] < n:
            y[labels[r]] = max(T[r, n], 0.0)
    for c in range(n):
        if labels[m + c] >= n:
            x[labels[m + c] - n] = max(T[m, c], 0.0)
    sx, sy = x[:m].sum(), y[:n].sum()
    if sx <= 0.0 or sy <= 0.0:
        return False
    x[:m] /= sx
    y[:n] /= sy
    return True


@njit(cache=True, error_model="numpy")
def certified_bounds(M, m, n, x, y):
    """``(lower, upper)``: what ``x`` guarantees the row player, what ``y`` concedes at most."""
    lower, upper = np.inf, -np.inf
    for j in range(n):
        s = 0.0
        for i in range(m):
            if x[i] != 0.0:
                s += x[i] * M[i, j]
        lower = min(lower, s)
    for i in range(m):
        s = 0.0
        for j in range(n):
            if y[j] != 0.0:
                s += M[i, j] * y[j]
        upper = max(upper, s)
    return lower, upper


@njit(cache=True)
def solve_game(M, m, n, x, y, T, labels):
    """Value of the zero-sum game ``M[:m, :n]`` (row player maximises).

    Writes optimal strategies into ``x[:m]`` and ``y[:n]``. ``T`` is a work
    array of at least ``(m + 1, n + 1)``, ``labels`` an int64 one of at
    least ``m + n``. Returns ``(value, status)`` with status
    ``STATUS_PURE``, ``STATUS_SIMPLEX`` or ``STATUS_FAILED`` (certified gap
    still above ``_GAP`` after the Bland retry; the value is then the
    interval midpoint, and :mod:`._certify` must settle the game).
    """
    return solve_game_gap(M, m, n, x, y, T, labels, _GAP)


@njit(cache=True)
def solve_game_gap(M, m, n, x, y, T, labels, gap):
    """:func:`solve_game` with the accepted certified gap (relative) given: a test passes a
    negative ``gap`` to send every simplex game to the certifying fallback."""
    found, value, low, scale = scan_matrix(M, m, n, x, y)
    if found:
        return value, STATUS_PURE
    return solve_scanned(M, m, n, x, y, T, labels, gap, low, scale)


@njit(cache=True, error_model="numpy")
def solve_scanned(M, m, n, x, y, T, labels, gap, low, scale):
    """The simplex and its certificate for a game :func:`scan_matrix` found no saddle in."""
    shift = 1.0 - low
    for attempt in range(2):
        ok = _run_simplex(M, m, n, shift, T, labels, attempt == 1)
        if ok and _read_strategies(T, m, n, labels, x, y):
            lower, upper = certified_bounds(M, m, n, x, y)
            if upper - lower <= gap * scale:
                return 0.5 * (lower + upper), STATUS_SIMPLEX
    lower, upper = certified_bounds(M, m, n, x, y)
    return 0.5 * (lower + upper), STATUS_FAILED


@njit(cache=True, error_model="numpy")
def support_masks(m, n, x, y):
    """Bit masks of the rows and columns ``x`` and ``y`` play (for :func:`solve_on_support`)."""
    rows, cols = 0, 0
    for i in range(m):
        if x[i] > 0.0:
            rows |= 1 << i
    for c in range(n):
        if y[c] > 0.0:
            cols |= 1 << c
    return rows, cols


@njit(cache=True, error_model="numpy")
def _lu_solve(B, k, perm, rhs_out, transpose, tmp):
    """Solve ``B z = 1`` (or ``B^T z = 1``) with ``B[:k, :k]`` already LU-factorised in place."""
    if not transpose:
        for i in range(k):  # L y = P 1 = 1: every right-hand side entry is 1
            s = 1.0
            for c in range(i):
                s -= B[i, c] * rhs_out[c]
            rhs_out[i] = s
        for i in range(k - 1, -1, -1):
            s = rhs_out[i]
            for c in range(i + 1, k):
                s -= B[i, c] * rhs_out[c]
            rhs_out[i] = s / B[i, i]
        return
    # (P^T L U)^T z = 1  <=>  U^T w = 1, L^T v = w, z = P^T v
    for i in range(k):
        s = 1.0
        for c in range(i):
            s -= B[c, i] * rhs_out[c]
        rhs_out[i] = s / B[i, i]
    for i in range(k - 1, -1, -1):
        s = rhs_out[i]
        for c in range(i + 1, k):
            s -= B[c, i] * rhs_out[c]
        rhs_out[i] = s
    for i in range(k):  # undo the row exchanges: z[perm[i]] = v[i]
        tmp[perm[i]] = rhs_out[i]
    for i in range(k):
        rhs_out[i] = tmp[i]


@njit(cache=True, error_model="numpy", inline="always")
def _spread_strategy(z, k, where, out, size):
    """``out[:size]`` = the mixed strategy ``z / sum(z)`` placed on the bids ``where[:k]``; False if
    ``z`` has a negative weight (the guessed support is wrong)."""
    total = 0.0
    for i in range(k):
        if z[i] < 0.0:
            return False
        total += z[i]
    out[:size] = 0.0
    for i in range(k):
        out[where[i]] = z[i] / total
    return True


@njit(cache=True, error_model="numpy")
def solve_on_support(M, m, n, row_mask, col_mask, x, y, T, labels, gap, low, scale):
    """Try the equilibrium on a guessed support; ``(certified, value)``.

    Goofspiel's turn games come in long runs of near neighbours (the same
    hands and prize, a slightly different set of prizes still to come) whose
    optimal supports mostly agree. Given the rows and columns of a
    neighbour's solution, the candidate equilibrium is where each player
    makes the other indifferent over the support: with ``B`` the shifted
    ``k x k`` sub-matrix, ``B z = 1`` and ``B^T u = 1`` give ``y = z / sum z``
    and ``x = u / sum u``. The guess is kept only if both are non-negative
    and pass the same certificate as the simplex (:func:`certified_bounds`
    on the whole matrix), so a wrong guess costs a small solve and never a
    wrong value. ``T`` (at least ``(k + 1) x k``) and ``labels`` (at
    least ``3 k`` int64) are scratch.
    """
    k = 0
    for i in range(m):
        if (row_mask >> i) & 1:
            labels[k] = i
            k += 1
    kc = 0
    for c in range(n):
        if (col_mask >> c) & 1:
            labels[k + kc] = c
            kc += 1
    if k != kc or k < 2:
        return False, 0.0
    shift = 1.0 - low
    for a in range(k):
        for b in range(k):
            T[a, b] = M[labels[a], labels[k + b]] + shift
    perm = labels[2 * k:]
    for i in range(k):
        perm[i] = i
    for c in range(k):  # LU with partial pivoting, rows exchanged in place
        p, best = c, abs(T[c, c])
        for r in range(c + 1, k):
            if abs(T[r, c]) > best:
                p, best = r, abs(T[r, c])
        if best < 1e-9:
            return False, 0.0
        if p != c:
            for b in range(k):
                T[c, b], T[p, b] = T[p, b], T[c, b]
            perm[c], perm[p] = perm[p], perm[c]
        for r in range(c + 1, k):
            f = T[r, c] / T[c, c]
            T[r, c] = f
            for b in range(c + 1, k):
                T[r, b] -= f * T[c, b]
    z = T[k]  # the spare last row holds one solution at a time
    _lu_solve(T, k, perm, z, False, x)
    if not _spread_strategy(z, k, labels[k:], y, n):
        return False, 0.0
    _lu_solve(T, k, perm, z, True, x)
    if not _spread_strategy(z, k, labels, x, m):
        return False, 0.0
    lower, upper = np.inf, -np.inf  # certified_bounds, summing over the supports only
    for c in range(n):
        s = 0.0
        for i in range(k):
            s += x[labels[i]] * M[labels[i], c]
        lower = min(lower, s)
    for r in range(m):
        s = 0.0
        for i in range(k):
            s += M[r, labels[k + i]] * y[labels[k + i]]
        upper = max(upper, s)
    if upper - lower <= gap * scale:
        return True, 0.5 * (lower + upper)
    return False, 0.0


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
    T, labels = np.zeros((m + 1, n + 1)), np.zeros(m + n, dtype=np.int64)
    value, _status = solve_game(M, m, n, x, y, T, labels)
    return float(value), x, y
