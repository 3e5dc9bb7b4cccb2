"""Gooseberry Fool (David Parlett): a three-hand trick game where the odd card out wins.

Rules in brief (``docs/rules/gooseberry-fool.md`` has them in full, with each
reading of a gap): 32 cards (A K Q J 10 9 8 7 in four suits) and a Joker, the
*Goose*, are dealt eleven to each of three players. The player at the
dealer's left leads; the others follow suit if they can. The trick goes to the
*gooseberry*, the odd card out: of three cards of one suit, the middle one; of
two suits, the card of the lone suit; of three suits, the card of the lone
colour. The Goose must be played the first time its holder cannot follow
suit, may be led only as its holder's last card, and always wins; its holder
then says who takes the trick (themselves or either other player: *goosing*),
and the taker leads next. A player scores 1 per trick they took and 2 per
trick taken by the player on their right; the middling score of the deal
earns 10 more. Play passes to the left, which in seat order is the next seat
(seat 0, 1, 2, 0, ...), so the player on your right is the seat before yours.

Cards are strings from :mod:`gopskit.cards` (``"QS"``, ``"10H"``, the Goose
``"JK"``); a goosing decision is the seat number of the player who takes the
trick.

Options (the names of the record's ``"options"``):

=============  ===========  ====================================================
option         default      meaning
=============  ===========  ====================================================
``target``     100          a match: deals until someone reaches it;
                            None: a single deal
``ending``     "middling"   who wins the match: "middling" (the middling
                            total; on a tie for two places, the third) or
                            "reach" (the source's variant: the only player to
                            reach the target, or the only one not to)
``dealer``     2            the first deal's dealer (2: player 1 leads first)
``max_hands``  50           a match stops after this many deals
=============  ===========  ====================================================

>>> rules = GooseberryFool(target=None)
>>> state = rules.new_game(seed=4)
>>> state.to_move(), len(state.legal_moves(0)) > 0
((0,), True)
>>> gooseberry(["JS", "9S", "QS"])
(0, 'middle')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from ..cards import JOKER, SUIT_NAMES, card_name, full_deck, is_red, rank_of, suit_of, in_sentence
from ..errors import IllegalMoveError, OptionError, RecordError
from .base import GameState, Observation, Rules, as_move, refuse_if_over, show

PLAYERS = 3
HAND_SIZE = 11
BONUS = 10
ENDINGS = ("middling", "reach")
SUIT_ORDER = ("S", "H", "C", "D")  # alternate colours, as a hand is usually sorted
DECK = tuple(full_deck(ranks=(1, 13, 12, 11, 10, 9, 8, 7), suits=SUIT_ORDER)) + (JOKER,)


def card_strength(card: str) -> int:
    """The rank of a card within its suit, Ace high: A=14, K=13, ..., 7=7 (the Goose 0)."""
    rank = rank_of(card)
    return 14 if rank == 1 else rank


def sort_key(card: str) -> tuple[int, int]:
    """Order a hand as people hold it: spades, hearts, clubs, diamonds, high to low, the Goose last."""
    if card == JOKER:
        return len(SUIT_ORDER), 0
    return SUIT_ORDER.index(suit_of(card)), -card_strength(card)


# Looked up, not parsed, in the hot path (bots judge thousands of tricks a move).
# CARD_SUIT maps each card but the Goose to its suit letter.
CARD_SUIT = {c: suit_of(c) for c in DECK if c != JOKER}
_STRENGTH = {c: card_strength(c) for c in DECK if c != JOKER}
_RED = {c: is_red(c) for c in DECK if c != JOKER}


def gooseberry(cards: Sequence[str]) -> tuple[int, str]:
    """Find the odd card out of a trick of three Goose-free cards: ``(index, reason)``.

    1. All of one suit: the middle card by rank takes it (``"middle"``).
    2. Two of one suit: the card of the other suit (``"odd suit"``).
    3. Three suits: the card whose colour no other card shares (``"odd colour"``).

    >>> gooseberry(["QH", "AD", "7H"])
    (1, 'odd suit')
    >>> gooseberry(["JC", "9S", "KH"])
    (2, 'odd colour')
    """
    a, b, c = (CARD_SUIT[card] for card in cards)
    if a == b == c:
        x, y, z = (_STRENGTH[card] for card in cards)
        return (0 if y < x < z or z < x < y else 1 if x < y < z or z < y < x else 2), "middle"
    if a == b or a == c or b == c:
        return (2 if a == b else 1 if a == c else 0), "odd suit"
    r, s, t = (_RED[card] for card in cards)
    return (2 if r == s else 1 if r == t else 0), "odd colour"


def right_of(player: int) -> int:
    """The seat on ``player``'s right: the one before theirs, since play passes left."""
    return (player - 1) % PLAYERS


