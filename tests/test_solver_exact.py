"""Exact two-player Goofspiel: hand-worked values, a slow reference, certificates, symmetry."""

from __future__ import annotations

import doctest
import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import goofspiel_reference as ref
from gopskit.errors import GopsError, OptionError
from gopskit.solvers import exact, solve_goofspiel
from gopskit.solvers.exact import PositionError, solve_endgame

MODES = [(o, t) for o in ("points", "win") for t in ("discard", "carry")]


@pytest.fixture(scope="module")
def solutions():
    """Solutions by (cards, objective, ties), solved once for the module."""
    cache = {}

    def get(n, objective="points", ties="discard"):
        if (n, objective, ties) not in cache:
            cache[n, objective, ties] = solve_goofspiel(n, objective, ties)
        return cache[n, objective, ties]

    return get


# ------------------------------------------------------------ hand-worked ---
def test_one_card_is_always_a_tie(solutions):
    assert solutions(1).value([1], [1], [1]) == 0.0
    assert solutions(1, "win").value([1], [1], [1], lead=0) == 0.0


def test_two_cards_by_hand(solutions):
    sol = solutions(2)
    # {2} against {1}: the 2 wins whatever prize is left.
    assert sol.value([2], [1], [2]) == 2.0
    assert sol.value([1], [2], [1]) == -1.0
    # Full hands: bid 2 on the 2 (taking it and losing the 1), bid 1 on the 1.
    assert sol.value([1, 2], [1, 2], [1, 2]) == 0.0
    assert sol.policy([1, 2], [1, 2], [1, 2], prize=2) == {1: 0.0, 2: 1.0}
    assert sol.policy([1, 2], [1, 2], [1, 2], prize=1) == {1: 1.0, 2: 0.0}


def test_two_cards_win_objective_by_hand(solutions):
    sol = solutions(2, "win")
    assert sol.value([2], [1], [1], lead=0) == 1.0
    assert sol.value([2], [1], [1], lead=-1) == 0.0  # winning the 1 only levels
    assert sol.value([2], [1], [1], lead=-2) == -1.0


def test_three_cards_mixed_turn_by_hand(solutions):
    """{2,3} against {1,3} for prizes {2,3}: both turns are 2x2 games worth 7/5.

    With p the turned prize and q the other, the holder's bid (2 or 3) by
    row and the opponent's (1 or 3) by column give [[p, q-p], [p-q, q]].
    For p=3: [[3,-1],[1,2]], value (3*2+1)/(3+2+1-1) = 7/5 with the holder
    bidding 2 one time in five.
    """
    sol = solutions(3)
    assert sol.value([2, 3], [1, 3], [2, 3]) == pytest.approx(1.4, abs=1e-12)
    assert sol.value([2, 3], [1, 3], [2, 3], prize=3) == pytest.approx(1.4, abs=1e-12)
    np.testing.assert_allclose(sol.turn_matrix([2, 3], [1, 3], [2, 3], prize=3), [[3, -1], [1, 2]], atol=1e-12)
    policy = sol.policy([2, 3], [1, 3], [2, 3], prize=3)
    assert policy[2] == pytest.approx(0.2, abs=1e-12) and policy[3] == pytest.approx(0.8, abs=1e-12)
    # For prizes {1,2} both turns have a pure saddle point worth 1.
    assert sol.value([2, 3], [1, 3], [1, 2]) == pytest.approx(1.0, abs=1e-12)


def test_three_cards_win_by_hand(solutions):
    """Same hands, lead -1: [[2,-2],[0,1]] and [[1,0],[-2,2]] in lead terms, each worth 1/3."""
    sol = solutions(3, "win")
    assert sol.value([2, 3], [1, 3], [2, 3], lead=-1) == pytest.approx(1 / 3, abs=1e-12)
    assert sol.value([2, 3], [1, 3], [2, 3], lead=0) == 1.0
    assert sol.value([2, 3], [1, 3], [2, 3], lead=1) == 1.0


