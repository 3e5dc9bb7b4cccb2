"""What a board needs to know about a game, as pure functions of its state.

A :class:`GameView` turns a game state into HTML strings and card lists; the
board (:mod:`gopskit.widgets.board`) wires them to ipywidgets. Views hold no
rules: everything they show comes from the protocol of
:mod:`gopskit.games.base` (``to_move``, ``legal_moves``, ``observation``,
``events[-1].explain()``, ``scores``). The base class already draws *any* game
that speaks the protocol; each game's view only makes it look like that game.

``viewer`` is the seat whose eyes the screen shows (its own hand face up), or
``None`` for the public view of a hot-seat screen between two people.

>>> from gopskit.games.goofspiel import Goofspiel
>>> view = GameView()
>>> state = Goofspiel(num_cards=3).new_game(seed=1)
>>> [c.rank for c in view.hand(state, 0)]
['1', '2', '3']
"""

from __future__ import annotations

import dataclasses
import typing
from html import escape
from typing import Any

from ...cards import and_list, counted
from ...games.base import GameState, MatchState, Rules
from ...games.wording import rules_line
from ..cards import render_card

KEYS = {1: "a", 10: "0", 11: "j", 12: "q", 13: "k"}
PRIZE_ORDER_WORDS = (("shuffled", "Shuffled", "the prize cards are turned in a random order"),
                     ("ascending", "Lowest first", "the prize cards are turned from the lowest up"),
                     ("descending", "Highest first", "the prize cards are turned from the highest down"))


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """How the options panel shows one rules option.

    ``kind`` is ``"bool"`` (a checkbox), ``"int"`` (a number box from
    ``low`` to ``high``), ``"choice"`` (a drop-down of ``choices``),
    ``"optional-int"`` (a number, 0 meaning "none"), ``"seat"`` (a player,
    shown as ``Player 1`` for seat 0) or ``"text"``.
    """

    name: str
    label: str
    kind: str
    choices: tuple = ()
    low: int = 0
    high: int = 100
    help: str = ""
    words: tuple = ()  # a "choice": (value, label, meaning) for each, so no control shows an engine name

    def choice_label(self, value) -> str:
        """What the drop-down shows for ``value`` (its label, else the value itself)."""
        return next((label for v, label, _meaning in self.words if v == value), str(value))

    def meaning(self, value) -> str:
        """What choosing ``value`` does, in a few words (``""`` if the spec does not say)."""
        return next((meaning for v, _label, meaning in self.words if v == value), "")

    def explain(self, value) -> str:
        """The option's explanation with ``value`` chosen: ``help``, and for a choice what ``value`` does."""
        meaning = self.meaning(value) if self.kind == "choice" else ""
        return f"{self.help}: {meaning}" if self.help and meaning else (meaning or self.help)


@dataclasses.dataclass(frozen=True)
class HandCard:
    """One card of the hand row: the move it plays and how it looks."""

    move: Any
    rank: str
    suit: str = ""
    key: str = ""
    legal: bool = True
    name: str = ""  # the card's one name (tooltips, "you chose ..."); defaults to the rank
    is_card: bool = True  # False for a choice that is not a card (who takes a Goose's trick)

    def label(self) -> str:
        return self.name or self.rank


def options_from_dataclass(rules_class: type[Rules]) -> list[OptionSpec]:
    """Guess an options panel from a rules dataclass: bools, ints and strings.

    A game view lists its options by hand when it knows the allowed choices;
    this is the fallback that makes every new game configurable at once.
    """
    specs = []
    hints = typing.get_type_hints(rules_class)
    for field in dataclasses.fields(rules_class):
        kind = {bool: "bool", int: "int", str: "text"}.get(hints.get(field.name), None)
        if kind is None and isinstance(field.default, (bool, int, str)):
            kind = {bool: "bool", int: "int", str: "text"}[type(field.default)]
        if kind:
            specs.append(OptionSpec(field.name, field.name.replace("_", " ").capitalize(), kind))
    return specs


