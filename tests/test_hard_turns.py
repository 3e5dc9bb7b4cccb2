"""The hard turns: exact mixes of the turns a rounded deep layer cannot settle, stored where the bot can meet them."""

from __future__ import annotations

import doctest
import itertools
import warnings

import numpy as np
import pytest

from gopskit.agents.equilibrium import EquilibriumBot
from gopskit.games.goofspiel import Goofspiel, GoofspielState
from test_certified_turn import _Fixed, rounded_book
from gopskit.solvers import opening, solve_goofspiel, storage
from gopskit.solvers.certified import group_at, grouped_box, interchangeable
from gopskit.solvers.hard_turns import (attach_hard_turns, load_hard_turns, reachable_turns, save_hard_turns,
                                        turn_key)
from gopskit.solvers.opening import OpeningBookError

GRID = np.linspace(0, 1, 101)[:-1] + 0.005


@pytest.fixture(scope="module")
def seven(tmp_path_factory):
    """The 7-card game: a two-turn book, its 4-card layer rounded to 0.01 (coarse, so many turns are hard), hard turns."""
    folder = tmp_path_factory.mktemp("hard7")
    full = solve_goofspiel(7)
    book = rounded_book(full, folder, step=0.01)
    meta = save_hard_turns(book, full, folder / "hard.npz", processes=2)
    return full, book, folder / "hard.npz", meta


def _exact_groups(full, hand, opp, prizes, prize):
    policy = full.policy(hand, opp, prizes, prize)
    return [sum(policy[hand[i]] for i in run) for run in interchangeable(hand, opp)]


def test_the_module_example_runs():
    from gopskit.solvers import hard_turns

    result = doctest.testmod(hard_turns)
    assert result.attempted > 5 and result.failed == 0


def test_reachable_turns_are_every_third_turn_after_bids_on_the_supports():
    """Brute force over a 5-card game: prizes and the other side free, the bot's first two bids on the exact supports."""
    full = solve_goofspiel(5)
    deck = range(1, 6)
    expected = set()
    for p1, o1 in itertools.product(deck, deck):
        for b1 in (c for c, p in full.policy(deck, deck, deck, p1).items() if p > 0):
            hand, opp, prizes = ([c for c in deck if c != x] for x in (b1, o1, p1))
            for p2, o2 in itertools.product(prizes, opp):
                for b2 in (c for c, p in full.policy(hand, opp, prizes, p2).items() if p > 0):
                    h, o, ps = ([c for c in cards if c != x] for cards, x in ((hand, b2), (opp, o2), (prizes, p2)))
                    expected |= {turn_key(full, h, o, ps, p3) for p3 in ps}
    found = reachable_turns(full, 3)
    assert set(found) == expected
    for key, (hand, opp, prizes, prize) in found.items():
        assert turn_key(full, hand, opp, prizes, prize) == key and len(hand) == len(opp) == len(prizes) == 3


def test_turn_keys_tell_shapes_apart_and_positions_of_one_shape_share_a_key():
    full = solve_goofspiel(5)
    same = turn_key(full, [1, 3, 5], [2, 3, 4], [1, 2, 5], 5), turn_key(full, [1, 3, 5], [2, 3, 4], [1, 2, 5], 5)
    assert same[0] == same[1]
    keys = {turn_key(full, hand, opp, [1, 2, 5], prize)
            for hand in itertools.combinations(range(1, 6), 3) for opp in itertools.combinations(range(1, 6), 3)
            for prize in (1, 2, 5)}
    patterns = {full.engine.tables.pattern_index(h, o) for h in itertools.combinations(range(1, 6), 3) for o in itertools.combinations(range(1, 6), 3)}
    assert len(keys) == 3 * len(patterns)
    with pytest.raises(Exception, match="not one of the prize cards still to win"):
        turn_key(full, [1, 3, 5], [2, 3, 4], [1, 2, 5], 4)


