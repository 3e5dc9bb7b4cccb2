"""Lesson 5 (a class tournament): checkers for its exercises.

The two strategy exercises are judged by :func:`~gopskit.course.strategies.seat_leads`,
never by a handful of sampled games: a strategy whose true lead is 0 must
not pass because the dice were kind. A strategy that does not use randomness
is evaluated exactly (every prize order, every reply of the opponent,
weighted by its probabilities, from both seats); one that does is played
thousands of times from each seat and passes only when its whole 95 %
interval lies above 0. A strategy that leads by different amounts from the
two seats reads something by seat number (``observation.hands[1]`` taken
for the opponent's hand): the check names that mistake.

>>> from gopskit.course.checks import check_my_strategy
>>> def strongest(observation):
...     return max(observation.legal_moves)
>>> check_my_strategy(strongest).ok
False
"""

from __future__ import annotations

import functools

from scipy import stats

from ...errors import AgentError
from ...games.goofspiel import Goofspiel, GoofspielState
from ..classroom import NUM_CARDS, ben, cleo, demo_pairing, demo_tournament
from ..feedback import as_number, correct, describe, is_blank, not_answered, quoted_number_note, wrong
from ..pure import best_response
from ..strategies import SEAT_HINT, as_agent, exact_lead, seat_leads, strategy_problem
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"
DEMO_PAIR = ("equilibrium", "one-higher")


def _strategy_problem(strategy, name: str, exercise: str, opponent: str):
    """Feedback for a blank, non-function or misbehaving strategy (in a tournament-sized and a full game)."""
    if is_blank(strategy):
        return not_answered(exercise, name)
    if not callable(strategy):
        return wrong(exercise, f"{name} should be a function of an observation, not {describe(strategy)}")
    for cards in (NUM_CARDS, 13):
        problem = strategy_problem(strategy, num_cards=cards, seed=9, opponent=opponent)
        if problem:
            return wrong(exercise, f"in a {cards}-card game {problem}", "return one of observation.legal_moves")
    return None


def _judged_lead(strategy, name: str, exercise: str, opponent: str, seed: int):
    """``(lead over both seats, None)`` for a strategy that plays legally and alike from both seats;
    else ``(None, the feedback that says what is wrong)``."""
    problem = _strategy_problem(strategy, name, exercise, opponent)
    if problem is not None:
        return None, problem
    try:
        leads = seat_leads(strategy, opponent, NUM_CARDS, seed=seed)
    except AgentError as exc:  # it misbehaves in a position the trial games missed
        return None, wrong(exercise, f"in one of the {NUM_CARDS}-card games {exc}", "return one of observation.legal_moves")
    if leads.uneven:
        return None, wrong(exercise, leads.uneven_text(), SEAT_HINT)
    return leads.overall, None


@checker(5, E1)
def check_my_strategy(my_strategy):
    """Exercise 1: a strategy that plays every game legally and leads the random bot, beyond sampling noise."""
    lead, feedback = _judged_lead(my_strategy, "my_strategy", E1, "random", 21)
    if feedback is not None:
        return feedback
    if lead.clearly_positive:
        return correct(E1, f"it plays legally and leads the random bot in {NUM_CARDS}-card games by "
                           f"{lead.text().lstrip('+')}. Ready for the tournament.")
    if lead.exact and abs(lead.mean) < 1e-9:
        return wrong(E1, f"it plays legally, but its lead over the random bot is exactly 0 ({lead.text()}): "
                         "on average it only breaks even", "lesson 1: against a random bidder, bid the prize")
    if not lead.exact and lead.high > 0:
        return wrong(E1, f"it plays legally, but its lead over the random bot, {lead.text()}, could be 0: "
                         "the interval reaches below 0", "lesson 1: against a random bidder, bid the prize")
    return wrong(E1, f"it plays legally but trails the random bot: {lead.text()}",
                 "lesson 1: against a random bidder, bidding the prize is best")


def _two_above(cards, prize):
    above = [card for card in cards if card >= prize + 2]
    return min(above) if above else min(cards)