def test_three_cards_carry_by_hand(solutions):
    """Under carry a 3-3 tie hands the prize on to the 2-beats-1 turn: [[p, q-p], [p-q, p+q]].

    p=3: [[3,-1],[1,5]] is worth 2; p=2: [[2,1],[-1,5]] is worth 11/7; mean 25/14.
    With 1 point already in the pot the games are [[4,-2],[2,6]] (2.8) and [[3,0],[0,6]] (2).
    """
    sol = solutions(3, "points", "carry")
    assert sol.value([2, 3], [1, 3], [2, 3]) == pytest.approx(25 / 14, abs=1e-12)
    assert sol.value([2, 3], [1, 3], [2, 3], pot=1) == pytest.approx(2.4, abs=1e-12)


# ------------------------------------------------------------- reference ---
def _every_position(n, objective, ties):
    """Every position of the n-card game with every lead and pot that can occur."""
    deck, total = range(1, n + 1), n * (n + 1) // 2
    for k in range(n + 1):
        for hand, opp, prizes in itertools.product(itertools.combinations(deck, k), repeat=3):
            turned = total - sum(prizes)
            pots = range(turned + 1) if ties == "carry" else [0]
            for pot in pots:
                leads = range(-(turned - pot), turned - pot + 1) if objective == "win" else [0]
                for lead in leads:
                    yield hand, opp, prizes, lead, pot


@pytest.mark.parametrize("objective,ties", MODES)
def test_every_three_card_position_matches_the_reference(solutions, objective, ties):
    sol = solutions(3, objective, ties)
    for hand, opp, prizes, lead, pot in _every_position(3, objective, ties):
        expected = ref.value(frozenset(hand), frozenset(opp), frozenset(prizes), lead, pot, objective, ties)
        assert sol.value(hand, opp, prizes, lead=lead, pot=pot) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("objective,ties", MODES)
def test_four_cards_match_the_reference_on_sampled_positions(solutions, objective, ties):
    sol = solutions(4, objective, ties)
    positions = list(_every_position(4, objective, ties))
    rng = np.random.default_rng(4)
    for i in rng.choice(len(positions), size=min(40, len(positions)), replace=False):
        hand, opp, prizes, lead, pot = positions[i]
        expected = ref.value(frozenset(hand), frozenset(opp), frozenset(prizes), lead, pot, objective, ties)
        assert sol.value(hand, opp, prizes, lead=lead, pot=pot) == pytest.approx(expected, abs=1e-9)


# ----------------------------------------------------------- certificates ---
def _check_certificate(sol, hand, opp, prizes, lead, pot):
    """Neither side gains more than 1e-9 by deviating from the returned policies at any turned prize."""
    before = sol.value(hand, opp, prizes, lead=lead, pot=pot)
    turn_values = []
    for prize in prizes:
        M = sol.turn_matrix(hand, opp, prizes, prize, lead=lead, pot=pot)
        G = sol.value(hand, opp, prizes, prize=prize, lead=lead, pot=pot)
        x = np.array(list(sol.policy(hand, opp, prizes, prize, lead=lead, pot=pot).values()))
        y = np.array(list(sol.policy(opp, hand, prizes, prize, lead=-lead, pot=pot).values()))
        assert x.min() >= 0 and abs(x.sum() - 1) < 1e-12 and y.min() >= 0 and abs(y.sum() - 1) < 1e-12
        assert G - (x @ M).min() < 1e-9, "the opponent's best response gains against the policy"
        assert (M @ y).max() - G < 1e-9, "the holder's best response gains against the opponent's policy"
        turn_values.append(G)
    assert np.mean(turn_values) == pytest.approx(before, abs=1e-9)


