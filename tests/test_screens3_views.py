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


# ------------------------------------------------------- the rebid (2) ---
def _rebid_after(first_bids, second_bids, players):
    from gopskit.games.goofspiel import Goofspiel

    state = Goofspiel(num_cards=4, players=players, ties="rebid", prize_order="ascending").new_game()
    state.apply(first_bids)
    state.apply(second_bids)
    return state


def test_a_rebid_everyone_tied_for_does_not_say_only():
    from gopskit.widgets.views.goofspiel import GoofspielView

    names = ["Player 1", "Player 2", "Player 3"]
    state = _rebid_after([1, 1, 1], [2, 2, 3], 3)
    text = GoofspielView().explain_last(state, names)
    assert "Only" not in text
    assert text.endswith("Everyone had tied, so anyone could win this rebid.")
    two = GoofspielView().explain_last(_rebid_after([1, 1], [2, 3], 2), names[:2])
    assert "Only" not in two and "anyone could win this rebid" in two


def test_a_rebid_some_players_tied_for_names_them():
    from gopskit.widgets.views.goofspiel import GoofspielView

    names = ["Player 1", "Player 2", "Player 3"]
    state = _rebid_after([2, 2, 1], [3, 1, 4], 3)  # Player 3 bids highest in the rebid but was not in the tie
    assert state.events[0].tied == (0, 1)
    text = GoofspielView().explain_last(state, names)
    assert "Only Player 1 and Player 2 could win this rebid." in text


def test_the_rebid_board_says_everyone_could_win_after_a_three_way_tie():
    board = make_board("goofspiel", seats=["human", "human", "human"], seed=3, num_cards=4, players=3, ties="rebid",
                       prize_order="ascending")
    for _ in range(3):
        board.show_hand()
        board.click_card(1)
        board.confirm()
    for card in (2, 2, 3):
        board.show_hand()
        board.click_card(card)
        board.confirm()
    for shown in (board.status, _text(board._last.value)):
        assert "Only" not in shown and "Everyone had tied, so anyone could win this rebid." in shown


# ------------------------------------------- highest unmatched bid (3) ---
def test_highest_unmatched_bid_explanation_has_one_parenthesis():
    from gopskit.games.goofspiel import Goofspiel

    state = Goofspiel(num_cards=4, players=3, ties="unique", prize_order="ascending").new_game()
    text = state.apply([4, 4, 2]).explain()
    assert text == "Player 3 wins the A with a 2, the highest bid nobody else matched (Player 1 bid 4, Player 2 bid 4)."
    assert text.count("(") == 1 and ") (" not in text


def test_highest_unmatched_bid_board_says_it_in_one_parenthesis():
    board = make_board("goofspiel", seats=["human", "human", "human"], seed=3, num_cards=4, players=3, ties="unique",
                       prize_order="ascending")
    for card in (4, 4, 2):
        board.show_hand()
        board.click_card(card)
        board.confirm()
    for shown in (board.status, _text(board._last.value)):
        assert "with a 2, the highest bid nobody else matched (Player 1 bid 4, Player 2 bid 4)." in shown
        assert ") (" not in shown


# ------------------------------------------------- the dealer badge (4) ---
def test_dealer_badge_never_breaks_inside_the_word():
    from gopskit.widgets.assets import stylesheet

    rule = re.search(r"\.gopskit-badge\s*\{([^}]*)\}", stylesheet()).group(1)
    assert re.search(r"white-space:\s*nowrap", rule), rule


# ------------------------------------- Gops for three: court cards (5) ---
G3_NAMES = ["Player 1 (you)", "Player 2 (Random bot)", "Player 3 (Random bot)"]


def _g3_deal(stack, rounds):
    """A deal of Gops for three from a known stack, with ``rounds`` of bids played."""
    from gopskit.games.gops_for_three import GopsForThree

    state = GopsForThree(deals=1).deal_from(stack)
    for bids in rounds:
        state.apply(list(bids))
    return state


def test_gops_for_three_panels_never_say_your_for_court_cards():
    from gopskit.widgets.views.gops_for_three import GopsForThreeView

    # Player 2 takes the 7 then the K (worth 7, the highest A..10 it won); Player 3 takes the J with no A..10 won
    state = _g3_deal([7, 13, 11] + [c for c in range(1, 14) if c not in (7, 11, 13)] + ["JK"],
                     [(2, 5, 3), (4, 6, 5), (8, 2, 9)])
    assert state.won == [[], [(7,), (13,)], [(11,)]]
    panels = [_text(p) for p in _seat_panels(GopsForThreeView().render_table(state, 0, G3_NAMES))]
    assert all("your" not in panel for panel in panels), panels
    assert "prize total 14 (K♦ = 7, the highest A–10 diamond won)" in panels[1]
    assert "prize total 0 (J♦ = 0, no A–10 diamond won)" in panels[2]


def test_gops_for_three_board_panels_of_other_players_do_not_say_your():
    board = make_board("gops-for-three", seed=1)
    while not board.finished:
        card = next(c for c in board._hand_cards if c.legal)
        board.click_card(card.move)
        board.confirm()
    panels = [_text(p) for p in _seat_panels(board._table.value)]
    assert any("♦ =" in panel for panel in panels)  # a court card or the Joker is explained somewhere
    assert all("your" not in panel for panel in panels), panels


