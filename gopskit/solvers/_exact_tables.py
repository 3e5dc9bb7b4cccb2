"""Index tables of the exact solver: hand patterns and prize sets.

**Hand patterns (the relative-order reduction).** Who wins a bid depends only
on which card is higher, so a pair of hands matters only through the order
of their cards. Walk through the distinct card values of both hands from low
to high and write ``A`` for a card only the holder has, ``B`` for one only
the opponent has, ``C`` for a card both have: ``{2, 3}`` against ``{1, 3}``
is ``BAC``. Every pair of hands with the same pattern has the same game tree,
so the solver stores one value per pattern instead of one per pair of hands.
A pattern is kept as an integer: its letters are base-4 digits
(``A=1, B=2, C=3``), the lowest card first, so the empty pattern is 0.

Layer ``j`` (hands of ``j`` cards) holds every pattern with ``j`` holder
cards and ``j`` opponent cards and at most ``max_length`` letters (at most
``num_cards`` distinct values exist). For each pattern the tables give the
pattern left after the holder bids their ``a``-th lowest card and the
opponent their ``b``-th lowest (``child``), who won that bid (``outcome``:
+1, 0 or -1) and the pattern with the hands swapped (``swap``), which has the
negated value.

**Prize sets** are bit masks over the prize values, ranked within each
layer (``rank_of_mask``).

The compiled helpers are numba kernels, but importing this module does not
import numba: each is compiled (or loaded from numba's cache) on its first
call (:func:`_kernel`), so a small solve that builds its tables with the
plain functions (``.py_func``, see :mod:`._small`) starts in a fraction of
the time.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from functools import lru_cache
from math import factorial

import numpy as np

A, B, C = 1, 2, 3
_KERNELS: dict = {}  # name -> plain function of every kernel below
_COMPILING = threading.Lock()


def _kernel(func):
    """``numba.njit(cache=True)`` applied on the first call, not at import (importing numba costs 0.15 s).

    The first call compiles every kernel of this module at once and puts the
    compiled dispatchers in the module's namespace, so kernels calling each
    other see compiled functions. ``.py_func`` is the plain function, as on
    a numba dispatcher.
    """
    _KERNELS[func.__name__] = func

    @functools.wraps(func)
    def first_call(*args):
        _compile_kernels()
        return globals()[func.__name__](*args)

    first_call.py_func = func
    first_call.compiled = False
    return first_call


def _compile_kernels() -> None:
    """Put every kernel's numba dispatcher in the namespace, all in one step (a bot may warm up in a thread)."""
    with _COMPILING:
        if getattr(globals()[next(iter(_KERNELS))], "compiled", None) is not False:
            return  # done by another thread
        from numba import njit

        globals().update({name: njit(cache=True)(func) for name, func in _KERNELS.items()})


@_kernel
def _next_permutation(a):
    """Step ``a`` to its next lexicographic permutation; False after the last."""
    i = len(a) - 2
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = len(a) - 1
    while a[j] <= a[i]:
        j -= 1
    a[i], a[j] = a[j], a[i]
    a[i + 1:] = a[i + 1:][::-1]
    return True


@_kernel
def _encode(digits, length):
    code = 0
    for t in range(length):
        code = code * 4 + digits[t]
    return code


@_kernel
def _decode(code, digits):
    """Write the letters of ``code`` into ``digits``; return their number."""
    length, c = 0, code
    while c > 0:
        length += 1
        c //= 4
    for t in range(length - 1, -1, -1):
        digits[t] = code % 4
        code //= 4
    return length


@_kernel
def _enumerate_codes(singles, doubles, out):
    """Every pattern with ``singles`` A's, ``singles`` B's and ``doubles`` C's."""
    length = 2 * singles + doubles
    a = np.empty(length, dtype=np.int64)
    a[:singles] = A
    a[singles:2 * singles] = B
    a[2 * singles:] = C
    k = 0
    while True:
        out[k] = _encode(a, length)
        k += 1
        if not _next_permutation(a):
            return k


def _pattern_kinds(hand_size: int, max_length: int):
    """``(singles, doubles, how many patterns)`` for each kind of pattern of two ``hand_size``-card hands.

    A pattern with ``d`` cards in common has ``2 * hand_size - d`` letters:
    ``hand_size - d`` A's, as many B's and ``d`` C's, in any order.
    """
    for doubles in range(hand_size + 1):
        singles = hand_size - doubles
        length = 2 * singles + doubles
        if hand_size and length <= max_length:
            yield singles, doubles, factorial(length) // (factorial(doubles) * factorial(singles) ** 2)


def pattern_count(hand_size: int, max_length: int) -> int:
    """How many patterns :func:`pattern_codes` lists, counted without listing them."""
    return 1 if hand_size == 0 else sum(count for _s, _d, count in _pattern_kinds(hand_size, max_length))


