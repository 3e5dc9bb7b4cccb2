"""Exact bids from a turn game known only to within a margin: certified sampling.

The 13-card opening book stores the 10-card values rounded to 0.0001 points,
so the third turn's game is known only to within ``radius`` per entry. Its
optimal mixed bid is then known only roughly, yet the bot can still draw a
bid whose chances are *exactly* the equilibrium's:

1. Cards that no opposing card separates are interchangeable: their rows
   (columns) of the turn game are equal, and the positions they lead to
   have the same pattern. :func:`interchangeable` groups them, and the game
   is solved over groups.
2. From the rounded game's solution, guess the supports; if they are
   square, :func:`box_turn` proves, by interval bounds on the square system
   that defines the equilibrium, that *every* game within ``radius`` of the
   rounded one has its equilibrium on those supports, with every other
   row and column strictly worse: the true game has the same supports and
   a unique optimal mix, and the bounds enclose it.
3. A bid is drawn by inverting the cumulative chances at a uniform number
   ``u``. Where ``u`` falls clear of every bound's width,
   :meth:`BoxedTurn.group_at` names the group the exact mix would give;
   otherwise (about 0.03 % of draws at the 13-card game's third turn), or
   where step 2 fails (about 0.3 % of those turns: some row or column is
   within a rounding error of being as good), the exact mix is needed:
   :mod:`gopskit.solvers.hard_turns` ships it for the failing turns the bot
   can meet, and the rest are solved.

Whichever way the group is found, it is the group inverse sampling of the
exact mix gives at ``u`` (:func:`group_at`), so the bid is distributed
exactly as the equilibrium's. Within a group the lowest card is played.

The bounds are rigorous for the real-number system and padded for
floating-point rounding (``PAD``), which is far below the solver's own
certificate gap.

>>> groups = interchangeable([1, 2, 5], [3, 4])  # 1 and 2 both lose to 3 and 4
>>> groups
[[0, 1], [2]]
>>> A = np.array([[1.0, -1.0], [-1.0, 1.0]])  # matching pennies, known to within 0.01
>>> box = box_turn(A, 0.01)
>>> box.group_at(0.2), box.group_at(0.8), box.group_at(0.5)  # 0.5 is too close to the 50 % line to tell
(0, 1, None)
"""

from __future__ import annotations

import dataclasses

import numpy as np

PAD = 1e-10  # absolute slack for floating-point rounding in the bounds below
SUPPORT = 1e-9  # a rounded game's chance above this counts as in its support


def interchangeable(mine, theirs) -> list[list[int]]:
    """Indices of sorted ``mine`` in runs that no card of ``theirs`` separates (a card of theirs equal to one ends a run).

    Bidding any card of a run wins, ties and loses against the same cards
    and leaves hands of the same pattern, so the bids are worth the same.
    """
    mine, theirs = sorted(mine), sorted(theirs)
    runs = [[0]] if mine else []
    for k in range(1, len(mine)):
        if any(mine[k - 1] <= t <= mine[k] for t in theirs):
            runs.append([k])
        else:
            runs[-1].append(k)
    return runs


def group_at(chances, u: float) -> int:
    """Inverse sampling: the first index whose cumulative chance exceeds ``u`` (chances summing to 1)."""
    total = 0.0
    chances = list(chances)
    for k, p in enumerate(chances):
        total += p
        if u < total:
            return k
    return max(k for k, p in enumerate(chances) if p > 0)  # u at the very top (rounding dust)


@dataclasses.dataclass(frozen=True)
class BoxedTurn:
    """A turn game's equilibrium proved to lie in a box: its row support and the bounds of the cumulative chances.

    ``support``: the row groups with a positive chance, in order;
    ``low``/``high``: bounds of the cumulative chance up to and including
    each (the last is exactly 1).
    """

    support: tuple[int, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]

    def group_at(self, u: float) -> int | None:
        """The row group inverse sampling of the exact mix picks at ``u`` in [0, 1), or None if the box cannot tell."""
        for k, group in enumerate(self.support):
            if u < self.low[k]:
                return group
            if u < self.high[k]:
                return None
        return self.support[-1]

    def ambiguity(self) -> float:
        """The chance that a uniform ``u`` falls where the box cannot tell."""
        return float(sum(min(h, 1.0) - max(lo, 0.0) for lo, h in zip(self.low[:-1], self.high[:-1])))