class GameView:
    """Draws any game of the protocol plainly; subclasses draw their own game."""

    game = ""
    title = "Game"
    blurb = ""
    confirm = True  # simultaneous bids: choose a card, then confirm
    confirm_label = "Confirm card"  # the confirm button, in the game's words ("Confirm bid" where cards are bids)
    app_options: dict = {}  # the options an app opens with
    bot_preference: tuple[str, ...] = ("random",)

    # -- options -----------------------------------------------------------
    def option_specs(self, rules_class: type[Rules]) -> list[OptionSpec]:
        return options_from_dataclass(rules_class)

    def rules_text(self, rules: Rules) -> str:
        """One line on the rules in play, under the board's title, from the options (``""``: none); the same
        words the classroom pages and command line use (:func:`gopskit.games.wording.rules_line`)."""
        return rules_line(rules)

    def option_help(self, spec: OptionSpec, rules: Rules) -> str:
        """An option's explanation under the rules now chosen (shown under its control and as its tooltip):
        ``spec.help``, and for a choice what the chosen value does."""
        return spec.explain(getattr(rules, spec.name, None))

    def settle_options(self, values: dict) -> dict:
        """The panel's options as the rules should get them (a game whose options depend on each other adjusts them)."""
        return values

    # -- the human's hand --------------------------------------------------
    def hand(self, state: GameState, seat: int) -> list[HandCard]:
        """The cards of ``seat``'s hand row, legal ones clickable."""
        return [HandCard(m, str(m), "", _key(m), True, name=str(m)) for m in state.legal_moves(seat)]

    def face_down_hand(self, state: GameState, seat: int) -> list[HandCard]:
        """The hand row while it is face down (a hot seat before "Show my hand"): one back per card held.
        The hand row itself by default; a game whose row lists a card twice (two ways to play it) lists it once."""
        return self.hand(state, seat)

    def prompt(self, state: GameState, seat: int, names: list[str]) -> str:
        return f"{names[seat]}: choose a card."

    def choice_title(self, state: GameState, seat: int, names: list[str]) -> str:
        """The title over a row of choices that are not cards."""
        return f"{names[seat]}: choose"

    # -- the table ---------------------------------------------------------
    def render_table(self, state: GameState, viewer: int | None, names: list[str]) -> str:
        scores = _visible_scores(state, viewer)
        return render_scoreboard(names, scores, state.winners())

    def render_last(self, state: GameState, viewer: int | None, names: list[str]) -> str:
        """The last decided turn: who played what and why who won (empty before the first)."""
        event = last_event(state)
        return f'<div class="gopskit-reveal">{escape(event.explain(names))}</div>' if event else ""

    def explain_last(self, state: GameState, names: list[str]) -> str:
        event = last_event(state)
        return event.explain(names) if event else ""

    def history(self, state: GameState, viewer: int | None, names: list[str]) -> tuple[list[str], list[list[str]]]:
        """The turn history as a header row and rows of short HTML cells."""
        return ["Turn", "What happened"], [[str(i), escape(line)] for i, line in enumerate(_event_lines(state, names), 1)]

    chart_title = "Points over the turns"
    chart_axis = "turn"
    winner_rule = ""  # why the winner wins when it is not simply the top score (said at the end, every time)

    def winner_rule_text(self, rules: Rules) -> str:
        """Why the winner wins under ``rules`` when it is not simply the top score (``""``: the top score wins)."""
        return self.winner_rule

    def end_rule_text(self, state: GameState) -> str:
        """The winner rule the end screen gives: a match cut off at its cap goes by the game's
        plain rule on the totals (Gooseberry Fool's 'reach' ending then falls back to the middling score)."""
        return self.winner_rule if self.cut_off_text(state) else self.winner_rule_text(state.rules)

    deal_word = "deal"  # what one deal of a match is called on this board ("hand" in Goofspiel)

    def cut_off_text(self, state: GameState) -> str:
        """Why a match to a target ended before anyone reached it: its cap of deals (``""`` otherwise).

        The engine decides (:meth:`MatchState.cut_off`); the winners are then whoever the
        rules favour on the totals at that moment, which the end screen says in so many words.
        """
        if not (isinstance(state, MatchState) and state.cut_off()):
            return ""
        played = counted(len(state.hands), self.deal_word)
        return f"Match cut off at its cap of {played}, before the target of {_number(state.rules.target)} decided it."

    def points_by_turn(self, state: GameState) -> list[list[float]]:
        """Each player's score after every turn, starting from 0 (for the summary chart).

        Match totals of the finished hands plus the hand being played, as
        :meth:`hand_scores` counts it after each of its events.
        """
        hands = state.hands if isinstance(state, MatchState) else [state]
        players = state.rules.num_players
        series = [[0.0] for _ in range(players)]
        banked = [0.0] * players
        for hand in hands:
            events = [e for e in getattr(hand, "events", []) if e is not None]
            running = self.hand_scores(hand, events)
            if running is None:  # the view cannot say: no chart rather than a wrong one
                return [[0.0] for _ in range(players)]
            for k, now in enumerate(running):
                if k == len(running) - 1 and hand.is_terminal():
                    now = state.rules.hand_points(hand) if isinstance(state, MatchState) else hand.scores()
                for p in range(players):
                    series[p].append(float(banked[p] + now[p]))
            if hand.is_terminal() and isinstance(state, MatchState):
                banked = [b + float(x) for b, x in zip(banked, state.rules.hand_points(hand))]
        return series

    def hand_scores(self, hand: GameState, events: list) -> list[list[float]] | None:
        """The hand's score after each of its events, counted from the events by each game's view;
        ``None`` here, where nothing is known about the game (the board then draws no chart)."""
        return None

    def summary(self, state: GameState, names: list[str]) -> str:
        return render_summary(names, state.scores(), state.winners(), rule=self.end_rule_text(state),
                              cut_off=self.cut_off_text(state))


