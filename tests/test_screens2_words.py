"""Words on the boards, checked against the engine: a player is 'they', a prize order reads the same in every
game, a Raj match says it adds its games up, and the last card of a pile is 'the last', never '0 more'."""

from __future__ import annotations

import re

import pytest

from gopskit.games import make_rules
from gopskit.games.wording import rules_line
from gopskit.widgets.boards import make_board
from gopskit.widgets.views.base import PRIZE_ORDER_WORDS


def test_a_throps_player_scores_their_suit_not_its_suit():
    for suit in ("best", "longest"):
        line = rules_line(make_rules("throps", scoring_suit=suit))
        assert line.startswith("each player scores their ") and " its " not in line, line


@pytest.mark.parametrize("order", [value for value, _label, _meaning in PRIZE_ORDER_WORDS])
def test_goofspiel_and_raj_say_the_prize_order_in_the_same_words(order):
    """Raj said 'prizes ascending' where Goofspiel says 'prizes in ascending order'."""
    goofspiel = rules_line(make_rules("goofspiel", prize_order=order)).split("; ")
    raj = rules_line(make_rules("raj", prize_order=order)).split("; ")
    said = [part for part in goofspiel if part.startswith("prizes ")]
    assert len(said) == 1 and said[0] in raj, (goofspiel, raj)


def test_a_raj_match_says_how_many_games_it_adds_up():
    """rounds=3 plays three games and adds them up: the line said nothing of it."""
    assert rules_line(make_rules("raj", rounds=3)).endswith("; 3 games added up")
    assert "added up" not in rules_line(make_rules("raj"))


@pytest.mark.parametrize("game,caption", [("goofspiel", "the last prize card"), ("throps", "the last stock card"),
                                          ("raj", "the last prize")])
def test_the_last_card_of_a_pile_is_called_the_last(game, caption):
    """At the last turn the captions said '0 more prize cards after this one', '0 stock cards below it',
    '0 prizes to come'."""
    board = make_board(game, seed=2, seats=["human"] + (["random"] * (2 if game != "goofspiel" else 1)))
    while not board.finished:
        area = re.sub(r"<[^>]+>", " ", board._table.value)
        if len(board._hand_cards) == 1:  # the last turn: one card in every hand, one prize or stock card
            assert caption in area and not re.search(r"\b0 (more|stock|prizes)", area), area
        else:
            assert caption not in area, area
        board._slot_clicked(next(i for i, c in enumerate(board._hand_cards) if c.legal))
        board.confirm()
    assert board.last_error is None


def test_one_apostrophe_on_the_whole_board():
    """The hand row's title said 'Player 1’s hand' (a curly apostrophe) above 'Player 3's K♠ is the middle card'
    (the engine's straight one)."""
    board = make_board("gooseberry-fool", seed=2)
    for _ in range(3):
        board._slot_clicked(next(i for i, c in enumerate(board._hand_cards) if c.legal))
    shown = board._hand_label.value + board._last.value + board.status
    assert "'s " in shown and "’" not in shown, shown
