"""Many small zero-sum matrix games solved at once with numpy, no numba.

The numba-free twin of :mod:`._exact_lp` for small decks (:mod:`._small`):
it takes a stack of games ``M[g]`` of one size and runs the same algorithm
on all of them together, one numpy operation per step instead of one
compiled loop per game. Every step repeats the compiled solver's
arithmetic operation for operation, so the values, the strategies and the
way each game was settled come out the same:

1. **Pure saddle point**: the largest row minimum against the smallest
   column maximum, equal to within 1e-12.
2. **Condensed-tableau simplex** of ``max sum(w), (M + shift) w <= 1``
   with Dantzig's rule (Bland's rule after ``_DANTZIG_PIVOTS`` pivots) and
   Harris's two-pass ratio test; the games still pivoting stay in the
   stack, those done leave it.
3. **Certificate**: ``lower = min_j (x M)_j``, ``upper = max_i (M y)_i``,
   accepted when ``upper - lower <= gap * max(1, max|M|)``; a game that
   misses it is solved again with Bland's rule from the start, and one that
   misses it twice is reported failed (the caller sends it to
   :func:`._certify.certify_game`).

>>> value, status, x, y = solve_games(np.array([[[3.0, -1.0], [1.0, 2.0]]]))
>>> round(float(value[0]), 12), int(status[0]), [round(float(p), 12) for p in x[0]]
(1.4, 1, [0.2, 0.8])
"""

from __future__ import annotations

import numpy as np

STATUS_PURE, STATUS_SIMPLEX, STATUS_FAILED = 0, 1, 2  # as in ._exact_lp
_EPS = 1e-11  # pivots and reduced costs smaller than this count as zero
_HARRIS = 1e-9  # feasibility slack of the ratio test's first pass
_GAP = 1e-10  # the largest certified gap accepted without a retry
_SADDLE = 1e-12  # a row minimum this close to a column maximum is a saddle point
_DANTZIG_PIVOTS = 60
_NO_LABEL = np.iinfo(np.int64).max


def scan(M: np.ndarray):
    """``(saddle found, its value, best row, best column, smallest entry, scale)`` of each game of ``M``."""
    row_min, col_max = M.min(axis=2), M.max(axis=1)
    best_row, best_col = row_min.argmax(axis=1), col_max.argmin(axis=1)
    games = np.arange(len(M))
    maxmin, minmax = row_min[games, best_row], col_max[games, best_col]
    low, high = row_min.min(axis=1), col_max.max(axis=1)
    scale = np.maximum(1.0, np.maximum(np.abs(low), np.abs(high)))
    found = ~(maxmin < minmax - _SADDLE)
    return found, M[games, best_row, best_col], best_row, best_col, low, scale


def solve_games(M: np.ndarray, gap: float = _GAP):
    """Solve every game of the stack ``M`` (shape ``(games, m, n)``; the row player maximises).

    Returns ``(value, status, x, y)``: arrays of the values, the statuses
    (``STATUS_PURE``, ``STATUS_SIMPLEX`` or ``STATUS_FAILED``, as
    :func:`._exact_lp.solve_game_gap` says them) and both players' optimal
    strategies. A failed game's value is the midpoint of its best certified
    interval, not to be trusted.
    """
    M = np.asarray(M, dtype=np.float64)
    G, m, n = M.shape
    found, value, best_row, best_col, low, scale = scan(M)
    value = value.copy()
    status = np.where(found, STATUS_PURE, STATUS_FAILED)
    x, y = np.zeros((G, m)), np.zeros((G, n))
    pure = np.flatnonzero(found)
    x[pure, best_row[pure]] = 1.0
    y[pure, best_col[pure]] = 1.0
    todo = np.flatnonzero(~found)
    for attempt in range(2):
        if not todo.size:
            break
        ok, xs, ys = simplex(M[todo], 1.0 - low[todo], bland_only=attempt == 1)
        lower, upper = certified_bounds(M[todo], xs, ys)
        good = ok & (upper - lower <= gap * scale[todo])
        done = todo[good]
        value[done], status[done] = 0.5 * (lower[good] + upper[good]), STATUS_SIMPLEX
        x[todo], y[todo] = xs, ys
        todo = todo[~good]
    if todo.size:
        lower, upper = certified_bounds(M[todo], x[todo], y[todo])
        value[todo] = 0.5 * (lower + upper)
    return value, status, x, y


def certified_bounds(M: np.ndarray, x: np.ndarray, y: np.ndarray):
    """``(lower, upper)`` per game: what ``x`` guarantees the row player, what ``y`` concedes at most.

    The sums run in the compiled solver's order (row by row from 0.0).
    """
    m, n = M.shape[1:]
    guaranteed = np.zeros((len(M), n))
    for i in range(m):
        guaranteed += x[:, i, None] * M[:, i, :]
    conceded = np.zeros((len(M), m))
    for j in range(n):
        conceded += M[:, :, j] * y[:, j, None]
    return guaranteed.min(axis=1), conceded.max(axis=1)


