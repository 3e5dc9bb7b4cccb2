"""Boards without a browser: click cards with the board's own methods and check
the engine state and the HTML the board renders, for every game of the kit."""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import pytest

from gopskit.errors import AgentError, GopsError, IllegalMoveError
from gopskit.games import available_games
from gopskit.games.goofspiel import Goofspiel
from gopskit.widgets import GoofspielBoard, HumanSeat, make_board
from gopskit.widgets.cards import render_card, render_cards
from gopskit.widgets.views.goofspiel import GoofspielView


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def _with_class(board, cls):
    return [w for w in _walk(board) if cls in getattr(w, "_dom_classes", ())]


def _play_first_legal(board):
    card = next(c for c in board._hand_cards if c.legal)
    board.click_card(card.move)
    if board.view.confirm:
        board.confirm()
    return card.move


# ---------------------------------------------------------------- cards ---
def test_card_face_shows_rank_suit_and_a_second_colour_cue():
    red, black = render_card("Q", "H"), render_card("7", "S")
    assert "Q" in red and "♥" in red and "gopskit-red" in red and "gopskit-red-frame" in red
    assert "♠" in black and "gopskit-black" in black and "gopskit-red-frame" not in black
    assert 'aria-label="queen of hearts"' in red


def test_face_down_card_hides_its_rank():
    back = render_card("Q", "H", face_up=False)
    assert "gopskit-back" in back and "♥" not in back and "queen" not in back


def test_card_rejects_unknown_size():
    with pytest.raises(ValueError, match="size"):
        render_card("2", "S", size="huge")


def test_card_row_draws_backs_for_unknown_cards():
    assert render_cards([("2", "S"), None]).count("gopskit-back") == 1


# ----------------------------------------------------------- human seat ---
def test_human_seat_waits_for_a_commit_and_rejects_illegal_moves():
    state = Goofspiel(num_cards=3).new_game(seed=0)
    seat = HumanSeat()
    seat.reset(state.rules, 0)
    with pytest.raises(AgentError, match="has not chosen"):
        seat.act(state.observation(0))
    with pytest.raises(IllegalMoveError, match="allowed: 1, 2, 3"):
        seat.commit(7, state.observation(0))
    assert not seat.ready


# ---------------------------------------------------------- goofspiel view ---
def test_blind_prize_is_a_face_down_card():
    state = Goofspiel(num_cards=4, blind=True, prize_order="descending").new_game()
    html = GoofspielView().render_table(state, 0, ["P1", "P2"])
    prize = html[html.index("gopskit-prize-area"):html.index("gopskit-seats")]
    assert "gopskit-back" in prize and "4 of diamonds" not in prize


def test_hidden_bids_stay_hidden_in_the_reveal_and_the_history():
    state = Goofspiel(num_cards=3, hidden_bids=True, prize_order="ascending").new_game()
    state.apply([1, 3])
    view, names = GoofspielView(), ["Player 1", "Player 2"]
    last = view.render_last(state, 0, names)
    assert last.count("gopskit-back") == 1 and "bids stay hidden" in last
    _, rows = view.history(state, 0, names)
    assert rows[0][3] == "<b>?</b>" and rows[0][2] == "A" and "Player 2" in rows[0][4]


def test_face_down_trophies_hide_the_scores_until_the_end():
    state = Goofspiel(num_cards=2, face_down_trophies=True, prize_order="ascending").new_game()
    state.apply([2, 1])
    html = GoofspielView().render_table(state, 0, ["P1", "P2"])
    assert re.findall(r'gopskit-score">([^<]*)<', html) == ["?", "?"]


# --------------------------------------------------------------- board ---
def test_goofspiel_board_has_every_test_hook():
    board = GoofspielBoard(num_cards=5, seed=1)
    assert len(_with_class(board, "gopskit-card")) == 5
    for hook in ("gopskit-status", "gopskit-new-game", "gopskit-confirm"):
        assert len(_with_class(board, hook)) == 1, hook
    assert board.seats[0] == "human" and board.seats[1] != "human"