# ------------------------------------- Gops for three: the Ace prompt (6) ---
def test_gops_for_three_prompt_explains_the_ace_only_while_it_is_held():
    for seed in (1, 2):
        board = make_board("gops-for-three", seed=seed)
        assert "The Ace bids high (A↑, key A) or low (A↓, key L)." in board.status
        without = 0
        while not board.finished:
            held = 1 in board.state.hands[0]  # the engine: an Ace still in hand (set-aside cards come back)
            assert ("The Ace bids high" in board.status) == held, board.status
            assert ("A+" in [c.move for c in board._hand_cards]) == held
            without += not held
            move = "A+" if held else next(c.move for c in board._hand_cards if c.legal)
            board.click_card(move)
            board.confirm()
            assert board.last_error is None
        assert without > 0


# --------------------------- Gops for three: a three-way tie in the history (8) ---
def _history_rows(value: str) -> list[list[str]]:
    rows = re.findall(r"<tr>(.*?)</tr>", value, flags=re.S)
    return [[_text(cell).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)] for row in rows]


def test_gops_for_three_history_says_a_three_way_tie_is_bid_again():
    from gopskit.widgets.views.gops_for_three import GopsForThreeView

    stack = [7] + [c for c in range(1, 14) if c != 7] + ["JK"]
    state = _g3_deal(stack, [(5, 5, 5), (6, 4, 3)])
    assert [e.outcome for e in state.events] == ["rebid", "won"]
    headers, rows = GopsForThreeView().history(state, 0, G3_NAMES)
    won_by = headers.index("Won by")
    assert html.unescape(rows[0][won_by]) == "three-way tie: bid again"
    assert html.unescape(rows[1][won_by]) == G3_NAMES[0]


def test_gops_for_three_history_says_nobody_wins_a_tie_with_no_cards_left():
    from gopskit.widgets.views.gops_for_three import GopsForThreeView

    stack = [7] + [c for c in range(1, 14) if c != 7] + ["JK"]
    ranks = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    state = _g3_deal(stack, [(r, r, r) for r in ranks] + [("A+", "A-", "A+")])
    assert state.events[-1].outcome == "lost"
    headers, rows = GopsForThreeView().history(state, 0, G3_NAMES)
    assert html.unescape(rows[-1][headers.index("Won by")]) == "nobody: three-way tie, no cards left"


def test_gops_for_three_hot_seat_board_history_after_a_three_way_tie():
    board = make_board("gops-for-three", seats=["human", "human", "human"], seed=1)
    for _ in range(3):
        board.show_hand()
        board.click_card(5)
        board.confirm()
    assert board.state.events[-1].outcome == "rebid"
    rows = _history_rows(board._history.value)
    won_by = rows[0].index("Won by")
    assert rows[1][won_by] == "three-way tie: bid again"


# ------------------------- Gops for three: a face-down hot-seat hand (7) ---
def _hand_row(board) -> list[str]:
    """The hand row as drawn: each card's name, ``?`` for a back."""
    return ["?" if "gopskit-back" in face.value else re.search(r'data-name="([^"]*)"', face.value).group(1)
            for _box, face, _button in board._slots]


def test_gops_for_three_face_down_hand_shows_one_back_per_card_held():
    board = make_board("gops-for-three", seats=["human", "human", "human"], seed=1)
    assert not board._shown
    assert _hand_row(board) == ["?"] * len(board.state.hands[0]) == ["?"] * 13
    board.show_hand()  # face up, the Ace is its two bids
    row = _hand_row(board)
    assert len(row) == 14 and "A↑" in row and "A↓" in row
    board.click_card(5)
    board.confirm()  # Player 2's turn: face down again
    assert not board._shown and _hand_row(board) == ["?"] * 13
    board.show_hand()
    board.click_card("A-")
    board.confirm()  # Player 3's turn
    assert _hand_row(board) == ["?"] * len(board.state.hands[2]) == ["?"] * 13


def test_a_face_down_goofspiel_hand_still_shows_every_card():
    board = make_board("goofspiel", seats=["human", "human"], seed=1, num_cards=5)
    assert _hand_row(board) == ["?"] * 5


def test_a_hot_seat_hand_face_down_names_no_card_in_its_tooltips():
    """Before "Show my hand" a hover over the face-down row shows nothing of the hand; after it, each card's name."""
    board = make_board("goofspiel", seats=["human", "human"], seed=5, num_cards=5, hidden_bids=True)
    assert not board._shown
    tips = [button.tooltip for _box, _face, button in board._slots]
    assert len(tips) == 5 and all(tip == "A card face down: its player presses “Show my hand” first" for tip in tips)
    board.show_hand()
    names = [card.label() for card in board._hand_cards]
    assert [button.tooltip for _box, _face, button in board._slots] == [
        f"Play {name} (key {card.key.upper()})" for name, card in zip(names, board._hand_cards)]
