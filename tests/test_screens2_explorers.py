"""The explorers' answers to bad input: a message that says what was wrong and what is allowed, in the words
of the controls, never a crash ('Something went wrong (OverflowError ...)') and never an engine name."""

from __future__ import annotations

import pytest

from gopskit.widgets.explorers import MatrixExplorer, StrategyExplorer


def _typed(text: str) -> MatrixExplorer:
    explorer = MatrixExplorer()
    explorer.text.value = text
    explorer.refresh(custom=True)
    return explorer


@pytest.mark.parametrize("huge", ["1e400", "-1e400", "1" + "0" * 400])
def test_a_payoff_too_big_for_a_float_is_refused_by_name(huge):
    """1e400 overflowed float() while the box was read: the page showed an OverflowError."""
    explorer = _typed(f"{huge} 1\n1 1")
    assert explorer.last_error is None
    assert explorer.status == f"payoffs are at most 1e9 (a billion) in size; {huge} is too big"
    assert explorer._picture.value == "" and explorer._table.value == ""


@pytest.mark.parametrize("text,what,name", [(": l l\nt 1 2\nb 3 4", "column", "l"), (": l r\nt 1 2\nt 3 4", "row", "t"),
                                            ("x 1 2\nx 3 4", "row", "x")])
def test_two_rows_or_columns_of_one_name_are_refused(text, what, name):
    """Two rows called 't' were taken: the table, the bars and 'Row player plays: t 1/2, t 1/2' could not say which."""
    explorer = _typed(text)
    assert explorer.status == f"each {what} needs a name of its own: {name!r} names more than one {what}"
    assert explorer.report is None and explorer._summary.value == ""


def test_the_carried_pot_is_explained_with_the_controls_words():
    """A pot with Ties 'Discard the prize' was refused as "under ties='discard' nothing is carried over"."""
    explorer = StrategyExplorer()
    explorer.pot.value = 3
    explorer.refresh()
    assert explorer.status == "Carried pot: with Ties “Discard the prize” nothing is carried over, so it is 0, not 3"
    explorer.ties.value = "carry"
    explorer.pot.value = -2
    explorer.refresh()
    assert explorer.status == "Carried pot: points carried over from tied turns, 0 or more, not -2"
    assert "ties=" not in explorer.status and explorer.last_error is None


def test_a_card_box_is_named_by_its_label():
    explorer = StrategyExplorer()
    explorer.opp_hand.value = "two"
    explorer.refresh()
    assert explorer.status == "Opponent's hand: type cards A (or 1) to 5 separated by spaces, or 'all'"