def deal_points(tricks_won: Sequence[int]) -> list[int]:
    """Points before the bonus: 1 per own trick, 2 per trick of the player on your right.

    >>> deal_points([5, 4, 2])
    [9, 14, 10]
    """
    return [tricks_won[p] + 2 * tricks_won[right_of(p)] for p in range(PLAYERS)]


def middling(values: Sequence[float]) -> int | None:
    """The seat whose value lies strictly between the other two (``None`` on a tie)."""
    order = sorted(range(PLAYERS), key=lambda p: values[p])
    low, mid, high = (values[p] for p in order)
    return order[1] if low < mid < high else None


def gooseberries(values: Sequence[float]) -> list[int]:
    """Who wins on ``values``: the middling seat; if two tie, the third; if all three tie, all.

    >>> gooseberries([40, 90, 60]), gooseberries([60, 101, 60]), gooseberries([5, 5, 5])
    ([2], [1], [0, 1, 2])
    """
    mid = middling(values)
    if mid is not None:
        return [mid]
    alone = [p for p in range(PLAYERS) if list(values).count(values[p]) == 1]
    return alone or list(range(PLAYERS))


# ---------------------------------------------------------------- options --
@dataclasses.dataclass(frozen=True)
class GooseberryFool(Rules):
    """The rules of Gooseberry Fool (see the module docstring for options).

    >>> GooseberryFool().leader_of_hand(0), GooseberryFool().leader_of_hand(1)
    (0, 1)
    """

    name: ClassVar[str] = "gooseberry-fool"

    target: int | None = 100
    ending: str = "middling"
    dealer: int = 2
    max_hands: int = 50

    def __post_init__(self):
        if self.target is not None:
            _check_int("target", self.target, 1, 10**6)
        if not isinstance(self.ending, str) or self.ending not in ENDINGS:
            raise OptionError(f"unknown ending {show(self.ending)}; allowed: {', '.join(ENDINGS)}")
        _check_int("dealer", self.dealer, 0, PLAYERS - 1)
        _check_int("max_hands", self.max_hands, 1, 1000)
        if self.ending == "reach" and self.target is None:
            raise OptionError("ending='reach' decides a match by who reached the target, and a single deal "
                              "(target None) has no target: set a target or leave ending at 'middling'")

    @property
    def num_players(self) -> int:
        return PLAYERS

    def dealer_of_hand(self, hand_number: int) -> int:
        """The deal passes to the left: the next seat deals each time."""
        return (self.dealer + hand_number) % PLAYERS

    def leader_of_hand(self, hand_number: int) -> int:
        """The player at the dealer's left leads to the first trick."""
        return (self.dealer_of_hand(hand_number) + 1) % PLAYERS

    def deal(self, rng: np.random.Generator) -> tuple[tuple[str, ...], ...]:
        """Shuffle the 33 cards and give eleven to each seat (each hand sorted)."""
        order = [DECK[i] for i in rng.permutation(len(DECK))]
        return tuple(tuple(sorted(order[p::PLAYERS], key=sort_key)) for p in range(PLAYERS))

    def new_hand(self, hand_number, rng):
        return GooseberryState(self, self.deal(rng), self.dealer_of_hand(hand_number))

    def replay_hand(self, hand, hand_number):
        return _replay(self, hand, hand_number)

    # -- matches -----------------------------------------------------------
    def is_match(self) -> bool:
        return self.target is not None

    def match_over(self, totals, hands_played):
        if hands_played >= self.max_hands:
            return True
        return self._reached_target(totals)

    def match_cut_off(self, totals, hands_played) -> bool:
        """True when the match stopped at ``max_hands`` deals with the target not decisively reached."""
        return self.target is not None and hands_played >= self.max_hands and not self._reached_target(totals)

    def _reached_target(self, totals) -> bool:
        return max(totals) >= self.target and len(set(totals)) > 1

    def match_winners(self, totals):
        if self.ending == "reach":
            reached = [p for p in range(PLAYERS) if totals[p] >= self.target]
            if len(reached) == 1:
                return reached
            if len(reached) == 2:
                return [p for p in range(PLAYERS) if p not in reached]
        return gooseberries(totals)


