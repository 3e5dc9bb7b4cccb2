"""Clicks that arrive late: a double click, a click sent before the page saw the last move.

The page sends a click for a button as soon as it is pressed; the kernel answers
them one after the other. The second click of a double click therefore reaches
the board after the first one has changed it: the card it was for has left the
hand, or the confirm button it was for has been disabled. Such a click must do
nothing: not play the card that has since moved into that place of the hand row,
not put an error on the status line in place of what the last move did.

The clicks here are the real ipywidgets buttons' clicks (``Button.click`` runs
the handlers a click message from the page runs).
"""

from __future__ import annotations

from gopskit.cards import card_name
from gopskit.widgets import GoofspielBoard
from gopskit.widgets.boards import make_board


def _button(board, index: int):
    return board._slots[index][2]


def test_a_double_click_plays_one_card_in_a_game_without_a_confirm_button():
    """Gooseberry Fool plays a card on its click: the second click of a double click used to play the card that had
    moved into the clicked place (or to say "'QS' cannot be played now" when that card could not follow suit)."""
    for seed in range(6):
        board = make_board("gooseberry-fool", seed=seed)
        index = next(i for i, c in enumerate(board._hand_cards) if c.legal)
        played = board._hand_cards[index].move
        button = _button(board, index)
        button.click()
        hand = board.state.observation(0).hand
        status = board.status
        button.click()  # the double click's second click, for the card that has left the hand
        assert played not in hand
        assert board.state.observation(0).hand == hand, f"seed {seed}: a second card was played"
        assert board.status == status and "cannot be played" not in board.status
        assert board.last_error is None


def test_a_double_click_on_confirm_keeps_the_turn_it_confirmed_on_the_status_line():
    """The second click of a double click on Confirm found no card chosen and replaced the explanation of
    the turn just played with the error 'choose a card first, then confirm'."""
    board = GoofspielBoard(num_cards=5, seed=3)
    _button(board, 0).click()
    board._confirm.click()
    status, turn = board.status, board.turn
    board._confirm.click()
    assert board.turn == turn == 1
    assert board.status == status
    assert "choose a card first" not in board.status
    assert board.status.startswith(board.state.events[-1].explain(board.names()))


def test_a_late_click_on_a_card_of_the_last_game_does_nothing_after_new_game():
    board = GoofspielBoard(num_cards=5, seed=4)
    old = _button(board, 2)
    board.reset()
    old.click()
    assert board.selected is None and "you chose" not in board.status


def test_the_confirm_method_still_refuses_when_nothing_is_chosen():
    board = GoofspielBoard(num_cards=5, seed=3)
    board.confirm()
    assert board.status == "choose a card first, then confirm"


def test_a_refused_card_is_named_as_the_board_names_cards():
    """A card that cannot follow suit was refused as 'QS' with 'playable: KC, QC', the engine's codes."""
    board = make_board("gooseberry-fool", seed=1)
    board._slot_clicked(next(i for i, c in enumerate(board._hand_cards) if c.legal))
    state = board.state
    legal = state.legal_moves(0)
    refused = next(c for c in state.observation(0).hand if c not in legal)
    board.click_card(refused)
    assert board.status == (f"{card_name(refused, joker='Goose')} cannot be played now; playable: "
                            + ", ".join(card_name(c, joker="Goose") for c in legal))
