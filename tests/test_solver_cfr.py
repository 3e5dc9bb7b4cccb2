"""CFR on hidden-information Goofspiel: the tree matches the engine, values match an exact LP."""

import numpy as np
import pytest
from scipy import sparse
from scipy.optimize import linprog

from gopskit.errors import AgentError, GopsError
from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers._cfr_tree import build_tree, node_history, observation_code, replay_node
from gopskit.solvers.cfr import (
    best_response_value, bid_given_prize, cfr, exploitability, game_value, low_prize_overbid_share, solve_cfr,
    strategy_exploitability, strategy_table,
)

VARIANTS = {
    "hidden": dict(hidden_bids=True),
    "blind": dict(blind=True),
    "dealer": dict(defeat_the_dealer=True),
    "dealer-seat-2": dict(defeat_the_dealer=True, dealer=1),
    "plain": dict(),
    "hidden-carry": dict(hidden_bids=True, ties="carry"),
    "blind-ascending": dict(blind=True, prize_order="ascending"),
}


def uniform(tree):
    return [None if lv.kind == "chance" else np.full((lv.num_infosets, lv.branch), 1 / lv.branch) for lv in tree.levels]


# ----------------------------------------------- the tree is the engine ---
@pytest.mark.parametrize("name", VARIANTS)
def test_information_states_are_the_engines_observations(name):
    """Every decision node, replayed in the engine: the tree's code is the code of the
    engine's observation, and equal codes mean equal observations (same partition)."""
    tree = build_tree(Goofspiel(num_cards=3, **VARIANTS[name]))
    for index, level in enumerate(tree.levels):
        if level.kind != "decision":
            continue
        seen = {}
        for node in range(level.size):
            obs = replay_node(tree, index, node).observation(level.player)
            code = observation_code(obs, tree.radix)
            assert code == level.codes[level.infoset[node]]
            assert tuple(obs.legal_moves) == tuple(int(c) for c in range(1, 4) if level.hands[node] >> (c - 1) & 1)
            assert seen.setdefault(repr(obs.to_dict()), code) == code
        assert len(set(seen.values())) == len(seen) == level.num_infosets


@pytest.mark.parametrize("name", ["hidden-carry", "dealer-seat-2"])
def test_leaf_utilities_are_the_engines_score_differences(name):
    tree = build_tree(Goofspiel(num_cards=3, **VARIANTS[name]))
    last = len(tree.levels) - 1
    level = tree.levels[last]
    for node in range(level.size):
        state = replay_node(tree, last, node)
        _, _, current = node_history(tree, last, node)
        for action, card in enumerate(sorted(state.hands[level.player])):
            finished = state.clone()
            finished.apply({**current, level.player: card} if tree.dealer is None else {level.player: card})
            finished.apply({p: min(finished.hands[p]) for p in finished.to_move()})
            if not finished.is_terminal():  # Defeat the Dealer: the dealer bid, now the other
                finished.apply({p: min(finished.hands[p]) for p in finished.to_move()})
            assert finished.is_terminal()
            assert tree.utility[node * level.branch + action] == finished.scores()[0] - finished.scores()[1]


