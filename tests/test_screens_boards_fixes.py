"""Screen defects of the boards found by playing them in a browser (hot seat, matches, seats,
options, wording): each test checks what a board shows against the engine."""

from __future__ import annotations

import html
import re

import pytest

from gopskit.errors import GopsError

from gopskit.agents import agent_class, agent_names
from gopskit.cards import counted
from gopskit.games.base import MatchState
from gopskit.widgets import GoofspielBoard, make_board
from gopskit.widgets.views.base import _number, all_events


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


# ------------------------------------------------ 2. the end of a match ---
MATCHES = [
    ("goofspiel", dict(num_cards=3, target=7), 2),
    ("goofspiel", dict(num_cards=3, defeat_the_dealer=True), 2),
    ("throps", dict(target=50, max_deals=2), 3),
    ("gops-for-three", dict(deals=2), 3),
    ("gooseberry-fool", dict(target=20, max_hands=3), 3),
]


def _panel_numbers(board):
    return re.findall(r'<span class="gopskit-score">([^<]*)</span>', board._table.value)


@pytest.mark.parametrize("game, options, players", MATCHES)
@pytest.mark.parametrize("seed", [3, 4])
def test_a_finished_match_shows_its_final_totals_in_the_panels(game, options, players, seed):
    board = make_board(game, seed=seed, seats=["random"] * players, **options)
    state = board.state
    assert board.finished and isinstance(state, MatchState) and state.is_terminal()
    assert _panel_numbers(board) == [_number(t) for t in state.scores()]
    word = board.view.deal_word
    labels = re.findall(r'gopskit-score-label">([^<]*)<', board._table.value)
    last = state.rules.hand_points(state.hand)
    assert labels == [f"match total; last {word} {_number(x)}" for x in last]
    line = re.search(r'gopskit-match">([^<]*)<', board._table.value).group(1)
    names = board.labels()
    totals = ", ".join(f"{n} {_number(t)}" for n, t in zip(names, state.scores()))
    assert f"Match over after {counted(len(state.hands), word)}. Final match totals: {totals}" in html.unescape(line)
    assert "before this" not in line


def test_a_goofspiel_match_says_the_hand_is_over_when_the_next_is_dealt():
    board = make_board("goofspiel", seed=3, num_cards=3, target=7)
    while len(board.state.hands) < 2:
        _play_first_legal(board)
    state = board.state
    done = state.rules.hand_points(state.hands[0])
    said = ", ".join(f"Player {p + 1} {_number(x)}" for p, x in enumerate(done))
    totals = ", ".join(f"Player {p + 1} {_number(x)}" for p, x in enumerate(state.scores()))
    assert f"Hand 1 over: {said} this hand; match totals now {totals}." in board.status
    assert re.findall(r'gopskit-score-label">([^<]*)<', board._table.value) == ["this hand", "this hand"]
    _play_first_legal(board)  # once the new hand's first turn is played the news is old
    assert "over:" not in board.status


def test_a_gooseberry_match_between_deals_names_the_match_totals():
    board = make_board("gooseberry-fool", seed=3, target=30)
    while len(board.state.hands) < 2:
        _play_first_legal(board)
    line = re.search(r'gopskit-match">([^<]*)<', board._table.value).group(1)
    totals = ", ".join(f"{n} {_number(x)}" for n, x in zip(board.labels(), board.state.scores()))
    assert html.unescape(line) == f"Deal 2; match totals before this deal: {totals}"


# ---------------------------------------------- 3. filling new seats ---
def _deterministic_repeats(seats):
    bots = [s for s in seats if s != "human" and not agent_class(s).classifier.get("stochastic")]
    return sorted({b for b in bots if bots.count(b) > 1})


@pytest.mark.parametrize("game, most", [("goofspiel", 7), ("raj", 5)])
def test_raising_players_never_seats_two_copies_of_a_deterministic_bot(game, most):
    board = make_board(game, seed=1)
    for players in range(2, most + 1):
        board._panel.controls["players"].value = players
        seats = board._panel.seats()
        assert len(seats) == players and seats[0] == "human"
        assert not _deterministic_repeats(seats), seats
        assert all(s in agent_names(board._panel.rules()) for s in seats[1:])
    board.reset()
    assert board.rules.num_players == most and not _deterministic_repeats(board.seats)
    if most > 2:  # the view's default bots come first, random among them
        default = board.view.default_bots if hasattr(board.view, "default_bots") else board.view.bot_preference
        assert board.seats[1:1 + len(default)] == list(default)


