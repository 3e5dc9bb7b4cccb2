"""Who sits with whom: random tables, a round robin, and seats left for bots.

Plain functions on lists of player ids. A table is a list of seats in seat
order; ``None`` marks a seat a bot fills (an odd number of students, or
fewer students than the game needs). No table is ever all bots.

* :func:`random_tables` shuffles the waiting students into tables.
* :func:`round_robin` is the circle method (Berger tables): with ``n``
  students every two of them meet exactly once, in ``n - 1`` rounds (``n``
  rounds when ``n`` is odd: each round one student meets the bot instead).
  Seats are balanced: each student sits first in half the games, give or take one. For a
  game of more than two players, each round cuts the rotated circle into
  groups of that size: the groups change every round, though not every set
  of players meets.

>>> round_robin(["ann", "bob", "cy"], 2)
[[['ann', None], ['bob', 'cy']], [['cy', 'ann'], [None, 'bob']], [['ann', 'bob'], ['cy', None]]]
>>> random_tables(["ann", "bob", "cy"], 2, seed=0)
[['cy', 'ann'], ['bob', None]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from ..errors import OptionError

P = TypeVar("P")
PAIRINGS = ("random", "round-robin", "challenge")


def _check_size(size: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise OptionError(f"a table seats 2 or more players, not {size!r}")


def random_tables(players: Sequence[P], size: int, seed=None) -> list[list[P | None]]:
    """Shuffle ``players`` into tables of ``size`` seats; the last table's empty seats are ``None``."""
    _check_size(size)
    rng = np.random.default_rng(seed)
    order = [players[i] for i in rng.permutation(len(players))]
    return chunk(order, size)


def chunk(order: Sequence[P | None], size: int) -> list[list[P | None]]:
    """Cut ``order`` into tables of ``size`` seats, padding the last with ``None``; drop all-bot tables.

    >>> chunk(["a", "b", None, "c", None], 2)
    [['a', 'b'], [None, 'c']]
    """
    _check_size(size)
    padded = list(order) + [None] * (-len(order) % size)
    tables = [padded[i:i + size] for i in range(0, len(padded), size)]
    return [t for t in tables if any(p is not None for p in t)]


def round_robin(players: Sequence[P], size: int = 2) -> list[list[list[P | None]]]:
    """Rounds of tables in which every two players meet once (for ``size`` 2); see the module docstring."""
    _check_size(size)
    circle: list[P | None] = list(players)
    if not circle:
        return []
    if len(circle) % 2 or len(circle) < size:
        circle.append(None)
    count = len(circle)
    rounds = []
    for r in range(count - 1):
        order = _circle_order(circle, r)
        if size == 2:
            pairs = [[order[i], order[count - 1 - i]] for i in range(count // 2)]
            if r % 2:  # the player who never moves alternates seats; the others alternate by moving round
                pairs[0].reverse()
            rounds.append([t for t in pairs if any(x is not None for x in t)])
        else:
            rounds.append(chunk(order, size))
    return rounds


def _circle_order(circle: list, r: int) -> list:
    """Round ``r`` of the circle method: the first player stays put, the others turn ``r`` places."""
    rest = circle[1:]
    shift = r % len(rest)
    return [circle[0]] + rest[len(rest) - shift:] + rest[:len(rest) - shift]


def meetings(rounds) -> dict[frozenset, int]:
    """How often each pair of players sat at one table (bots left out): for checking schedules.

    >>> meetings(round_robin(["a", "b", "c", "d"]))[frozenset({"a", "d"})]
    1
    """
    counts: dict[frozenset, int] = {}
    for tables in rounds:
        for table in tables:
            people = [p for p in table if p is not None]
            for i, a in enumerate(people):
                for b in people[i + 1:]:
                    key = frozenset((a, b))
                    counts[key] = counts.get(key, 0) + 1
    return counts


__all__ = ["PAIRINGS", "chunk", "meetings", "random_tables", "round_robin"]