def test_the_stored_turns_are_exactly_the_uncertified_ones_with_the_exact_mixes(seven):
    full, book, path, meta = seven
    hard = load_hard_turns(path, book)
    positions = reachable_turns(book, 5)
    assert meta["reachable"] == len(positions) and meta["hard"] == len(hard) > 100
    radius = opening.turn_radius(book, 5)
    stored = set(hard.keys.tolist())
    for k in range(len(hard)):
        hand, opp, prizes, prize = hard.position(k)
        assert turn_key(book, hand, opp, prizes, prize) == hard.keys[k]
        np.testing.assert_allclose(hard.stored_chances(k), _exact_groups(full, hand, opp, prizes, prize), atol=1e-12)
        assert grouped_box(book.turn_matrix(hand, opp, prizes, prize), radius, interchangeable(hand, opp),
                           interchangeable(opp, hand)) is None
    rng = np.random.default_rng(7)
    for key in rng.choice(sorted(set(positions) - stored), 200, replace=False):
        hand, opp, prizes, prize = positions[int(key)]
        assert grouped_box(book.turn_matrix(hand, opp, prizes, prize), radius, interchangeable(hand, opp),
                           interchangeable(opp, hand)) is not None
        assert hard.group_chances(book, hand, opp, prizes, prize) is None


def _bid(book, monkeypatch, hand, opp, prizes, prize, u):
    """The equilibrium bot (seat 0) of the 7-card game playing from ``book``, its draw ``u``, at this third turn."""
    from gopskit.agents import equilibrium

    monkeypatch.setattr(opening, "shipped_opening", lambda n, objective="points", ties="discard", deep=True: book)
    monkeypatch.setattr(equilibrium, "_ENDGAMES", {})
    monkeypatch.setattr(storage, "find_solution", lambda *args, **kwargs: None)  # not a complete 7-card solve in the cache
    monkeypatch.setattr(EquilibriumBot, "_endgame_policy", lambda *args: pytest.fail("a stored hard turn was solved again"))
    rules = Goofspiel(num_cards=7)
    bot = EquilibriumBot(progress=False, exact_up_to=6)
    bot.reset(rules, 0, np.random.default_rng(0))
    bot.rng = _Fixed(u)
    gone = [[c for c in range(1, 8) if c not in kept] for kept in (hand, opp, prizes)]
    state = GoofspielState(rules, gone[2] + [prize] + [p for p in prizes if p != prize])
    state.apply([gone[0][0], gone[1][0]])
    state.apply([gone[0][1], gone[1][1]])
    obs = state.observation(0)
    assert (list(obs.hand), list(obs.hands[1]), obs.prize) == (list(hand), list(opp), prize)
    return bot.act(obs), bot.source


def test_the_bot_bids_a_hard_turn_from_its_stored_exact_mix_without_solving(seven, monkeypatch):
    full, book, path, _meta = seven
    attach_hard_turns(book, path)
    try:
        hard = book.hard_turns
        for k in np.random.default_rng(3).choice(len(hard), 5, replace=False):
            hand, opp, prizes, prize = hard.position(int(k))
            exact, runs = _exact_groups(full, hand, opp, prizes, prize), interchangeable(hand, opp)
            for u in GRID:
                card, source = _bid(book, monkeypatch, hand, opp, prizes, prize, float(u))
                assert (card, source) == (hand[runs[group_at(exact, u)][0]], "opening book")
    finally:
        book.hard_turns = None


def test_without_the_stored_mixes_a_hard_turn_is_solved_exactly(seven, monkeypatch):
    """The same turn with no hard turns attached: certified sampling gives up, and the bot must solve it."""
    _full, book, path, _meta = seven
    hand, opp, prizes, prize = load_hard_turns(path, book).position(0)
    assert book.hard_turns is None
    with pytest.raises(pytest.fail.Exception, match="solved again"):
        _bid(book, monkeypatch, hand, opp, prizes, prize, 0.5)


