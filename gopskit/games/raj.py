"""Raj (Alex Randolph's *Hol's der Geier*), Goofspiel's best-known published descendant.

Rules in brief (``docs/rules/raj.md`` has them in full, with each reading of a
gap): 2 to 5 players each hold bid cards 1..15. Fifteen prize cards, worth
+1..+10 and -1..-5, are shuffled and turned one at a time; everybody bids one
card face down and the bids are shown together. A positive prize goes to the
highest bid, a negative one to the lowest; bids that anyone matched cancel, so
the highest (or lowest) bid nobody matched decides. When every bid is
matched the prize stays on the table and the next prize joins it. Bid cards
are spent. After fifteen turns the most points wins.

Options (the names of the record's ``"options"``):

=================  ==========  ===============================================
option             default     meaning
=================  ==========  ===============================================
``players``        3           2 to 5
``prize_order``    "shuffled"  "shuffled", "ascending", "descending" or a list
                               of the 15 prizes in the order they are turned
``carry_decides``  "newest"    with carried prizes on offer, who takes them:
                               "newest" (the sign of the newly turned prize)
                               or "total" (the sign of the offer's total)
``rounds``         1           games played and added up (a match when > 1)
=================  ==========  ===============================================

>>> rules = Raj(players=2, prize_order="descending")
>>> state = rules.new_game()
>>> state.apply([15, 3]).explain()
'Player 1 takes the +10 with the highest bid, 15 (Player 2 bid 3).'
>>> state.scores()
[10, 0]
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from ..cards import and_list, in_sentence
from ..errors import IllegalMoveError, OptionError, RecordError
from .base import GameState, Observation, Rules, show

PRIZES = tuple(range(-5, 0)) + tuple(range(1, 11))
BIDS = tuple(range(1, 16))
PRIZE_ORDERS = ("shuffled", "ascending", "descending")
CARRY_RULES = ("newest", "total")


# ---------------------------------------------------------------- options --
@dataclasses.dataclass(frozen=True)
class Raj(Rules):
    """The rules of one game of Raj (see the module docstring for options).

    >>> Raj(players=4).num_players
    4
    """

    name: ClassVar[str] = "raj"

    players: int = 3
    prize_order: str | tuple = "shuffled"
    carry_decides: str = "newest"
    rounds: int = 1

    def __post_init__(self):
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, (int, np.integer)) or not 1 <= self.rounds <= 20:
            raise OptionError(f"option rounds must be a whole number from 1 to 20, not {self.rounds!r}")
        if isinstance(self.players, bool) or not isinstance(self.players, (int, np.integer)) or not 2 <= self.players <= 5:
            raise OptionError(f"option players must be a whole number from 2 to 5, not {self.players!r}")
        if not isinstance(self.carry_decides, str) or self.carry_decides not in CARRY_RULES:
            raise OptionError(f"unknown carry rule {show(self.carry_decides)}; allowed: {', '.join(CARRY_RULES)}")
        order = self.prize_order
        if isinstance(order, str):
            if order not in PRIZE_ORDERS:
                raise OptionError(f"unknown prize order {order!r}; allowed: {', '.join(PRIZE_ORDERS)}, or a list of the 15 prizes")
            return
        if isinstance(order, list):
            order = tuple(order)
            object.__setattr__(self, "prize_order", order)
        if not isinstance(order, tuple) or any(isinstance(c, bool) or not isinstance(c, int) for c in order) \
                or sorted(order) != list(PRIZES):
            raise OptionError(f"an explicit prize order lists each prize -5..-1 and 1..10 exactly once, not {order!r}")

    def prize_deck(self, rng: np.random.Generator) -> list[int]:
        """The fifteen prizes in the order they will be turned."""
        if isinstance(self.prize_order, tuple):
            return list(self.prize_order)
        if self.prize_order == "ascending":
            return list(PRIZES)
        if self.prize_order == "descending":
            return list(reversed(PRIZES))
        return [int(c) for c in rng.permutation(np.array(PRIZES))]

    def highest_takes(self, offer: Sequence[int]) -> bool:
        """True when the highest bid takes ``offer`` (the newest prize is last).

        >>> Raj().highest_takes([4, -2]), Raj(carry_decides="total").highest_takes([4, -2])
        (False, True)
        """
        if self.carry_decides == "total" and sum(offer) != 0:
            return sum(offer) > 0
        return offer[-1] > 0

    def new_hand(self, hand_number, rng):
        return RajState(self, self.prize_deck(rng))

    def replay_hand(self, hand, hand_number):
        return _replay(self, hand, hand_number)

    # -- matches -----------------------------------------------------------
    def is_match(self) -> bool:
        return self.rounds > 1

    def match_over(self, totals, hands_played):
        return hands_played >= self.rounds


# ---------------------------------------------------------------- events ---
def prize_label(value: int) -> str:
    """Write a prize with its sign: ``prize_label(7) == '+7'``, ``prize_label(-3) == '-3'``."""
    return f"{value:+d}"


@dataclasses.dataclass(frozen=True)
class RajTurn:
    """What happened in one turn: every bid was shown, then the offer went somewhere.

    ``offer`` is every prize the turn was for (carried ones first, the newly
    turned ``prize`` last); ``highest`` says whether the highest bid was to
    take it; ``cancelled`` are the players whose bid someone matched;
    ``outcome`` is ``"won"``, ``"carried"`` (every bid cancelled, the offer
    stays) or ``"lost"`` (every bid cancelled on the last turn).
    """

    turn: int
    prize: int
    offer: tuple[int, ...]
    bids: tuple[int, ...]
    highest: bool
    winner: int | None
    points: int
    outcome: str
    cancelled: tuple[int, ...] = ()

    def explain(self, names: Sequence[str] | None = None) -> str:
        """One sentence for a status line, e.g. ``'Every bid was matched: the +3 carries over.'``."""
        names = list(names) if names else [f"Player {p + 1}" for p in range(len(self.bids))]
        offer = and_list(map(prize_label, self.offer))
        if len(self.offer) > 1:
            offer += f" (worth {prize_label(self.points)})"
        if self.outcome == "carried":
            return f"Every bid was matched: the {offer} carries over to the next turn."
        if self.outcome == "lost":
            return f"Every bid was matched on the last turn: the {offer} goes to nobody."
        way = "highest" if self.highest else "lowest"
        left = " left" if self.cancelled else ""
        gone = sorted({self.bids[p] for p in self.cancelled})
        counts = [sum(self.bids[p] == bid for p in self.cancelled) for bid in gone]
        pairs = [f"{_COUNT_WORDS[n]} {bid}s" for bid, n in zip(gone, counts)]
        notes = [f"{' and '.join(pairs)} cancelled"] if gone else []
        others = [f"{_lower(names[p])} bid {b}" for p, b in enumerate(self.bids) if p != self.winner and p not in self.cancelled]
        if others:  # the other bids as every game lists them: with commas, after a semicolon
            notes.append(", ".join(others))
        tail = f" ({'; '.join(notes)})" if notes else ""
        return f"{names[self.winner]} takes the {offer} with the {way} bid{left}, {self.bids[self.winner]}{tail}."


_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _lower(name: str) -> str:
    """A name inside a sentence (:func:`gopskit.cards.in_sentence`): ``Player 2`` keeps its capital."""
    return in_sentence(name)


def resolve_bids(bids: Sequence[int], highest: bool) -> tuple[int | None, tuple[int, ...]]:
    """Decide who takes the offer: return ``(winner or None, cancelled players)``.

    1. Every bid that another player matched is cancelled.
    2. Of the bids left, the highest takes the offer (the lowest, when
       ``highest`` is false: a negative offer).
    3. If no bid is left, nobody takes it (``None``).

    >>> resolve_bids([9, 9, 4], highest=True)
    (2, (0, 1))
    >>> resolve_bids([6, 6], highest=False)
    (None, (0, 1))
    """
    counts = Counter(bids)
    cancelled = tuple(p for p, b in enumerate(bids) if counts[b] > 1)
    alone = [p for p, b in enumerate(bids) if counts[b] == 1]
    if not alone:
        return None, cancelled
    pick = max if highest else min
    return pick(alone, key=lambda p: bids[p]), cancelled


# ----------------------------------------------------------- observation ---
@dataclasses.dataclass(frozen=True, kw_only=True)
class RajObservation(Observation):
    """What one Raj player may know now (every bid is shown, so nearly everything).

    * ``hand``: your bid cards; ``hands``: everybody's cards left (public,
      since every bid is shown once played);
    * ``prize``: the prize just turned (``None`` once the game is over);
      ``offer``: every prize this bid is for, carried ones first;
      ``highest``: True when the highest bid will take the offer, False
      when the lowest will (a negative offer);
    * ``unseen_prizes``: prizes still in the pile, sorted (the order is
      hidden when shuffled); ``prize_order_known`` says when it is not;
    * ``history``: every past turn (:class:`RajTurn`); ``won`` and
      ``scores``: each player's prizes and points so far.
    """

    turn: int
    hand: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    prize: int | None
    offer: tuple[int, ...]
    highest: bool | None
    unseen_prizes: tuple[int, ...]
    prize_order_known: bool
    history: tuple[RajTurn, ...]
    won: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]


# ----------------------------------------------------------------- state ---
class RajState(GameState):
    """One game of Raj. Build it with :meth:`Raj.new_game`."""

    def __init__(self, rules: Raj, deck: Sequence[int]):
        self.rules = rules
        self.deck = list(deck)
        self.hands = [set(BIDS) for _ in range(rules.players)]
        self.won: list[list[int]] = [[] for _ in range(rules.players)]
        self.carried: list[int] = []
        self.lost: list[int] = []
        self.bids: list[tuple[int, ...]] = []
        self.events: list[RajTurn] = []

    # -- protocol ----------------------------------------------------------
    @property
    def turn(self) -> int:
        """Turns completed so far."""
        return len(self.bids)

    @property
    def prize(self) -> int | None:
        """The prize turned for the current turn (``None`` once the game is over)."""
        return None if self.is_terminal() else self.deck[self.turn]

    @property
    def offer(self) -> tuple[int, ...]:
        """Every prize the current bid is for, carried ones first."""
        return () if self.is_terminal() else tuple(self.carried) + (self.prize,)

    def is_terminal(self):
        return self.turn >= len(PRIZES)

    def to_move(self):
        return () if self.is_terminal() else tuple(range(self.num_players))

    def legal_moves(self, player):
        player = self.check_player(player)
        return sorted(self.hands[player]) if player in self.to_move() else []

    def _apply(self, joint):
        bids = tuple(joint[p] for p in range(self.num_players))
        offer = self.offer
        highest = self.rules.highest_takes(offer)
        winner, cancelled = resolve_bids(bids, highest)
        last = self.turn == len(PRIZES) - 1
        outcome = "won" if winner is not None else ("lost" if last else "carried")
        event = RajTurn(self.turn, self.prize, offer, bids, highest, winner, sum(offer), outcome, cancelled)
        for player, bid in enumerate(bids):
            self.hands[player].remove(bid)
        self.carried = list(offer) if outcome == "carried" else []
        if outcome == "won":
            self.won[winner].extend(offer)
        elif outcome == "lost":
            self.lost.extend(offer)
        self.bids.append(bids)
        self.events.append(event)
        return event

    def scores(self):
        return [sum(pile) for pile in self.won]

    # -- observation -------------------------------------------------------
    def observation(self, player):
        player = self.check_player(player)
        known = self.rules.prize_order != "shuffled"
        pile = self.deck[self.turn + (0 if self.is_terminal() else 1):]
        return RajObservation(
            game=self.rules.name, player=player, num_players=self.num_players,
            legal_moves=tuple(self.legal_moves(player)), turn=self.turn,
            hand=tuple(sorted(self.hands[player])), hands=tuple(tuple(sorted(h)) for h in self.hands),
            prize=self.prize, offer=self.offer,
            highest=None if self.is_terminal() else self.rules.highest_takes(self.offer),
            unseen_prizes=tuple(pile if known else sorted(pile)), prize_order_known=known,
            history=tuple(self.events), won=tuple(tuple(w) for w in self.won), scores=tuple(self.scores()),
        )

    # -- records -----------------------------------------------------------
    def record(self):
        shown = self.turn + (0 if self.is_terminal() else 1)
        return {
            "game": self.rules.name,
            "options": self.rules.options(),
            "prizes": list(self.deck[:shown]),
            "bids": [list(b) for b in self.bids],
        }


# ---------------------------------------------------------------- replay ---
def _replay(rules: Raj, hand: Mapping, hand_number: int = 0) -> RajState:
    try:
        return _replay_round(rules, hand)
    except RecordError as exc:
        if not rules.is_match():
            raise
        message = str(exc).split(": ", 1)[1] if exc.turn is not None else str(exc)
        raise RecordError(f"{message} (round {hand_number + 1})", turn=exc.turn) from None


def _replay_round(rules: Raj, hand: Mapping) -> RajState:
    prizes, bids = hand.get("prizes"), hand.get("bids")
    if not isinstance(prizes, list) or not isinstance(bids, list):
        raise RecordError("a Raj record needs lists 'prizes' and 'bids'")
    for t, card in enumerate(prizes, 1):
        if isinstance(card, bool) or not isinstance(card, int) or card not in PRIZES:
            raise RecordError(f"prize {card!r} is not a Raj prize (-5..-1 or 1..10)", turn=t)
        if card in prizes[: t - 1]:
            raise RecordError(f"prize {card} was already turned earlier", turn=t)
    if len(bids) > len(PRIZES):
        raise RecordError(f"the game was over after {len(PRIZES)} turns (one per prize); the bids listed from "
                          "here on are extra", turn=len(PRIZES) + 1)
    if not len(bids) <= len(prizes) <= len(bids) + 1:
        raise RecordError(f"{len(prizes)} prizes but {len(bids)} turns of bids; each turn needs its prize, "
                          "and the prize of the next turn is shown when the game is not over")
    fixed = rules.prize_deck(np.random.default_rng(0)) if rules.prize_order != "shuffled" else None
    if fixed is not None and prizes != fixed[: len(prizes)]:
        t = next(i for i, (a, b) in enumerate(zip(prizes, fixed), 1) if a != b)
        raise RecordError(f"prize {prizes[t - 1]} breaks the fixed prize order, which turns {fixed[t - 1]} here", turn=t)
    deck = fixed or list(prizes) + sorted(set(PRIZES) - set(prizes))
    state = RajState(rules, deck)
    for t, turn_bids in enumerate(bids, 1):
        if not isinstance(turn_bids, list) or len(turn_bids) != rules.players:
            raise RecordError(f"expected a list of {rules.players} bids, one per player, got {show(turn_bids)}", turn=t)
        try:
            state.apply(turn_bids)
        except IllegalMoveError as exc:
            raise RecordError(str(exc), turn=t) from None
    return state
