"""Lesson 1 (pure strategy): checkers for its exercises."""

from __future__ import annotations

import functools

import numpy as np

from ...errors import AgentError
from ..feedback import as_int, as_number, correct, describe, is_blank, not_answered, quoted_number_note, wrong
from ..pure import best_response, lead_against, lead_against_match_prize, plan_label, plan_matrix, points_against_random, strictly_dominated_plans
from ..strategies import SEAT_HINT, seat_leads, strategy_problem
from ._registry import checker

E1, E2, E3, E4, E5 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4", "Exercise 5"
# the positions exercise 4's function is tried on: full games, then positions match-prize's opponent
# reaches only by leaving the best path (a best reply must be best in every subgame)
FULL_GAMES = [(tuple(range(1, n + 1)), tuple(range(1, n + 1))) for n in (2, 3, 4, 5)]
OFF_PATH = [((1, 2), (2, 3)), ((1, 4), (2, 3)), ((1, 2, 5), (2, 3, 4)), ((2, 3, 4), (1, 2, 5))]


def match_prize_bid(prize, prizes):
    """Exercise 4's ``their_bid`` for match-prize: it bids the prize (so it always holds the prizes left)."""
    return prize


def greedy_high_bid(prize, prizes):
    """Exercise 4's ``their_bid`` for greedy-high: it spends its cards from the top, so with k prizes left it
    holds 1..k and bids k, whichever prize turns. Against it the order of the prizes matters."""
    return len(prizes)


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 0.01


@checker(1, E1)
def check_expected_points(expected_points):
    """Exercise 1: match-prize's expected points against a random bidder, 5 cards."""
    if is_blank(expected_points):
        return not_answered(E1, "expected_points")
    x = as_number(expected_points)
    if x is None:
        return wrong(E1, f"expected_points should be a number of points, not {describe(expected_points)}{quoted_number_note(expected_points)}")
    exact = points_against_random(range(1, 6))
    known = {
        float(exact.mine): None,
        float(exact.theirs): f"{x:g} is what the random opponent expects (and, here, also the gap between the two); "
                             "the question asks for match-prize's own points",
        7.5: "7.5 is half of the 15 points, as if neither player had an edge and no prize were ever tied; "
             "match-prize has an edge, and some prizes are tied and thrown away",
        float(exact.mine + exact.discarded): f"{x:g} counts the ties as wins, but a tied prize is thrown away",
        float(sum(p * (p - 1) for p in range(1, 6)) / 4): f"{x:g} divides by 4, but the random card is one of 5, the tied card included",
        15.0: "15 is every point in the game; match-prize loses some prizes and ties others",
        float(exact.discarded): f"{x:g} is what is thrown away on ties; the question asks for match-prize's own points",
        float(sum(p * (p - 1) for p in range(1, 6))): f"{x:g} is the sum of p(p - 1) before dividing by 5: each "
                                                      "chance (p - 1)/5 has the 5 below the line",
    }
    for value, message in known.items():
        if _close(x, value):
            if message is None:
                return correct(E1, f"{x:g} points: prize p is won when the random card is below p, "
                                   "with chance (p - 1)/5; summing p(p - 1)/5 over p = 1..5 gives 8.")
            return wrong(E1, message, "bidding card p on prize p wins it with chance (p - 1)/5")
    side = "high" if x > exact.mine else "low"
    return wrong(E1, f"{x:g} is too {side}", "add up p x (p - 1)/5 for the prizes p = 1, 2, 3, 4, 5")