# ------------------------------------------------- exact LP comparison ---
def sequence_form(tree, player):
    """Sequence-form LP (Koller, Megiddo & von Stengel 1996) for ``player``: value and behaviour strategy."""
    seqs, parents, offsets = [np.zeros(1, int), np.zeros(1, int)], [[], []], [1, 1]
    chance = np.ones(1)
    starts = {}
    for index, level in enumerate(tree.levels):
        k = level.branch
        seqs = [np.repeat(s, k) for s in seqs]
        chance = np.repeat(chance, k)
        if level.kind == "chance":
            chance = chance / k
            continue
        p = level.player
        parent = seqs[p][::k]
        first = np.full(level.num_infosets, -1)
        for node, info in enumerate(level.infoset):
            assert first[info] in (-1, parent[node]), "perfect recall"
            first[info] = parent[node]
        parents[p].append((offsets[p], first, k))
        starts[index] = offsets[p]
        seqs[p] = offsets[p] + np.repeat(level.infoset, k) * k + np.tile(np.arange(k), level.size)
        offsets[p] += level.num_infosets * k
    A = sparse.coo_matrix((chance * tree.utility, (seqs[0], seqs[1])), shape=tuple(offsets)).tocsr()
    if player == 1:
        A = -A.T
    me, other = player, 1 - player

    def constraints(p):
        rows, cols, vals, r = [0], [0], [1.0], 1
        for offset, first, k in parents[p]:
            for info, par in enumerate(first):
                rows += [r] * (k + 1)
                cols += [offset + info * k + a for a in range(k)] + [par]
                vals += [1.0] * k + [-1.0]
                r += 1
        return sparse.csr_matrix((vals, (rows, cols)), shape=(r, offsets[p]))

    E, F = constraints(me), constraints(other)
    nx, nv = E.shape[1], F.shape[0]
    cost = np.r_[np.zeros(nx), -1.0, np.zeros(nv - 1)]
    upper = sparse.hstack([-A.T, F.T]).tocsr()
    equal = sparse.hstack([E, sparse.csr_matrix((E.shape[0], nv))]).tocsr()
    rhs = np.r_[1.0, np.zeros(E.shape[0] - 1)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(upper.shape[0]), A_eq=equal, b_eq=rhs,
                     bounds=[(0, None)] * nx + [(None, None)] * nv, method="highs")
    assert result.status == 0
    x = result.x[:nx]
    behaviour = {}
    for index, offset in starts.items():
        level = tree.levels[index]
        if level.player != me:
            continue
        first = next(f for o, f, k in parents[me] if o == offset)
        block = x[offset: offset + level.num_infosets * level.branch].reshape(level.num_infosets, level.branch)
        mass = x[first][:, None]
        behaviour[index] = np.where(mass > 1e-12, block / np.where(mass > 1e-12, mass, 1), 1 / level.branch)
    return -result.fun, behaviour


@pytest.mark.parametrize("name", ["hidden", "blind", "dealer", "dealer-seat-2", "hidden-carry"])
def test_cfr_plus_agrees_with_the_sequence_form_lp(name):
    tree = build_tree(Goofspiel(num_cards=3, **VARIANTS[name]))
    value0, behaviour0 = sequence_form(tree, 0)
    value1, behaviour1 = sequence_form(tree, 1)
    assert value0 == pytest.approx(-value1, abs=1e-7)  # minimax theorem
    strategies = [behaviour0.get(i, behaviour1.get(i)) for i in range(len(tree.levels))]
    assert strategy_exploitability(tree, strategies) == pytest.approx(0, abs=1e-6)
    assert best_response_value(tree, strategies, 0) == pytest.approx(value0, abs=1e-6)
    solution = solve_cfr(Goofspiel(num_cards=3, **VARIANTS[name]), 400)
    assert game_value(solution) == pytest.approx(value0, abs=0.02)
    assert exploitability(solution) < 0.02


def test_defeat_the_dealer_at_four_cards_favours_the_non_dealer():
    tree = build_tree(Goofspiel(num_cards=4, defeat_the_dealer=True))
    value, _ = sequence_form(tree, 0)
    assert value == pytest.approx(-2.0, abs=1e-6)  # the dealer (seat 0) loses 2 points a hand on average
    assert game_value(solve_cfr(Goofspiel(num_cards=4, defeat_the_dealer=True), 300)) == pytest.approx(-2.0, abs=0.02)


# ------------------------------------------------------- exploitability ---
def test_uniform_play_with_two_hidden_cards_by_hand():
    # N=2, hidden bids: the prize shows, each bids 1 or 2. Against a uniform bidder, bidding the
    # card equal to the prize wins |P1 - P2| = 1 half the time and ties otherwise: +1/2.
    tree = build_tree(Goofspiel(num_cards=2, hidden_bids=True))
    assert best_response_value(tree, uniform(tree), 0) == pytest.approx(0.5)
    assert strategy_exploitability(tree, uniform(tree)) == pytest.approx(0.5)


def test_uniform_play_with_two_blind_cards_cannot_be_beaten():
    # Blind, two cards: any first bid gives an expected difference of 0 (prizes are shuffled).
    tree = build_tree(Goofspiel(num_cards=2, blind=True))
    assert strategy_exploitability(tree, uniform(tree)) == pytest.approx(0)


@pytest.mark.parametrize("name", ["hidden", "blind", "dealer"])
def test_cfr_plus_trace_falls_toward_zero(name):
    trace = [s.exploitability for s in cfr(Goofspiel(num_cards=3, **VARIANTS[name]), 200, every=20)
             if s.exploitability is not None]
    assert len(trace) == 10
    assert trace[-1] < 0.01
    assert trace[-1] < trace[0] or trace[0] < 1e-3


