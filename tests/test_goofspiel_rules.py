"""Every Goofspiel rule and option, each on a game worked out by hand."""

import pytest

from contracts import check_game_contract
from gopskit.errors import IllegalMoveError, OptionError
from gopskit.games.goofspiel import Goofspiel, resolve_turn


def play(rules, bids, seed=0):
    state = rules.new_game(seed)
    events = [state.apply(list(b)) for b in bids]
    return state, events


# ----------------------------------------------------------- tie rules ---
def test_discard_three_cards_by_hand():
    # prizes 1, 2, 3 in order. P2 takes the 1 with a 3; 2-2 ties (discarded); P1 takes the 3 with a 3.
    state, events = play(Goofspiel(num_cards=3, prize_order="ascending"), [(1, 3), (2, 2), (3, 1)])
    assert state.scores() == [3, 1]
    assert [e.outcome for e in events] == ["won", "discarded", "won"]
    assert state.lost == [2]
    assert state.winners() == [0]
    assert events[1].explain() == "Tie at 2 between Player 1 and Player 2: the 2 is discarded."


def test_carry_adds_the_tied_prize_to_the_next_turn():
    state, events = play(Goofspiel(num_cards=3, ties="carry", prize_order="ascending"), [(2, 2), (1, 3), (3, 1)])
    assert events[0].outcome == "carried"
    assert events[1].offer == (1, 2) and events[1].points == 3 and events[1].winner == 1
    assert state.scores() == [3, 3]
    assert state.winners() == [0, 1]


def test_carry_tie_on_the_last_turn_loses_everything_carried():
    state, events = play(Goofspiel(num_cards=2, ties="carry", prize_order="ascending"), [(1, 1), (2, 2)])
    assert [e.outcome for e in events] == ["carried", "lost"]
    assert state.scores() == [0, 0] and state.lost == [1, 2]
    assert "on the last turn" in events[1].explain()


def test_unique_highest_unmatched_bid_wins():
    rules = Goofspiel(num_cards=5, players=3, ties="unique", prize_order="descending")
    state, events = play(rules, [(5, 5, 3), (4, 4, 4)])
    assert events[0].winner == 2 and events[0].points == 5 and events[0].tied == (0, 1)
    assert events[1].outcome == "discarded"
    assert state.scores() == [0, 0, 5]


def test_unique_with_two_players_is_discard():
    state, events = play(Goofspiel(num_cards=2, ties="unique", prize_order="ascending"), [(2, 2), (1, 1)])
    assert state.scores() == [0, 0] and state.lost == [1, 2]


def test_rebid_only_the_tied_players_may_win_by_default():
    rules = Goofspiel(num_cards=3, players=3, ties="rebid", prize_order="ascending")
    state, events = play(rules, [(3, 3, 1), (1, 2, 3)])
    assert events[0].outcome == "carried" and state.scores() == [0, 3, 0]
    assert events[1].winner == 1  # player 3's 3 is highest but they were not in the tie


def test_rebid_open_lets_anyone_win_the_rebid():
    rules = Goofspiel(num_cards=3, players=3, ties="rebid", rebid_open=True, prize_order="ascending")
    state, _ = play(rules, [(3, 3, 1), (1, 2, 3)])
    assert state.scores() == [0, 0, 3]


def test_rebid_tie_again_narrows_to_the_new_tie():
    rules = Goofspiel(num_cards=4, players=3, ties="rebid", prize_order="ascending")
    state = rules.new_game()
    state.apply([4, 4, 4])
    assert state.eligible == (0, 1, 2)
    state.apply([3, 3, 1])
    assert state.eligible == (0, 1)
    state.apply([1, 2, 3])
    assert state.scores() == [0, 1 + 2 + 3, 0]


def test_resolve_turn_directly():
    rules = Goofspiel(num_cards=13, players=4, ties="unique")
    assert resolve_turn(rules, [9, 9, 5, 5], range(4), False) == (None, "discarded", (0, 1, 2, 3))
    assert resolve_turn(rules, [9, 9, 5, 2], range(4), False)[0] == 2


# --------------------------------------------------------- card values ---
def test_ace_high_bids_above_king_and_scores_fourteen():
    rules = Goofspiel(num_cards=13, ace_high=True, prize_order="descending")
    state = rules.new_game()
    event = state.apply([1, 13])  # prize: the Ace, worth most, so turned first going down
    assert event.prize == 1 and event.winner == 0 and event.points == 14
    assert rules.total_points() == 104


