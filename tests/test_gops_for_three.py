"""Gops for three (Parlett): every rule on a deal worked out by hand, plus properties and contracts."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contracts import check_agent_contract, check_game_contract
from gopskit.agents import make_agent
from gopskit.agents.gops_for_three import Proportional, Spoiler, bid_at_quantile, prize_quantile
from gopskit.arena import play_game
from gopskit.errors import IllegalMoveError, OptionError, RecordError
from gopskit.games import make_rules, replay_record
from gopskit.games.gops_for_three import (
    JOKER, PRIZE_CARDS, GopsForThree, bids_from_hand, deal_points, prize_total, resolve_bids,
)

SINGLE = GopsForThree(deals=1)


def deal(*top, rules=SINGLE):
    """A deal whose stack starts with ``top``; the rest follow in order, the Joker last unless listed."""
    return rules.deal_from(list(top) + [c for c in PRIZE_CARDS if c not in top])


def rotations(*triples):
    """Bid rounds in which each player spends the same cards: every triple played in its three rotations."""
    rounds = []
    for a, b, c in triples:
        rounds += [[a, b, c], [b, c, a], [c, a, b]]
    return rounds


# ------------------------------------------------------------- one trick ---
def test_highest_of_three_different_bids_wins():
    state = deal(7)
    event = state.apply([5, 9, 2])
    assert event.winner == 1 and event.reason == "highest" and state.won[1] == [(7,)]
    assert event.explain() == "Player 2 wins the 7♦ with the 9 (highest bid; Player 1 bid 5, Player 3 bid 2)."
    assert state.offer == (1,)  # the next diamond is turned
    assert [sorted(h) for h in state.hands] == [sorted(set(range(1, 14)) - {b}) for b in (5, 9, 2)]


def test_two_equal_high_bids_give_the_prize_to_the_lowest_bidder():
    state = deal(10)
    event = state.apply([13, 13, 2])
    assert event.winner == 2 and event.reason == "pair" and event.paired == (0, 1)
    assert state.won[2] == [(10,)]
    assert "two equal bids give the prize to the third player" in event.explain()


def test_two_equal_low_bids_give_the_prize_to_the_highest_bidder():
    state = deal(10)
    assert state.apply([3, 12, 3]).winner == 1


def test_ace_high_beats_the_king_and_ace_low_loses_to_the_two():
    assert deal(5).apply(["A+", 13, 12]).winner == 0
    assert deal(5).apply(["A-", 2, 3]).winner == 2
    assert deal(5).apply([2, "A-", 4]).winner == 2


def test_ace_high_and_ace_low_are_a_pair_by_default():
    event = deal(5).apply(["A+", "A-", 4])
    assert event.winner == 2 and event.reason == "pair"
    assert "an Ace (A↑ and A↓: one high, one low, still a pair)" in event.explain()


def test_option_aces_pair_false_makes_high_and_low_aces_different_bids():
    rules = GopsForThree(deals=1, aces_pair=False)
    assert deal(5, rules=rules).apply(["A+", "A-", 4]).winner == 0
    assert deal(5, rules=rules).apply(["A-", "A+", "A+"]).winner == 0  # two high Aces pair


def test_resolve_bids_directly():
    assert resolve_bids([2, 3, 4]) == (2, "highest", ())
    assert resolve_bids([8, 2, 8]) == (1, "pair", (0, 2))
    assert resolve_bids([6, 6, 6]) == (None, "triple", (0, 1, 2))
    assert resolve_bids(["A+", "A-", "A+"]) == (None, "triple", (0, 1, 2))
    assert resolve_bids(["A+", "A-", "A+"], aces_pair=False)[:2] == (1, "pair")


# ------------------------------------------------------ three-way ties ---
def test_three_equal_bids_are_set_aside_and_everyone_bids_again():
    state = deal(9)
    event = state.apply([6, 6, 6])
    assert event.outcome == "rebid" and event.winner is None
    assert state.offer == (9,) and state.to_move() == (0, 1, 2)
    assert 6 not in state.legal_moves(0) and state.set_aside == [[6], [6], [6]]
    assert state.observation(1).rebid == 1 and state.observation(1).set_aside == ((6,), (6,), (6,))
    assert event.explain() == "All three bid 6: those cards are set aside and everyone bids again for the 9♦."


def test_after_a_rebid_the_tied_cards_return_and_the_deciding_cards_are_spent():
    state = deal(9)
    state.apply([6, 6, 6])
    state.apply([4, 4, 4])
    event = state.apply([2, 10, 3])
    assert event.winner == 1 and event.round == 2 and event.returned
    assert event.explain().endswith("; the tied cards go back to hand.")
    assert state.won[1] == [(9,)] and state.offer == (1,)
    assert state.spent == [[2], [10], [3]]
    for player, spent in enumerate((2, 10, 3)):
        assert sorted(state.hands[player]) == sorted(set(range(1, 14)) - {spent})
    assert state.set_aside == [[], [], []]


def test_a_pair_in_a_rebid_still_gives_the_prize_to_the_third_player():
    state = deal(9)
    state.apply([6, 6, 6])
    assert state.apply([13, 2, 13]).winner == 1


def test_three_way_tie_on_the_last_diamond_means_nobody_wins_it():
    stack = [JOKER] + list(range(1, 14))  # 13 tricks: Joker + A, then 2 .. 13
    state = SINGLE.deal_from(stack)
    for bids in rotations((2, 3, 4), (5, 6, 7), (8, 9, 10), (11, 12, 13)):
        state.apply(bids)
    assert state.offer == (13,)
    event = state.apply(["A+", "A+", "A+"])
    assert event.outcome == "lost" and state.is_terminal()
    assert state.lost == [13]
    assert "nobody wins the K♦" in event.explain()


def test_running_out_of_cards_in_a_rebid_loses_the_prize_and_ends_the_deal():
    stack = [JOKER] + list(range(1, 14))
    state = SINGLE.deal_from(stack)
    rounds = rotations((2, 3, 4), (5, 6, 7), (8, 9, 10)) + [[11, 12, 11], [12, 11, 12]]
    for bids in rounds:
        state.apply(bids)
    assert [sorted(h) for h in state.hands] == [[1, 13]] * 3 and state.offer == (12,)
    assert state.apply([13, 13, 13]).outcome == "rebid"
    assert state.apply(["A-", "A+", "A-"]).outcome == "lost"
    assert state.is_terminal() and state.lost == [12]
    assert state.hands == [set(), set(), set()] and state.record()["prizes"] == stack[:13]


# ----------------------------------------------------------- the Joker ---
def test_the_joker_is_turned_with_the_card_under_it_and_both_go_to_the_winner():
    state = deal(JOKER, 8)
    assert state.offer == (JOKER, 8)
    event = state.apply([3, 12, 4])
    assert state.won[1] == [(JOKER, 8)] and state.totals()[1] == 16
    assert event.explain().startswith("Player 2 wins the Joker + 8♦ with the Q")
    assert state.offer == (1,)


# twelve tricks after which players 1 and 2 hold the Ace and player 3 the Q
TWELVE = rotations((2, 3, 4), (5, 6, 7), (8, 9, 10)) + [[11, 12, 13], [12, 13, 11], [13, 11, "A+"]]


def test_a_bottom_joker_goes_with_the_last_diamond_and_counts_zero():
    state = deal()  # stack 1 .. 13 then the Joker
    for bids in TWELVE:
        state.apply(bids)
    assert state.offer == (13, JOKER)
    state.apply(["A+", "A-", 12])  # the two Aces pair: player 3 wins
    assert state.won[2][-1] == (13, JOKER) and state.joker_holder() == 2
    assert state.is_terminal() and state.record()["prizes"] == list(PRIZE_CARDS)


def test_option_bottom_joker_nobody_leaves_it_unturned():
    state = deal(rules=GopsForThree(deals=1, bottom_joker="nobody"))
    for bids in TWELVE:
        state.apply(bids)
    assert state.offer == (13,)
    state.apply(["A+", "A-", 12])
    assert state.won[2][-1] == (13,)
    assert state.is_terminal() and state.joker_holder() is None
    assert JOKER not in state.record()["prizes"]


# -------------------------------------------------------- prize values ---
@pytest.mark.parametrize("tricks, total", [
    ([(4,), (9,), (1,)], 14),            # numerals and the Ace at face value
    ([(12,)], 0),                        # the Queen counts 0
    ([(3,), (8,), (11,)], 14),           # J = lowest numeral (3)
    ([(3,), (8,), (13,)], 19),           # K = highest numeral (8)
    ([(11,), (13,), (12,)], 0),          # no numeral: J and K count 0
    ([(12,), (5,), (11,)], 10),          # the Queen is not the Jack's "lowest diamond"
    ([(JOKER, 6)], 12),                  # Joker = the card under it
    ([(JOKER, 13), (2,), (7,)], 23),     # Joker under the K counts as the K (7)
    ([(13, JOKER)], 0),                  # bottom Joker counts 0; K with no numeral 0
])
def test_prize_values(tricks, total):
    assert prize_total(tricks) == total


@pytest.mark.parametrize("totals, joker, points, rule", [
    ([30, 12, 21], None, [30, 12, 0], "high-low"),   # middle scores nothing
    ([25, 25, 9], 0, [0, 0, 9], "pair"),             # tie for high: the low one scores alone
    ([4, 40, 4], 1, [0, 40, 0], "pair"),             # tie for low: the high one scores alone
    ([10, 10, 10], 2, [0, 0, 10], "triple"),         # all equal: the Joker holder only
    ([10, 10, 10], None, [0, 0, 0], "triple"),
])
def test_deal_points(totals, joker, points, rule):
    assert deal_points(totals, joker) == (points, rule)


def test_a_whole_deal_scores_high_and_low_and_explains_it():
    state = deal(10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 12, 13)  # the Joker is at the bottom
    for bids in [[13, 2, 3], [12, 3, 4], [11, 4, 5], [10, 5, 6], [9, 6, 7]]:  # P1 takes 10 9 8 7 6
        state.apply(bids)
    assert state.won[0] == [(10,), (9,), (8,), (7,), (6,)]
    assert state.scores() == [40, 0, 0]  # as if it ended now: the two empty totals pair up
    for bids in [[2, 13, 8], [3, 12, 9], [4, 11, 10], [5, 10, 2], [6, 9, "A-"]]:  # P2 takes 5 4 3 2 A
        state.apply(bids)
    for bids in [[7, 8, 13], [8, 7, 12]]:  # P3 takes the J and the Q
        state.apply(bids)
    assert [sorted(h) for h in state.hands] == [[1], [1], [11]] and state.offer == (13, JOKER)
    last = state.apply(["A+", "A-", 11])  # two Aces pair: P3 takes the K and the Joker
    assert state.is_terminal() and state.joker_holder() == 2
    assert state.totals() == [40, 15, 0]  # P3: J, Q, K and a bottom Joker, with no numeral: 0
    assert state.scores() == [40, 0, 0]   # P2 is in the middle; P3's low total is 0
    assert state.winners() == [0]
    assert last.deal.rule == "high-low"
    assert last.explain().endswith(
        "Deal over, totals 40, 15, 0: Player 1 scores 40 (highest), Player 3 scores 0 (lowest), Player 2 in the middle scores 0.")


# ------------------------------------------------------------ bad moves ---
def test_a_bare_ace_is_refused_with_a_clear_message_and_nothing_changes():
    state = deal(5)
    before = state.record()
    for bad in ([1, 2, 3], ["A", 2, 3], {0: 1, 1: 2, 2: 3}):
        with pytest.raises(IllegalMoveError, match=r"'A\+' \(high.*'A-' \(low"):
            state.apply(bad)
    assert state.record() == before and len(state.hands[0]) == 13


def test_spent_and_set_aside_cards_are_refused():
    state = deal(5)
    state.apply([7, 8, 9])
    before = state.record()
    with pytest.raises(IllegalMoveError, match="player 1 cannot play 7; allowed"):
        state.apply([7, 2, 3])
    state.apply([4, 4, 4])
    with pytest.raises(IllegalMoveError, match="player 2 cannot play 4"):
        state.apply([2, 4, 3])
    assert state.record()["bids"] == before["bids"] + [[4, 4, 4]]
    with pytest.raises(IllegalMoveError, match="must say how the Ace bids"):
        state.apply([2, 3, 1])


def test_options_are_checked():
    with pytest.raises(OptionError, match="bottom_joker"):
        GopsForThree(bottom_joker="first")
    with pytest.raises(OptionError, match="deals"):
        GopsForThree(deals=0)
    with pytest.raises(OptionError, match="aces_pair"):
        GopsForThree(aces_pair="yes")
    with pytest.raises(OptionError, match="prize stack"):
        GopsForThree().deal_from([1, 2, 3])
    with pytest.raises(OptionError, match="prize stack"):
        GopsForThree().deal_from(["1"] + list(range(2, 14)) + [JOKER])


def test_legal_moves_list_the_ace_both_ways():
    assert bids_from_hand({1, 5, 13}) == ["A-", 5, 13, "A+"]
    assert bids_from_hand({5, 13}) == [5, 13]


# ------------------------------------------------------------- matches ---
def test_a_game_is_three_deals_by_default_and_adds_deal_points():
    state = GopsForThree().new_game(seed=4)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply({p: state.legal_moves(p)[rng.integers(len(state.legal_moves(p)))] for p in state.to_move()})
    assert len(state.hands) == 3
    assert state.scores() == [sum(h.scores()[p] for h in state.hands) for p in range(3)]
    assert set(state.record()) == {"game", "options", "hands"}


def test_a_game_to_a_target_ends_when_one_player_leads_past_it():
    rules = GopsForThree(target=100)
    assert rules.match_over([100, 40, 0], 3) and not rules.match_over([99, 40, 0], 3)
    assert not rules.match_over([120, 120, 0], 4) and rules.match_over([120, 120, 0], 30)
    state = play_game(rules, ["random"] * 3, seed=2)
    assert max(state.scores()) >= 100 or len(state.hands) == 30
    assert state.winners() == [int(np.argmax(state.scores()))]


def test_observation_in_a_match_carries_the_running_totals():
    state = play_game(GopsForThree(deals=2), ["gops3-proportional", "random", "random"], seed=5)
    first = state.hands[0].scores()
    obs = state.observation(0)
    assert obs.hand_number == 1 and list(obs.match_scores) == first


# ------------------------------------------------------------- records ---
def test_record_round_trip_through_replay_record():
    state = play_game(SINGLE, ["random"] * 3, seed=9)
    record = json.loads(json.dumps(state.record()))
    again = replay_record(record)
    assert again.record() == record and again.scores() == state.scores()
    assert again.log() == state.log()


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(prizes=[7, 7]), "listed twice"),
    (lambda r: r.update(prizes=[14]), "not a diamond"),
    (lambda r: r.update(bids=[[2, 3]]), "turn 1: expected a list of 3 bids"),
    (lambda r: r["bids"].append([3, 2, 1]), "turn 3: player 3 must say how the Ace bids"),
    (lambda r: r["bids"].append([2, 5, 5]), "turn 3: player 1 cannot play 2"),
    (lambda r: r.update(prizes=r["prizes"][:-1]), "prize card"),
    (lambda r: r.pop("bids"), "needs lists 'prizes' and 'bids'"),
])
def test_malformed_records_name_the_fault(change, message):
    state = deal(7)
    state.apply([2, 3, 4])
    state.apply([5, 6, 7])
    record = json.loads(json.dumps(state.record()))
    change(record)
    with pytest.raises(RecordError, match=message):
        replay_record(record)


def test_the_registry_finds_the_game():
    assert make_rules("gops-for-three", deals=1) == SINGLE


# ----------------------------------------------------------- contracts ---
@pytest.mark.parametrize("options", [
    {}, {"deals": 1}, {"deals": 1, "aces_pair": False, "bottom_joker": "nobody"}, {"target": 60},
])
def test_game_contract(options):
    check_game_contract(GopsForThree(**options), seeds=range(3))


@pytest.mark.parametrize("name", ["random", "gops3-proportional", "gops3-spoiler"])
@pytest.mark.parametrize("options", [{"deals": 1}, {"deals": 1, "aces_pair": False}])
def test_agent_contract(name, options):
    check_agent_contract(lambda: make_agent(name), GopsForThree(**options), games=2)


# ---------------------------------------------------------- properties ---
def random_deal(seed, aces_pair, bottom_joker, stop=None):
    rules = GopsForThree(deals=1, aces_pair=aces_pair, bottom_joker=bottom_joker)
    state, rng = rules.new_game(seed), np.random.default_rng(seed + 1)
    steps = 0
    while not state.is_terminal() and steps != stop:
        for p in range(3):  # legal moves are exactly the cards in hand, the Ace both ways
            assert sorted({1 if m in ("A+", "A-") else m for m in state.legal_moves(p)}) == sorted(state.hands[p])
        state.apply({p: state.legal_moves(p)[rng.integers(len(state.legal_moves(p)))] for p in state.to_move()})
        steps += 1
    return state


deals = st.tuples(st.integers(0, 10**6), st.booleans(), st.sampled_from(["last-trick", "nobody"]))


@settings(max_examples=40, deadline=None)
@given(deals, st.integers(0, 14))
def test_cards_and_prizes_are_conserved(args, stop):
    state = random_deal(*args, stop=stop)
    for p in range(3):
        aside = [1 if b in ("A+", "A-") else b for b in state.set_aside[p]]
        assert sorted(list(state.hands[p]) + state.spent[p] + aside) == list(range(1, 14))
    won = [c for w in state.won for t in w for c in t]
    unturned = state.stack[state.turned:]
    assert sorted(map(str, won + state.lost + list(state.offer) + unturned)) == sorted(map(str, PRIZE_CARDS))
    record = json.loads(json.dumps(state.record()))
    assert replay_record(record).record() == record  # partial deals replay too (a re-bid, a Joker pending)


@settings(max_examples=40, deadline=None)
@given(deals)
def test_finished_deals_score_as_the_rules_promise(args):
    state = random_deal(*args)
    totals, points = state.totals(), state.scores()
    assert all(p in (0, t) for p, t in zip(points, totals))
    if len(set(totals)) == 3:
        assert sum(points) == max(totals) + min(totals)
        assert points[sorted(range(3), key=totals.__getitem__)[1]] == 0
    elif len(set(totals)) == 2:
        assert sum(1 for p in points if p) <= 1
    else:
        assert sum(1 for p in points if p) <= 1 and (not any(points) or points.index(max(points)) == state.joker_holder())
    if args[2] == "last-trick" and not state.lost:
        assert state.joker_holder() is not None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_seeded_play_repeats(seed):
    agents = ["gops3-spoiler", "random", "random"]
    assert play_game(SINGLE, agents, seed=seed).record() == play_game(SINGLE, agents, seed=seed).record()


# ----------------------------------------------------------------- bots ---
def test_proportional_bids_its_best_card_for_the_richest_prize_and_its_worst_for_a_queen():
    bot = Proportional()
    rich = deal(JOKER, 10)  # Joker + 10 is worth 20: more than any prize left
    assert bot.act(rich.observation(0)) == "A+"
    queen = deal(12)  # worth 0, like nothing else but the K and J guesses
    assert bot.act(queen.observation(0)) == "A-"
    assert bot.policy(queen.observation(0)) == {"A-": 1.0}


def test_bid_at_quantile_places_the_ace_at_the_nearer_end():
    moves = ["A-", 2, 3, 4, 13, "A+"]
    assert bid_at_quantile(moves, 0.0) == "A-" and bid_at_quantile(moves, 1.0) == "A+"
    assert bid_at_quantile(moves, 0.5) == 4
    assert bid_at_quantile([2, 3, 4], 0.5) == 3


def test_prize_quantile_ranks_the_prize_among_those_left():
    state = deal(13)  # K worth 10 (the highest numeral still to come), like the 10 itself
    assert prize_quantile(state.observation(0)) == pytest.approx(11.5 / 12)


def test_spoiler_plays_for_the_low_total_when_it_cannot_be_highest():
    state = deal(10, 9, 8, 7, 6, 5)
    for bids in [[2, 13, 3], [3, 12, 4], [4, 11, 5], [5, 10, 6]]:
        state.apply(bids)
    obs = state.observation(0)
    assert obs.totals == (0, 34, 0)
    bot = Spoiler(give_up=20)
    assert bot.plays_low(obs)
    assert bot.act(obs) != Proportional().act(obs)


def test_bots_beat_random_over_a_few_deals():
    for name in ("gops3-proportional", "gops3-spoiler"):
        points = [play_game(SINGLE, [name, "random", "random"], seed=s).scores() for s in range(40)]
        assert np.mean(points, axis=0)[0] > np.mean(points, axis=0)[1:].max()


def test_prize_values_say_what_each_prize_is_worth_and_add_up_to_the_total():
    from gopskit.games.gops_for_three import prize_total, prize_values

    tricks = [(5,), (11,), ("JK", 13), (9,), (12,), (2,), ("JK",)]  # a Joker turned last is worth nothing
    assert prize_values(tricks) == [(5, 5), (11, 2), ("JK", 9), (13, 9), (9, 9), (12, 0), (2, 2), ("JK", 0)]
    assert prize_total(tricks) == sum(v for _c, v in prize_values(tricks)) == 36
    assert prize_values([(13,), (11,)]) == [(13, 0), (11, 0)]  # no A..10 diamond: J and K are worth 0