@pytest.mark.parametrize("objective,ties", MODES)
def test_certificate_at_four_card_positions(solutions, objective, ties):
    """Every position under "points"; 400 sampled ones (of thousands) where leads multiply them."""
    sol = solutions(4, objective, ties)
    positions = [p for p in _every_position(4, objective, ties) if p[0]]
    if objective == "win":
        picks = np.random.default_rng(44).choice(len(positions), size=400, replace=False)
        positions = [positions[i] for i in picks]
    for hand, opp, prizes, lead, pot in positions:
        _check_certificate(sol, hand, opp, prizes, lead, pot)


def test_certificate_at_every_five_card_points_position(solutions):
    sol = solutions(5)
    for hand, opp, prizes, lead, pot in _every_position(5, "points", "discard"):
        if hand:
            _check_certificate(sol, hand, opp, prizes, lead, pot)


def test_certificate_on_sampled_eight_card_positions(solutions):
    sol = solutions(8)
    rng = np.random.default_rng(8)
    for _ in range(150):
        k = int(rng.integers(1, 9))
        hand, opp, prizes = (sorted(rng.choice(np.arange(1, 9), k, replace=False).tolist()) for _ in range(3))
        _check_certificate(sol, hand, opp, prizes, 0, 0)


def test_no_turn_game_failed_to_certify(solutions):
    for n, objective, ties in [(8, "points", "discard"), (6, "win", "carry"), (6, "points", "carry")]:
        stats = solutions(n, objective, ties).stats
        assert stats.failed == 0 and stats.games == stats.pure + stats.simplex > 0


# -------------------------------------------------------------- symmetry ---
@st.composite
def positions(draw, n=6):
    k = draw(st.integers(0, n))
    cards = st.lists(st.integers(1, n), min_size=k, max_size=k, unique=True)
    hand, opp, prizes = draw(cards), draw(cards), draw(cards)
    turned = n * (n + 1) // 2 - sum(prizes)
    pot = draw(st.integers(0, turned))
    lead = draw(st.integers(-(turned - pot), turned - pot))
    return hand, opp, prizes, lead, pot