def _check_int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise OptionError(f"option {name} must be a whole number from {low} to {high}, not {show(value)}")


# ---------------------------------------------------------------- events ---
@dataclasses.dataclass(frozen=True)
class TrickResult:
    """One finished trick: the cards in play order, whose card won it and who took it.

    ``plays`` holds ``(seat, card)`` pairs from the leader on; ``winner`` is
    the seat whose card won (the Goose's holder when the Goose was played);
    ``reason`` is ``"middle"``, ``"odd suit"``, ``"odd colour"`` or
    ``"goose"``; ``taker`` is who took the trick (``None`` while the Goose's
    holder is still choosing: :meth:`GameState.apply` returns that
    half-way result for a status line, and the state's ``events`` keep only
    the finished trick); ``deal_points`` is set on the deal's last trick:
    each seat's points before the bonus.
    """

    number: int
    plays: tuple[tuple[int, str], ...]
    winner: int
    reason: str
    taker: int | None
    deal_points: tuple[int, ...] | None = None

    def explain(self, names: Sequence[str] | None = None) -> str:
        """One sentence, e.g. ``"J♣ 9♠ K♥: Player 3's K♥ is the only red card, so Player 3 takes the trick."``."""
        names = list(names) if names else [f"Player {p + 1}" for p in range(PLAYERS)]
        cards = " ".join(card_name(c, joker="Goose") for _, c in self.plays)
        winner, taker = _lower(names[self.winner]), None if self.taker is None else _lower(names[self.taker])
        if self.taker is None:
            return f"{cards}: the Goose wins; {winner} now chooses who takes the trick."
        if self.reason == "goose":
            text = (f"{winner}'s Goose wins and {winner} keeps the trick" if self.taker == self.winner
                    else f"{winner}'s Goose wins and {winner} gooses {taker}, who takes the trick")
        else:
            card = dict(self.plays)[self.winner]
            text = f"{winner}'s {card_name(card)} {_reason(self.reason, card)}, so {taker} takes the trick"
        text += " and leads next." if self.deal_points is None else "."
        return f"{cards}: {text}" + (_deal_summary(self.deal_points, names) if self.deal_points else "")


def _reason(reason: str, card: str) -> str:
    suit = SUIT_NAMES[suit_of(card)]
    if reason == "middle":
        return f"is the middle card of three {suit}"
    if reason == "odd suit":
        return f"is the only {suit[:-1]}"
    return f"is the only {'red' if is_red(card) else 'black'} card"


def _deal_summary(points: Sequence[int], names: Sequence[str]) -> str:
    mid = middling(points)
    parts = [f"{_lower(names[p])} {points[p]}" + (f" + {BONUS} for the middling score" if p == mid else "")
             for p in range(PLAYERS)]
    return " End of the deal: " + ", ".join(parts) + "."


def _lower(name: str) -> str:
    """A name inside a sentence (:func:`gopskit.cards.in_sentence`): ``Player 2`` keeps its capital."""
    return in_sentence(name)