def test_a_seven_player_goofspiel_table_gets_every_kind_of_bot(monkeypatch):
    import gopskit.agents as agents

    agents.agent_names()  # load the kit's bots, then hide the probe bots other tests register in this process
    monkeypatch.setattr(agents, "_REGISTRY", {k: v for k, v in agents._REGISTRY.items() if not k.startswith("test-")})
    board = make_board("goofspiel", seed=1)
    board._panel.controls["players"].value = 7
    playable = agent_names(board._panel.rules())
    assert set(board._panel.seats()[1:]) == set(playable)


def test_a_five_player_raj_table_is_not_handed_to_the_person():
    """Four copies of raj-proportional bid alike, cancel out and hand the person every prize."""
    board = make_board("raj", seed=11)
    board._panel.controls["players"].value = 5
    board.reset()
    cancelled = 0
    while not board.finished:
        _play_first_legal(board)  # the person bids their lowest card
        event = all_events(board.state)[-1]
        bots = [event.bids[p] for p in range(1, 5)]
        cancelled += len(set(bots)) == 1
    assert cancelled < len(all_events(board.state))


# ------------------------------------------------ 4. the options panel ---
def _message(board):
    return html.unescape(re.sub(r"<[^>]+>", "", board._panel._message.value))


@pytest.mark.parametrize("control, typed, said", [
    ("num_cards", "0", "Cards: a whole number from 1 to 13, not 0"),
    ("num_cards", "-3", "Cards: a whole number from 1 to 13, not -3"),
    ("num_cards", "14", "Cards: a whole number from 1 to 13, not 14"),
    ("num_cards", "2.5", "Cards: a whole number from 1 to 13, not 2.5"),
    ("num_cards", "many", "Cards: a whole number from 1 to 13, not “many”"),
    ("players", "8", "Players: a whole number from 2 to 7, not 8"),
    ("target", "5000", "Match to: a whole number from 0 to 1000, not 5000"),
])
def test_a_typed_number_out_of_range_is_refused_by_its_label_and_changes_nothing(control, typed, said):
    board = GoofspielBoard(num_cards=5, seed=7)
    seats = board._panel.seats()
    board._panel.controls[control].value = typed
    assert _message(board) == said
    assert board._panel.controls[control].value == typed  # what was typed stays in the box, not clamped
    assert board._panel.seats() == seats
    board.reset()
    assert said in board.status and board.rules.num_cards == 5 and board.rules.num_players == 2
    assert board.rules.target is None and len(board.state.hand.hands[0] if hasattr(board.state, "hand")
                                              else board.state.hands[0]) == 5
    board._panel.controls[control].value = "3"  # a good value clears the message
    assert _message(board) == ""


def test_the_range_in_the_message_is_the_panels_own_for_every_board():
    from gopskit.games import available_games
    from gopskit.widgets.panel import short_label
    for game in available_games():
        board = make_board(game, seed=1)
        for spec in board._panel.specs:
            if spec.kind in ("int", "optional-int"):
                board._panel.controls[spec.name].value = str(spec.high + 1)
                assert _message(board) == f"{short_label(spec)}: a whole number from {spec.low} to {spec.high}, not {spec.high + 1}"
                board._panel.controls[spec.name].value = str(spec.low)


