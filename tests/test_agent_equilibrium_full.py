"""The equilibrium bot beyond the decks it solves on the spot: a complete cached solution, the opening book."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from gopskit.agents.equilibrium import EquilibriumBot
from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers import opening, solve_goofspiel, storage


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))
    monkeypatch.setattr(storage, "_MEMORY", {})


@pytest.fixture(scope="module")
def nine():
    return solve_goofspiel(9)


def _play(bot, rules, seed):
    """Play bot (seat 0) against random; yield (observation, policy, source) at every turn."""
    from gopskit.agents import make_agent

    state = rules.new_game(seed=seed)
    other = make_agent("random")
    bot.reset(rules, 0, np.random.default_rng(seed))
    other.reset(rules, 1, np.random.default_rng(seed + 1))
    while not state.is_terminal():
        obs = state.observation(0)
        policy = bot.policy(obs)
        yield obs, policy, bot.source
        state.apply([bot.act(obs), other.act(state.observation(1))])


def _solver_policy(solution, obs):
    return solution.policy(**EquilibriumBot.position(obs))


def test_a_complete_solution_in_the_cache_is_played_at_every_turn(tmp_path, nine):
    solve_goofspiel(9, checkpoint=tmp_path / storage.layer_folder_name(9, "points", "discard"))
    bot = EquilibriumBot(progress=False, exact_up_to=8)
    turns = list(_play(bot, Goofspiel(num_cards=9), seed=4))
    assert len(turns) == 9 and {source for *_, source in turns} == {"exact solution"}
    for obs, policy, _source in turns:
        assert policy == pytest.approx(_solver_policy(nine, obs), abs=1e-12)
        _assert_unexploitable(nine, obs, policy)


def _assert_unexploitable(solution, obs, policy):
    """A best response to the bot's bid gains nothing over the position's value (exploitability 0)."""
    pos = EquilibriumBot.position(obs)
    M = solution.turn_matrix(**pos)
    value = solution.value(**pos)
    x = np.array([policy[card] for card in sorted(policy)])
    assert (x @ M).min() >= value - 1e-9


def _nine_card_book(tmp_path, monkeypatch, nine):
    """A two-turn opening book of the 9-card game, shipped in place of the kit's."""
    path = tmp_path / "book9.npz"
    opening.save_opening(nine, path, depth=2)
    book = opening.load_opening(path)
    monkeypatch.setattr(opening, "shipped_opening", lambda n, objective="points", ties="discard", deep=True: book if n == 9 else None)
    return book


def test_the_opening_book_plays_the_first_turns_exactly(tmp_path, monkeypatch, nine):
    book = _nine_card_book(tmp_path, monkeypatch, nine)
    bot = EquilibriumBot(progress=False, exact_up_to=8, endgame_cards=4)
    turns = list(_play(bot, Goofspiel(num_cards=9), seed=7))
    sources = [source for *_, source in turns]
    assert sources[:2] == ["opening book"] * 2
    assert sources[2:] == ["estimate"] * 3 + ["exact endgame"] * 4
    for obs, policy, _source in turns[:2]:
        assert policy == pytest.approx(_solver_policy(nine, obs), abs=1e-12)
        _assert_unexploitable(book, obs, policy)


def test_without_book_or_solution_the_bot_says_it_estimates():
    bot = EquilibriumBot(progress=False, exact_up_to=8, endgame_cards=3)
    sources = [source for *_, source in _play(bot, Goofspiel(num_cards=10), seed=1)]
    assert sources == ["estimate"] * 7 + ["exact endgame"] * 3


def test_reset_opens_the_stored_solution_in_the_background(tmp_path, monkeypatch):
    from gopskit.agents import equilibrium

    monkeypatch.setattr(equilibrium, "_WARMING", {})
    solve_goofspiel(9, checkpoint=tmp_path / storage.layer_folder_name(9, "points", "discard"))
    bot = EquilibriumBot(progress=False, exact_up_to=8)
    bot.reset(Goofspiel(num_cards=9), 0, np.random.default_rng(0))
    thread = equilibrium._WARMING[(9, "points", "discard")]
    thread.join(timeout=120)
    assert not thread.is_alive() and (9, "points", "discard") in storage._MEMORY
    EquilibriumBot(progress=False, exact_up_to=8).reset(Goofspiel(num_cards=9), 1)
    assert equilibrium._WARMING[(9, "points", "discard")] is thread  # warmed once per process


