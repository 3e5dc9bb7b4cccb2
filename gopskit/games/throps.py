"""Throps: David Parlett's elaboration of Gops for three, with a dummy stock.

Rules in brief (``docs/rules/throps.md`` has them in full, with every gap in
the source and the reading chosen): a shuffled pack is dealt into four hands
of thirteen; three go to the players (private), the fourth is a face-down
stock. The top stock card is turned and everyone bids a card from their hand;
the highest rank (Ace high) takes the stock card. A tie for highest goes to
the card whose suit is closest to the stock card's: the same suit, then the
same colour, then the same "parity" (spades and hearts are major, clubs and
diamonds minor). Bid cards are thrown away. After thirteen stock cards each
player scores one suit of their winnings at face value (courts 10, Ace 11),
minus every other card they won, plus 10 for each suit they won none of.

==================  ========  ===============================================
option              default   meaning
==================  ========  ===============================================
``scoring_suit``    "best"    the suit that scores plus: the one worth most
                              ("best") or the one with most cards ("longest")
``target``          100       play deals until someone reaches it (None: one)
``max_deals``       30        a game to a target stops after this many deals
==================  ========  ===============================================

Moves are card codes from :mod:`gopskit.cards` (``"QS"``, ``"10H"``).

>>> rules = Throps(target=None)
>>> state = rules.deal_from([["KS", "2C"], ["KD", "3C"], ["9H", "4C"]], ["7C", "5S"])
>>> state.apply(["KS", "KD", "9H"]).explain()
"Player 1 takes the 7♣ with the K♠ (tie at K with Player 2's K♦, broken by suit: same colour as the stock card; Player 3 bid 9♥)."
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from ..cards import SUIT_SYMBOLS, SUITS, and_list, card_name, full_deck, parse_card, rank_name, in_sentence
from ..errors import GopsError, IllegalMoveError, OptionError, RecordError
from .base import GameState, Observation, Rules, refuse_if_over, show

SCORING_SUITS = ("best", "longest")
MAJOR = frozenset("SH")
BLACK = frozenset("SC")
RELATIONS = ("same suit", "same colour", "same parity", "other")


# ---------------------------------------------------------------- options --
@dataclasses.dataclass(frozen=True)
class Throps(Rules):
    """The rules of Throps (see the module docstring for the options).

    >>> Throps().is_match(), Throps(target=None).is_match()
    (True, False)
    """

    name: ClassVar[str] = "throps"
    players: ClassVar[int] = 3

    scoring_suit: str = "best"
    target: int | None = 100
    max_deals: int = 30

    def __post_init__(self):
        if not isinstance(self.scoring_suit, str) or self.scoring_suit not in SCORING_SUITS:
            raise OptionError(f"unknown scoring_suit {show(self.scoring_suit)}; allowed: {', '.join(SCORING_SUITS)}")
        if self.target is not None:
            _check_int("target", self.target, 1, 10**6)
        _check_int("max_deals", self.max_deals, 1, 1000)

    def deal(self, rng: np.random.Generator) -> tuple[list[list[str]], list[str]]:
        """Shuffle the pack with ``rng``; return three sorted hands and the stock (top first)."""
        deck = full_deck()
        order = [deck[int(i)] for i in rng.permutation(len(deck))]
        hands = [sorted(order[13 * p:13 * p + 13], key=card_order) for p in range(3)]
        return hands, order[39:]

    def deal_from(self, hands: Sequence[Sequence[str]], stock: Sequence[str]) -> "ThropsState":
        """A deal with the given hands and stock (lessons and worked examples; may be short)."""
        _check_deal(hands, stock, full=False)
        return ThropsState(self, hands, stock)

    def new_hand(self, hand_number, rng):
        return ThropsState(self, *self.deal(rng))

    def replay_hand(self, hand, hand_number):
        return _replay(self, hand, hand_number)

    # -- matches -----------------------------------------------------------
    def is_match(self) -> bool:
        return self.target is not None

    def match_over(self, totals, hands_played):
        if self.target is None or hands_played >= self.max_deals:
            return True
        return self._reached_target(totals)

    def match_cut_off(self, totals, hands_played) -> bool:
        """True when a game to a target stopped at ``max_deals`` with nobody alone at the target."""
        return self.target is not None and hands_played >= self.max_deals and not self._reached_target(totals)

    def _reached_target(self, totals) -> bool:
        best = max(totals)
        return best >= self.target and sum(t == best for t in totals) == 1


def _check_int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise OptionError(f"option {name} must be a whole number from {low} to {high}, not {value!r}")


# ------------------------------------------------------------ card values --
def bid_rank(card: str) -> int:
    """How high a card bids: 2..13 as ranked, the Ace 14 (above the King)."""
    rank = parse_card(card)[0]
    return 14 if rank == 1 else rank


def card_points(card: str) -> int:
    """What a won card is worth: 2..10 face value, J Q K 10, Ace 11.

    >>> [card_points(c) for c in ("2S", "10H", "QD", "AC")]
    [2, 10, 10, 11]
    """
    rank = parse_card(card)[0]
    return 11 if rank == 1 else min(rank, 10)


def card_order(card: str) -> tuple[int, int]:
    """Sort key: by bid rank, then suit (spades, hearts, diamonds, clubs)."""
    return bid_rank(card), SUITS.index(card[-1])


def suit_relation(suit: str, stock_suit: str) -> int:
    """How close ``suit`` is to the stock card's: 0 same suit, 1 same colour, 2 same parity, 3 neither.

    >>> [suit_relation(s, "S") for s in "SCHD"]
    [0, 1, 2, 3]
    """
    if suit == stock_suit:
        return 0
    if (suit in BLACK) == (stock_suit in BLACK):
        return 1
    return 2 if (suit in MAJOR) == (stock_suit in MAJOR) else 3


def resolve_trick(bids: Sequence[str], stock_card: str) -> tuple[int, tuple[int, ...]]:
    """Who takes the stock card: ``(winner, players tied on the highest rank)``.

    >>> resolve_trick(["KH", "KD", "2S"], "5D")  # K♦ is the stock card's suit
    (1, (0, 1))
    """
    top = max(bid_rank(b) for b in bids)
    tied = tuple(p for p, b in enumerate(bids) if bid_rank(b) == top)
    stock_suit = stock_card[-1]
    winner = min(tied, key=lambda p: suit_relation(bids[p][-1], stock_suit))
    return winner, (tied if len(tied) > 1 else ())


@dataclasses.dataclass(frozen=True)
class Score:
    """A deal's score for one player: ``plus`` (the scoring suit) ``- minus + 10 * voids``."""

    suit: str | None
    plus: int
    minus: int
    voids: int

    @property
    def total(self) -> int:
        return self.plus - self.minus + 10 * self.voids

    def explain(self) -> str:
        if self.suit is None:
            return "40 (won nothing: four void suits)"
        tail = f" + {10 * self.voids}" if self.voids else ""
        return f"{self.total} ({self.plus} in {SUIT_SYMBOLS[self.suit]} - {self.minus}{tail})"


