"""The fitted continuation estimate: its features, its fit, the shipped 13-card file and the bot's use of it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gopskit.agents.equilibrium import EquilibriumBot, continuation_estimates, lookahead_matrix
from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers import continuation, solve_goofspiel
from gopskit.solvers._exact_lp import matrix_game
from gopskit.solvers.continuation import (Continuation, ContinuationError, exact_continuations, features, feature_names,
                                          fit, load_continuation, save_continuation, shipped_continuation, turn_regret)
from gopskit.solvers.exact import solve_endgame


@st.composite
def positions(draw):
    k = draw(st.integers(1, 10))
    cards = st.lists(st.integers(1, 13), min_size=k, max_size=k, unique=True).map(sorted)
    return draw(cards), draw(cards), draw(cards)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_every_feature_changes_sign_when_the_hands_are_swapped(position):
    hand, opp, prizes = (np.array([c]) for c in position)
    assert features(hand, opp, prizes) == pytest.approx(-features(opp, hand, prizes), abs=1e-12)
    assert features(hand, hand, prizes) == pytest.approx(np.zeros((1, len(feature_names(len(position[0]))))), abs=1e-12)


def test_a_hand_worked_feature_row():
    """Hands 2,5 against 1,6, prizes 3,4: every column worked out by hand."""
    row = features([[2, 5]], [[1, 6]], [[3, 4]])[0]
    named = dict(zip(feature_names(2), row))
    # pairs: 2>1, 2<6, 5>1, 5<6: wins minus losses 0, so the uniform feature is 0
    assert named["uniform"] == 0
    assert named["rank"] == 3 - 4  # 2 beats 1 for the 3, 5 loses to 6 for the 4
    assert named["spread"] == pytest.approx(((2 - 1) * (3 - 3.5) + (5 - 6) * (4 - 3.5)) / 2)
    assert (named["sign*prize rank 1"], named["sign*prize rank 2"]) == (3, -4)
    assert (named["difference rank 1"], named["difference rank 2"]) == (1, -1)
    assert named["difference*prize rank 2"] == pytest.approx(-4 / 3.5)
    assert named["matches shifted up"] == (-1 - (-1)) * 3  # 2 vs 6 and 1 vs 5: both lose
    assert named["matches shifted down"] == (1 - 1) * 4  # 5 vs 1 and 6 vs 2: both win
    assert named["card total"] == 0
    # each card's wins minus losses: 2 -> 0, 5 -> 0 (its rows); 1 -> +2... as columns: 1 -> 2, 6 -> -2
    assert named["wins by prize rank"] == pytest.approx((0 * 3 + 0 * 4 + 2 * 3 + -2 * 4) / 2)


def test_a_fit_to_a_solved_deck_gives_away_less_than_the_general_estimate():
    """On an 8-card game, fitted to its own solution and judged on other positions."""
    full = solve_goofspiel(8)
    model = fit(full, full, train=200, test=80)
    test = model.meta["test"]
    assert test["turn_regret_mean"] < 0.6 * test["general_estimate_regret_mean"]
    assert model.meta["training"]["values"] == 200 * 6 * 6
    for check in model.meta["checks"]:  # each check is a real continuation value of the solution
        assert full.value(check["hand"], check["opp_hand"], check["prizes"]) == check["value"]


def test_regret_is_zero_for_the_exact_matrix_and_positive_for_a_bad_estimate():
    full = solve_goofspiel(6)
    hand = opp = prizes = tuple(range(1, 7))
    M = full.turn_matrix(hand, opp, prizes, 6)
    assert turn_regret(M, M) == pytest.approx(0, abs=1e-9)
    assert turn_regret(M, -M) > 0.5
    assert exact_continuations(full, hand, opp, prizes, 6)[0, 0] == pytest.approx(full.value(hand[1:], opp[1:], prizes[:-1]))


def test_the_shipped_file_holds_real_values_of_the_13_card_game():
    """Its three check positions are re-derived by exact endgame solves; its figures are the fit's own."""
    model = shipped_continuation(13)
    assert model is not None and model.cards == 10
    meta = model.meta
    assert (meta["num_cards"], meta["objective"], meta["ties"]) == (13, "points", "discard")
    assert meta["test"]["turn_regret_mean"] < meta["test"]["general_estimate_regret_mean"] / 2
    assert "gopskit solve --cards 13" in meta["command"]
    for check in meta["checks"]:
        exact = solve_endgame(check["hand"], check["opp_hand"], check["prizes"])
        assert exact.value(check["hand"], check["opp_hand"], check["prizes"]) == pytest.approx(check["value"], abs=1e-8)
        assert abs(model.value(check["hand"], check["opp_hand"], check["prizes"]) - check["value"]) < 2.0


def test_the_bot_plays_turn_3_of_the_full_deck_from_the_fitted_estimate():
    bot = EquilibriumBot(progress=False)
    rules = Goofspiel(num_cards=13)
    state = rules.new_game(seed=4)
    bot.reset(rules, 0, np.random.default_rng(0))
    for _turn in range(2):
        state.apply({0: max(state.legal_moves(0)), 1: min(state.legal_moves(1))})
    obs = state.observation(0)
    policy = bot.policy(obs)
    assert bot.source == "fitted estimate"
    pos = EquilibriumBot.position(obs)
    M = lookahead_matrix(pos["hand"], pos["opp_hand"], pos["prizes"], pos["prize"], fitted=shipped_continuation(13))
    value, _x, _y = matrix_game(M)
    x = np.array([policy[c] for c in sorted(policy)])
    assert (x @ M).min() == pytest.approx(value, abs=1e-9)  # optimal in the fitted turn game
    general = lookahead_matrix(pos["hand"], pos["opp_hand"], pos["prizes"], pos["prize"])
    assert not np.allclose(M, general)  # and that game is not the general estimate's


def test_the_general_estimate_is_kept_where_nothing_was_fitted():
    bot = EquilibriumBot(progress=False, use_stored=False)
    rules = Goofspiel(num_cards=13)
    state = rules.new_game(seed=4)
    for _turn in range(2):
        state.apply({0: max(state.legal_moves(0)), 1: min(state.legal_moves(1))})
    bot.policy(state.observation(0))
    assert bot.source == "estimate"
    assert shipped_continuation(12) is None and shipped_continuation(13, "points", "carry") is None
    with pytest.raises(ContinuationError, match="10 cards after the turn"):
        shipped_continuation(13).estimates(range(1, 11), range(1, 11), range(1, 10))
    assert continuation_estimates([1, 2], [1, 2], [3]).shape == (2, 2)


def test_a_damaged_or_foreign_file_is_refused_with_the_reason(tmp_path):
    model = Continuation(2, np.zeros(len(feature_names(2))), {"format": continuation.FORMAT, "version": 1, "cards": 2,
                                                             "features": feature_names(2), "weights": [0.0] * 13,
                                                             "command": "rebuild me"})
    path = tmp_path / "c.json"
    save_continuation(model, path)
    assert load_continuation(path).cards == 2
    meta = json.loads(path.read_text())
    path.write_text(json.dumps({**meta, "features": ["other"]}))
    with pytest.raises(ContinuationError, match="other features; rebuild it with: rebuild me"):
        load_continuation(path)
    path.write_text(json.dumps({**meta, "version": 99}))
    with pytest.raises(ContinuationError, match="not a gopskit continuation file"):
        load_continuation(path)
    path.write_text("{")
    with pytest.raises(ContinuationError, match="cannot read"):
        load_continuation(path)
    with pytest.raises(ContinuationError, match="weights are needed"):
        Continuation(2, [1.0, 2.0])
