"""Throps (Parlett): every rule on a deal worked out by hand, plus properties and contracts."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contracts import check_agent_contract, check_game_contract
from gopskit.agents import make_agent
from gopskit.agents.throps import Greedy, score_gain
from gopskit.arena import play_game
from gopskit.cards import SUITS, full_deck
from gopskit.errors import IllegalMoveError, OptionError, RecordError
from gopskit.games import make_rules, replay_record
from gopskit.games.throps import Throps, card_points, resolve_trick, score_cards, suit_relation

SINGLE = Throps(target=None)


def leaves(value):
    """Every string inside nested dicts and lists."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in leaves(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in leaves(v)]
    return [value] if isinstance(value, str) else []


# ------------------------------------------------------------- one trick ---
def test_the_highest_rank_takes_the_stock_card_and_the_ace_is_highest():
    state = SINGLE.deal_from([["AC", "2S"], ["KS", "3S"], ["9H", "4S"]], ["7S", "8S"])
    event = state.apply(["AC", "KS", "9H"])
    assert event.winner == 0 and event.tied == () and state.won == [["7S"], [], []]
    assert event.explain() == "Player 1 takes the 7♠ with the A♣ (highest bid; Player 2 bid K♠, Player 3 bid 9♥)."
    assert state.stock_card == "8S"


@pytest.mark.parametrize("stock, bids, winner, relation", [
    ("5D", ["KH", "KD", "2S"], 1, "same suit"),      # diamonds match the stock card
    ("7C", ["KS", "KD", "9H"], 0, "same colour"),    # spades are black like clubs
    ("5S", ["KD", "KH", "2C"], 1, "same parity"),    # hearts are major like spades; diamonds neither
    ("5H", ["AS", "AD", "AC"], 1, "same colour"),    # three-way: diamonds (colour) > spades (parity) > clubs
    ("5C", ["QH", "QS", "QD"], 1, "same colour"),
    ("5C", ["QH", "2S", "QD"], 2, "same parity"),    # diamonds minor like clubs; hearts neither
])
def test_ties_for_highest_are_broken_by_the_suit_ladder(stock, bids, winner, relation):
    spare = [c for c in full_deck() if c not in bids and c != stock][:4]
    state = SINGLE.deal_from([[b, extra] for b, extra in zip(bids, spare)], [stock, spare[3]])
    event = state.apply(bids)
    assert event.winner == winner and event.relation == relation
    assert f"broken by suit: {relation} as the stock card" in event.explain()


def test_the_suit_ladder_orders_all_four_suits_for_every_stock_suit():
    for stock in SUITS:
        assert sorted(suit_relation(s, stock) for s in SUITS) == [0, 1, 2, 3]
    assert [suit_relation(s, "D") for s in "DHCS"] == [0, 1, 2, 3]
    assert resolve_trick(["10S", "10C", "10H"], "4D") == (2, (0, 1, 2))


def test_tie_explanation_names_the_rival_and_the_others():
    state = SINGLE.deal_from([["KS", "2C"], ["KD", "3C"], ["9H", "4C"]], ["7C", "5S"])
    assert state.apply(["KS", "KD", "9H"]).explain() == (
        "Player 1 takes the 7♣ with the K♠ (tie at K with Player 2's K♦, broken by suit: "
        "same colour as the stock card; Player 3 bid 9♥).")


# ------------------------------------------------------------- scoring ---
@pytest.mark.parametrize("cards, total", [
    ([], 40),                              # nothing won: four voids
    (["KS"], 40),                          # 10 + 30
    (["KS", "9S", "4H"], 35),              # 19 - 4 + 20
    (["AS", "2H", "3H", "4H"], 22),        # best suit is spades (11): 11 - 9 + 20
    (["KS", "QH"], 20),                    # two suits worth the same: 10 - 10 + 20 either way
    (["AS", "AH", "AD", "AC"], -22),       # 11 - 33, no voids
    (["2S", "JH", "QD", "KC", "AC"], -1),  # clubs 21 - 22, no voids
])
def test_scores(cards, total):
    assert score_cards(cards).total == total


def test_longest_suit_option_scores_the_suit_with_most_cards():
    cards = ["AS", "2H", "3H", "4H"]
    assert score_cards(cards, "longest").total == 9 - 11 + 20
    assert score_cards(["KS", "QS", "2H", "3H"], "longest").suit == "S"  # equal length: the richer
    rules = Throps(target=None, scoring_suit="longest")
    state = rules.deal_from([["AS", "KS"], ["KD", "3S"], ["QH", "4S"]], ["5H", "6H"])
    state.apply(["AS", "KD", "QH"])
    state.apply(["KS", "3S", "4S"])
    assert state.scores() == [41, 40, 40]  # player 1 holds 5♥ 6♥: 11 + 30


def test_card_points():
    assert [card_points(c) for c in ("2S", "9H", "10D", "JC", "QS", "KH", "AD")] == [2, 9, 10, 10, 10, 10, 11]