def score_cards(cards: Sequence[str], scoring_suit: str = "best") -> Score:
    """Score a player's winnings: one suit plus, every other card minus, 10 per void suit.

    ``"best"`` scores the suit worth most; ``"longest"`` the suit with most
    cards (the one worth more when two are equally long).

    >>> score_cards(["KS", "9S", "4H"]).total   # 19 - 4 + 2 voids
    35
    >>> score_cards([]).total
    40
    """
    worth = {s: sum(card_points(c) for c in cards if c[-1] == s) for s in SUITS}
    count = {s: sum(c[-1] == s for c in cards) for s in SUITS}
    voids = sum(count[s] == 0 for s in SUITS)
    if not cards:
        return Score(None, 0, 0, voids)
    key = (lambda s: worth[s]) if scoring_suit == "best" else (lambda s: (count[s], worth[s]))
    suit = max(SUITS, key=key)
    return Score(suit, worth[suit], sum(worth.values()) - worth[suit], voids)


# ---------------------------------------------------------------- events ---
@dataclasses.dataclass(frozen=True)
class ThropsTrick:
    """One trick: the stock card, the three bids, who took it and why.

    ``tied`` lists the players who bid the top rank when a tie had to be
    broken by suit; ``relation`` then says how the winning card's suit
    relates to the stock card's. ``deal`` holds every player's
    :class:`Score` on the trick that ends the deal.
    """

    trick: int
    stock_card: str
    bids: tuple[str, ...]
    winner: int
    tied: tuple[int, ...] = ()
    relation: str = ""
    deal: tuple[Score, ...] | None = None

    def explain(self, names: Sequence[str] | None = None) -> str:
        """One sentence for a status line (two when the deal ends)."""
        names = list(names) if names else [f"Player {p + 1}" for p in range(3)]
        win = self.bids[self.winner]
        others = [p for p in range(3) if p != self.winner and p not in self.tied]
        rest = ", ".join(f"{_lower(names[p])} bid {card_name(self.bids[p])}" for p in others)
        if self.tied:
            rivals = and_list(f"{_lower(names[p])}'s {card_name(self.bids[p])}" for p in self.tied if p != self.winner)
            why = f"tie at {rank_name(parse_card(win)[0])} with {rivals}, broken by suit: {self.relation} as the stock card"
            why += f"; {rest}" if rest else ""
        else:
            why = f"highest bid; {rest}"
        text = f"{names[self.winner]} takes the {card_name(self.stock_card)} with the {card_name(win)} ({why})."
        if self.deal:
            parts = ", ".join(f"{_lower(names[p])} scores {s.explain()}" for p, s in enumerate(self.deal))
            text += f" Deal over: {parts}."
        return text