@checker(1, E2)
def check_beats_match_prize(strategy):
    """Exercise 2: a strategy that beats match-prize on average in 5-card Gops."""
    if is_blank(strategy):
        return not_answered(E2, "beat_match_prize")
    if not callable(strategy):
        return wrong(E2, f"beat_match_prize should be a function of an observation, not {describe(strategy)}")
    problem = strategy_problem(strategy, num_cards=5, seed=3, opponent="match-prize")
    if problem:
        return wrong(E2, problem, "return one of the cards in observation.legal_moves")
    try:  # every prize order, from both seats: luck cannot pass or fail it
        leads = seat_leads(strategy, "match-prize", 5, seed=11)
    except AgentError as exc:
        return wrong(E2, f"in one of the 5-card games {exc}", "return one of the cards in observation.legal_moves")
    if leads.uneven:
        return wrong(E2, leads.uneven_text(), SEAT_HINT)
    lead = leads.overall
    if lead.clearly_positive:
        return correct(E2, f"you lead match-prize by {lead.text().lstrip('+')}; the exact best reply leads by "
                           f"{best_response('match-prize', num_cards=5).value:.2f}: it takes every prize but the 5.")
    if lead.mean > 0:
        return wrong(E2, f"your lead, {lead.text()}, could still be luck", "make it win every time it can")
    if abs(lead.mean) < 1e-9:
        return wrong(E2, f"on average you only draw with match-prize ({lead.text()})",
                     "to take prize p you need a card higher than p")
    return wrong(E2, f"match-prize leads you by {-lead.mean:.2f} points per game on average",
                 "to take prize p you need a card higher than p; when you cannot win, spend your lowest card")


@checker(1, E3)
def check_best_reply_points(best_reply_points):
    """Exercise 3: the exact best reply to match-prize in 6-card Gops wins n(n - 3)/2 = 9 points (n >= 3)."""
    if is_blank(best_reply_points):
        return not_answered(E3, "best_reply_points")
    x = as_int(best_reply_points)
    if x is None:
        return wrong(E3, f"best_reply_points should be a whole number of points, not {describe(best_reply_points)}{quoted_number_note(best_reply_points)}")
    messages = {
        9: None,
        15: "15 wins prizes 1 to 5, but you forgot the 6: match-prize bids the 6 on it and takes it (15 - 6 = 9)",
        21: "21 is every point; nobody can win the 6 against match-prize, who bids a 6 on it",
        5: "5 is the answer for 5-card Gops; the question is about 6 cards",
        0: "match-prize can be beaten: win each small prize with a card one higher",
        -6: "-6 counts only the 6 you give up; add the prizes 1 to 5 you take with a card one higher",
        14: "14 is the lead with 7 cards; the question is about 6 cards",
    }
    if x in messages:
        if messages[x] is None:
            return correct(E3, "9 points: take prizes 1..5 with a card one higher (15 points), "
                               "give up the 6 with your 1 (-6). With n cards, for n = 3 or more, the same plan "
                               "gives (1 + ... + (n - 1)) - n = n(n - 3)/2; with 2 cards the best reply only draws.")
        return wrong(E3, messages[x], "count what you win and what you give away, as a difference")
    return wrong(E3, f"{x} is not it", "which prizes can you take from match-prize, and which must you give up?")


def _variant_leads(hand, prizes, their_bid, over_prizes=np.mean, over_cards=max):
    """Backward induction against ``their_bid``, with a choice of rule at each kind of node.

    The right one keeps the best card (``max``) and averages over the prize (``np.mean``); the common
    slips average over your own cards (``over_cards=np.mean``) or choose the prize too
    (``over_prizes=max`` or ``min``).
    """
    if not prizes:
        return 0.0
    values = []
    for prize in prizes:
        rest = tuple(p for p in prizes if p != prize)
        theirs = their_bid(prize, prizes)
        options = [prize * int(np.sign(card - theirs)) + _variant_leads(tuple(c for c in hand if c != card), rest,
                                                                       their_bid, over_prizes, over_cards)
                   for card in hand]
        values.append(over_cards(options))
    return float(over_prizes(values))


@functools.lru_cache(maxsize=None)
def _truth(position, opponent: str) -> float:
    """The exact value: lesson 1's backward induction against match-prize or greedy-high (on full games it is
    the kit's best reply to the bot; tests check that)."""
    if opponent == "match-prize":
        return float(lead_against_match_prize(*position))
    return float(lead_against(*position, greedy_high_bid))


def _matches(answers, positions, expected) -> bool:
    return all(_close(answers[pos], expected(pos)) for pos in positions)


