"""Solving a small deck without numba: the exact solver's cold start made short.

``gopskit solve --cards 6`` spends about 0.03 s solving, but loading the
compiled engine costs far more: importing numba and loading its first
compiled function takes about half a second (numba initialises its target
and checks for BLAS through scipy), then each cached kernel about 0.02 s.
A small deck is therefore solved here with numpy alone, never importing
numba nor scipy:

* the index tables are built by :mod:`._exact_tables`' own code, with the
  plain functions of its kernels (:func:`plain_build_tables`);
* each layer is solved as the compiled engine solves it (same positions,
  same mirror images, same turn matrices, entry by entry), with all its
  turn games stacked and solved together by :mod:`._small_lp`, which
  repeats the compiled solver's arithmetic;
* a turn game whose certificate fails goes to :func:`._certify.certify_game`
  and is counted exactly as :func:`._exact_engine.settle_failed` counts it.

The result is the compiled engine's, value for value (the same floating
point operations in the same order), with the same statistics. It covers
every objective and tie rule. It is the faster way only while the deck is
small: :func:`small_enough` says where (measured, see ``docs/solver.md``,
"Start-up time", and ``benchmarks/bench_cold_start.py``).
"""

from __future__ import annotations

import functools
import time
import types

import numpy as np

from ._small_layers import LayeredSolution, SolveStats, extra_index, extra_size, layer_work, turn_entries
from ._small_lp import _GAP, STATUS_FAILED, STATUS_PURE, STATUS_SIMPLEX, solve_games

# Up to these many turn games (estimated by turn_games) a whole 'gopskit solve' process is faster here than
# with the compiled engine, whose loading costs about 0.5 s: measured by benchmarks/bench_cold_start.py on a
# 2-core machine (8 cards "points", 204k games: 0.77 s against 0.94 s; 6 cards win/carry, 558k: 0.81 s
# against 0.75 s; 7 cards points/carry, 412k: 1.5 s against 0.85 s).
SMALL_GAMES = 250_000
_PLAIN_TABLES_UP_TO = 10  # measured: 10 cards' tables take 0.15 s here, loading numba 0.5 s
_SMALL_UP_TO = 9  # no bigger deck is ever small (9 cards "points": 1.2 million turn games)
_BATCH_GAMES = 4_000  # turn games stacked at once: their tableaux stay in the cache (measured: 20,000 is 15 % slower)
_SETTLED_KEPT = 1000  # as in ._exact_engine


def _rebind(func, namespace: dict):
    """A copy of ``func`` that looks its global names up in ``namespace``."""
    copy = types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__)
    copy.__kwdefaults__ = func.__kwdefaults__
    return copy


@functools.lru_cache(maxsize=1)
def _plain_tables_namespace() -> dict:
    """The namespace of :mod:`._exact_tables` with every kernel replaced by its plain function."""
    from . import _exact_tables

    namespace = dict(vars(_exact_tables))
    for name, func in _exact_tables._KERNELS.items():
        namespace[name] = _rebind(func, namespace)
    namespace["_child_tables"] = child_tables  # the one kernel worth vectorising (0.2 s at 8 cards in plain Python)
    for name in ("pattern_codes", "build_tables"):
        namespace[name] = _rebind(getattr(_exact_tables, name), namespace)
    return namespace


