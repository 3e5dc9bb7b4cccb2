"""Checking payoff matrices and strategies; the errors of the matrix solvers (re-exported by :mod:`.matrix`)."""

from __future__ import annotations

import numpy as np

from ..errors import GopsError

TOLERANCE = 1e-9


class MatrixGameError(GopsError):
    """A payoff matrix or a strategy is malformed (wrong shape, not numbers, not a distribution)."""


class DegenerateGameError(MatrixGameError):
    """A bimatrix game is degenerate, so support enumeration may miss equilibria."""


# ------------------------------------------------------------- checking ---
def as_payoff_matrix(payoffs, name: str = "payoff matrix") -> np.ndarray:
    """Return ``payoffs`` as a 2-D float array, or raise :class:`MatrixGameError` saying why not.

    >>> as_payoff_matrix([[1, 2], [3, 4]]).shape
    (2, 2)
    """
    try:
        array = np.array(payoffs, dtype=float)
    except (TypeError, ValueError):
        raise MatrixGameError(f"the {name} must be a table of numbers (a list of equal-length rows), not {payoffs!r}") from None
    if array.ndim != 2 or array.size == 0:
        raise MatrixGameError(
            f"the {name} must be a non-empty 2-D table (rows x columns), got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise MatrixGameError(f"the {name} holds a NaN or an infinity; only finite numbers are allowed")
    return array


def as_strategy(strategy, size: int, who: str = "strategy") -> np.ndarray:
    """Return ``strategy`` as a probability vector of length ``size`` (a pure index is allowed).

    >>> as_strategy(1, 3).tolist()
    [0.0, 1.0, 0.0]
    """
    if isinstance(strategy, (int, np.integer)) and not isinstance(strategy, bool):
        if not 0 <= strategy < size:
            raise MatrixGameError(f"the {who} {strategy} is not a pure strategy index; allowed: 0 to {size - 1}")
        vector = np.zeros(size)
        vector[int(strategy)] = 1.0
        return vector
    try:
        vector = np.array(strategy, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise MatrixGameError(f"the {who} must be a list of {size} probabilities, not {strategy!r}") from None
    if vector.size != size:
        raise MatrixGameError(f"the {who} must hold {size} probabilities (one per strategy), got {vector.size}")
    if np.any(~np.isfinite(vector)) or np.any(vector < -1e-12) or abs(vector.sum() - 1) > 1e-6:
        raise MatrixGameError(f"the {who} must be non-negative probabilities summing to 1, got {vector.tolist()}")
    return np.clip(vector, 0, None) / np.clip(vector, 0, None).sum()


def _bimatrix(row_payoffs, col_payoffs) -> tuple[np.ndarray, np.ndarray]:
    A = as_payoff_matrix(row_payoffs, "row player's payoff matrix")
    B = -A if col_payoffs is None else as_payoff_matrix(col_payoffs, "column player's payoff matrix")
    if A.shape != B.shape:
        raise MatrixGameError(f"both payoff matrices must have the same shape, got {A.shape} and {B.shape}")
    return A, B
