"""Options that combine oddly: each one means what a player expects, or is refused with a reason.

The readings are written down in ``docs/rules/goofspiel.md`` and
``docs/rules/gooseberry-fool.md``; each test here failed before its fix.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from gopskit.errors import OptionError, RecordError
from gopskit.games import make_rules, replay_record
from gopskit.games.goofspiel import Goofspiel
from gopskit.games.gooseberry_fool import GooseberryFool


def play_turns(state, turns):
    """Apply each turn's bids (one per seat); under Defeat the Dealer the dealer's bid goes first."""
    for bids in turns:
        movers = state.to_move()
        state.apply({p: bids[p] for p in movers})
        if len(movers) == 1 and not state.is_terminal():  # that was the dealer's face-up bid
            state.apply({p: bids[p] for p in state.to_move()})
    return state


# ------------------------------------------------- ace high and prize order ---
def test_ascending_prizes_go_by_value_so_a_high_ace_comes_last():
    rules = Goofspiel(num_cards=13, ace_high=True, prize_order="ascending")
    deck = rules.prize_deck(np.random.default_rng(0))
    assert deck == list(range(2, 14)) + [1]
    assert [rules.points(c) for c in deck] == sorted(rules.points(c) for c in deck)


def test_descending_prizes_with_a_high_ace_start_with_the_ace():
    rules = Goofspiel(num_cards=5, ace_high=True, prize_order="descending")
    assert rules.prize_deck(np.random.default_rng(0)) == [1, 5, 4, 3, 2]
    assert rules.new_game().prize == 1


def test_a_record_in_the_old_card_number_order_is_refused_for_a_high_ace():
    record = {"game": "goofspiel", "options": {"num_cards": 3, "ace_high": True, "prize_order": "ascending"},
              "prizes": [1, 2, 3], "bids": [[1, 2], [2, 1], [3, 3]]}
    with pytest.raises(RecordError, match="breaks the 'ascending' order, which turns 2 here"):
        replay_record(record)
    record["prizes"] = [2, 3, 1]
    # prizes 2, 3, Ace: each low-numbered Ace bid (strength 4) takes a prize; the Ace prize is tied away
    assert replay_record(record).scores() == [2, 3]


# ----------------------------------------------------- a match cut off ---
def test_a_target_match_stopped_by_the_cap_says_it_was_cut_off():
    rules = Goofspiel(num_cards=1, target=5, max_hands=3)
    state = rules.new_game(seed=1)
    for _ in range(3):
        state.apply([1, 1])  # one card each: a tie every hand, nobody scores
    assert state.is_terminal() and state.scores() == [0, 0]
    assert state.cut_off() and state.winners() == [0, 1]


def test_the_leader_of_a_cut_off_match_wins_on_the_totals_and_the_cli_says_so(tmp_path):
    rules = Goofspiel(num_cards=2, target=10, max_hands=2, prize_order="ascending")
    state = rules.new_game(seed=0)
    for _ in range(2):
        state.apply([2, 1])
        state.apply([1, 2])
    assert state.is_terminal() and state.scores() == [2, 4] and state.winners() == [1]
    assert state.cut_off()
    again = replay_record(json.loads(json.dumps(state.record())))
    assert again.cut_off() and again.winners() == [1]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(state.record()))
    out = subprocess.run([sys.executable, "-m", "gopskit.cli", "replay", str(path)], capture_output=True, text=True)
    assert out.returncode == 0
    assert out.stdout.strip().splitlines()[-1] == (
        "The match was cut off at its cap of 2 hands, before anyone reached the target of 10: "
        "Player 2 wins on the totals so far. Final scores: Player 1 2, Player 2 4.")
    data = json.loads(subprocess.run([sys.executable, "-m", "gopskit.cli", "replay", "--json", str(path)],
                                     capture_output=True, text=True).stdout)
    assert data["cut_off"] is True and data["winners"] == [2]


def test_a_match_won_at_the_target_is_not_cut_off():
    rules = Goofspiel(num_cards=2, target=4, max_hands=2, prize_order="ascending")
    state = rules.new_game(seed=0)
    for _ in range(2):
        state.apply([2, 1])
        state.apply([1, 2])
    assert state.is_terminal() and state.scores() == [2, 4] and not state.cut_off()


# ------------------------------------------- Defeat the Dealer with a target ---
def test_defeat_the_dealer_to_a_target_plays_whole_rounds_so_everyone_deals_alike():
    rules = Goofspiel(num_cards=2, players=3, defeat_the_dealer=True, target=2, prize_order="ascending")
    state = rules.new_game(seed=0)
    play_turns(state, [(2, 1, 1), (1, 2, 2)])  # hand 1: player 1 takes the 1, the 2 is tied away
    play_turns(state, [(2, 1, 1), (1, 2, 2)])  # hand 2: the same: player 1 has 2, the target
    assert state.scores() == [2, 0, 0] and not state.is_terminal()  # player 3 has not dealt yet
    play_turns(state, [(1, 1, 1), (2, 2, 2)])  # hand 3: all tied
    assert state.is_terminal() and state.winners() == [0] and not state.cut_off()
    assert [h.dealer for h in state.hands] == [0, 1, 2]


def test_defeat_the_dealer_caps_at_whole_rounds():
    assert Goofspiel(players=3, defeat_the_dealer=True, target=50).hand_cap() == 18
    assert Goofspiel(players=2, defeat_the_dealer=True, target=50, max_hands=5).hand_cap() == 4
    assert Goofspiel(target=50, max_hands=5).hand_cap() == 5


def test_defeat_the_dealer_alone_is_still_one_deal_each():
    state = Goofspiel(num_cards=1, players=3, defeat_the_dealer=True).new_game(seed=0)
    for _ in range(3):
        play_turns(state, [(1, 1, 1)])
    assert state.is_terminal() and len(state.hands) == 3


@pytest.mark.parametrize("options, why", [
    ({"defeat_the_dealer": True, "players": 4, "max_hands": 3}, "max_hands must be at least 4"),
    ({"defeat_the_dealer": True, "blind": True}, "blind and defeat_the_dealer do not combine"),
    ({"rebid_open": True}, "rebid_open only changes the 'rebid' tie rule"),
    ({"rebid_open": True, "ties": "carry"}, "with ties='carry' it would do nothing"),
    ({"dealer": 1}, "set defeat_the_dealer=True or leave dealer at 0"),
    ({"prize_order": (1, "2", 3), "num_cards": 3}, "lists each card 1..3 exactly once"),
    ({"prize_order": ([1], 2), "num_cards": 2}, "lists each card 1..2 exactly once"),
    ({"ties": np.array(["discard"])}, "unknown tie rule"),
    ({"ties": ["discard"]}, "unknown tie rule"),
])
def test_odd_goofspiel_options_are_refused_with_the_reason(options, why):
    with pytest.raises(OptionError, match=why.replace("(", r"\(").replace(")", r"\)")):
        Goofspiel(**options)


# ------------------------------------------------------------- Gooseberry ---
def test_gooseberry_reach_ending_needs_a_target():
    with pytest.raises(OptionError, match="a single deal"):
        GooseberryFool(target=None, ending="reach")
    with pytest.raises(OptionError, match="unknown ending"):
        GooseberryFool(ending=np.array(["reach", "x"]))


def test_gooseberry_match_cut_off_by_max_hands_says_so():
    rules = GooseberryFool(target=10**6, max_hands=1)
    assert rules.match_cut_off([5, 3, 2], 1) and not rules.match_cut_off([5, 3, 2], 0)
    assert not GooseberryFool(target=5, max_hands=1).match_cut_off([6, 3, 2], 1)


# ---------------------------------------------------------------- records ---
def test_bids_after_a_finished_hand_are_called_extra_not_missing_a_prize():
    record = {"game": "goofspiel", "options": {"num_cards": 2, "prize_order": "ascending"},
              "prizes": [1, 2], "bids": [[1, 2], [2, 1], [1, 2]]}
    with pytest.raises(RecordError, match="turn 3: the hand was over after 2 turns"):
        replay_record(record)


def test_make_rules_refuses_an_odd_combination_in_a_record_as_a_record_error():
    record = {"game": "goofspiel", "options": {"defeat_the_dealer": True, "blind": True}, "prizes": [], "bids": []}
    with pytest.raises(RecordError, match="bad options: blind and defeat_the_dealer"):
        replay_record(record)
    assert make_rules("goofspiel", defeat_the_dealer=True).is_match()


# ------------------------------------------------------- the other games ---
def test_gops_for_three_is_played_to_a_target_or_for_deals_never_both():
    from gopskit.games.gops_for_three import GopsForThree

    with pytest.raises(OptionError, match="either for a number of deals or to a target"):
        GopsForThree(target=100, deals=1)
    with pytest.raises(OptionError, match="would stop a game of 5 deals after 3 deals"):
        GopsForThree(deals=5, max_deals=3)
    assert GopsForThree(target=100).is_match() and GopsForThree(deals=5, max_deals=5).is_match()


def test_gops_for_three_option_messages_say_what_was_wrong_and_what_is_allowed_in_good_english():
    """Deals at 1 with a target used to say '... or drop the target to play 1 deals'."""
    from gopskit.games.gops_for_three import GopsForThree

    with pytest.raises(OptionError) as one:
        GopsForThree(target=40, deals=1)
    text = str(one.value)
    assert "deals=1 and target=40 do not go together" in text
    assert "leave deals at 3" in text and "to play 1 deal, drop the target" in text
    with pytest.raises(OptionError) as cap:
        GopsForThree(deals=2, max_deals=1)
    assert "a game of 2 deals after 1 deal:" in str(cap.value) and "at least 2" in str(cap.value)


@pytest.mark.parametrize("make", [
    lambda: make_rules("gops-for-three", target=40, deals=1),
    lambda: make_rules("gops-for-three", deals=2, max_deals=1),
    lambda: make_rules("gops-for-three", deals=1, max_deals=0),
    lambda: make_rules("throps", max_deals=0),
    lambda: make_rules("gooseberry-fool", max_hands=0),
    lambda: make_rules("goofspiel", players=3, defeat_the_dealer=True, max_hands=1),
    lambda: make_rules("goofspiel", dealer=1),
    lambda: make_rules("raj", players=9),
    lambda: make_rules("divide-and-conquer", halves=3),
])
def test_option_messages_count_in_good_english(make):
    """No '1 deals', '1 hands' or '1 players' in any game's option check."""
    import re

    with pytest.raises(OptionError) as caught:
        make()
    assert not re.search(r"(?<![\d.=])1 (?:deals|hands|players|cards|tricks)\b", str(caught.value)), str(caught.value)


