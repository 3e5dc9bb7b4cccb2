"""The equilibrium bot's look-ahead: third turns the book cannot settle, solved during turn 2 while the person thinks.

The 9-card game stands in for the 13-card one: a two-turn book whose third
turn is built from a layer rounded to 0.001 (so draws near a boundary cannot
be told from the book), and the complete solution to check against.
"""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from gopskit.agents import equilibrium
from gopskit.agents.equilibrium import EquilibriumBot
from gopskit.games.goofspiel import Goofspiel, GoofspielState
from gopskit.solvers import exact, opening, solve_goofspiel, storage
from gopskit.solvers.certified import certified_group, group_at, interchangeable
from gopskit.solvers.exact import SolveCancelled, solve_turn_endgame
from test_certified_turn import rounded_book

DECK = range(1, 10)
FIRST, SECOND = 9, 8  # the prizes of turns 1 and 2
THEIR_FIRST = 9  # the other side's first bid


@pytest.fixture(scope="module")
def nine(tmp_path_factory):
    full = solve_goofspiel(9)
    return full, rounded_book(full, tmp_path_factory.mktemp("ahead9"), step=0.001)


class _Draws:
    """A generator for the bot: ``choice`` takes the likeliest card (known in advance), ``random`` is always ``u``."""

    def __init__(self, u):
        self.u, self.draws = u, 0

    def choice(self, n, p):
        return int(np.argmax(p))

    def random(self):
        self.draws += 1
        return self.u


@pytest.fixture
def solves(nine, monkeypatch, tmp_path):
    """The bot plays the 9-card game from the rounded book; every endgame solve is counted."""
    full, book = nine
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))
    monkeypatch.setattr(storage, "_MEMORY", {})
    monkeypatch.setattr(storage, "find_solution", lambda *args, **kwargs: None)  # no complete 9-card solution
    monkeypatch.setattr(opening, "shipped_opening", lambda n, objective="points", ties="discard", deep=True:
                        book if n == 9 else None)
    monkeypatch.setattr(equilibrium, "_ENDGAMES", {})
    monkeypatch.setattr(equilibrium, "_ENDGAMES_KEPT", 200)
    counted = []
    real = exact.solve_turn_endgame

    def counting(hand, opp, prizes, prize, *args, **kwargs):
        if len(hand) == 7:  # a third turn's (not the warm-up's two-card solve)
            counted.append((tuple(hand), tuple(opp), tuple(prizes), prize))
        return real(hand, opp, prizes, prize, *args, **kwargs)

    monkeypatch.setattr(exact, "solve_turn_endgame", counting)
    return counted


def _state(pile_rest=()):
    pile = [FIRST, SECOND, *pile_rest, *(c for c in DECK if c not in (FIRST, SECOND, *pile_rest))]
    return GoofspielState(Goofspiel(num_cards=9), pile)


def _bot(u, think_ahead=True):
    bot = EquilibriumBot(progress=False, exact_up_to=8)
    bot.think_ahead = think_ahead
    bot.reset(Goofspiel(num_cards=9), 0, np.random.default_rng(0))
    bot.rng = _Draws(u)
    return bot


def _to_turn_two(bot, state):
    bid = bot.act(state.observation(0))
    state.apply([bid, THEIR_FIRST])
    return bid


def _exact_groups(full, obs):
    hand, opp = list(obs.hand), list(obs.hands[1])
    prizes = sorted(obs.unseen_prizes + (obs.prize,))
    policy = full.policy(hand, opp, prizes, obs.prize)
    return hand, [sum(policy[hand[i]] for i in run) for run in interchangeable(hand, opp)]


def _third_turns(first_bid, second_bid):
    """Every third turn after these two bids of the bot, made by the game itself: each bid of theirs, each next prize."""
    for theirs in (c for c in DECK if c != THEIR_FIRST):
        for prize in (c for c in DECK if c not in (FIRST, SECOND)):
            state = _state([prize])
            state.apply([first_bid, THEIR_FIRST])
            state.apply([second_bid, theirs])
            yield theirs, prize, state.observation(0)


def _unsettled(book, obs, u):
    hand, opp = list(obs.hand), list(obs.hands[1])
    prizes = sorted(obs.unseen_prizes + (obs.prize,))
    matrix = book.turn_matrix(hand, opp, prizes, obs.prize)
    return certified_group(matrix, opening.turn_radius(book, 7), interchangeable(hand, opp),
                           interchangeable(opp, hand), u) is None