# ------------------------------------------------------------- helpers ---
def _key(move) -> str:
    if isinstance(move, int) and 1 <= move <= 13:
        return KEYS.get(move, str(move))
    return ""


def all_events(state: GameState) -> list:
    """Every event that decided something, through all hands of a match."""
    hands = state.hands if isinstance(state, MatchState) else [state]
    return [e for hand in hands for e in getattr(hand, "events", []) if e is not None]


def last_event(state: GameState):
    """The latest event that decided something, or ``None`` before the first."""
    events = all_events(state)
    return events[-1] if events else None


def _event_lines(state: GameState, names: list[str]) -> list[str]:
    return [e.explain(names) for e in all_events(state)]


def match_over(state: GameState) -> bool:
    """True once a match (several hands) is over: its panels then show the final match totals."""
    return isinstance(state, MatchState) and state.is_terminal()


def score_label(state: GameState, word: str) -> str:
    """What a seat panel's big number is in a match: ``this hand`` while one is played, ``match total`` at the
    end (``""`` for a single game, where there is only one score). ``word`` is the board's ``deal_word``."""
    if not isinstance(state, MatchState):
        return ""
    return "match total" if state.is_terminal() else f"this {word}"


def match_line_text(state: GameState, names: list[str], word: str) -> str:
    """The caption under a match's table, from the engine's :class:`MatchState`: the hand being played and the
    totals before it, or at the end the final match totals and what the last hand added (``""`` for one game)."""
    if not isinstance(state, MatchState):
        return ""
    if state.is_terminal():
        totals = ", ".join(f"{n} {_number(t)}" for n, t in zip(names, state.scores()))
        last = ", ".join(f"{n} {_number(t)}" for n, t in zip(names, state.rules.hand_points(state.hand)))
        played = counted(len(state.hands), word)
        return f"Match over after {played}. Final match totals: {totals} (the last {word} added {last})."
    totals = ", ".join(f"{n} {_number(t)}" for n, t in zip(names, state.observation(0).match_scores or ()))
    return f"{word.capitalize()} {len(state.hands)}; match totals before this {word}: {totals}"


def hand_over_text(state: GameState, names: list[str], word: str) -> str:
    """``Hand 2 over: ...`` when a match has just dealt its next hand (no turn of it played yet): what the
    finished hand added to each total and the totals now, from the engine (``""`` otherwise)."""
    if not isinstance(state, MatchState) or len(state.hands) < 2 or state.hand.is_terminal():
        return ""
    if [e for e in getattr(state.hand, "events", []) if e is not None]:
        return ""
    done = state.hands[-2]
    points = ", ".join(f"{n} {_number(t)}" for n, t in zip(names, state.rules.hand_points(done)))
    totals = ", ".join(f"{n} {_number(t)}" for n, t in zip(names, state.scores()))
    return f"{word.capitalize()} {len(state.hands) - 1} over: {points} this {word}; match totals now {totals}."


def _visible_scores(state: GameState, viewer: int | None):
    obs = state.observation(viewer if viewer is not None else 0)
    scores = getattr(obs, "scores", None)
    if hasattr(obs, "scores") and scores is None and not state.is_terminal():
        return None
    return state.scores()


