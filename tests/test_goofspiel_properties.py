"""Hypothesis properties of the Goofspiel engine, over every option."""

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gopskit.arena import play_game
from gopskit.games import replay_record
from gopskit.games.goofspiel import TIE_RULES, Goofspiel, TurnView

SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def rules(draw, single_hand=False):
    players = draw(st.integers(2, 7))
    num_cards = draw(st.integers(1, 13 if players <= 3 else 6))
    order = draw(st.sampled_from(["shuffled", "ascending", "descending", "explicit"]))
    if order == "explicit":
        order = tuple(draw(st.permutations(range(1, num_cards + 1))))
    options = dict(
        num_cards=num_cards, players=players, ties=draw(st.sampled_from(TIE_RULES)),
        rebid_open=draw(st.booleans()), prize_order=order, ace_high=draw(st.booleans()),
        blind=draw(st.booleans()), face_down_trophies=draw(st.booleans()), hidden_bids=draw(st.booleans()),
    )
    if not single_hand:
        options.update(defeat_the_dealer=draw(st.booleans()),
                       target=draw(st.one_of(st.none(), st.integers(1, 40))), max_hands=draw(st.integers(1, 4)))
    # combinations the rules refuse (see tests/test_option_edges.py): rebid_open without the rebid rule,
    # a blind Defeat the Dealer, fewer hands than dealers
    options["rebid_open"] = options["rebid_open"] and options["ties"] == "rebid"
    if options.get("defeat_the_dealer"):
        options.update(blind=False, max_hands=max(options["max_hands"], players))
    return Goofspiel(**options)


def random_play(state, seed, on_step=None):
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        before = state.clone()
        joint = {p: int(rng.choice(state.legal_moves(p))) for p in state.to_move()}
        state.apply(joint)
        if on_step:
            on_step(before, joint, state)
    return state


@SETTINGS
@given(rules(single_hand=True), st.integers(0, 2**32 - 1))
def test_prize_points_are_conserved(rules, seed):
    state = random_play(rules.new_game(seed), seed)
    won = sum(state.scores())
    lost = sum(map(rules.points, state.lost))
    assert won + lost == rules.total_points()
    cards = sorted(c for pile in state.won for c in pile) + sorted(state.lost)
    assert sorted(cards) == list(rules.cards())


@SETTINGS
@given(rules(single_hand=True), st.integers(0, 2**32 - 1))
def test_hands_shrink_by_one_card_per_turn(rules, seed):
    def check(before, joint, after):
        if after.turn > before.turn:
            for p in range(rules.players):
                assert after.hands[p] == before.hands[p] - {after.bids[-1][p]}
                assert len(after.hands[p]) == rules.num_cards - after.turn
        else:  # the dealer's face-up bid: nothing resolved yet
            assert after.hands == before.hands

    random_play(rules.new_game(seed), seed, check)


@SETTINGS
@given(rules(), st.integers(0, 2**32 - 1))
def test_seeded_play_repeats_and_records_round_trip(rules, seed):
    agents = ["random"] * rules.players
    first = play_game(rules, agents, seed=seed)
    second = play_game(rules, agents, seed=seed)
    assert first.record() == second.record()
    text = json.dumps(first.record())
    again = replay_record(json.loads(text))
    assert json.dumps(again.record()) == text
    assert again.scores() == first.scores() and again.winners() == first.winners()


@SETTINGS
@given(rules(single_hand=True), st.integers(0, 2**32 - 1))
def test_observations_never_leak_what_the_variant_hides(rules, seed):
    def check(before, joint, after):
        for state in (before, after):
            if state.is_terminal():
                continue
            for p in range(rules.players):
                obs = state.observation(p)
                sees = not (rules.blind or rules.defeat_the_dealer) or p == state.dealer
                assert (obs.prize is not None) == sees
                if not sees:
                    assert state.prize not in obs.offer
                    assert state.prize in obs.unseen_prizes
                if rules.hidden_bids:
                    assert all(view.bids[q] is None for view in obs.history for q in range(rules.players) if q != p)
                    assert all(obs.hands[q] is None for q in range(rules.players) if q != p)
                if rules.face_down_trophies:
                    assert obs.won is None and obs.scores is None
                assert obs.hand == tuple(sorted(state.hands[p]))

    random_play(rules.new_game(seed), seed, check)


@SETTINGS
@given(st.integers(2, 4), st.sampled_from(TIE_RULES), st.booleans(), st.integers(0, 10**6))
def test_hidden_bids_history_holds_exactly_prize_own_bid_and_winner(players, ties, ace, seed):
    rules = Goofspiel(num_cards=6, players=players, ties=ties, ace_high=ace, hidden_bids=True)
    state = random_play(rules.new_game(seed), seed)
    for p in range(players):
        history = state.observation(p).history
        for view, event in zip(history, state.events, strict=True):
            assert view == TurnView(event.prize, event.offer,
                                    tuple(b if q == p else None for q, b in enumerate(event.bids)),
                                    event.winner, event.outcome)
