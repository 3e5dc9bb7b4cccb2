"""A slow, plain reference solver of two-player Goofspiel, for checking the fast one.

It shares nothing with :mod:`gopskit.solvers.exact`: real card sets instead
of hand patterns, no mirror trick, the rules written out again, and every
turn game solved by scipy's HiGHS (``linprog``). Positions are memoised by
their card sets, lead and pot.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.optimize import linprog


def highs_game(matrix) -> tuple[float, np.ndarray]:
    """Value and an optimal row strategy of a zero-sum game, by HiGHS.

    maximise v subject to x^T M >= v for every column, sum(x) = 1, x >= 0,
    with HiGHS's feasibility tolerances tightened from 1e-7 to 1e-10.
    """
    M = np.asarray(matrix, dtype=float)
    m, n = M.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-M.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    assert res.status == 0, res.message
    return -res.fun, res.x[:m]


def turn_matrix(hand, opp, prizes, prize, lead, pot, objective, ties):
    """The turn game once ``prize`` is turned: rows ``sorted(hand)``, columns ``sorted(opp)``."""
    rest = prizes - {prize}
    offer = pot + prize if ties == "carry" else prize
    rows = []
    for a in sorted(hand):
        row = []
        for b in sorted(opp):
            if a != b:
                sign = 1 if a > b else -1
                later = value(hand - {a}, opp - {b}, rest, lead + sign * offer, 0, objective, ties)
                row.append(later if objective == "win" else sign * offer + later)
            else:
                carried = offer if ties == "carry" else 0
                row.append(value(hand - {a}, opp - {b}, rest, lead, carried, objective, ties))
        rows.append(row)
    return np.array(rows)


@lru_cache(maxsize=None)
def value(hand: frozenset, opp: frozenset, prizes: frozenset, lead: int, pot: int, objective: str, ties: str):
    """Value before the next prize is turned (mean over the prizes left)."""
    if objective == "points":
        lead = 0
    if not prizes:
        return float(np.sign(lead)) if objective == "win" else 0.0
    total = 0.0
    for prize in prizes:
        M = turn_matrix(hand, opp, prizes, prize, lead, pot, objective, ties)
        total += highs_game(M)[0]
    return total / len(prizes)
