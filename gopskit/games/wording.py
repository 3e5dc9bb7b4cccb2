"""A game and its rules in words, for every screen and message: no UI, so the command line can use it too.

:func:`describe_game` is the line the classroom pages and ``gopskit classroom
status`` show for a room: the game's title and the rules its options make,
in the words of the boards' rules line (never the options' Python names):

>>> describe_game("goofspiel", {"num_cards": 5})
'Goofspiel: 5 cards; a tie discards the prize; prizes shuffled'
>>> describe_game("raj", {"players": 3})
'Raj: 3 players; bids 1 to 15; prizes shuffled; the highest unmatched bid takes a plus prize, the lowest a minus one; carried prizes go by the sign of the newest prize'

The boards' title and rules line come from here too (each view's ``title``
and :meth:`GameView.rules_text <gopskit.widgets.views.base.GameView.rules_text>`),
so a board, a classroom page and the command line never describe a game in
two ways.
"""

from __future__ import annotations

from ..cards import card_name, counted
from . import rules_class
from .base import Rules

GAME_TITLES = {
    "goofspiel": "Goofspiel",
    "gops-for-three": "Gops for three",
    "throps": "Throps",
    "gooseberry-fool": "Gooseberry Fool",
    "divide-and-conquer": "Divide and Conquer",
    "raj": "Raj",
}

TIE_WORDS = {
    "discard": "a tie discards the prize",
    "carry": "a tie carries the prize over to the next turn",
    "unique": "tied bids drop out; the highest unmatched bid wins",
    "rebid": "a tie is settled by bidding again for both prizes",
}


def game_title(game: str) -> str:
    """The game's name as its board's title writes it: ``'Gops for three'`` for ``gops-for-three``.

    >>> game_title("divide-and-conquer"), game_title("new-game")
    ('Divide and Conquer', 'New Game')
    """
    return GAME_TITLES.get(game) or game.replace("-", " ").title()


def _goofspiel(rules) -> str:
    parts = [counted(rules.num_cards, "card"), TIE_WORDS[rules.ties]]
    if rules.num_players > 2:
        parts.insert(0, f"{rules.num_players} players")
    if rules.ties == "rebid" and rules.rebid_open:
        parts.append("anyone may win a rebid")
    order = rules.prize_order
    if isinstance(order, str):
        parts.append(_prize_order(order))
    else:
        parts.append("prizes in a set order: " + " ".join(card_name(c) for c in order))
    for flag, words in (("ace_high", "Ace high"), ("blind", "blind prizes"), ("hidden_bids", "hidden bids"),
                        ("face_down_trophies", "face-down trophies"), ("defeat_the_dealer", "Defeat the Dealer")):
        if getattr(rules, flag):
            parts.append(words)
    if rules.target:
        parts.append(f"match to {rules.target}")
    return "; ".join(parts)


def _prize_order(order: str) -> str:
    """How the prizes come, the same words for every game: ``prizes shuffled``, ``prizes in ascending order``."""
    return "prizes shuffled" if order == "shuffled" else f"prizes in {order} order"


def _gops_for_three(rules) -> str:
    if rules.target is None:
        length = counted(rules.deals, "deal")
    else:
        length = f"play to {rules.target} (at most {counted(rules.max_deals, 'deal')})"
    aces = "two Aces always pair" if rules.aces_pair else "Aces pair only if declared alike"
    joker = ("a bottom Joker goes with the last diamond" if rules.bottom_joker == "last-trick"
             else "a bottom Joker goes to nobody")
    return f"{length}; highest and lowest totals score, the middle none; {aces}; {joker}"


def _throps(rules) -> str:
    suit = "their most valuable suit" if rules.scoring_suit == "best" else "their longest suit"
    length = "one deal" if rules.target is None else f"play to {rules.target} (at most {counted(rules.max_deals, 'deal')})"
    return f"each player scores {suit} plus, the rest minus; ties go by suit; {length}"


def _gooseberry_fool(rules) -> str:
    from .gooseberry_fool import BONUS

    if rules.target is None:
        length = "one deal"
    else:
        how = ("the only player to reach it wins; if two do, the third" if rules.ending == "reach"
               else "then the middling total wins")
        length = f"play to {rules.target} ({how}; at most {counted(rules.max_hands, 'deal')})"
    return (f"follow suit; 1 point per trick you take, 2 per trick of the player on your right; "
            f"the middling score wins and scores {BONUS} more; {length}")


def _divide_and_conquer(rules) -> str:
    swap = "; the hands swap after five tricks" if rules.halves == 2 else ""
    return f"{counted(rules.num_tricks, 'trick')}, both hands open{swap}; the most tricks wins"


def _raj(rules) -> str:
    order = _prize_order(rules.prize_order) if isinstance(rules.prize_order, str) else "prizes in a set order"
    carry = {"newest": "the sign of the newest prize", "total": "the sign of their total"}.get(rules.carry_decides,
                                                                                             rules.carry_decides)
    rounds = f"; {counted(rules.rounds, 'game')} added up" if rules.rounds > 1 else ""
    return (f"{rules.num_players} players; bids 1 to 15; {order}; the highest unmatched bid takes a plus "
            f"prize, the lowest a minus one; carried prizes go by {carry}{rounds}")


_LINES = {"goofspiel": _goofspiel, "gops-for-three": _gops_for_three, "throps": _throps,
          "gooseberry-fool": _gooseberry_fool, "divide-and-conquer": _divide_and_conquer, "raj": _raj}


def rules_line(rules: Rules) -> str:
    """One line on the rules in play, from the options (``""`` for a game without one).

    >>> from gopskit.games import make_rules
    >>> rules_line(make_rules("divide-and-conquer", halves=1))
    '5 tricks, both hands open; the most tricks wins'
    """
    line = _LINES.get(rules.name)
    return line(rules) if line else ""


def describe_game(game: str, options: dict) -> str:
    """The game's title and its rules line: ``'Goofspiel: 5 cards; a tie discards the prize; prizes shuffled'``.

    Options that make no rules (a room stored by another version of the kit)
    leave the title alone: a caption never fails.

    >>> describe_game("goofspiel", {"num_cards": 99})
    'Goofspiel'
    """
    title = game_title(game)
    try:
        line = rules_line(rules_class(game).from_options(options))
    except Exception:  # noqa: BLE001  (a caption never fails: the title alone instead)
        return title
    return f"{title}: {line}" if line else title


__all__ = ["GAME_TITLES", "TIE_WORDS", "describe_game", "game_title", "rules_line"]
