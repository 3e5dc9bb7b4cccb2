"""The turns a rounded deep layer cannot settle, with their exact mixes: shipped for the 13-card game's third turn.

The 13-card book plays the third turn from 10-card values rounded to 0.0001
points, and :mod:`gopskit.solvers.certified` proves the exact bid from the
rounded game. For a few turn games it cannot: some bid is within a rounding
error of the best, so the rounded game does not tell whether it belongs to
the equilibrium. Without help the bot then solves the turn and the rest of
the hand (about 6 s). For the turns the bot can actually meet, that is
done once, when the package data is made: :func:`save_hard_turns`
enumerates every turn game of the rounded turn that the bot reaches by
bidding on the book's supports (the other side and the prizes free),
tries certified sampling on each, and stores the exact mix of those it
cannot certify, taken from the complete solve. :func:`attach_hard_turns`
hands them to the book, and the bot draws its bid from the stored mix.

A turn game is keyed by its prize set, pattern and turned prize, so one
entry serves every position with the same shape. The mix is stored per run
of interchangeable cards (:func:`gopskit.solvers.certified.interchangeable`),
as float64 from the complete solution: the bot's bid there is the complete
solution's own.

>>> from gopskit.solvers import solve_goofspiel
>>> from gopskit.solvers.opening import save_opening, save_deep_layer, load_opening, with_deep_layer
>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> full = solve_goofspiel(6)
>>> save_opening(full, os.path.join(folder, "book.npz"), depth=2)
>>> _ = save_deep_layer(full, os.path.join(folder, "deep.npz"), 3, step=0.5)  # very coarse: many hard turns
>>> book = with_deep_layer(load_opening(os.path.join(folder, "book.npz")), os.path.join(folder, "deep.npz"))
>>> meta = save_hard_turns(book, full, os.path.join(folder, "hard.npz"), processes=1)
>>> hard = attach_hard_turns(book, os.path.join(folder, "hard.npz"))
>>> 0 < meta["hard"] == len(hard) < meta["reachable"]
True
"""

from __future__ import annotations

import json
import multiprocessing
import os

import numpy as np

from .certified import grouped_box, interchangeable
from .exact import GoofspielSolution
from .opening import OpeningBookError, turn_radius
from .storage import write_npz

FORMAT = "gopskit-goofspiel-hard-turns"
FORMAT_VERSION = 1
_CHUNK = 4000  # turn games per task when several processes look for hard turns


class HardTurns:
    """The stored exact mixes of one solution's hard turns: ``group_chances(solution, ...)`` looks one up."""

    def __init__(self, keys: np.ndarray, counts: np.ndarray, chances: np.ndarray, positions: np.ndarray, meta: dict):
        self.keys, self.meta = keys, meta
        self._starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
        self._chances, self._positions = chances, positions

    def __len__(self) -> int:
        return len(self.keys)

    def position(self, k: int) -> tuple:
        """``(hand, opp_hand, prizes, prize)`` of the ``k``-th stored turn: one position of its shape."""
        *masks, prize = (int(v) for v in self._positions[k])
        return (*(tuple(c for c in range(1, 64) if mask >> c & 1) for mask in masks), prize)

    def stored_chances(self, k: int) -> np.ndarray:
        """The ``k``-th stored turn's exact chance of each run of interchangeable cards."""
        return self._chances[self._starts[k]:self._starts[k + 1]]

    def group_chances(self, solution: GoofspielSolution, hand, opp_hand, prizes, prize) -> np.ndarray | None:
        """The exact chance of each run of interchangeable cards of sorted ``hand`` (None if this turn is not stored)."""
        key = turn_key(solution, hand, opp_hand, prizes, prize)
        at = int(np.searchsorted(self.keys, key))
        if at == len(self.keys) or self.keys[at] != key:
            return None
        chances = self.stored_chances(at)
        if len(chances) != len(interchangeable(hand, opp_hand)):
            raise OpeningBookError("a stored hard turn does not match its position: the file is damaged")
        return chances


def turn_key(solution: GoofspielSolution, hand, opp_hand, prizes, prize) -> int:
    """One number for a turn game's shape in ``solution``: its prize set, the hands' pattern and the turned prize."""
    solution._prize_position(prize, {solution._prize_index[int(c)] for c in prizes})  # a clear error if it is not there
    return _shape_key(solution, hand, opp_hand, prizes) + solution._prize_index[int(prize)]


def _shape_key(solution: GoofspielSolution, hand, opp_hand, prizes) -> int:
    _hand, _opp, j, q, pattern, _lead, _pot = solution._locate(hand, opp_hand, prizes, 0, 0)
    return (q * solution.engine.tables.layers[j].num_patterns + pattern) * len(solution.engine.tables.prize_values)


def reachable_turns(book: GoofspielSolution, hand_size: int) -> dict[int, tuple]:
    """Every turn game with ``hand_size`` cards a bot meets when it bids only on ``book``'s supports before it.

    The other side's bids and the prizes are free. Returns ``{turn_key:
    (hand, opp_hand, prizes, prize)}``, one position of each shape.
    """
    full = tuple(range(1, book.num_cards + 1))
    found: dict[int, tuple] = {}

    def walk(hand, opp, prizes):
        if len(hand) == hand_size:
            base = _shape_key(book, hand, opp, prizes)
            for prize in prizes:
                found.setdefault(base + book._prize_index[prize], (hand, opp, prizes, prize))
            return
        for prize in prizes:
            rest = tuple(c for c in prizes if c != prize)
            mine = [card for card, p in book.policy(hand, opp, prizes, prize).items() if p > 0]
            for card in mine:
                for theirs in opp:
                    walk(tuple(c for c in hand if c != card), tuple(c for c in opp if c != theirs), rest)

    walk(full, full, full)
    return found