@pytest.mark.parametrize("game, change, said", [
    ("goofspiel", {"rebid_open": True},
     "“Rebid open to all” only changes the “Bid again” tie rule; with “Ties” = “Discard the prize” it would do "
     "nothing: set “Ties” to “Bid again” or leave “Rebid open to all” unticked"),
    ("goofspiel", {"dealer": 1},
     "“First dealer” = Player 2 names the first dealer of Defeat the Dealer; other variants have no dealer: "
     "tick “Defeat the dealer” or leave “First dealer” at Player 1"),
    ("goofspiel", {"defeat_the_dealer": True, "blind": True}, "“Blind” and “Defeat the dealer” do not combine"),
    ("gooseberry-fool", {"ending": "reach"}, "a single deal (“Play to” 0) has no target"),
    ("gooseberry-fool", {"ending": "reach"},
     "“Who wins the match” = “The odd one out” decides a match by who reached the target, and a single deal "
     "(“Play to” 0) has no target: set a target or leave “Who wins the match” at “The middling total”"),
    ("gops-for-three", {"deals": 3, "max_deals": 2}, "“At most deals” = 2 would stop a game of 3 deals"),
])
def test_option_errors_on_a_board_name_the_panels_labels(game, change, said):
    board = make_board(game, seed=1)
    for name, value in change.items():
        board._panel.controls[name].value = value
    assert said in _message(board)
    for name in change:
        assert f"{name}=" not in _message(board)
    board.reset()
    assert said in board.status
    with pytest.raises(GopsError) as raised:  # the engine keeps its own words for API users
        board._panel.rules_class.from_options({**board.rules.options(), **change})
    assert any(name in str(raised.value) for name in change)


# ------------------------------------------- 5. Gooseberry Fool's winner ---
@pytest.mark.parametrize("seed", range(8))
def test_a_gooseberry_deal_always_says_why_its_winner_won(seed):
    from gopskit.games.gooseberry_fool import gooseberries, middling
    board = make_board("gooseberry-fool", seed=seed, seats=["random"] * 3)
    state = board.state
    points, winners = state.points(), state.winners()
    assert winners == gooseberries(points)
    mid = middling(points)
    if mid is not None:
        reason = f"(the middling score before the bonus: {points[mid]})"
        assert board.status.endswith(f"Player {mid + 1} wins {reason}!"), board.status
    else:
        assert "tie at" in board.status or "all three" in board.status, board.status
    assert "(the " in board._summary.value or "(two " in board._summary.value or "(all " in board._summary.value


def test_a_top_scoring_gooseberry_winner_gets_the_reason_too():
    """Seed 0: Player 3 wins with the most points (22) after the bonus; the reason is still given."""
    board = make_board("gooseberry-fool", seed=0, seats=["random"] * 3)
    scores = board.state.scores()
    assert board.state.winners() == [scores.index(max(scores))]
    assert "(the middling score before the bonus: " in board.status


@pytest.mark.parametrize("options, said", [
    (dict(target=30), "(the middling total: "),
    (dict(target=30, ending="reach"), "reached 30"),
])
def test_a_gooseberry_match_says_why_its_winner_won(options, said):
    from gopskit.games.gooseberry_fool import GooseberryFool
    board = make_board("gooseberry-fool", seed=1, seats=["random"] * 3, **options)
    state = board.state
    assert said in board.status
    assert state.winners() == GooseberryFool.from_options(state.rules.options()).match_winners(state.scores())


# ---------------------------------------------------- 6. words and names ---
GAMES = ["goofspiel", "gops-for-three", "throps", "gooseberry-fool", "divide-and-conquer", "raj"]


@pytest.mark.parametrize("game", GAMES)
def test_boards_name_bots_by_readable_labels_and_keep_registry_names(game):
    from gopskit.widgets.seats import BOT_LABELS, bot_label
    board = make_board(game, seed=1)
    rules = board._panel.rules()
    for p, (label, seat) in enumerate(zip(board.labels(), board.seats)):
        if seat != "human":
            assert seat in agent_names(rules)  # the API keeps the registry name
            assert label == f"Player {p + 1} ({BOT_LABELS[seat]})" and "-" not in BOT_LABELS[seat].split()[0][:1]
            assert seat not in board._table.value
    for control in board._panel.seat_controls:
        for text, value in control.options:
            assert text == bot_label(value) and (text == "Human" or text.endswith(" bot"))
    assert all(bot_label(b)[0].isupper() for b in agent_names())


@pytest.mark.parametrize("game, label", [("divide-and-conquer", "Confirm card"), ("goofspiel", "Confirm bid"),
                                         ("raj", "Confirm bid"), ("gops-for-three", "Confirm bid"), ("throps", "Confirm bid")])
