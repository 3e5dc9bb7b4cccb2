"""Screen defects of the boards found by playing them in a browser (hot seat, matches, seats,
options, wording): each test checks what a board shows against the engine."""

from __future__ import annotations

import pytest

from gopskit.widgets import GoofspielBoard, make_board


def _play_first_legal(board):
    if not board._shown:
        board.show_hand()
    card = next(c for c in board._hand_cards if c.legal)
    board.click_card(card.move)
    if board.view.confirm:
        board.confirm()
    return card.move


def _play_to_the_end(board, limit=2000):
    for _ in range(limit):
        if board.finished:
            return
        _play_first_legal(board)
    raise AssertionError("the game did not end")


# ------------------------------------------------------- 1. hot seat ---
def test_a_board_switched_to_two_people_asks_the_first_to_show_their_hand():
    board = GoofspielBoard(num_cards=5, seed=1)  # one person: the hand is up
    assert board._shown
    board._panel.seat_controls[1].value = "human"
    board.reset()
    assert "Show my hand" in board.status and "look away" in board.status
    assert board._viewer() is None
    assert all("gopskit-back" in face.value for _box, face, _b in board._slots[:5])


def test_a_hot_seat_game_after_a_finished_one_starts_hidden_again():
    board = GoofspielBoard(num_cards=2, seats=["human", "human"], seed=2)
    _play_to_the_end(board)
    board.reset()
    assert not board._shown and "Show my hand" in board.status
