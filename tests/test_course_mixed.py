"""Lessons 2 and 4 helpers: hand solutions, the endgame, first-turn policies, parity, learning, variants."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gopskit.course import mixed, sync, variants
from gopskit.errors import OptionError
from gopskit.games.divide_and_conquer import CARDS, beats
from gopskit.solvers.matrix import pure_saddle_points, solve_zero_sum


def test_endgame_matrix_worked_by_hand():
    # hand 2,3 v 1,3; prize 3 now, 2 next. Bid 2 v 1: win 3, then 3 v 3 tie: +3. Bid 2 v 3: lose 3, then 3 v 1: +2 -> -1.
    # Bid 3 v 1: win 3, then 2 v 3: lose 2 -> +1. Bid 3 v 3: tie, then 2 v 1: win 2 -> +2.
    game = mixed.endgame()
    assert game.row_labels == (2, 3) and game.col_labels == (1, 3)
    assert game.payoffs.tolist() == [[3, -1], [1, 2]]
    assert mixed.solve_two_by_two(game.payoffs) == (Fraction(1, 5), Fraction(3, 5), Fraction(7, 5))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.integers(-9, 9), min_size=4, max_size=4))
def test_hand_method_agrees_with_the_linear_program(entries):  # most 2 x 2 games have a saddle point: many are skipped
    A = np.array(entries, dtype=float).reshape(2, 2)
    assume(not pure_saddle_points(A))
    hand = mixed.solve_two_by_two(A)
    lp = solve_zero_sum(A)
    assert float(hand.value) == pytest.approx(lp.value, abs=1e-7)
    assert float(hand.row_mix) == pytest.approx(lp.row_strategy[0], abs=1e-7)
    assert float(hand.col_mix) == pytest.approx(lp.col_strategy[0], abs=1e-7)


def test_hand_method_refuses_games_with_a_saddle_point_or_the_wrong_shape():
    with pytest.raises(OptionError, match="saddle point"):
        mixed.solve_two_by_two([[3, 1], [4, 2]])
    with pytest.raises(OptionError, match="2 x 2"):
        mixed.solve_two_by_two([[1, 2, 3]])


def test_duel_learner_punishes_a_habit():
    always_three = mixed.duel([3] * 30, seed=0)
    assert always_three.their_bids[1:] == [1] * 29  # against all 3s, their 1 holds you to 1
    assert mixed.duel([2] * 30, seed=0).their_bids[1:] == [3] * 29
    with pytest.raises(OptionError, match="not one of them"):
        mixed.duel([1, 2])


def test_first_turn_policies_are_distributions_and_three_cards_match_the_prize():
    assert np.array_equal(mixed.first_turn_policy(3), np.eye(3))
    for n in (4, 6):
        policy = mixed.first_turn_policy(n)
        assert np.allclose(policy.sum(axis=1), 1)
    games = mixed.first_turn_games(4)
    assert [g["saddle"] is None for g in games] == [False, True, True, False]


def test_parity_split_and_modes():
    policy = np.array([[0.5, 0.0, 0.5], [0.0, 1.0, 0.0]])
    assert mixed.parity_split(policy).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert [mixed.modes(row) for row in policy] == [2, 1]
    assert mixed.modes([0.25, 0.25, 0.5]) == 1 and mixed.modes([0.3, 0.3, 0.1, 0.3]) == 2


def test_learning_curves_fall():
    curves = mixed.learning_curves(mixed.endgame().payoffs, iterations=500)
    for curve in curves.values():
        assert curve.shape == (500,) and curve[-1] < curve[0] and curve[-1] < 0.1


def test_divide_and_conquer_helpers():
    assert variants.beaten_by(2) == [5, 7, 9]
    for card in CARDS:
        assert variants.beaten_by(card), "every card loses to some card"
    a, b, c = variants.three_cycle()
    assert beats(a, b) and beats(b, c) and beats(c, a)
    with pytest.raises(OptionError):
        variants.beaten_by(11)


@pytest.mark.parametrize("deal", [([2, 7, 9, 10, 12], [3, 4, 5, 6, 8]), ([2, 3, 4, 5, 6], [7, 8, 9, 10, 12])])
def test_swapping_hands_makes_the_deal_fair(deal):
    halves = variants.swap_fairness(*deal)
    assert halves.first_half == pytest.approx(-halves.second_half) and halves.total == pytest.approx(0)


def test_swap_fairness_checks_the_deal():
    with pytest.raises(OptionError, match="two hands of five"):
        variants.swap_fairness([2, 3, 4, 5, 6], [6, 7, 8, 9, 10])


def test_raj_taker_cancels_matched_bids():
    assert variants.raj_taker([12, 7, 7], prize=-3) == 0
    assert variants.raj_taker([12, 7, 3], prize=-3) == 2
    assert variants.raj_taker([9, 9, 4], prize=5) == 2
    assert variants.raj_taker([5, 5], prize=5) is None


def test_tie_rule_effect_hand_checked_at_four_cards():
    effect = variants.tie_rule_effect(4)
    assert effect["discard"].best_reply_lead == pytest.approx(2.0)  # n(n - 3)/2
    assert effect["carry"].best_reply_lead > effect["discard"].best_reply_lead
    assert np.allclose(effect["carry"].first_turn.sum(axis=1), 1)


def test_hidden_information_helpers():
    from gopskit.course import hidden

    assert hidden.possible_bids(4, my_bid=1, told="lost") == [2, 3, 4]
    assert hidden.possible_bids(4, my_bid=2, told="tie") == [2]
    grid = hidden.outcome_grid(4)
    assert (grid == "tie").sum() == 4 and (grid == "won").sum() == (grid == "lost").sum() == 6
    assert hidden.first_turn_information_sets("blind") == 1
    assert hidden.first_turn_information_sets("hidden bids") == 4
    with pytest.raises(OptionError, match="unknown variant"):
        hidden.rules_for("invisible")
    with pytest.raises(OptionError, match="an outcome"):
        hidden.possible_bids(4, 1, "draw")


def test_hidden_bids_equilibrium_bids_off_the_prize_and_beats_honesty():
    from gopskit.course import hidden

    solution = hidden.solve("hidden bids", num_cards=3, iterations=100)
    assert hidden.exploitability(solution) < 0.05
    bluffs = hidden.off_prize_bids(hidden.solve("hidden bids"))
    assert 0.1 < bluffs.high_on_low < 0.6 and 0 < bluffs.low_on_high < 0.6
    assert hidden.exploitability(hidden.solve("hidden bids")) < 0.01


# --------------------------------------------- turns without a saddle point --
def test_turn_positions_counts_every_turn_with_a_choice():
    from math import comb

    for n in (2, 3, 4):
        expected = sum(comb(n, k) ** 3 * k for k in range(2, n + 1))
        assert len(list(mixed.turn_positions(n))) == expected


def test_every_turn_without_a_saddle_point_has_a_gap_between_the_pure_guarantees():
    from gopskit.solvers.matrix import goofspiel_turn_matrix, maximin_minimax

    for position in mixed.positions_without_saddle(3):
        low, high = maximin_minimax(goofspiel_turn_matrix(*position, num_cards=3).payoffs)
        assert low < high
    assert mixed.positions_without_saddle(2) == []


def test_the_lp_position_is_the_tie_on_the_four_then_the_three():
    game = mixed.lp_game()
    assert game.row_labels == (1, 2, 3) and not pure_saddle_points(game.payoffs)
    solution = solve_zero_sum(game.payoffs)
    assert np.allclose(solution.row_strategy, np.array([3, 5, 3]) / 11, atol=1e-6)


# ----------------------------------------------- lesson 3's new helpers --
def test_the_information_set_exercise_refuses_what_it_cannot_solve():
    from gopskit.course import hidden

    with pytest.raises(OptionError, match="3-card hand"):
        hidden.information_set_values(num_cards=4, prize_order=(4, 1, 2, 3))
    with pytest.raises(OptionError, match="no first bid"):
        hidden.information_set_values(my_first_bid=1, told="won")
    policy = hidden.mostly_honest_policy((1, 2, 3), 2)  # the exercise's opponent: honest 4 times in 5
    assert policy == {1: Fraction(1, 10), 2: Fraction(4, 5), 3: Fraction(1, 10)}
    assert hidden.mostly_honest_policy((1, 2, 3), 2, honesty=(3, 4)) == {1: Fraction(1, 8), 2: Fraction(3, 4), 3: Fraction(1, 8)}
    assert hidden.mostly_honest_policy((1, 3), 2) == {1: Fraction(1, 2), 3: Fraction(1, 2)}


def test_open_bids_is_the_control_variant():
    from gopskit.course import hidden

    rules = hidden.rules_for(hidden.CONTROL, num_cards=3)
    assert not rules.hidden_bids and not rules.blind and hidden.CONTROL not in hidden.VARIANTS
    with pytest.raises(OptionError, match="open bids"):
        hidden.rules_for("face down", num_cards=3)


def test_the_duel_cell_answers_an_edited_list_with_a_sentence():
    """Lesson 2 invites students to edit the duel's lists: a card they do not hold, a word, an empty list or a bare
    number used to end the cell with a traceback; each now gets a sentence, and a good list the same line as before."""
    assert mixed.duel_text([3] * 40, seed=1) == f"average result {mixed.duel([3] * 40, seed=1).average:+.2f} points per round"
    assert mixed.duel_text([3, 4]) == "cannot play this list: in the endgame you hold 2 and 3; 4 is not one of them"
    assert 'the text "x" is not' in mixed.duel_text([3, "x"]) and "None is not" in mixed.duel_text([2, None])
    assert mixed.duel_text([]).startswith("no bids to play") and "not 5" in mixed.duel_text(5)
    assert "3.5 is not" in mixed.duel_text([3, 3.5]) and "True (a yes/no value) is not" in mixed.duel_text([True])  # 3.5 played as 3
    with pytest.raises(OptionError, match="a whole number, not 2.9"):
        mixed.duel([2.9])
    cell = next(c for c in sync.read(sync.LESSONS / "02-mixed-equilibria.ipynb").cells if "tries.items()" in c.source)
    assert "mixed.duel_text(bids, seed=1)" in cell.source
