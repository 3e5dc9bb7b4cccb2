"""Matrix games: hand-worked examples and properties of the zero-sum LP, dominance and equilibria."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from gopskit.errors import GopsError
from gopskit.solvers.matrix import (
    DegenerateGameError, LabelledMatrix, MatrixGameError, as_strategy, best_responses, degeneracy_witness,
    eliminate_dominated, maximin_minimax, nash_equilibria, pure_saddle_points, solve_zero_sum,
)

PENNIES = [[1, -1], [-1, 1]]
RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def best_response_gain(A, x, y):
    """How much either player could gain by deviating (0 at an equilibrium)."""
    A = np.asarray(A, float)
    value = x @ A @ y
    return max((A @ y).max() - value, value - (x @ A).min())


# ----------------------------------------------------------- zero-sum ---
def test_matching_pennies_value_zero_at_half_half():
    value, x, y = solve_zero_sum(PENNIES)
    assert value == pytest.approx(0, abs=1e-12)
    assert x == pytest.approx([0.5, 0.5]) and y == pytest.approx([0.5, 0.5])


def test_rock_paper_scissors_uniform():
    value, x, y = solve_zero_sum(RPS)
    assert value == pytest.approx(0, abs=1e-12)
    assert x == pytest.approx([1 / 3] * 3) and y == pytest.approx([1 / 3] * 3)


def test_two_by_two_solved_by_hand():
    # A = [[2, -1], [-1, 1]]: row mixes p on row 0 with 2p - (1-p) = -p + (1-p) -> p = 2/5;
    # column mixes q with 2q - (1-q) = -q + (1-q) -> q = 2/5; value = 2(2/5) - 3/5 = 1/5.
    value, x, y = solve_zero_sum([[2, -1], [-1, 1]])
    assert value == pytest.approx(1 / 5)
    assert x == pytest.approx([2 / 5, 3 / 5]) and y == pytest.approx([2 / 5, 3 / 5])


def test_pure_saddle_point_shortcut():
    A = [[4, 2, 3], [1, 0, 5], [6, 1, 2]]  # 2 is the smallest in row 0 and largest in column 1
    assert pure_saddle_points(A) == [(0, 1)]
    value, x, y = solve_zero_sum(A)
    assert value == 2 and x.tolist() == [1, 0, 0] and y.tolist() == [0, 1, 0]
    assert maximin_minimax(A) == (2.0, 2.0)


def test_no_saddle_point_in_pennies():
    assert pure_saddle_points(PENNIES) == []
    assert maximin_minimax(PENNIES) == (-1.0, 1.0)


def test_best_responses_by_hand():
    assert best_responses(RPS, [1, 0, 0]) == [1]
    assert best_responses(RPS, [1 / 3] * 3) == [0, 1, 2]
    assert best_responses(-np.array(RPS), [0, 1, 0], player="column") == [2]  # scissors cut paper


def test_bad_inputs_raise_gops_errors():
    with pytest.raises(GopsError, match="2-D"):
        solve_zero_sum([1, 2, 3])
    with pytest.raises(MatrixGameError, match="NaN"):
        solve_zero_sum([[1, float("nan")]])
    with pytest.raises(MatrixGameError, match="table of numbers"):
        solve_zero_sum([["a", 1]])
    with pytest.raises(MatrixGameError, match="summing to 1"):
        as_strategy([0.5, 0.6], 2)
    with pytest.raises(MatrixGameError, match="0 to 1"):
        as_strategy(2, 2)
    with pytest.raises(MatrixGameError, match="'row' or 'column'"):
        best_responses(RPS, [1, 0, 0], player="left")


# ----------------------------------------------------------- dominance ---
def test_strict_dominance_order_in_a_three_by_three_by_hand():
    # Row 2 is strictly dominated by row 0 (4>1, 3>2, 5>0). With row 2 gone, the column
    # player (who pays A) sees column 2 worse than column 1 (5>3 and 6>... ) and so on.
    A = [[4, 3, 5],
         [2, 1, 6],
         [1, 2, 0]]
    steps, rows, cols = eliminate_dominated(A)
    assert [(s.player, s.strategy, s.dominated_by, s.kind) for s in steps] == [
        ("row", 2, 0, "strict"),     # 1,2,0 < 4,3,5
        ("column", 0, 1, "strict"),  # column pays -A: -4,-2 < -3,-1
        ("column", 2, 1, "strict"),  # -5,-6 < -3,-1
        ("row", 1, 0, "strict"),     # against column 1 only: 1 < 3
    ]
    assert rows == [0] and cols == [1]
    assert steps[0].explain(["a", "b", "c"], ["x", "y", "z"]) == "row c is strictly dominated by a"


def test_weak_dominance_needs_the_flag_and_depends_on_order():
    A = [[1, 1], [1, 0]]  # row 1 is only weakly dominated by row 0
    assert eliminate_dominated(A).steps == []
    steps = eliminate_dominated(A, weak=True).steps
    assert (steps[0].player, steps[0].strategy, steps[0].kind) == ("row", 1, "weak")


def test_mixed_dominance_found_by_lp():
    # Row 2 (1, 1) is beaten by no pure row but by the half-half mix of rows 0 and 1 (1.5, 1.5).
    A = [[3, 0], [0, 3], [1, 1]]
    plain = eliminate_dominated(A, np.zeros((3, 2)))
    assert plain.steps == []
    mixed = eliminate_dominated(A, np.zeros((3, 2)), mixed=True)
    step = mixed.steps[0]
    assert step.strategy == 2 and step.kind == "strict"
    assert step.dominated_by == pytest.approx({0: 0.5, 1: 0.5})


def test_prisoners_dilemma_dominance_and_equilibrium():
    A = [[3, 0], [5, 1]]  # row: cooperate, defect
    B = [[3, 5], [0, 1]]
    steps, rows, cols = eliminate_dominated(A, B)
    assert rows == [1] and cols == [1]
    eqs = nash_equilibria(A, B)
    assert len(eqs) == 1
    assert eqs[0].row_strategy.tolist() == [0, 1] and eqs[0].col_strategy.tolist() == [0, 1]
    assert eqs[0].row_payoff == 1 and eqs[0].col_payoff == 1


# ----------------------------------------------------------- bimatrix ---
def test_battle_of_the_sexes_has_three_equilibria():
    A, B = [[3, 0], [0, 2]], [[2, 0], [0, 3]]
    eqs = nash_equilibria(A, B)
    strategies = sorted((tuple(e.row_strategy.round(6)), tuple(e.col_strategy.round(6))) for e in eqs)
    assert strategies == [((0.0, 1.0), (0.0, 1.0)), ((0.6, 0.4), (0.4, 0.6)), ((1.0, 0.0), (1.0, 0.0))]
    mixed = next(e for e in eqs if 0 < e.row_strategy[0] < 1)
    assert mixed.row_payoff == pytest.approx(1.2) and mixed.col_payoff == pytest.approx(1.2)


def test_matching_pennies_as_bimatrix():
    eqs = nash_equilibria(PENNIES)
    assert len(eqs) == 1 and eqs[0].row_strategy == pytest.approx([0.5, 0.5])


def test_degenerate_game_refused_then_allowed():
    A = [[1, 1], [0, 2]]
    with pytest.raises(DegenerateGameError, match="degenerate='allow'"):
        nash_equilibria(A, A)
    assert degeneracy_witness(A, A) is not None
    eqs = nash_equilibria(A, A, degenerate="allow")
    assert eqs
    for e in eqs:
        assert (np.asarray(A) @ e.col_strategy).max() <= e.row_payoff + 1e-9
        assert (e.row_strategy @ np.asarray(A)).max() <= e.col_payoff + 1e-9


def test_too_big_for_support_enumeration():
    with pytest.raises(MatrixGameError, match="support pairs"):
        nash_equilibria(np.eye(14), np.eye(14))


def test_labelled_matrix_forwards_and_checks_labels():
    game = LabelledMatrix(RPS, "RPS", "RPS", title="RPS")
    assert game.solve().value == pytest.approx(0, abs=1e-12)
    assert "R" in game.to_text()
    with pytest.raises(MatrixGameError, match="labels"):
        LabelledMatrix(RPS, "RP", "RPS")


# ---------------------------------------------------------- properties ---
matrices = st.integers(1, 4).flatmap(
    lambda m: st.integers(1, 4).flatmap(
        lambda n: arrays(float, (m, n), elements=st.integers(-5, 5).map(float))))


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_lp_solution_is_an_equilibrium_between_the_security_levels(A):
    value, x, y = solve_zero_sum(A)
    assert best_response_gain(A, x, y) < 1e-9
    low, high = maximin_minimax(A)
    assert low - 1e-9 <= value <= high + 1e-9
    assert x @ A @ y == pytest.approx(value, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(matrices)
def test_transposed_negated_game_has_negated_value(A):
    value = solve_zero_sum(A).value
    assert solve_zero_sum(-A.T).value == pytest.approx(-value, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(matrices, st.integers(-3, 3), st.integers(1, 3))
def test_value_moves_with_affine_changes(A, shift, scale):
    assert solve_zero_sum(scale * A + shift).value == pytest.approx(scale * solve_zero_sum(A).value + shift, abs=1e-8)


@settings(max_examples=30, deadline=None)
@given(matrices)
def test_strict_elimination_keeps_the_value(A):
    _, rows, cols = eliminate_dominated(A)
    assert solve_zero_sum(A[np.ix_(rows, cols)]).value == pytest.approx(solve_zero_sum(A).value, abs=1e-8)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_random_bimatrix_equilibria_are_equilibria(seed):
    rng = np.random.default_rng(seed)
    A, B = rng.normal(size=(3, 3)), rng.normal(size=(3, 3))  # nondegenerate with probability 1
    eqs = nash_equilibria(A, B)
    assert len(eqs) % 2 == 1  # a nondegenerate game has an odd number of equilibria
    for e in eqs:
        assert (A @ e.col_strategy).max() <= e.row_payoff + 1e-9
        assert (e.row_strategy @ B).max() <= e.col_payoff + 1e-9


# ------------------------------------------------------ Goofspiel turns ---
from gopskit.solvers.matrix import goofspiel_turn_matrix  # noqa: E402


def test_two_card_turn_by_hand():
    # Hands {1,2} each, prize 2 turned, prize 1 to come. Bidding 2 against 1 wins 2 now and
    # loses 1 next turn (+1); 1 against 2 is the mirror (-1); equal bids tie both turns (0).
    game = goofspiel_turn_matrix([1, 2], [1, 2], [1, 2], prize=2)
    assert game.payoffs.tolist() == [[0, -1], [1, 0]]
    assert game.row_labels == (1, 2) and game.col_labels == (1, 2)
    assert game.solve().value == 0 and pure_saddle_points(game.payoffs) == [(1, 1)]


def test_turn_with_a_carried_pot_by_hand():
    # ties carry, hands {2,3} vs {1,3}, prizes {2,3}, prize 3 with 1 carried (offer 4).
    # 2 v 1: +4, then 3 v 3 ties on the last turn (lost): 4.   2 v 3: -4, then 3 v 1 wins 2: -2.
    # 3 v 1: +4, then 2 v 3 loses 2: 2.   3 v 3: tie, 4 rides on prize 2 (offer 6), 2 beats 1: 6.
    game = goofspiel_turn_matrix([2, 3], [1, 3], [2, 3], prize=3, pot=1, ties="carry")
    assert game.payoffs.tolist() == [[4, -2], [2, 6]]


def test_turn_matrix_value_is_the_exact_solvers_value():
    from gopskit.solvers import solve_goofspiel

    sol = solve_goofspiel(num_cards=4, objective="win")
    args = ([1, 3, 4], [1, 2, 4], [1, 2, 4])
    game = goofspiel_turn_matrix(*args, prize=4, lead=-1, objective="win", solution=sol)
    assert game.solve().value == pytest.approx(sol.value(*args, prize=4, lead=-1), abs=1e-9)
    assert np.all(np.abs(game.payoffs) <= 1)


def test_turn_matrix_rejects_impossible_positions():
    with pytest.raises(GopsError, match="equal size"):
        goofspiel_turn_matrix([1, 2], [1], [1, 2], prize=1)
    with pytest.raises(GopsError, match="among them"):
        goofspiel_turn_matrix([1, 2], [1, 2], [1, 2], prize=3)
    with pytest.raises(GopsError, match="distinct"):
        goofspiel_turn_matrix([1, 1], [1, 2], [1, 2], prize=1)


# ---------------------------------------------------------------- docs ---
def test_howto_page_and_docstring_examples_run():
    import doctest
    import importlib
    import pathlib

    page = pathlib.Path(__file__).parent.parent / "docs" / "solvers-matrix.md"
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    assert doctest.testfile(str(page), module_relative=False, optionflags=flags).failed == 0
    for name in ("matrix", "_matrix_base", "_matrix_nash", "_matrix_goofspiel", "learning", "exploit", "cfr",
                 "_cfr_tables"):
        module = importlib.import_module(f"gopskit.solvers.{name}")
        assert doctest.testmod(module, optionflags=flags).failed == 0, name
