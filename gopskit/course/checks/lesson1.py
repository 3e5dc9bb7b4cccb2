"""Lesson 1 (pure strategy): checkers for its exercises."""

from __future__ import annotations

import numpy as np

from ...errors import AgentError
from ..feedback import as_int, as_number, correct, describe, is_blank, not_answered, wrong
from ..pure import best_response, lead_against_match_prize, plan_label, plan_matrix, points_against_random, strictly_dominated_plans
from ..strategies import exact_lead, strategy_problem
from ._registry import checker

E1, E2, E3, E4, E5 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4", "Exercise 5"
# the positions exercise 4's function is tried on: full games, then positions match-prize's opponent
# reaches only by leaving the best path (a best reply must be best in every subgame)
FULL_GAMES = [(tuple(range(1, n + 1)), tuple(range(1, n + 1))) for n in (2, 3, 4, 5)]
OFF_PATH = [((1, 2), (2, 3)), ((1, 4), (2, 3)), ((1, 2, 5), (2, 3, 4)), ((2, 3, 4), (1, 2, 5))]


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 0.01


@checker(1, E1)
def check_expected_points(expected_points):
    """Exercise 1: match-prize's expected points against a random bidder, 5 cards."""
    if is_blank(expected_points):
        return not_answered(E1, "expected_points")
    x = as_number(expected_points)
    if x is None:
        return wrong(E1, f"expected_points should be a number of points, not {describe(expected_points)}")
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
    try:
        lead = exact_lead(strategy, "match-prize", 5, seed=11)  # every prize order: luck cannot pass or fail it
    except AgentError as exc:
        return wrong(E2, f"in one of the 5-card games {exc}", "return one of the cards in observation.legal_moves")
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
    """Exercise 3: the exact best reply to match-prize in 6-card Gops wins n(n - 3)/2 = 9 points."""
    if is_blank(best_reply_points):
        return not_answered(E3, "best_reply_points")
    x = as_int(best_reply_points)
    if x is None:
        return wrong(E3, f"best_reply_points should be a whole number of points, not {describe(best_reply_points)}")
    messages = {
        9: None,
        15: "15 wins prizes 1 to 5, but you forgot the 6: match-prize bids the 6 on it and takes it (15 - 6 = 9)",
        21: "21 is every point; nobody can win the 6 against match-prize, who bids a 6 on it",
        5: "5 is the answer for 5-card Gops; the question is about 6 cards",
        0: "match-prize can be beaten: win each small prize with a card one higher",
    }
    if x in messages:
        if messages[x] is None:
            return correct(E3, "9 points: take prizes 1..5 with a card one higher (15 points), "
                               "give up the 6 with your 1 (-6). In general n(n - 3)/2.")
        return wrong(E3, messages[x], "count what you win and what you give away, as a difference")
    return wrong(E3, f"{x} is not it", "which prizes can you take from match-prize, and which must you give up?")


def _variant_leads(hand, prizes, over_prizes, over_cards):
    """The backward induction with a common slip (``over_cards=np.mean``: averaging over your own cards)."""
    if not prizes:
        return 0.0
    values = []
    for prize in prizes:
        rest = tuple(p for p in prizes if p != prize)
        options = [prize * int(np.sign(card - prize)) + _variant_leads(tuple(c for c in hand if c != card), rest,
                                                                      over_prizes, over_cards) for card in hand]
        values.append(over_cards(options))
    return over_prizes(values)


@checker(1, E4)
def check_backward_induction(best_lead):
    """Exercise 4: best_lead(hand, prizes), the best reply's expected lead over match-prize from any position."""
    if is_blank(best_lead):
        return not_answered(E4, "best_lead")
    if not callable(best_lead):
        return wrong(E4, f"best_lead should be a function of (hand, prizes), not {describe(best_lead)}")
    full = FULL_GAMES[2]
    try:
        answers = {pos: best_lead(*pos) for pos in FULL_GAMES + OFF_PATH}
    except RecursionError:
        return wrong(E4, "your function calls itself for ever", "start with the end: with no prizes left the lead is 0")
    except Exception as exc:  # the student's code may fail in any way: say how
        return wrong(E4, f"best_lead{full} raised {type(exc).__name__}: {exc}",
                     "hand and prizes are tuples of cards; return a number")
    bad = [pos for pos, x in answers.items() if as_number(x) is None]
    if bad:
        return wrong(E4, f"best_lead{bad[0]} returned {describe(answers[bad[0]])}, not a number",
                     "did every branch of your function `return` its value?")
    truth = {pos: float(lead_against_match_prize(*pos)) for pos in answers}
    if all(_close(answers[pos], truth[pos]) for pos in answers):
        return correct(E4, f"every position right, on the path of play and off it (best_lead{full} = {truth[full]:g}, "
                           f"best_lead{OFF_PATH[1]} = {truth[OFF_PATH[1]]:g}): the reply is best in every subgame.")
    if all(_close(answers[pos], truth[pos]) for pos in FULL_GAMES):
        pos = next(p for p in OFF_PATH if not _close(answers[p], truth[p]))
        return wrong(E4, f"right on full games but best_lead{pos} should be {truth[pos]:g}, not {float(answers[pos]):g}: "
                         "a best reply must be best in every position, even ones good play never reaches",
                     "compute the value from the cards, not from a formula for the full game")
    if all(_close(answers[pos], _variant_leads(*pos, np.mean, np.mean)) for pos in FULL_GAMES):
        return wrong(E4, "you averaged over your own cards; you choose your card, so keep the best one",
                     "max over your cards, mean over the prize that turns")
    pos = next(p for p in FULL_GAMES + OFF_PATH if not _close(answers[p], truth[p]))
    return wrong(E4, f"best_lead{pos} should be {truth[pos]:g}, not {float(answers[pos]):g}",
                 "score +prize, -prize or 0 against the card equal to the prize, then add best_lead of what is left")


def _as_label(item) -> str:
    if isinstance(item, (tuple, list)):
        return plan_label(item)
    return str(item).strip()


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
                         f"1, 2, 3, each card once: {', '.join(plans)}")
    truth = strictly_dominated_plans(3)
    extra = [label for label in labels if label not in truth]
    missing = [label for label in truth if label not in labels]
    if extra:
        label = extra[0]
        row = game.payoffs[plans.index(label)]
        best = plans[int(np.argmax(row))]
        return wrong(E5, f"plan {label} is not strictly dominated: no other plan does better than it against "
                         f"every opposing plan (against {best} it scores {row.max():+g})",
                     "a plan is strictly dominated when one other row is larger in every column")
    if missing:
        label = missing[0]
        return wrong(E5, f"you missed plan {label}: plan {truth[label][0]} scores more than it against every "
                         "opposing plan", "compare the rows of the matrix column by column")
    return correct(E5, "only 321 is strictly dominated (by 123): it puts the big card on the small prize "
                       "and the small card on the big one.")
