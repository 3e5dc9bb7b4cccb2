"""Gops for three: David Parlett's three-player Gops with a Joker and high-or-low scoring.

Rules in brief (``docs/rules/gops-for-three.md`` has them in full, with every
gap in the source and the reading chosen): the prize stack is the thirteen
diamonds and a Joker, shuffled; each player holds the thirteen cards of
another suit. A diamond is turned (a Joker is turned together with the card
under it) and all three bid a card face down. The highest bid wins, except
that *two equal bids hand the prize to the third player*, and *three equal
bids* are set aside while everyone bids again; the tied cards go back to hand
once the prize is won. The Ace bids high (above the King) or low (below the
Two) and the player says which: the moves are ``"A+"`` and ``"A-"``, the other
cards are their ranks 2..13 (J=11, Q=12, K=13).

Prize values: A..10 face value, Q 0, J = your lowest A..10 diamond, K = your
highest, the Joker = the card turned with it. At the end of a deal the
highest and the lowest totals score, the middle one scores nothing (ties: see
:func:`deal_points`). A game is three deals, or to a target.

=============  ============  ===============================================
option         default       meaning
=============  ============  ===============================================
``aces_pair``  True          two Aces are a pair whatever their declarations
``bottom_joker`` "last-trick"  a Joker at the bottom of the stack goes with
                             the last diamond ("last-trick") or to nobody
``deals``      3             deals in a game (1: a single deal)
``target``     None          play to this many points instead of ``deals``
``max_deals``  30            a game to a target stops after this many deals
=============  ============  ===============================================

>>> rules = GopsForThree(deals=1)
>>> state = rules.deal_from([7, "JK", 12] + list(range(1, 7)) + list(range(8, 12)) + [13])
>>> state.apply([9, 9, 4]).explain()
'Player 1 and Player 2 both bid 9, so Player 3 takes the 7♦ with the 4 (two equal bids give the prize to the third player).'
>>> state.offer
('JK', 12)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np

from ..cards import card_name, counted, in_sentence
from ..errors import IllegalMoveError, OptionError, RecordError
from .base import GameState, Observation, Rules, refuse_if_over, show

JOKER = "JK"
PRIZE_CARDS: tuple = tuple(range(1, 14)) + (JOKER,)
ACE_HIGH, ACE_LOW = "A+", "A-"
BOTTOM_JOKER_RULES = ("last-trick", "nobody")
DEFAULT_DEALS = 3  # a game of Gops for three is three deals unless played to a target
Bid = int | str  # 2..13, "A+" or "A-"
Prize = int | str  # 1..13 (a diamond) or "JK"


# ---------------------------------------------------------------- options --
@dataclasses.dataclass(frozen=True)
class GopsForThree(Rules):
    """The rules of Gops for three (see the module docstring for the options).

    >>> GopsForThree().is_match(), GopsForThree(deals=1).is_match()
    (True, False)
    """

    name: ClassVar[str] = "gops-for-three"
    players: ClassVar[int] = 3

    aces_pair: bool = True
    bottom_joker: str = "last-trick"
    deals: int = DEFAULT_DEALS
    target: int | None = None
    max_deals: int = 30

    def __post_init__(self):
        if not isinstance(self.aces_pair, bool):
            raise OptionError(f"option aces_pair is true or false, not {self.aces_pair!r}")
        if not isinstance(self.bottom_joker, str) or self.bottom_joker not in BOTTOM_JOKER_RULES:
            raise OptionError(f"unknown bottom_joker rule {show(self.bottom_joker)}; allowed: {', '.join(BOTTOM_JOKER_RULES)}")
        _check_int("deals", self.deals, 1, 100)
        if self.target is not None:
            _check_int("target", self.target, 1, 10**6)
        _check_int("max_deals", self.max_deals, 1, 1000)
        self._check_combinations()

    def _check_combinations(self):
        """A game ends after ``deals`` deals or at a ``target``, never both; ``max_deals`` never cuts ``deals`` short."""
        if self.target is not None and self.deals != DEFAULT_DEALS:
            raise OptionError(f"deals={self.deals} and target={self.target} do not go together: a game is played either "
                              f"for a number of deals or to a target. To play to {self.target}, leave deals at "
                              f"{DEFAULT_DEALS} (its default, unused by a game to a target); to play "
                              f"{counted(self.deals, 'deal')}, drop the target")
        if self.target is None and self.max_deals < self.deals:
            raise OptionError(f"max_deals={self.max_deals} would stop a game of {counted(self.deals, 'deal')} after "
                              f"{counted(self.max_deals, 'deal')}: max_deals only caps a game to a target, so without "
                              f"a target it must be at least {self.deals} (deals={self.deals})")

    def prize_stack(self, rng: np.random.Generator) -> list[Prize]:
        """The thirteen diamonds and the Joker, shuffled with ``rng`` (top card first)."""
        return [PRIZE_CARDS[int(i)] for i in rng.permutation(len(PRIZE_CARDS))]

    def deal_from(self, stack: Sequence[Prize]) -> "GopsForThreeState":
        """A deal with the prize stack in the given order (lessons and worked examples)."""
        stack = list(stack)
        if not all(map(is_prize_card, stack)) or sorted(map(str, stack)) != sorted(map(str, PRIZE_CARDS)):
            raise OptionError(f"a prize stack holds 1..13 and 'JK' once each, not {list(stack)!r}")
        return GopsForThreeState(self, stack)

    def new_hand(self, hand_number, rng):
        return GopsForThreeState(self, self.prize_stack(rng))

    def replay_hand(self, hand, hand_number):
        return _replay(self, hand, hand_number)

    # -- matches -----------------------------------------------------------
    def is_match(self) -> bool:
        return self.target is not None or self.deals > 1

    def match_over(self, totals, hands_played):
        if hands_played >= self.max_deals:
            return True
        if self.target is None:
            return hands_played >= self.deals
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
def is_prize_card(card) -> bool:
    """True for a diamond 1..13 (a plain int) or the Joker ``"JK"``."""
    return card == JOKER or type(card) is int and 1 <= card <= 13


def bid_strength(bid: Bid) -> int:
    """How high a bid ranks: ``"A-"`` 1, 2..13 as they are, ``"A+"`` 14.

    >>> [bid_strength(b) for b in ("A-", 2, 13, "A+")]
    [1, 2, 13, 14]
    """
    return {ACE_LOW: 1, ACE_HIGH: 14}.get(bid, bid)


def bid_rank(bid: Bid) -> int:
    """The card a bid spends: an Ace (either way) is rank 1."""
    return 1 if bid in (ACE_LOW, ACE_HIGH) else bid


def bid_name(bid: Bid) -> str:
    """``'K'``, ``'A↑'`` (the Ace bid high), ``'A↓'`` (bid low): the names on the cards."""
    return card_name(bid)


def prize_name(card: Prize) -> str:
    """``'7♦'`` or ``'Joker'``."""
    return card_name(card, suit="D")


def bids_from_hand(hand) -> list[Bid]:
    """Every bid a hand allows, weakest first: ``"A-"``, 2..13, ``"A+"``."""
    middle = sorted(c for c in hand if c != 1)
    return [ACE_LOW, *middle, ACE_HIGH] if 1 in hand else middle


def prize_values(tricks: Sequence[Sequence[Prize]]) -> list[tuple[Prize, int]]:
    """Each prize one player won with what it is worth, in the order won (each trick's cards kept together).

    A..10 count face value, Q 0, J your lowest A..10 diamond, K your highest
    (0 without one), the Joker the card turned after it (0 when last).

    >>> prize_values([(5,), (11,), ("JK", 13), (9,)])
    [(5, 5), (11, 5), ('JK', 9), (13, 9), (9, 9)]
    """
    pips = [c for trick in tricks for c in trick if c != JOKER and c <= 10]
    low, high = min(pips, default=0), max(pips, default=0)

    def value(card):
        return {11: low, 12: 0, 13: high}.get(card, card)

    values = []
    for trick in tricks:
        for i, card in enumerate(trick):
            if card == JOKER:
                values.append((card, value(trick[i + 1]) if i + 1 < len(trick) else 0))
            else:
                values.append((card, value(card)))
    return values


def prize_total(tricks: Sequence[Sequence[Prize]]) -> int:
    """The value of the prizes one player won: the sum of :func:`prize_values`.

    >>> prize_total([(5,), (11,), ("JK", 13), (9,)])  # 5 + J=5 + Joker=K=9 + K=9 + 9
    37
    """
    return sum(value for _card, value in prize_values(tricks))


def deal_points(totals: Sequence[int], joker_holder: int | None) -> tuple[list[int], str]:
    """What a deal scores towards the game: ``(points, which rule applied)``.

    Highest and lowest totals score themselves, the middle scores 0
    (``"high-low"``); two equal totals (high or low) score 0 and the third
    scores alone (``"pair"``); three equal totals: only the Joker's holder
    scores (``"triple"``).

    >>> deal_points([30, 12, 21], None)
    ([30, 12, 0], 'high-low')
    >>> deal_points([20, 20, 5], 2)
    ([0, 0, 5], 'pair')
    """
    totals = list(totals)
    if len(set(totals)) == 3:
        keep = {totals.index(max(totals)), totals.index(min(totals))}
        return [t if p in keep else 0 for p, t in enumerate(totals)], "high-low"
    if len(set(totals)) == 2:
        odd = next(p for p, t in enumerate(totals) if totals.count(t) == 1)
        return [t if p == odd else 0 for p, t in enumerate(totals)], "pair"
    return [t if p == joker_holder else 0 for p, t in enumerate(totals)], "triple"


def resolve_bids(bids: Sequence[Bid], aces_pair: bool = True) -> tuple[int | None, str, tuple[int, ...]]:
    """Decide one round of bids: ``(winner or None, reason, paired players)``.

    ``reason`` is ``"highest"``, ``"pair"`` (two equal bids: the third player
    wins, whatever they bid) or ``"triple"`` (all equal: nobody yet). Bids are
    equal when they spend the same rank; with ``aces_pair=False`` an Ace high
    and an Ace low are different bids.

    >>> resolve_bids([13, 13, 2])
    (2, 'pair', (0, 1))
    >>> resolve_bids(["A+", "A-", 5]), resolve_bids(["A+", "A-", 5], aces_pair=False)
    ((2, 'pair', (0, 1)), (0, 'highest', ()))
    """
    keys = [bid_rank(b) if aces_pair else bid_strength(b) for b in bids]
    if len(set(keys)) == 1:
        return None, "triple", (0, 1, 2)
    if len(set(keys)) == 2:
        odd = next(p for p, k in enumerate(keys) if keys.count(k) == 1)
        return odd, "pair", tuple(p for p in range(3) if p != odd)
    return max(range(3), key=lambda p: bid_strength(bids[p])), "highest", ()


# ---------------------------------------------------------------- events ---
@dataclasses.dataclass(frozen=True)
class DealResult:
    """How a finished deal scored: prize ``totals``, game ``points`` and the ``rule`` used."""

    totals: tuple[int, ...]
    points: tuple[int, ...]
    rule: str
    joker_holder: int | None

    def explain(self, names: Sequence[str] | None = None) -> str:
        """One sentence: the totals and who scores what, by which rule."""
        names = list(names) if names else [f"Player {p + 1}" for p in range(3)]
        shown = ", ".join(map(str, self.totals))
        if self.rule == "high-low":
            hi, lo = self.totals.index(max(self.totals)), self.totals.index(min(self.totals))
            mid = 3 - hi - lo
            return (f"Deal over, totals {shown}: {_lower(names[hi])} scores {self.totals[hi]} (highest), "
                    f"{_lower(names[lo])} scores {self.totals[lo]} (lowest), {_lower(names[mid])} in the middle scores 0.")
        if self.rule == "pair":
            odd = next(p for p, t in enumerate(self.totals) if self.totals.count(t) == 1)
            return f"Deal over, totals {shown}: two equal totals score nothing, so {_lower(names[odd])} alone scores {self.totals[odd]}."
        if self.joker_holder is None:
            return f"Deal over, totals {shown}: all three equal and nobody holds the Joker, so nobody scores."
        return (f"Deal over, totals {shown}: all three equal, so only the Joker's holder, "
                f"{_lower(names[self.joker_holder])}, scores {self.totals[self.joker_holder]}.")


@dataclasses.dataclass(frozen=True)
class BidResult:
    """One round of bids: the cards shown and what they did.

    ``outcome`` is ``"won"``, ``"rebid"`` (all three equal: set aside, bid
    again) or ``"lost"`` (all equal and nobody has a card left: nobody wins).
    ``round`` counts the re-bids within the trick (0 for the first bid).
    ``deal`` is set on the round that ends the deal.
    """

    trick: int
    round: int
    offer: tuple
    bids: tuple
    winner: int | None
    outcome: str
    reason: str
    paired: tuple[int, ...] = ()
    returned: bool = False
    deal: DealResult | None = None

    def explain(self, names: Sequence[str] | None = None) -> str:
        """One sentence for a status line (two when the deal ends)."""
        names = list(names) if names else [f"Player {p + 1}" for p in range(3)]
        offer = " + ".join(map(prize_name, self.offer))
        if self.outcome == "rebid":
            text = f"{_all_three(self.bids)}: those cards are set aside and everyone bids again for the {offer}."
        elif self.outcome == "lost":
            text = f"{_all_three(self.bids)} and nobody has a card left to bid again: nobody wins the {offer}."
        elif self.reason == "pair":
            a, b = self.paired
            same = self.bids[a] == self.bids[b]
            pair = (bid_name(self.bids[a]) if same else
                    f"an Ace ({bid_name(self.bids[a])} and {bid_name(self.bids[b])}: one high, one low, still a pair)")
            text = (f"{names[a]} and {_lower(names[b])} both bid {pair}, so {_lower(names[self.winner])} "
                    f"takes the {offer} with the {bid_name(self.bids[self.winner])} (two equal bids give the prize to the third player).")
        else:
            others = ", ".join(f"{_lower(names[p])} bid {bid_name(b)}" for p, b in enumerate(self.bids) if p != self.winner)
            text = f"{names[self.winner]} wins the {offer} with the {bid_name(self.bids[self.winner])} (highest bid; {others})."
        if self.returned:
            text = text[:-1] + "; the tied cards go back to hand."
        return text + (" " + self.deal.explain(names) if self.deal else "")


def _all_three(bids) -> str:
    """``'All three bid 7'``, or with Aces declared both ways ``'All three bid an Ace (A↑, A↑, A↓)'``."""
    if len(set(bids)) == 1:
        return f"All three bid {bid_name(bids[0])}"
    return f"All three bid an Ace ({', '.join(map(bid_name, bids))})"


def _lower(name: str) -> str:
    """A name inside a sentence (:func:`gopskit.cards.in_sentence`): ``Player 2`` keeps its capital."""
    return in_sentence(name)


# ----------------------------------------------------------- observation ---
@dataclasses.dataclass(frozen=True, kw_only=True)
class GopsForThreeObservation(Observation):
    """What one player knows: everything but the order of the unturned stack.

    Every bid is shown face up, so all hands are public (``hands``). Fields:
    ``hand`` your cards as ranks 1..13; ``offer`` the prize cards at stake
    (``("JK", 7)``: the Joker and the 7 under it); ``set_aside`` the cards each
    player tied with in this trick (they come back when the prize is won);
    ``rebid`` how many all-equal rounds this trick has had; ``unseen_prizes``
    the stack cards not yet turned (sorted, the Joker last); ``won`` each
    player's tricks; ``totals`` their prize values; ``deal_points`` what the
    deal would score if it ended now; ``joker_holder`` who took the Joker;
    ``history`` every round's :class:`BidResult`.
    """

    aces_pair: bool
    bottom_joker: str
    trick: int
    rebid: int
    hand: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    offer: tuple
    set_aside: tuple[tuple, ...]
    unseen_prizes: tuple
    won: tuple[tuple[tuple, ...], ...]
    lost: tuple
    totals: tuple[int, ...]
    deal_points: tuple[int, ...]
    joker_holder: int | None
    history: tuple[BidResult, ...]


# ----------------------------------------------------------------- state ---
class GopsForThreeState(GameState):
    """One deal of Gops for three. Build it with :meth:`GopsForThree.new_game`."""

    def __init__(self, rules: GopsForThree, stack: Sequence[Prize]):
        self.rules = rules
        self.stack = list(stack)
        self.turned = 0  # stack cards turned face up so far
        self.hands = [set(range(1, 14)) for _ in range(3)]
        self.spent: list[list[int]] = [[] for _ in range(3)]
        self.set_aside: list[list[Bid]] = [[] for _ in range(3)]
        self.won: list[list[tuple]] = [[] for _ in range(3)]
        self.lost: list[Prize] = []
        self.rounds: list[tuple] = []
        self.events: list[BidResult] = []
        self.trick = 0
        self.offer: tuple = ()
        self._turn_next()

    def _turn_next(self):
        """Turn the next prize (a Joker takes the card under it; a bottom Joker may join the last)."""
        self.offer = ()
        if self.turned >= len(self.stack) or not all(self.hands):
            return
        take = 2 if self.stack[self.turned] == JOKER and self.turned + 1 < len(self.stack) else 1
        if self.stack[self.turned + take:] == [JOKER] and self.rules.bottom_joker == "last-trick":
            take += 1
        self.offer = tuple(self.stack[self.turned:self.turned + take])
        self.turned += take

    # -- protocol ----------------------------------------------------------
    def is_terminal(self):
        return not self.offer

    def to_move(self):
        return () if self.is_terminal() else (0, 1, 2)

    def legal_moves(self, player):
        player = self.check_player(player)
        return [] if self.is_terminal() else bids_from_hand(self.hands[player])

    def joint_move(self, moves):
        try:
            return super().joint_move(moves)
        except IllegalMoveError:
            bare = _undeclared_ace(moves, self.to_move())
            if bare is not None and 1 in self.hands[bare]:
                raise IllegalMoveError(
                    f"player {bare + 1} must say how the Ace bids: 'A+' (high, above the King) or 'A-' (low, below the Two)"
                ) from None
            raise

    def _apply(self, joint):
        bids = tuple(joint[p] for p in range(3))
        winner, reason, paired = resolve_bids(bids, self.rules.aces_pair)
        self.rounds.append(bids)
        for p, bid in enumerate(bids):
            self.hands[p].remove(bid_rank(bid))
        rebid = len(self.set_aside[0])
        if winner is None:
            for p, bid in enumerate(bids):
                self.set_aside[p].append(bid)
            if all(self.hands):
                return self._log(BidResult(self.trick, rebid, self.offer, bids, None, "rebid", reason, paired))
            event = BidResult(self.trick, rebid, self.offer, bids, None, "lost", reason, paired)
            self.lost.extend(self.offer)
            for p in range(3):
                self.spent[p].extend(bid_rank(b) for b in self.set_aside[p])
        else:
            event = BidResult(self.trick, rebid, self.offer, bids, winner, "won", reason, paired, returned=rebid > 0)
            self.won[winner].append(self.offer)
            for p, bid in enumerate(bids):
                self.spent[p].append(bid_rank(bid))
                self.hands[p].update(bid_rank(b) for b in self.set_aside[p])
        self.set_aside = [[] for _ in range(3)]
        self.trick += 1
        self._turn_next()
        if self.is_terminal():
            event = dataclasses.replace(event, deal=self.deal_result())
        return self._log(event)

    def _log(self, event: BidResult) -> BidResult:
        self.events.append(event)
        return event

    # -- scoring -----------------------------------------------------------
    def totals(self) -> list[int]:
        """Each player's prize value so far."""
        return [prize_total(w) for w in self.won]

    def joker_holder(self) -> int | None:
        return next((p for p, w in enumerate(self.won) if any(JOKER in t for t in w)), None)

    def deal_result(self) -> DealResult:
        totals = self.totals()
        points, rule = deal_points(totals, self.joker_holder())
        return DealResult(tuple(totals), tuple(points), rule, self.joker_holder())

    def scores(self):
        """What the deal scores towards the game (as if it ended now, while it goes on)."""
        return list(self.deal_result().points)

    # -- observation -------------------------------------------------------
    def observation(self, player):
        player = self.check_player(player)
        unseen = self.stack[self.turned:]
        result = self.deal_result()
        return GopsForThreeObservation(
            game=self.rules.name, player=player, num_players=3,
            legal_moves=tuple(self.legal_moves(player)),
            aces_pair=self.rules.aces_pair, bottom_joker=self.rules.bottom_joker,
            trick=self.trick, rebid=len(self.set_aside[0]),
            hand=tuple(sorted(self.hands[player])), hands=tuple(tuple(sorted(h)) for h in self.hands),
            offer=self.offer, set_aside=tuple(tuple(s) for s in self.set_aside),
            unseen_prizes=tuple(sorted(c for c in unseen if c != JOKER)) + ((JOKER,) if JOKER in unseen else ()),
            won=tuple(tuple(w) for w in self.won), lost=tuple(self.lost),
            totals=result.totals, deal_points=result.points, joker_holder=result.joker_holder,
            history=tuple(self.events),
        )

    # -- records -----------------------------------------------------------
    def record(self):
        return {
            "game": self.rules.name,
            "options": self.rules.options(),
            "prizes": list(self.stack[:self.turned]),
            "bids": [list(b) for b in self.rounds],
        }


def _undeclared_ace(moves, movers) -> int | None:
    """The first player whose move is a bare Ace (1, "A" or "1"), if any."""
    pairs = moves.items() if isinstance(moves, Mapping) else zip(movers, moves) if isinstance(moves, Sequence) else ()
    for player, move in pairs:
        bare = (isinstance(move, int) and not isinstance(move, bool) and move == 1) or (
            isinstance(move, str) and move.strip().upper() in ("A", "1", "ACE"))
        if bare and type(player) is int and player in movers:  # a seat, not 0.0 or True
            return player
    return None


# ---------------------------------------------------------------- replay ---
def _replay(rules: GopsForThree, hand: Mapping, hand_number: int) -> GopsForThreeState:
    prizes, rounds = hand.get("prizes"), hand.get("bids")
    where = f" (deal {hand_number + 1})" if rules.is_match() else ""
    if not isinstance(prizes, list) or not isinstance(rounds, list):
        raise RecordError(f"a Gops for three record needs lists 'prizes' and 'bids'{where}")
    for i, card in enumerate(prizes):
        if not is_prize_card(card):
            raise RecordError(f"prize {card!r} is not a diamond 1..13 or the Joker 'JK'{where}")
        if card in prizes[:i]:
            raise RecordError(f"prize {prize_name(card)} is listed twice{where}")
    rest = [c for c in PRIZE_CARDS if c not in prizes]
    state = GopsForThreeState(rules, list(prizes) + rest)
    for t, bids in enumerate(rounds, 1):
        if not isinstance(bids, list) or len(bids) != 3:
            raise RecordError(f"expected a list of 3 bids, one per player, got {show(bids)}{where}", turn=t)
        refuse_if_over(state, t, where=where)
        try:
            state.apply(bids)
        except IllegalMoveError as exc:
            raise RecordError(f"{exc}{where}", turn=t) from None
    if state.stack[:state.turned] != prizes:
        raise RecordError(
            f"the record lists {counted(len(prizes), 'prize card')} but the play turned {state.turned}: "
            f"{', '.join(map(str, state.stack[:state.turned])) or 'none'}{where}"
        )
    return state