@checker(1, E4)
def check_backward_induction(best_lead):
    """Exercise 4: best_lead(hand, prizes, their_bid), the best reply's expected lead from any position.

    Tried against match-prize and against greedy-high (whose card depends on the turn, not the prize),
    on full games and off the path of play: against match-prize alone the prize order does not change
    the value, so a function that picked the prize instead of averaging would pass.
    """
    if is_blank(best_lead):
        return not_answered(E4, "best_lead")
    if not callable(best_lead):
        return wrong(E4, f"best_lead should be a function of (hand, prizes, their_bid), not {describe(best_lead)}")
    full = FULL_GAMES[2]
    calls = [(pos, "match-prize", match_prize_bid) for pos in FULL_GAMES + OFF_PATH]
    calls += [(pos, "greedy-high", greedy_high_bid) for pos in FULL_GAMES + OFF_PATH]
    answers = {}
    for pos, name, their_bid in calls:
        try:
            answers[(pos, name)] = best_lead(*pos, their_bid)
        except RecursionError:
            return wrong(E4, "your function calls itself for ever",
                         "start with the end: with no prizes left the lead is 0")
        except Exception as exc:  # the student's code may fail in any way: say how
            return wrong(E4, f"best_lead{pos} against {name} raised {type(exc).__name__}: {exc}",
                         "hand and prizes are tuples of cards and their_bid a function; pass all three on when "
                         "best_lead calls itself, and return a number")
    bad = [key for key, x in answers.items() if as_number(x) is None]
    if bad:
        (pos, name) = bad[0]
        return wrong(E4, f"best_lead{pos} against {name} returned {describe(answers[bad[0]])}, not a number",
                     "did every branch of your function `return` its value?")
    truth = {(pos, name): _truth(pos, name) for pos, name in answers}
    against = {name: {pos: float(answers[(pos, n)]) for pos, n in answers if n == name}
               for name in ("match-prize", "greedy-high")}
    if all(_close(answers[key], truth[key]) for key in answers):
        return correct(E4, f"every position right, against match-prize on the path of play and off it "
                           f"(best_lead{full} = {truth[(full, 'match-prize')]:g}, best_lead{OFF_PATH[1]} = "
                           f"{truth[(OFF_PATH[1], 'match-prize')]:g}), and against greedy-high "
                           f"(best_lead{full} = {truth[(full, 'greedy-high')]:.4g}): the reply is best in every "
                           "subgame, keeping the best card and averaging over the prize chance turns.")
    greedy = against["greedy-high"]
    everywhere = FULL_GAMES + OFF_PATH
    if _matches(greedy, everywhere, lambda pos: _variant_leads(*pos, match_prize_bid)):
        return wrong(E4, "against greedy-high you still compare your card with the prize: you left their_bid out",
                     "the opponent's card is their_bid(prize, prizes); your card beats it, loses to it or ties")
    for name, rule in (("the best prize", max), ("the worst prize", min)):
        if _matches(greedy, everywhere, lambda pos: _variant_leads(*pos, greedy_high_bid, over_prizes=rule)):
            return wrong(E4, f"you took {name} ({rule.__name__} over the prizes), as if you chose which prize turns; "
                             "chance turns it, each prize left equally likely. Against match-prize this slip "
                             "happens to give the right numbers (the prize order does not change what you can "
                             "win from it), but against greedy-high it does not",
                         "max over your cards, mean over the prize that turns")
    if _matches(greedy, everywhere, lambda pos: _variant_leads(*pos, greedy_high_bid, over_cards=np.mean)):
        return wrong(E4, "you averaged over your own cards; you choose your card, so keep the best one",
                     "max over your cards, mean over the prize that turns")
    if all(_close(answers[key], truth[key]) for key in answers if key[0] in FULL_GAMES):
        pos, name = next(k for k in answers if not _close(answers[k], truth[k]))
        return wrong(E4, f"right on full games but best_lead{pos} against {name} should be "
                         f"{truth[(pos, name)]:g}, not {float(answers[(pos, name)]):g}: a best reply must be best in "
                         "every position, even ones good play never reaches",
                     "compute the value from the cards, not from a formula for the full game")
    key = next(k for k in answers if not _close(answers[k], truth[k]))
    return wrong(E4, f"best_lead{key[0]} against {key[1]} should be {truth[key]:g}, not {float(answers[key]):g}",
                 "score +prize, -prize or 0 by comparing your card with their_bid(prize, prizes), "
                 "then add best_lead of what is left")