def box_turn(A, radius: float) -> BoxedTurn | None:
    """Prove where the maximiser's optimal mix lies for every game within ``radius`` of ``A`` (entrywise), or None.

    None when the rounded game's supports are not square, the square
    system is too ill-conditioned for the bounds, or some row or column
    outside the supports is not strictly worse for every such game.
    """
    from ._exact_lp import matrix_game

    A = np.asarray(A, dtype=np.float64)
    h = float(radius)
    _value, x, y = matrix_game(A)
    rows, cols = np.flatnonzero(x > SUPPORT), np.flatnonzero(y > SUPPORT)
    if len(rows) != len(cols) or len(rows) == 0:
        return None
    mine = _side(A, rows, cols, h)  # the maximiser: x over rows
    theirs = _side(-A.T, cols, rows, h)  # the minimiser, as a maximiser of -A^T
    if mine is None or theirs is None:
        return None
    k = len(rows)
    L = np.tril(np.ones((k, k)))
    cumulative = L @ mine.z[:k]
    spread = np.abs(L @ mine.inverse[:k]) @ mine.s + L @ mine.t[:k] + PAD
    low, high = cumulative - spread, cumulative + spread
    low[-1] = high[-1] = 1.0
    if (np.diff(low) <= 0).any() or (np.diff(high) <= 0).any():
        return None
    return BoxedTurn(tuple(int(r) for r in rows), tuple(map(float, low)), tuple(map(float, high)))


@dataclasses.dataclass(frozen=True)
class _Side:
    z: np.ndarray  # (x over the support, value) of the rounded game
    inverse: np.ndarray  # R, an approximate inverse of the square system
    s: np.ndarray  # bounds |r - M z - D z_true|, so that |z_true - z| <= |R| s + t
    t: np.ndarray  # bounds |(I - R M)(z_true - z)|: the inverse's own error


def _side(A: np.ndarray, rows: np.ndarray, cols: np.ndarray, h: float) -> _Side | None:
    """Bounds for the maximiser of ``A`` on supports ``rows`` x ``cols``; None unless every other column is strictly worse.

    The system: ``sum_i x_i A[i, j] = v`` for j in ``cols``, ``sum_i x_i = 1``.
    For the true game ``(M + D) z = r`` with ``|D| <= H`` (radius on the
    matrix part). With ``R`` an approximate inverse of ``M`` and ``e = |z -
    z0|``: ``e <= |R (r - M z0)| + |R| H |z0| + (|I - R M| + |R| H) e``,
    which bounds ``e`` when that matrix has norm below 1.
    """
    k = len(rows)
    M = np.zeros((k + 1, k + 1))
    M[:k, :k] = A[np.ix_(rows, cols)].T
    M[:k, k] = -1.0
    M[k, :k] = 1.0
    r = np.zeros(k + 1)
    r[k] = 1.0
    try:
        R = np.linalg.inv(M)
    except np.linalg.LinAlgError:
        return None
    z0 = R @ r
    H = np.zeros((k + 1, k + 1))
    H[:k, :k] = h
    residual = np.abs(R @ (r - M @ z0))
    inverse_error = np.abs(np.eye(k + 1) - R @ M)
    G = inverse_error + np.abs(R) @ H
    g = G.sum(axis=1).max()
    if not g < 0.5:
        return None
    base = residual + np.abs(R) @ H @ np.abs(z0)
    bound = base.max() / (1 - g)
    e = base + G @ np.full(k + 1, bound) + PAD  # componentwise, from the norm bound
    if (z0[:k] - e[:k] <= 0).any():
        return None  # a support chance might be 0: not a strict equilibrium
    # z_true - z0 = R (r - M z0 - D z_true) + (I - R M)(z_true - z0)
    s = np.abs(r - M @ z0) + H @ (np.abs(z0) + e)
    t = inverse_error @ e
    for j in sorted(set(range(A.shape[1])) - set(int(c) for c in cols)):
        w = np.append(A[rows, j], -1.0)  # column j's payoff to the mix, less the value: must stay > 0
        # its true value differs by d.x_true + w.(z_true - z0), d being that column's rounding errors
        err = h * (np.abs(z0[:k]) + e[:k]).sum() + np.abs(w @ R) @ s + np.abs(w) @ t
        if not w @ z0 - err - PAD > 0:
            return None
    return _Side(z0, R, s, t)


def grouped_box(A, radius: float, row_groups, col_groups) -> BoxedTurn | None:
    """:func:`box_turn` of a turn matrix ``A`` with one row and column per run of interchangeable cards.

    ``row_groups``/``col_groups``: :func:`interchangeable` runs of the
    matrix's rows and columns; the box's support counts runs, not cards.
    """
    reduced = np.asarray(A, dtype=np.float64)[np.ix_([g[0] for g in row_groups], [g[0] for g in col_groups])]
    return box_turn(reduced, radius)


def certified_group(A, radius: float, row_groups, col_groups, u: float) -> int | None:
    """The row group an exact equilibrium bid falls in at ``u``, from a turn matrix ``A`` within ``radius``; None if unknown."""
    box = grouped_box(A, radius, row_groups, col_groups)
    return None if box is None else box.group_at(u)


__all__ = ["BoxedTurn", "box_turn", "certified_group", "group_at", "grouped_box", "interchangeable"]