def test_ace_high_in_a_short_deck_ranks_above_the_top_card():
    rules = Goofspiel(num_cards=3, ace_high=True)
    assert rules.strength(1) == 4 and rules.points(1) == 4 and rules.total_points() == 9


def test_a_full_game_deals_91_points():
    assert Goofspiel().total_points() == 91


# ---------------------------------------------------------- prize order ---
@pytest.mark.parametrize("order, expected", [
    ("ascending", [1, 2, 3, 4]), ("descending", [4, 3, 2, 1]), ((2, 4, 1, 3), [2, 4, 1, 3]),
])
def test_prize_orders(order, expected):
    state = Goofspiel(num_cards=4, prize_order=order).new_game(seed=5)
    assert state.deck == expected


def test_shuffled_order_depends_on_the_seed_only():
    rules = Goofspiel(num_cards=13)
    assert rules.new_game(1).deck == rules.new_game(1).deck
    assert sorted(rules.new_game(1).deck) == list(range(1, 14))
    assert any(rules.new_game(1).deck != rules.new_game(s).deck for s in range(2, 6))


# ---------------------------------------------------------- information ---
def test_blind_hides_the_prize_until_the_bids_are_shown():
    state = Goofspiel(num_cards=3, blind=True, prize_order="descending").new_game()
    obs = state.observation(0)
    assert obs.prize is None and obs.offer == () and obs.unseen_prizes == (3, 2, 1)
    state.apply([1, 2])
    assert state.observation(0).history[0].prize == 3
    assert state.record()["prizes"] == [3]


def test_hidden_bids_show_only_the_winner():
    state = Goofspiel(num_cards=3, hidden_bids=True, prize_order="ascending").new_game()
    state.apply([2, 3])
    obs = state.observation(0)
    assert obs.history[0].bids == (2, None) and obs.history[0].winner == 1
    assert obs.hands[1] is None and obs.hands[0] == (1, 3)
    assert obs.scores == (0, 1)


def test_face_down_trophies_hide_every_pile_until_the_end():
    state = Goofspiel(num_cards=2, face_down_trophies=True, prize_order="ascending").new_game()
    state.apply([2, 1])
    assert state.observation(0).won is None and state.observation(0).scores is None
    state.apply([1, 2])
    assert state.observation(0).scores == (1, 2)


def test_defeat_the_dealer_order_and_views():
    rules = Goofspiel(num_cards=3, players=3, defeat_the_dealer=True, dealer=1, prize_order="ascending")
    match = rules.new_game()
    assert match.to_move() == (1,)
    assert match.observation(1).prize == 1 and match.observation(0).prize is None
    with pytest.raises(IllegalMoveError, match="dealer"):
        match.apply({0: 2, 2: 3})
    assert match.apply({1: 2}) is None
    assert match.to_move() == (0, 2)
    assert match.observation(0).table_bids == (None, 2, None)
    event = match.apply({0: 3, 2: 1})
    assert event.bids == (3, 2, 1) and event.winner == 0


def test_defeat_the_dealer_is_one_hand_per_dealer():
    rules = Goofspiel(num_cards=2, players=3, defeat_the_dealer=True)
    match = rules.new_game(seed=2)
    dealers = []
    while not match.is_terminal():
        dealers.append(match.hand.dealer)
        movers = match.to_move()
        match.apply({p: match.legal_moves(p)[0] for p in movers})
    assert sorted(set(dealers)) == [0, 1, 2] and len(match.hands) == 3


# -------------------------------------------------------------- matches ---
def test_match_to_a_target_plays_hands_until_one_player_leads_past_it():
    rules = Goofspiel(num_cards=3, target=10, prize_order="ascending")
    match = rules.new_game()

    def hand(*bids):
        for pair in bids:
            match.apply(list(pair))

    for _ in range(3):
        hand((1, 2), (2, 3), (3, 1))  # P2 takes 1 and 2, P1 takes 3: 3 points each
    assert not match.is_terminal() and match.scores() == [9, 9]
    hand((2, 1), (3, 2), (1, 3))  # 3 each again: both pass 10, but tied
    assert not match.is_terminal() and match.scores() == [12, 12]
    hand((3, 1), (1, 2), (2, 3))  # P1 takes 1, P2 takes 2 and 3
    assert match.is_terminal() and match.scores() == [13, 17] and match.winners() == [1]
    assert len(match.record()["hands"]) == 5


