"""The game board: one ipywidgets view for every game of the kit.

The board is a view (docs/architecture.md, layers): its public state is a few traitlets
(``status``, ``turn``, ``finished``, ``seats``, ``selected``,
``last_click_ms``), its children are wired privately, and :meth:`GameBoard.reset`
starts a new game. It holds no rules: a click becomes
:meth:`HumanSeat.commit`, every seat (person or bot) is asked for its move
through the agent protocol, and the engine's ``apply`` judges the joint move
(rejecting anything illegal); the pictures come from
the game's :class:`~gopskit.widgets.views.base.GameView`, pure functions of
the state.

Test hooks (docs/architecture.md): clickable cards have the CSS class
``gopskit-card``, the status line ``gopskit-status``, the new-game button
``gopskit-new-game`` and the confirm button ``gopskit-confirm``.

>>> from gopskit.widgets import GoofspielBoard
>>> board = GoofspielBoard(num_cards=3, seed=1)
>>> board.click_card(3); board.confirm()   # doctest: +SKIP
"""

from __future__ import annotations

import json
import threading
from html import escape

import ipywidgets as widgets
import numpy as np
import traitlets

from ..arena.match import seat_agents, start_game
from ..errors import GopsError, OptionError
from ..games.base import MatchState, Rules
from ..viz.svg import points_chart_svg
from ._guard import guarded
from .assets import style_html
from .cards import render_card
from .hand import SAY_THINKING_AFTER, close_gone, dress_button, hand_slots, wait_for_bots
from .panel import HUMAN, OptionsPanel, seat_notes, seat_notes_html
from .seats import HumanSeat, bot_label
from .views.base import GameView, all_events, final_status, render_history_table, render_summary