def _bids_two_above(strategy) -> bool:
    """True if, on the first turn of every deal, the strategy bids one-higher's card plus one where it can, and its
    lowest card where it cannot: then the worked answer's explanation fits it."""
    rules = Goofspiel(num_cards=NUM_CARDS)
    agent = as_agent(strategy)
    cards = tuple(range(1, NUM_CARDS + 1))
    try:
        for prize in cards:
            deck = (prize, *[c for c in cards if c != prize])
            if agent.act(GoofspielState(rules, deck).observation(0)) != _two_above(cards, prize):
                return False
    except Exception:  # noqa: BLE001 - the student's code, already played cleanly; any surprise means "no"
        return False
    return True


@checker(5, E2)
def check_beats_one_higher(beat_one_higher):
    """Exercise 2: a strategy that beats one-higher on average, beyond sampling noise."""
    lead, feedback = _judged_lead(beat_one_higher, "beat_one_higher", E2, "one-higher", 23)
    if feedback is not None:
        return feedback
    if lead.clearly_positive:
        why = (" Two above the prize beats one above, and a card thrown away costs one-higher a card it wanted."
               if _bids_two_above(beat_one_higher) else "")
        best = best_response("one-higher", num_cards=NUM_CARDS).value
        return correct(E2, f"you lead one-higher by {lead.text().lstrip('+')}.{why} For comparison, the exact best "
                           f"reply to one-higher leads by {best:.2f}.")
    if lead.mean > 0:
        return wrong(E2, f"your lead, {lead.text()}, could still be luck", "make it win every time it can")
    if abs(lead.mean) < 1e-9:
        return wrong(E2, f"on average you only break even ({lead.text()})",
                     "one-higher bids the cheapest card above the prize (one above, when it still holds it): what beats that?")
    return wrong(E2, f"one-higher leads you: {lead.text().replace('+', '', 1).replace('-', '', 1)}",
                 "one-higher bids the cheapest card above the prize (one above, when it still holds it), else its lowest card: "
                 "bid two above, or give the prize up cheaply")


@functools.lru_cache(maxsize=1)
def cleo_over_ben() -> float:
    """cleo's exact expected lead over ben per 4-card game (both deterministic: every prize order)."""
    return exact_lead(cleo, ben, NUM_CARDS).mean


@checker(5, E3)
def check_cleo_vs_ben(cleo_lead):
    """Exercise 3: by how many points a game does cleo (strongest card first) lead ben (middle card)?"""
    if is_blank(cleo_lead):
        return not_answered(E3, "cleo_lead")
    value = as_number(cleo_lead)
    if value is None:
        return wrong(E3, f"cleo_lead should be a number of points, such as 1.5, not {describe(cleo_lead)}{quoted_number_note(cleo_lead)}")
    truth = cleo_over_ben()
    if abs(value - truth) < 0.01:
        return correct(E3, f"{truth:+.2f}. cleo bids 4, 3, 2, 1 and ben 3, 2, 4, 1: cleo takes turns 1 and 2, "
                           "ben turn 3, turn 4 is a tie. Each turn's prize is 2.5 on average, so the lead is "
                           "2.5 + 2.5 - 2.5.")
    if abs(value + truth) < 0.01:
        return wrong(E3, f"{value:+.2f} is ben's lead over cleo", "cleo_lead is cleo's points minus ben's")
    if abs(value - 2 * truth) < 0.01:
        return wrong(E3, f"{value:g} is cleo's points a game, not her lead", "subtract ben's points")
    if abs(value - 5.0) < 0.01 or abs(value - 10 / 3) < 0.01:
        return wrong(E3, f"{value:g} is not it: ben does win a turn", "on turn 3, cleo has 2 left, ben still has his 4")
    if abs(value - 7.5) < 0.01 or abs(value - 10) < 0.01:
        return wrong(E3, f"{value:g} would mean cleo wins every turn{' but one' if value < 10 else ''} and ben none, as "
                         "if the highest card always won: ben's 4 takes turn 3 from her 2, and turn 4 is a tie",
                     "write ben's bids too: 3, then 2, then 4, then 1")
    if abs(value) < 0.01:
        return wrong(E3, "0 would mean they break even, but their bids differ on three of the four turns",
                     "write down both players' four bids turn by turn and see who wins each")
    return wrong(E3, f"{value:g} is not cleo's expected lead",
                 "write down both players' four bids turn by turn; every turn's prize is 2.5 on average")


def _demo_interval():
    results = demo_tournament()
    return demo_pairing(results, *DEMO_PAIR), results.compare(*DEMO_PAIR)