def _lower(name: str) -> str:
    """A name inside a sentence (:func:`gopskit.cards.in_sentence`): ``Player 2`` keeps its capital."""
    return in_sentence(name)


# ----------------------------------------------------------- observation ---
@dataclasses.dataclass(frozen=True, kw_only=True)
class ThropsObservation(Observation):
    """What one Throps player knows: their own hand and everything shown face up.

    ``hand`` your cards (weakest first); ``stock_card`` the card on offer
    (``None`` once the deal is over); ``stock_left`` face-down stock cards
    under it; ``hand_sizes`` cards each player still holds; ``won`` each
    player's face-up winnings; ``scores`` what each would score if the deal
    ended now; ``played`` the bid cards each player has shown; ``unseen`` the
    cards you have not seen (the others' hands and the stock below the top,
    mixed: you cannot tell which is where); ``history`` every trick so far.
    Left out: the others' hands and the order of the stock.
    """

    scoring_suit: str
    trick: int
    hand: tuple[str, ...]
    stock_card: str | None
    stock_left: int
    hand_sizes: tuple[int, ...]
    won: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    played: tuple[tuple[str, ...], ...]
    unseen: tuple[str, ...]
    history: tuple[ThropsTrick, ...]


# ----------------------------------------------------------------- state ---
class ThropsState(GameState):
    """One deal of Throps. Build it with :meth:`Throps.new_game`."""

    def __init__(self, rules: Throps, hands: Sequence[Sequence[str]], stock: Sequence[str]):
        self.rules = rules
        self.dealt = [list(h) for h in hands]
        self.stock = list(stock)
        self.hands = [set(h) for h in hands]
        self.won: list[list[str]] = [[] for _ in range(3)]
        self.bids: list[tuple[str, ...]] = []
        self.events: list[ThropsTrick] = []

    @property
    def trick(self) -> int:
        """Tricks played so far."""
        return len(self.bids)

    @property
    def stock_card(self) -> str | None:
        return None if self.is_terminal() else self.stock[self.trick]

    # -- protocol ----------------------------------------------------------
    def is_terminal(self):
        return self.trick >= len(self.stock) or not all(self.hands)

    def to_move(self):
        return () if self.is_terminal() else (0, 1, 2)

    def legal_moves(self, player):
        player = self.check_player(player)
        return [] if self.is_terminal() else sorted(self.hands[player], key=card_order)

    def _apply(self, joint):
        bids = tuple(joint[p] for p in range(3))
        stock_card = self.stock[self.trick]
        winner, tied = resolve_trick(bids, stock_card)
        relation = RELATIONS[suit_relation(bids[winner][-1], stock_card[-1])] if tied else ""
        for p, bid in enumerate(bids):
            self.hands[p].remove(bid)
        self.won[winner].append(stock_card)
        self.bids.append(bids)
        deal = tuple(self.score_details()) if self.is_terminal() else None
        event = ThropsTrick(self.trick - 1, stock_card, bids, winner, tied, relation, deal)
        self.events.append(event)
        return event

    def score_details(self) -> list[Score]:
        return [score_cards(w, self.rules.scoring_suit) for w in self.won]

    def scores(self):
        """Each player's deal score (as if the deal ended now, while it goes on)."""
        return [s.total for s in self.score_details()]

    # -- observation -------------------------------------------------------
    def observation(self, player):
        player = self.check_player(player)
        seen = set(self.hands[player]) | {c for b in self.bids for c in b} | set(self.stock[:self.trick + 1])
        return ThropsObservation(
            game=self.rules.name, player=player, num_players=3,
            legal_moves=tuple(self.legal_moves(player)),
            scoring_suit=self.rules.scoring_suit, trick=self.trick,
            hand=tuple(sorted(self.hands[player], key=card_order)),
            stock_card=self.stock_card, stock_left=max(len(self.stock) - self.trick - 1, 0),
            hand_sizes=tuple(len(h) for h in self.hands),
            won=tuple(tuple(w) for w in self.won), scores=tuple(self.scores()),
            played=tuple(tuple(b[p] for b in self.bids) for p in range(3)),
            unseen=tuple(sorted((c for c in self._all_cards() if c not in seen), key=card_order)),
            history=tuple(self.events),
        )

    def _all_cards(self) -> list[str]:
        """Every card of this deal (the whole pack, unless a short deal was set up by hand)."""
        return [c for h in self.dealt for c in h] + self.stock

    # -- records -----------------------------------------------------------
    def record(self):
        return {
            "game": self.rules.name,
            "options": self.rules.options(),
            "deal": {"hands": [list(h) for h in self.dealt], "stock": list(self.stock)},
            "bids": [list(b) for b in self.bids],
        }


