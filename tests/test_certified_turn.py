"""Exact bids from a rounded turn game (gopskit.solvers.certified) and the equilibrium bot's third turn at 13 cards.

The claim under test: whenever the certified path names a group, it is the
group inverse sampling of the *exact* mix gives at the same ``u``; when it
cannot tell, the bot solves exactly and still uses that ``u``. So the bid is
distributed exactly as the equilibrium's.
"""

from __future__ import annotations

import doctest
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from gopskit.agents.equilibrium import EquilibriumBot
from gopskit.games.goofspiel import Goofspiel, GoofspielState
from gopskit.solvers import certified, opening, solve_goofspiel, storage
from gopskit.solvers.certified import box_turn, certified_group, group_at, grouped_box, interchangeable

GRID = np.linspace(0.0, 1.0, 401, endpoint=False)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))
    monkeypatch.setattr(storage, "_MEMORY", {})


def test_the_module_examples():
    assert doctest.testmod(certified).failed == 0


def test_interchangeable_cards_by_hand():
    assert interchangeable([1, 2, 5], [3, 4]) == [[0, 1], [2]]  # 1 and 2 lose to both; 5 beats both
    assert interchangeable([3, 4], [4]) == [[0], [1]]  # 4 ties the 4, 3 loses to it
    assert interchangeable([6, 7, 8], [1, 13]) == [[0, 1, 2]]
    assert interchangeable([2, 9], [2, 9]) == [[0], [1]]
    assert interchangeable([], [1]) == []


def test_group_at_is_inverse_sampling():
    assert [group_at([0.25, 0.0, 0.75], u) for u in (0.0, 0.2499, 0.25, 0.99)] == [0, 0, 2, 2]
    assert group_at([0.5, 0.5 - 1e-17], 1 - 1e-18) == 1  # the top of [0, 1), after rounding dust


def _lp_mix(A):
    """The row player's optimal mix by HiGHS (an independent solver): max v, x.A >= v, sum x = 1."""
    m, n = A.shape
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-A.T, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(m), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * m + [(None, None)],
                  method="highs")
    assert res.status == 0
    return res.x[:m]


def _assert_agrees(box, exact_mix):
    """Every u the box decides gets the exact mix's group; the bounds hold the exact cumulative chances."""
    cumulative = np.cumsum(exact_mix[list(box.support)])
    assert np.all(np.array(box.low) - 1e-9 <= cumulative) and np.all(cumulative <= np.array(box.high) + 1e-9)
    assert exact_mix[[i for i in range(len(exact_mix)) if i not in box.support]].sum() < 1e-9
    for u in GRID:
        decided = box.group_at(u)
        assert decided is None or decided == group_at(exact_mix, u), u


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 2**32 - 1), st.sampled_from([1e-3, 1e-2, 0.1]))
def test_a_box_never_names_a_group_the_exact_game_would_not(rows, cols, seed, radius):
    """Random games, each entry moved by up to ``radius``: the box of the moved game speaks for the true one."""
    rng = np.random.default_rng(seed)
    true = rng.integers(-9, 10, size=(rows, cols)).astype(float)
    rounded = true + rng.uniform(-radius, radius, size=true.shape)
    box = box_turn(rounded, radius)
    if box is not None:
        _assert_agrees(box, _lp_mix(true))