@pytest.mark.parametrize("game", ["gops-for-three", "throps"])
def test_a_game_to_a_target_cut_off_by_max_deals_says_so(game):
    rules = make_rules(game, target=1000, max_deals=2)
    assert rules.match_cut_off([40, 30, 20], 2) and not rules.match_cut_off([40, 30, 20], 1)
    assert not make_rules(game, target=30, max_deals=2).match_cut_off([40, 30, 20], 2)
    assert not rules.match_over([40, 30, 20], 1) and rules.match_over([40, 30, 20], 2)


@pytest.mark.parametrize("game, options", [
    ("gops-for-three", {"bottom_joker": ["nobody"]}),
    ("throps", {"scoring_suit": np.array(["best", "x"])}),
    ("raj", {"carry_decides": np.array(["newest", "total"])}),
    ("divide-and-conquer", {"halves": np.array([1, 2])}),
    ("divide-and-conquer", {"halves": 1.0}),
])
def test_badly_typed_options_are_option_errors_in_every_game(game, options):
    with pytest.raises(OptionError):
        make_rules(game, **options)


def _finished_record(game, **options):
    state = make_rules(game, **options).new_game(seed=1)
    while not state.is_terminal():
        state.apply({p: state.legal_moves(p)[0] for p in state.to_move()})
    return json.loads(json.dumps(state.record()))