def pattern_codes(hand_size: int, max_length: int) -> np.ndarray:
    """Sorted codes of every pattern of two ``hand_size``-card hands in ``max_length`` values."""
    chunks = [np.zeros(1, dtype=np.int64)] if hand_size == 0 else []
    for singles, doubles, count in _pattern_kinds(hand_size, max_length):
        out = np.empty(count, dtype=np.int64)
        _enumerate_codes(singles, doubles, out)
        chunks.append(out)
    return np.sort(np.concatenate(chunks))


@_kernel
def _find(codes, code):
    i = np.searchsorted(codes, code)
    if i < len(codes) and codes[i] == code:
        return i
    return -1


@_kernel
def _card_letters(digits, length, mine, theirs):
    """Write the letter positions of the holder's cards (A, C) into ``mine`` and the opponent's (B, C) into ``theirs``."""
    na = nb = 0
    for t in range(length):
        if digits[t] != B:
            mine[na] = t
            na += 1
        if digits[t] != A:
            theirs[nb] = t
            nb += 1


@_kernel
def _code_after_bids(digits, length, pa, pb, work):
    """The code of the pattern left once the holder bids the card at letter ``pa`` and the opponent the one at ``pb``.

    A letter bid by its only owner goes; a C bid by one side becomes the
    other side's letter.
    """
    m = 0
    for t in range(length):
        d = digits[t]
        if t == pa:
            d = 0 if (t == pb or d == A) else B
        elif t == pb:
            d = 0 if d == B else A
        if d != 0:
            work[m] = d
            m += 1
    return _encode(work, m)


@_kernel
def _mirror_code(digits, length, work):
    """The code of the pattern in ``digits`` with the hands swapped (A and B exchanged)."""
    for t in range(length):
        work[t] = digits[t] if digits[t] == C else 3 - digits[t]
    return _encode(work, length)


@_kernel
def mirror_patterns(codes):
    """``swap[p]``: the index in ``codes`` of pattern ``p`` with the hands swapped (a layer's ``swap`` alone)."""
    swap = np.empty(len(codes), dtype=np.int32)
    digits = np.zeros(64, dtype=np.int64)
    work = np.zeros(64, dtype=np.int64)
    for p in range(len(codes)):
        swap[p] = _find(codes, _mirror_code(digits, _decode(codes[p], digits), work))
    return swap


@_kernel
def _child_tables(codes, child_codes, hand_size):
    """``child[p, a, b]``, ``outcome[p, a, b]`` and ``swap[p]`` for one layer."""
    n, j = len(codes), hand_size
    child = np.empty((n, j, j), dtype=np.int32)
    outcome = np.empty((n, j, j), dtype=np.int8)
    swap = np.empty(n, dtype=np.int32)
    digits = np.zeros(64, dtype=np.int64)
    work = np.zeros(64, dtype=np.int64)
    mine = np.zeros(j, dtype=np.int64)
    theirs = np.zeros(j, dtype=np.int64)
    for p in range(n):
        length = _decode(codes[p], digits)
        _card_letters(digits, length, mine, theirs)
        swap[p] = _find(codes, _mirror_code(digits, length, work))
        for a in range(j):
            for b in range(j):
                pa, pb = mine[a], theirs[b]
                outcome[p, a, b] = 1 if pa > pb else (-1 if pa < pb else 0)
                child[p, a, b] = _find(child_codes, _code_after_bids(digits, length, pa, pb, work))
    return child, outcome, swap


@_kernel
def _child_codes(codes, hand_size):
    """The code of every pattern one bid each away from ``codes`` (with repeats)."""
    n, j = len(codes), hand_size
    out = np.empty(n * j * j, dtype=np.int64)
    digits = np.zeros(64, dtype=np.int64)
    work = np.zeros(64, dtype=np.int64)
    mine = np.zeros(j, dtype=np.int64)
    theirs = np.zeros(j, dtype=np.int64)
    k = 0
    for p in range(n):
        length = _decode(codes[p], digits)
        _card_letters(digits, length, mine, theirs)
        for a in range(j):
            for b in range(j):
                out[k] = _code_after_bids(digits, length, mine[a], theirs[b], work)
                k += 1
    return out


def reachable_codes(hand, opp_hand) -> list[np.ndarray]:
    """Per hand size, the sorted codes of every pattern the game can reach from these two hands or their mirror.

    An endgame only ever meets sub-hands of the hands it starts from, so its
    tables need only these patterns: far fewer than every pattern of the
    same sizes in as many values (from two 9-card hands of a 13-card deal,
    about 2 % of them). Adding the mirror keeps the set closed under
    swapping the hands, as the mirror step of the solver needs.
    """
    top = len(hand)
    codes = np.unique(np.array([hand_pattern_code(hand, opp_hand), hand_pattern_code(opp_hand, hand)], dtype=np.int64))
    layers = [codes]
    for size in range(top, 0, -1):
        codes = np.unique(_child_codes(codes, size))
        layers.append(codes)
    return layers[::-1]


