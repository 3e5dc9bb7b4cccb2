"""Turn tables: headers and number cells never break inside a word; only the long text wraps, at spaces (audit item 2).

The tables are the boards' own (a whole game played by bots), shown in the
boards' nesting and stylesheet in Chromium at a projector's and a laptop's width.
"""

from __future__ import annotations

import pytest

from gopskit.widgets.boards import make_board

from screens_visual_static import BROKEN_WORDS_JS, SIZES, browser, html_widget, open_page, page_html  # noqa: F401

GAMES = ("gops-for-three", "throps", "gooseberry-fool", "raj", "divide-and-conquer", "goofspiel")


def _history(game: str) -> str:
    seats = len(make_board(game, seed=3).seats)
    board = make_board(game, seats=["random"] * seats, seed=3)
    assert board.finished and "<table" in board._history.value
    return board._history.value


@pytest.mark.parametrize("game", GAMES)
def test_no_header_or_number_breaks_inside_a_word(browser, game):  # noqa: F811
    table = _history(game)
    body = (f'<div class="widget-box gopskit-history-box"><div class="widget-html"><div class="widget-html-content">'
            f'<div class="gopskit-label">Turn by turn</div></div></div>{html_widget(table)}</div>')
    for size in SIZES:
        page = open_page(browser, page_html(body), size)
        try:
            short = page.evaluate(BROKEN_WORDS_JS, ".gopskit-history th, .gopskit-history td:not(:last-child)")
            long = page.evaluate(BROKEN_WORDS_JS, ".gopskit-history td:last-child")
            fits = page.evaluate("() => { const b = document.querySelector('.gopskit-history-box');"
                                 " return b.scrollWidth <= b.clientWidth + 1; }")
        finally:
            page.close()
        assert not short, (game, size, short[:5])
        assert not long, (game, size, long[:5])  # the long column wraps between words
        assert fits, (game, size)