@settings(max_examples=150, deadline=None)
@given(positions(), st.sampled_from(MODES))
def test_swapping_the_hands_negates_the_value(solutions, position, mode):
    hand, opp, prizes, lead, pot = position
    sol = solutions(6, *mode)
    pot = pot if mode[1] == "carry" else 0
    assert sol.value(hand, opp, prizes, lead=lead, pot=pot) == pytest.approx(
        -sol.value(opp, hand, prizes, lead=-lead, pot=pot), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(positions(), st.sampled_from(MODES))
def test_equal_hands_are_worth_nothing_when_level(solutions, position, mode):
    hand, _opp, prizes, _lead, pot = position
    pot = pot if mode[1] == "carry" else 0
    assert solutions(6, *mode).value(hand, hand, prizes, lead=0, pot=pot) == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(positions())
@example(([1, 2, 3], [1, 3, 4], [3, 4, 1], 5, 0))  # both values 0, computed as -2.8e-17 and -6.5e-17
def test_win_value_grows_with_the_lead(solutions, position):
    """Never smaller with a bigger lead, up to rounding: every value is certified to 1e-10 (relative),
    so two equal values may come out in either order in their last bits."""
    hand, opp, prizes, lead, _pot = position
    sol = solutions(6, "win")
    if abs(lead) + 1 <= 21 - sum(prizes):
        values = [sol.value(hand, opp, prizes, lead=d) for d in (lead - 1, lead) if abs(d) <= 21 - sum(prizes)]
        assert all(a <= b + 1e-12 for a, b in zip(values, values[1:])) and all(-1 <= v <= 1 for v in values)


def test_whole_game_value_is_zero(solutions):
    for n, objective, ties in [(5, "points", "carry"), (6, "points", "discard"), (5, "win", "carry")]:
        assert solutions(n, objective, ties).game_value == pytest.approx(0.0, abs=1e-12)


def test_only_the_order_of_the_cards_matters(solutions):
    sol = solutions(8)
    # {2,5} v {3,7} and {1,4} v {2,8} are both "A B A B" low to high.
    assert sol.value([2, 5], [3, 7], [1, 6]) == pytest.approx(sol.value([1, 4], [2, 8], [1, 6]), abs=1e-15)


# --------------------------------------------------------------- endgame ---
@pytest.mark.parametrize("objective,ties,lead,pot", [("points", "discard", 0, 0), ("points", "carry", 0, 3),
                                                      ("win", "discard", -2, 0), ("win", "carry", 1, 2)])
def test_endgame_agrees_with_the_whole_game(solutions, objective, ties, lead, pot):
    sol = solutions(6, objective, ties)
    hand, opp, prizes = (2, 3, 6), (1, 4, 5), (1, 4, 6)
    end = solve_endgame(hand, opp, prizes, objective, ties, lead=lead, pot=pot)
    for k in (3, 2):
        for h, o, p in itertools.product(itertools.combinations(hand, k), itertools.combinations(opp, k),
                                         itertools.combinations(prizes, k)):
            assert end.value(h, o, p, lead=lead, pot=pot) == pytest.approx(sol.value(h, o, p, lead=lead, pot=pot), abs=1e-12)


def test_endgame_of_a_thirteen_card_game_uses_only_the_order(solutions):
    """{8,11,13} v {9,12,13} is "A B A B C", like {1,3,5} v {2,4,5} in the 6-card game."""
    big = solve_endgame([8, 11, 13], [9, 12, 13], [1, 2, 3])
    small = solutions(6)
    assert big.value([8, 11, 13], [9, 12, 13], [1, 2, 3]) == pytest.approx(
        small.value([1, 3, 5], [2, 4, 5], [1, 2, 3]), abs=1e-12)
    assert big.policy([8, 11, 13], [9, 12, 13], [1, 2, 3], 3) == pytest.approx(
        dict(zip([8, 11, 13], small.policy([1, 3, 5], [2, 4, 5], [1, 2, 3], 3).values())), abs=1e-12)
    with pytest.raises(PositionError):
        big.value([1, 2, 3], [9, 12, 13], [1, 2, 3])  # not a sub-hand of the endgame's


@st.composite
def thirteen_card_endgames(draw, most=5):
    """Two hands and the prizes left, ``k <= most`` cards each out of a 13-card deck."""
    k = draw(st.integers(1, most))
    cards = st.lists(st.integers(1, 13), min_size=k, max_size=k, unique=True).map(sorted)
    return draw(cards), draw(cards), draw(cards)


def _all_pattern_endgame(hand, opp, prizes, objective="points", ties="discard", lead=0, pot=0):
    """The endgame solved on tables holding every pattern of its size (as before patterns were pruned)."""
    from gopskit.solvers._exact_engine import solve_layers
    from gopskit.solvers._exact_tables import build_tables
    from gopskit.solvers.exact import GoofspielSolution

    slack = (abs(lead) if objective == "win" else 0) + pot
    engine = solve_layers(build_tables(prizes, len(set(hand) | set(opp))), objective, ties, slack=slack)
    return GoofspielSolution(engine, 13, hands=(tuple(hand), tuple(opp)))


@settings(max_examples=60, deadline=None)
@given(thirteen_card_endgames(), st.sampled_from(MODES), st.data())
def test_endgame_tables_hold_every_reachable_pattern_and_the_same_values(endgame, mode, data):
    """Pruned to the patterns reachable from the two hands, an endgame has the values of the unpruned one."""
    hand, opp, prizes = endgame
    objective, ties = mode
    end = solve_endgame(hand, opp, prizes, objective, ties)
    layers = end.engine.tables.layers
    for j in range(1, len(layers)):
        assert (layers[j].child >= 0).all() and (layers[j].swap >= 0).all()
        assert (layers[j].swap[layers[j].swap] == np.arange(layers[j].num_patterns)).all()
    full = _all_pattern_endgame(hand, opp, prizes, objective, ties)
    assert sum(layer.num_patterns for layer in layers) <= sum(layer.num_patterns for layer in full.engine.tables.layers)
    k = data.draw(st.integers(0, len(hand)))
    h, o, p = (data.draw(st.lists(st.sampled_from(cards), min_size=k, max_size=k, unique=True)) for cards in (hand, opp, prizes))
    assert end.value(h, o, p) == pytest.approx(full.value(h, o, p), abs=1e-9)
    if k:
        assert end.policy(h, o, p, max(p)) == pytest.approx(full.policy(h, o, p, max(p)), abs=1e-9)


def test_pruned_endgame_tables_are_much_smaller_from_a_real_position():
    """Nine cards each left of a 13-card game: the patterns they can reach, against every 9-card pattern in 13 values."""
    from gopskit.solvers._exact_tables import build_tables, reachable_codes

    hand, opp = [1, 3, 4, 6, 8, 9, 10, 11, 13], [2, 3, 5, 6, 7, 9, 11, 12, 13]
    pruned = reachable_codes(hand, opp)
    every = build_tables(range(1, 10), 13).layers
    assert [len(codes) for codes in pruned][:3] == [1, 3, 13]  # no card, one each (A<B, A>B, C), two each
    assert len(pruned[9]) == 2 and sum(map(len, pruned)) * 4 < sum(layer.num_patterns for layer in every)


@settings(max_examples=60, deadline=None)
@given(thirteen_card_endgames(most=4), st.sampled_from(MODES), st.integers(-6, 6), st.integers(0, 5), st.data())
def test_one_turn_and_the_rest_agree_with_the_whole_endgame(endgame, mode, lead, pot, data):
    """solve_turn_endgame solves only what follows the turned prize: the same turn, value and rest."""
    from gopskit.solvers.exact import solve_turn_endgame

    hand, opp, prizes = endgame
    objective, ties = mode
    lead, pot = (lead if objective == "win" else 0), (pot if ties == "carry" else 0)
    prize = data.draw(st.sampled_from(prizes))
    turn = solve_turn_endgame(hand, opp, prizes, prize, objective, ties, lead=lead, pot=pot)
    whole = solve_endgame(hand, opp, prizes, objective, ties, lead=lead, pot=pot)
    M = whole.turn_matrix(hand, opp, prizes, prize, lead=lead, pot=pot)
    assert turn.matrix == pytest.approx(M, abs=1e-9)
    assert turn.value == pytest.approx(whole.value(hand, opp, prizes, prize, lead=lead, pot=pot), abs=1e-9)
    x = np.array([turn.policy[c] for c in hand])
    assert x.min() >= 0 and x.sum() == pytest.approx(1.0) and (x @ M).min() >= turn.value - 1e-9
    rest = [c for c in prizes if c != prize]
    k = len(rest)
    h, o = (data.draw(st.lists(st.sampled_from(cards), min_size=k, max_size=k, unique=True)) for cards in (hand, opp))
    assert turn.rest.value(h, o, rest) == pytest.approx(whole.value(h, o, rest), abs=1e-9)


@pytest.mark.parametrize("objective,ties", MODES)
def test_an_endgame_has_the_same_values_to_the_bit_on_one_thread_or_two(objective, ties):
    """Two threads split an endgame layer's patterns; each pattern meets its turn games in the same order."""
    from gopskit.solvers._exact_engine import solve_layers
    from gopskit.solvers._exact_tables import build_tables
    from gopskit.solvers.exact import ENDGAME_MEMO_RUN

    hand, opp, prizes = [1, 3, 4, 6, 8, 10, 13], [2, 3, 5, 6, 9, 11, 12], [1, 2, 5, 7, 8, 11, 13]
    tables = build_tables(prizes, 13, hands=(hand, opp))
    one, two = (solve_layers(tables, objective, ties, slack=2, threads=n, memo_run=ENDGAME_MEMO_RUN) for n in (1, 2))
    for a, b in zip(one.values, two.values):
        assert np.array_equal(a, b)
    assert (one.stats.pure, one.stats.simplex, one.stats.support) == (two.stats.pure, two.stats.simplex, two.stats.support)


def test_one_turn_refuses_what_it_cannot_solve():
    from gopskit.solvers.exact import TooBigError, solve_turn_endgame

    with pytest.raises(PositionError, match="prize 4 is not one of the prize cards"):
        solve_turn_endgame([1, 2], [1, 3], [2, 5], 4)
    with pytest.raises(PositionError, match="at least one"):
        solve_turn_endgame([], [], [], 1)
    with pytest.raises(PositionError, match="pot must be 0"):
        solve_turn_endgame([1, 2], [1, 3], [2, 5], 2, pot=2)
    with pytest.raises(TooBigError, match="more than the 10 allowed here"):
        solve_turn_endgame([1, 2, 3, 4], [1, 3, 5, 7], [2, 5, 8, 9], 2, max_games=10)


# ---------------------------------------------------------------- errors ---
@pytest.mark.parametrize("kwargs", [{"num_cards": 0}, {"num_cards": 14}, {"num_cards": True}, {"num_cards": 2.5},
                                    {"objective": "margin"}, {"ties": "unique"}])
def test_bad_options_are_refused(kwargs):
    with pytest.raises(OptionError):
        solve_goofspiel(**{"num_cards": 3, **kwargs})


@pytest.mark.parametrize("call", [
    lambda s: s.value([1, 2], [1], [1, 2]),              # hands of different sizes
    lambda s: s.value([1, 2], [1, 3], [1]),              # fewer prizes than cards
    lambda s: s.value([1, 5], [1, 3], [1, 2]),           # a card beyond the deck
    lambda s: s.value([1, 1], [1, 3], [1, 2]),           # a card twice
    lambda s: s.value("12", [1, 3], [1, 2]),             # not a collection of cards
    lambda s: s.value([1, 2], [1, 3], [1, 2], pot=1),    # a pot under discard
    lambda s: s.value([1, 2], [1, 3], [1, 2], prize=3),  # the prize is not still to win
    lambda s: s.policy([1, 2], [1, 3], [1, 2], None),    # no prize turned
    lambda s: s.policy([], [], [], 1),                   # nothing to bid
    lambda s: s.value([1, 2], [1, 3], [1, 2], lead=0.5),  # half a point
])
def test_malformed_positions_are_refused(solutions, call):
    with pytest.raises(PositionError):
        call(solutions(4))


def test_an_impossible_lead_is_refused_with_the_reason(solutions):
    with pytest.raises(GopsError, match="only 4 points were turned"):
        solutions(4, "win").value([1, 2], [1, 3], [2, 4], lead=5)
    assert solutions(4, "points").value([1, 2], [1, 3], [2, 4], lead=50) == solutions(4).value([1, 2], [1, 3], [2, 4])


def test_docstring_examples():
    for module in (exact, __import__("gopskit.solvers._exact_tables", fromlist=["x"])):
        assert doctest.testmod(module).failed == 0


def test_progress_bar_reaches_the_end_with_an_estimate_of_time_left(capsys):
    solve_goofspiel(4, "win", "carry", progress=True)
    err = capsys.readouterr().err
    assert "100%" in err and "elapsed, about" in err and "left]" in err


def test_a_pot_before_any_prize_is_turned_is_refused_in_words():
    """It said 'the pot holds prizes already turned: 0 to 0 points here'."""
    carry = solve_goofspiel(3, ties="carry")
    with pytest.raises(PositionError) as refused:
        carry.value([1, 2, 3], [1, 2, 3], [1, 2, 3], pot=2)
    assert str(refused.value) == "no prize has been turned yet, so the pot is empty: pot must be 0, not 2"
    with pytest.raises(PositionError, match=r"when a tie discards the prize \(ties='discard'\)"):
        solve_goofspiel(3).value([1, 2], [1, 2], [1, 2], pot=1)