def simplex(M: np.ndarray, shift: np.ndarray, bland_only: bool = False):
    """Run the condensed-tableau simplex on every game; ``(ok, x, y)`` per game.

    ``ok`` is False for a game that stalled (the pivot cap of the compiled
    solver, ``50 (m + n) + 100``) or whose strategies could not be read.
    """
    G, m, n = M.shape
    T = np.empty((G, m + 1, n + 1))
    T[:, :m, :n] = M + shift[:, None, None]
    T[:, :m, n] = 1.0
    T[:, m, :n] = -1.0
    T[:, m, n] = 0.0
    labels = np.empty((G, m + n), dtype=np.int64)
    labels[:, :m] = n + np.arange(m)
    labels[:, m:] = np.arange(n)
    col = np.zeros(G, dtype=np.int64)  # every reduced cost is -1: Dantzig takes the first
    ids = np.arange(G)  # the games still pivoting
    ok, x, y = np.zeros(G, dtype=bool), np.zeros((G, m)), np.zeros((G, n))
    for it in range(50 * (m + n) + 100):
        bland = bland_only or it >= _DANTZIG_PIVOTS
        if bland:
            col = _bland_entering(T, labels, m, n)
        optimal = col < 0
        if optimal.any():
            done = ids[optimal]
            ok[done], x[done], y[done] = read_strategies(T[optimal], labels[optimal], m, n)
            T, labels, col, ids = T[~optimal], labels[~optimal], col[~optimal], ids[~optimal]
        if not ids.size:
            break
        row = _leaving_row(T, labels, col, m, n, bland)
        stuck = row < 0  # unbounded: impossible for a shifted positive matrix
        if stuck.any():
            T, labels, col, ids, row = T[~stuck], labels[~stuck], col[~stuck], ids[~stuck], row[~stuck]
        col = _pivot(T, labels, row, col, m, n)
    return ok, x, y


def _bland_entering(T, labels, m, n):
    """Bland's entering column per game: the smallest label among negative reduced costs, -1 at the optimum."""
    eligible = T[:, m, :n] < -_EPS
    key = np.where(eligible, labels[:, m:], _NO_LABEL)
    return np.where(eligible.any(axis=1), key.argmin(axis=1), -1)


def _leaving_row(T, labels, col, m, n, bland):
    """Harris's two-pass ratio test per game (see :func:`._exact_lp._leaving_row`); -1 if none."""
    games = np.arange(len(T))
    a = T[games[:, None], np.arange(m), col[:, None]]
    rhs = np.maximum(T[:, :m, n], 0.0)
    positive = a > _EPS
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = np.where(positive, (rhs + _HARRIS) / a, np.inf).min(axis=1)
        candidate = positive & (rhs <= bound[:, None] * a)
    if bland:
        row = np.where(candidate, labels[:, :m], _NO_LABEL).argmin(axis=1)
    else:
        row = np.where(candidate, a, -np.inf).argmax(axis=1)
    return np.where(candidate.any(axis=1), row, -1)


def _pivot(T, labels, row, col, m, n):
    """Exchange basic ``row`` and non-basic ``col`` of every game (see :func:`._exact_lp._pivot`).

    Returns Dantzig's next entering column per game (-1 at the optimum).
    """
    games = np.arange(len(T))
    inv = 1.0 / T[games, row, col]
    prow = T[games, row, :] * inv[:, None]
    f = T[games, :m, col]
    f[games, row] = 0.0  # the pivot row is not eliminated (subtracting zeros leaves it as it was)
    T[:, :m, :] -= f[:, :, None] * prow[:, None, :]
    T[games, row, :] = prow
    T[games, :m, col] = -f * inv[:, None]
    f_cost = T[games, m, col]
    T[:, m, :] -= f_cost[:, None] * prow
    costs = T[:, m, :]
    others = costs[:, :n].copy()
    others[games, col] = np.inf
    best = others.argmin(axis=1)
    best_cost = others[games, best]
    best, best_cost = np.where(best_cost < -_EPS, best, -1), np.minimum(best_cost, -_EPS)
    v = -f_cost * inv
    T[games, m, col] = v
    best = np.where(v < best_cost, col, best)
    T[games, row, col] = inv
    basic = labels[games, row].copy()
    labels[games, row] = labels[games, m + col]
    labels[games, m + col] = basic
    return best


def read_strategies(T, labels, m, n):
    """``(ok, x, y)``: the normalised strategies of final tableaux (see :func:`._exact_lp._read_strategies`)."""
    G = len(T)
    x, y = np.zeros((G, m)), np.zeros((G, n))
    g, r = np.nonzero(labels[:, :m] < n)
    y[g, labels[g, r]] = np.maximum(T[g, r, n], 0.0)
    g, c = np.nonzero(labels[:, m:] >= n)
    x[g, labels[g, m + c] - n] = np.maximum(T[g, m, c], 0.0)
    sx, sy = np.zeros(G), np.zeros(G)
    for i in range(m):
        sx += x[:, i]
    for j in range(n):
        sy += y[:, j]
    ok = (sx > 0.0) & (sy > 0.0)
    x[ok] /= sx[ok, None]
    y[ok] /= sy[ok, None]
    return ok, x, y


def solve_certified(M: np.ndarray, gap: float = _GAP, methods=None):
    """``(value, x, y, method)`` of one game: this solver (method ``"compiled"``, as the engine names
    its own solver), else the certifying chain of :mod:`._certify` (``"highs"``, ``"exact"``, ``"failed"``)."""
    M = np.asarray(M, dtype=np.float64)
    value, status, x, y = solve_games(M[None], gap)
    if status[0] != STATUS_FAILED:
        return float(value[0]), x[0], y[0], "compiled"
    from ._certify import METHODS, certify_game

    return certify_game(M, _GAP, METHODS if methods is None else methods)