@dataclasses.dataclass(frozen=True)
class Layer:
    """Index tables for hands of ``hand_size`` cards."""

    hand_size: int
    codes: np.ndarray
    child: np.ndarray
    outcome: np.ndarray
    swap: np.ndarray
    masks: np.ndarray
    prize_sums: np.ndarray

    @property
    def num_patterns(self) -> int:
        return len(self.codes)

    @property
    def num_prize_sets(self) -> int:
        return len(self.masks)


@dataclasses.dataclass(frozen=True)
class Tables:
    """Every layer's tables for prize values ``prize_values`` and hands in ``max_length`` values."""

    prize_values: tuple[int, ...]
    max_length: int
    layers: tuple[Layer, ...]
    rank_of_mask: np.ndarray

    def pattern_index(self, hand, opp_hand) -> int:
        """Index (in its layer) of the pattern of two sorted equal-size hands."""
        layer = self.layers[len(hand)]
        code = hand_pattern_code(hand, opp_hand)
        index = int(np.searchsorted(layer.codes, code))
        if index >= layer.num_patterns or layer.codes[index] != code:
            raise KeyError(f"no pattern for hands {hand} and {opp_hand}")
        return index

    def prize_rank(self, prize_indices) -> int:
        """Rank (in its layer) of a set of prize positions in ``prize_values``."""
        return int(self.rank_of_mask[sum(1 << i for i in prize_indices)])


def hand_pattern_code(hand, opp_hand) -> int:
    """The pattern code of two hands of card values.

    >>> hand_pattern_code([2, 3], [1, 3]) == int("213", 4)  # B A C
    True
    """
    mine, theirs = set(hand), set(opp_hand)
    code = 0
    for card in sorted(mine | theirs):
        code = code * 4 + (C if card in mine and card in theirs else A if card in mine else B)
    return code


def _prize_sets(num_prizes: int, values: np.ndarray):
    masks = np.arange(1 << num_prizes, dtype=np.int64)
    sizes = np.array([bin(int(m)).count("1") for m in masks])
    rank_of_mask = np.zeros(1 << num_prizes, dtype=np.int64)
    by_size = []
    for size in range(num_prizes + 1):
        chosen = masks[sizes == size]
        rank_of_mask[chosen] = np.arange(len(chosen))
        bits = (chosen[:, None] >> np.arange(num_prizes)) & 1
        by_size.append((chosen, (bits * values).sum(axis=1).astype(np.int64)))
    return rank_of_mask, by_size


def build_tables(prize_values, max_length: int, top: int | None = None, lowest: int = 0,
                 hands: tuple | None = None) -> Tables:
    """Tables for layers 0..``top`` (default: one card per prize value).

    ``lowest`` > 0 builds only the layers from ``lowest`` up (the others are
    None, and layer ``lowest`` has no child tables): enough to play the
    top of a big deck from stored values without the cost of the whole
    game's tables. ``hands`` (two card lists, one card per prize value)
    keeps only the patterns that can be reached from them
    (:func:`reachable_codes`): the tables of one endgame.
    """
    values = np.asarray(prize_values, dtype=np.int64)
    top = len(values) if top is None else top
    reachable = reachable_codes(*hands) if hands is not None else None
    rank_of_mask, by_size = _prize_sets(len(values), values)
    layers = []
    previous = np.zeros(1, dtype=np.int64)
    for size in range(top + 1):
        if size < lowest:
            layers.append(None)
            continue
        codes = pattern_codes(size, max_length) if reachable is None else reachable[size]
        if size == 0:
            child = np.zeros((1, 0, 0), dtype=np.int32)
            outcome = np.zeros((1, 0, 0), dtype=np.int8)
            swap = np.zeros(1, dtype=np.int32)
        elif size == lowest:
            child = outcome = swap = None
        else:
            child, outcome, swap = _child_tables(codes, previous, size)
        masks, sums = by_size[size]
        layers.append(Layer(size, codes, child, outcome, swap, masks, sums))
        previous = codes
    return Tables(tuple(int(v) for v in values), max_length, tuple(layers), rank_of_mask)


@lru_cache(maxsize=4)
def full_game_tables(num_cards: int, lowest: int = 0) -> Tables:
    """The tables of the whole ``num_cards``-card game (prizes 1..num_cards), from layer ``lowest`` up."""
    return build_tables(range(1, num_cards + 1), num_cards, lowest=lowest)
