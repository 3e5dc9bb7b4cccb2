"""Lesson 3 (bluffing and hidden information): checkers for its exercises."""

from __future__ import annotations

from ...errors import AgentError
from ..feedback import as_card_list, as_int, as_number, correct, describe, is_blank, not_answered, quoted_number_note, wrong
from ..hidden import INFOSET_EXERCISE, first_turn_information_sets, information_set_values, possible_bids
from ..strategies import SEAT_HINT, seat_leads, strategy_problem
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"
DEDUCTION = {"num_cards": 4, "my_bid": 3, "told": "won"}


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
        return wrong(E2, f"blind_sets should be a whole number, not {describe(blind_sets)}{quoted_number_note(blind_sets)}")
    truth = first_turn_information_sets("blind")
    visible = first_turn_information_sets("hidden bids")
    if count == truth:
        return correct(E2, f"{truth}: before the first bid of Blind Goofspiel you know only your own full hand, "
                           f"so every deal looks the same (with the prize visible there are {visible}, one per prize).")
    if count == visible:
        return wrong(E2, f"{visible} would be right if you could see the prize, but in Blind Goofspiel the prize is "
                         "turned after the bids", "what differs between the deals, from where you sit?")
    if count <= 0:
        return wrong(E2, f"{count} cannot be: every position where you bid lies in some information set, so there is "
                         "at least one", "what do you see before your first bid?")
    if count in (16, 24):
        return wrong(E2, f"{count} counts positions of the game, not what you can tell apart",
                     "an information set groups every position that looks the same to you")
    return wrong(E2, f"{count} is not it", "list what you can see before the first bid: does any of it change?")


def _beat_honest_lead(strategy):
    """The exact leads over match-prize with hidden bids (every prize order, both seats), or a sentence naming the failure."""
    try:
        return seat_leads(strategy, "match-prize", 4, seed=17, hidden_bids=True)
    except AgentError as exc:
        return f"in one of the 4-card games {exc}"


@checker(3, E3)
def check_beats_honest(strategy):
    """Exercise 3: a strategy that beats the honest bot (match-prize) in 4-card hidden-bid Gops, from both seats."""
    if is_blank(strategy):
        return not_answered(E3, "beat_honest")
    if not callable(strategy):
        return wrong(E3, f"beat_honest should be a function of an observation, not {describe(strategy)}")
    problem = strategy_problem(strategy, num_cards=4, seed=5, opponent="match-prize", hidden_bids=True)
    if problem:
        return wrong(E3, problem, "return one of the cards in observation.legal_moves")
    leads = _beat_honest_lead(strategy)
    if isinstance(leads, str):
        return wrong(E3, leads, "return one of the cards in observation.legal_moves")
    if leads.uneven:
        return wrong(E3, leads.uneven_text(), SEAT_HINT)
    lead = leads.overall
    if lead.clearly_positive:
        return correct(E3, f"you lead by {lead.text().lstrip('+')}. The bids were hidden, but an honest bidder's "
                           "card is written on the prize: hiding your bids is no use if they are predictable.")
    if lead.mean > 0:
        return wrong(E3, f"your lead, {lead.text()}, could still be luck", "make it win every time it can")
    if abs(lead.mean) < 1e-9:
        return wrong(E3, f"on average you only draw with match-prize ({lead.text()})",
                     "to take prize p you need a card above p")
    return wrong(E3, f"you lose {-lead.mean:.2f} points a game to match-prize",
                 "match-prize bids the prize; beat it by one where you can, throw your lowest card where you cannot")


def _as_values(answer):
    """``{1: x, 2: y}`` with number values, else None."""
    if not isinstance(answer, dict):
        return None
    keys = {as_int(k): as_number(v) for k, v in answer.items()}
    return None if None in keys or None in keys.values() else keys