@checker(5, E4)
def check_interval(interval):
    """Exercise 4: the 95 % interval of the equilibrium's lead over one-higher, per deal, in the demo."""
    if is_blank(interval):
        return not_answered(E4, "interval")
    try:
        low, high = (as_number(v) for v in interval)
    except (TypeError, ValueError):
        return wrong(E4, f"interval should be two numbers (low, high), not {describe(interval)}{quoted_number_note(interval)}")
    if low is None or high is None:
        return wrong(E4, f"interval should be two numbers (low, high), not {describe(interval)}{quoted_number_note(interval)}")
    if low > high:
        return wrong(E4, f"the low end {low:.2f} is above the high end {high:.2f}", "interval = (low, high)")
    _gaps, row = _demo_interval()
    n, mean, sd = row["n"], row["mean"], row["sd"]
    sd_n = sd * ((n - 1) / n) ** 0.5  # np.std(gaps) without ddof=1 divides by n
    t = float(stats.t.ppf(0.975, n - 1))
    half_t = row["high"] - mean
    centre = (low + high) / 2
    if abs(centre - mean) > 0.02:
        return wrong(E4, f"the interval should be centred on the mean difference, {mean:+.2f}; yours is centred "
                         f"on {centre:+.2f}", "centre = the mean of gaps")
    half = (high - low) / 2
    t_n = float(stats.t.ppf(0.975, n))  # the slip: n degrees of freedom instead of n - 1
    slips = {"t for n": t_n * sd / n ** 0.5, "ddof": t * sd_n / n ** 0.5, "1.96": 1.96 * sd / n ** 0.5,
             "1.96 and ddof": 1.96 * sd_n / n ** 0.5}
    nearest = min(slips, key=lambda name: abs(half - slips[name]))

    def near(value: float) -> bool:
        # within rounding, and nearer the right width than any slip (t for n and for n - 1 differ by under 0.01)
        return abs(half - value) < 0.01 and abs(half - value) <= abs(half - slips[nearest])

    if near(half_t):
        verdict = ("0 lies inside it: over these deals the equilibrium and one-higher are tied within noise; "
                   f"the {mean:+.2f} is luck, not a loss" if row["low"] <= 0 <= row["high"] else
                   "0 lies outside it: the difference is real")
        return correct(E4, f"{low:+.2f} to {high:+.2f} over {n} deals, with Student's t for {n - 1} degrees of freedom "
                           f"({t:.2f}), as the kit's table does. {verdict}.")
    ddof = "np.std(gaps) without ddof=1 divides by n; the sample standard deviation divides by n - 1"
    if near(slips["t for n"]):
        return wrong(E4, f"your half-width {half:.3f} is a little too narrow: it uses {t_n:.3f}, that is Student's t "
                         f"for n degrees of freedom ({n}); use n - 1 = {n - 1} ({t:.3f}), because the mean of the "
                         "gaps uses one up", "stats.t.ppf(0.975, len(gaps) - 1)")
    if near(slips["ddof"]):
        return wrong(E4, f"your half-width {half:.2f} is a little too narrow: {ddof}",
                     "np.std(gaps, ddof=1)")
    if near(slips["1.96"]):
        return wrong(E4, f"your half-width {half:.2f} uses 1.96, the normal value, which holds for many deals; with "
                         f"only {n} deals the mean wanders more, and Student's t for {n - 1} degrees of freedom is "
                         f"{t:.2f}", "stats.t.ppf(0.975, len(gaps) - 1)")
    if near(slips["1.96 and ddof"]):
        return wrong(E4, f"your half-width {half:.2f} is too narrow, for two reasons: it uses 1.96 instead of Student's "
                         f"t for {n - 1} degrees of freedom ({t:.2f}), and {ddof}",
                     "stats.t.ppf(0.975, len(gaps) - 1) and np.std(gaps, ddof=1)")
    if any(abs(half - k * s) < 0.05 for k in (t, 1.96, 2) for s in (sd, sd_n)):
        return wrong(E4, f"your half-width {half:.2f} is about 2 standard deviations of one deal",
                     "the mean of n deals wanders less: divide the standard deviation by the square root of n")
    return wrong(E4, f"your half-width {half:.2f} is not t x (standard deviation of gaps) / square root of {n}",
                 "half-width = stats.t.ppf(0.975, len(gaps) - 1) x np.std(gaps, ddof=1) / np.sqrt(len(gaps))")
