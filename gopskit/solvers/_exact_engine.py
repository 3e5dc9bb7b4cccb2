"""Layer-by-layer backward induction: the engine under :mod:`gopskit.solvers.exact`.

The engine knows nothing about card values: it works on the tables of
:mod:`._exact_tables` (hand patterns, prize sets given by their point
values), so the same code solves the whole game (prizes 1..N) and any
endgame of a bigger game (the prizes still to come, hands relabelled by
their order).

Values live in one flat ``float64`` array per layer (hand size). Inside a
layer, prize set ``q`` owns the block ``base[q] : base[q + 1]``, laid out
as ``[pattern][extra]`` (see :mod:`._exact_kernel` for the extras).
"""

from __future__ import annotations

import dataclasses
import functools
import time

import numba
import numpy as np

from ._certify import METHODS, certify_game
from ._exact_kernel import extra_index, extra_size, fill_terminal, fill_turn_matrix, solve_layer
from ._exact_lp import _GAP, STATUS_FAILED, solve_game_gap
from ._exact_tables import Tables

_SERIAL_BELOW = 50_000  # positions: smaller solves run on one thread
_CHUNK_POSITIONS = 200_000  # positions per compiled call between progress updates
_SETTLED_KEPT = 1000  # turn games settled by a fallback that the stats list one by one


@dataclasses.dataclass
class SolveStats:
    """What a solve did: positions stored, turn games and how each was settled, time.

    ``seconds`` adds up the time spent solving layers (over every run of a
    resumed solve); ``wall_seconds`` is this run's, and ``resumed_from`` the
    first layer it solved (0 for a solve from scratch).

    Every turn game is settled by exactly one method: ``pure`` (a saddle
    point), ``simplex`` (the compiled solver, certified), ``highs`` or
    ``exact`` (the certifying fallbacks of :mod:`._certify`, for games the
    compiled certificate rejected). ``failed`` counts games no method could
    certify; a solution with ``failed > 0`` holds uncertified values and
    says so. ``settled`` lists the first fallback games as
    ``[layer, prize set, pattern, lead, pot, prize, method]``.
    """

    positions: int = 0
    games: int = 0
    pure: int = 0
    simplex: int = 0
    highs: int = 0
    exact: int = 0
    failed: int = 0
    seconds: float = 0.0
    settled: list = dataclasses.field(default_factory=list)
    wall_seconds: float = 0.0
    resumed_from: int = 0

    @property
    def certified(self) -> bool:
        """True when every turn game's value is certified."""
        return self.failed == 0

    def methods_line(self) -> str:
        """One line saying how the turn games were settled."""
        line = f"pure saddle {self.pure:,}, simplex {self.simplex:,}"
        if self.highs or self.exact:
            line += f", re-solved by HiGHS {self.highs:,}, by exact rationals {self.exact:,}"
        if self.failed:
            line += f", NOT CERTIFIED {self.failed:,}"
        return line

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def extra_sizes(turned: np.ndarray, win: bool, carry: bool) -> np.ndarray:
    """Vectorised :func:`._exact_kernel.extra_size` over prize sets."""
    turned = np.asarray(turned, dtype=np.int64)
    if win and carry:
        return (turned + 1) ** 2
    if win:
        return 2 * turned + 1
    if carry:
        return turned + 1
    return np.ones_like(turned)