_SEARCHED: tuple = ()  # (book, radius) while find_hard_turns runs: forked workers inherit it instead of a pickled copy


def _uncertified(items) -> list[int]:
    book, radius = _SEARCHED
    hard = []
    for key, (hand, opp, prizes, prize) in items:
        box = grouped_box(book.turn_matrix(hand, opp, prizes, prize), radius,
                          interchangeable(hand, opp), interchangeable(opp, hand))
        if box is None:
            hard.append(key)
    return hard


def find_hard_turns(book: GoofspielSolution, positions: dict[int, tuple], processes: int | None = None) -> list[int]:
    """The keys of ``positions`` whose turn game certified sampling cannot settle from ``book``'s rounded values."""
    global _SEARCHED
    hand_size = len(next(iter(positions.values()))[0]) if positions else 0
    items = sorted(positions.items())
    chunks = [items[i:i + _CHUNK] for i in range(0, len(items), _CHUNK)]
    processes = processes or os.cpu_count() or 1
    _SEARCHED = (book, turn_radius(book, hand_size))
    try:
        if processes == 1 or len(chunks) <= 1:
            return sorted(key for chunk in chunks for key in _uncertified(chunk))
        with multiprocessing.get_context("fork").Pool(processes) as pool:  # the book's arrays are shared, not copied
            return sorted(key for found in pool.imap_unordered(_uncertified, chunks) for key in found)
    finally:
        _SEARCHED = ()


def save_hard_turns(book: GoofspielSolution, full: GoofspielSolution, path, command: str = "",
                    processes: int | None = None) -> dict:
    """Write the exact mixes of the hard turns of ``book``'s rounded turn, taken from the complete solution ``full``.

    ``book`` plays its last turn from a rounded deep layer
    (:func:`gopskit.solvers.opening.with_deep_layer`). Returns the file's
    header, which counts the reachable turn games and the hard ones.
    """
    deep = (getattr(book, "provenance", None) or {}).get("deep")
    if not deep:
        raise OpeningBookError("hard turns belong to a book with a rounded deep layer (with_deep_layer)")
    hand_size = int(deep["layer"]) + 1
    positions = reachable_turns(book, hand_size)
    hard = find_hard_turns(book, positions, processes)
    counts, chances, where = [], [], []
    for key in hard:
        hand, opp, prizes, prize = positions[key]
        policy = full.policy(hand, opp, prizes, prize)
        runs = interchangeable(hand, opp)
        counts.append(len(runs))
        chances.extend(sum(policy[hand[i]] for i in run) for run in runs)
        where.append([sum(1 << card for card in cards) for cards in (hand, opp, prizes)] + [prize])
    meta = {"format": FORMAT, "version": FORMAT_VERSION, **book.options(), "hand_size": hand_size,
            "deep_digest": deep.get("digest"), "reachable": len(positions), "hard": len(hard),
            "radius": turn_radius(book, hand_size), "command": command}
    write_npz(path, meta, keys=np.asarray(hard, dtype=np.int64), counts=np.asarray(counts, dtype=np.uint8),
              chances=np.asarray(chances, dtype=np.float64), positions=np.asarray(where, dtype=np.int64).reshape(-1, 4))
    return meta


def load_hard_turns(path, book: GoofspielSolution) -> HardTurns:
    """Read a :func:`save_hard_turns` file made for ``book`` (its options and deep layer), checking it whole."""
    deep = (getattr(book, "provenance", None) or {}).get("deep") or {}
    try:
        with np.load(path, allow_pickle=False) as archive:
            meta = json.loads(str(archive["meta"]))
            keys, counts, chances, positions = (archive[name] for name in ("keys", "counts", "chances", "positions"))
    except (OSError, ValueError, KeyError) as exc:
        raise OpeningBookError(f"cannot read hard turns {path}: {exc}") from None
    if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
        raise OpeningBookError(f"{path} is not a gopskit hard-turns file of version {FORMAT_VERSION}")
    if (meta.get("num_cards"), meta.get("objective"), meta.get("ties"), meta.get("deep_digest")) != (
            book.num_cards, book.objective, book.ties, deep.get("digest")):
        raise OpeningBookError(f"{path} was made for another book or deep layer")
    starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
    sums = np.add.reduceat(chances, starts[:-1]) if len(keys) else np.zeros(0)
    if (keys.dtype != np.int64 or len(counts) != len(keys) != positions.shape[0] or starts[-1] != len(chances)
            or (np.diff(keys) <= 0).any()
            or (counts == 0).any() or (chances < 0).any() or (np.abs(sums - 1) > 1e-9).any()):
        raise OpeningBookError(f"{path} is damaged: its keys, counts and chances do not fit together")
    return HardTurns(keys, counts, chances, positions, meta)


def attach_hard_turns(book: GoofspielSolution, path) -> HardTurns:
    """Load ``path``'s hard turns for ``book`` and attach them (``book.hard_turns``), where the bot looks."""
    book.hard_turns = load_hard_turns(path, book)
    return book.hard_turns


__all__ = ["HardTurns", "attach_hard_turns", "find_hard_turns", "load_hard_turns", "reachable_turns",
           "save_hard_turns", "turn_key"]
