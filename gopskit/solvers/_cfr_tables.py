"""Reading a CFR solution: the average strategy per information state, and what it bids on each prize.

Re-exported by :mod:`gopskit.solvers.cfr`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..errors import OptionError
from ._cfr_tree import _nth_card_table, decode_code


@dataclasses.dataclass(frozen=True)
class TurnSeen:
    """One finished turn as a player saw it: ``their_bid`` is None when hidden; ``winner`` "me", "them" or None."""

    prize: int
    my_bid: int
    their_bid: int | None
    winner: str | None


@dataclasses.dataclass(frozen=True)
class InfoStateStrategy:
    """The average strategy in one information state, with what the player knew there.

    ``prize`` is None when the player bids without seeing it; ``table_bid``
    is the dealer's face-up bid (Defeat the Dealer, non-dealer only);
    ``reach`` is how often play gets here when both follow the solution;
    ``probabilities`` maps each card of ``hand`` to its chance of being bid.
    """

    player: int
    turn: int
    hand: tuple[int, ...]
    prize: int | None
    table_bid: int | None
    history: tuple[TurnSeen, ...]
    reach: float
    probabilities: dict[int, float]

    def describe(self) -> str:
        """One line for a table, e.g. ``'P1, turn 2, hand 1 3, prize 1 | after 3: 2 vs ?, me won'``."""
        past = "; ".join(f"after {t.prize}: {t.my_bid} vs {t.their_bid if t.their_bid is not None else '?'}, "
                         f"{t.winner + ' won' if t.winner else 'tie'}" for t in self.history)
        seen = f"prize {self.prize}" if self.prize is not None else "prize unseen"
        table = f", dealer bid {self.table_bid}" if self.table_bid is not None else ""
        bids = ", ".join(f"{c}: {p:.2f}" for c, p in self.probabilities.items())
        return (f"P{self.player + 1}, turn {self.turn + 1}, hand {' '.join(map(str, self.hand))}, {seen}{table}"
                f"{' | ' + past if past else ''} -> {bids}")


def strategy_table(solution, player: int | None = None, turn: int | None = None, min_reach: float = 0.0) -> list[InfoStateStrategy]:
    """Every information state's average strategy, most-reached first.

    ``player``/``turn`` filter (None: all); states reached less often than
    ``min_reach`` are left out (many states are never reached in equilibrium).

    >>> from gopskit.games.goofspiel import Goofspiel
    >>> from gopskit.solvers.cfr import solve_cfr
    >>> rows = strategy_table(solve_cfr(Goofspiel(num_cards=3, hidden_bids=True), 200), player=0, turn=0)
    >>> sorted(row.prize for row in rows), round(sum(row.reach for row in rows), 6)
    ([1, 2, 3], 1.0)
    """
    tree, average = solution.tree, solution.average()
    reaches = _full_reaches(solution, average)
    rows = []
    for index, level in enumerate(tree.levels):
        if level.kind != "decision" or (player is not None and level.player != player) or (turn is not None and level.turn != turn):
            continue
        state_reach = level.members @ reaches[index]
        for row, code in enumerate(level.codes):
            if state_reach[row] >= min_reach:
                rows.append(_row(tree, level, int(code), float(state_reach[row]), average[index][row]))
    rows.sort(key=lambda r: (-r.reach, r.player, r.turn, r.hand, r.prize or 0))
    return rows


def _row(tree, level, code, reach, probabilities):
    past, seen, table = decode_code(code, tree.radix, level.turn)
    history = tuple(TurnSeen(prize, own, other or None, {0: None, 1: "me", 2: "them"}[won])
                    for own, other, won, prize in past)
    hand = tuple(c for c in range(1, tree.num_cards + 1) if c not in {t.my_bid for t in history})
    return InfoStateStrategy(level.player, level.turn, hand, seen or None, table or None, history, reach,
                             {c: float(p) for c, p in zip(hand, probabilities)})


def _full_reaches(solution, strategies) -> list[np.ndarray]:
    """Per level, each node's probability under chance and both strategies."""
    from .cfr import _reaches

    return [r.prod(axis=0) for r in _reaches(solution.tree, strategies)]


def bid_given_prize(solution, player: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """How the solution bids on each prize: ``(P[prize - 1, bid - 1], mass[prize - 1])``.

    Counts every turn where ``player`` has a real choice (two cards or
    more), weighted by how often play reaches it when both follow the
    average strategy; ``prize`` is the true prize card of the turn, seen or
    not. Each row of ``P`` sums to 1 (0 where that prize never comes up with
    a choice); ``mass`` is the expected number of such turns per hand.
    """
    if player not in (0, 1):
        raise OptionError(f"player is 0 or 1, not {player!r}")
    tree, average = solution.tree, solution.average()
    reaches = _full_reaches(solution, average)
    nth = _nth_card_table(tree.num_cards)
    table = np.zeros((tree.num_cards, tree.num_cards))
    for index, level in enumerate(tree.levels):
        if level.kind != "decision" or level.player != player:
            continue
        weights = reaches[index][:, None] * average[index][level.infoset]
        bids = nth[level.hands][:, : level.branch]
        np.add.at(table, (np.repeat(level.prizes - 1, level.branch), bids.ravel() - 1), weights.ravel())
    mass = table.sum(axis=1)
    return np.divide(table, mass[:, None], out=np.zeros_like(table), where=mass[:, None] > 0), mass


def low_prize_overbid_share(solution, player: int | None = None) -> float:
    """How often the solution bids a card *above* the prize when the prize is low.

    Precisely: among the turns where the player has a choice and the prize
    card is in the low half (value at most ``num_cards // 2``), weighted by
    how often play reaches them when both follow the average strategy, the
    probability that the bid card is higher than the prize card.
    ``player=None`` averages both seats. A bidder who always matches the
    prize scores 0.

    This is a description of the strategy, not a measure of bluffing: the
    equilibrium of the ordinary game, where bids are shown, overbids low
    prizes nearly as often (lesson 3 compares the two). The part that is due
    to hidden information is the difference between a hidden-information
    game and its open control, not this share on its own.
    """
    seats = (0, 1) if player is None else (player,)
    above = total = 0.0
    for seat in seats:
        probs, mass = bid_given_prize(solution, seat)
        n = probs.shape[0]
        for prize in range(1, n // 2 + 1):
            above += mass[prize - 1] * probs[prize - 1, prize:].sum()
            total += mass[prize - 1]
    return float(above / total) if total else 0.0