def test_cfr_plus_beats_plain_cfr_at_four_cards():
    rules = Goofspiel(num_cards=4, hidden_bids=True)
    plus = exploitability(solve_cfr(rules, 100))
    plain = exploitability(solve_cfr(rules, 100, plus=False))
    assert plus < plain
    assert plus < 0.05


# ------------------------------------------------------- reading it out ---
def test_policy_reads_real_observations_and_refuses_strangers():
    rules = Goofspiel(num_cards=3, hidden_bids=True)
    solution = solve_cfr(rules, 200)
    state = rules.new_game(4)
    obs = state.observation(0)
    policy = solution.policy(obs)
    assert set(policy) == set(obs.legal_moves) and sum(policy.values()) == pytest.approx(1)
    row = next(r for r in strategy_table(solution, player=0, turn=0) if r.prize == obs.prize)
    assert row.probabilities == pytest.approx(policy)
    other = Goofspiel(num_cards=3, blind=True).new_game(4).observation(0)
    with pytest.raises(AgentError, match="not a position"):
        solution.policy(other)


def test_bid_table_and_low_prize_overbid_share_are_consistent():
    solution = solve_cfr(Goofspiel(num_cards=4, hidden_bids=True), 300)
    probs, mass = bid_given_prize(solution, 0)
    assert probs.sum(axis=1) == pytest.approx([1, 1, 1, 1])
    assert mass.sum() == pytest.approx(3.0)  # three turns with a choice per hand
    by_hand = (mass[0] * probs[0, 1:].sum() + mass[1] * probs[1, 2:].sum()) / (mass[0] + mass[1])
    assert low_prize_overbid_share(solution, 0) == pytest.approx(by_hand)
    assert 0.05 < low_prize_overbid_share(solution) < 0.95  # the equilibrium does overbid low prizes sometimes


def test_the_old_bluff_name_is_gone():
    """The share is not a bluff measure (the open-bid game overbids low prizes nearly as often): no old name."""
    import gopskit.solvers
    import gopskit.solvers.cfr as cfr_module

    assert not hasattr(cfr_module, "bluff_frequency")
    with pytest.raises(AttributeError):
        gopskit.solvers.bluff_frequency


def test_strategy_table_reaches_sum_to_one_per_turn():
    rows = strategy_table(solve_cfr(Goofspiel(num_cards=3, defeat_the_dealer=True), 100), player=1)
    for turn in (0, 1):
        assert sum(r.reach for r in rows if r.turn == turn) == pytest.approx(1)
    assert any(r.table_bid is not None for r in rows) and all(r.prize is None for r in rows)
    assert "dealer bid" in rows[0].describe()


@pytest.mark.parametrize("kwargs, match", [
    (dict(num_cards=3, players=3, hidden_bids=True), "two-player"),
    (dict(num_cards=6, hidden_bids=True), "1 to 5 cards"),
    (dict(num_cards=3, hidden_bids=True, defeat_the_dealer=True), "not solvable here yet"),
])
def test_unsolvable_rules_refused(kwargs, match):
    with pytest.raises(GopsError, match=match):
        solve_cfr(Goofspiel(**kwargs), 1)


def test_bad_iteration_counts_refused():
    with pytest.raises(GopsError, match="at least 1"):
        next(cfr(Goofspiel(num_cards=3, blind=True), 0))


# ------------------------------------------------------------- the CFR bot --
from gopskit.agents import agent_names, make_agent  # noqa: E402
from gopskit.agents.cfr_bot import CFRBot  # noqa: E402
from gopskit.solvers.cfr import agent_tree_exploitability  # noqa: E402
from contracts import check_agent_contract  # noqa: E402


def test_cfr_bot_is_registered_and_knows_what_it_plays():
    assert "cfr" in agent_names()
    bot = make_agent("cfr")
    assert bot.supports(Goofspiel(num_cards=4, hidden_bids=True))
    assert bot.supports(Goofspiel(num_cards=3, defeat_the_dealer=True))
    assert not bot.supports(Goofspiel(num_cards=5, hidden_bids=True))
    assert not bot.supports(Goofspiel(num_cards=3, players=3, blind=True))
    assert not bot.supports(Goofspiel(num_cards=3, hidden_bids=True, defeat_the_dealer=True))


