"""Divide and Conquer (Claude Soucie): open hands, simultaneous tricks, small cards that divide.

Rules in brief (``docs/rules/divide-and-conquer.md`` has them in full, with
each reading of a gap): ten cards 2, 3, ..., 10 and a Queen (worth 12) are
shuffled and dealt five to each of two players; both hands lie open. In each
trick both players choose a card face down and show them together. The higher
card wins, *unless* the lower card divides it exactly or is exactly one less
than it: then the lower card wins. After five tricks each player takes up the
hand the other was dealt and five more tricks are played. Most of the ten
tricks wins; five each is a draw.

Cards are the integers 2..10 and 12 (the Queen); :func:`card_label` names them.

Options (the names of the record's ``"options"``):

==========  ========  ============================================================
option      default   meaning
==========  ========  ============================================================
``halves``  2         2: the full game (hands swapped after five tricks);
                      1: only the first five tricks (a warm-up for lessons)
``deal``    None      None: a shuffled deal; or two lists of five cards, the
                      hands of player 1 and player 2 (for lessons and puzzles)
==========  ========  ============================================================

>>> rules = DivideAndConquer(deal=[[2, 5, 7, 9, 12], [3, 4, 6, 8, 10]])
>>> state = rules.new_game()
>>> state.apply([2, 8]).explain()
"Player 1's 2 divides Player 2's 8 exactly: the 2 takes the trick."
>>> state.scores()
[1, 0]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from ..cards import card_name, in_sentence
from ..errors import IllegalMoveError, OptionError, RecordError
from .base import GameState, Observation, Rules, refuse_if_over, show

CARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 12)
HAND_SIZE = 5


def card_label(card: int) -> str:
    """Name a card for people: ``card_label(12) == 'Q'``, ``card_label(7) == '7'`` (see :func:`gopskit.cards.card_name`)."""
    return card_name(card)


def _valued(card: int) -> str:
    """A card named in a sentence about dividing: the Queen says what she counts, ``'Q (12)'``."""
    return f"{card_name(card)} (12)" if card == 12 else card_name(card)


def trick_winner(first: int, second: int) -> tuple[int, str]:
    """Decide a trick between two different cards: return ``(0 or 1, reason)``.

    ``0`` means ``first`` wins. The reason is ``"divides"`` (the lower card
    divides the higher exactly), ``"one less"`` (the lower card is one below
    the higher) or ``"higher"`` (neither: the higher card wins).

    >>> trick_winner(12, 3)
    (1, 'divides')
    >>> trick_winner(7, 8)
    (0, 'one less')
    >>> trick_winner(5, 9)
    (1, 'higher')
    """
    if first == second:
        raise ValueError(f"a trick needs two different cards, got {first} twice (the ten cards are all different)")
    low, high = sorted((first, second))
    if high % low == 0:
        reason = "divides"
    elif high - low == 1:
        reason = "one less"
    else:
        return (0 if first == high else 1), "higher"
    return (0 if first == low else 1), reason


def beats(card: int, other: int) -> bool:
    """True when ``card`` takes a trick against ``other``.

    >>> [c for c in CARDS if beats(2, c)]
    [3, 4, 6, 8, 10, 12]
    """
    return card != other and trick_winner(card, other)[0] == 0


# ---------------------------------------------------------------- options --
@dataclasses.dataclass(frozen=True)
class DivideAndConquer(Rules):
    """The rules of one game of Divide and Conquer (see the module docstring).

    >>> DivideAndConquer().num_players
    2
    """

    name: ClassVar[str] = "divide-and-conquer"

    halves: int = 2
    deal: tuple | None = None

    def __post_init__(self):
        if isinstance(self.halves, bool) or not isinstance(self.halves, (int, np.integer)) or self.halves not in (1, 2):
            raise OptionError(f"option halves is 1 (five tricks) or 2 (the full game, hands swapped), not {show(self.halves)}")
        if self.deal is not None:
            object.__setattr__(self, "deal", _check_deal(self.deal))

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_tricks(self) -> int:
        return HAND_SIZE * self.halves

    def deal_hands(self, rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The two hands as dealt (the fixed ``deal`` or a shuffle of the ten cards)."""
        if self.deal is not None:
            return self.deal
        order = [int(c) for c in rng.permutation(np.array(CARDS))]
        return tuple(sorted(order[:HAND_SIZE])), tuple(sorted(order[HAND_SIZE:]))

    def new_hand(self, hand_number, rng):
        return DivideAndConquerState(self, self.deal_hands(rng))

    def replay_hand(self, hand, hand_number):
        return _replay(self, hand)


def _check_deal(deal) -> tuple[tuple[int, ...], tuple[int, ...]]:
    message = (f"a deal is two lists of five cards that together hold each of "
               f"{', '.join(map(str, CARDS))} once, not {deal!r}")
    if not isinstance(deal, (list, tuple)) or len(deal) != 2:
        raise OptionError(message)
    hands = []
    for hand in deal:
        if not isinstance(hand, (list, tuple)) or len(hand) != HAND_SIZE or any(
                isinstance(c, bool) or not isinstance(c, int) for c in hand):
            raise OptionError(message)
        hands.append(tuple(sorted(int(c) for c in hand)))
    if sorted(hands[0] + hands[1]) != list(CARDS):
        raise OptionError(message)
    return hands[0], hands[1]