def _edge_case(nine):
    """A draw ``u`` on a boundary of one third turn's exact mix, and that turn: the book cannot tell it."""
    full, book = nine
    probe = _bot(0.5, think_ahead=False)
    state = _state()
    first = _to_turn_two(probe, state)
    policy = probe.policy(state.observation(0))
    second = max(policy, key=policy.get)
    for theirs, prize, obs in _third_turns(first, second):
        _hand, groups = _exact_groups(full, obs)
        edges = [e for e, p in zip(np.cumsum(groups)[:-1], groups[:-1]) if p > 1e-9]
        if edges and _unsettled(book, obs, float(edges[0]) + 1e-9):
            return float(edges[0]) + 1e-9, first, second, theirs, prize
    raise AssertionError("no third turn of this line has a boundary the rounded book cannot tell")


def test_a_solve_stops_soon_after_its_cancel_event_is_set_and_keeps_nothing_broken():
    class Countdown:
        """Set after a few looks (one look per call of the compiled layer solver)."""

        def __init__(self, looks):
            self.looks = looks

        def is_set(self):
            self.looks -= 1
            return self.looks < 0

    threads = numba.get_num_threads()
    position = ([1, 3, 4, 6, 7, 8, 9], [2, 3, 4, 5, 7, 8, 9], [1, 2, 3, 5, 6, 8, 9], 9)
    with pytest.raises(SolveCancelled):
        solve_turn_endgame(*position, cancel=Countdown(3))
    with pytest.raises(SolveCancelled):
        solve_turn_endgame(*position, cancel=Countdown(0))  # set before it starts
    assert numba.get_num_threads() == threads
    whole = solve_turn_endgame(*position, cancel=threading.Event())  # never set: solved as without one
    assert whole.policy == solve_turn_endgame(*position).policy


def test_the_look_ahead_solves_exactly_the_third_turns_the_book_cannot_settle_and_the_move_uses_it(nine, solves):
    full, book = nine
    u, first, second, theirs, prize = _edge_case(nine)
    bot, state = _bot(u), _state([prize])
    assert _to_turn_two(bot, state) == first
    assert bot.act(state.observation(0)) == second
    ahead = bot._ahead
    assert ahead is not None and bot.rng.draws == 0  # the next draw was read from a copy, not taken
    ahead.thread.join(120)
    assert not ahead.thread.is_alive()
    expected = {(t, p) for t, p, obs in _third_turns(first, second) if _unsettled(book, obs, u)}
    found = {(tuple(c for c in DECK if c not in after["opp_hand"] and c != THEIR_FIRST)[0], after["prize"])
             for after in ahead.needed}
    assert (theirs, prize) in expected and found == expected
    assert len(solves) == len(expected)  # each solved once, in the look-ahead

    state.apply([second, theirs])
    obs = state.observation(0)
    card = bot.act(obs)
    hand, groups = _exact_groups(full, obs)
    rows = interchangeable(hand, list(obs.hands[1]))
    assert (card, bot.source) == (hand[rows[group_at(groups, u)][0]], "exact endgame")
    assert len(solves) == len(expected)  # the move found its solve done: it solved nothing itself


def _held_look_ahead(nine, monkeypatch):
    """A bot at turn 3 whose look-ahead is solving (a stand-in solve that runs until it is stopped)."""
    u, _first, second, theirs, prize = _edge_case(nine)
    started, seen_cancel = threading.Event(), []

    def endless(*args, cancel=None, **kwargs):
        started.set()
        seen_cancel.append(cancel.wait(120))  # a long solve, until the move stops it
        raise SolveCancelled("stopped")

    monkeypatch.setattr(exact, "solve_turn_endgame", endless)
    bot, state = _bot(u), _state([prize])
    _to_turn_two(bot, state)
    bot.act(state.observation(0))
    assert started.wait(120)
    return bot, bot._ahead, state, second, theirs, seen_cancel


def test_the_move_stops_the_look_ahead_of_a_turn_that_did_not_happen(nine, solves, monkeypatch):
    real = exact.solve_turn_endgame
    bot, ahead, state, second, theirs, seen_cancel = _held_look_ahead(nine, monkeypatch)
    solving = ahead._solving
    other = next(c for c in state.observation(0).hands[1] if c != theirs)
    state.apply([second, other])  # the other side bid another card: the turn being solved will not happen
    monkeypatch.setattr(exact, "solve_turn_endgame", real)  # the move may need a solve of its own
    card = bot.act(state.observation(0))
    ahead.thread.join(120)
    assert not ahead.thread.is_alive() and seen_cancel == [True]
    assert solving is not None and solving not in equilibrium._ENDGAMES  # the stopped solve stored nothing
    assert card in state.observation(0).hand


