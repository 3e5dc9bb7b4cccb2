"""The explorers without a browser: their numbers (pure functions) and their widgets."""

from __future__ import annotations

import numpy as np
import pytest

from gopskit.errors import GopsError
from gopskit.widgets import explore_data as data
from gopskit.widgets.explorers import LearningExplorer, MatrixExplorer, StrategyExplorer


def test_parse_matrix_reads_rows_and_rejects_ragged_input():
    assert data.parse_matrix("3, 0\n5 1").tolist() == [[3, 0], [5, 1]]
    with pytest.raises(GopsError, match="same number"):
        data.parse_matrix("1 2\n3")
    with pytest.raises(GopsError, match="numbers"):
        data.parse_matrix("a b")


def test_dominance_demo_falls_to_a_two_by_two_game_worth_five_halves():
    # Hand-worked: bottom (1 0 2) < top (4 1 3); then, for the column player,
    # right (3 4) is worse than centre (1 3); left/centre vs top/middle mix:
    # value = (4*3 - 1*2) / (4 + 3 - 1 - 2) = 2.5, top 1/4, left 1/2.
    report = data.matrix_report(data.preset("Dominated strategies fall away")[0])
    assert [(s.player, s.strategy) for s in report.steps] == [("row", 2), ("column", 2)]
    assert report.value == pytest.approx(2.5)
    assert report.row_mix[:2] == pytest.approx([0.25, 0.75]) and report.col_mix[:2] == pytest.approx([0.5, 0.5])


def test_struck_strategies_are_crossed_out_step_by_step():
    payoffs, rows, cols = data.preset("Dominated strategies fall away")
    report = data.matrix_report(payoffs)
    assert "gopskit-gone" not in data.render_matrix_html(report, rows, cols, 0)
    one = data.render_matrix_html(report, rows, cols, 1)
    assert '<th class="gopskit-gone">bottom</th>' in one and one.count("<li>") == 1


def test_bid_table_rows_are_probability_distributions():
    sol = data.goofspiel_solution(3, "points", "discard")
    table, values, before = data.bid_table(sol, (1, 2, 3), (1, 2, 3), (1, 2, 3))
    assert table.shape == (3, 3) and np.allclose(table.sum(axis=0), 1)
    assert before == pytest.approx(0.0, abs=1e-9) and np.mean(values) == pytest.approx(before, abs=1e-9)
    # with one card each and one prize, the bid is forced: the whole mass sits on it
    table, _, _ = data.bid_table(sol, (2,), (3,), (1,))
    assert table.tolist() == [[1.0]]


def test_parse_cards_checks_the_range():
    assert data.parse_cards("all", 4, "hand") == (1, 2, 3, 4)
    assert data.parse_cards("3 1", 4, "hand") == (1, 3)
    with pytest.raises(GopsError, match=r"A \(or 1\) to 4"):
        data.parse_cards("5", 4, "hand")


@pytest.mark.parametrize("algorithm", ["fictitious play", "regret matching", "regret matching+"])
def test_learning_gets_closer_to_equilibrium(algorithm):
    payoffs, labels, _ = data.preset("Biased Rock-Paper-Scissors")
    trace = data.learning_trace(algorithm, payoffs, labels, iterations=200)
    assert len(trace.iterations) == 200 and trace.strategies.shape == (200, 3)
    assert trace.exploitability[-1] < 0.25 * trace.exploitability[:20].max()


def test_cfr_trace_falls():
    trace = data.learning_trace("CFR+ on 3-card Goofspiel", iterations=60)
    assert trace.strategies is None and trace.exploitability[-1] < trace.exploitability[0]


def test_matrix_explorer_steps_and_custom_matrix():
    explorer = MatrixExplorer()
    assert "2 dominated strategies can be struck out" in explorer.status and "<svg" in explorer._picture.value
    explorer.steps.value = 1
    assert "Struck out 1 of 2" in explorer.status
    explorer.steps.value = 2
    assert "All 2 dominated strategies struck out" in explorer.status
    assert explorer._table.value.count("gopskit-gone") > 2
    explorer.text.value = "3 0\n5 1"
    explorer.refresh(custom=True)
    assert explorer.game.value == "Type your own" and explorer.report.value == pytest.approx(1.0)
    explorer.text.value = "1 2\n3"
    explorer.refresh(custom=True)
    assert "same number" in explorer.status and explorer.last_error is None
    explorer.reset()
    assert explorer.game.value == "Dominated strategies fall away"


def test_strategy_explorer_shows_value_and_heat_map():
    explorer = StrategyExplorer(num_cards=3)
    assert "Worth 0 to you before the prize is turned" in explorer.status and "<svg" in explorer._picture.value
    explorer.hand.value, explorer.opp_hand.value, explorer.prizes.value = "2 3", "1 3", "1 2"
    explorer.refresh()
    assert explorer.table.shape == (2, 2) and explorer.last_error is None
    explorer.hand.value = "9"
    explorer.refresh()
    assert "A (or 1) to 3" in explorer.status


