"""Lesson 4 (more players, other rules): checkers for its exercises."""

from __future__ import annotations

import functools

from ...games.divide_and_conquer import CARDS, card_label
from ..feedback import as_card_list, as_int, correct, describe, is_blank, not_answered, wrong
from ..pure import best_response
from ..variants import beaten_by, raj_taker
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"


@functools.lru_cache(maxsize=1)
def _leads() -> dict[str, float]:
    return {rule: best_response("match-prize", 5, ties=rule).value for rule in ("discard", "carry")}


@checker(4, E1)
def check_tie_rule(more_exploitable):
    """Exercise 1: under which tie rule does the best reply beat match-prize by more (5 cards)?"""
    if is_blank(more_exploitable):
        return not_answered(E1, "more_exploitable")
    leads = _leads()
    answer = str(more_exploitable).strip().lower() if isinstance(more_exploitable, str) else None
    if answer not in leads:
        return wrong(E1, f"answer with the name of a tie rule, \"discard\" or \"carry\", not {describe(more_exploitable)}")
    figures = f"the best reply leads by {leads['discard']:.2f} under discard and {leads['carry']:.2f} under carry"
    if answer == max(leads, key=leads.get):
        return correct(E1, f"{figures}. Under carry a tie is not wasted: the best reply ties match-prize on a big "
                           "prize and takes it, with the next one, a turn later.")
    return wrong(E1, figures, "under carry, what happens to a prize when both bid the same card?")


@checker(4, E2)
def check_kingmaker(who_profits):
    """Exercise 2: when seats 1 and 3 are the same deterministic bot, who collects the prizes?"""
    if is_blank(who_profits):
        return not_answered(E2, "who_profits")
    player = as_int(who_profits)
    if player not in (1, 2, 3):
        return wrong(E2, f"answer with a player number, 1, 2 or 3, not {describe(who_profits)}")
    if player == 2:
        return correct(E2, "player 2: players 1 and 3 always bid the same card, and two equal bids hand the prize "
                           "to the third player, whatever they bid. Player 3 decides the game without winning it.")
    return wrong(E2, f"player {player} bids exactly what the other copy of the bot bids, so the two bids are "
                     "always equal", "in Gops for three, who takes a prize when two bids are equal?")


@checker(4, E3)
def check_beats_queen(beat_the_queen):
    """Exercise 3: the Divide and Conquer cards that beat the Queen (12)."""
    if is_blank(beat_the_queen):
        return not_answered(E3, "beat_the_queen")
    cards = as_card_list(beat_the_queen)
    if cards is None:
        return wrong(E3, f"beat_the_queen should be a list of card values such as [5, 9], not {describe(beat_the_queen)}")
    strange = [c for c in cards if c not in CARDS or c == 12]
    if strange:
        return wrong(E3, f"{strange[0]} is not one of the other cards; they are {', '.join(map(str, CARDS[:-1]))}")
    truth = beaten_by(12)
    extra = [c for c in cards if c not in truth]
    if extra:
        c = extra[0]
        return wrong(E3, f"{c} does not beat the Queen: {c} does not divide 12 and is not 11, so the higher card, "
                         "the Queen, wins", "a lower card wins only if it divides the higher one or is one less")
    missing = [c for c in truth if c not in cards]
    if missing:
        c = missing[0]
        return wrong(E3, f"you missed {c}: it divides 12 exactly (12 = {c} x {12 // c}), so it beats the Queen",
                     "check every divisor of 12")
    return correct(E3, f"{', '.join(map(card_label, truth))}: the divisors of 12. The Queen, the biggest card, "
                       "loses to four small ones: no card is best.")


@checker(4, E4)
def check_raj_taker(taker):
    """Exercise 4: who takes a -3 when the bids are 12, 7, 7?"""
    if is_blank(taker):
        return not_answered(E4, "taker")
    truth = raj_taker([12, 7, 7], prize=-3) + 1
    if isinstance(taker, str) and taker.strip().lower() in ("nobody", "none", "no one"):
        return wrong(E4, "not every bid cancels: the two 7s cancel, but the 12 is left", "which bids did nobody match?")
    player = as_int(taker)
    if player not in (1, 2, 3):
        return wrong(E4, f"answer with a player number, 1, 2 or 3, not {describe(taker)}")
    if player == truth:
        return correct(E4, "player 1: the two 7s cancel, and of the bids left the lowest takes a negative prize; "
                           "only the 12 is left, so its owner takes the -3. A high bid is no protection in Raj.")
    return wrong(E4, f"player {player} bid 7, and the two 7s cancel each other",
                 "cancel the matched bids first, then the lowest bid left takes a negative prize")
