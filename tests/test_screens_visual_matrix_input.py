"""The matrix explorer reads what is typed as typed (audit item 7)."""

from __future__ import annotations

import pytest

from gopskit.errors import GopsError
from gopskit.widgets import explore_data as data
from gopskit.widgets.explorers import MatrixExplorer


def test_a_too_big_payoff_is_named_as_too_big_not_read_as_a_row_name():
    with pytest.raises(GopsError, match=r"payoffs are at most 1e9 \(a billion\) in size; 1e10 is too big"):
        data.parse_labelled_matrix("1e10 0\n0 1")
    with pytest.raises(GopsError, match="-2e9 is too big"):
        data.parse_labelled_matrix("up 1 -2e9\ndown 0 1")
    payoffs, rows, _cols = data.parse_labelled_matrix("1e9 0\n0 1")  # the largest allowed is a number
    assert payoffs.tolist() == [[1e9, 0.0], [0.0, 1.0]] and rows is None
    explorer = MatrixExplorer()
    explorer.text.value = "1e10 0\n0 1"
    explorer.refresh(custom=True)
    assert "1e10 is too big" in explorer.status and "same number" not in explorer.status
    assert explorer.report is None and explorer._picture.value == "" and explorer.last_error is None


@pytest.mark.parametrize("typed", ["", "   \n  "])
def test_an_empty_box_says_so_and_solves_nothing(typed):
    explorer = MatrixExplorer()
    explorer.text.value = typed
    explorer.refresh(custom=True)
    assert explorer.game.value == "Type your own" and explorer.text.value == typed
    assert explorer.status.startswith("the Payoffs box is empty: type the row player's payoffs")
    assert explorer.report is None and explorer._picture.value == "" and explorer._summary.value == ""
    with pytest.raises(GopsError, match="box is empty"):
        data.parse_matrix(typed)
