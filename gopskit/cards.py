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

Every screen, explanation, table and terminal names a card with
:func:`card_name`, so a card has one name everywhere, and :func:`a_card`
puts the right article in front of it:

>>> card_name(1), card_name(8, suit="D"), card_name("JK", joker="Goose"), card_name("A+")
('A', '8♦', 'Goose', 'A↑')
>>> a_card("8"), a_card("A"), a_card("Q♠"), a_card("11")
('an 8', 'an A', 'a Q♠', 'an 11')
"""

from __future__ import annotations

import numbers

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


# Gops for three declares an Ace high or low when it is bid (moves "A+" and "A-").
DECLARED_ACES = {"A+": "A↑", "A-": "A↓"}


def card_name(card, *, suit: str = "", joker: str = "Joker") -> str:
    """The one name of a card, used on its face, in tables, tooltips and explanations.

    * a suited code gives rank and suit symbol: ``"QS"`` gives ``"Q♠"``;
    * a rank 1..13 (the Goofspiel family, where suits mean nothing) gives its
      face name, ``1`` gives ``"A"`` and ``12`` gives ``"Q"``; ``suit`` adds a
      symbol when the game gives the card one (Gops for three's diamond prizes);
    * the Joker is ``joker`` (Gooseberry Fool calls it the Goose);
    * a declared Ace of Gops for three is ``"A↑"`` (high) or ``"A↓"`` (low).
    """
    if isinstance(card, str):
        if card == JOKER:
            return joker
        if card in DECLARED_ACES:
            return DECLARED_ACES[card]
        rank, card_suit = parse_card(card)
        return rank_name(rank) + SUIT_SYMBOLS[card_suit]
    if suit and suit not in SUIT_SYMBOLS:
        raise GopsError(f"a suit is one of {', '.join(SUITS)}, not {suit!r}")
    return rank_name(_whole(card)) + SUIT_SYMBOLS.get(suit, "")


def _whole(card) -> int:
    if isinstance(card, numbers.Integral) and not isinstance(card, bool):
        return int(card)
    raise GopsError(f"{card!r} is not a card; a card is a code such as 'QS' or a rank 1..13")


def article(name: str) -> str:
    """``"an"`` before a card name spoken with a vowel first (an 8, an A, an 11), else ``"a"``.

    >>> article("8"), article("9"), article("Ace"), article("K♠"), article("+8"), article("-3")
    ('an', 'a', 'an', 'a', 'a', 'a')
    """
    text = str(name)
    if text[:2] in ("11", "18") and (len(text) == 2 or not text[2].isdigit()):
        return "an"
    if text.startswith("8") or text[:1] in ("A", "E", "I", "O", "U"):
        return "an"
    return "a"


def a_card(name: str) -> str:
    """The name with its article: ``a_card("8") == "an 8"``."""
    return f"{article(name)} {name}"


def and_list(words) -> str:
    """Words as a sentence lists them: ``"A"``, ``"A and B"``, ``"A, B and C"``.

    >>> and_list(["player 1", "player 2", "player 3"])
    'player 1, player 2 and player 3'
    """
    words = [str(w) for w in words]
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def full_deck(ranks=range(1, 14), suits=SUITS) -> list[str]:
    """Return the cards of the given ranks in the given suits, suit by suit."""
    return [make_card(r, s) for s in suits for r in ranks]


def counted(count, word: str, many: str = "") -> str:
    """A number with its unit, singular or plural as the number asks: ``"1 deal"``, ``"3 deals"``.

    >>> counted(1, "deal"), counted(3, "deal"), counted(0, "hand"), counted(2, "match", "matches")
    ('1 deal', '3 deals', '0 hands', '2 matches')
    """
    return f"{count} {word if count == 1 else (many or word + 's')}"


def in_sentence(name: str) -> str:
    """A player's name inside a sentence. Names are names: ``Player 2`` keeps its capital
    everywhere (the panels, the final score and every explanation write it so); only the
    pronoun-like names of the terminal game, ``You`` and ``The bot``, lose theirs.

    >>> in_sentence("Player 2"), in_sentence("You"), in_sentence("The bot"), in_sentence("ben")
    ('Player 2', 'you', 'the bot', 'ben')
    """
    return name[0].lower() + name[1:] if name in ("You", "The bot") else name