@pytest.mark.parametrize("game, options, key", [
    ("goofspiel", {}, "bids"), ("gops-for-three", {"deals": 1}, "bids"), ("gops-for-three", {}, "bids"),
    ("throps", {"target": None}, "bids"), ("gooseberry-fool", {"target": None}, "plays"),
    ("divide-and-conquer", {}, "plays"), ("raj", {}, "bids"),
])
def test_moves_after_the_end_are_called_extra_in_every_game(game, options, key):
    record = _finished_record(game, **options)
    hand = record["hands"][-1] if "hands" in record else record
    hand[key].append(hand[key][-1])
    with pytest.raises(RecordError) as refused:
        replay_record(record)
    message = str(refused.value)
    assert "was over after" in message and "extra" in message and "start a new game" not in message


def test_a_huge_bad_turn_is_not_echoed_whole():
    record = _finished_record("raj")
    record["bids"][0] = list(range(100_000))
    with pytest.raises(RecordError) as refused:
        replay_record(record)
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize("moves", [[1, 2], {0: 1, 1: 2}, {1: 2}])
def test_defeat_the_dealer_says_the_dealer_bids_first_for_a_list_too(moves):
    state = Goofspiel(num_cards=3, defeat_the_dealer=True).new_game(seed=1)
    with pytest.raises(Exception, match=r"the dealer \(player 1\) bids first"):
        state.apply(moves)
    with pytest.raises(Exception, match="seat 5 does not exist"):
        state.apply({5: 1})
    state.apply([1])
    assert state.to_move() == (1,)


@pytest.mark.parametrize("game", ["gops-for-three", "throps"])
def test_replay_says_a_cut_off_game_stopped_at_its_cap_of_deals(game, tmp_path):
    import json
    import subprocess
    import sys

    path = tmp_path / "cut.json"
    path.write_text(json.dumps(_finished_record(game, target=1000, max_deals=2)))
    out = subprocess.run([sys.executable, "-m", "gopskit.cli", "replay", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("The match was cut off at its cap of 2 deals, before anyone reached the target of 1000: ")
    assert " hands" not in last and "player " not in last