# ---------------------------------------------------------------- replay ---
def _check_deal(hands, stock, full: bool = True) -> None:
    """Raise :class:`GopsError` unless ``hands`` (three) and ``stock`` are distinct real cards."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 3 or not isinstance(stock, (list, tuple)):
        raise GopsError("a Throps deal is three hands (lists of cards) and a stock (a list of cards)")
    cards = [c for h in hands if isinstance(h, (list, tuple)) for c in h] + list(stock)
    if any(not isinstance(h, (list, tuple)) for h in hands):
        raise GopsError("each Throps hand is a list of cards such as 'QS' or '10H'")
    for card in cards:
        if not isinstance(card, str) or card == "JK":
            raise GopsError(f"{card!r} is not a card of the pack; write rank then suit, e.g. 'QS' or '10H'")
        parse_card(card)
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise GopsError(f"{'a card' if len(twice) == 1 else 'cards'} dealt twice: {', '.join(twice)}")
    sizes = [len(h) for h in hands] + [len(stock)]
    if full and sizes != [13] * 4:
        raise GopsError(f"each hand and the stock hold 13 cards; got {sizes[:3]} in hand and {sizes[3]} in the stock")
    if not full and len(set(sizes)) != 1:
        raise GopsError(f"every hand and the stock need as many cards as each other; got {sizes}")


def _replay(rules: Throps, hand: Mapping, hand_number: int) -> ThropsState:
    deal, rounds = hand.get("deal"), hand.get("bids")
    where = f" (deal {hand_number + 1})" if rules.is_match() else ""
    if not isinstance(deal, Mapping) or not isinstance(rounds, list):
        raise RecordError(f"a Throps record needs 'deal' ({{'hands': [...], 'stock': [...]}}) and a list 'bids'{where}")
    try:
        _check_deal(deal.get("hands"), deal.get("stock"))
    except GopsError as exc:
        raise RecordError(f"bad deal: {exc}{where}") from None
    state = ThropsState(rules, deal["hands"], deal["stock"])
    for t, bids in enumerate(rounds, 1):
        if not isinstance(bids, list) or len(bids) != 3:
            raise RecordError(f"expected a list of 3 bid cards, one per player, got {show(bids)}{where}", turn=t)
        refuse_if_over(state, t, where=where)
        try:
            state.apply(bids)
        except IllegalMoveError as exc:
            raise RecordError(f"{exc}{where}", turn=t) from None
    return state