def test_a_short_deal_worked_by_hand():
    state = SINGLE.deal_from([["AS", "2C", "3C"], ["KD", "4C", "5C"], ["QH", "6C", "7C"]], ["8S", "9S", "10H"])
    state.apply(["AS", "KD", "QH"])   # P1 takes 8♠
    state.apply(["2C", "4C", "6C"])   # P3 takes 9♠
    last = state.apply(["3C", "5C", "7C"])  # P3 takes 10♥
    assert state.is_terminal() and state.won == [["8S"], [], ["9S", "10H"]]
    assert state.scores() == [38, 40, 21] and state.winners() == [1]
    assert last.explain().endswith(
        "Deal over: Player 1 scores 38 (8 in ♠ - 0 + 30), Player 2 scores 40 (won nothing: four void suits), "
        "Player 3 scores 21 (10 in ♥ - 9 + 20).")


# -------------------------------------------------------- observations ---
def test_a_player_sees_their_hand_the_stock_card_and_what_was_shown_but_not_other_hands():
    state = SINGLE.new_game(seed=3)
    obs = state.observation(0)
    assert obs.hand == tuple(state.legal_moves(0)) and obs.stock_card == state.stock[0]
    assert obs.stock_left == 12 and obs.hand_sizes == (13, 13, 13)
    hidden = set(state.hands[1]) | set(state.hands[2]) | set(state.stock[1:])
    shown = {k: v for k, v in obs.to_dict().items() if k != "unseen"}
    assert not hidden & set(leaves(shown))
    assert set(obs.unseen) == hidden
    bids = [state.legal_moves(p)[0] for p in range(3)]
    state.apply(bids)
    obs = state.observation(0)
    assert obs.played == tuple((b,) for b in bids) and len(obs.unseen) == 52 - 12 - 3 - 2
    assert obs.history[0].bids == tuple(bids)


# ------------------------------------------------------------ bad moves ---
def test_illegal_cards_are_refused_and_nothing_changes():
    state = SINGLE.new_game(seed=1)
    before = state.record()
    foreign = sorted(state.hands[1])[0]
    with pytest.raises(IllegalMoveError, match=f"player 1 cannot play '{foreign}'; allowed"):
        state.apply([foreign, sorted(state.hands[1])[1], sorted(state.hands[2])[0]])
    with pytest.raises(IllegalMoveError, match="expected 3 move"):
        state.apply([sorted(state.hands[0])[0]])
    with pytest.raises(IllegalMoveError, match="cannot play 'ZZ'"):
        state.apply({0: "ZZ", 1: sorted(state.hands[1])[0], 2: sorted(state.hands[2])[0]})
    assert state.record() == before


def test_options_and_deals_are_checked():
    with pytest.raises(OptionError, match="scoring_suit"):
        Throps(scoring_suit="any")
    with pytest.raises(OptionError, match="target"):
        Throps(target=0)
    with pytest.raises(ValueError, match="dealt twice"):
        SINGLE.deal_from([["AS"], ["AS"], ["2C"]], ["3C"])


# ------------------------------------------------------------- matches ---
def test_play_to_100_adds_deal_scores_until_one_player_leads_past_it():
    state = play_game(Throps(), ["random"] * 3, seed=6)
    totals = state.scores()
    assert totals == [sum(h.scores()[p] for h in state.hands) for p in range(3)]
    assert (max(totals) >= 100 and totals.count(max(totals)) == 1) or len(state.hands) == 30
    assert state.winners() == [totals.index(max(totals))]
    assert not Throps().match_over([99, 80, 40], 2) and Throps().match_over([101, 80, 40], 2)


def test_deals_come_from_the_seed():
    assert SINGLE.new_game(seed=5).record() == SINGLE.new_game(seed=5).record()
    assert SINGLE.new_game(seed=5).record()["deal"] != SINGLE.new_game(seed=6).record()["deal"]
    deal = SINGLE.new_game(seed=5).record()["deal"]
    assert sorted(sum(deal["hands"], []) + deal["stock"]) == sorted(full_deck())


# ------------------------------------------------------------- records ---
def test_record_round_trip_through_replay_record():
    state = play_game(SINGLE, ["throps-greedy", "random", "random"], seed=2)
    record = json.loads(json.dumps(state.record()))
    again = replay_record(record)
    assert again.record() == record and again.scores() == state.scores() and again.log() == state.log()
    match = json.loads(json.dumps(play_game(Throps(target=60), ["random"] * 3, seed=2).record()))
    assert replay_record(match).record() == match


def _spoil(record, how):
    deal = record["deal"]
    if how == "twice":
        deal["stock"][0] = deal["hands"][0][0]
    elif how == "short":
        deal["hands"][1] = deal["hands"][1][:12]
    elif how == "joker":
        deal["stock"][0] = "JK"
    elif how == "bad bid":
        record["bids"][1][2] = record["bids"][0][2]
    elif how == "not three":
        record["bids"][0] = record["bids"][0][:2]
    elif how == "no deal":
        del record["deal"]