@pytest.mark.parametrize("name", ["hidden", "blind", "dealer"])
def test_cfr_bot_passes_the_agent_contract(name):
    check_agent_contract(CFRBot, Goofspiel(num_cards=3, **VARIANTS[name]), games=2)


@pytest.mark.parametrize("name", ["hidden", "blind", "dealer-seat-2"])
def test_cfr_bot_is_nearly_unexploitable(name):
    rules = Goofspiel(num_cards=3, **VARIANTS[name])
    assert agent_tree_exploitability(CFRBot(), rules, dealer=rules.dealer if rules.defeat_the_dealer else None) < 0.01
    # a kit bot that ignores the hidden information does much worse
    assert agent_tree_exploitability(make_agent("one-higher"), rules, dealer=rules.dealer if rules.defeat_the_dealer else None) > 0.1


def test_cfr_bot_plays_every_hand_of_a_defeat_the_dealer_match():
    from gopskit.arena import play_game

    state = play_game(Goofspiel(num_cards=3, defeat_the_dealer=True), ["cfr", "cfr"], seed=3)
    assert state.is_terminal() and len(state.hands) == 2
    assert {hand.dealer for hand in state.hands} == {0, 1}


def test_cfr_bot_refuses_before_reset():
    obs = Goofspiel(num_cards=3, hidden_bids=True).new_game(0).observation(0)
    with pytest.raises(AgentError, match="reset"):
        CFRBot().policy(obs)


def test_win_objective_is_solved_too():
    rules = Goofspiel(num_cards=3, hidden_bids=True)
    tree = build_tree(rules, objective="win")
    assert set(np.unique(tree.utility)) <= {-1.0, 0.0, 1.0}
    solution = solve_cfr(rules, 300, objective="win")
    assert exploitability(solution) < 0.01
    assert game_value(solution) == pytest.approx(0, abs=0.01)  # a symmetric game
    with pytest.raises(GopsError, match="objective"):
        build_tree(rules, objective="glory")


@pytest.mark.parametrize("first", ["package", "submodule"])
def test_a_solver_submodule_name_means_the_submodule_whatever_was_imported_first(first):
    """``cfr`` names both a submodule and its main function: the package answers with the submodule either way."""
    import subprocess
    import sys
    before = "import gopskit.solvers.cfr; " if first == "submodule" else ""
    code = (before + "import types; from gopskit.solvers import cfr, learning; "
            "from gopskit.solvers import solve_cfr; "
            "print(isinstance(cfr, types.ModuleType), isinstance(learning, types.ModuleType), callable(solve_cfr), "
            "'cfr' in dir(__import__('gopskit.solvers').solvers))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "True", "True", "True"]


@pytest.mark.parametrize("name", ["hidden", "blind", "dealer"])
def test_the_cfr_bot_says_how_far_from_an_equilibrium_it_is(name):
    """Its seat note states what a best reply gains against it, as the agent-tree best response measures it."""
    rules = Goofspiel(num_cards=3, **VARIANTS[name])
    dealers = (0, 1) if rules.defeat_the_dealer else (None,)
    gain = max(agent_tree_exploitability(CFRBot(), rules, dealer=d) for d in dealers)
    amount = f"{gain:.4f}" if gain >= 0.00005 else "less than 0.0001"
    assert CFRBot().seat_note(rules) == ("CFR equilibrium bot: an approximate equilibrium (400 rounds of CFR+): a "
                                         f"perfect opponent who knew its mix would gain {amount} points a hand against it.")
    assert CFRBot().seat_note(rules, short=True).endswith(f"would gain {amount} points a hand.")
    assert CFRBot().seat_note(Goofspiel(num_cards=5, hidden_bids=True)) is None  # not a game it plays


def test_a_board_with_the_cfr_bot_says_how_far_from_an_equilibrium_it_is():
    import html

    from gopskit.widgets import make_board

    board = make_board("goofspiel", seats=["human", "cfr"], seed=1, num_cards=3, blind=True)
    short = CFRBot().seat_note(board.rules, short=True)
    assert board.seat_notes(short=True) == [short] and html.escape(short) in board._title.value
    assert html.escape(CFRBot().seat_note(board.rules)) in board._panel._seat_notes.value


def test_the_cfr_bot_module_keeps_its_examples():
    import doctest

    from gopskit.agents import cfr_bot

    assert doctest.testmod(cfr_bot).failed == 0