class LayeredSolution:
    """Every position's value for one set of tables, objective and tie rule.

    ``slack`` widens the leads and pots stored beyond the points turned
    inside the tables (an endgame may start with a pot already carried).
    """

    def __init__(self, tables: Tables, objective: str, ties: str, slack: int = 0, values=None,
                 allocate: bool = True):
        self.tables, self.objective, self.ties, self.slack = tables, objective, ties, int(slack)
        self.win, self.carry = objective == "win", ties == "carry"
        self.total_points = int(sum(tables.prize_values))
        self.turned, self.bases = [], []
        for layer in tables.layers:
            if layer is None:  # a layer these tables leave out (see build_tables' ``lowest``)
                self.turned.append(None)
                self.bases.append(np.zeros(1, dtype=np.int64))
                continue
            turned = self.slack + self.total_points - layer.prize_sums
            sizes = extra_sizes(turned, self.win, self.carry) * layer.num_patterns
            self.turned.append(turned)
            self.bases.append(np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64))
        if values is None:
            values = [np.full(size, np.nan) if allocate else None for size in self.layer_sizes()]
        self.values = list(values)
        self.stats = SolveStats(positions=sum(self.layer_sizes()))

    def layer_sizes(self) -> list[int]:
        """How many values each layer stores."""
        return [int(b[-1]) for b in self.bases]

    def turned_points(self, j: int, q: int) -> int:
        """Points turned before prize set ``q`` of layer ``j`` (plus the slack): the bound on |lead| + pot."""
        return int(self.turned[j][q])

    def stored_value(self, j: int, q: int, pattern: int, lead: int = 0, pot: int = 0) -> float:
        """Value of a position before its prize is turned."""
        S = int(self.tables.layers[j].prize_sums[q])
        if self.win and abs(lead) > S + pot:
            return float(np.sign(lead))
        C = self.turned_points(j, q)
        size = extra_size(C, self.win, self.carry)
        return float(self.values[j][self.bases[j][q] + pattern * size + extra_index(lead, pot, C, self.win, self.carry)])

    def turn_matrix(self, j: int, q: int, pattern: int, prize_index: int, lead: int = 0, pot: int = 0) -> np.ndarray:
        """The ``j x j`` game of one turn (holder's bids by row, ascending)."""
        layer, below = self.tables.layers[j], self.tables.layers[j - 1]
        mask = int(layer.masks[q])
        prize = self.tables.prize_values[prize_index]
        cq = int(self.tables.rank_of_mask[mask ^ (1 << prize_index)])
        M = np.empty((j, j))
        fill_turn_matrix(M, j, pattern, layer.child, layer.outcome, prize, lead, pot, self.values[j - 1],
                         self.bases[j - 1][cq], self.turned_points(j, q) + prize, int(below.prize_sums[cq]),
                         self.win, self.carry)
        return M

    def turn_game(self, j, q, pattern, prize_index, lead=0, pot=0):
        """``(value, holder's strategy, opponent's strategy)`` of one turn."""
        M = self.turn_matrix(j, q, pattern, prize_index, lead, pot)
        value, x, y, _method = solve_certified(M)
        return value, x, y


def solve_certified(M: np.ndarray, gap: float = _GAP, methods=METHODS):
    """``(value, x, y, method)`` of a square turn game: the compiled solver, else the certifying chain."""
    j = M.shape[0]
    x, y = np.zeros(j), np.zeros(j)
    T, labels = np.zeros((j + 1, j + 1)), np.zeros(2 * j, dtype=np.int64)
    value, status = solve_game_gap(M, j, j, x, y, T, labels, gap)
    if status != STATUS_FAILED:
        return float(value), x, y, "compiled"
    return certify_game(M, _GAP, methods)


def _canonical_count(layer) -> int:
    return int(np.count_nonzero(layer.swap >= np.arange(layer.num_patterns)))


def _chunks(solution: LayeredSolution, j: int):
    """Split layer ``j``'s prize sets into runs of about ``_CHUNK_POSITIONS`` canonical positions.

    Yields ``(first, end, work)``; ``work`` estimates the run's cost: each
    position holds ``j`` turn games of ``j x j``, whose simplex costs grow
    about linearly in ``j`` at these sizes (measured), so a position weighs
    ``j * j``. The progress bar counts this work, so its ETA stays honest
    from the small bottom layers to the large middle ones.
    """
    layer = solution.tables.layers[j]
    weights = extra_sizes(solution.turned[j], solution.win, solution.carry) * _canonical_count(layer)
    start, acc = 0, 0
    for q, w in enumerate(weights):
        acc += int(w)
        if acc >= _CHUNK_POSITIONS:
            yield start, q + 1, acc * j * j
            start, acc = q + 1, 0
    if start < len(weights):
        yield start, len(weights), acc * j * j


def layer_work(solution: LayeredSolution, j: int) -> int:
    """The work of layer ``j`` (see :func:`_chunks`)."""
    return sum(work for *_, work in _chunks(solution, j))


def total_work(solution: LayeredSolution) -> int:
    """The work of the whole solve (the unit of the progress bar)."""
    return sum(layer_work(solution, j) for j in range(1, len(solution.tables.layers)))


def solve_layers(tables: Tables, objective: str, ties: str, slack: int = 0, progress=None,
                 threads: int | None = None, *, gap: float = _GAP, methods=METHODS,
                 store=None) -> LayeredSolution:
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
        return _solve_all_layers(sol, tables, progress, gap, methods, store)
    finally:
        numba.set_num_threads(before)


def _solve_all_layers(sol: LayeredSolution, tables: Tables, progress, gap, methods, store) -> LayeredSolution:
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
        counts = np.zeros((layer.num_prize_sets, 3), dtype=np.int64)
        vals = _allocated(sol, j)
        for lo, hi, work in _chunks(sol, j):
            solve_layer(j, lo, hi, layer.masks, layer.prize_sums, sol.bases[j], layer.child, layer.outcome,
                        layer.swap, vals, sol.bases[j - 1], sol.values[j - 1], below.prize_sums,
                        tables.rank_of_mask, values, sol.total_points, sol.slack, sol.win, sol.carry, counts, gap)
            if progress is not None:
                progress.update(work)
        pure, simplex, failed = (int(c) for c in counts.sum(axis=0))
        sol.stats.pure += pure
        sol.stats.simplex += simplex
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
