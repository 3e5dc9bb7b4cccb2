"""The exact solver's solution object and statistics, free of numba.

:class:`LayeredSolution` (every position's value, layer by layer) and
:class:`SolveStats` are shared by the compiled engine
(:mod:`._exact_engine`, which re-exports them) and the numba-free solver for
small decks (:mod:`._small`). They live here so that loading a saved
solution, or solving a small deck, never imports numba: importing numba
and loading its first compiled function costs about half a second, far
more than a small deck's whole solve.

The few compiled helpers the methods need have plain-Python twins here
(``extra_size``, ``extra_index``, the turn matrix, one turn game). A method
uses the compiled kernels when they are already loaded in this process
(anything that solved with the compiled engine), or once this process has
asked for more than ``_PLAIN_TURN_GAMES`` turn games (a bot playing many
games), and the plain ones otherwise. Both give the same numbers: the plain
ones repeat the kernels' arithmetic operation for operation.
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np

_GAP = 1e-10  # the compiled solver's accepted certificate gap (._exact_lp._GAP)
_PLAIN_TURN_GAMES = 200  # turn games asked of a solution before the compiled kernels are worth loading
_KERNEL_MODULES = ("gopskit.solvers._exact_kernel", "gopskit.solvers._exact_lp")
_plain_calls = 0


@dataclasses.dataclass
class SolveStats:
    """What a solve did: positions stored, turn games and how each was settled, time.

    ``seconds`` adds up the time spent solving layers (over every run of a
    resumed solve); ``wall_seconds`` is this run's, and ``resumed_from`` the
    first layer it solved (0 for a solve from scratch).

    Every turn game is settled by exactly one method: ``pure`` (a saddle
    point), ``simplex`` (the compiled solver, certified: ``support`` of
    these on a neighbour's support, the rest by the simplex), ``highs`` or
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
    support: int = 0
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
        if self.support:
            line = (f"pure saddle {self.pure:,}, mixed {self.simplex:,} ({self.support:,} on a neighbour's "
                    f"support, {self.simplex - self.support:,} by the simplex)")
        else:
            line = f"pure saddle {self.pure:,}, simplex {self.simplex:,}"
        if self.highs or self.exact:
            line += f", re-solved by HiGHS {self.highs:,}, by exact rationals {self.exact:,}"
        if self.failed:
            line += f", NOT CERTIFIED {self.failed:,}"
        return line

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def extra_size(C, win: bool, carry: bool):
    """:func:`._exact_kernel.extra_size` in plain Python (``C`` may be an array)."""
    if win and carry:
        return (C + 1) * (C + 1)
    if win:
        return 2 * C + 1
    if carry:
        return C + 1
    return 1 + 0 * C


def extra_index(lead, pot, C, win: bool, carry: bool):
    """:func:`._exact_kernel.extra_index` in plain Python (arrays broadcast)."""
    if win and carry:
        return pot * (2 * C + 1) - pot * (pot - 1) + lead + C - pot
    if win:
        return lead + C
    if carry:
        return pot + 0 * lead
    return 0 * (lead + pot + C)


def extra_sizes(turned: np.ndarray, win: bool, carry: bool) -> np.ndarray:
    """:func:`extra_size` of every prize set, as an int64 array."""
    return extra_size(np.asarray(turned, dtype=np.int64), win, carry)


def child_values(vals_c, start, child, lead, pot, C, S, win: bool, carry: bool) -> np.ndarray:
    """:func:`._exact_kernel.child_value` over arrays of child patterns, leads and pots (broadcast)."""
    index = start + child * extra_size(C, win, carry) + extra_index(lead, pot, C, win, carry)
    if not win:
        return vals_c[index]
    above, below = lead > S + pot, lead < -(S + pot)
    stored = vals_c[np.where(above | below, 0, index)]
    return np.where(above, 1.0, np.where(below, -1.0, stored))


def turn_entries(child, outcome, prize, lead, pot, vals_c, start, C, S, win: bool, carry: bool) -> np.ndarray:
    """:func:`._exact_kernel.fill_turn_matrix`'s entries for arrays of (child, outcome) cells.

    ``child`` and ``outcome`` are the tables' entries of the cells (any
    shape); the scalars or arrays ``prize``, ``lead``, ``pot``, ``start``,
    ``C`` and ``S`` broadcast against them (``C`` and ``S`` are those of the
    prize set left after this prize). Under "points" the points won now
    (an integer) are added to the value reached, as the kernel does.
    """
    s = outcome.astype(np.int64)
    offer = pot + prize if carry else prize + 0 * pot
    won = s != 0
    lead2 = np.where(won, lead + s * offer, lead)
    pot2 = np.where(won, 0, offer if carry else 0)
    later = child_values(vals_c, start, child, lead2, pot2, C, S, win, carry)
    return later if win else s * offer + later


def kernels_loaded() -> bool:
    """True when the compiled solver is already loaded in this process (using it then costs nothing)."""
    return all(name in sys.modules for name in _KERNEL_MODULES)


def _use_compiled() -> bool:
    global _plain_calls
    if kernels_loaded():
        return True
    _plain_calls += 1
    return _plain_calls > _PLAIN_TURN_GAMES


class LayeredSolution:
    """Every position's value for one set of tables, objective and tie rule.

    ``slack`` widens the leads and pots stored beyond the points turned
    inside the tables (an endgame may start with a pot already carried).
    """

    def __init__(self, tables, objective: str, ties: str, slack: int = 0, values=None,
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
        return self._turn_matrix(j, q, pattern, prize_index, lead, pot, _use_compiled())

    def _turn_matrix(self, j, q, pattern, prize_index, lead, pot, compiled: bool) -> np.ndarray:
        layer, below = self.tables.layers[j], self.tables.layers[j - 1]
        mask = int(layer.masks[q])
        prize = self.tables.prize_values[prize_index]
        cq = int(self.tables.rank_of_mask[mask ^ (1 << prize_index)])
        args = (lead, pot, self.values[j - 1], int(self.bases[j - 1][cq]), self.turned_points(j, q) + prize,
                int(below.prize_sums[cq]), self.win, self.carry)
        if not compiled:
            return turn_entries(layer.child[pattern], layer.outcome[pattern], prize, *args).astype(np.float64)
        from ._exact_kernel import fill_turn_matrix

        M = np.empty((j, j))
        fill_turn_matrix(M, j, pattern, layer.child, layer.outcome, prize, *args)
        return M

    def turn_game(self, j, q, pattern, prize_index, lead=0, pot=0):
        """``(value, holder's strategy, opponent's strategy)`` of one turn."""
        compiled = _use_compiled()
        M = self._turn_matrix(j, q, pattern, prize_index, lead, pot, compiled)
        if compiled:
            from ._exact_engine import solve_certified
        else:
            from ._small_lp import solve_certified
        value, x, y, _method = solve_certified(M)
        return value, x, y


def _canonical_count(layer) -> int:
    return int(np.count_nonzero(layer.swap >= np.arange(layer.num_patterns)))


def prize_set_work(solution: LayeredSolution, j: int) -> np.ndarray:
    """The estimated cost of each of layer ``j``'s prize sets: the unit of the progress bar.

    Each canonical position holds ``j`` turn games of ``j x j``, whose
    simplex costs grow about linearly in ``j`` at these sizes (measured), so
    a position weighs ``j * j``. Counting this work rather than positions
    keeps the bar's ETA honest from the small bottom layers to the large
    middle ones.
    """
    layer = solution.tables.layers[j]
    return extra_sizes(solution.turned[j], solution.win, solution.carry) * _canonical_count(layer) * j * j


def layer_value_counts(num_cards: int, objective: str, ties: str) -> list[int]:
    """How many values each layer of the whole ``num_cards``-card game stores, without building its tables.

    Patterns are counted by formula (:func:`._exact_tables.pattern_count`)
    and every prize set by its turned points, as :class:`LayeredSolution`
    lays the values out: what a caller checks before a solve that may not
    fit in memory or on disk.
    """
    from ._exact_tables import _prize_sets, pattern_count

    _rank_of_mask, by_size = _prize_sets(num_cards, np.arange(1, num_cards + 1))
    total = num_cards * (num_cards + 1) // 2
    return [pattern_count(j, num_cards) * int(extra_sizes(total - sums, objective == "win", ties == "carry").sum())
            for j, (_masks, sums) in enumerate(by_size)]


def turn_game_count(solution: LayeredSolution) -> int:
    """How many turn games a solve of these tables meets: each canonical position, each prize it can turn.

    Known before solving, it bounds ``SolveStats.games`` from above (that
    count leaves out positions settled without a game, such as equal
    hands): what a caller checks to refuse a solve that would take too long.
    A position's work (:func:`prize_set_work`) is ``j * j`` for its ``j``
    turn games.
    """
    return sum(layer_work(solution, j) // j for j in range(1, len(solution.tables.layers)))


def layer_work(solution: LayeredSolution, j: int) -> int:
    """The work of layer ``j`` (see :func:`prize_set_work`)."""
    return int(prize_set_work(solution, j).sum())


def total_work(solution: LayeredSolution) -> int:
    """The work of the whole solve (the unit of the progress bar)."""
    return sum(layer_work(solution, j) for j in range(1, len(solution.tables.layers)))