def _as_label(item) -> str:
    if isinstance(item, (tuple, list)):
        return plan_label(item)
    return str(item).strip()


def _signed(x) -> str:
    return f"{x:+g}" if x else "0"


def _not_strictly_dominated(game, label: str) -> str:
    """Why plan ``label`` is not strictly dominated: a plan that only weakly dominates it, and where they tie;
    or, if none does, the plan closest to beating it and a column where it does not."""
    A, plans = game.payoffs, list(game.row_labels)
    i = plans.index(label)
    row, others = A[i], [k for k in range(len(plans)) if k != i]
    weak = [k for k in others if np.all(A[k] >= row) and np.any(A[k] > row)]
    if weak:
        k = weak[0]
        ties = [j for j in range(len(plans)) if A[k, j] == row[j]]
        where = " and ".join(game.col_labels[j] for j in ties)
        scores = ", ".join(f"{_signed(row[j])} against {game.col_labels[j]}" for j in ties)
        return (f"plan {label} is only weakly dominated: {plans[k]} scores at least as much against every opposing "
                f"plan and more against the other {len(plans) - len(ties)}, but against {where} the two score the "
                f"same ({scores}). Strictly dominated means another plan scores more in every column")
    k = max(others, key=lambda k: (int(np.sum(A[k] > row)), -k))
    j = next(j for j in range(len(plans)) if A[k, j] <= row[j])
    return (f"plan {label} is not strictly dominated: no other plan scores more than it against every opposing "
            f"plan. Even {plans[k]}, which scores more against {int(np.sum(A[k] > row))} of the {len(plans)} plans, "
            f"scores {_signed(A[k, j])} against {game.col_labels[j]}, where {label} scores {_signed(row[j])}")


def _plan_form(label: str) -> str:
    """For a label with separators in it: how to write one plan, or several (a clause to add), else ""."""
    parts = [part for part in label.replace(";", ",").replace(" ", ",").split(",") if part]
    if len(parts) < 2:
        return ""
    if all(len(part) == 1 for part in parts):
        return f": write one plan's cards together, such as \"{''.join(parts)}\""
    return f": to name several plans, make a list of strings, such as {parts}"


@checker(1, E5)
def check_dominated_plans(dominated):
    """Exercise 5: the strictly dominated plans of 3-card plan Gops."""
    if is_blank(dominated):
        return not_answered(E5, "dominated")
    if isinstance(dominated, (str, int)) or not hasattr(dominated, "__iter__"):
        dominated = [dominated]
    labels = [_as_label(item) for item in dominated]
    game = plan_matrix(3)
    plans = list(game.row_labels)
    unknown = [label for label in labels if label not in plans]
    if unknown:
        return wrong(E5, f"{', '.join(unknown)} is not a plan of 3-card Gops; a plan lists the card bid on prizes "
                         f"1, 2, 3, each card once: {', '.join(plans)}{_plan_form(unknown[0])}")
    truth = strictly_dominated_plans(3)
    extra = [label for label in labels if label not in truth]
    missing = [label for label in truth if label not in labels]
    if extra:
        return wrong(E5, _not_strictly_dominated(game, extra[0]),
                     "a plan is strictly dominated when one other row is larger in every column")
    if missing:
        label = missing[0]
        return wrong(E5, f"you missed plan {label}: plan {truth[label][0]} scores more than it against every "
                         "opposing plan", "compare the rows of the matrix column by column")
    return correct(E5, "only 321 is strictly dominated (by 123): it puts the big card on the small prize "
                       "and the small card on the big one.")
