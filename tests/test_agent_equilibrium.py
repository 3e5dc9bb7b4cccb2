"""The equilibrium bot: exact play where a solution exists, a documented heuristic beyond."""

from __future__ import annotations

import doctest
import itertools

import numpy as np
import pytest

import gopskit
from contracts import check_agent_contract
from gopskit.agents import agent_names, equilibrium, make_agent
from gopskit.agents.equilibrium import EquilibriumBot, continuation_estimates, lookahead_matrix, position_estimate
from gopskit.errors import OptionError
from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers import solve_goofspiel, storage


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))
    monkeypatch.setattr(storage, "_MEMORY", {})


def _bot(**kwargs):
    return EquilibriumBot(progress=False, **kwargs)


@pytest.mark.parametrize("rules", [Goofspiel(num_cards=5), Goofspiel(num_cards=4, ties="carry"),
                                   Goofspiel(num_cards=9)])
def test_agent_contract(rules):
    check_agent_contract(_bot, rules, games=2)


def test_registered_under_its_name():
    assert "equilibrium" in agent_names(Goofspiel(num_cards=6))
    assert isinstance(make_agent("equilibrium"), EquilibriumBot)


@pytest.mark.parametrize("options", [{"players": 3}, {"ties": "unique"}, {"ties": "rebid"}, {"hidden_bids": True},
                                     {"blind": True}, {"ace_high": True}, {"prize_order": "ascending"},
                                     {"face_down_trophies": True}, {"target": 50}])
def test_refuses_games_it_cannot_solve(options):
    assert not _bot().supports(Goofspiel(num_cards=5, **options))


def test_bad_objective_is_refused():
    with pytest.raises(OptionError):
        EquilibriumBot(objective="margin")


def _observations(rules, seed, agents=("random", "random")):
    """Every observation of seat 0 along one seeded game."""
    state = rules.new_game(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        yield state.observation(0)
        state.apply({p: state.legal_moves(p)[int(rng.integers(len(state.legal_moves(p))))] for p in (0, 1)})


@pytest.mark.parametrize("objective,ties", [("points", "discard"), ("win", "carry")])
def test_plays_the_exact_policy_for_small_decks(objective, ties):
    rules = Goofspiel(num_cards=5, ties=ties)
    solution = solve_goofspiel(5, objective, ties)
    bot = _bot(objective=objective)
    for obs in itertools.chain(*(_observations(rules, s) for s in range(3))):
        pos = EquilibriumBot.position(obs)
        assert bot.policy(obs) == pytest.approx(solution.policy(**pos), abs=1e-12)
        assert sum(bot.policy(obs).values()) == pytest.approx(1.0)


def test_position_reads_lead_and_pot_from_the_observation():
    rules = Goofspiel(num_cards=4, ties="carry", prize_order=(4, 3, 2, 1))
    state = rules.new_game(0)
    state.apply([2, 2])  # tie: the 4 carries over
    pos = EquilibriumBot.position(state.observation(1))
    assert pos == {"hand": (1, 3, 4), "opp_hand": (1, 3, 4), "prizes": (1, 2, 3), "prize": 3, "lead": 0, "pot": 4}
    state.apply([4, 1])
    pos = EquilibriumBot.position(state.observation(1))
    assert pos["lead"] == -7 and pos["pot"] == 0 and pos["opp_hand"] == (1, 3)


def test_large_decks_use_an_exact_endgame():
    """Beyond exact_up_to the bot's last three bids are the 9-card solution's exact policy."""
    nine = solve_goofspiel(9)
    bot = _bot(endgame_cards=3)
    for obs in _observations(Goofspiel(num_cards=9), 1):
        policy = bot.policy(obs)
        assert set(policy) == set(obs.hand) and sum(policy.values()) == pytest.approx(1.0)
        if len(obs.hand) <= 3:
            assert policy == pytest.approx(nine.policy(**EquilibriumBot.position(obs)), abs=1e-9)


def test_estimate_is_antisymmetric_and_zero_for_equal_hands():
    rng = np.random.default_rng(3)
    for _ in range(50):
        k = int(rng.integers(1, 9))
        h, o, p = (rng.choice(np.arange(1, 14), k, replace=False) for _ in range(3))
        assert position_estimate(h, o, p) == pytest.approx(-position_estimate(o, h, p), abs=1e-9)
        assert position_estimate(h, h, p) == 0.0


def test_estimate_tracks_exact_values():
    """On 8-card positions the estimate correlates strongly with the exact value."""
    sol = solve_goofspiel(8)
    rng = np.random.default_rng(8)
    exact, guess = [], []
    for _ in range(300):
        k = int(rng.integers(4, 8))
        h, o, p = (sorted(rng.choice(np.arange(1, 9), k, replace=False).tolist()) for _ in range(3))
        exact.append(sol.value(h, o, p))
        guess.append(position_estimate(h, o, p))
    assert np.corrcoef(exact, guess)[0, 1] > 0.9


def test_continuation_matrix_matches_the_estimate_entry_by_entry():
    hand, opp, rest = [1, 4, 6, 9, 12], [2, 3, 6, 10, 13], [1, 5, 7, 8]
    E = continuation_estimates(hand, opp, rest)
    for (i, a), (j, b) in itertools.product(enumerate(hand), enumerate(opp)):
        assert E[i, j] == pytest.approx(position_estimate(set(hand) - {a}, set(opp) - {b}, rest), abs=1e-9)
    M = lookahead_matrix(hand, opp, rest + [11], 11)
    assert M[4, 0] == pytest.approx(11 + E[4, 0]) and M[0, 0] == pytest.approx(-11 + E[0, 0])
    assert M[2, 2] == pytest.approx(E[2, 2])  # 6 against 6: a tie wins nothing now


@pytest.mark.parametrize("opponent", ["random", "greedy-high"])
def test_beats_weak_bots_at_thirteen_cards(opponent):
    points = gopskit.play_many(Goofspiel(num_cards=13), [_bot(endgame_cards=3), opponent], games=30, seed=11)
    assert (points[:, 0] - points[:, 1]).mean() > 5


def test_docstring_examples():
    assert doctest.testmod(equilibrium).failed == 0
