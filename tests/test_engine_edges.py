"""Garbage in, IllegalMoveError out: every game refuses any non-move and stays as it was.

A move is a card number or a card name, given as ``{seat: move}`` or as a
list in seat order. Anything else (an array, a float seat, an object whose
``==`` or ``repr`` raises, a huge string) must be refused with
:class:`IllegalMoveError`, never a ``ValueError``/``TypeError`` from deep
inside, and the state must be exactly as before.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gopskit.errors import IllegalMoveError
from gopskit.games import available_games, make_rules

GAMES = available_games()


class EqualsRaises:
    """A hostile move: comparing it or printing it raises."""

    __hash__ = object.__hash__

    def __eq__(self, other):
        raise RuntimeError("== refused")

    def __repr__(self):
        raise RuntimeError("repr refused")


class EqualsAnything:
    """A hostile move that claims to equal every card."""

    __hash__ = object.__hash__

    def __eq__(self, other):
        return True


KNOWN_GARBAGE = [
    np.array([1, 2]), np.array(1), {1.5: 3}, {0.0: 1, 1.0: 2, 2.0: 3}, EqualsRaises(), EqualsAnything(),
    1.0, float("nan"), None, True, [[1]], b"1", "x" * 100_000, {0: np.array([1, 2]), 1: 1},
    [np.array([1, 2]), 1, 2], [EqualsRaises()] * 3, {0: EqualsRaises(), 1: EqualsRaises(), 2: EqualsRaises()},
    [EqualsAnything()] * 3, {0: EqualsAnything(), 1: EqualsAnything(), 2: EqualsAnything()},
    {None: 1}, {"0": 1}, {True: 1, False: 2}, {1.0j: 1}, [1j, 2, 3], {0, 1}, range(3),
]


def _fresh(game):
    state = make_rules(game).new_game(seed=7)
    return state, state.record()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("garbage", KNOWN_GARBAGE, ids=lambda g: type(g).__name__)
def test_known_garbage_is_an_illegal_move_and_changes_nothing(game, garbage):
    state, before = _fresh(game)
    with pytest.raises(IllegalMoveError) as refused:
        state.apply(garbage)
    assert len(str(refused.value)) < 400  # a message for people, not a dump of the input
    assert state.record() == before


@pytest.mark.parametrize("game", GAMES)
def test_a_numpy_card_is_still_a_card(game):
    """NumPy integers are whole numbers: a legal card given as np.int64 is played as the int."""
    state, _ = _fresh(game)
    movers = state.to_move()
    first = {p: state.legal_moves(p)[0] for p in movers}
    joint = {np.int64(p): (np.int64(m) if isinstance(m, int) else m) for p, m in first.items()}
    state.apply(joint)
    assert state.record() != _fresh(game)[1]


atoms = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
    st.text(max_size=20), st.binary(max_size=8), st.complex_numbers(),
    st.builds(EqualsRaises), st.builds(EqualsAnything),
    st.builds(lambda xs: np.array(xs), st.lists(st.integers(0, 20), min_size=0, max_size=4)),
    st.builds(np.float64, st.floats(0, 20)),
)
garbage = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner, inner),
        st.dictionaries(st.one_of(st.integers(-2, 8), st.floats(0, 3), st.text(max_size=2), st.booleans()),
                        inner, max_size=4),
    ),
    max_leaves=8,
)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(move=garbage)
def test_any_value_is_played_or_refused_cleanly(game, move):
    """Whatever is passed to apply: it is a legal move, or IllegalMoveError with the state unchanged."""
    state, before = _fresh(game)
    try:
        state.apply(move)
    except IllegalMoveError:
        assert state.record() == before


@pytest.mark.parametrize("seed", [-1, "abc", 1.5, True, [], [1, -2], np.array([0.5])])
def test_a_bad_seed_is_an_option_error(seed):
    from gopskit.errors import OptionError

    with pytest.raises(OptionError, match="a seed is a whole number"):
        make_rules("goofspiel").new_game(seed=seed)


@pytest.mark.parametrize("seed", [0, 2**70, np.int64(5), [3, 1], (2, 0, 1), np.array([1, 2]), None])
def test_good_seeds_deal_and_repeat(seed):
    first = make_rules("raj").new_game(seed=seed).record()
    if seed is not None:
        assert make_rules("raj").new_game(seed=seed).record() == first


@pytest.mark.parametrize("game", GAMES)
def test_a_record_quoting_a_huge_value_gets_a_short_message_that_keeps_its_ending(game):
    from gopskit.errors import RecordError
    from gopskit.games import replay_record

    record = make_rules(game).new_game(seed=7).record()
    hand = record["hands"][0] if "hands" in record else record
    key = next(k for k, v in hand.items() if isinstance(v, list) and k != "deal")
    hand[key] = [list(range(50_000))] + hand[key]
    with pytest.raises(RecordError) as refused:
        replay_record(record)
    assert len(str(refused.value)) <= 600