def render_scoreboard(names: list[str], scores, winners=()) -> str:
    """A row of name and score boxes; ``scores`` ``None`` shows question marks (hidden piles).

    >>> "gopskit-leader" in render_scoreboard(["You", "Bot"], [3, 1], [0])
    True
    """
    cells = []
    for p, name in enumerate(names):
        score = "?" if scores is None else _number(scores[p])
        lead = " gopskit-leader" if p in winners else ""
        cells.append(
            f'<div class="gopskit-scorebox{lead}"><div class="gopskit-name">{escape(name)}</div>'
            f'<div class="gopskit-score">{score}</div></div>'
        )
    return '<div class="gopskit-scores">' + "".join(cells) + "</div>"


def render_history_table(headers: list[str], rows: list[list[str]]) -> str:
    """An HTML table; cells are already HTML. Empty before the first turn.

    >>> render_history_table(["Turn"], [])
    ''
    >>> render_history_table(["Turn"], [["1"]]).count("<tr")
    2
    """
    if not rows:
        return ""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="gopskit-history"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _why(scores, winners, rule: str) -> str:
    """``rule`` in brackets: why the winners won, for a game whose view gives a reason
    (:meth:`GameView.end_rule_text`: Gooseberry Fool's middling score, said every time, top or not)."""
    if not rule or not winners:
        return ""
    return f" ({rule})"


def _verdict(names: list[str], scores, winners, rule: str, cut_off: str) -> str:
    """Who won, with the rule when the winner is not on top and "on the totals at the cut-off" when
    the match stopped at its cap (the winners then lead, not reached the target)."""
    when = " on the totals at the cut-off" if cut_off else ""
    if len(winners) == 1:
        return f"{names[winners[0]]} wins{when}{_why(scores, winners, rule)}!"
    if winners:
        return f"A tie{when} between " + and_list(names[p] for p in winners) + f"{_why(scores, winners, rule)}."
    return "Game over."


def render_summary(names: list[str], scores, winners, chart: str = "", extra: str = "", rule: str = "",
                   cut_off: str = "") -> str:
    """The end-of-game box: the winner(s), every score, and an optional chart (SVG).

    ``rule`` says why a winner without the highest score wins (Gooseberry Fool's middling total);
    ``cut_off`` is the sentence saying a match stopped at its cap of deals (:meth:`GameView.cut_off_text`).
    """
    headline = _verdict(names, scores, winners, rule, cut_off)
    note = f'<p class="gopskit-cut-off">{escape(cut_off)}</p>' if cut_off else ""
    table = "".join(
        f'<li class="{"gopskit-leader" if p in winners else ""}">{escape(n)}: <b>{_number(s)}</b></li>'
        for p, (n, s) in enumerate(zip(names, scores))
    )
    return (
        f'<div class="gopskit-summary"><h3>{escape(headline)}</h3>{note}<ul>{table}</ul>{extra}'
        f'<div class="gopskit-chart">{chart}</div></div>'
    )


def final_status(names: list[str], scores, winners, rule: str = "", cut_off: str = "") -> str:
    """The status line at the end of a game, naming every score and the winner.

    >>> final_status(["Player 1", "Player 2"], [9, 6], [0])
    'Game over. Final score: Player 1 9, Player 2 6. Player 1 wins!'
    >>> final_status(["A", "B", "C"], [9, 6, 2], [1], rule="the middling total wins")
    'Game over. Final score: A 9, B 6, C 2. B wins (the middling total wins)!'
    >>> final_status(["A", "B"], [9, 6], [0], cut_off="Match cut off at its cap of 2 hands, before the target of 50 decided it.")
    'Match cut off at its cap of 2 hands, before the target of 50 decided it. Final score: A 9, B 6. A wins on the totals at the cut-off!'
    """
    score_text = ", ".join(f"{n} {_number(s)}" for n, s in zip(names, scores))
    opening = cut_off or "Game over."
    return f"{opening} Final score: {score_text}. {_verdict(names, scores, winners, rule, cut_off)}"


def _number(value) -> str:
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:g}"


def face(rank: str, suit: str = "", **kwargs) -> str:
    """Shorthand for :func:`gopskit.widgets.cards.render_card`."""
    return render_card(rank, suit, **kwargs)