def test_a_click_and_a_confirm_play_one_turn_in_the_engine():
    board = GoofspielBoard(num_cards=5, seed=2)
    board.click_card(3)
    assert board.selected == 3 and board.state.turn == 0 and "you chose 3" in board.status
    board.confirm()
    assert board.state.turn == 1 and board.turn == 1
    assert board.state.record()["bids"][0][0] == 3
    assert board.state.events[-1].explain(board.names()) in board.status
    assert 3 not in [c.move for c in board._hand_cards]
    assert "<table" in board._history.value


def test_a_whole_game_ends_with_the_final_score_and_a_chart():
    board = GoofspielBoard(num_cards=5, seed=3)
    for _ in range(5):
        _play_first_legal(board)
    scores = board.state.scores()
    assert board.finished and board.last_error is None
    assert f"Final score: Player 1 {scores[0]}, Player 2 {scores[1]}" in board.status
    assert "<svg" in board._summary.value and "gopskit-summary" in board._summary.value
    board.reset()
    assert not board.finished and board.state.turn == 0 and board._summary.value == ""


def test_an_illegal_click_says_why_and_changes_nothing():
    board = GoofspielBoard(num_cards=5, seed=4)
    board.click_card(9)
    assert "cannot be played" in board.status and board.state.turn == 0 and board.selected is None
    board.confirm()
    assert "choose a card first" in board.status


def test_hot_seat_hides_each_hand_until_its_owner_is_ready():
    board = GoofspielBoard(num_cards=3, seats=["human", "human"], seed=5)
    assert all("gopskit-back" in face.value for _box, face, _b in board._slots[:3])
    board.click_card(1)
    assert board.selected is None and "look away" in board.status
    board.show_hand()
    board.click_card(2)
    board.confirm()
    assert board.state.turn == 0 and "Player 2" in board.status  # player 2's turn, hand hidden again
    assert all("gopskit-back" in face.value for _box, face, _b in board._slots[:3])
    board.show_hand()
    board.click_card(3)
    board.confirm()
    assert board.state.record()["bids"][0] == [2, 3]


def test_options_panel_changes_the_rules_of_the_next_game():
    board = GoofspielBoard(num_cards=5, seed=6)
    board._panel.controls["num_cards"].value = 7
    board._panel.controls["ties"].value = "carry"
    board._panel.controls["players"].value = 3
    assert len(board._panel.seat_controls) == 3
    board.reset()
    assert board.rules.num_cards == 7 and board.rules.ties == "carry" and board.rules.num_players == 3
    assert len(board._hand_cards) == 7 and board.seats[0] == "human"


def test_bad_options_show_an_error_and_keep_the_game():
    board = GoofspielBoard(num_cards=5, seed=7)
    board._panel.controls["dealer"] = widgets.IntText(value=5)  # not shown by the panel: ignored
    board._panel.controls["num_cards"].value = 0  # refused, not clamped to 1
    with pytest.raises(GopsError, match="Cards: a whole number from 1 to 13, not 0"):
        board._panel.values()
    board.reset()
    assert board.rules.num_cards == 5 and "Cards: a whole number from 1 to 13, not 0" in board.status


def test_a_seeded_board_repeats_its_deals():
    first, second = GoofspielBoard(num_cards=5, seed=8), GoofspielBoard(num_cards=5, seed=8)
    assert first.state.deck == second.state.deck


@pytest.mark.parametrize("game", available_games())
def test_every_game_plays_to_the_end_by_clicks(game):
    board = make_board(game, seed=11)
    assert board.seats[0] == "human" and all(s != "human" for s in board.seats[1:])
    for hook in ("gopskit-status", "gopskit-new-game"):
        assert _with_class(board, hook), hook
    clicks = 0
    while not board.finished:
        assert _with_class(board, "gopskit-card"), "no clickable card"
        _play_first_legal(board)
        clicks += 1
        assert board.last_error is None, board.last_error
        assert clicks < 500
    assert board.state.is_terminal() and "Game over" in board.status
    assert "gopskit-summary" in board._summary.value


@pytest.mark.parametrize("game", available_games())
def test_every_board_measures_its_clicks(game):
    """Each click's handling time is recorded for the benchmark (timing is never a pass/fail test here)."""
    board = make_board(game, seed=12)
    _play_first_legal(board)
    assert board.last_error is None and board.last_click_ms >= 0.0


def test_unknown_game_has_no_board():
    with pytest.raises(GopsError, match="the kit plays"):
        make_board("chess")


