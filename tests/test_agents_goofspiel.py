"""The Goofspiel bots: the shared contract, hand-worked choices, and who beats whom."""

import numpy as np
import pytest

import gopskit
from contracts import check_agent_contract
from gopskit.agents import agent_class, agent_names, make_agent
from gopskit.errors import OptionError
from gopskit.games.goofspiel import Goofspiel

BOTS = ["random", "match-prize", "one-higher", "greedy-high", "adaptive"]
VARIANTS = [
    Goofspiel(num_cards=5), Goofspiel(num_cards=4, players=3, ties="carry"),
    Goofspiel(num_cards=4, ties="unique", players=4, ace_high=True), Goofspiel(num_cards=4, blind=True),
    Goofspiel(num_cards=4, hidden_bids=True, ties="rebid", players=3),
    Goofspiel(num_cards=3, defeat_the_dealer=True), Goofspiel(num_cards=3, target=7, face_down_trophies=True),
]


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: repr(r)[:60])
def test_agent_contract(name, rules):
    check_agent_contract(lambda: make_agent(name), rules, games=2)


@pytest.mark.parametrize("name", BOTS)
def test_classifier_is_complete(name):
    classifier = agent_class(name).classifier
    assert set(classifier) >= {"stochastic", "memory", "uses_opponent_bids", "games"}
    assert make_agent(name).supports(Goofspiel())


def test_registry_lists_the_bots_and_refuses_unknown_names():
    assert set(BOTS) <= set(agent_names(Goofspiel()))
    with pytest.raises(OptionError, match="unknown bot 'genius'; available: .*match-prize"):
        make_agent("genius")


def test_bots_are_listed_in_one_order_whatever_was_imported_first():
    """A lesson that imports the equilibrium bot early must not reorder every bot list on screen."""
    import subprocess
    import sys

    code = "{}from gopskit.agents import agent_names; print(agent_names())"
    plain, early = (subprocess.run([sys.executable, "-c", code.format(first)], capture_output=True, text=True,
                                   check=True).stdout for first in ("", "import gopskit.agents.equilibrium; "))
    assert plain == early and plain.startswith("['random', 'match-prize'"), (plain, early)


def observe(rules, bids, player=0, seed=0):
    state = rules.new_game(seed)
    for b in bids:
        state.apply(list(b))
    return state.observation(player)


def test_match_prize_one_higher_greedy_by_hand():
    rules = Goofspiel(num_cards=5, prize_order=(3, 5, 1, 2, 4))
    obs = observe(rules, [])
    assert make_agent("match-prize").act(obs) == 3
    assert make_agent("one-higher").act(obs) == 4
    assert make_agent("greedy-high").act(obs) == 5
    obs = observe(rules, [(4, 3)])  # the 5 is up; one-higher holds nothing above it
    assert make_agent("one-higher").act(obs) == 1
    assert make_agent("match-prize").act(obs) == 5


def test_one_higher_respects_a_high_ace():
    obs = observe(Goofspiel(num_cards=13, ace_high=True, prize_order=tuple(range(13, 0, -1))), [])
    assert make_agent("one-higher").act(obs) == 1  # the King is up first: only the Ace beats it


def test_match_prize_bids_near_the_mean_when_blind():
    obs = observe(Goofspiel(num_cards=5, blind=True), [])
    assert obs.prize is None and make_agent("match-prize").act(obs) == 3


def test_adaptive_learns_that_its_opponent_bids_one_higher():
    rules = Goofspiel(num_cards=6, prize_order=(1, 2, 3, 4, 5, 6))
    obs = observe(rules, [(1, 2), (6, 3)])  # opponent bid prize+1 twice; the 3 is up
    # predicted rival bid 4: cheapest winning card 5 costs 2 over the prize, within its overpay
    assert make_agent("adaptive").act(obs) == 5
    assert make_agent("adaptive", overpay=1).act(obs) == 2  # too dear: it throws its lowest card


def test_random_policy_is_uniform():
    obs = observe(Goofspiel(num_cards=4), [])
    assert make_agent("random").policy(obs) == {c: 0.25 for c in (1, 2, 3, 4)}
    assert make_agent("match-prize").policy(obs) == {obs.prize: 1.0}


@pytest.mark.parametrize("winner, loser", [
    ("match-prize", "random"), ("one-higher", "match-prize"), ("adaptive", "match-prize"),
    ("adaptive", "one-higher"), ("adaptive", "greedy-high"), ("adaptive", "random"),
])
def test_who_beats_whom(winner, loser):
    points = gopskit.play_many(Goofspiel(num_cards=13), [winner, loser], games=300, seed=11)
    assert points[:, 0].mean() > points[:, 1].mean() + 3


def test_match_prize_against_random_matches_ross_theory():
    """Against random bids, bidding the prize wins about 2/3 of the points (13 cards)."""
    points = gopskit.play_many(Goofspiel(num_cards=13), ["match-prize", "random"], games=20000, seed=3)
    share = points[:, 0].sum() / points.sum()
    # exact: a bid of k beats a uniform random card with chance (k-1)/13, ties (1/13) discard
    expected_gain = sum(k * (k - 1) / 13 for k in range(1, 14))
    expected_loss = sum(k * (13 - k) / 13 for k in range(1, 14))
    assert share == pytest.approx(expected_gain / (expected_gain + expected_loss), abs=0.01)
    assert np.isclose(points[:, 0].mean(), expected_gain, atol=0.3)