def test_strategy_explorer_plays_the_full_deck_from_the_opening_book():
    from gopskit.solvers.opening import shipped_opening

    book = shipped_opening(13)
    explorer = StrategyExplorer(num_cards=13)
    assert explorer.status.endswith("(From the kit's opening book of the 13-card game.)")
    assert "symmetry" in explorer.status and explorer.table.shape == (13, 13)
    hand, opp, prizes = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], list(range(1, 13))
    explorer.hand.value, explorer.opp_hand.value, explorer.prizes.value = (" ".join(map(str, c)) for c in (hand, opp, prizes))
    explorer.refresh()
    worth = float(explorer.status.split("Worth ")[1].split(" ")[0])
    assert worth == pytest.approx(book.value(hand, opp, prizes), abs=0.005) and worth != 0
    for column, prize in enumerate(prizes):
        policy = book.policy(hand, opp, prizes, prize)
        assert explorer.table[:, column] == pytest.approx([policy[card] for card in hand], abs=1e-12)


def test_strategy_explorer_refuses_full_deck_positions_too_big_for_a_click(monkeypatch):
    from gopskit.solvers import _exact_tables

    calls = []
    monkeypatch.setattr(_exact_tables, "build_tables", lambda *args, **kwargs: calls.append(args))
    explorer = StrategyExplorer(num_cards=13)
    explorer.objective.value = "win"  # no book for "win": the whole deck would have to be solved
    assert "13 in each hand: too big to solve on a click" in explorer.status and "gopskit solve --cards 13" in explorer.status
    assert "gopskit-error" in explorer._status.value and explorer.table is None and "<svg" not in explorer._picture.value
    assert calls == []  # refused before any table was built
    monkeypatch.undo()
    explorer.objective.value = "points"
    explorer.ties.value = "carry"  # the book is for ties discarded
    eleven = "1 2 3 4 5 6 7 8 9 10 11"
    explorer.hand.value, explorer.prizes.value, explorer.opp_hand.value = eleven, eleven, "3 4 5 6 7 8 9 10 11 12 13"
    explorer.refresh()
    assert "11 in each hand: solving the rest of this hand means" in explorer.status
    assert "more than the 12,000,000 allowed here" in explorer.status and explorer.table is None


def test_strategy_explorer_plays_eleven_card_hands_from_the_book_and_says_they_are_rounded():
    """The book's deep layer: an 11-card turn from values rounded to 0.0001, within 0.0001 of an exact solve."""
    from gopskit.solvers.exact import solve_turn_endgame

    explorer = StrategyExplorer(num_cards=13)
    hand, opp, prizes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]
    explorer.hand.value, explorer.opp_hand.value, explorer.prizes.value = (" ".join(map(str, c)) for c in (hand, opp, prizes))
    explorer.refresh()
    assert explorer.status.endswith("(From the kit's opening book of the 13-card game, with the values after this turn "
                                    "rounded to 0.0001.)")
    column = prizes.index(13)
    x = explorer.table[:, column]
    exact = solve_turn_endgame(hand, opp, prizes, 13)  # about 8 s
    assert (x @ exact.matrix).min() >= exact.value - 1e-4  # a best reply gains at most 0.0001 on the shown mix


def test_strategy_explorer_prefers_a_complete_full_deck_solution(monkeypatch):
    from gopskit.solvers import storage
    from gopskit.solvers.opening import shipped_opening

    monkeypatch.setattr(storage, "find_solution", lambda n, objective="points", ties="discard": shipped_opening(13) if n == 13 else None)
    explorer = StrategyExplorer(num_cards=13)
    assert explorer.status.endswith("(From the complete 13-card solution on this machine.)")


def test_learning_explorer_animates_by_frames():
    explorer = LearningExplorer(iterations=100)
    final = explorer.status
    explorer.frame.value = 1
    assert explorer.status != final and "iteration" in explorer.status
    assert explorer.last_error is None


def test_best_response_lines_cross_at_the_equilibrium():
    # Matching Pennies: against a 50/50 column, both row strategies earn 0; the
    # column player's lines must cross where the row player mixes 50/50 too.
    from gopskit.viz.figures import payoff_lines_figure

    A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    fig = payoff_lines_figure(A, -A, ["H", "T"], ["H", "T"], [0.5, 0.5], [0.5, 0.5])
    row_ax, col_ax = fig.axes
    for ax in (row_ax, col_ax):
        heads, tails = ax.lines[0].get_ydata(), ax.lines[1].get_ydata()
        assert heads[50] == pytest.approx(tails[50])  # q = 0.5
    # the column player's "heads" earns -1 when the row plays heads for sure (q = 1)
    assert col_ax.lines[0].get_ydata()[-1] == pytest.approx(-1.0)
    B = np.array([[4.0, 1.0], [2.0, 3.0]])  # not symmetric: crossings at 1/2 (row) and 1/4 (column)
    fig = payoff_lines_figure(B, -B, ["t", "m"], ["l", "c"])
    left, centre = fig.axes[1].lines[0].get_ydata(), fig.axes[1].lines[1].get_ydata()
    assert left[25] == pytest.approx(centre[25])
