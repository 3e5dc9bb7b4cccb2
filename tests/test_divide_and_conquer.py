"""Divide and Conquer (Soucie): the trick rule, the swap, records, properties, contracts and bots."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contracts import check_agent_contract, check_game_contract
from gopskit.agents import make_agent
from gopskit.agents.divide_and_conquer import CounterGreedy, Equilibrium, Greedy, greedy_card, solve_half
from gopskit.arena import play_game
from gopskit.errors import IllegalMoveError, OptionError, RecordError
from gopskit.games import make_rules, replay_record
from gopskit.games.divide_and_conquer import CARDS, DivideAndConquer, beats, card_label, trick_winner

DEAL = [[2, 5, 7, 9, 12], [3, 4, 6, 8, 10]]
RULES = DivideAndConquer(deal=DEAL)
SETTINGS = settings(max_examples=40, deadline=None)


# ------------------------------------------------------ the trick rule ---
@pytest.mark.parametrize("card, victims", [
    (2, [3, 4, 6, 8, 10, 12]),
    (5, [2, 3, 6, 10]),
    (7, [2, 3, 4, 5, 8]),
    (12, [5, 7, 8, 9, 10]),
])
def test_the_examples_from_the_published_rules(card, victims):
    assert [c for c in CARDS if beats(card, c)] == victims


@pytest.mark.parametrize("a, b, winner, reason", [
    (3, 9, 0, "divides"), (4, 12, 0, "divides"), (5, 10, 0, "divides"), (6, 12, 0, "divides"),
    (9, 10, 0, "one less"), (2, 3, 0, "one less"), (8, 9, 0, "one less"),
    (3, 7, 1, "higher"), (4, 10, 1, "higher"), (9, 12, 1, "higher"), (10, 12, 1, "higher"),
])
def test_the_lower_card_wins_when_it_divides_or_is_one_less(a, b, winner, reason):
    assert trick_winner(a, b) == (winner, reason)
    assert trick_winner(b, a) == (1 - winner, reason)


def test_every_pair_of_cards_has_exactly_one_winner():
    for a, b in itertools.permutations(CARDS, 2):
        assert beats(a, b) != beats(b, a)
    with pytest.raises(ValueError, match="two different cards"):
        trick_winner(7, 7)


def test_card_labels():
    assert [card_label(c) for c in CARDS] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Q"]


# ------------------------------------------------------------ a game ---
def test_a_whole_game_worked_by_hand():
    state = RULES.new_game()
    assert state.to_move() == (0, 1) and state.legal_moves(0) == DEAL[0] and state.legal_moves(1) == DEAL[1]
    first_half = [(2, 8), (5, 4), (7, 6), (9, 10), (12, 3)]   # P1: 2 divides 8; 4 is one less than 5;
    winners = [0, 1, 1, 0, 1]                                  # 6 one less than 7; 9 one less than 10; 3 divides Q
    for cards, winner in zip(first_half, winners):
        assert state.apply(list(cards)).winner == winner
    assert state.scores() == [2, 3] and state.half == 1
    assert state.legal_moves(0) == DEAL[1] and state.legal_moves(1) == DEAL[0]  # the hands changed places
    assert state.events[-1].swap and state.events[-1].explain().endswith("second half.")
    second_half = [(3, 2), (4, 5), (6, 7), (8, 9), (10, 12)]  # 2 beats 3; 4 beats 5; 6 beats 7; 8 beats 9; Q beats 10
    for cards in second_half:
        state.apply(list(cards))
    assert state.scores() == [5, 5] and state.is_terminal() and state.winners() == [0, 1]  # a draw
    assert state.to_move() == () and state.legal_moves(0) == []


def test_explanations_say_why_the_trick_was_won():
    state = RULES.new_game()
    assert state.apply([2, 8]).explain() == "Player 1's 2 divides Player 2's 8 exactly: the 2 takes the trick."
    assert state.apply([5, 4]).explain() == "Player 2's 4 is one less than Player 1's 5: the 4 takes the trick."
    assert state.apply([12, 10]).explain() == (
        "Player 1's Q (12) beats Player 2's 10: higher, and 10 neither divides Q (12) nor is one less.")
    assert state.log()[0] == "Trick 1: Player 1's 2 divides Player 2's 8 exactly: the 2 takes the trick."


def test_most_tricks_win():
    state = RULES.new_game()
    for cards in [(2, 8), (12, 4), (5, 10), (7, 3), (9, 6), (3, 2), (4, 5), (6, 7), (8, 9), (10, 12)]:
        state.apply(list(cards))
    # First half: P1 takes (2,8) divides, (5,10) divides, (7,3) and (9,6) higher; P2 (Q,4) divides.
    # Second half: P2 takes (3,2) and (10,Q); P1 takes 4-5, 6-7, 8-9 (one less each).
    assert state.scores() == [7, 3] and state.winners() == [0]


def test_one_half_only():
    state = DivideAndConquer(halves=1, deal=DEAL).new_game()
    for a, b in zip(DEAL[0], DEAL[1]):
        state.apply([a, b])
    assert state.is_terminal() and sum(state.scores()) == 5 and len(state.winners()) == 1
    assert not state.events[-1].swap


# ---------------------------------------------------------- bad input ---
def test_an_illegal_card_is_refused_and_nothing_changes():
    state = RULES.new_game()
    state.apply([2, 8])
    before = json.dumps(state.record())
    with pytest.raises(IllegalMoveError, match="player 1 cannot play 2; allowed: 5, 7, 9, 12"):
        state.apply([2, 3])
    with pytest.raises(IllegalMoveError, match="player 2 cannot play 5"):
        state.apply([5, 5])
    with pytest.raises(IllegalMoveError, match="expected 2 move"):
        state.apply([5])
    assert json.dumps(state.record()) == before


@pytest.mark.parametrize("options", [
    {"halves": 3}, {"halves": True}, {"deal": [[2, 3, 4, 5, 6], [7, 8, 9, 10, 11]]},
    {"deal": [[2, 3, 4, 5], [6, 7, 8, 9, 10, 12]]}, {"deal": [[2, 3, 4, 5, 6]]}, {"players": 3},
])
def test_bad_options_are_refused(options):
    with pytest.raises(OptionError):
        make_rules("divide-and-conquer", **options)


def _record():
    return json.loads(json.dumps(play_game(DivideAndConquer(), ["random", "random"], seed=1).record()))


@pytest.mark.parametrize("damage, message", [
    (lambda r: r.pop("plays"), "needs a list 'plays'"),
    (lambda r: r["deal"][0].__setitem__(0, 11), "bad 'deal'"),
    (lambda r: r["plays"][2].pop(), "turn 3: a trick is a list of two cards"),
    (lambda r: r["plays"][6].__setitem__(0, 13), "turn 7: player 1 cannot play 13"),
    (lambda r: r["plays"].append([2, 3]), "turn 11: the hand was over after 10 tricks"),
])
def test_a_bad_record_names_the_turn(damage, message):
    record = _record()
    damage(record)
    with pytest.raises(RecordError, match=message):
        replay_record(record)


def test_a_record_must_match_a_fixed_deal():
    record = {"game": "divide-and-conquer", "options": {"deal": DEAL}, "deal": DEAL[::-1], "plays": []}
    with pytest.raises(RecordError, match="differs from the fixed deal"):
        replay_record(record)


# -------------------------------------------------------- observation ---
def test_both_hands_are_open():
    state = RULES.new_game()
    obs = state.observation(1)
    assert obs.hand == tuple(DEAL[1]) and obs.opponent_hand == tuple(DEAL[0])
    assert obs.dealt == (tuple(DEAL[0]), tuple(DEAL[1])) and obs.half == 0 and obs.halves == 2
    state.apply([2, 8])
    assert state.observation(0).tricks_won == (1, 0) and state.observation(0).history[0].cards == (2, 8)


# --------------------------------------------------------- properties ---
@SETTINGS
@given(st.sampled_from([1, 2]), st.integers(0, 2**32 - 1))
def test_cards_are_conserved_and_every_card_is_played_once_per_half(halves, seed):
    rules = DivideAndConquer(halves=halves)
    state, rng = rules.new_game(seed), np.random.default_rng(seed)
    assert sorted(state.dealt[0] + state.dealt[1]) == list(CARDS)
    while not state.is_terminal():
        state.apply([int(rng.choice(state.legal_moves(p))) for p in (0, 1)])
    for half in range(halves):
        plays = state.plays[5 * half: 5 * half + 5]
        mine = sorted(p[0] for p in plays)
        assert mine == list(state.dealt[half]) and sorted(p[1] for p in plays) == list(state.dealt[1 - half])
    assert sum(state.scores()) == 5 * halves
    assert all(e.winner == trick_winner(*e.cards)[0] for e in state.events)


@SETTINGS
@given(st.permutations(CARDS), st.integers(0, 2**32 - 1))
def test_seeded_play_repeats_and_records_round_trip(order, seed):
    rules = DivideAndConquer(deal=[order[:5], order[5:]]) if seed % 2 else DivideAndConquer()
    first = play_game(rules, ["random", "random"], seed=seed)
    assert first.record() == play_game(rules, ["random", "random"], seed=seed).record()
    text = json.dumps(first.record())
    again = replay_record(json.loads(text))
    assert json.dumps(again.record()) == text and again.log() == first.log()


def test_with_the_hands_swapped_the_same_plays_give_the_mirror_result():
    # The second half replays the first with seats exchanged: if both players repeat their
    # opponent's first-half cards, each trick goes the other way and the game is drawn.
    state = RULES.new_game()
    first = [(2, 3), (5, 4), (7, 8), (9, 10), (12, 6)]
    for cards in first + [(b, a) for a, b in first]:
        state.apply(list(cards))
    assert state.scores() == [5, 5]


# ---------------------------------------------------------- contracts ---
@pytest.mark.parametrize("options", [{}, {"halves": 1}, {"deal": DEAL}])
def test_game_contract(options):
    check_game_contract(make_rules("divide-and-conquer", **options))


@pytest.mark.parametrize("name", ["dc-greedy", "dc-counter-greedy", "dc-equilibrium"])
def test_agent_contract(name):
    check_agent_contract(lambda: make_agent(name), DivideAndConquer(deal=DEAL), games=2)
    check_agent_contract(lambda: make_agent(name), DivideAndConquer(halves=1, deal=DEAL[::-1]), games=2)


# --------------------------------------------------------------- bots ---
def test_greedy_plays_the_card_that_beats_most_opponent_cards():
    # Against 3, 4, 6, 8, 10: 2 beats five of them; 5 beats 3, 6 and 10; 7 beats 3, 4 and 8.
    assert greedy_card(DEAL[0], DEAL[1]) == 2
    assert Greedy().act(RULES.new_game().observation(0)) == 2
    # For player 2 against 2, 5, 7, 9, 12: 3 beats 9 and Q; 4 beats 5 and Q; 6 beats 7 and Q; 8 beats 5 and 9;
    # 10 beats only 7. Four cards tie on two, and a tie goes to the lowest.
    assert greedy_card(DEAL[1], DEAL[0]) == 3


def test_counter_greedy_takes_greedys_card_cheaply():
    # Player 1's greedy card is 2, which beats every card player 2 holds, so player 2 throws the
    # card that beats fewest of player 1's: 10 (it beats only 7).
    assert CounterGreedy().act(RULES.new_game().observation(1)) == 10
    # Player 2's greedy card is 3. Player 1's cards that take it: 2 (one less), 5 and 7 (higher; 9 and Q
    # lose, 3 divides them). Against 3, 4, 6, 8, 10 the 2 beats all five, 5 beats 3, 6, 10 and 7 beats
    # 3, 4, 8: 5 and 7 tie on three and the lower is played.
    assert CounterGreedy().act(RULES.new_game().observation(0)) == 5


def test_counter_greedy_crushes_greedy():
    scores = np.array([play_game(DivideAndConquer(), ["dc-counter-greedy", "dc-greedy"], seed=s).scores()
                       for s in range(20)])
    assert scores[:, 0].mean() >= 8


def test_the_equilibrium_of_a_one_card_half_and_of_matching_pennies():
    assert solve_half(frozenset({2}), frozenset({8})) == (1.0, (1.0,))
    assert solve_half(frozenset({8}), frozenset({2})) == (-1.0, (1.0,))
    # 2 and 5 against 3 and 10: 2 beats 3 and 10; 5 beats 3 and 10 too (5 divides 10) -> always +2.
    assert solve_half(frozenset({2, 5}), frozenset({3, 10}))[0] == pytest.approx(2.0)


def test_the_equilibrium_value_of_a_half_is_zero_sum_and_its_mix_is_a_distribution():
    rng = np.random.default_rng(5)
    for _ in range(5):
        order = [int(c) for c in rng.permutation(np.array(CARDS))]
        mine, theirs = frozenset(order[:3]), frozenset(order[3:6])
        value, mix = solve_half(mine, theirs)
        assert value == pytest.approx(-solve_half(theirs, mine)[0], abs=1e-6)
        assert sum(mix) == pytest.approx(1.0) and min(mix) >= 0


def test_the_equilibrium_bot_states_its_policy():
    obs = RULES.new_game().observation(0)
    policy = Equilibrium().policy(obs)
    assert set(policy) == set(obs.legal_moves) and sum(policy.values()) == pytest.approx(1.0)