# ----------------------------------------------------------- observation ---
@dataclasses.dataclass(frozen=True, kw_only=True)
class GooseberryObservation(Observation):
    """What one player may know: their own hand and every card played so far.

    * ``hand``: your cards; ``hand_sizes``: how many each seat holds;
    * ``dealer`` and ``leader`` (the seat that led the current trick);
    * ``table``: the current trick so far as ``(seat, card)`` pairs;
      ``led_suit``: the suit to follow (``None`` when nobody has led, or the
      Goose was led);
    * ``goose_holder``: set while a Goose's holder decides who takes a
      finished trick (``table`` then shows that trick), else ``None``;
    * ``history``: every finished trick (:class:`TrickResult`);
      ``played``: every card played this deal, in order; ``unseen``:
      cards neither in your hand nor played (the others hold them);
    * ``tricks_won`` and ``points`` (before the bonus) by seat;
      ``target``: the match target (``None`` for a single deal).
    """

    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    dealer: int
    leader: int
    table: tuple[tuple[int, str], ...]
    led_suit: str | None
    goose_holder: int | None
    history: tuple[TrickResult, ...]
    played: tuple[str, ...]
    unseen: tuple[str, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    target: int | None


# ----------------------------------------------------------------- state ---
class GooseberryState(GameState):
    """One deal of Gooseberry Fool. Build it with :meth:`GooseberryFool.new_game`.

    Moves are cards, one player at a time; after a trick the Goose won, its
    holder alone moves once more, naming the seat that takes the trick.
    ``dealt`` may be three shorter hands of equal size (a few tricks, for
    tests and lessons); a record replays only a full deal.
    """

    event_label = "Trick"

    def __init__(self, rules: GooseberryFool, dealt: Sequence[Sequence[str]], dealer: int):
        self.rules = rules
        self.dealt = tuple(tuple(sorted(h, key=sort_key)) for h in dealt)
        self.num_tricks = len(self.dealt[0])
        self.dealer = dealer
        self.leader = (dealer + 1) % PLAYERS
        self.hands = [set(h) for h in self.dealt]
        self.table: list[tuple[int, str]] = []
        self.goose_holder: int | None = None
        self.tricks: list[TrickResult] = []
        self.plays: list[list] = []
        self.events: list[TrickResult | None] = []

    # -- protocol ----------------------------------------------------------
    def is_terminal(self):
        return len(self.tricks) >= self.num_tricks

    def to_move(self):
        if self.is_terminal():
            return ()
        if self.goose_holder is not None:
            return (self.goose_holder,)
        return ((self.leader + len(self.table)) % PLAYERS,)

    @property
    def led_suit(self) -> str | None:
        """The suit to follow in the current trick (``None`` before the lead or after a Goose lead)."""
        if not self.table or self.table[0][1] == JOKER:
            return None
        return CARD_SUIT[self.table[0][1]]

    def legal_moves(self, player):
        player = self.check_player(player)
        if player not in self.to_move():
            return []
        if self.goose_holder is not None:
            return list(range(PLAYERS))
        hand = sorted(self.hands[player], key=sort_key)
        if not self.table:
            return hand if hand == [JOKER] else [c for c in hand if c != JOKER]
        led = self.led_suit
        follow = [c for c in hand if c != JOKER and CARD_SUIT[c] == led]
        if follow or led is None:
            return follow or hand
        return [JOKER] if JOKER in self.hands[player] else hand

    def joint_move(self, moves):
        try:
            return super().joint_move(moves)
        except IllegalMoveError:
            reason = self._refusal(moves)
            if reason:
                raise IllegalMoveError(reason) from None
            raise

    def _apply(self, joint):
        (player, move), = joint.items()
        if self.goose_holder is not None:
            return self._finish_trick(self.goose_holder, "goose", move)
        self.hands[player].remove(move)
        self.table.append((player, move))
        if len(self.plays) == len(self.tricks):
            self.plays.append([])
        self.plays[-1].append(move)
        if len(self.table) < PLAYERS:
            return None
        cards = [c for _, c in self.table]
        if JOKER in cards:
            self.goose_holder = self.table[cards.index(JOKER)][0]
            return TrickResult(len(self.tricks), tuple(self.table), self.goose_holder, "goose", None)
        index, reason = gooseberry(cards)
        winner = self.table[index][0]
        return self._finish_trick(winner, reason, winner)

    def _finish_trick(self, winner: int, reason: str, taker: int) -> TrickResult:
        if reason == "goose":
            self.plays[-1].append(taker)
        last = len(self.tricks) == self.num_tricks - 1
        won = self._tricks_won() + np.eye(PLAYERS, dtype=int)[taker]
        points = tuple(deal_points(won.tolist())) if last else None
        trick = TrickResult(len(self.tricks), tuple(self.table), winner, reason, taker, points)
        self.tricks.append(trick)
        self.table, self.goose_holder, self.leader = [], None, taker
        self.events.append(trick)
        return trick

    def _tricks_won(self) -> np.ndarray:
        won = np.zeros(PLAYERS, dtype=int)
        for trick in self.tricks:
            won[trick.taker] += 1
        return won

    def points(self) -> list[int]:
        """Points so far from tricks alone (1 per own trick, 2 per trick on your right)."""
        return deal_points(self._tricks_won().tolist())

    def scores(self):
        """Points of the deal; the middling player's 10 are added once the deal is over."""
        points = self.points()
        mid = middling(points) if self.is_terminal() else None
        if mid is not None:
            points[mid] += BONUS
        return points

    def winners(self):
        """The deal's gooseberry: the middling scorer (before the bonus)."""
        return gooseberries(self.points()) if self.is_terminal() else []

    # -- refusals ----------------------------------------------------------
    def _refusal(self, moves) -> str | None:
        """A precise reason why the mover's move breaks a rule (None: no such reason)."""
        if self.is_terminal():
            return None
        player = self.to_move()[0]
        if isinstance(moves, Mapping):
            move = moves.get(player)
        elif isinstance(moves, Sequence) and not isinstance(moves, str) and len(moves) == 1:
            move = moves[0]
        else:
            return None
        legal = self.legal_moves(player)
        move = as_move(move)  # an array or a hostile object is no card: the generic refusal says so
        if move is None or move in legal:
            return None
        who = f"player {player + 1}"
        if self.goose_holder is not None:
            return (f"{who} played the Goose and now chooses who takes the trick: "
                    f"give a seat number, one of 0, 1, 2 (not {move!r})")
        if move not in list(self.hands[player]):
            return f"{who} does not hold {move!r}; allowed: {', '.join(legal)}"
        if not self.table and move == JOKER:
            return f"the Goose may be led only as {who}'s last card; lead another card (allowed: {', '.join(legal)})"
        led = SUIT_NAMES[self.led_suit]
        if legal == [JOKER]:
            return f"{who} cannot follow {led} and holds the Goose, so must play it now (JK)"
        return f"{who} must follow suit: {led} were led and {who} holds {', '.join(legal)}"

    # -- observation -------------------------------------------------------
    def observation(self, player):
        player = self.check_player(player)
        played = tuple(c for t in self.tricks for _, c in t.plays) + tuple(c for _, c in self.table)
        hand = tuple(sorted(self.hands[player], key=sort_key))
        unseen = tuple(c for c in DECK if c not in hand and c not in played)
        return GooseberryObservation(
            game=self.rules.name, player=player, num_players=PLAYERS,
            legal_moves=tuple(self.legal_moves(player)), hand=hand,
            hand_sizes=tuple(len(h) for h in self.hands), dealer=self.dealer, leader=self.leader,
            table=tuple(self.table), led_suit=self.led_suit, goose_holder=self.goose_holder,
            history=tuple(self.tricks), played=played, unseen=unseen,
            tricks_won=tuple(self._tricks_won().tolist()), points=tuple(self.points()), target=self.rules.target,
        )

    # -- records -----------------------------------------------------------
    def record(self):
        return {
            "game": self.rules.name,
            "options": self.rules.options(),
            "deal": [list(h) for h in self.dealt],
            "plays": [list(t) for t in self.plays],
        }


# ---------------------------------------------------------------- replay ---
def _replay(rules: GooseberryFool, hand: Mapping, hand_number: int) -> GooseberryState:
    deal, plays = hand.get("deal"), hand.get("plays")
    where = f" (deal {hand_number + 1})" if rules.is_match() else ""
    if not isinstance(deal, list) or not isinstance(plays, list):
        raise RecordError(f"a Gooseberry Fool record needs lists 'deal' (three hands) and 'plays' (one list per trick){where}")
    if len(deal) != PLAYERS or any(not isinstance(h, list) or len(h) != HAND_SIZE for h in deal) \
            or sorted(map(str, sum(deal, [])), key=str) != sorted(DECK, key=str):
        raise RecordError(f"the deal must be three hands of eleven cards holding the 32 cards and the Goose once each{where}")
    state = GooseberryState(rules, deal, rules.dealer_of_hand(hand_number))
    for t, trick in enumerate(plays, 1):
        if not isinstance(trick, list) or not 1 <= len(trick) <= PLAYERS + 1 or (t < len(plays) and len(trick) < PLAYERS):
            raise RecordError(f"a trick lists its three cards in play order (and, after the Goose, the taker's seat), "
                              f"got {show(trick)}{where}", turn=t)
        refuse_if_over(state, t, "tricks", where)
        for move in trick:
            if len(state.tricks) == t:
                raise RecordError(f"the trick was already over; {move!r} is one move too many{where}", turn=t)
            try:
                state.apply([move])
            except IllegalMoveError as exc:
                raise RecordError(f"{exc}{where}", turn=t) from None
        if t < len(plays) and len(state.tricks) < t:
            raise RecordError(f"the trick is unfinished (the Goose's holder must name who takes it) but more tricks follow{where}", turn=t)
    return state
