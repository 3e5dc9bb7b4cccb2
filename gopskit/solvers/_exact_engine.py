"""Layer-by-layer backward induction: the engine under :mod:`gopskit.solvers.exact`.

The engine knows nothing about card values: it works on the tables of
:mod:`._exact_tables` (hand patterns, prize sets given by their point
values), so the same code solves the whole game (prizes 1..N) and any
endgame of a bigger game (the prizes still to come, hands relabelled by
their order).

Values live in one flat ``float64`` array per layer (hand size). Inside a
layer, prize set ``q`` owns the block ``base[q] : base[q + 1]``, laid out
as ``[pattern][extra]`` (see :mod:`._exact_kernel` for the extras).

:class:`LayeredSolution` and :class:`SolveStats` are defined in
:mod:`._small_layers` (no numba) and re-exported here; small decks are
solved by :mod:`._small` without this module (see
:func:`gopskit.solvers.exact.solve_goofspiel`).
"""

from __future__ import annotations

import functools
import time

import numba
import numpy as np

from ._certify import METHODS, certify_game
from ._exact_kernel import CALL_SETS, MEMO_RUN, extra_index, extra_size, fill_terminal, solve_layer
from ._exact_lp import _GAP, STATUS_FAILED, solve_game_gap
from ._exact_tables import Tables
from ._small_layers import (  # noqa: F401  (re-exported: they live where loading a solution needs no numba)
    LayeredSolution, SolveStats, extra_sizes, layer_work, prize_set_work, total_work,
)

_SERIAL_BELOW = 50_000  # positions: smaller solves run on one thread
_SETTLED_KEPT = 1000  # turn games settled by a fallback that the stats list one by one


def solve_certified(M: np.ndarray, gap: float = _GAP, methods=METHODS):
    """``(value, x, y, method)`` of a square turn game: the compiled solver, else the certifying chain."""
    j = M.shape[0]
    x, y = np.zeros(j), np.zeros(j)
    T, labels = np.zeros((j + 1, j + 1)), np.zeros(2 * j, dtype=np.int64)
    value, status = solve_game_gap(M, j, j, x, y, T, labels, gap)
    if status != STATUS_FAILED:
        return float(value), x, y, "compiled"
    return certify_game(M, _GAP, methods)


