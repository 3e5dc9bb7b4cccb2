"""Playing cards as plain strings, shared by every game and every board.

A suited card is written rank then suit, in ASCII so it survives JSON and
terminals: ``"AS"`` (ace of spades), ``"10H"``, ``"QD"``, ``"7C"``. The Joker
is ``"JK"``. Goofspiel-family bids and prizes are plain integers 1..13 (the
suit carries no meaning there); :func:`rank_name` names them.

>>> parse_card("10H")
(10, 'H')
>>> card_name("QS")
'Q♠'
>>> rank_name(1), rank_name(13)
('A', 'K')
"""

from __future__ import annotations

from .errors import GopsError

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset({"H", "D"})
JOKER = "JK"

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank_name(rank: int) -> str:
    """Return the face name of a rank 1..13: ``A``, ``2``..``10``, ``J``, ``Q``, ``K``."""
    if not isinstance(rank, (int,)) or isinstance(rank, bool) or not 1 <= rank <= 13:
        raise GopsError(f"a rank is a whole number from 1 (ace) to 13 (king), not {rank!r}")
    return _RANK_NAMES.get(rank, str(rank))


def parse_rank(text: str) -> int:
    """Return the rank 1..13 named by ``text`` (``"A"``, ``"7"``, ``"q"``)."""
    key = str(text).strip().upper()
    if key in _RANK_VALUES:
        return _RANK_VALUES[key]
    if key.isdigit() and 2 <= int(key) <= 10:
        return int(key)
    if key == "1":
        return 1
    raise GopsError(f"{text!r} is not a card rank; use A, 2-10, J, Q or K")


def make_card(rank: int, suit: str) -> str:
    """Return the code of a suited card, e.g. ``make_card(12, "S") == "QS"``."""
    if suit not in SUITS:
        raise GopsError(f"a suit is one of {', '.join(SUITS)}, not {suit!r}")
    return rank_name(rank) + suit


def parse_card(card: str) -> tuple[int, str]:
    """Split a suited card code into ``(rank, suit)``; the Joker gives ``(0, "")``."""
    if not isinstance(card, str) or len(card) < 2:
        raise GopsError(f"{card!r} is not a card; write rank then suit, e.g. 'QS' or '10H', or 'JK' for the Joker")
    if card == JOKER:
        return 0, ""
    suit = card[-1]
    if suit not in SUITS:
        raise GopsError(f"{card!r} is not a card: its suit must be one of S, H, D, C")
    return parse_rank(card[:-1]), suit


def suit_of(card: str) -> str:
    """Return the suit letter of a card ('' for the Joker)."""
    return parse_card(card)[1]


def rank_of(card: str) -> int:
    """Return the rank 1..13 of a card (0 for the Joker)."""
    return parse_card(card)[0]


def is_red(card: str) -> bool:
    """True for hearts and diamonds."""
    return suit_of(card) in RED_SUITS


def card_name(card: str) -> str:
    """Return a human name with the suit symbol: ``"QS"`` gives ``"Q♠"``."""
    if card == JOKER:
        return "Joker"
    rank, suit = parse_card(card)
    return rank_name(rank) + SUIT_SYMBOLS[suit]


def full_deck(ranks=range(1, 14), suits=SUITS) -> list[str]:
    """Return the cards of the given ranks in the given suits, suit by suit."""
    return [make_card(r, s) for s in suits for r in ranks]
