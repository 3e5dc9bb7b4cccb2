"""The landing page's sentences, checked against the apps they describe."""

from __future__ import annotations

import html
import re

from gopskit.games import make_rules
from gopskit.games.wording import rules_line
from gopskit.widgets.apps import APPS, landing_page_html
from gopskit.widgets.boards import VIEWS, make_board
from gopskit.widgets.explore_data import ALGORITHMS


def _text() -> str:
    page = re.sub(r"<style>.*?</style>", "", landing_page_html(), flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_every_board_opens_as_the_landing_page_says():
    """It said 'with you in seat 1 against a bot': the three-player boards seat two bots, and the kit calls
    seats 'Player 1'; the panel is opened by its 'Options and seats' button."""
    text = _text()
    assert "Every board opens with you as Player 1 against the game's bots" in text
    assert "Options and seats" in text
    for game in VIEWS:
        board = make_board(game, seed=1)
        assert board.labels()[0] == "Player 1 (you)" and all(s != "human" for s in board.seats[1:]), game


def test_raj_bids_are_written_as_its_board_writes_them():
    raj = next(a for a in APPS if a.notebook == "raj.ipynb")
    assert "bid 1 to 15" in raj.line and "bids 1 to 15" in rules_line(make_rules("raj"))


def test_the_learning_explorer_names_its_learners_as_its_list_does():
    line = next(a for a in APPS if a.notebook == "learning_explorer.ipynb").line
    assert "CFR+" in line and all(a.startswith("CFR+") for a in ALGORITHMS if a.startswith("CFR"))