def test_the_confirm_button_says_what_the_game_plays(game, label):
    board = make_board(game, seed=1)
    assert board._confirm.description == label


@pytest.mark.parametrize("stock", ["7C", "QS", "2H", "AD"])
def test_the_throps_prompt_explains_the_tie_order_in_words(stock):
    from gopskit.cards import SUIT_NAMES, SUITS
    from gopskit.games.throps import MAJOR, suit_relation
    from gopskit.widgets.views.throps import tie_order_text
    text = tie_order_text(stock)
    suit = stock[-1]
    order = [SUIT_NAMES[s] for s in sorted(SUITS, key=lambda s: suit_relation(s, suit))]
    assert [text.index(name) for name in order] == sorted(text.index(name) for name in order)
    minor = [SUIT_NAMES[s] for s in SUITS if s not in MAJOR]
    assert f"{minor[0]} and {minor[1]} are the minor suits" in text and "parity" in text
    board = make_board("throps", seed=1)
    obs = board.state.observation(0)
    assert tie_order_text(obs.stock_card) in board.status


@pytest.mark.parametrize("cards", [5, 8, 13])
def test_the_ace_high_tooltip_follows_the_number_of_cards(cards):
    from gopskit.cards import card_name
    from gopskit.games.goofspiel import Goofspiel
    board = GoofspielBoard(seed=1)
    board._panel.controls["num_cards"].value = cards
    worth = Goofspiel(num_cards=cards, ace_high=True).points(1)
    tip = board._panel.controls["ace_high"].tooltip
    assert f"above the {card_name(cards)}" in tip and f"worth {worth} " in tip
    assert worth == cards + 1 and "14" not in tip or cards == 13


@pytest.mark.parametrize("game, options, words", [
    ("goofspiel", dict(num_cards=5, prize_order="ascending"), ["5 cards", "prizes in ascending order"]),
    ("goofspiel", dict(num_cards=6), ["6 cards", "prizes shuffled"]),
    ("goofspiel", dict(prize_order=[3, 1, 2], num_cards=3), ["prizes in a set order: 3 A 2"]),
    ("gops-for-three", dict(deals=2, aces_pair=False), ["2 deals", "Aces pair only if declared alike"]),
    ("gops-for-three", dict(target=40, deals=3), ["play to 40 (at most 30 deals)"]),
    ("throps", dict(scoring_suit="longest", target=None), ["longest suit", "one deal"]),
    ("throps", dict(target=50, max_deals=4), ["play to 50 (at most 4 deals)"]),
    ("raj", dict(players=4, carry_decides="total"), ["4 players", "the sign of their total"]),
    ("divide-and-conquer", dict(halves=1), ["5 tricks"]),
    ("divide-and-conquer", dict(halves=2), ["10 tricks", "swap after five"]),
    ("gooseberry-fool", dict(target=None), ["one deal", "scores 10 more"]),
])
def test_every_board_has_a_rules_line_from_its_options(game, options, words):
    board = make_board(game, seed=1, **options)
    line = html.unescape(re.search(r'gopskit-rules-line">([^<]*)<', board._title.value).group(1))
    for word in words:
        assert word in line, line
    if game == "divide-and-conquer":
        assert counted(board.rules.num_tricks, "trick") in line


def test_the_teachers_game_list_and_bot_list_use_display_names(tmp_path):
    from gopskit.widgets.boards import view_for
    from gopskit.widgets.classroom import TeacherApp
    from gopskit.widgets.seats import bot_label
    teacher = TeacherApp(str(tmp_path / "class.sqlite3"), export_folder=tmp_path)
    assert [text for text, _ in teacher._game.options] == [view_for(g).title for _, g in teacher._game.options]
    assert ("Gops for three", "gops-for-three") in teacher._game.options and teacher._game.value == "goofspiel"
    teacher._game.value = "divide-and-conquer"
    assert all(text == bot_label(value) for text, value in teacher._bot.options)
    assert teacher._bot.value == "dc-counter-greedy" and teacher._bot.label == "Counter-greedy bot"


