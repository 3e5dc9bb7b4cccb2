"""Compiled backward induction over one layer of Goofspiel positions.

A *position* before a prize is turned is (prize set, hand pattern, extra),
where *extra* is what the objective and tie rule need besides cards:

=============  =========================  ====================================
objective      ties                       extra index ``e`` (``C``: points
                                          already turned, plus any slack)
=============  =========================  ====================================
points         discard                    none (``e = 0``)
points         carry                      the pot, ``0..C``
win            discard                    the lead, ``-C..C``
win            carry                      lead and pot with ``|lead| + pot <= C``
=============  =========================  ====================================

A lead or pot beyond ``C`` cannot happen (they are made of prizes already
turned), so each prize set stores exactly the extras that can occur. Under
"win" a lead beyond everything still to be won (``|lead| > S + pot``)
decides the game, so it is ±1 without a matrix game.

``solve_layer`` fills the values of hands of ``j`` cards from those of
``j - 1`` cards: for every canonical pattern (the lower index of a pattern and
its mirror image) and every prize that can turn, it builds the ``j x j`` turn
matrix and solves it with :func:`._exact_lp.solve_game`; the position's value
is the mean over the turned prize. The mirror position (hands swapped, lead
negated) gets the negated value.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._exact_lp import STATUS_FAILED, scan_matrix, solve_on_support, solve_scanned, support_masks


MEMO_RUN = 64  # prize sets solved in a row by one thread with one memo of supports (see solve_layer)
CALL_SETS = 16  # prize sets of a run each thread solves per call (the progress bar moves after each call)


@njit(cache=True)
def extra_size(C, win, carry):
    """How many extras a prize set with ``C`` points turned has.

    :func:`._small_layers.extra_size` is the numba-free twin (for arrays too);
    compiling that one here measured a few per cent slower on the 13-card solve.
    """
    if win and carry:
        return (C + 1) * (C + 1)
    if win:
        return 2 * C + 1
    if carry:
        return C + 1
    return 1


@njit(cache=True)
def extra_index(lead, pot, C, win, carry):
    """Position of (lead, pot) among the extras (see the module docstring; twin in :mod:`._small_layers`)."""
    if win and carry:
        return pot * (2 * C + 1) - pot * (pot - 1) + lead + C - pot
    if win:
        return lead + C
    if carry:
        return pot
    return 0


@njit(cache=True)
def child_value(vals_c, start, pattern, lead, pot, C, S, win, carry):
    """Value of a stored position of the child layer (prize set starting at ``start``)."""
    if win:
        if lead > S + pot:
            return 1.0
        if lead < -(S + pot):
            return -1.0
    size = extra_size(C, win, carry)
    return vals_c[start + pattern * size + extra_index(lead, pot, C, win, carry)]


@njit(cache=True)
def fill_turn_matrix(M, j, pattern, child, outcome, prize, lead, pot, vals_c, start, C, S, win, carry):
    """The ``j x j`` matrix of one turn: holder's bid by row, opponent's by column.

    ``start``, ``C`` and ``S`` describe the prize set left after this prize.
    Entry = (points won now, under "points") + value of the position reached.
    """
    offer = pot + prize if carry else prize
    for a in range(j):
        for b in range(j):
            s = outcome[pattern, a, b]
            c = child[pattern, a, b]
            if s != 0:
                lead2, pot2, now = lead + s * offer, 0, s * offer
            else:
                lead2, pot2, now = lead, (offer if carry else 0), 0
            later = child_value(vals_c, start, c, lead2, pot2, C, S, win, carry)
            M[a, b] = later if win else now + later


@njit(cache=True, error_model="numpy")
def fill_scan_points(M, j, pattern, child, outcome, prize, vals_c, start, x, y):
    """:func:`fill_turn_matrix` for "points" with ties discarded, fused with
    :func:`._exact_lp.scan_matrix` (the most common solve, so one pass instead of two).

    It repeats ``scan_matrix``'s loop on purpose: calling a shared helper for
    the saddle test, even inlined, measured about 3 % slower on the 13-card
    layers, where this runs 1.3 billion times.
    """
    low, high = np.inf, -np.inf
    for b in range(j):
        y[b] = -np.inf
    best_row, maxmin = 0, -np.inf
    for a in range(j):
        row_min = np.inf
        for b in range(j):
            v = outcome[pattern, a, b] * prize + vals_c[start + child[pattern, a, b]]
            M[a, b] = v
            if v < row_min:
                row_min = v
            if v > y[b]:
                y[b] = v
            if v > high:
                high = v
        if row_min > maxmin:
            maxmin, best_row = row_min, a
        if row_min < low:
            low = row_min
    best_col, minmax = 0, np.inf
    for b in range(j):
        if y[b] < minmax:
            minmax, best_col = y[b], b
    scale = max(1.0, max(abs(low), abs(high)))
    if maxmin < minmax - 1e-12:
        return False, 0.0, low, scale
    x[:j] = 0.0
    y[:j] = 0.0
    x[best_row] = 1.0
    y[best_col] = 1.0
    return True, M[best_row, best_col], low, scale


@njit(cache=True)
def fill_terminal(vals, C, win, carry):
    """Layer 0: the hand is over; "win" scores the sign of the lead (a pot is lost)."""
    vals[:] = 0.0
    if not win:
        return
    pot_max = C if carry else 0
    for pot in range(pot_max + 1):
        for lead in range(-(C - pot), C - pot + 1):
            vals[extra_index(lead, pot, C, win, carry)] = np.sign(lead)


@njit(cache=True)
def _position_value(j, q_mask, pattern, lead, pot, child, outcome, values, rank_of_mask,
                    base_c, vals_c, sums_c, C, win, carry, M, x, y, T, labels, tally, gap, memo):
    """Mean over the turned prize of the turn games' values; ``tally`` counts how each was solved
    (pure saddle, simplex, failed, on a neighbour's support).

    ``memo[pattern, t]`` holds the support masks of the last turn game solved
    with these hands and prize (by this block of prize sets): that game's
    support is tried first (:func:`._exact_lp.solve_on_support`), the
    simplex only when the guess does not certify.

    NaN when a turn game could not be certified: the engine settles those
    positions afterwards with :mod:`._certify`.
    """
    total = 0.0
    for t in range(len(values)):
        if (q_mask >> t) & 1:
            prize = values[t]
            cq = rank_of_mask[q_mask ^ (1 << t)]
            if win or carry:
                fill_turn_matrix(M, j, pattern, child, outcome, prize, lead, pot,
                                 vals_c, base_c[cq], C + prize, sums_c[cq], win, carry)
                found, v, low, scale = scan_matrix(M, j, j, x, y)
            else:
                found, v, low, scale = fill_scan_points(M, j, pattern, child, outcome, prize, vals_c, base_c[cq], x, y)
            if found:
                tally[0] += 1
                memo[pattern, t, 0] = 0
                memo[pattern, t, 1] = 0
            else:
                guessed, v = solve_on_support(M, j, j, memo[pattern, t, 0], memo[pattern, t, 1],
                                              x, y, T, labels, gap, low, scale)
                if guessed:
                    tally[3] += 1
                else:
                    v, status = solve_scanned(M, j, j, x, y, T, labels, gap, low, scale)
                    if status == STATUS_FAILED:
                        tally[2] += 1
                        v = np.nan
                    else:
                        tally[1] += 1
                        rows, cols = support_masks(j, j, x, y)
                        memo[pattern, t, 0] = rows
                        memo[pattern, t, 1] = cols
            total += v
    return total / j


@njit(parallel=True, cache=True)
def solve_layer(j, q_from, q_to, p_from, p_to, masks, sums, base, child, outcome, swap, vals,
                base_c, vals_c, sums_c, rank_of_mask, values, total_points, slack, win, carry, counts, gap, memo,
                memo_run):
    """Solve prize sets ``q_from[b]..q_to[b]-1``, patterns ``p_from[b]..p_to[b]-1``, of layer ``j``
    for every block ``b`` (one thread each).

    Blocks share a prize set only when a layer has too few runs to keep
    every thread busy (an endgame's layers, a layer's last runs); they then
    split its patterns, and each adds its own tallies to ``counts[b, q]`` =
    (pure, simplex, failed, on a neighbour's support). A block walks its
    prize sets in order, so consecutive prize sets differ in few prizes and
    ``memo[b]`` (the supports its last turn games used, see
    :func:`_position_value`) is usually right. The memo is cleared at every
    ``memo_run``-th prize set; the engine hands each run of ``memo_run``
    prize sets to one block, over as many calls as it likes, with the same
    memo, so which guesses are tried, and so every value to the last bit,
    does not depend on the number of blocks.

    A position holding a turn game that failed its certificate is written as
    NaN (and so is its mirror): see :func:`._exact_engine.settle_failed`.
    """
    for b in prange(len(q_from)):
        M = np.empty((j, j))
        x, y = np.empty(j), np.empty(j)
        T = np.empty((j + 1, j + 1))
        labels = np.empty(4 * j, dtype=np.int64)
        block_memo = memo[b]
        for q in range(q_from[b], q_to[b]):
            if q % memo_run == 0:
                block_memo[:] = 0
            tally = np.zeros(4, dtype=np.int64)
            S = sums[q]
            C = slack + total_points - S
            size = extra_size(C, win, carry)
            for pattern in range(p_from[b], p_to[b]):
                mirror = swap[pattern]
                if mirror < pattern:
                    continue
                for pot in range(C + 1 if carry else 1):
                    reach = C - pot if win else 0
                    for lead in range(-reach, reach + 1):
                        if win and abs(lead) > S + pot:
                            v = float(np.sign(lead))
                        elif mirror == pattern and lead == 0:
                            v = 0.0  # the same hands, level: a symmetric game
                        else:
                            v = _position_value(j, masks[q], pattern, lead, pot, child, outcome, values,
                                                rank_of_mask, base_c, vals_c, sums_c, C, win, carry,
                                                M, x, y, T, labels, tally, gap, block_memo)
                        vals[base[q] + pattern * size + extra_index(lead, pot, C, win, carry)] = v
                        vals[base[q] + mirror * size + extra_index(-lead, pot, C, win, carry)] = -v
            for k in range(4):
                counts[b, q, k] = tally[k]
