"""Lesson 3 (bluffing and hidden information): checkers for its exercises."""

from __future__ import annotations

from ...solvers.cfr import bid_given_prize
from ..feedback import as_card_list, as_int, as_number, correct, describe, is_blank, not_answered, wrong
from ..hidden import first_turn_information_sets, possible_bids, solve
from ..strategies import strategy_problem, trial
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"
DEDUCTION = {"num_cards": 4, "my_bid": 3, "told": "won"}
BLUFF_PRIZE = 1


@checker(3, E1)
def check_possible_bids(their_possible_bids):
    """Exercise 1: 4-card hidden bids, I bid 3 and won: which cards could they have bid?"""
    if is_blank(their_possible_bids):
        return not_answered(E1, "their_possible_bids")
    cards = as_card_list(their_possible_bids)
    if cards is None:
        return wrong(E1, f"their_possible_bids should be a list of cards such as [1, 4], "
                         f"not {describe(their_possible_bids)}")
    truth = possible_bids(**DEDUCTION)
    for card in cards:
        if card not in range(1, 5):
            return wrong(E1, f"{card} is not a card of 4-card Gops (1 to 4)")
        if card not in truth:
            why = "a tie, not a win" if card == 3 else "a loss for you: a 4 beats your 3"
            return wrong(E1, f"{card} cannot be their bid: your 3 against their {card} is {why}",
                         "you won, so their card was lower than yours")
    missing = [c for c in truth if c not in cards]
    if missing:
        return wrong(E1, f"you missed {missing[0]}: your 3 beats a {missing[0]} too, and you would be told the same",
                     "list every card below 3")
    return correct(E1, "1 or 2: both give the same announcement, \"you won\". Those two positions form one "
                       "information set: your next bid must be the same in both, since you cannot tell them apart.")


@checker(3, E2)
def check_blind_information_sets(blind_sets):
    """Exercise 2: how many information sets player 1 has on turn 1 of 4-card Blind Goofspiel."""
    if is_blank(blind_sets):
        return not_answered(E2, "blind_sets")
    count = as_int(blind_sets)
    if count is None:
        return wrong(E2, f"blind_sets should be a whole number, not {describe(blind_sets)}")
    truth = first_turn_information_sets("blind")
    visible = first_turn_information_sets("hidden bids")
    if count == truth:
        return correct(E2, f"{truth}: before the first bid of Blind Goofspiel you know only your own full hand, "
                           f"so every deal looks the same (with the prize visible there are {visible}, one per prize).")
    if count == visible:
        return wrong(E2, f"{visible} would be right if you could see the prize, but in Blind Goofspiel the prize is "
                         "turned after the bids", "what differs between the deals, from where you sit?")
    if count in (16, 24):
        return wrong(E2, f"{count} counts positions of the game, not what you can tell apart",
                     "an information set groups every position that looks the same to you")
    return wrong(E2, f"{count} is not it", "list what you can see before the first bid: does any of it change?")


def _beat_honest_trial(strategy):
    return trial(strategy, ["match-prize"], num_cards=4, games=100, seed=17, hidden_bids=True).rows[0]


@checker(3, E3)
def check_beats_honest(strategy):
    """Exercise 3: a strategy that beats the honest bot (match-prize) in 4-card hidden-bid Gops."""
    if is_blank(strategy):
        return not_answered(E3, "beat_honest")
    if not callable(strategy):
        return wrong(E3, f"beat_honest should be a function of an observation, not {describe(strategy)}")
    problem = strategy_problem(strategy, num_cards=4, seed=5, opponent="match-prize", hidden_bids=True)
    if problem:
        return wrong(E3, problem, "return one of the cards in observation.legal_moves")
    diff = _beat_honest_trial(strategy)["mean difference"]
    if diff > 0:
        return correct(E3, f"you lead by {diff:.2f} points a game. The bids were hidden, but an honest bidder's "
                           "card is written on the prize: hiding your bids is no use if they are predictable.")
    if diff == 0:
        return wrong(E3, "every game was a draw: you bid what match-prize bids", "to take prize p you need a card above p")
    return wrong(E3, f"you lose {-diff:.2f} points a game to match-prize",
                 "match-prize bids the prize; beat it by one where you can, throw your lowest card where you cannot")


@checker(3, E4)
def check_bluff_reading(bluff_on_one):
    """Exercise 4: in 4-card hidden-bid Gops, how often the equilibrium bids above a prize of 1."""
    if is_blank(bluff_on_one):
        return not_answered(E4, "bluff_on_one")
    x = as_number(bluff_on_one)
    if x is None or not 0 <= x <= 1:
        return wrong(E4, f"bluff_on_one is a probability between 0 and 1, not {describe(bluff_on_one)}")
    probs, _mass = bid_given_prize(solve("hidden bids"), player=0)
    row = probs[BLUFF_PRIZE - 1]
    above, at = row[BLUFF_PRIZE:].sum(), row[BLUFF_PRIZE - 1]
    if abs(x - above) <= 0.02:
        return correct(E4, f"{above:.2f}: about one time in {round(1 / above)} the equilibrium spends a bigger card "
                           "on the smallest prize, so an opponent cannot count on its big cards still being there.")
    if abs(x - at) <= 0.02:
        return wrong(E4, f"{at:.2f} is the chance of bidding exactly 1", "add the bids 2, 3 and 4 in row 1")
    if abs(x - probs[BLUFF_PRIZE - 1, BLUFF_PRIZE]) <= 0.02:
        return wrong(E4, f"{x:.2f} is the chance of bidding 2 only; bids of 3 and 4 are above the 1 too",
                     "add the bids 2, 3 and 4 in row 1")
    return wrong(E4, f"{x:g} is not it", "read row 1 of the heat map and add the bids 2, 3 and 4")
