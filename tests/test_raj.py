"""Raj / Hol's der Geier (Randolph): every rule on hand-worked turns, properties, contracts."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contracts import check_agent_contract, check_game_contract
from gopskit.agents import make_agent
from gopskit.agents.raj import RajProportional, stake_rank
from gopskit.arena import play_game
from gopskit.errors import IllegalMoveError, OptionError, RecordError
from gopskit.games import make_rules, replay_record
from gopskit.games.raj import BIDS, PRIZES, Raj, resolve_bids

SETTINGS = settings(max_examples=40, deadline=None)


def fixed(*prizes, players=3, **options):
    """Rules whose first prizes are ``prizes`` (the rest follow in ascending order)."""
    order = list(prizes) + [p for p in PRIZES if p not in prizes]
    return Raj(players=players, prize_order=order, **options)


# ------------------------------------------------------------ one turn ---
def test_the_highest_bid_takes_a_positive_prize():
    state = fixed(7).new_game()
    event = state.apply([12, 3, 9])
    assert (event.winner, event.outcome, event.highest) == (0, "won", True)
    assert state.scores() == [7, 0, 0] and state.won == [[7], [], []]
    assert event.explain() == "Player 1 takes the +7 with the highest bid, 12 (Player 2 bid 3, Player 3 bid 9)."


def test_the_lowest_bid_takes_a_negative_prize():
    state = fixed(-4).new_game()
    event = state.apply([12, 3, 9])
    assert (event.winner, event.highest) == (1, False) and state.scores() == [0, -4, 0]
    assert "Player 2 takes the -4 with the lowest bid, 3" in event.explain()


def test_equal_bids_cancel_and_the_next_highest_unique_bid_wins():
    state = fixed(5, players=4).new_game()
    event = state.apply([15, 15, 8, 2])
    assert event.winner == 2 and event.cancelled == (0, 1) and state.scores() == [0, 0, 5, 0]
    assert event.explain() == ("Player 3 takes the +5 with the highest bid left, 8 "
                               "(two 15s cancelled; Player 4 bid 2).")
    five = fixed(5, players=5).new_game().apply([15, 15, 8, 2, 4])  # the other bids listed as every game lists them
    assert five.explain() == ("Player 3 takes the +5 with the highest bid left, 8 "
                              "(two 15s cancelled; Player 4 bid 2, Player 5 bid 4).")


def test_equal_bids_cancel_for_a_negative_prize_too():
    # 3 and 3 cancel, so the lowest bid left, 5, takes the -2.
    state = fixed(-2, players=4).new_game()
    assert state.apply([3, 3, 5, 14]).winner == 2 and state.scores() == [0, 0, -2, 0]


def test_three_equal_bids_all_cancel():
    assert resolve_bids([6, 6, 6, 2, 9], highest=True) == (4, (0, 1, 2))
    assert resolve_bids([6, 6, 6, 2, 9], highest=False) == (3, (0, 1, 2))
    assert resolve_bids([4, 4, 7, 7], highest=True) == (None, (0, 1, 2, 3))


def test_when_every_bid_cancels_the_prize_carries_over_and_joins_the_next():
    state = fixed(3, 6, players=2).new_game()
    event = state.apply([10, 10])
    assert event.outcome == "carried" and state.offer == (3, 6) and state.scores() == [0, 0]
    assert event.explain() == "Every bid was matched: the +3 carries over to the next turn."
    event = state.apply([1, 2])
    assert event.offer == (3, 6) and event.points == 9 and state.scores() == [0, 9]
    assert event.explain() == "Player 2 takes the +3 and +6 (worth +9) with the highest bid, 2 (Player 1 bid 1)."


def test_carries_chain_until_someone_takes_the_whole_offer():
    state = fixed(1, 2, 4, players=2).new_game()
    state.apply([5, 5])
    state.apply([6, 6])
    assert state.offer == (1, 2, 4)
    state.apply([7, 15])
    assert state.scores() == [0, 7] and state.carried == []


def test_a_carried_positive_and_a_new_negative_go_to_the_lowest_bid_by_default():
    state = fixed(4, -2, players=2).new_game()
    state.apply([9, 9])
    assert state.offer == (4, -2) and state.observation(0).highest is False
    event = state.apply([3, 8])
    assert event.winner == 0 and state.scores() == [2, 0]  # the lowest bid takes +4 and -2


def test_the_total_option_lets_the_offers_sign_decide():
    state = fixed(4, -2, players=2, carry_decides="total").new_game()
    state.apply([9, 9])
    assert state.rules.highest_takes(state.offer) is True
    assert state.apply([3, 8]).winner == 1 and state.scores() == [0, 2]
    zero = fixed(3, -3, players=2, carry_decides="total")
    assert zero.highest_takes((3, -3)) is False  # a total of 0: the newest prize decides


def test_a_prize_carried_past_the_last_turn_goes_to_nobody():
    state = Raj(players=2, prize_order="ascending").new_game()
    for bid in range(1, 15):
        state.apply([bid, 15 - bid])
    before = sum(state.scores()) + sum(state.lost) + sum(state.carried)
    assert state.prize == 10
    event = state.apply([15, 15])
    assert event.outcome == "lost" and state.is_terminal() and 10 in state.lost
    assert "on the last turn" in event.explain()
    assert sum(state.scores()) + sum(state.lost) == before + 10 == sum(PRIZES)


def test_bid_cards_are_spent_and_the_game_ends_after_fifteen_turns():
    state = Raj(players=2, prize_order="descending").new_game()
    for bid in BIDS:
        assert bid in state.legal_moves(0)
        state.apply([bid, 16 - bid])
        assert bid not in state.legal_moves(0)
    assert state.is_terminal() and state.to_move() == () and state.legal_moves(0) == []


def test_the_most_points_wins_and_a_tie_is_shared():
    state = Raj(players=2, prize_order="ascending").new_game()
    # Turns 1-5 are -5..-1 (lowest takes), 6-15 are +1..+10 (highest takes).
    plays = [(1, 2), (2, 1), (3, 4), (4, 3), (5, 6), (6, 5), (7, 8), (8, 7), (9, 10), (10, 9),
             (11, 12), (12, 11), (13, 14), (14, 13), (15, 15)]
    for a, b in plays:
        state.apply([a, b])
    assert state.scores() == [-5 - 3 - 1 + 1 + 3 + 5 + 7 + 9, -4 - 2 + 2 + 4 + 6 + 8] == [16, 14]
    assert state.winners() == [0] and state.lost == [10]


def test_a_tie_on_points_names_every_tied_player():
    record = {"game": "raj", "options": {"players": 2, "prize_order": "ascending"},
              "prizes": list(PRIZES), "bids": [[b, b] for b in BIDS]}
    state = replay_record(record)
    assert state.scores() == [0, 0] and state.winners() == [0, 1] and sum(state.lost) == sum(PRIZES)


def test_several_rounds_add_up_and_the_highest_total_wins():
    rules = Raj(players=2, rounds=3)
    match = play_game(rules, ["raj-proportional", "random"], seed=8)
    assert len(match.hands) == 3 and all(hand.is_terminal() for hand in match.hands)
    totals = [sum(hand.scores()[p] for hand in match.hands) for p in range(2)]
    assert match.scores() == totals and match.winners() == [p for p in range(2) if totals[p] == max(totals)]
    assert match.hands[1].observation(0).match_scores is None  # a round alone knows nothing of the match
    record = json.loads(json.dumps(match.record()))
    assert len(record["hands"]) == 3 and replay_record(record).record() == record
    record["hands"][1]["bids"][2][0] = 99
    with pytest.raises(RecordError, match=r"turn 3: player 1 cannot play 99.*\(round 2\)"):
        replay_record(record)


# --------------------------------------------------------- bad input ---
def test_an_illegal_bid_is_refused_and_nothing_changes():
    state = fixed(5).new_game()
    state.apply([15, 1, 2])
    before = json.dumps(state.record())
    with pytest.raises(IllegalMoveError, match="player 1 cannot play 15"):
        state.apply([15, 3, 4])
    with pytest.raises(IllegalMoveError, match="expected 3 move"):
        state.apply([1, 2])
    with pytest.raises(IllegalMoveError, match="player 1 cannot play 16"):
        state.apply([16, 3, 4])
    assert json.dumps(state.record()) == before


@pytest.mark.parametrize("options", [
    {"players": 1}, {"players": 6}, {"carry_decides": "first"}, {"prize_order": "random"}, {"rounds": 0},
    {"prize_order": [1, 2, 3]}, {"prize_order": list(range(1, 16))},
])
def test_bad_options_are_refused(options):
    with pytest.raises(OptionError):
        make_rules("raj", **options)


@pytest.mark.parametrize("damage, message", [
    (lambda r: r.pop("bids"), "needs lists 'prizes' and 'bids'"),
    (lambda r: r["prizes"].__setitem__(2, 11), "turn 3: prize 11 is not a Raj prize"),
    (lambda r: r["prizes"].__setitem__(4, r["prizes"][0]), "turn 5: prize .* was already turned"),
    (lambda r: r["bids"][3].__setitem__(1, r["bids"][0][1]), "turn 4: player 2 cannot play"),
    (lambda r: r["bids"][6].pop(), "turn 7: expected a list of 3 bids"),
    (lambda r: r["prizes"].pop(), "15 prizes|14 prizes but 15 turns"),
])
def test_a_bad_record_names_the_turn(damage, message):
    record = json.loads(json.dumps(play_game(Raj(), ["random"] * 3, seed=4).record()))
    damage(record)
    with pytest.raises(RecordError, match=message):
        replay_record(record)


def test_a_record_must_follow_a_fixed_prize_order():
    record = {"game": "raj", "options": {"prize_order": "ascending", "players": 2}, "prizes": [-4], "bids": []}
    with pytest.raises(RecordError, match="turn 1: prize -4 breaks the fixed prize order, which turns -5 here"):
        replay_record(record)


# ------------------------------------------------------ observations ---
def test_the_observation_shows_hands_offer_and_hides_the_prize_order():
    state = Raj(players=2).new_game(seed=3)
    state.apply([8, 8])
    obs = state.observation(1)
    assert obs.offer == state.offer and obs.prize == state.prize and obs.highest == (state.offer[-1] > 0)
    assert obs.hands == (obs.hand, obs.hand) and 8 not in obs.hand and obs.turn == 1
    assert list(obs.unseen_prizes) == sorted(obs.unseen_prizes) and len(obs.unseen_prizes) == 13
    assert not obs.prize_order_known and obs.history[0].outcome == "carried"
    known = Raj(players=2, prize_order="descending").new_game().observation(0)
    assert known.prize_order_known and known.unseen_prizes == tuple(range(9, 0, -1)) + (-1, -2, -3, -4, -5)


# ------------------------------------------------------- properties ---
@st.composite
def raj_rules(draw):
    order = draw(st.sampled_from(["shuffled", "ascending", "descending", "explicit"]))
    if order == "explicit":
        order = tuple(draw(st.permutations(PRIZES)))
    return Raj(players=draw(st.integers(2, 5)), prize_order=order,
               carry_decides=draw(st.sampled_from(["newest", "total"])))


@SETTINGS
@given(raj_rules(), st.integers(0, 2**32 - 1))
def test_prizes_are_conserved_and_hands_shrink(rules, seed):
    state, rng = rules.new_game(seed), np.random.default_rng(seed)
    while not state.is_terminal():
        turn, hands = state.turn, [set(h) for h in state.hands]
        bids = [int(rng.choice(state.legal_moves(p))) for p in range(rules.players)]
        state.apply(bids)
        assert [len(h) for h in state.hands] == [15 - turn - 1] * rules.players
        assert all(state.hands[p] == hands[p] - {bids[p]} for p in range(rules.players))
        held = sorted(sum(state.won, []) + state.lost + state.carried)
        assert held == sorted(state.deck[: state.turn])
    assert sum(state.scores()) + sum(state.lost) == sum(PRIZES) == 40
    assert state.carried == []


@SETTINGS
@given(raj_rules(), st.integers(0, 2**32 - 1))
def test_seeded_play_repeats_and_records_round_trip(rules, seed):
    first = play_game(rules, ["random"] * rules.players, seed=seed)
    assert first.record() == play_game(rules, ["random"] * rules.players, seed=seed).record()
    text = json.dumps(first.record())
    again = replay_record(json.loads(text))
    assert json.dumps(again.record()) == text and again.scores() == first.scores()
    assert again.log() == first.log()


@SETTINGS
@given(st.lists(st.integers(1, 15), min_size=2, max_size=5), st.booleans())
def test_the_winner_holds_a_unique_bid_and_no_unique_bid_is_better(bids, highest):
    winner, cancelled = resolve_bids(bids, highest)
    unique = [b for b in bids if bids.count(b) == 1]
    assert set(cancelled) == {p for p, b in enumerate(bids) if bids.count(b) > 1}
    if not unique:
        assert winner is None
    else:
        assert bids[winner] == (max(unique) if highest else min(unique))


# -------------------------------------------------------- contracts ---
@pytest.mark.parametrize("options", [
    {}, {"players": 2}, {"players": 5, "carry_decides": "total"}, {"prize_order": "ascending", "players": 4},
    {"rounds": 2, "players": 3},
])
def test_game_contract(options):
    check_game_contract(make_rules("raj", **options), seeds=range(3))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_agent_contract(players):
    check_agent_contract(lambda: make_agent("raj-proportional"), Raj(players=players), games=2)


def test_stake_rank():
    assert stake_rank(10, [1, 5, 10]) == pytest.approx(5 / 6)
    assert stake_rank(-5, [-5, 5, 1]) == pytest.approx(2 / 3)  # sizes 5, 5, 1: one below, two equal (half each)


def test_the_proportional_bot_bids_high_for_big_prizes_and_low_for_small():
    big = Raj(players=2, prize_order=(10,) + tuple(p for p in PRIZES if p != 10)).new_game().observation(0)
    small = Raj(players=2, prize_order="descending").new_game()
    for bid in range(1, 10):
        small.apply([bid, bid + 1 if bid < 9 else 15])
    assert RajProportional().act(big) >= 14  # +10 is the biggest prize there is
    # +1 among sizes 1, 1, 2, 3, 4, 5 (the -1..-5 to come) ranks 1/6: the second of its six cards 10..15.
    assert small.observation(0).offer == (1,) and RajProportional().act(small.observation(0)) == 11
    # -5 first: 8 sizes below 5 and two equal of 15 rank 0.6, halved for a negative prize: card 5 of 15.
    negative = Raj(players=2, prize_order="ascending").new_game().observation(0)
    assert RajProportional().act(negative) == 5


def test_the_proportional_bot_beats_random_bidders():
    scores = np.array([play_game(Raj(players=3), ["raj-proportional", "random", "random"], seed=s).scores()
                       for s in range(60)])
    assert scores[:, 0].mean() > scores[:, 1:].mean() + 5