# ---------------------------------------------------------------- events ---
@dataclasses.dataclass(frozen=True)
class Trick:
    """One trick: the two cards (player 1's first), who took it, and why.

    ``reason`` is ``"divides"``, ``"one less"`` or ``"higher"`` (see
    :func:`trick_winner`); ``swap`` is True on the fifth trick of a
    two-half game, after which the hands change places.
    """

    number: int
    half: int
    cards: tuple[int, int]
    winner: int
    reason: str
    swap: bool = False

    def explain(self, names: Sequence[str] | None = None) -> str:
        """One sentence, e.g. ``"Player 2's 6 is one less than Player 1's 7: the 6 takes the trick."``."""
        names = list(names) if names else ["Player 1", "Player 2"]
        win, lose = self.cards[self.winner], self.cards[1 - self.winner]
        w, l = f"{names[self.winner]}'s {_valued(win)}", f"{_lower(names[1 - self.winner])}'s {_valued(lose)}"
        if self.reason == "divides":
            text = f"{w} divides {l} exactly: the {card_label(win)} takes the trick."
        elif self.reason == "one less":
            text = f"{w} is one less than {l}: the {card_label(win)} takes the trick."
        else:
            text = (f"{w} beats {l}: higher, and {_valued(lose)} neither divides "
                    f"{_valued(win)} nor is one less.")
        return text + (" The hands now change places for the second half." if self.swap else "")


def _lower(name: str) -> str:
    """A name inside a sentence (:func:`gopskit.cards.in_sentence`): ``Player 2`` keeps its capital."""
    return in_sentence(name)


# ----------------------------------------------------------- observation ---
@dataclasses.dataclass(frozen=True, kw_only=True)
class DivideAndConquerObservation(Observation):
    """What a player knows: everything, since both hands lie open.

    * ``hand`` and ``opponent_hand``: the cards each side holds now;
      ``hands``: both, by seat;
    * ``dealt``: the two hands as dealt, by seat (in the second half you
      hold the other player's dealt hand);
    * ``half`` (0 or 1), ``halves`` (how many the game has), ``trick``
      (tricks played so far), ``tricks_won`` (by seat), ``history``: every
      trick played (:class:`Trick`).
    """

    hand: tuple[int, ...]
    opponent_hand: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    dealt: tuple[tuple[int, ...], tuple[int, ...]]
    half: int
    halves: int
    trick: int
    tricks_won: tuple[int, int]
    history: tuple[Trick, ...]


# ----------------------------------------------------------------- state ---
class DivideAndConquerState(GameState):
    """One game of Divide and Conquer. Build it with :meth:`DivideAndConquer.new_game`."""

    event_label = "Trick"

    def __init__(self, rules: DivideAndConquer, dealt: Sequence[Sequence[int]]):
        self.rules = rules
        self.dealt = (tuple(sorted(dealt[0])), tuple(sorted(dealt[1])))
        self.hands = [set(self.dealt[0]), set(self.dealt[1])]
        self.plays: list[tuple[int, int]] = []
        self.events: list[Trick] = []

    # -- protocol ----------------------------------------------------------
    @property
    def half(self) -> int:
        """The half being played: 0 (hands as dealt) or 1 (hands swapped)."""
        return min(len(self.plays) // HAND_SIZE, self.rules.halves - 1)

    def is_terminal(self):
        return len(self.plays) >= self.rules.num_tricks

    def to_move(self):
        return () if self.is_terminal() else (0, 1)

    def legal_moves(self, player):
        player = self.check_player(player)
        return sorted(self.hands[player]) if player in self.to_move() else []

    def _apply(self, joint):
        cards = (joint[0], joint[1])
        winner, reason = trick_winner(*cards)
        number = len(self.plays)
        swap = number == HAND_SIZE - 1 and self.rules.halves == 2
        event = Trick(number, self.half, cards, winner, reason, swap)
        for player, card in enumerate(cards):
            self.hands[player].remove(card)
        self.plays.append(cards)
        if swap:
            self.hands = [set(self.dealt[1]), set(self.dealt[0])]
        self.events.append(event)
        return event

    def scores(self):
        won = [e.winner for e in self.events]
        return [won.count(0), won.count(1)]

    # -- observation -------------------------------------------------------
    def observation(self, player):
        player = self.check_player(player)
        hands = (tuple(sorted(self.hands[0])), tuple(sorted(self.hands[1])))
        return DivideAndConquerObservation(
            game=self.rules.name, player=player, num_players=2,
            legal_moves=tuple(self.legal_moves(player)),
            hand=hands[player], opponent_hand=hands[1 - player], hands=hands, dealt=self.dealt,
            half=self.half, halves=self.rules.halves, trick=len(self.plays),
            tricks_won=tuple(self.scores()), history=tuple(self.events),
        )

    # -- records -----------------------------------------------------------
    def record(self):
        return {
            "game": self.rules.name,
            "options": self.rules.options(),
            "deal": [list(h) for h in self.dealt],
            "plays": [list(p) for p in self.plays],
        }


# ---------------------------------------------------------------- replay ---
def _replay(rules: DivideAndConquer, hand: Mapping) -> DivideAndConquerState:
    deal, plays = hand.get("deal"), hand.get("plays")
    if not isinstance(plays, list):
        raise RecordError("a Divide and Conquer record needs a list 'plays' (one [card, card] per trick)")
    try:
        dealt = _check_deal(deal)
    except OptionError as exc:
        raise RecordError(f"bad 'deal': {exc}") from None
    if rules.deal is not None and dealt != rules.deal:
        raise RecordError(f"the record's deal {deal!r} differs from the fixed deal in its options")
    state = DivideAndConquerState(rules, dealt)
    for t, cards in enumerate(plays, 1):
        if not isinstance(cards, list) or len(cards) != 2:
            raise RecordError(f"a trick is a list of two cards (player 1's, player 2's), got {show(cards)}", turn=t)
        refuse_if_over(state, t, "tricks")
        try:
            state.apply(cards)
        except IllegalMoveError as exc:
            raise RecordError(str(exc), turn=t) from None
    return state