def _block_steps(solution: LayeredSolution, j: int, blocks: int, run: int = MEMO_RUN, call: int = CALL_SETS):
    """Calls of the compiled layer solver: ``(q_from, q_to, p_from, p_to, work)`` per call.

    Layer ``j``'s prize sets are cut into runs of ``run`` (the last one
    shorter), and the runs dealt to the ``blocks`` threads, one each; a
    thread solves its run ``call`` prize sets per call, keeping its memo of
    supports between calls, so the progress bar moves every ``call`` prize
    sets while the memo lasts the whole run (measured on 13-card layers:
    runs of 64 are 2.5 % faster than runs of 16). Where there are fewer
    runs than threads (a small layer, a layer's last runs, an endgame),
    the threads split each run's patterns instead. The memo starts afresh
    with every run (:func:`._exact_kernel.solve_layer`) and each pattern's
    turn games are met in the same order however the patterns are split,
    so the values do not depend on the number of threads or on where a
    solve was cut off and resumed. ``work`` is the progress bar's unit
    (:func:`._small_layers.prize_set_work`).
    """
    layer = solution.tables.layers[j]
    nq, npat = layer.num_prize_sets, layer.num_patterns
    cumulative = np.concatenate([[0], np.cumsum(prize_set_work(solution, j))])
    starts = list(range(0, nq, run))
    canonical = np.concatenate([[0], np.cumsum(layer.swap >= np.arange(npat))])
    for first in range(0, len(starts), blocks):
        runs = [(q, min(q + run, nq)) for q in starts[first:first + blocks]]
        parts = max(1, blocks // len(runs))
        # pattern cuts that give each part about as many canonical patterns (those a block solves)
        cuts = np.searchsorted(canonical, np.linspace(0, canonical[-1], parts + 1)[1:-1], side="left")
        edges = [0, *(int(c) for c in cuts), npat]
        for offset in range(0, min(run, nq), call):
            pieces = [(min(a + offset, b), min(a + offset + call, b)) for a, b in runs]
            if all(lo == hi for lo, hi in pieces):
                break
            chosen = [(lo, hi, edges[k], edges[k + 1]) for lo, hi in pieces for k in range(parts)]
            chosen += [(nq, nq, 0, 0)] * (blocks - len(chosen))
            q_from, q_to, p_from, p_to = (np.array(column, dtype=np.int64) for column in zip(*chosen))
            work = int(sum(cumulative[hi] - cumulative[lo] for lo, hi in pieces))
            yield q_from, q_to, p_from, p_to, work


def solve_layers(tables: Tables, objective: str, ties: str, slack: int = 0, progress=None,
                 threads: int | None = None, *, gap: float = _GAP, methods=METHODS,
                 store=None, memo_run: int = MEMO_RUN) -> LayeredSolution:
    """Backward induction from empty hands up to the tables' top layer.

    ``progress`` is an object with ``update(n)`` (a tqdm bar) or None.
    ``threads`` defaults to one for small solves (below ``_SERIAL_BELOW``
    positions, where starting threads costs more than it saves) and to
    numba's thread count otherwise. ``gap`` is the compiled solver's
    accepted certificate gap and ``methods`` the certifying fallbacks for
    the games it rejects (tests force the fallback with a negative gap).
    ``store`` (a :class:`.layer_folder.LayerFolder`) makes the solve a
    checkpointed one: layers already on disk are taken from there, each
    new layer is written as soon as it is finished, and only the layer
    below the one being solved stays in memory.
    """
    sol = LayeredSolution(tables, objective, ties, slack, allocate=store is None)
    if threads is None:
        threads = 1 if sol.stats.positions < _SERIAL_BELOW else numba.config.NUMBA_NUM_THREADS
    before = numba.get_num_threads()
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        return _solve_all_layers(sol, tables, progress, gap, methods, store, memo_run)
    finally:
        numba.set_num_threads(before)


def _solve_all_layers(sol: LayeredSolution, tables: Tables, progress, gap, methods, store, memo_run) -> LayeredSolution:
    started = time.perf_counter()
    first = _resume(sol, store, progress) if store is not None else 0
    if first == 0:
        fill_terminal(_allocated(sol, 0), sol.turned_points(0, 0), sol.win, sol.carry)
        if store is not None:
            store.write(0, sol.values[0], sol.stats.as_dict(), 0.0)
        first = 1
    values = np.asarray(tables.prize_values, dtype=np.int64)
    for j in range(first, len(tables.layers)):
        layer_started = time.perf_counter()
        layer, below = tables.layers[j], tables.layers[j - 1]
        blocks = max(1, numba.get_num_threads())
        counts = np.zeros((blocks, layer.num_prize_sets, 4), dtype=np.int64)
        vals = _allocated(sol, j)
        memo = np.zeros((blocks, layer.num_patterns, len(values), 2), dtype=np.int16)
        for q_from, q_to, p_from, p_to, work in _block_steps(sol, j, blocks, memo_run):
            solve_layer(j, q_from, q_to, p_from, p_to, layer.masks, layer.prize_sums, sol.bases[j], layer.child, layer.outcome,
                        layer.swap, vals, sol.bases[j - 1], sol.values[j - 1], below.prize_sums,
                        tables.rank_of_mask, values, sol.total_points, sol.slack, sol.win, sol.carry, counts, gap,
                        memo, memo_run)
            if progress is not None:
                progress.update(work)
        del memo
        pure, simplex, failed, support = (int(c) for c in counts.sum(axis=(0, 1)))
        sol.stats.pure += pure
        sol.stats.simplex += simplex + support
        sol.stats.support += support
        if failed:
            settle_failed(sol, j, gap, methods)
        sol.stats.games = sol.stats.pure + sol.stats.simplex + sol.stats.highs + sol.stats.exact + sol.stats.failed
        sol.stats.seconds += time.perf_counter() - layer_started
        if store is not None:
            store.write(j, vals, sol.stats.as_dict(), time.perf_counter() - layer_started)
            sol.values[j - 1] = store.load(j - 1)  # mapped from disk: its memory is free again
    if store is not None:
        sol.values[-1] = store.load(len(tables.layers) - 1)
    sol.stats.wall_seconds = time.perf_counter() - started
    return sol


def _allocated(sol: LayeredSolution, j: int) -> np.ndarray:
    if sol.values[j] is None:
        sol.values[j] = np.full(sol.layer_sizes()[j], np.nan)
    return sol.values[j]


def _resume(sol: LayeredSolution, store, progress) -> int:
    """Take the layers ``store`` already has; return the first layer still to solve."""
    done = store.layers_done
    if done == 0:
        return 0
    for j in range(done):
        sol.values[j] = store.load(j, in_memory=(j == done - 1))  # the layer below the next: in memory
    positions = sol.stats.positions
    sol.stats = SolveStats(**store.meta.get("stats", {}))
    sol.stats.positions, sol.stats.resumed_from = positions, done
    if progress is not None:
        progress.update(sum(layer_work(sol, j) for j in range(1, done)))
    return done


@functools.lru_cache(maxsize=64)
def _extras_by_index(C: int, win: bool, carry: bool) -> dict[int, tuple[int, int]]:
    """The inverse of :func:`._exact_kernel.extra_index`: extra index -> (lead, pot)."""
    extras = {}
    for pot in range(C + 1 if carry else 1):
        reach = C - pot if win else 0
        for lead in range(-reach, reach + 1):
            extras[int(extra_index(lead, pot, C, win, carry))] = (lead, pot)
    return extras


def settle_failed(sol: LayeredSolution, j: int, gap: float = _GAP, methods=METHODS) -> None:
    """Re-solve the positions of layer ``j`` that the compiled kernel left as NaN.

    Each of their turn games is solved again; one whose compiled certificate
    fails goes down the certifying chain of :mod:`._certify`, and the stats
    count how it was settled. The mirror position gets the negated value.
    """
    vals, layer = sol.values[j], sol.tables.layers[j]
    for index in np.flatnonzero(np.isnan(vals)):
        q = int(np.searchsorted(sol.bases[j], index, side="right") - 1)
        C = sol.turned_points(j, q)
        size = extra_size(C, sol.win, sol.carry)
        pattern, extra = divmod(int(index - sol.bases[j][q]), size)
        mirror = int(layer.swap[pattern])
        if mirror < pattern:
            continue  # settled with its canonical twin
        lead, pot = _extras_by_index(C, sol.win, sol.carry)[extra]
        total = 0.0
        for t in range(len(sol.tables.prize_values)):
            if int(layer.masks[q]) >> t & 1:
                M = sol.turn_matrix(j, q, pattern, t, lead, pot)
                value, _x, _y, method = solve_certified(M, gap, methods)
                if method != "compiled":
                    _count_settled(sol.stats, method, [j, q, pattern, lead, pot, int(sol.tables.prize_values[t])])
                total += value
        vals[index] = total / j
        vals[sol.bases[j][q] + mirror * size + extra_index(-lead, pot, C, sol.win, sol.carry)] = -total / j


def _count_settled(stats: SolveStats, method: str, where: list) -> None:
    setattr(stats, method, getattr(stats, method) + 1)
    if len(stats.settled) < _SETTLED_KEPT:
        stats.settled.append(where + [method])