@pytest.mark.parametrize("how, message", [
    ("twice", "bad deal: a card dealt twice: 2S"),
    ("short", "13 cards"),
    ("joker", "not a card of the pack"),
    ("bad bid", "turn 2: player 3 cannot play"),
    ("not three", "turn 1: expected a list of 3"),
    ("no deal", "needs 'deal'"),
])
def test_malformed_records_name_the_fault(how, message):
    state = SINGLE.new_game(seed=4)
    for _ in range(3):
        state.apply([state.legal_moves(p)[0] for p in range(3)])
    record = json.loads(json.dumps(state.record()))
    _spoil(record, how)
    with pytest.raises(RecordError, match=message):
        replay_record(record)


def test_the_registry_finds_the_game():
    assert make_rules("throps", target=None) == SINGLE


# ----------------------------------------------------------- contracts ---
@pytest.mark.parametrize("options", [{"target": None}, {"target": None, "scoring_suit": "longest"}, {"target": 80}])
def test_game_contract(options):
    check_game_contract(Throps(**options), seeds=range(2))


@pytest.mark.parametrize("name", ["random", "throps-greedy"])
@pytest.mark.parametrize("options", [{"target": None}, {"target": None, "scoring_suit": "longest"}])
def test_agent_contract(name, options):
    check_agent_contract(lambda: make_agent(name), Throps(**options), games=2)


# ---------------------------------------------------------- properties ---
def random_deal(seed, scoring_suit, stop=None):
    state = Throps(target=None, scoring_suit=scoring_suit).new_game(seed)
    rng = np.random.default_rng(seed + 1)
    while not state.is_terminal() and state.trick != stop:
        assert all(sorted(state.legal_moves(p)) == sorted(state.hands[p]) for p in range(3))
        state.apply({p: state.legal_moves(p)[rng.integers(len(state.legal_moves(p)))] for p in state.to_move()})
    return state


deals = st.tuples(st.integers(0, 10**6), st.sampled_from(["best", "longest"]))


@settings(max_examples=30, deadline=None)
@given(deals, st.integers(0, 13))
def test_every_card_is_somewhere_exactly_once(args, stop):
    state = random_deal(*args, stop=stop)
    played = [c for b in state.bids for c in b]
    won = [c for w in state.won for c in w]
    cards = [c for h in state.hands for c in h] + played + won + state.stock[state.trick:]
    assert sorted(cards) == sorted(full_deck())
    assert all(len(h) == 13 - state.trick for h in state.hands)
    record = json.loads(json.dumps(state.record()))
    assert replay_record(record).record() == record


@settings(max_examples=30, deadline=None)
@given(deals)
def test_scores_add_up_as_the_rules_promise(args):
    state = random_deal(*args)
    assert sum(len(w) for w in state.won) == 13
    for cards, score in zip(state.won, state.scores()):
        worth = {s: sum(card_points(c) for c in cards if c[-1] == s) for s in SUITS}
        voids = sum(1 for s in SUITS if not any(c[-1] == s for c in cards))
        longest = score_cards(cards, "longest").suit
        plus = max(worth.values()) if args[1] == "best" else worth.get(longest, 0)
        assert score == 2 * plus - sum(worth.values()) + 10 * voids
        if args[1] == "best":
            assert score >= score_cards(cards, "longest").total


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_seeded_play_repeats(seed):
    agents = ["throps-greedy", "random", "random"]
    assert play_game(SINGLE, agents, seed=seed).record() == play_game(SINGLE, agents, seed=seed).record()


# ----------------------------------------------------------------- bots ---
def test_greedy_throws_away_its_weakest_card_for_an_unwanted_stock_card():
    state = SINGLE.deal_from([["AH", "2C", "3S"], ["JD", "3D", "4D"], ["10H", "5D", "6D"]], ["2H", "7S", "8S"])
    obs = state.observation(0)
    assert score_gain(obs) == -8  # 2 + 30 instead of 40
    assert Greedy().act(obs) == "2C"


def test_greedy_wins_a_wanted_card_with_its_cheapest_sure_winner():
    state = SINGLE.deal_from([["AH", "QS", "2C"], ["JD", "3D", "4D"], ["10H", "5D", "6D"]], ["AS", "7S", "8S"])
    obs = state.observation(0)
    assert score_gain(obs) == 1  # an Ace first: 11 + 30
    assert Greedy().act(obs) == "QS"  # nothing unseen beats the Q♠; the A♥ is kept
    assert Greedy().policy(obs) == {"QS": 1.0}


def test_greedy_bids_its_best_card_when_nothing_is_sure_to_win():
    state = SINGLE.deal_from([["QS", "2C", "3C"], ["AD", "3D", "4D"], ["10H", "5D", "6D"]], ["AS", "7S", "8S"])
    assert Greedy().act(state.observation(0)) == "QS"
    state = SINGLE.deal_from([["QS", "KC", "3C"], ["AD", "3D", "4D"], ["10H", "5D", "6D"]], ["AS", "7S", "8S"])
    assert Greedy().act(state.observation(0)) == "KC"


def test_greedy_beats_random():
    points = [play_game(SINGLE, ["throps-greedy", "random", "random"], seed=s).scores() for s in range(30)]
    assert np.mean(points, axis=0)[0] > np.mean(points, axis=0)[1:].max()
