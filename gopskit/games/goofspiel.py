"""Goofspiel (Gops, the Game of Pure Strategy) and every variant of the kit.

Rules in brief (``docs/rules/goofspiel.md`` has them in full, with each
reading of a gap in the sources): every player holds the same cards
1..``num_cards``; a prize card is turned; everybody bids one card face down;
the bids are shown together and the highest bid wins the prize; bid cards are
spent. After ``num_cards`` turns the most prize points wins.

Options (the names of the record's ``"options"``):

=====================  ==========  ===========================================
option                 default     meaning
=====================  ==========  ===========================================
``num_cards``          13          cards per suit, 1 to 13
``players``            2           2 to 7 (four or more use a second pack)
``ties``               "discard"   "discard", "carry", "unique" or "rebid"
``rebid_open``         False       rebid only: may players outside the tie win
``prize_order``        "shuffled"  "shuffled", "ascending", "descending" or a
                                   list: the prize cards in the order turned
``ace_high``           False       the Ace bids above the top card, scores n+1
``blind``              False       the prize is turned only after the bids
``face_down_trophies`` False       won piles and scores are hidden until the end
``hidden_bids``        False       only the winner of a turn is announced
``defeat_the_dealer``  False       the dealer alone sees the prize, bids first
                                   face up; one hand per dealer
``dealer``             0           the first hand's dealer seat
``target``             None        match play: hands until a total reaches it
``max_hands``          20          a match stops after this many hands
=====================  ==========  ===========================================

>>> rules = Goofspiel(num_cards=3, prize_order="ascending")
>>> state = rules.new_game()
>>> state.apply([1, 3]).explain()
'Player 2 wins the A with a 3 (Player 1 bid A).'
>>> state.scores()
[0, 1]
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from ..cards import a_card, and_list, card_name, in_sentence
from ..errors import IllegalMoveError, OptionError, RecordError
from .base import GameState, Observation, Rules, show

TIE_RULES = ("discard", "carry", "unique", "rebid")
PRIZE_ORDERS = ("shuffled", "ascending", "descending")
MAX_PLAYERS = 7
MAX_CARDS = 13


# ---------------------------------------------------------------- options --
@dataclasses.dataclass(frozen=True)
class Goofspiel(Rules):
    """The rules of one Goofspiel variant (see the module docstring for options).

    >>> Goofspiel(num_cards=5, players=3, ties="unique").total_points()
    15
    """

    name: ClassVar[str] = "goofspiel"

    num_cards: int = 13
    players: int = 2
    ties: str = "discard"
    rebid_open: bool = False
    prize_order: str | tuple = "shuffled"
    ace_high: bool = False
    blind: bool = False
    face_down_trophies: bool = False
    hidden_bids: bool = False
    defeat_the_dealer: bool = False
    dealer: int = 0
    target: int | None = None
    max_hands: int = 20

    def __post_init__(self):
        _check_int("num_cards", self.num_cards, 1, MAX_CARDS)
        _check_int("players", self.players, 2, MAX_PLAYERS)
        if not isinstance(self.ties, str) or self.ties not in TIE_RULES:
            raise OptionError(f"unknown tie rule {show(self.ties)}; allowed: {', '.join(TIE_RULES)}")
        for flag in ("rebid_open", "ace_high", "blind", "face_down_trophies", "hidden_bids", "defeat_the_dealer"):
            if not isinstance(getattr(self, flag), bool):
                raise OptionError(f"option {flag} is true or false, not {show(getattr(self, flag))}")
        self._check_prize_order()
        _check_int("dealer", self.dealer, 0, self.players - 1)
        if self.target is not None:
            _check_int("target", self.target, 1, 10**6)
        _check_int("max_hands", self.max_hands, 1, 1000)
        self._check_combinations()

    def _check_combinations(self):
        """Refuse options that would be silently ignored or mean something nobody expects."""
        if self.rebid_open and self.ties != "rebid":
            raise OptionError(f"rebid_open only changes the 'rebid' tie rule; with ties={self.ties!r} "
                              "it would do nothing: set ties='rebid' or leave rebid_open off")
        if self.dealer and not self.defeat_the_dealer:
            raise OptionError(f"dealer={self.dealer} names the first dealer of Defeat the Dealer; other "
                              "variants have no dealer: set defeat_the_dealer=True or leave dealer at 0")
        if self.defeat_the_dealer and self.blind:
            raise OptionError("blind and defeat_the_dealer do not combine: in Defeat the Dealer the dealer "
                              "sees the prize and everyone else bids blind already; choose one of them")
        if self.defeat_the_dealer and self.max_hands < self.players:
            raise OptionError(f"Defeat the Dealer gives each of the {self.players} players a deal, so "
                              f"max_hands must be at least {self.players}, not {self.max_hands}")

    def _check_prize_order(self):
        order = self.prize_order
        if isinstance(order, str):
            if order not in PRIZE_ORDERS:
                raise OptionError(
                    f"unknown prize order {order!r}; allowed: {', '.join(PRIZE_ORDERS)}, or a list of the prize cards"
                )
            return
        if isinstance(order, list):
            object.__setattr__(self, "prize_order", tuple(order))
            order = self.prize_order
        if not isinstance(order, tuple) or any(isinstance(c, bool) or not isinstance(c, int) for c in order) or (
            sorted(order) != list(range(1, self.num_cards + 1))
        ):
            raise OptionError(
                f"an explicit prize order lists each card 1..{self.num_cards} exactly once, not {show(order)}"
            )

    # -- card values -------------------------------------------------------
    def strength(self, card: int) -> int:
        """How high a card bids: its value, except a high Ace bids above the top card."""
        return self.num_cards + 1 if self.ace_high and card == 1 else card

    def points(self, card: int) -> int:
        """What a prize card scores: its value; a high Ace scores ``num_cards + 1`` (14 in a full suit)."""
        return self.strength(card)

    def total_points(self) -> int:
        """Prize points dealt in one hand (91 for 13 cards)."""
        return sum(self.points(c) for c in range(1, self.num_cards + 1))

    def cards(self) -> tuple[int, ...]:
        return tuple(range(1, self.num_cards + 1))

    def reveals_prize_before_bids(self, player: int, dealer: int | None) -> bool:
        if self.defeat_the_dealer:
            return player == dealer
        return not self.blind

    # -- dealing -----------------------------------------------------------
    def prize_deck(self, rng: np.random.Generator) -> list[int]:
        """The prize cards in the order they will be turned.

        "ascending" and "descending" go by what a prize is worth, so with a
        high Ace the Ace (worth ``num_cards + 1``) comes last going up and
        first going down.
        """
        if isinstance(self.prize_order, tuple):
            return list(self.prize_order)
        if self.prize_order == "ascending":
            return sorted(self.cards(), key=self.points)
        if self.prize_order == "descending":
            return sorted(self.cards(), key=self.points, reverse=True)
        return [int(c) for c in rng.permutation(np.arange(1, self.num_cards + 1))]

    def dealer_of_hand(self, hand_number: int) -> int | None:
        return (self.dealer + hand_number) % self.players if self.defeat_the_dealer else None

    def new_hand(self, hand_number, rng):
        return GoofspielState(self, self.prize_deck(rng), self.dealer_of_hand(hand_number))

    def replay_hand(self, hand, hand_number):
        return _replay(self, hand, hand_number)

    # -- matches -----------------------------------------------------------
    def is_match(self) -> bool:
        return self.target is not None or self.defeat_the_dealer

    def match_over(self, totals, hands_played):
        """Is the match over after ``hands_played`` hands with these totals?

        Defeat the Dealer alone: once each player has dealt. With a target:
        once one player alone has reached it (with Defeat the Dealer, only
        at the end of a round in which everyone dealt once more), or at the
        cap of :meth:`hand_cap` hands, whichever comes first.
        """
        if self.target is None:
            return hands_played >= self.players
        return self._reached_target(totals, hands_played) or hands_played >= self.hand_cap()

    def hand_cap(self) -> int:
        """The most hands a match lasts: ``max_hands``, cut to whole rounds of deals under Defeat the Dealer."""
        if self.defeat_the_dealer:
            return self.max_hands - self.max_hands % self.players
        return self.max_hands

    def match_cut_off(self, totals, hands_played) -> bool:
        """True when a target match ended at the hand cap with nobody alone at the target."""
        return (self.target is not None and hands_played >= self.hand_cap()
                and not self._reached_target(totals, hands_played))

    def _reached_target(self, totals, hands_played) -> bool:
        best = max(totals)
        if best < self.target or sum(t == best for t in totals) != 1:
            return False
        return not self.defeat_the_dealer or hands_played % self.players == 0


def _check_int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise OptionError(f"option {name} must be a whole number from {low} to {high}, not {show(value)}")


# ---------------------------------------------------------------- events ---
@dataclasses.dataclass(frozen=True)
class TurnResult:
    """What happened in one turn: the cards shown and who took the offer, and why.

    ``offer`` is every prize card the turn was for (carried cards first);
    ``outcome`` is ``"won"``, ``"discarded"`` (a tie under ``discard`` or
    ``unique``), ``"carried"`` (the offer stays for the next turn) or
    ``"lost"`` (a tie on the last turn with prizes still carried).
    """

    turn: int
    prize: int
    offer: tuple[int, ...]
    bids: tuple[int, ...]
    winner: int | None
    points: int
    outcome: str
    tied: tuple[int, ...] = ()

    def explain(self, names: Sequence[str] | None = None) -> str:
        """One sentence for a status line, e.g. ``'Tie at 8: the prize carries over.'``."""
        names = list(names) if names else [f"Player {p + 1}" for p in range(len(self.bids))]
        offer = " + ".join(map(card_name, self.offer))
        if self.outcome == "won":
            others = [f"{_lower(names[p])} bid {card_name(b)}" for p, b in enumerate(self.bids) if p != self.winner]
            tail = f" ({', '.join(others)})" if others else ""
            unique = ", the highest bid nobody else matched" if self.tied else ""  # one parenthesis: the others' bids
            verb = "win" if names[self.winner].lower() == "you" else "wins"
            return f"{names[self.winner]} {verb} the {offer} with {a_card(card_name(self.bids[self.winner]))}{unique}{tail}."
        who = and_list(_lower(names[p]) for p in self.tied) or "everyone"
        tie = f"Tie at {card_name(self.bids[self.tied[0]])} between {who}" if self.tied else "Every bid was matched"
        if self.outcome == "carried":
            return f"{tie}: the {offer} carries over to the next turn."
        if self.outcome == "lost":
            return f"{tie} on the last turn: the {offer} is lost."
        return f"{tie}: the {offer} is discarded."


def _lower(name: str) -> str:
    """A name inside a sentence (:func:`gopskit.cards.in_sentence`): ``Player 2`` keeps its capital."""
    return in_sentence(name)


@dataclasses.dataclass(frozen=True)
class TurnView:
    """One past turn as a player saw it: ``None`` stands for a card they never saw."""

    prize: int
    offer: tuple[int, ...]
    bids: tuple[int | None, ...]
    winner: int | None
    outcome: str


def resolve_turn(rules: Goofspiel, bids: Sequence[int], eligible: Sequence[int], last_turn: bool):
    """Decide a turn: return ``(winner or None, outcome, tied players)``.

    ``eligible`` are the players who may win (everyone, except in a
    restricted rebid). The steps follow the tie rule:

    1. ``unique``: bids that anyone matched are struck out; the highest bid
       left wins; if none is left the offer is discarded.
    2. otherwise the highest eligible bid wins if nobody eligible matched it;
       on a tie ``discard`` throws the offer away, ``carry`` and ``rebid``
       keep it for the next turn (``rebid`` limits the winner to the tied
       players unless ``rebid_open``), and a tie on the last turn loses it.
    """
    strength = [rules.strength(b) for b in bids]
    if rules.ties == "unique":
        counts = Counter(bids)
        alone = [p for p in eligible if counts[bids[p]] == 1]
        tied = tuple(p for p in eligible if counts[bids[p]] > 1 and strength[p] > max((strength[q] for q in alone), default=0))
        if alone:
            return max(alone, key=lambda p: strength[p]), "won", tied
        return None, "discarded", tied
    top = max(strength[p] for p in eligible)
    leaders = tuple(p for p in eligible if strength[p] == top)
    if len(leaders) == 1:
        return leaders[0], "won", ()
    if rules.ties == "discard":
        return None, "discarded", leaders
    return None, ("lost" if last_turn else "carried"), leaders


# ----------------------------------------------------------- observation ---
@dataclasses.dataclass(frozen=True, kw_only=True)
class GoofspielObservation(Observation):
    """What one Goofspiel player may know now.

    Fields a beginner's strategy uses most: ``hand`` (your cards),
    ``prize`` (the card on offer, or ``None`` when you cannot see it yet),
    ``offer`` (every prize card this bid is for, carried ones included, as
    far as you can see them) and ``legal_moves``.

    What is *left out*, and why:

    * blind, or Defeat the Dealer when you are not the dealer: ``prize`` is
      ``None`` until the bids are shown (you bid without seeing it);
    * hidden bids: other players' bids are ``None`` in ``history`` and
      their ``hands`` are ``None`` (only the winner of each turn is told);
    * face-down trophies: ``won`` and ``scores`` are ``None`` (nobody may
      look at a won pile, your own included). ``history`` still lists what
      everyone saw, so a player with a perfect memory can keep count; that
      is the skill the variant asks for.
    * Defeat the Dealer: ``table_bids`` shows the dealer's face-up bid to
      everyone as soon as it is made.
    """

    num_cards: int
    ties: str
    ace_high: bool
    turn: int
    hand: tuple[int, ...]
    prize: int | None
    offer: tuple[int, ...]
    unseen_prizes: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    table_bids: tuple[int | None, ...]
    history: tuple[TurnView, ...]
    won: tuple[tuple[int, ...], ...] | None
    scores: tuple[int, ...] | None
    eligible: tuple[int, ...]
    dealer: int | None = None
    prize_order_known: bool = False


# ----------------------------------------------------------------- state ---
class GoofspielState(GameState):
    """One hand of Goofspiel. Build it with :meth:`Goofspiel.new_game`."""

    num_players: int = 0  # a plain attribute here (the base class derives it): read on every move

    def __init__(self, rules: Goofspiel, deck: Sequence[int], dealer: int | None = None):
        self.rules = rules
        self.num_players = rules.players
        self.deck = list(deck)
        self.dealer = dealer
        n, p = rules.num_cards, rules.players
        self.hands = [set(range(1, n + 1)) for _ in range(p)]
        self._held = [tuple(range(1, n + 1))] * p  # each hand sorted, kept in step with self.hands
        self.won: list[list[int]] = [[] for _ in range(p)]
        self.carried: list[int] = []
        self.lost: list[int] = []
        self.eligible = tuple(range(p))
        self.bids: list[tuple[int, ...]] = []
        self.events: list[TurnResult] = []
        self.dealer_bid: int | None = None
        self._views: list[list[TurnView]] = [[] for _ in range(p)]  # history as each player saw it

    # -- protocol ----------------------------------------------------------
    @property
    def turn(self) -> int:
        """Turns completed so far."""
        return len(self.bids)

    @property
    def prize(self) -> int | None:
        """The prize card of the current turn (whether or not players can see it)."""
        return None if self.is_terminal() else self.deck[self.turn]

    def is_terminal(self):
        return self.turn >= self.rules.num_cards

    def to_move(self):
        if self.is_terminal():
            return ()
        if self.dealer is not None:
            if self.dealer_bid is None:
                return (self.dealer,)
            return tuple(p for p in range(self.num_players) if p != self.dealer)
        return tuple(range(self.num_players))

    def legal_moves(self, player):
        player = self.check_player(player)
        return list(self._held[player]) if player in self.to_move() else []

    def clone(self):
        twin = copy.copy(self)
        twin.deck, twin.hands = list(self.deck), [set(h) for h in self.hands]
        twin.won, twin.carried, twin.lost = [list(w) for w in self.won], list(self.carried), list(self.lost)
        twin.bids, twin.events = list(self.bids), list(self.events)
        twin._views = [list(v) for v in self._views]
        return twin

    def joint_move(self, moves):
        try:
            return super().joint_move(moves)
        except IllegalMoveError:
            if self._others_before_the_dealer(moves):
                raise IllegalMoveError(
                    f"the dealer (player {self.dealer + 1}) bids first, face up; the others bid after that"
                ) from None
            raise

    def _others_before_the_dealer(self, moves) -> bool:
        """Defeat the Dealer: do ``moves`` hold other players' bids before the dealer's face-up bid?"""
        if self.is_terminal() or self.dealer is None or self.dealer_bid is not None:
            return False
        if isinstance(moves, Mapping):
            seats = set(range(self.num_players))
            return all(type(p) is int for p in moves) and set(moves) <= seats and bool(set(moves) - {self.dealer})
        return isinstance(moves, Sequence) and not isinstance(moves, str) and len(moves) == self.num_players

    def _apply(self, joint):
        if self.dealer is not None and self.dealer_bid is None:
            self.dealer_bid = joint[self.dealer]
            return None
        if self.dealer is not None:
            joint = {**joint, self.dealer: self.dealer_bid}
        return self._resolve(tuple(joint[p] for p in range(self.num_players)))

    def _resolve(self, bids: tuple[int, ...]) -> TurnResult:
        rules, prize = self.rules, self.deck[self.turn]
        last = self.turn == rules.num_cards - 1
        offer = tuple(self.carried) + (prize,)
        winner, outcome, tied = resolve_turn(rules, bids, self.eligible, last)
        for player, bid in enumerate(bids):
            self.hands[player].remove(bid)
        self._held = [tuple(sorted(h)) for h in self.hands]
        self.bids.append(bids)
        self.dealer_bid = None
        self.eligible = tuple(range(self.num_players))
        self.carried = []
        if outcome == "won":
            self.won[winner].extend(offer)
        elif outcome == "carried":
            self.carried = list(offer)
            if rules.ties == "rebid" and not rules.rebid_open:
                self.eligible = tied
        else:
            self.lost.extend(offer)
        event = TurnResult(self.turn, prize, offer, bids, winner, sum(map(rules.points, offer)), outcome, tied)
        self.events.append(event)
        public = None if rules.hidden_bids else TurnView(prize, offer, bids, winner, outcome)
        for player, views in enumerate(self._views):
            views.append(public or self._view(event, player, seen=(player, self.dealer)))
        return event

    def scores(self):
        return [sum(map(self.rules.points, pile)) for pile in self.won]

    # -- observation -------------------------------------------------------
    def observation(self, player):
        player = self.check_player(player)
        rules = self.rules
        sees_prize = not self.is_terminal() and rules.reveals_prize_before_bids(player, self.dealer)
        prize = self.prize if sees_prize else None
        offer = tuple(self.carried) + ((prize,) if prize is not None else ())
        pile = self.deck[self.turn + (1 if sees_prize else 0):]
        known_order = not (rules.prize_order == "shuffled")
        show_bids = not rules.hidden_bids
        # under hidden bids only your own hand is known, and the dealer's, whose bids were all face up
        hands = tuple(h if (show_bids or q in (player, self.dealer)) else None for q, h in enumerate(self._held))
        table = [None] * self.num_players
        if self.dealer is not None and self.dealer_bid is not None:
            table[self.dealer] = self.dealer_bid
        face_down = rules.face_down_trophies and not self.is_terminal()
        return GoofspielObservation(
            game=rules.name, player=player, num_players=self.num_players,
            legal_moves=tuple(self.legal_moves(player)),
            num_cards=rules.num_cards, ties=rules.ties, ace_high=rules.ace_high, turn=self.turn,
            hand=self._held[player], prize=prize, offer=offer,
            unseen_prizes=tuple(pile if known_order else sorted(pile)),
            hands=hands, table_bids=tuple(table),
            history=tuple(self._views[player]),
            won=None if face_down else tuple(tuple(w) for w in self.won),
            scores=None if face_down else tuple(self.scores()),
            eligible=self.eligible, dealer=self.dealer, prize_order_known=known_order,
        )

    @staticmethod
    def _view(event: TurnResult, player: int, seen: tuple) -> TurnView:
        """The turn as ``player`` saw it under hidden bids: only the bids of the seats in ``seen``."""
        bids = tuple(b if q in seen else None for q, b in enumerate(event.bids))
        return TurnView(event.prize, event.offer, bids, event.winner, event.outcome)

    # -- records -----------------------------------------------------------
    def turned_prizes(self) -> list[int]:
        """Prize cards turned face up so far, in order (a blind prize turns after the bids)."""
        shown = self.turn + (0 if self.is_terminal() or self.rules.blind or self.dealer is not None else 1)
        return self.deck[:shown]

    def record(self):
        return {
            "game": self.rules.name,
            "options": self.rules.options(),
            "prizes": list(self.turned_prizes()),
            "bids": [list(b) for b in self.bids],
        }


# ---------------------------------------------------------------- replay ---
def _replay(rules: Goofspiel, hand: Mapping, hand_number: int) -> GoofspielState:
    prizes, bids = hand.get("prizes"), hand.get("bids")
    where = f" (hand {hand_number + 1})" if rules.is_match() else ""
    if not isinstance(prizes, list) or not isinstance(bids, list):
        raise RecordError(f"a Goofspiel record needs lists 'prizes' and 'bids'{where}")
    n = rules.num_cards
    for t, card in enumerate(prizes, 1):
        if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= n:
            raise RecordError(f"prize {card!r} is not a card from 1 to {n}{where}", turn=t)
        if card in prizes[: t - 1]:
            raise RecordError(f"prize {card} was already turned earlier{where}", turn=t)
    if len(prizes) > n:
        raise RecordError(f"{len(prizes)} prizes listed but a hand has only {n}{where}")
    fixed = rules.prize_deck(np.random.default_rng(0)) if rules.prize_order != "shuffled" else None
    if fixed is not None and prizes != fixed[: len(prizes)]:
        t = next(i for i, (a, b) in enumerate(zip(prizes, fixed), 1) if a != b)
        raise RecordError(f"prize {prizes[t - 1]} breaks the {rules.prize_order!r} order, which turns {fixed[t - 1]} here{where}", turn=t)
    deck = list(prizes) + sorted(set(range(1, n + 1)) - set(prizes))
    state = GoofspielState(rules, deck, rules.dealer_of_hand(hand_number))
    for t, turn_bids in enumerate(bids, 1):
        if t > n:
            raise RecordError(f"the hand was over after {n} turns ({n} cards each); these bids are extra{where}", turn=t)
        if t > len(prizes):
            raise RecordError(f"this turn has bids but the record lists no prize for it{where}", turn=t)
        if not isinstance(turn_bids, list) or len(turn_bids) != rules.players:
            raise RecordError(f"expected a list of {rules.players} bids, one per player, got {show(turn_bids)}{where}", turn=t)
        for p, bid in enumerate(turn_bids):
            if isinstance(bid, bool) or not isinstance(bid, int):
                raise RecordError(f"player {p + 1}'s bid {bid!r} is not a card number{where}", turn=t)
        try:
            if state.dealer is not None:
                state.apply({state.dealer: turn_bids[state.dealer]})
            state.apply({p: b for p, b in enumerate(turn_bids) if p in state.to_move()})
        except IllegalMoveError as exc:
            raise RecordError(f"{exc}{where}", turn=t) from None
    if len(prizes) > len(bids) + 1:
        raise RecordError(f"{len(prizes)} prizes but only {len(bids)} turns of bids: "
                          f"a record lists the prizes turned so far, at most one ahead of the bids{where}")
    return state