class GameBoard(widgets.VBox):
    """A playable board for any game that speaks the protocol of :mod:`gopskit.games.base`."""

    status = traitlets.Unicode("", help="the status line, as plain text")
    turn = traitlets.Int(0, help="decided turns so far")
    finished = traitlets.Bool(False, help="true once the game is over")
    seats = traitlets.List(traitlets.Unicode(), help="'human' or a bot name, one per seat")
    selected = traitlets.Any(None, allow_none=True, help="the card chosen but not yet confirmed")
    last_click_ms = traitlets.Float(0.0, help="how long the last click took to answer, server side")

    def __init__(self, view: GameView, rules: Rules, seats=None, seed=None, **_layout):
        super().__init__()
        self.view = view
        self.rules = rules
        self._seeds = np.random.default_rng(seed)  # a seeded board repeats its whole series of games
        self.last_error: Exception | None = None
        self.state = None
        self.agents: list = []
        self._active: int | None = None
        self._shown = False
        # one slot (picture and button) per card of the hand row, kept by the card it shows: a click is always
        # for that card, never for whatever card a position of the row holds by the time the click arrives
        self._slots: list[tuple[widgets.Box, widgets.HTML, widgets.Button]] = []  # the row's slots, in hand order
        self._slot_by_key: dict = {}
        self._games = 0  # games started on this board: part of every slot's key
        self._timing = widgets.HTML()  # the last click's server-side time, for the benchmark
        self._timing.add_class("gopskit-timing")
        self._hand_cards: list = []
        wanted = list(seats) if seats else [HUMAN]
        self._build(wanted)
        self.reset()

    # -- public actions (what a click does) -------------------------------
    @guarded
    def reset(self, seed=None) -> None:
        """Start a new game with the options and seats chosen in the panel."""
        if self.state is not None:  # the first game uses the rules given to the constructor
            try:
                self.rules = self._panel.rules()
            except GopsError as exc:  # said with the panel's labels; the game on the board goes on
                raise OptionError(self._panel.message(exc)) from exc
        seats = self._panel.seats()
        self.agents = seat_agents(self.rules, [HumanSeat() if s == HUMAN else s for s in seats])
        self.seats = list(seats)
        for agent in self.agents:  # a person waits on the bots' moves: a bot that can use the wait, does
            if hasattr(agent, "think_ahead"):
                agent.think_ahead = HUMAN in seats
        game_seed = seed if seed is not None else int(self._seeds.integers(2**63))
        self.state = start_game(self.rules, self.agents, game_seed)
        self.selected, self.finished, self.turn, self.last_error = None, False, 0, None
        # nobody's hand is up in a new game: with two people or more the first must press "Show my hand"
        self._active, self._shown = None, False
        self._bot_moves: dict = {}
        self._games += 1
        self._summary.value = ""
        self._title.value = self._title_html()
        self._advance()

    @guarded
    def click_card(self, move) -> None:
        """Choose ``move`` for the person whose hand is shown (a click on that card)."""
        seat = self._need_active()
        if not self._shown:
            raise GopsError(f"{self.names()[seat]}: press “Show my hand” first, while the others look away")
        if move not in self.state.legal_moves(seat):
            playable = ", ".join(c.label() for c in self._hand_cards if c.legal)
            raise GopsError(f"{self._label(move)} cannot be played now; playable: {playable}")
        if self.view.confirm:
            self.selected = move
            self._render()
            return
        self.agents[seat].commit(move, self.state.observation(seat))
        self._shown = self._humans() == 1
        self._advance()

    @guarded
    def confirm(self) -> None:
        """Commit the chosen card (the confirm button, or Enter)."""
        seat = self._need_active()
        if self.selected is None or not self._shown:
            raise GopsError("choose a card first, then confirm")
        self.agents[seat].commit(self.selected, self.state.observation(seat))
        self.selected = None
        self._shown = self._humans() == 1
        self._advance()

    @guarded
    def show_hand(self) -> None:
        """Hot seat: the person to move is ready, so turn their hand face up."""
        self._need_active()
        self._shown = True
        self._render()

    # -- the loop ----------------------------------------------------------
    def _advance(self) -> None:
        """Play bot moves until a person must move or the game is over, show the board, then let the bots think."""
        while not self.state.is_terminal():
            waiting = [p for p in self.state.to_move() if self.seats[p] == HUMAN and not self.agents[p].ready]
            if waiting:
                if self._active != waiting[0]:
                    self._shown = self._humans() == 1
                self._active = waiting[0]
                break
            self._play_joint_move()
        else:
            self._active = None
            self.finished = True
        self.turn = len(all_events(self.state))
        self._render()
        if self._active is not None:
            self._think_ahead()

    def _think_ahead(self) -> None:
        """Let the bots to move choose now, once the board is shown, while the people think.

        A slow move (the equilibrium bot's endgame solve) then costs nobody a
        wait: the person's click is handled when it is done. Nothing a bot
        sees can change before the joint move: the people's choices stay
        hidden until all are in."""
        for p in self.state.to_move():
            if self.seats[p] != HUMAN and p not in self._bot_moves:
                agent, obs = self.agents[p], self.state.observation(p)
                if getattr(agent, "moves_in_background", False):
                    self._bot_moves[p] = _MoveAhead(agent, obs)  # the page stays live while it thinks
                else:
                    self._bot_moves[p] = agent.act(obs)

    def _play_joint_move(self) -> None:
        """Ask every seat to move for its move (bots that thought ahead answer from memory) and apply them."""
        thinking = [p for p, move in self._bot_moves.items() if isinstance(move, _MoveAhead) and not move.done(SAY_THINKING_AFTER)]
        if thinking:
            self._show_thinking(thinking)
        joint = {}
        for p in self.state.to_move():
            move = self._bot_moves[p] if p in self._bot_moves else self.agents[p].act(self.state.observation(p))
            joint[p] = move.result() if isinstance(move, _MoveAhead) else move
        self._bot_moves = {}
        self.state.apply(joint)

    def _show_thinking(self, seats) -> None:
        """A bot is still working out its move (a rare solve of several seconds): say so, and take the clicks away."""
        labels = self.labels()
        self._set_status(wait_for_bots(self._slots, self._confirm, [labels[p] for p in seats]))

    def _need_active(self) -> int:
        if self.state is None or self.state.is_terminal() or self._active is None:
            raise GopsError("the game is over; press New game to play again")
        return self._active

    def _humans(self) -> int:
        return sum(s == HUMAN for s in self.seats)

    def _viewer(self) -> int | None:
        if self._humans() == 1:
            return self.seats.index(HUMAN)
        return self._active if self._shown else None

    # -- drawing -----------------------------------------------------------
    def _render(self) -> None:
        names = self.names()
        viewer = self._viewer()
        self._table.value = self.view.render_table(self.state, viewer, self.labels())
        self._last.value = self.view.render_last(self.state, viewer, names)
        headers, rows = self.view.history(self.state, viewer, names)
        self._history.value = render_history_table(headers, rows)
        self._render_hand()
        self._set_status(self._status_text(names))
        if self.finished:
            self._summary.value = self._summary_html(names)

    def _status_text(self, names) -> str:
        if self.finished:
            return final_status(names, self.state.scores(), self.state.winners(), rule=self.view.end_rule_text(self.state),
                                cut_off=self.view.cut_off_text(self.state))
        why = self.view.explain_last(self.state, names)
        seat = self._active
        if not self._shown:
            ask = f"{names[seat]}, your turn: press “Show my hand” when the others look away."
        elif self.selected is not None:
            ask = f"{names[seat]}: you chose {self._label(self.selected)}. Confirm (Enter), or pick another card."
        else:
            ask = self.view.prompt(self.state, seat, names)
        return f"{why} {ask}".strip()

    def _label(self, move) -> str:
        return next((c.label() for c in self._hand_cards if c.move == move), str(move))

    def _slot_key(self, card) -> tuple:
        """What a slot stands for: this game, this deal, the seat whose hand it is and the card's move."""
        deal = len(self.state.hands) if isinstance(self.state, MatchState) else 1
        move = card.move if isinstance(card.move, (int, str, tuple)) else repr(card.move)
        return self._games, deal, self._active, move

    def _render_hand(self) -> None:
        seat = self._active
        # face down (a hot seat before "Show my hand") the row shows one back per card held
        cards = [] if seat is None else self.view.hand(self.state, seat) if self._shown else self.view.face_down_hand(self.state, seat)
        self._hand_cards = cards
        keys = [self._slot_key(card) for card in cards]
        self._slots = hand_slots(self._slot_by_key, keys, self._card_clicked)
        for card, (box, face, button) in zip(cards, self._slots):
            chosen = card.move == self.selected
            face.value = self._face_html(card, chosen)
            button.disabled = not (self._shown and card.legal)
            dress_button(button, card, self._shown, face_up=self._shown)
        self._hand_label.value = self._hand_title()
        self._slots_box.children = [s[0] for s in self._slots]
        close_gone(self._slot_by_key, keys)
        self._confirm.layout.display = None if self.view.confirm and seat is not None else "none"
        self._confirm.disabled = self.selected is None
        self._ready.layout.display = None if seat is not None and not self._shown else "none"
        self._ready.description = f"Show my hand ({self.names()[seat]})" if seat is not None else "Show my hand"

    def _face_html(self, card, chosen: bool) -> str:
        """A card of the hand row, or a plain labelled choice for a move that is not a card."""
        selected = "gopskit-selected" if chosen and self._shown else ""
        if not card.is_card:
            return f'<div class="gopskit-choice {selected}" data-name="{escape(card.label())}">{escape(card.label())}</div>'
        return render_card(card.rank, card.suit, face_up=self._shown, size="large", classes=selected, name=card.label())

    def _hand_title(self) -> str:
        if self._active is None:
            return ""
        if self._hand_cards and not any(c.is_card for c in self._hand_cards):
            title = self.view.choice_title(self.state, self._active, self.names())
            return f'<div class="gopskit-label">{escape(title)}</div>'
        return f"<div class=\"gopskit-label\">{escape(self.names()[self._active])}'s hand</div>"

    def _card_clicked(self, key) -> None:
        """A click on the card button of slot ``key``. A click the browser sent before the board changed (the
        second click of a double click, a click while a bot's move was being shown) may name a card that has
        left the hand or that cannot be played any more: its button is gone or disabled on the screen, so the
        click is dropped rather than played or answered with an error."""
        keys = [self._slot_key(card) for card in self._hand_cards]
        if key not in keys:
            return
        card = self._hand_cards[keys.index(key)]
        if card.legal and self._shown and not self.finished:
            self.click_card(card.move)

    def _slot_clicked(self, index: int) -> None:
        """A click on the ``index``-th card of the hand row as it is now."""
        if index < len(self._hand_cards):
            self._card_clicked(self._slot_key(self._hand_cards[index]))

    def _confirm_clicked(self) -> None:
        """The confirm button: it is disabled until a card is chosen, so a click with none chosen was sent before
        the last confirm reached the page (a double click) and is dropped; :meth:`confirm` itself still refuses."""
        if self.selected is not None:
            self.confirm()

    def _summary_html(self, names) -> str:
        series = self.view.points_by_turn(self.state)
        chart = points_chart_svg(series, names, title=self.view.chart_title, axis=self.view.chart_axis) if len(series[0]) > 1 else ""
        return render_summary(names, self.state.scores(), self.state.winners(), chart, extra=self._record_html(),
                              rule=self.view.end_rule_text(self.state), cut_off=self.view.cut_off_text(self.state))

    def _record_html(self) -> str:
        """The game's record (JSON), folded away under the summary: ``gopskit replay`` reads it back."""
        record = json.dumps(self.state.record(), default=_plain)
        return ('<details class="gopskit-record"><summary>Game record (JSON, for <code>gopskit replay</code>)</summary>'
                f'<pre>{escape(record)}</pre></details>')

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status = text
        cls = "gopskit-status-text gopskit-error" if error else "gopskit-status-text"
        self._status.value = f'<div class="{cls}" aria-live="polite">{escape(text)}</div>'

    crash_advice = " Press New game to start again."

    def _show_error(self, text: str) -> None:
        self._set_status(text, error=True)

    def _record_click_ms(self, ms: float) -> None:
        self.last_click_ms = ms
        self._timing.value = f'<span data-click-ms="{ms:.2f}"></span>'

    def _show_options(self) -> None:
        """Open or fold the options panel, as its button says."""
        shown = self._options_button.value
        self._panel.layout.display = None if shown else "none"
        self._options_button.icon = "caret-down" if shown else "caret-right"

    # -- names -------------------------------------------------------------
    def names(self) -> list[str]:
        """The players' names in explanations: ``Player 1``, ``Player 2``, ..."""
        return [f"Player {p + 1}" for p in range(self.rules.num_players)]

    def labels(self) -> list[str]:
        """Names with who sits there: ``Player 1 (you)``, ``Player 2 (Match-the-prize bot)``."""
        one = self._humans() == 1
        return [f"{n} ({'you' if one else 'person'})" if s == HUMAN else f"{n} ({bot_label(s)})"
                for n, s in zip(self.names(), self.seats)]

    def _title_html(self) -> str:
        line = self.view.rules_text(self.rules)
        notes = seat_notes_html(self.seat_notes(short=True))
        return (f'<div class="gopskit-title"><span class="gopskit-game">{escape(self.view.title)}</span>'
                f'<span class="gopskit-rules-line">{escape(line)}</span>{notes}</div>')

    def seat_notes(self, short: bool = False) -> list[str]:
        """What the seated bots say of how they play these rules (:func:`.panel.seat_notes`), each once."""
        return seat_notes([agent for seat, agent in zip(self.seats, self.agents) if seat != HUMAN], self.rules, short)

    # -- building ----------------------------------------------------------
    def _build(self, wanted_seats) -> None:
        rules_class = type(self.rules)
        # the panel fills the empty seats (now and when Players goes up) from the view's default bots in
        # turn, never with two copies of one deterministic bot (they would bid alike and cancel each other)
        self._panel = OptionsPanel(rules_class, self.view.option_specs(rules_class), self.rules.options(), wanted_seats,
                                   self.view.bot_preference, settle=self.view.settle_options,
                                   default_bots=getattr(self.view, "default_bots", ()), help_for=self.view.option_help)
        self._title = widgets.HTML()
        self._new = widgets.Button(description="New game", icon="refresh", tooltip="Start a new game with these options")
        self._new.add_class("gopskit-new-game")
        self._new.on_click(lambda _b: self.reset())
        # a toggle button, not an accordion: the accordion's title cannot be reached with Tab
        self._options_button = widgets.ToggleButton(value=False, description="Options and seats", icon="caret-right",
                                                    tooltip="Show or hide the rules options and the seats")
        self._options_button.add_class("gopskit-options-toggle")
        self._options_button.observe(lambda _c: self._show_options(), "value")
        options = widgets.VBox([self._options_button, self._panel])
        options.add_class("gopskit-options-box")
        self._show_options()
        self._status = widgets.HTML()
        self._status.add_class("gopskit-status")
        self._table, self._last, self._history, self._summary = (widgets.HTML() for _ in range(4))
        self._hand_label = widgets.HTML()
        self._slots_box = widgets.Box()
        self._slots_box.add_class("gopskit-hand")
        self._confirm = widgets.Button(description=self.view.confirm_label, icon="check", button_style="primary",
                                       tooltip="Play the chosen card (Enter)")
        self._confirm.add_class("gopskit-confirm")
        self._confirm.on_click(lambda _b: self._confirm_clicked())
        self._ready = widgets.Button(description="Show my hand", icon="eye", button_style="warning")
        self._ready.add_class("gopskit-ready")
        self._ready.on_click(lambda _b: self.show_hand())
        header = widgets.HBox([self._title, self._new])
        header.add_class("gopskit-header")
        play = widgets.VBox([self._last, self._hand_label, self._slots_box, widgets.HBox([self._confirm, self._ready])])
        play.add_class("gopskit-play")
        main = widgets.Box([self._table, play])
        main.add_class("gopskit-main")
        history = widgets.VBox([widgets.HTML('<div class="gopskit-label">Turn by turn</div>'), self._history])
        history.add_class("gopskit-history-box")
        self.children = [widgets.HTML(style_html()), header, self._status, main, self._summary, history, options,
                         self._timing]
        self.add_class("gopskit-board")


def _plain(value):
    """JSON for numpy numbers a record may hold."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"a record holds only plain data, not {type(value).__name__}")


class _MoveAhead:
    """A bot's move worked out in a thread while the person thinks (bots with ``moves_in_background``).

    The equilibrium bot may solve for seconds (the rest of a 13-card hand);
    in a thread the kernel keeps answering the page meanwhile, so choosing a
    card is not held up. :meth:`result` waits for the move and raises what
    the bot raised. A new game makes new agents, so a thread left over from
    the last game only finishes unheard.
    """

    def __init__(self, agent, observation):
        self._move, self._error = None, None
        self._thread = threading.Thread(target=self._work, args=(agent, observation), name="gopskit-bot-move",
                                        daemon=True)
        self._thread.start()

    def _work(self, agent, observation) -> None:
        try:
            self._move = agent.act(observation)
        except BaseException as exc:  # noqa: BLE001 - handed to the page's thread by result()
            self._error = exc

    def done(self, wait: float = 0.0) -> bool:
        """Whether the move is worked out, after waiting at most ``wait`` seconds for it."""
        self._thread.join(wait)
        return not self._thread.is_alive()

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._move