def test_a_deck_it_solves_is_solved_in_the_background_as_the_game_starts(tmp_path, monkeypatch):
    """With nothing cached, starting a 7-card game solves it in a thread; the first bid then reads it."""
    from gopskit.agents import equilibrium

    monkeypatch.setattr(equilibrium, "_WARMING", {})
    assert not list(tmp_path.iterdir())
    bot = EquilibriumBot(progress=False)
    rules = Goofspiel(num_cards=7)
    bot.reset(rules, 0, np.random.default_rng(0))
    thread = equilibrium._WARMING[(7, "points", "discard")]
    thread.join(timeout=120)
    assert not thread.is_alive() and (7, "points", "discard") in storage._MEMORY
    assert any(path.name.startswith("goofspiel-7-points-discard") for path in tmp_path.iterdir())
    obs = rules.new_game(seed=3).observation(0)
    assert bot.policy(obs) == _solver_policy(storage._MEMORY[(7, "points", "discard")], obs)
    assert bot.source == "exact solution"


def test_at_thirteen_cards_the_book_plays_three_turns_and_one_exact_solve_the_rest(monkeypatch):
    """Shipped book for turns 1-3, then one exact solve of turn 4 and the rest serves the hand.

    The mix the book states at turn 3 is built from values rounded to 0.0001:
    checked against an exact solve of that turn and everything after it, a
    best reply gains at most 0.0001 points on it. (The bids drawn there are
    exact: tests/test_certified_turn.py.)
    """
    from gopskit.agents import equilibrium
    from gopskit.solvers import exact

    monkeypatch.setattr(equilibrium, "_ENDGAMES", {})
    solves = []
    real = exact.solve_turn_endgame

    def counted(*args, **kwargs):
        if threading.current_thread() is threading.main_thread():  # not the kernels' warm-up thread
            solves.append(len(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(exact, "solve_turn_endgame", counted)
    bot = EquilibriumBot(progress=False)
    turns = list(_play(bot, Goofspiel(num_cards=13), seed=21))
    assert [source for *_, source in turns] == ["opening book"] * 3 + ["exact endgame"] * 10
    assert solves == [10]
    obs, policy, _source = turns[2]
    pos = EquilibriumBot.position(obs)
    third = real(pos["hand"], pos["opp_hand"], pos["prizes"], pos["prize"])  # 11 cards each: about 8 s
    x = np.array([policy[card] for card in sorted(policy)])
    assert (x @ third.matrix).min() >= third.value - 1e-4
    for obs, policy, _source in turns[3:]:
        pos = EquilibriumBot.position(obs)
        here = exact.solve_endgame(pos["hand"], pos["opp_hand"], pos["prizes"])  # solved afresh from this position
        _assert_unexploitable(here, obs, policy)  # no reply gains on the bot's bid: an equilibrium bid


def test_a_win_bot_plays_the_win_endgame_once_it_is_small_enough(monkeypatch):
    """Beyond the decks it solves whole, a "win" bot's endgame is the points one (and says so) until 8 cards
    are left; from there it is the exact "win" endgame, checked against a solve of each position for "win"."""
    from gopskit.agents import equilibrium
    from gopskit.solvers.exact import solve_endgame

    monkeypatch.setattr(equilibrium, "_ENDGAMES", {})
    bot = EquilibriumBot(objective="win", progress=False, exact_up_to=5)
    turns = list(_play(bot, Goofspiel(num_cards=10), seed=3))
    assert [source for *_, source in turns] == ["exact endgame (points)"] * 2 + ["exact endgame"] * 8
    for obs, policy, _source in turns[2:7]:
        pos = EquilibriumBot.position(obs)
        here = solve_endgame(pos["hand"], pos["opp_hand"], pos["prizes"], "win", lead=pos["lead"])
        _assert_unexploitable(here, obs, policy)  # no reply gains: exact for the chance of winning


def test_reset_loads_the_endgame_solver_in_the_background(monkeypatch):
    """On a fresh install its kernels are compiled on first use: at reset, not at the fourth move."""
    from gopskit.agents import equilibrium
    from gopskit.solvers import exact

    calls = []
    monkeypatch.setattr(equilibrium, "_ENDGAME_WARMING", None)
    monkeypatch.setattr(exact, "solve_turn_endgame", lambda *args, **kwargs: calls.append(args))
    EquilibriumBot(progress=False).reset(Goofspiel(num_cards=8), 0, np.random.default_rng(0))
    assert equilibrium._ENDGAME_WARMING is None  # 8 cards are solved whole: no endgame
    EquilibriumBot(progress=False).reset(Goofspiel(num_cards=13), 0, np.random.default_rng(0))
    equilibrium._ENDGAME_WARMING.join(timeout=60)
    assert calls == [([1, 2], [1, 3], [1, 2], 1)]
    EquilibriumBot(progress=False).reset(Goofspiel(num_cards=12), 0, np.random.default_rng(0))
    assert len(calls) == 1  # once per process


def _estimated_in_play(bot, rules, seed=3) -> list[int]:
    """The turns whose bid the bot took from its estimate in a game played to the end."""
    return [turn for turn, (*_, source) in enumerate(_play(bot, rules, seed), start=1) if source == "estimate"]


def test_the_seat_note_names_the_turns_the_bot_estimates_without_a_book():
    bot = EquilibriumBot(progress=False, exact_up_to=8, endgame_cards=3)
    rules = Goofspiel(num_cards=10)
    assert bot.estimated_turns(rules) == [1, 2, 3, 4, 5, 6, 7] == _estimated_in_play(bot, rules)
    assert bot.seat_note(rules) == (
        "Equilibrium bot: its first 7 bids are estimates, as no exact 10-card solution for these rules is on this "
        "computer ('gopskit solve --cards 10' makes one); from turn 8, with 3 cards left, it plays the exact "
        "equilibrium.")


def test_the_seat_note_names_the_turns_between_the_book_and_the_endgame(tmp_path, monkeypatch, nine):
    _nine_card_book(tmp_path, monkeypatch, nine)
    bot = EquilibriumBot(progress=False, exact_up_to=8, endgame_cards=4)
    rules = Goofspiel(num_cards=9)
    assert bot.estimated_turns(rules) == [3, 4, 5] == _estimated_in_play(bot, rules)
    assert bot.seat_note(rules) == (
        "Equilibrium bot: its bids in turns 3 to 5 are estimates, as no exact 9-card solution for these rules is on "
        "this computer ('gopskit solve --cards 9' makes one); its other bids are the exact equilibrium's.")
    assert EquilibriumBot(exact_up_to=9).seat_note(rules) is None  # solved on first use: nothing estimated


def test_with_a_complete_solution_in_the_cache_the_seat_says_nothing(tmp_path):
    solve_goofspiel(9, checkpoint=tmp_path / storage.layer_folder_name(9, "points", "discard"))
    bot = EquilibriumBot(progress=False, exact_up_to=8, endgame_cards=3)
    rules = Goofspiel(num_cards=9)
    assert bot.estimated_turns(rules) == [] == _estimated_in_play(bot, rules) and bot.seat_note(rules) is None


@pytest.mark.parametrize("cards,ties,estimated", [
    (9, "discard", []), (10, "discard", []), (11, "discard", [1]), (12, "discard", [1, 2]), (13, "discard", []),
    (8, "carry", []), (9, "carry", [1]), (13, "carry", [1, 2, 3, 4, 5])])
def test_as_shipped_the_bot_estimates_only_the_turns_before_its_book_or_endgame(cards, ties, estimated):
    """The kit's own bot: the 13-card book covers turns 1-3 with ties discarded, the endgame hands of 10 (of 8
    with ties carried, whose solves take far longer), a deck of 9 (8 with ties carried) is solved whole."""
    bot = EquilibriumBot(progress=False)
    rules = Goofspiel(num_cards=cards, ties=ties)
    assert bot.estimated_turns(rules) == estimated
    # checked in play where the estimate and the endgame both take part (13 cards, ties discarded: the test above)
    if cards == 12 or ties == "carry":
        assert _estimated_in_play(bot, rules, seed=cards) == estimated
    note = bot.seat_note(rules)
    assert (note is None) == (not estimated)
    if estimated:
        flags = " --ties carry" if ties == "carry" else ""
        assert f"'gopskit solve --cards {cards}{flags}' makes one" in note
        left = 8 if ties == "carry" else 10
        assert f"from turn {len(estimated) + 1}, with {left} cards left" in note


def test_a_bot_that_cannot_play_the_rules_has_no_turns_to_count():
    assert EquilibriumBot().estimated_turns(Goofspiel(num_cards=5, players=3)) is None