def test_match_stops_at_max_hands_even_without_a_winner():
    rules = Goofspiel(num_cards=2, target=50, max_hands=3, prize_order="ascending")
    match = rules.new_game()
    while not match.is_terminal():
        match.apply([match.legal_moves(0)[0], match.legal_moves(1)[0]])  # always tie
    assert len(match.hands) == 3 and match.winners() == [0, 1]


def test_match_observation_carries_the_running_totals():
    rules = Goofspiel(num_cards=1, target=3)
    match = rules.new_game()
    match.apply([1, 1])
    assert match.observation(0).hand_number == 1 and match.observation(0).match_scores == (0, 0)


# ----------------------------------------------------------- bad input ---
@pytest.mark.parametrize("options, fragment", [
    ({"players": 8}, "players must be a whole number from 2 to 7"),
    ({"players": 1}, "from 2 to 7"),
    ({"num_cards": 0}, "num_cards must be a whole number from 1 to 13"),
    ({"num_cards": 14}, "from 1 to 13"),
    ({"ties": "coin"}, "allowed: discard, carry, unique, rebid"),
    ({"prize_order": "random"}, "allowed: shuffled, ascending, descending"),
    ({"prize_order": (1, 1, 2)}, "lists each card"),
    ({"blind": "yes"}, "true or false"),
    ({"dealer": 2}, "dealer must be a whole number from 0 to 1"),
    ({"num_cards": 2.5}, "num_cards"),
])
def test_impossible_options_are_refused(options, fragment):
    with pytest.raises(OptionError, match=fragment):
        Goofspiel(**{"num_cards": 3, **options})


def test_unknown_option_names_the_allowed_ones():
    with pytest.raises(OptionError, match="unknown option.*colour.*allowed: num_cards"):
        Goofspiel.from_options({"colour": "red"})


@pytest.mark.parametrize("bids, fragment", [
    ([4, 1], "player 1 cannot play 4; allowed: 1, 2, 3"),
    ([0, 1], "cannot play 0"),
    ([1], "expected 2 move"),
    ([1, 2, 3], "expected 2 move"),
    (["1", 2], "cannot play '1'"),
    ([True, 2], "cannot play True"),
    ({0: 1}, "missing a move from player 2"),
    ({0: 1, 5: 2}, "seat 5 does not exist"),
    ("12", "a joint move is a dict"),
])
def test_illegal_bids_are_refused_and_change_nothing(bids, fragment):
    state = Goofspiel(num_cards=3, prize_order="ascending").new_game()
    before = state.record()
    with pytest.raises(IllegalMoveError, match=fragment):
        state.apply(bids)
    assert state.record() == before and state.hands == [{1, 2, 3}, {1, 2, 3}]


def test_a_spent_card_cannot_be_bid_again():
    state, _ = play(Goofspiel(num_cards=3, prize_order="ascending"), [(1, 2)])
    with pytest.raises(IllegalMoveError, match="player 1 cannot play 1; allowed: 2, 3"):
        state.apply([1, 3])


def test_no_move_after_the_end():
    state, _ = play(Goofspiel(num_cards=1), [(1, 1)])
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply([1, 1])


# ------------------------------------------------------------- contract ---
@pytest.mark.parametrize("options", [
    {"num_cards": 5}, {"num_cards": 4, "players": 3, "ties": "carry"},
    {"num_cards": 4, "players": 4, "ties": "unique", "ace_high": True},
    {"num_cards": 4, "players": 3, "ties": "rebid"}, {"num_cards": 3, "blind": True, "hidden_bids": True},
    {"num_cards": 3, "players": 3, "defeat_the_dealer": True}, {"num_cards": 3, "target": 8},
    {"num_cards": 3, "face_down_trophies": True, "prize_order": "descending"}, {"num_cards": 13, "players": 7},
])
def test_game_contract(options):
    check_game_contract(Goofspiel(**options), seeds=range(2))


def test_hidden_bids_with_a_dealer_keep_the_face_up_bid_in_memory():
    rules = Goofspiel(num_cards=3, players=3, defeat_the_dealer=True, hidden_bids=True, prize_order="ascending")
    match = rules.new_game()
    match.apply({0: 2})
    match.apply({1: 3, 2: 1})
    obs = match.observation(2)
    assert obs.history[0].bids == (2, None, 1)  # the dealer's bid was shown face up to everyone
    assert obs.hands[0] == (1, 3) and obs.hands[1] is None