def test_a_damaged_or_foreign_file_is_refused_with_a_reason(seven, tmp_path):
    full, book, path, _meta = seven
    with pytest.raises(OpeningBookError, match="cannot read hard turns"):
        load_hard_turns(tmp_path / "missing.npz", book)
    with np.load(path) as archive:
        parts = {name: archive[name] for name in archive.files}
    broken = dict(parts, chances=parts["chances"] * 0.5)
    np.savez(tmp_path / "broken.npz", **broken)
    with pytest.raises(OpeningBookError, match="damaged: its keys, counts and chances do not fit together"):
        load_hard_turns(tmp_path / "broken.npz", book)
    with pytest.raises(OpeningBookError, match="made for another book or deep layer"):
        load_hard_turns(path, full)  # the complete solution has no deep layer
    with pytest.raises(OpeningBookError, match="with a rounded deep layer"):
        save_hard_turns(full, full, tmp_path / "x.npz")


def test_a_damaged_shipped_file_warns_and_the_bot_stays_exact(monkeypatch):
    """The deep layer still plays turn 3; only the stored mixes are lost (those turns would be solved)."""
    monkeypatch.setitem(opening.SHIPPED_HARD, (13, "points", "discard"), "lesson5-demo-tournament.json")
    opening.shipped_opening.cache_clear()
    try:
        with pytest.warns(UserWarning, match="solves its hardest third turns on the spot without it"):
            book = opening.shipped_opening(13)
        assert book.plays(11) and book.hard_turns is None
    finally:
        opening.shipped_opening.cache_clear()


def test_the_shipped_hard_turns_fit_the_shipped_book_and_one_is_rederived_by_an_exact_solve():
    """Made from the complete solve with the command in its header; one stored mix re-solved (11 cards: about 6 s)."""
    from gopskit.solvers.exact import solve_turn_endgame

    opening.shipped_opening.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a shipped file that cannot be read would only warn
        book = opening.shipped_opening(13)
    hard = book.hard_turns
    assert hard is not None, "gopskit/data/goofspiel-13-points-discard-hard-turns.npz is missing from the package"
    meta = hard.meta
    assert meta["command"].startswith("gopskit solve --cards 13") and meta["hand_size"] == 11
    assert meta["deep_digest"] == book.provenance["deep"]["digest"] and meta["radius"] == opening.turn_radius(book, 11)
    assert 0 < meta["hard"] == len(hard) < 0.01 * meta["reachable"]
    rng = np.random.default_rng(15)
    radius = opening.turn_radius(book, 11)
    for k in rng.choice(len(hard), 20, replace=False):
        hand, opp, prizes, prize = hard.position(int(k))
        assert grouped_box(book.turn_matrix(hand, opp, prizes, prize), radius, interchangeable(hand, opp),
                           interchangeable(opp, hand)) is None
    hand, opp, prizes, prize = hard.position(int(rng.integers(len(hard))))
    turn = solve_turn_endgame(hand, opp, prizes, prize)
    exact = [sum(turn.policy[hand[i]] for i in run) for run in interchangeable(hand, opp)]
    stored = hard.group_chances(book, hand, opp, prizes, prize)
    assert turn.value == pytest.approx(book.value(hand, opp, prizes, prize), abs=1e-4)
    # a degenerate turn may have several optimal mixes: the stored one must be optimal in the exact game
    rows = [run[0] for run in interchangeable(hand, opp)]
    assert (np.asarray(stored) @ turn.matrix[rows]).min() >= turn.value - 1e-9
    assert (np.asarray(exact) @ turn.matrix[rows]).min() >= turn.value - 1e-9


def test_a_damaged_stored_entry_is_passed_over_not_raised(seven, monkeypatch):
    """An entry that does not fit its position (a damaged file) never stops a game: the bot plays on without it."""
    full, book, path, _meta = seven
    hard = attach_hard_turns(book, path)

    def damaged(*args):
        raise OpeningBookError("a stored hard turn does not match its position: the file is damaged")

    monkeypatch.setattr(hard, "group_chances", damaged)
    try:
        positions = reachable_turns(book, 5)
        stored = set(hard.keys.tolist())
        hand, opp, prizes, prize = next(p for k, p in sorted(positions.items()) if k not in stored)
        exact, runs = _exact_groups(full, hand, opp, prizes, prize), interchangeable(hand, opp)
        card, source = _bid(book, monkeypatch, hand, opp, prizes, prize, 0.5)
        assert source == "opening book" and card == hand[runs[group_at(exact, 0.5)][0]]
    finally:
        book.hard_turns = None