def test_a_new_game_stops_the_look_ahead(nine, solves, monkeypatch):
    bot, ahead, _state_, _second, _theirs, seen_cancel = _held_look_ahead(nine, monkeypatch)
    bot.reset(Goofspiel(num_cards=9), 0, np.random.default_rng(1))
    ahead.thread.join(120)
    assert not ahead.thread.is_alive() and seen_cancel == [True]


def test_without_think_ahead_nothing_is_started_and_the_bids_are_the_same(nine, solves):
    """Tournaments and batch play do not look ahead; a seeded game bids the same cards either way."""
    games = []
    for think in (False, True):
        bot = EquilibriumBot(progress=False, exact_up_to=8)
        bot.think_ahead = think
        bot.reset(Goofspiel(num_cards=9), 0, np.random.default_rng(2024))
        state, bids = _state([5]), []
        for theirs in (9, 1, 2, 3, 4, 5, 6, 7, 8):
            bids.append(bot.act(state.observation(0)))
            if len(bids) == 2:
                assert (getattr(bot, "_ahead", None) is not None) == think
            state.apply([bids[-1], theirs])
        games.append(bids)
    assert games[0] == games[1]


def test_a_board_with_a_person_lets_its_equilibrium_bot_think_ahead():
    from gopskit.widgets.boards import make_board

    with_person = make_board("goofspiel", seats=["human", "equilibrium"], num_cards=5)
    assert with_person.agents[1].think_ahead is True
    bots_only = make_board("goofspiel", seats=["equilibrium", "random"], num_cards=5)
    assert bots_only.agents[0].think_ahead is False


@pytest.mark.parametrize("ties", ["discard", "carry"])
def test_the_next_positions_are_every_position_the_game_can_reach_next(ties):
    """After a tie on turn 1 (a pot under "carry"), the bot bids 4 on turn 2: each bid of theirs, each next prize."""
    rules = Goofspiel(num_cards=6, ties=ties)
    reached = set()
    for theirs in (1, 2, 4, 5, 6):
        for prize in (1, 2, 3, 4):
            state = GoofspielState(rules, [6, 5, prize, *(c for c in (1, 2, 3, 4) if c != prize)])
            state.apply([3, 3])
            state.apply([4, theirs])
            reached.add(tuple(sorted(EquilibriumBot.position(state.observation(0)).items())))
    state = GoofspielState(rules, [6, 5, 1, 2, 3, 4])
    state.apply([3, 3])
    pos = EquilibriumBot.position(state.observation(0))
    assert pos["pot"] == (6 if ties == "carry" else 0)
    found = [tuple(sorted(after.items())) for after in equilibrium._next_positions(pos, 4, ties)]
    assert len(found) == len(set(found)) == 20 and set(found) == reached


def test_a_classroom_table_bot_looks_ahead_with_the_next_moves_own_generator(nine, solves, monkeypatch):
    """A classroom makes a fresh bot for every move, seeded by table, seat and ply: the look-ahead still serves turn 3."""
    from gopskit.classroom import gameplay

    full, _book = nine
    monkeypatch.setattr(gameplay, "_BOT_MOVES", {})
    monkeypatch.setattr(gameplay, "make_agent", lambda name: EquilibriumBot(progress=False, exact_up_to=8))  # the book
    monkeypatch.setattr(equilibrium, "_LOOK_AHEADS", [])
    room = {"game": "goofspiel", "options": '{"num_cards": 9}'}
    for seed in range(60):
        table, state = {"seed": seed}, _state()
        first = gameplay.bot_move(room, table, state, 0, 0, "equilibrium")
        state.apply([first, THEIR_FIRST])
        second = gameplay.bot_move(room, table, state, 0, 1, "equilibrium")
        ahead = equilibrium._LOOK_AHEADS[-1]
        ahead.thread.join(120)
        if ahead.needed:
            break
    else:
        raise AssertionError("no seed gave a third turn to solve ahead")
    u = np.random.default_rng(np.random.SeedSequence([seed, 0, 2])).random()  # the third move's bot's first draw
    assert ahead.u == u
    after = ahead.needed[0]
    theirs = next(c for c in DECK if c not in after["opp_hand"] and c != THEIR_FIRST)
    state = _state([after["prize"]])
    state.apply([first, THEIR_FIRST])
    state.apply([second, theirs])
    obs = state.observation(0)
    assert _unsettled(nine[1], obs, u)  # the look-ahead used that draw
    solved = len(solves)
    card = gameplay.bot_move(room, table, state, 0, 2, "equilibrium")
    hand, groups = _exact_groups(full, obs)
    assert card == hand[interchangeable(hand, list(obs.hands[1]))[group_at(groups, u)][0]]
    assert len(solves) == solved and ahead not in equilibrium._LOOK_AHEADS  # found solved; its game moved on
