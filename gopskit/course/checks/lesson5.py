"""Lesson 5 (a class tournament): checkers for its exercises."""

from __future__ import annotations

from ..classroom import NUM_CARDS, demo_tournament, most_opponents_beaten, tournament_winner
from ..feedback import correct, describe, is_blank, not_answered, wrong
from ..strategies import strategy_problem, trial
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"


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


@checker(5, E1)
def check_my_strategy(my_strategy):
    """Exercise 1: a strategy that plays every game legally and beats the random bot on average."""
    problem = _strategy_problem(my_strategy, "my_strategy", E1, "random")
    if problem is not None:
        return problem
    row = trial(my_strategy, ["random"], num_cards=NUM_CARDS, games=200, seed=21).rows[0]
    if row["mean difference"] > 0:
        return correct(E1, f"it plays legally and leads the random bot by {row['mean difference']:.2f} points a "
                           f"game ({NUM_CARDS} cards, 200 games). Ready for the tournament.")
    return wrong(E1, f"it plays legally but trails the random bot by {-row['mean difference']:.2f} points a game",
                 "lesson 1: against a random bidder, bidding the prize is best")


@checker(5, E2)
def check_beats_one_higher(beat_one_higher):
    """Exercise 2: a strategy that beats one-higher on average."""
    problem = _strategy_problem(beat_one_higher, "beat_one_higher", E2, "one-higher")
    if problem is not None:
        return problem
    diff = trial(beat_one_higher, ["one-higher"], num_cards=NUM_CARDS, games=100, seed=23).rows[0]["mean difference"]
    if diff > 0:
        return correct(E2, f"you lead one-higher by {diff:.2f} points a game: two above the prize beats one "
                           "above, and a card thrown away costs one-higher a card it wanted.")
    if diff == 0:
        return wrong(E2, "every game was even", "one-higher bids one above the prize: what beats that?")
    return wrong(E2, f"one-higher leads you by {-diff:.2f} points a game",
                 "one-higher bids one above the prize: bid two above, or give the prize up cheaply")


def _name_answer(answer, variable: str, exercise: str, results):
    if is_blank(answer):
        return None, not_answered(exercise, variable)
    if not isinstance(answer, str) or answer.strip() not in results.names:
        return None, wrong(exercise, f"{variable} should be the name of an entry, one of "
                                     f"{', '.join(results.names)}; not {describe(answer)}")
    return answer.strip(), None


@checker(5, E3)
def check_winner(winner, results=None):
    """Exercise 3: the entry that won the (demo) tournament."""
    results = results if results is not None else demo_tournament()
    name, problem = _name_answer(winner, "winner", E3, results)
    if problem is not None:
        return problem
    truth = tournament_winner(results)
    if name == truth:
        return correct(E3, f"{truth}: the most points per game. It scores heavily against the weaker entries.")
    row = next(r for r in results.ranking() if r["name"] == name)
    return wrong(E3, f"{name} is ranked {row['rank']} with {row['mean_points']:.2f} points per game",
                 "the ranking sorts by mean points: look at rank 1")


@checker(5, E4)
def check_most_beaten(most_beaten, results=None):
    """Exercise 4: the entry that outscores the most opponents head to head."""
    results = results if results is not None else demo_tournament()
    name, problem = _name_answer(most_beaten, "most_beaten", E4, results)
    if problem is not None:
        return problem
    best = most_opponents_beaten(results)
    beaten = {r["name"]: r["opponents_beaten"] for r in results.ranking()}
    if name in best:
        winner = tournament_winner(results)
        twist = "" if name == winner else f", yet it did not win the tournament: {winner} did"
        return correct(E4, f"{name} outscores {beaten[name]} of its {len(beaten) - 1} opponents head to head{twist}. "
                           "An equilibrium cannot be beaten on average, but it does not exploit weak play.")
    return wrong(E4, f"{name} outscores {beaten[name]} opponents head to head; {best[0]} outscores {beaten[best[0]]}",
                 "read the 'beats' column, or the rows of the head-to-head heat map")