def child_tables(codes: np.ndarray, child_codes: np.ndarray, hand_size: int):
    """:func:`._exact_tables._child_tables` with numpy: ``child``, ``outcome`` and ``swap`` of one layer.

    Each pattern's letters are laid out right-aligned (shorter patterns get
    leading zeros, which keep the order of the cards). The holder's cards
    are the A and C letters, the opponent's the B and C letters; bidding the
    ``a``-th and ``b``-th of them removes a letter bid alone and turns a C
    bid by one side into the other side's letter, as the kernel does.
    """
    from ._exact_tables import A, B, C

    j, count = hand_size, len(codes)
    length = max(1, (int(codes.max()).bit_length() + 1) // 2)
    digits = (codes[:, None] >> (2 * np.arange(length - 1, -1, -1))) & 3
    mine = np.nonzero((digits == A) | (digits == C))[1].reshape(count, j)
    theirs = np.nonzero((digits == B) | (digits == C))[1].reshape(count, j)
    pa, pb = mine[:, :, None, None], theirs[:, None, :, None]
    outcome = np.sign(mine[:, :, None] - theirs[:, None, :]).astype(np.int8)
    place, d = np.arange(length), digits[:, None, None, :]
    at_a, at_b = place == pa, place == pb
    left = np.where(at_a, np.where(at_b | (d == A), 0, B), np.where(at_b, np.where(d == B, 0, A), d))
    child = _found(child_codes, _encode(left), "child")
    swapped = np.where((digits == 0) | (digits == C), digits, 3 - digits)
    swap = _found(codes, _encode(swapped), "mirror")
    return child.astype(np.int32), outcome, swap.astype(np.int32)


def _encode(digits: np.ndarray) -> np.ndarray:
    """Pattern codes of letter arrays (last axis), zeros skipped."""
    code = np.zeros(digits.shape[:-1], dtype=np.int64)
    for t in range(digits.shape[-1]):
        d = digits[..., t]
        code = np.where(d != 0, code * 4 + d, code)
    return code


def _found(sorted_codes: np.ndarray, codes: np.ndarray, what: str) -> np.ndarray:
    index = np.minimum(np.searchsorted(sorted_codes, codes), len(sorted_codes) - 1)
    if not np.array_equal(sorted_codes[index], codes):
        raise RuntimeError(f"a {what} pattern is missing from the tables: they were built inconsistently")
    return index


def plain_build_tables(prize_values, max_length: int, top: int | None = None, lowest: int = 0):
    """:func:`._exact_tables.build_tables` run on the plain functions of its kernels (no numba)."""
    return _plain_tables_namespace()["build_tables"](prize_values, max_length, top, lowest)


@functools.lru_cache(maxsize=4)
def plain_game_tables(num_cards: int):
    """:func:`._exact_tables.full_game_tables` built without numba."""
    return plain_build_tables(range(1, num_cards + 1), num_cards)


def game_tables(num_cards: int):
    """The whole game's tables the cheapest way: built here while numba is not loaded and the deck
    is small (:data:`_PLAIN_TABLES_UP_TO`), else by the compiled kernels."""
    import sys

    from ._exact_tables import full_game_tables

    if num_cards > _PLAIN_TABLES_UP_TO or "numba" in sys.modules:
        return full_game_tables(num_cards)
    return plain_game_tables(num_cards)


def turn_games(num_cards: int, objective: str, ties: str) -> int:
    """About how many turn games solving the ``num_cards`` deck takes (the canonical positions
    times their turned prizes), counted from the hand patterns alone, without the child tables."""
    from ._exact_tables import _prize_sets

    win, carry = objective == "win", ties == "carry"
    values = np.arange(1, num_cards + 1, dtype=np.int64)
    _rank, by_size = _prize_sets(num_cards, values)
    games = 0
    for j in range(1, num_cards + 1):
        codes = _plain_tables_namespace()["pattern_codes"](j, num_cards)
        canonical = int(np.count_nonzero(_swapped_codes(codes, num_cards) >= codes))
        turned = int(values.sum()) - by_size[j][1]
        games += canonical * int(extra_size(turned, win, carry).sum()) * j
    return games


def _swapped_codes(codes: np.ndarray, length: int) -> np.ndarray:
    """The codes of the patterns with the hands swapped (letters A and B exchanged)."""
    swapped = np.zeros_like(codes)
    for k in range(length):
        digit = (codes >> (2 * k)) & 3
        swapped |= np.array([0, 2, 1, 3], dtype=np.int64)[digit] << (2 * k)
    return swapped


def small_enough(num_cards: int, objective: str, ties: str) -> bool:
    """True when solving here is faster than loading the compiled engine and solving there."""
    return num_cards <= _SMALL_UP_TO and turn_games(num_cards, objective, ties) <= SMALL_GAMES


def solve_small(tables, objective: str, ties: str, progress=None, *, gap: float = _GAP,
                methods=None) -> LayeredSolution:
    """Backward induction from empty hands up to the tables' top layer, with numpy only.

    The same contract as :func:`._exact_engine.solve_layers` without threads
    or a layer folder: ``progress`` gets ``update(work)`` per layer in the
    same units, ``gap`` is the accepted certificate gap (tests force the
    fallback with a negative one) and ``methods`` the certifying fallbacks.
    """
    started = time.perf_counter()
    sol = LayeredSolution(tables, objective, ties)
    sol.values[0][:] = _terminal_values(sol)
    for j in range(1, len(tables.layers)):
        layer_started = time.perf_counter()
        _solve_layer(sol, j, gap, methods)
        sol.stats.games = sol.stats.pure + sol.stats.simplex + sol.stats.highs + sol.stats.exact + sol.stats.failed
        sol.stats.seconds += time.perf_counter() - layer_started
        if progress is not None:
            progress.update(layer_work(sol, j))
    sol.stats.wall_seconds = time.perf_counter() - started
    return sol


def _terminal_values(sol: LayeredSolution) -> np.ndarray:
    """Layer 0: the hand is over; "win" scores the sign of the lead (:func:`._exact_kernel.fill_terminal`)."""
    C = sol.turned_points(0, 0)
    vals = np.zeros(sol.layer_sizes()[0])
    if sol.win:
        lead, pot = _extras(C, sol.win, sol.carry)
        vals[extra_index(lead, pot, C, True, sol.carry)] = np.sign(lead)
    return vals


@functools.lru_cache(maxsize=256)
def _extras(C: int, win: bool, carry: bool):
    """Every (lead, pot) a prize set with ``C`` points turned stores, in the compiled kernel's order."""
    leads, pots = [], []
    for pot in range(C + 1 if carry else 1):
        reach = C - pot if win else 0
        leads.extend(range(-reach, reach + 1))
        pots.extend([pot] * (2 * reach + 1))
    return np.array(leads, dtype=np.int64), np.array(pots, dtype=np.int64)


class _Positions:
    """The positions of one layer the compiled kernel visits, in its order, as parallel arrays."""

    def __init__(self, sol: LayeredSolution, j: int):
        layer = sol.tables.layers[j]
        canonical = np.flatnonzero(layer.swap >= np.arange(layer.num_patterns))
        parts = []
        for q in range(layer.num_prize_sets):
            C = sol.turned_points(j, q)
            lead, pot = _extras(C, sol.win, sol.carry)
            pattern = np.repeat(canonical, len(lead))
            parts.append((np.full(len(pattern), q), pattern, np.tile(lead, len(canonical)),
                          np.tile(pot, len(canonical))))
        self.q, self.pattern, self.lead, self.pot = (np.concatenate(p) for p in zip(*parts))
        self.mirror = layer.swap[self.pattern].astype(np.int64)
        self.S = layer.prize_sums[self.q]
        self.C = sol.turned[j][self.q]
        size = extra_size(self.C, sol.win, sol.carry)
        base = sol.bases[j][self.q]
        self.index = base + self.pattern * size + extra_index(self.lead, self.pot, self.C, sol.win, sol.carry)
        self.mirror_index = base + self.mirror * size + extra_index(-self.lead, self.pot, self.C, sol.win, sol.carry)
        self.decided = (np.abs(self.lead) > self.S + self.pot) if sol.win else np.zeros(len(self.q), dtype=bool)
        self.symmetric = ~self.decided & (self.mirror == self.pattern) & (self.lead == 0)
        self.played = ~self.decided & ~self.symmetric
        # A pattern that is its own mirror is solved at lead -L and again at +L; the later (+L) one is kept.
        self.writes = ~((self.mirror == self.pattern) & (self.lead < 0))


def _solve_layer(sol: LayeredSolution, j: int, gap: float, methods) -> None:
    """Fill layer ``j`` from layer ``j - 1`` as :func:`._exact_kernel.solve_layer` does, then settle failures."""
    pos = _Positions(sol, j)
    played = np.flatnonzero(pos.played)
    games = _TurnGames(sol, j, pos, played)
    game_values, status = np.empty((len(played), j)), np.empty((len(played), j), dtype=np.int64)
    step = max(1, _BATCH_GAMES // j)
    for lo in range(0, len(played), step):
        chunk = slice(lo, min(lo + step, len(played)))
        v, s, _x, _y = solve_games(games.matrices(chunk).reshape(-1, j, j), gap)
        game_values[chunk], status[chunk] = v.reshape(-1, j), s.reshape(-1, j)
    sol.stats.pure += int(np.count_nonzero(status == STATUS_PURE))
    sol.stats.simplex += int(np.count_nonzero(status == STATUS_SIMPLEX))
    failed = (status == STATUS_FAILED).any(axis=1)
    total = np.zeros(len(played))
    for t in range(j):  # the kernel's order: prize by prize, from 0.0
        total += game_values[:, t]
    value = np.where(pos.decided, np.sign(pos.lead).astype(np.float64), 0.0)
    value[played] = np.where(failed, np.nan, total / j)
    writes = np.flatnonzero(pos.writes)
    vals = sol.values[j]
    vals[pos.index[writes]] = value[writes]
    vals[pos.mirror_index[writes]] = -value[writes]  # after: a symmetric level position stores -0.0, as the kernel
    if failed.any():
        _settle(sol, j, pos, played, games, game_values, status, methods)


class _TurnGames:
    """The ``j`` turn games of each played position: prize, prize set left and its place in layer ``j - 1``."""

    def __init__(self, sol: LayeredSolution, j: int, pos: _Positions, played: np.ndarray):
        tables = sol.tables
        layer, below = tables.layers[j], tables.layers[j - 1]
        masks = layer.masks[pos.q[played]]
        bits = (masks[:, None] >> np.arange(len(tables.prize_values))) & 1
        self.t = np.nonzero(bits)[1].reshape(len(played), j)  # prize positions, ascending in each row
        self.prize = np.asarray(tables.prize_values, dtype=np.int64)[self.t]
        cq = tables.rank_of_mask[masks[:, None] ^ (np.int64(1) << self.t)]
        self.start = sol.bases[j - 1][cq]
        self.C = sol.turned[j][pos.q[played]][:, None] + self.prize
        self.S = below.prize_sums[cq]
        self.pattern, self.lead, self.pot = pos.pattern[played], pos.lead[played], pos.pot[played]
        self.sol, self.layer, self.j = sol, layer, j

    def matrices(self, rows) -> np.ndarray:
        """The turn matrices of the positions ``rows``: shape ``(positions, j, j, j)``, prize first."""
        sol, layer = self.sol, self.layer
        cell = (slice(None), None)
        side = (slice(None), slice(None), None, None)
        pattern = self.pattern[rows]
        return turn_entries(layer.child[pattern][cell], layer.outcome[pattern][cell], self.prize[rows][side],
                            self.lead[rows][:, None, None, None], self.pot[rows][:, None, None, None],
                            sol.values[self.j - 1], self.start[rows][side], self.C[rows][side],
                            self.S[rows][side], sol.win, sol.carry).astype(np.float64)


def _settle(sol, j, pos, played, games, game_values, status, methods) -> None:
    """:func:`._exact_engine.settle_failed` for this layer: the same positions, order and counts.

    The positions left NaN are taken by value index; each one's games that
    the simplex certified keep their values, the others go down the
    certifying chain (at the compiled engine's gap, as ``solve_certified``
    does) and are counted by the method that settled them.
    """
    from ._certify import METHODS, certify_game

    methods = METHODS if methods is None else methods
    vals = sol.values[j]
    at = {int(index): k for k, index in enumerate(pos.index)}  # canonical positions by value index
    row_of = np.full(len(pos.q), -1)
    row_of[played] = np.arange(len(played))
    for index in np.flatnonzero(np.isnan(vals)):
        k = at.get(int(index))
        if k is None:
            continue  # a mirror image: settled with its canonical twin
        r = int(row_of[k])
        total = 0.0
        for t in range(j):
            if status[r, t] != STATUS_FAILED:
                total += game_values[r, t]
                continue
            value, _x, _y, method = certify_game(games.matrices(slice(r, r + 1))[0, t], _GAP, methods)
            prize = int(games.prize[r, t])
            _count_settled(sol.stats, method, [j, int(pos.q[k]), int(pos.pattern[k]), int(pos.lead[k]),
                                               int(pos.pot[k]), prize])
            total += value
        vals[pos.index[k]] = total / j
        vals[pos.mirror_index[k]] = -total / j


def _count_settled(stats: SolveStats, method: str, where: list) -> None:
    setattr(stats, method, getattr(stats, method) + 1)
    if len(stats.settled) < _SETTLED_KEPT:
        stats.settled.append(where + [method])