@pytest.mark.parametrize("options", [
    {"ties": "carry"}, {"ties": "unique", "players": 3}, {"ties": "rebid", "players": 3}, {"ties": "rebid", "rebid_open": True, "players": 3},
    {"blind": True}, {"hidden_bids": True}, {"face_down_trophies": True}, {"ace_high": True},
    {"defeat_the_dealer": True, "players": 3}, {"target": 20}, {"prize_order": "descending", "players": 7},
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_goofspiel_variant_plays_through_the_board(options):
    board = GoofspielBoard(num_cards=4, seed=13, **options)
    clicks = 0
    while not board.finished:
        _play_first_legal(board)
        clicks += 1
        assert board.last_error is None, board.last_error
        assert clicks < 400
        html = board._table.value + board._last.value + board._history.value
        if options.get("hidden_bids") and not board.finished:
            assert "<b>?</b>" in board._history.value or "?" in board._history.value
        assert "None" not in html, "a hidden value leaked into the page as 'None'"
    assert "Final score" in board.status


def test_bots_choose_while_the_person_thinks_and_keep_their_choice():
    from gopskit.agents.base import Agent

    class Spy(Agent):
        name = "spy"
        classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": ("goofspiel",)}
        seen: list = []
        screens: list = []
        board = None

        def act(self, observation):
            self.seen.append(observation)
            self.screens.append((self.board.turn, self.board._table.value, self.board.status))
            return max(observation.legal_moves)

    spy = Spy()
    board = GoofspielBoard(num_cards=4, seed=14)
    board.agents[1], spy.board = spy, board  # seat the spy directly: the panel only lists registered bots
    board._bot_moves = {}
    board._think_ahead()
    assert len(spy.seen) == 1 and spy.seen[0].turn == 0
    before = board._table.value
    board.click_card(2)
    board.confirm()
    assert board.state.record()["bids"][0] == [2, 4]
    assert len(spy.seen) == 2 and spy.seen[1].turn == 1  # the next turn's choice, made after the reveal
    # ... and after the board showed that turn: a slow bot never holds the new turn off the screen
    assert spy.screens[1] == (1, board._table.value, board.status) and board._table.value != before


def test_a_slow_bot_thinks_in_a_thread_and_the_board_stays_live_meanwhile():
    """A bot with moves_in_background (the equilibrium bot) chooses in a thread: the person can pick a card while it
    thinks, confirming waits for its move, and what it raised reaches the page as the board's error."""
    import threading

    from gopskit.agents.base import Agent
    from gopskit.agents.equilibrium import EquilibriumBot

    assert EquilibriumBot.moves_in_background

    class Slow(Agent):
        name = "slow"
        classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": ("goofspiel",)}
        moves_in_background = True
        go = threading.Event()
        threads: list = []

        def act(self, observation):
            self.threads.append(threading.current_thread())
            assert self.go.wait(timeout=60)
            if observation.turn == 1:
                raise RuntimeError("the slow bot broke")
            return max(observation.legal_moves)

    board = GoofspielBoard(num_cards=4, seed=14)
    slow = Slow()
    board.agents[1] = slow
    board._bot_moves = {}
    board._think_ahead()
    board.click_card(2)  # answered while the bot still thinks
    assert board.selected == 2 and Slow.threads[0] is not threading.main_thread()
    Slow.go.set()
    board.confirm()
    assert board.state.record()["bids"][0] == [2, 4]
    board.click_card(3)
    board.confirm()  # the bot's second move raised: the board says so and keeps the game
    assert "the slow bot broke" in board.status and len(board.state.record()["bids"]) == 1


def test_while_a_bot_still_thinks_after_the_confirm_the_board_says_so_and_takes_the_cards_away():
    """The rare long solve: the confirm waits for the bot; meanwhile the page reads that it is thinking, not frozen."""
    import threading

    from gopskit.agents.base import Agent

    class Slow(Agent):
        name = "slow"
        classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": ("goofspiel",)}
        moves_in_background = True
        go = threading.Event()

        def act(self, observation):
            assert self.go.wait(timeout=60)
            return max(observation.legal_moves)

    board = GoofspielBoard(num_cards=4, seed=14)
    board.agents[1] = Slow()
    board._bot_moves = {}
    board._think_ahead()
    board.click_card(2)
    confirming = threading.Thread(target=board.confirm)
    confirming.start()
    for _ in range(600):
        if "still working out" in board.status:
            break
        threading.Event().wait(0.1)
    assert board.status == (f"{board.labels()[1]} is still working out its move: the cards are turned over as soon "
                            "as it has.")
    assert board._confirm.disabled and all(button.disabled for _box, _face, button in board._slots)
    Slow.go.set()
    confirming.join(60)
    assert board.state.record()["bids"][0] == [2, 4] and "still working out" not in board.status
    assert not all(button.disabled for _box, _face, button in board._slots)  # the next turn's cards are back


def test_a_bot_that_answers_quickly_after_the_confirm_is_not_said_to_be_thinking():
    """No flicker: a bot that still needs a moment when the person confirms gets a grace before the page says so.

    The bot takes 0.03 s, a tenth of ``hand.SAY_THINKING_AFTER``."""
    import time

    from gopskit.agents.base import Agent

    class Quick(Agent):
        name = "quick"
        classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": ("goofspiel",)}
        moves_in_background = True

        def act(self, observation):
            time.sleep(0.03)
            return max(observation.legal_moves)

    board = GoofspielBoard(num_cards=4, seed=14)
    board.agents[1] = Quick()
    said, real_status = [], board._set_status
    board._set_status = lambda text, error=False: (said.append(text), real_status(text, error))
    for card in (2, 1):
        board._bot_moves = {}
        board._think_ahead()  # the bot starts thinking; the person confirms at once
        board.click_card(card)
        board.confirm()
    assert board.state.record()["bids"][:2] == [[2, 4], [1, 3]]
    assert said and not [text for text in said if "still working out" in text], said


def test_a_board_says_which_bids_of_its_equilibrium_bot_are_estimates(monkeypatch, tmp_path):
    """At 12 cards the bot estimates its first two bids: the board's title and its seat choosers say so, in the
    bot's own words (:meth:`EquilibriumBot.seat_note`); where every bid is exact, nothing is said."""
    from gopskit.agents.equilibrium import EquilibriumBot
    from gopskit.solvers import storage

    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))  # no complete solution of this machine's counts
    monkeypatch.setattr(storage, "_MEMORY", {})
    board = GoofspielBoard(num_cards=12, seats=["human", "equilibrium"], seed=2)
    note, short = EquilibriumBot().seat_note(board.rules), EquilibriumBot().seat_note(board.rules, short=True)
    assert note.startswith("Equilibrium bot: its first 2 bids are estimates, as no exact 12-card solution")
    assert short == "Equilibrium bot: its first 2 bids are estimates; from turn 3 it plays the exact equilibrium."
    assert board.seat_notes() == [note] and board.seat_notes(short=True) == [short]
    assert html.escape(short) in board._title.value and html.escape(note) in board._panel._seat_notes.value
    board._panel.seat_controls[1].value = "random"  # the panel answers at once; the title with the next game
    assert board._panel._seat_notes.value == "" and html.escape(short) in board._title.value
    board.reset()
    assert board.seat_notes() == [] and "gopskit-seat-note" not in board._title.value
    exact = GoofspielBoard(num_cards=10, seats=["human", "equilibrium"], seed=2)
    assert exact.seat_notes() == [] and "gopskit-seat-note" not in exact._title.value


def test_gops_for_three_opens_against_two_different_bots():
    board = make_board("gops-for-three", seed=1)
    assert board.seats[0] == "human" and board.seats[1:] == ["gops3-proportional", "random"]


def test_option_labels_say_what_0_means_and_seats_count_from_player_1():
    board = GoofspielBoard(seed=1)
    dealer = board._panel.controls["dealer"]
    assert dealer.options[:2] == (("Player 1", 0), ("Player 2", 1))
    assert "0: one hand" in board._panel.controls["target"].description
    dealer.value = 1
    assert board._panel.values()["dealer"] == 1


def test_gops_for_three_panel_plays_to_a_target_from_its_one_deal_default():
    board = make_board("gops-for-three", seed=1)
    board._panel.controls["target"].value = 40
    board.reset()
    assert board.last_error is None, board.status
    assert board.rules.target == 40
