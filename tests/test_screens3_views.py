"""Third screen audit: what the Goofspiel and Gops for three boards say and draw, checked against the engine.

Each test drives a board without a browser (as tests/test_widgets.py does) and
fails on the defect the audit found."""

from __future__ import annotations

import html
import re

from gopskit.widgets import make_board


def _seat_panels(table: str) -> list[str]:
    """The HTML of each seat panel of a board's table, in seat order."""
    return re.split(r'<div class="gopskit-seat(?: gopskit-you)?">', table)[1:]


def _held(panel: str) -> list[str]:
    """The cards (their names; ``?`` for a back) in a seat panel's hand row."""
    row = panel[panel.index('class="gopskit-held"'):]
    row = row[:row.index("</div>")]
    return ["?" if "gopskit-back" in card else re.search(r'data-name="([^"]*)"', card).group(1)
            for card in re.findall(r'<span class="gopskit-card[^"]*"[^>]*>', row)
            if "gopskit-cardrow" not in card]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


# ------------------------------------------------- Defeat the Dealer (1) ---
def test_dealer_face_up_bid_is_not_drawn_in_the_dealers_hand():
    board = make_board("goofspiel", seed=1, num_cards=4, defeat_the_dealer=True, dealer=1)
    hand = board.state.hand
    bid = hand.dealer_bid
    assert hand.dealer == 1 and bid is not None  # the bot dealt and bid face up; the person is to move
    dealer = _seat_panels(board._table.value)[1]
    held = _held(dealer)
    assert len(held) == 3 and card_name_of(bid) not in held
    assert sorted(held) == sorted(card_name_of(c) for c in hand.hands[1] if c != bid)
    assert "bid face up" in dealer


def test_dealer_face_up_bid_is_not_counted_among_the_backs_of_a_secret_hand():
    board = make_board("goofspiel", seats=["human", "human"], seed=1, num_cards=4, defeat_the_dealer=True,
                       dealer=1, hidden_bids=True)
    board.show_hand()  # Player 2 deals
    board.click_card(2)
    board.confirm()
    assert board.state.hand.dealer_bid == 2
    held = _held(_seat_panels(board._table.value)[1])  # the shared screen: Player 1 has not shown their hand
    assert held == ["?"] * 3


def test_bids_area_says_the_dealers_bid_is_already_face_up():
    board = make_board("goofspiel", seed=1, num_cards=4, defeat_the_dealer=True, dealer=1)
    text = _text(board._last.value)
    assert "all at once" not in text
    assert "The dealer's bid is face up; the others' will appear here when all have bid." in text


def test_bids_area_before_the_dealer_bids_says_the_dealer_bids_first():
    board = make_board("goofspiel", seed=1, num_cards=4, defeat_the_dealer=True)  # the person deals
    assert board.state.hand.dealer == 0 and board.state.hand.dealer_bid is None
    assert "The dealer bids first, face up" in _text(board._last.value)
    plain = make_board("goofspiel", seed=1, num_cards=4)
    assert "The bids will appear here, all at once." in _text(plain._last.value)


def card_name_of(card: int) -> str:
    from gopskit.cards import card_name

    return card_name(card)