def test_a_clear_game_is_certified_and_a_tied_one_is_not():
    rps = np.array([[0.0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    box = box_turn(rps + 0.0004, 0.0005)
    assert box is not None and box.support == (0, 1, 2) and box.ambiguity() < 0.01
    _assert_agrees(box, np.full(3, 1 / 3))
    assert box_turn(np.array([[1.0, 0.0], [1.0, 0.0]]), 0.0005) is None  # equal rows: not a strict equilibrium
    assert box_turn(np.array([[1.0, 0.0], [1.0005, 0.0]]), 0.001) is None  # better within the margin


@pytest.fixture(scope="module")
def nine_with_rounded_turn_three(tmp_path_factory):
    """The 9-card game solved, and a two-turn book of it with its 6-card layer rounded to 0.001.

    Ten times coarser than the shipped 13-card layer, so that more turns need the fallbacks.
    """
    full = solve_goofspiel(9)
    return full, rounded_book(full, tmp_path_factory.mktemp("book9"), step=0.001)


def rounded_book(full, folder, step):
    """A two-turn book of the whole-game solution ``full``, written to ``folder`` with its next layer rounded to ``step``."""
    opening.save_opening(full, folder / "book.npz", depth=2)
    opening.save_deep_layer(full, folder / "deep.npz", full.num_cards - 3, step=step)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GOPSKIT_CACHE", str(folder / "cache"))
        return opening.with_deep_layer(opening.load_opening(folder / "book.npz"), folder / "deep.npz")


def _third_turns(count, seed):
    rng = np.random.default_rng(seed)
    deck = np.arange(1, 10)
    for _ in range(count):
        hand, opp, prizes = (sorted(int(c) for c in rng.choice(deck, 7, replace=False)) for _ in range(3))
        yield hand, opp, prizes, int(rng.choice(prizes))


def test_turn_radius_is_the_rounding_for_the_rounded_turn_only(nine_with_rounded_turn_three):
    full, book = nine_with_rounded_turn_three
    assert opening.turn_radius(book, 7) == pytest.approx(book.provenance["deep"]["largest_rounding"] + opening.SOLVER_SLACK)
    assert 0 < opening.turn_radius(book, 7) <= 0.0005 + 1e-6
    assert opening.turn_radius(book, 8) == opening.turn_radius(book, 9) == opening.turn_radius(full, 7) == 0.0


def test_certified_groups_of_a_rounded_book_are_the_exact_solutions(nine_with_rounded_turn_three):
    """60 third turns of the 9-card game: most are certified, and every certified answer is the exact one."""
    full, book = nine_with_rounded_turn_three
    radius, certified_turns = opening.turn_radius(book, 7), 0
    for hand, opp, prizes, prize in _third_turns(60, seed=5):
        rows, cols = interchangeable(hand, opp), interchangeable(opp, hand)
        policy = full.policy(hand, opp, prizes, prize)
        exact = np.array([sum(policy[hand[i]] for i in run) for run in rows])
        answers = [certified_group(book.turn_matrix(hand, opp, prizes, prize), radius, rows, cols, u) for u in GRID]
        assert all(a is None or a == group_at(exact, u) for a, u in zip(answers, GRID))
        certified_turns += sum(a is not None for a in answers) > 0.95 * len(GRID)
    assert certified_turns >= 45


def _bot_at_turn_three(book, monkeypatch, hand, opp, prizes, prize, u):
    """An equilibrium bot (seat 0) of the 9-card game whose one random draw is ``u``, asked to bid at turn 3."""
    from gopskit.agents import equilibrium

    monkeypatch.setattr(opening, "shipped_opening", lambda n, objective="points", ties="discard", deep=True: book if n == 9 else None)
    monkeypatch.setattr(equilibrium, "_ENDGAMES", {})
    rules = Goofspiel(num_cards=9)
    bot = EquilibriumBot(progress=False, exact_up_to=8)
    bot.reset(rules, 0, np.random.default_rng(0))
    bot.rng = _Fixed(u)
    pile = [p for p in range(1, 10) if p not in prizes] + [prize] + [p for p in prizes if p != prize]
    state = GoofspielState(rules, pile)
    state.apply([next(c for c in range(1, 10) if c not in hand), next(c for c in range(1, 10) if c not in opp)])
    state.apply([[c for c in range(1, 10) if c not in hand][1], [c for c in range(1, 10) if c not in opp][1]])
    obs = state.observation(0)
    assert (list(obs.hand), list(obs.hands[1]), obs.prize) == (hand, opp, prize)
    return bot.act(obs), bot.source


class _Fixed:
    """A generator whose one uniform draw is fixed."""

    def __init__(self, u):
        self.u, self.draws = u, 0

    def random(self):
        self.draws += 1
        assert self.draws == 1, "the bid takes one uniform draw"
        return self.u


def test_the_bot_bids_the_exact_mixs_card_and_solves_when_the_book_cannot_tell(nine_with_rounded_turn_three, monkeypatch):
    """Clear draws come from the book; a draw on the edge of two groups forces the exact solve. Both match the exact mix."""
    full, book = nine_with_rounded_turn_three
    radius = opening.turn_radius(book, 7)
    hand, opp, prizes, prize = next(t for t in _third_turns(60, seed=5)
                                    if len(getattr(_box(book, radius, *t), "support", ())) >= 3)
    rows = interchangeable(hand, opp)
    policy = full.policy(hand, opp, prizes, prize)
    exact = np.array([sum(policy[hand[i]] for i in run) for run in rows])
    edges = np.cumsum(exact)[:-1]
    edge = float(edges[exact[:-1] > 0][0])
    cases = [(u, "opening book") for u in (0.001, 0.999)] + [(edge - 1e-7, "exact endgame"), (edge + 1e-7, "exact endgame")]
    for u, source in cases:
        card, said = _bot_at_turn_three(book, monkeypatch, hand, opp, prizes, prize, u)
        assert (card, said) == (hand[rows[group_at(exact, u)][0]], source), u


def _box(book, radius, hand, opp, prizes, prize):
    """The book's turn game, one row and column per run of interchangeable cards, boxed."""
    return grouped_box(book.turn_matrix(hand, opp, prizes, prize), radius, interchangeable(hand, opp),
                       interchangeable(opp, hand))


def test_the_bots_third_bids_are_distributed_as_the_exact_mix(nine_with_rounded_turn_three, monkeypatch):
    """Over a grid of draws the bot's bids at a third turn have exactly the exact mix's group chances."""
    full, book = nine_with_rounded_turn_three
    hand, opp, prizes, prize = next(iter(_third_turns(1, seed=11)))
    rows = interchangeable(hand, opp)
    policy = full.policy(hand, opp, prizes, prize)
    exact = np.array([sum(policy[hand[i]] for i in run) for run in rows])
    bids = [_bot_at_turn_three(book, monkeypatch, hand, opp, prizes, prize, u)[0] for u in GRID[::4]]
    assert bids == [hand[rows[group_at(exact, u)][0]] for u in GRID[::4]]


# -- the shipped 13-card book ----------------------------------------------------------------------------------------

THIRTEEN = range(1, 14)
# A third turn the book certifies (with the layer at 0.001 it could not): a draw inside its first band cannot be
# told from the rounded values, and the bot solves the turn exactly.
NARROW = ([1, 2, 4, 5, 7, 8, 9, 10, 11, 12, 13], [1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 13],
          [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], 3)


def _thirteen_third_turns(count, seed):
    """Third turns the bot can meet: its first two bids on the book's supports, the other side's and the prizes at random."""
    book = opening.shipped_opening(13, deep=False)
    rng = np.random.default_rng(seed)
    for _ in range(count):
        prizes, hand, opp = list(THIRTEEN), list(THIRTEEN), list(THIRTEEN)
        for _turn in range(2):
            prize = int(rng.choice(prizes))
            policy = book.policy(hand, opp, prizes, prize)
            cards = [c for c in policy if policy[c] > 1e-12]
            hand.remove(int(rng.choice(cards)))
            opp.remove(int(rng.choice(opp)))
            prizes.remove(prize)
        yield hand, opp, prizes, int(rng.choice(prizes))


def test_most_thirteen_card_third_turns_are_certified_from_the_shipped_book():
    book = opening.shipped_opening(13)
    radius = opening.turn_radius(book, 11)
    assert 0 < radius <= 0.00005 + 1e-6
    boxes = [_box(book, radius, *turn) for turn in _thirteen_third_turns(200, seed=3)]
    assert sum(b is not None for b in boxes) >= 196  # about 99.8 % (benchmarks/bench_turn3_certified.py)
    assert np.mean([b.ambiguity() for b in boxes if b is not None]) < 0.001
    assert _box(book, radius, *book.hard_turns.position(0)) is None  # the shipped hard turns are those it cannot


def test_at_thirteen_cards_a_certified_third_bid_is_the_exact_solves(monkeypatch):
    """One third turn solved exactly (about 6 s): the book's certified groups are the exact mix's at every decided u."""
    from gopskit.solvers.exact import solve_turn_endgame

    book = opening.shipped_opening(13)
    radius = opening.turn_radius(book, 11)
    hand, opp, prizes, prize = next(t for t in _thirteen_third_turns(20, seed=8) if _box(book, radius, *t))
    rows, cols = interchangeable(hand, opp), interchangeable(opp, hand)
    turn = solve_turn_endgame(hand, opp, prizes, prize)
    exact = np.array([sum(turn.policy[hand[i]] for i in run) for run in rows])
    assert np.abs(turn.matrix - book.turn_matrix(hand, opp, prizes, prize)).max() <= radius
    answers = [certified_group(book.turn_matrix(hand, opp, prizes, prize), radius, rows, cols, u) for u in GRID]
    assert sum(a is not None for a in answers) > 0.9 * len(GRID)
    assert all(a is None or a == group_at(exact, u) for a, u in zip(answers, GRID))


def test_at_thirteen_cards_a_draw_the_book_cannot_tell_is_solved_exactly_and_serves_the_rest(monkeypatch):
    from gopskit.agents import equilibrium
    from gopskit.solvers import exact

    monkeypatch.setattr(equilibrium, "_ENDGAMES", {})
    solves = []
    real = exact.solve_turn_endgame

    def counted(*args, **kwargs):
        if threading.current_thread() is threading.main_thread():
            solves.append(len(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(exact, "solve_turn_endgame", counted)
    hand, opp, prizes, prize = NARROW
    box = _box(opening.shipped_opening(13), opening.turn_radius(opening.shipped_opening(13), 11), *NARROW)
    u = (box.low[0] + box.high[0]) / 2  # inside the first band: the rounded values cannot tell the group
    assert box.group_at(u) is None
    rules = Goofspiel(num_cards=13)
    pile = [p for p in THIRTEEN if p not in prizes] + [prize] + [p for p in prizes if p != prize]
    state = GoofspielState(rules, pile)
    gone, opp_gone = [c for c in THIRTEEN if c not in hand], [c for c in THIRTEEN if c not in opp]
    state.apply([gone[0], opp_gone[0]])
    state.apply([gone[1], opp_gone[1]])
    bot = EquilibriumBot(progress=False)
    bot.reset(rules, 0, np.random.default_rng(0))
    bot.rng = _Fixed(u)
    card = bot.act(state.observation(0))
    assert bot.source == "exact endgame" and solves == [11]
    turn = next(iter(equilibrium._ENDGAMES.values()))
    rows = interchangeable(hand, opp)
    assert card == hand[rows[group_at([sum(turn.policy[hand[i]] for i in run) for run in rows], u)][0]]
    state.apply([card, opp[0]])
    bot.rng = np.random.default_rng(1)
    bot.act(state.observation(0))
    assert bot.source == "exact endgame" and solves == [11]  # turn 4 read from the same solve
