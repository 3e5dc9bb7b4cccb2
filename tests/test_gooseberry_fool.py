"""Gooseberry Fool (Parlett): every rule on hand-worked tricks, the source's examples, properties, contracts."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from contracts import check_agent_contract, check_game_contract
from gopskit.agents import make_agent
from gopskit.agents.gooseberry_fool import Middler, gooseberry_chance, middle_margin
from gopskit.arena import play_game
from gopskit.cards import JOKER, is_red, suit_of
from gopskit.errors import IllegalMoveError, OptionError, RecordError
from gopskit.games import make_rules, replay_record
from gopskit.games.gooseberry_fool import (
    DECK, GooseberryFool, GooseberryState, card_strength, deal_points, gooseberries, gooseberry, middling, right_of,
)

SINGLE = GooseberryFool(target=None)
SETTINGS = settings(max_examples=25, deadline=None)


def deal_with(given, void=None, dealer=2):
    """A full deal where each seat holds ``given[seat]``; the other cards fill the hands,
    never giving a seat a suit listed for it in ``void``."""
    void = void or {}
    hands = [list(given.get(p, [])) for p in range(3)]
    rest = [c for c in DECK if c not in sum(hands, [])]
    for card in sorted(rest, key=lambda c: -sum(suit_of(c) in v for v in void.values())):
        room = [p for p in range(3) if len(hands[p]) < 11 and suit_of(card) not in void.get(p, "")]
        hands[max(room, key=lambda p: 11 - len(hands[p]))].append(card)
    assert all(len(h) == 11 for h in hands)
    return GooseberryState(SINGLE, hands, dealer)


def snapshot(state):
    return json.dumps(state.record(), sort_keys=True), state.to_move(), state.leader


# ------------------------------------------------- the source's examples ---
@pytest.mark.parametrize("cards, void, winner, reason, why", [
    (["JS", "9S", "QS"], {}, 0, "middle", "Player 1's J♠ is the middle card of three spades"),
    (["QH", "AD", "7H"], {1: "H"}, 1, "odd suit", "Player 2's A♦ is the only diamond"),
    (["JC", "9S", "KH"], {1: "C", 2: "C"}, 2, "odd colour", "Player 3's K♥ is the only red card"),
])
def test_the_three_worked_tricks_of_the_source(cards, void, winner, reason, why):
    assert gooseberry(cards) == (winner, reason)
    state = deal_with({0: [cards[0], JOKER], 1: [cards[1]], 2: [cards[2]]}, void)
    assert state.apply([cards[0]]) is None and state.apply([cards[1]]) is None
    event = state.apply([cards[2]])
    assert (event.winner, event.taker, event.reason) == (winner, winner, reason)
    assert why in event.explain() and event.explain().endswith(f"Player {winner + 1} takes the trick and leads next.")
    assert state.to_move() == (winner,)
    assert state.observation(0).tricks_won == tuple(int(p == winner) for p in range(3))


# ------------------------------------------------------ the odd card out ---
@pytest.mark.parametrize("cards, winner", [
    (["AS", "7S", "KS"], 2),    # the Ace ranks high: K is in the middle
    (["7D", "8D", "9D"], 1),
    (["10H", "JH", "AH"], 1),
    (["7D", "QH", "AH"], 0),    # the led card can be the odd suit
    (["KC", "KS", "7C"], 1),
    (["AS", "KC", "7H"], 2),    # two black, one red
    (["7H", "8D", "9S"], 2),    # two red, one black
    (["QD", "QS", "QC"], 0),
])
def test_the_gooseberry_is_the_odd_card_out(cards, winner):
    assert gooseberry(cards)[0] == winner


def test_the_fast_trick_judge_agrees_with_the_rule_read_plainly_on_every_trick():
    def plain(cards):
        suits = [suit_of(c) for c in cards]
        if len(set(suits)) == 1:
            return sorted(range(3), key=lambda i: card_strength(cards[i]))[1]
        if len(set(suits)) == 2:
            return next(i for i in range(3) if suits.count(suits[i]) == 1)
        reds = [is_red(c) for c in cards]
        return next(i for i in range(3) if reds.count(reds[i]) == 1)

    cards = [c for c in DECK if c != JOKER]
    assert len(cards) == 32 and card_strength("AS") == 14 and card_strength("7D") == 7
    assert all(gooseberry(t)[0] == plain(t) for t in itertools.permutations(cards, 3))


# -------------------------------------------------------- following suit ---
def test_a_player_who_holds_the_led_suit_must_follow_and_nothing_changes_on_refusal():
    state = deal_with({0: ["AS", JOKER], 1: ["KS", "AH"], 2: ["QS"]})
    state.apply(["AS"])
    assert "AH" not in state.legal_moves(1) and "KS" in state.legal_moves(1)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="must follow suit: spades were led"):
        state.apply(["AH"])
    assert snapshot(state) == before


def test_a_player_who_cannot_follow_may_play_any_card():
    state = deal_with({0: ["AS", JOKER], 1: ["AH"]}, void={1: "S"})
    state.apply(["AS"])
    assert set(state.legal_moves(1)) == state.hands[1] and len(state.hands[1]) == 11


def test_a_card_not_in_hand_or_not_a_card_is_refused_clearly():
    state = deal_with({0: ["AS", JOKER], 1: ["KS"]})
    with pytest.raises(IllegalMoveError, match="does not hold 'KS'"):
        state.apply(["KS"])
    with pytest.raises(IllegalMoveError, match="does not hold 'XX'"):
        state.apply({0: "XX"})
    with pytest.raises(IllegalMoveError, match="player 2 may not move now"):
        state.apply({1: "KS"})
    assert state.record()["plays"] == []


# --------------------------------------------------------------- the Goose --
def test_the_goose_must_be_played_the_first_time_its_holder_cannot_follow():
    state = deal_with({0: ["AS"], 1: [JOKER, "AH"]}, void={1: "S"})
    state.apply(["AS"])
    assert state.legal_moves(1) == [JOKER]
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="cannot follow spades and holds the Goose, so must play it now"):
        state.apply(["AH"])
    assert snapshot(state) == before


def test_the_goose_holder_who_can_follow_must_follow():
    state = deal_with({0: ["AS"], 1: [JOKER, "KS"]})
    state.apply(["AS"])
    assert JOKER not in state.legal_moves(1)
    with pytest.raises(IllegalMoveError, match="must follow suit"):
        state.apply([JOKER])


def test_the_goose_may_not_be_led_before_it_is_the_last_card():
    state = deal_with({0: [JOKER, "AS"]})
    assert JOKER not in state.legal_moves(0)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="the Goose may be led only as player 1's last card"):
        state.apply([JOKER])
    assert snapshot(state) == before


def test_the_goose_wins_and_its_holder_gooses_who_takes_the_trick_and_leads():
    state = deal_with({0: ["AS"], 1: [JOKER], 2: ["KS"]}, void={1: "S"})
    state.apply(["AS"])
    state.apply([JOKER])
    pending = state.apply(["KS"])
    assert pending.taker is None and pending.winner == 1
    assert pending.explain() == "A♠ Goose K♠: the Goose wins; Player 2 now chooses who takes the trick."
    assert state.to_move() == (1,) and state.legal_moves(1) == [0, 1, 2] and state.legal_moves(0) == []
    assert state.observation(0).goose_holder == 1
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="chooses who takes the trick: give a seat number"):
        state.apply(["QS"])
    assert snapshot(state) == before
    event = state.apply([2])
    assert event.explain() == ("A♠ Goose K♠: Player 2's Goose wins and Player 2 gooses Player 3, "
                               "who takes the trick and leads next.")
    assert state.to_move() == (2,) and state.observation(0).tricks_won == (0, 0, 1)
    assert state.record()["plays"] == [["AS", JOKER, "KS", 2]]
    assert len(state.events) == 1  # the half-way result is returned, not logged


def test_the_goose_holder_may_keep_the_trick_and_then_leads():
    state = deal_with({0: ["AS"], 1: [JOKER], 2: ["KS"]}, void={1: "S"})
    for card in ("AS", JOKER, "KS"):
        state.apply([card])
    assert "Player 2 keeps the trick and leads next" in state.apply({1: 1}).explain()
    assert state.to_move() == (1,)


def test_a_goose_led_as_the_last_card_wins_and_ends_the_deal_with_a_goosing():
    state = GooseberryState(SINGLE, [["KS", JOKER], ["AS", "7H"], ["QS", "8H"]], dealer=2)
    assert state.legal_moves(0) == ["KS"]
    for card in ("KS", "AS", "QS"):
        state.apply([card])
    assert state.to_move() == (0,) and state.legal_moves(0) == [JOKER]
    state.apply([JOKER])
    assert state.led_suit is None and state.legal_moves(1) == ["7H"]
    state.apply(["7H"])
    state.apply(["8H"])
    event = state.apply([1])
    assert state.is_terminal() and [t.taker for t in state.tricks] == [0, 1]
    # seat 0: 1 own + 2 x 0 (seat 2 on its right); seat 1: 1 + 2 x 1; seat 2: 0 + 2 x 1.
    assert state.points() == [1, 3, 2] and state.scores() == [1, 3, 12] and state.winners() == [2]
    assert event.explain().endswith("End of the deal: Player 1 1, Player 2 3, Player 3 2 + 10 for the middling score.")


# ----------------------------------------------------------------- scores --
def test_the_player_on_your_right_is_the_seat_before_yours():
    assert [right_of(p) for p in range(3)] == [2, 0, 1]


def test_deal_points_worked_by_hand():
    # seat 0: 5 + 2 x 2; seat 1: 4 + 2 x 5; seat 2: 2 + 2 x 4.
    assert deal_points([5, 4, 2]) == [9, 14, 10]
    assert middling([9, 14, 10]) == 2
    assert deal_points([11, 0, 0]) == [11, 22, 0]


def test_the_three_deal_scores_add_to_33_and_never_tie():
    for t0, t1 in itertools.product(range(12), repeat=2):
        if t0 + t1 <= 11:
            points = deal_points([t0, t1, 11 - t0 - t1])
            assert sum(points) == 33 and len(set(points)) == 3 and middling(points) is not None


def test_a_finished_deal_adds_the_bonus_to_the_middling_score():
    state = play_game(SINGLE, ["random"] * 3, seed=11)
    points = deal_points(list(state.observation(0).tricks_won))
    mid = middling(points)
    assert state.scores() == [p + 10 * (i == mid) for i, p in enumerate(points)]
    assert state.winners() == [mid] and sum(state.scores()) == 43


# ---------------------------------------------------------------- matches --
def test_the_deal_passes_left_and_the_dealers_left_leads():
    rules = GooseberryFool(target=500, dealer=1)
    assert [rules.dealer_of_hand(k) for k in range(4)] == [1, 2, 0, 1]
    assert [rules.leader_of_hand(k) for k in range(4)] == [2, 0, 1, 2]
    match = rules.new_game(seed=3)
    assert match.to_move() == (2,)
    while len(match.hands) == 1:
        player = match.to_move()[0]
        match.apply({player: match.legal_moves(player)[0]})
    assert match.hand.dealer == 2 and match.to_move() == (0,)
    assert match.observation(0).match_scores == tuple(match.hands[0].scores())


@pytest.mark.parametrize("totals, over, winner", [
    ([99, 50, 40], False, None),
    ([100, 80, 60], True, [1]),      # the middling total wins
    ([104, 104, 60], True, [2]),     # two tie: the untied third wins
    ([60, 120, 60], True, [1]),
    ([101, 101, 101], False, None),  # all three tie: play another deal
])
def test_the_match_ends_at_100_and_the_middling_player_wins(totals, over, winner):
    rules = GooseberryFool()
    assert rules.match_over(totals, 3) == over
    if winner:
        assert rules.match_winners(totals) == winner
    assert rules.match_over(totals, rules.max_hands)


@pytest.mark.parametrize("totals, winner", [
    ([105, 80, 60], [0]),    # the only one to reach 100
    ([105, 101, 60], [2]),   # the only one not to reach it
    ([105, 101, 100], [1]),  # all three reached: the middling rule decides
])
def test_the_variant_ending(totals, winner):
    assert GooseberryFool(ending="reach").match_winners(totals) == winner


def test_gooseberries_of_a_three_way_tie_is_everyone():
    assert gooseberries([7, 7, 7]) == [0, 1, 2]


def test_a_whole_match_banks_deal_scores_until_someone_reaches_the_target():
    state = play_game(GooseberryFool(target=60), ["random"] * 3, seed=5)
    totals = np.sum([hand.scores() for hand in state.hands], axis=0)
    assert list(totals) == state.scores() and max(totals) >= 60
    assert all(max(np.sum([h.scores() for h in state.hands[:k]], axis=0)) < 60 for k in range(1, len(state.hands)))
    assert state.winners() == GooseberryFool(target=60).match_winners(state.scores())


# ------------------------------------------------------ options & records --
@pytest.mark.parametrize("options", [
    {"target": 0}, {"ending": "first"}, {"dealer": 3}, {"max_hands": 0}, {"players": 4},
])
def test_bad_options_are_refused(options):
    with pytest.raises(OptionError):
        make_rules("gooseberry-fool", **options)


def test_a_single_deal_record_replays_exactly():
    state = play_game(SINGLE, ["random"] * 3, seed=2)
    record = json.loads(json.dumps(state.record()))
    assert set(record) == {"game", "options", "deal", "plays"} and len(record["plays"]) == 11
    again = replay_record(record)
    assert again.record() == record and again.scores() == state.scores() and again.log() == state.log()


def _good_record():
    return json.loads(json.dumps(play_game(SINGLE, ["random"] * 3, seed=2).record()))


@pytest.mark.parametrize("damage, message", [
    (lambda r: r.pop("deal"), "needs lists 'deal'"),
    (lambda r: r["deal"][0].__setitem__(0, "1S"), "the deal must be three hands"),
    (lambda r: r["plays"][1].__setitem__(0, "ZZ"), "turn 2: player"),
    (lambda r: r["plays"][2].append("AS"), "turn 3: "),
    (lambda r: r["plays"].__setitem__(0, "AS"), "turn 1: a trick lists its three cards"),
    (lambda r: r["plays"][3].pop(), "turn 4: a trick lists"),
])
def test_a_bad_record_names_the_turn(damage, message):
    record = _good_record()
    damage(record)
    with pytest.raises(RecordError, match=message):
        replay_record(record)


def test_a_record_cannot_play_a_card_out_of_turn_or_break_suit():
    record = _good_record()
    record["plays"][0][0], record["plays"][0][1] = record["plays"][0][1], record["plays"][0][0]
    with pytest.raises(RecordError, match="turn 1: player"):
        replay_record(record)


# -------------------------------------------------------------- observations
def test_a_player_sees_their_hand_and_the_table_but_never_another_hand():
    state = deal_with({0: ["AS", JOKER], 1: ["KS"], 2: ["QS"]})
    state.apply(["AS"])
    obs = state.observation(1)
    assert obs.hand == tuple(sorted(state.hands[1], key=DECK.index)) and obs.table == ((0, "AS"),)
    assert obs.led_suit == "S" and obs.played == ("AS",) and obs.hand_sizes == (10, 11, 11)
    assert set(obs.unseen) == set(DECK) - set(obs.hand) - {"AS"}
    assert "hands" not in obs.to_dict() and "dealt" not in obs.to_dict()


# ------------------------------------------------------------- properties --
def _random_deal(seed, check):
    state, rng = SINGLE.new_game(seed), np.random.default_rng(seed)
    while not state.is_terminal():
        before = state.clone()
        player = state.to_move()[0]
        move = state.legal_moves(player)[int(rng.integers(len(state.legal_moves(player))))]
        state.apply({player: move})
        check(before, player, move, state)
    return state


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_cards_are_conserved_and_every_play_keeps_the_rules(seed):
    def check(before, player, move, after):
        played = [c for t in after.tricks for _, c in t.plays] + [c for _, c in after.table]
        assert sorted(played + [c for h in after.hands for c in h]) == sorted(DECK)
        if isinstance(move, int):
            return
        led = before.led_suit
        if not before.table:
            assert move != JOKER or before.hands[player] == {JOKER}
        elif led is not None and any(c != JOKER and suit_of(c) == led for c in before.hands[player]):
            assert move != JOKER and suit_of(move) == led
        elif JOKER in before.hands[player]:
            assert move == JOKER

    state = _random_deal(seed, check)
    assert sum(state.points()) == 33 and sum(state.scores()) == 43
    assert sum(state.observation(0).tricks_won) == 11


@SETTINGS
@given(st.sampled_from([None, 40, 100]), st.sampled_from(["middling", "reach"]), st.integers(0, 2), st.integers(0, 10**6))
def test_seeded_play_repeats_and_records_round_trip(target, ending, dealer, seed):
    assume(not (target is None and ending == "reach"))  # refused: a single deal has no target to reach
    rules = GooseberryFool(target=target, ending=ending, dealer=dealer)
    first = play_game(rules, ["random"] * 3, seed=seed)
    assert first.record() == play_game(rules, ["random"] * 3, seed=seed).record()
    text = json.dumps(first.record())
    again = replay_record(json.loads(text))
    assert json.dumps(again.record()) == text and again.winners() == first.winners()
    deals = first.hands if target else [first]
    assert sum(first.scores()) == 43 * len(deals)


# -------------------------------------------------------------- contracts --
@pytest.mark.parametrize("options, seeds", [
    ({"target": None}, range(4)), ({}, range(1)), ({"target": 40, "ending": "reach", "dealer": 0}, range(2)),
])
def test_game_contract(options, seeds):
    check_game_contract(make_rules("gooseberry-fool", **options), seeds=seeds)


@pytest.mark.parametrize("options, games", [({"target": None}, 3), ({"target": 40}, 1)])
def test_agent_contract(options, games):
    check_agent_contract(lambda: make_agent("gooseberry-middler"), make_rules("gooseberry-fool", **options), games=games)


# -------------------------------------------------------------------- bots --
def test_middle_margin():
    assert middle_margin([10, 14, 20], 1) == 4
    assert middle_margin([10, 9, 20], 1) == -1
    assert middle_margin([10, 10, 20], 0) == 0


def test_the_middler_gooses_the_seat_that_keeps_it_in_the_middle():
    state = deal_with({0: ["AS"], 1: [JOKER], 2: ["KS"]}, void={1: "S"})
    for card in ("AS", JOKER, "KS"):
        state.apply([card])
    # From 0-0-0: taker 1 gives (0, 1, 2) -> seat 1 is in the middle with margin 1; taker 0 or 2 puts it last or first.
    assert Middler().act(state.observation(1)) == 1


def test_the_middler_playing_last_sends_the_trick_where_it_helps():
    state = deal_with({0: ["9S", JOKER], 1: ["7S"], 2: ["KS", "8S"]})
    state.apply(["9S"])
    state.apply(["7S"])
    # 8♠ is then the middle card: seat 2 takes it, scoring (2, 0, 1): seat 2 in the middle.
    # Any higher spade leaves 9♠ in the middle: seat 1 scores 2, seat 2 nothing.
    assert Middler().act(state.observation(2)) == "8S"


def test_the_middler_beats_random_players_at_being_the_gooseberry():
    wins = 0
    for seat, seed in itertools.product(range(3), range(40)):
        agents = ["random"] * 3
        agents[seat] = "gooseberry-middler"
        wins += play_game(SINGLE, agents, seed=seed).winners() == [seat]
    assert wins >= 48  # 40% of 120 deals, where a random player wins a third (measured: 52)


def test_the_gooseberry_chance_counts_every_split_of_the_remaining_tricks():
    # One trick left after 10 split (4, 3, 3): taker 0 -> (5,3,3) points 11,13,9: seat 0 middling;
    # taker 1 -> (4,4,3) points 10,12,11: seat 2; taker 2 -> (4,3,4) points 12,11,10: seat 1.
    assert [gooseberry_chance([0, 0, 0], [4, 3, 3], 1, me, bonus=False) for me in range(3)] == [1 / 3] * 3
    assert gooseberry_chance([0, 0, 0], [5, 3, 3], 0, 0, bonus=False) == 1.0
    # In a match the bonus counts: totals (80, 0, 85) plus points 11+10, 13, 9 -> 101, 13, 94: seat 2 middling.
    assert gooseberry_chance([80, 0, 85], [5, 3, 3], 0, 2, bonus=True) == 1.0