def test_the_teachers_form_names_its_own_labels_in_option_errors(tmp_path):
    from gopskit.widgets.classroom import TeacherApp
    teacher = TeacherApp(str(tmp_path / "class.sqlite3"), export_folder=tmp_path)
    teacher._controls["rebid_open"][1].value = True
    teacher.create()
    text = html.unescape(re.sub(r"<[^>]+>", "", teacher._message.value))
    assert "“Rebid open to all” only changes the “Bid again” tie rule" in text and "rebid_open" not in text
    assert "'rebid'" not in text and "discard" not in text  # the drop-down's words, not the rules' values
    assert teacher.code is None or not teacher.code
    teacher._controls["rebid_open"][1].value = False
    teacher._controls["num_cards"][1].value = "14"
    teacher.create()
    text = html.unescape(re.sub(r"<[^>]+>", "", teacher._message.value))
    assert "Cards: a whole number from 1 to 13, not 14" in text


@pytest.mark.parametrize("game, label", [("divide-and-conquer", "Confirm card"), ("goofspiel", "Confirm bid")])
def test_a_classroom_seat_labels_its_confirm_button_by_the_game(game, label):
    from gopskit.widgets.classroom import SeatBoard
    board = SeatBoard(game, play=lambda move: None)
    assert board._confirm.description == label


def test_the_first_dealer_drop_down_lists_the_players_at_the_table():
    board = make_board("goofspiel", seed=1)
    dealer = board._panel.controls["dealer"]
    assert [text for text, _ in dealer.options] == ["Player 1", "Player 2"]  # 2 players: no Player 3 to 7
    board._panel.controls["players"].value = "4"
    assert [text for text, _ in dealer.options] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    board._panel.controls["defeat_the_dealer"].value = True
    dealer.value = 3
    board._panel.controls["players"].value = "2"  # the chosen seat stays, and the panel says why it does not fit
    assert dealer.value == 3 and [text for text, _ in dealer.options] == ["Player 1", "Player 2", "Player 4"]
    assert _message(board) == "“First dealer” must be Player 1 or Player 2, not Player 4 (the game has 2 players)"
    dealer.value = 1
    assert [text for text, _ in dealer.options] == ["Player 1", "Player 2"] and _message(board) == ""
    assert board._panel.rules().dealer == 1


def test_every_room_setting_of_the_teachers_form_has_a_hint_under_it(tmp_path):
    from gopskit.widgets.classroom import TeacherApp
    from gopskit.widgets.panel import HintedControl
    teacher = TeacherApp(str(tmp_path / "class.sqlite3"), export_folder=tmp_path)

    def hint_of(control):
        boxes = [box for box in _walk(teacher._form) if isinstance(box, HintedControl) and box.control is control]
        assert boxes, control.description  # the control sits in a hinted box, as the game's options do
        return html.unescape(re.sub(r"<[^>]+>", "", boxes[0].hint.value))

    assert hint_of(teacher._bot).startswith("plays the seats no student fills")
    assert "“away”" in hint_of(teacher._timeout)
    assert hint_of(teacher._auto).startswith("waiting students are seated as soon as") and not teacher._auto.disabled
    teacher._pairing.value = "round-robin"  # auto-seating only works with random tables (rooms.auto_pair)
    assert teacher._auto.disabled and hint_of(teacher._auto).startswith("only with “Random tables”")
    assert "Start round robin" in hint_of(teacher._auto)
    teacher._pairing.value = "challenge"
    assert teacher._auto.disabled and "challenge is accepted" in hint_of(teacher._auto)
    teacher._pairing.value = "random"
    assert not teacher._auto.disabled


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def test_first_dealer_shows_only_with_defeat_the_dealer_as_on_the_teachers_form():
    board = make_board("goofspiel", seed=1)
    box = board._panel.hinted["dealer"]
    assert box.layout.display == "none"  # no dealer in plain Goofspiel
    board._panel.controls["defeat_the_dealer"].value = True
    assert box.layout.display is None
    board._panel.controls["defeat_the_dealer"].value = False
    assert box.layout.display == "none"
    assert make_board("gooseberry-fool", seed=1)._panel.hinted["dealer"].layout.display != "none"  # always a dealer
