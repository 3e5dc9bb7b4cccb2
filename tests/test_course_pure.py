"""Lesson 1's helpers: exact expectations against a random bidder, plan matrices, exact best replies."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gopskit.agents.base import Agent
from gopskit.arena.match import play_game
from gopskit.course import pure
from gopskit.course.strategies import FunctionAgent, strategy_problem, trial, try_against
from gopskit.errors import AgentError, OptionError
from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers.matrix import eliminate_dominated


def test_two_card_plans_against_random_by_hand():
    # plan 12: prize 2 is won when their card is 1 (chance 1/2): 1 point; prize 1 is never won.
    # They win prize 1 with their 2 (chance 1/2): 1/2 point. Ties: 1/2 x 1 + 1/2 x 2 = 3/2 thrown away.
    assert pure.points_against_random([1, 2]) == (Fraction(1), Fraction(1, 2), Fraction(3, 2))
    assert pure.points_against_random([2, 1]) == (Fraction(1, 2), Fraction(1), Fraction(3, 2))


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(range(1, 7))))
def test_matching_the_prize_is_the_best_plan_and_points_add_up(plan):
    points = pure.points_against_random(plan)
    assert sum(points) == 21
    assert points.difference <= pure.points_against_random(range(1, 7)).difference


def test_exact_expectation_agrees_with_simulation():
    data = pure.against_random(["match-prize"], decks=[5, 9], games=4000, seed=3)
    for mean, err, exact in zip(data["mean"]["match-prize"], data["error"]["match-prize"],
                                data["exact"]["match-prize (exact)"]):
        assert abs(mean - exact) < 2.5 * err


def test_plan_matrix_is_antisymmetric_and_matches_a_hand_worked_entry():
    game = pure.plan_matrix(3)
    assert np.array_equal(game.payoffs, -game.payoffs.T)
    # 123 against 312: prize 1: 1 v 3 (-1), prize 2: 2 v 1 (+2), prize 3: 3 v 2 (+3) -> +4
    assert game.payoffs[game.row_labels.index("123"), game.col_labels.index("312")] == 4
    assert pure.strictly_dominated_plans(3) == {"321": ["123"]}
    with pytest.raises(OptionError, match="1 to 5 cards"):
        pure.plan_matrix(7)


def test_a_plan_must_use_each_card_once():
    with pytest.raises(OptionError, match="each card"):
        pure.points_against_random([1, 1, 3])


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_best_reply_to_match_prize_wins_all_but_the_top_prize(n):
    assert pure.best_response("match-prize", num_cards=n).value == pytest.approx(n * (n - 3) / 2)


class _Follow(Agent):
    """Plays the bids of a BestResponse table."""

    name = "follow"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": True, "games": ("goofspiel",)}

    def __init__(self, bids):
        super().__init__()
        self.bids = bids

    def act(self, obs):
        other = obs.hands[1 - obs.player]
        prizes = tuple(sorted(set(obs.unseen_prizes) | {obs.prize}))
        return self.bids[(obs.hand, tuple(other), prizes, obs.prize)]


@pytest.mark.parametrize("bot", ["match-prize", "one-higher", "greedy-high"])
def test_best_reply_value_is_what_its_bids_score_over_every_prize_order(bot):
    n = 4
    reply = pure.best_response(bot, num_cards=n)
    total = 0.0
    for order in itertools.permutations(range(1, n + 1)):
        state = play_game(Goofspiel(num_cards=n, prize_order=order), [_Follow(reply.bids), bot], seed=0)
        total += state.scores()[0] - state.scores()[1]
    assert total / 24 == pytest.approx(reply.value)
    assert reply.value > 0  # every pure bot can be beaten


def test_best_reply_needs_a_memoryless_deterministic_bot():
    with pytest.raises(OptionError, match="deterministic"):
        pure.best_response("random", num_cards=3)
    with pytest.raises(OptionError, match="deterministic"):
        pure.best_response("adaptive", num_cards=3)


def test_function_strategies_are_seated_and_explained():
    assert trial(lambda o: o.prize, ["match-prize"], num_cards=4, games=5).rows[0]["mean difference"] == 0
    assert strategy_problem(lambda o: None) .startswith("your function returned None")
    assert "raised KeyError" in strategy_problem(lambda o: {}["x"])
    assert "not a card in your hand" in strategy_problem(lambda o: "7")
    with pytest.raises(AgentError):
        FunctionAgent(3)
    assert try_against(..., ["random"]).status == "blank"
    assert try_against(lambda o: None, ["random"]).status == "blank"  # a body that does nothing: not written yet
    assert try_against(lambda o: [o.prize][0] and None, ["random"]).status == "wrong"  # written, returns None
    table = try_against(lambda o: o.prize, ["random", "one-higher"], games=20)
    assert [r["opponent"] for r in table.rows] == ["random", "one-higher"] and "one-higher" in table.text()


@pytest.mark.parametrize("bot", ["match-prize", "one-higher", "greedy-high"])
def test_best_reply_agrees_with_the_solvers_exploitability(bot):
    from gopskit.agents import make_agent
    from gopskit.solvers.exploit import best_response_to_agent

    solver = best_response_to_agent(make_agent(bot), num_cards=5, agent_seat=1)
    assert pure.best_response(bot, num_cards=5).value == pytest.approx(solver.value)


# ----------------------------------------- backward induction and weak elimination --
def test_lead_against_match_prize_is_the_exact_best_reply_on_every_full_game():
    for n in range(1, 6):
        cards = tuple(range(1, n + 1))
        assert float(pure.lead_against_match_prize(cards, cards)) == pytest.approx(pure.best_response("match-prize", n).value)


def test_lead_against_match_prize_off_the_path_worked_by_hand():
    # hold 1 and 4, prizes 2 and 3 (match-prize holds 2 and 3): the 4 takes whichever of 2, 3 it meets first
    # wisely: prize 2 first -> bid 1 (lose 2), then 4 takes the 3: +1; prize 3 first -> 4 takes it, 1 loses the 2: +1
    assert pure.lead_against_match_prize((1, 4), (2, 3)) == 1
    assert pure.lead_against_match_prize((), ()) == 0
    with pytest.raises(OptionError, match="as many different cards"):
        pure.lead_against_match_prize((1, 2), (1, 2, 3))
    with pytest.raises(OptionError, match="as many different cards"):
        pure.lead_against_match_prize((1, 1), (1, 2))


def test_the_drawn_tree_marks_the_backward_induction_choice_at_every_decision():
    text = pure.game_tree_text(2)
    assert text.count("<- best") == 2 and text.count("turns (chance 1/2)") == 2
    assert "I bid 1: +0 now, value +0.00  <- best" in text  # on prize 1 first: keep the 2 for the 2
    three = pure.game_tree_text(3)
    assert three.startswith("start: my hand 123, value +0.00")
    with pytest.raises(OptionError, match="1 to 3 cards"):
        pure.game_tree_text(4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=6, max_size=6), st.sampled_from([(2, 3), (3, 2)]))
def test_every_order_of_weak_elimination_is_found_including_the_kits_own(entries, shape):
    A = np.array(entries, dtype=float).reshape(shape)
    ends = pure.weak_elimination_outcomes(A)
    kit = eliminate_dominated(A, weak=True)
    assert (tuple(kit.rows), tuple(kit.cols)) in ends
    strict = eliminate_dominated(A)
    for rows, cols in ends:  # weak elimination never keeps a strategy that strict elimination strikes
        assert set(rows) <= set(strict.rows) and set(cols) <= set(strict.cols)


def test_weak_elimination_outcomes_refuses_big_or_empty_matrices():
    with pytest.raises(OptionError, match="at most 400 entries"):
        pure.weak_elimination_outcomes(np.zeros((30, 30)))
    with pytest.raises(OptionError, match="at most 400 entries"):
        pure.weak_elimination_outcomes(np.zeros((0, 3)))