def _values_problem(answer, bids) -> str:
    """What exactly is wrong with a malformed ``info_set_values`` (a clause to add to the message), or ""."""
    if not isinstance(answer, dict):
        return ""
    for key, value in answer.items():
        if isinstance(key, str):
            return f": the keys are the cards as numbers, {bids[0]} not \"{key}\""
        if as_int(key) not in bids:
            return f": you do not hold a {describe(key)} on turn 2, only the {bids[0]} and the {bids[1]}"
        if as_number(value) is None:
            return f": the value of bid {as_int(key)} is {describe(value)}, not a number"
    missing = [b for b in bids if b not in {as_int(k) for k in answer}]
    return f": the value of bid {missing[0]} is missing" if missing else ""


@checker(3, E4)
def check_information_set_values(info_set_values):
    """Exercise 4: the value of each next bid at one information set (hidden bids, a mostly honest opponent)."""
    if is_blank(info_set_values):
        return not_answered(E4, "info_set_values")
    answer = _as_values(info_set_values)
    truth = information_set_values()
    bids = sorted(truth.values)
    if answer is None or sorted(answer) != bids:
        return wrong(E4, f"info_set_values should be a dict with one number per card you hold, like "
                         f"{{{bids[0]}: -1.5, {bids[1]}: 0.25}}; not {describe(info_set_values)}"
                         f"{_values_problem(info_set_values, bids)}")
    uniform = {b: sum(float(v[b]) for v in truth.per_position.values()) / len(truth.per_position) for b in bids}
    best = max(bids, key=lambda b: truth.values[b])
    belief = " and ".join(f"{t} with chance {chance}" for t, chance in truth.belief.items())
    if all(abs(answer[b] - float(truth.values[b])) <= 0.01 for b in bids):
        other = next(b for b in bids if b != best)
        worse = [f"in the position where they bid {t}, bid {max(bids, key=lambda b: v[b])} would be better"
                 for t, v in truth.per_position.items() if max(bids, key=lambda b: v[b]) != best]
        equal = max(bids, key=lambda b: uniform[b])
        decides = (f" Weighing the two positions equally would have picked bid {equal}: the belief decides."
                   if equal != best else "")
        return correct(E4, f"bid {best} is worth {float(truth.values[best]):+.3f}, bid {other} "
                           f"{float(truth.values[other]):+.3f}, with the belief that they bid {belief}. "
                           f"{'; '.join(worse).capitalize()}, but you cannot tell the positions apart, so you weigh "
                           f"them by your belief and bid one card in both.{decides}")
    for theirs, values in truth.per_position.items():
        if all(abs(answer[b] - float(values[b])) <= 0.01 for b in bids):
            return wrong(E4, f"those are the values if you knew they had bid {theirs}, but you were only told you won",
                         "average the two positions, each with its chance given what you were told")
    first_turn = INFOSET_EXERCISE["prize_order"][0]
    if all(abs(answer[b] - first_turn - float(truth.values[b])) <= 0.01 for b in bids):
        return wrong(E4, f"you added the {first_turn} points already won on the first turn",
                     "count only the turns still to come")
    if all(abs(answer[b] - uniform[b]) <= 0.01 for b in bids):
        return wrong(E4, f"you weighted the positions equally, but they are not equally likely: given \"you won\", "
                         f"their first bid was {belief}. Weighted that way bid {best} is the better one; equal weights "
                         f"pick bid {max(bids, key=lambda b: uniform[b])}",
                     "Bayes: each position's chance is the chance of their bid, among the bids that fit 'you won'")
    unscaled = {b: sum(float(truth.prior[t] * v[b]) for t, v in truth.per_position.items()) for b in bids}
    if all(abs(answer[b] - unscaled[b]) <= 0.01 for b in bids):
        total = sum(truth.prior.values())
        return wrong(E4, f"your weights are the chances before you were told, which add up to {total}, not 1: "
                         "divide each by the chance of hearing \"you won\"",
                     "belief = chance of the bid / chance of all the bids that fit what you were told")
    b = next(b for b in bids if abs(answer[b] - float(truth.values[b])) > 0.01)
    return wrong(E4, f"bid {b} is not worth {answer[b]:g}",
                 "for each position and each of their replies: points on the next two turns, times the chance")
