"""The options panel and the seat chooser of every board (ipywidgets).

Options are described by :class:`~gopskit.widgets.views.base.OptionSpec`
(pure data); this module builds one control per option, reads them back into
a rules object, and offers each seat "Human" or any bot that can play.
"""

from __future__ import annotations

import re
from html import escape

import ipywidgets as widgets
import traitlets

from ..agents import agent_class, agent_names, make_agent
from ..errors import GopsError, OptionError
from .seats import bot_label
from .views.base import OptionSpec

HUMAN = "human"
_WIDE = widgets.Layout(width="auto", min_width="220px")
_STYLE = {"description_width": "initial"}


class _NumberText(traitlets.Unicode):
    """A number box's text: what the person typed, kept as typed (a number set from Python becomes its text)."""

    def validate(self, obj, value):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        return super().validate(obj, value)


class NumberBox(widgets.Text):
    """A box for a whole number that never changes what was typed (a ``BoundedIntText`` silently clamps 14 to
    13 and shows ``2.5`` while holding 2): :func:`read_control` refuses what is out of range, naming the label."""

    value = _NumberText("", help="the text typed in the box").tag(sync=True)


def short_label(spec: OptionSpec) -> str:
    """A control's label without its bracketed hint, as messages name it: ``Match to`` for ``Match to (0: one hand)``."""
    return spec.label.split(" (")[0]


def option_control(spec: OptionSpec, value) -> widgets.Widget:
    """One control for one option, set to ``value``."""
    common = {"description": spec.label, "style": _STYLE, "layout": _WIDE, "tooltip": spec.help}
    if spec.kind == "bool":
        control = widgets.Checkbox(value=bool(value), indent=False, **common)
    elif spec.kind == "choice":  # each choice by its label, the rules' value behind it
        choices = list(spec.choices)
        if value not in choices:
            choices.append(value)
        control = widgets.Dropdown(options=[(spec.choice_label(c), c) for c in choices], value=value, **common)
    elif spec.kind == "seat":  # a seat number, shown as the boards name players: Player 1 is seat 0
        seats = [(f"Player {k + 1}", k) for k in range(spec.low, spec.high + 1)]
        control = widgets.Dropdown(options=seats, value=int(value or 0), **common)
    elif spec.kind in ("int", "optional-int"):
        number = 0 if value is None else int(value)
        control = NumberBox(value=str(number), **common)
    else:
        control = widgets.Text(value="" if value is None else str(value), **common)
    control.add_class("gopskit-option")
    return control


class HintedControl(widgets.VBox):
    """A control with its option's explanation shown under it, as on every options form of the kit
    (a board's panel, the teacher's room form): a tooltip alone is never seen on a projector."""

    def __init__(self, control: widgets.Widget, hint: str = ""):
        self.control, self.hint = control, widgets.HTML()
        super().__init__([control, self.hint], layout=widgets.Layout(width="auto", max_width="100%"))
        self.add_class("gopskit-hinted")
        self.set_hint(hint)

    def set_hint(self, text: str) -> None:
        """Show ``text`` under the control (and as its tooltip)."""
        self.control.tooltip = text or None
        self.hint.value = f'<div class="gopskit-hint">{escape(text)}</div>' if text else ""
        self.hint.layout.display = None if text else "none"


def read_control(spec: OptionSpec, control: widgets.Widget):
    """The option value a control holds (an optional number 0 means "none").

    A number box holds text: anything but a whole number from ``spec.low`` to ``spec.high`` raises
    :class:`~gopskit.errors.OptionError` naming the control's label and the allowed range."""
    value = control.value
    if spec.kind in ("int", "optional-int"):
        text = str(value).strip()
        if spec.kind == "optional-int" and text == "":
            return None
        if not re.fullmatch(r"[+-]?\d+", text) or not spec.low <= int(text) <= spec.high:
            typed = f"“{text}”" if text and not re.fullmatch(r"[+-]?\d+(\.\d*)?", text) else (text or "an empty box")
            raise OptionError(f"{short_label(spec)}: a whole number from {spec.low} to {spec.high}, not {typed}")
        number = int(text)
        return (number or None) if spec.kind == "optional-int" else number
    return value


def _shown_value(spec: OptionSpec, raw: str) -> str:
    """An option's value as the panel shows it, from the Python text of an engine message (``True``, ``'rebid'``, ``1``)."""
    raw = raw.strip("'\"")
    if spec.kind == "bool":
        return {"True": "ticked", "False": "unticked"}.get(raw, raw)
    if spec.kind == "seat" and raw.isdigit():
        return f"Player {int(raw) + 1}"
    if spec.kind == "choice":  # the drop-down's words, never the rules' value ('rebid' is “Bid again”)
        return next((f"“{label}”" for v, label, _m in spec.words if str(v) == raw), raw)
    if spec.kind == "optional-int" and raw == "None":
        return "0"
    return raw


def panel_message(text: str, specs: list[OptionSpec]) -> str:
    """An engine message about options, reworded for the panel: option names become the labels of its controls
    (``rebid_open`` -> “Rebid open to all”, ``set defeat_the_dealer=True`` -> tick “Defeat the dealer”,
    ``dealer=1`` -> “First dealer” = Player 2). The engine keeps its own words for API users."""
    value = r"('[^']*'|\"[^\"]*\"|-?\d+|True|False|None)"
    for spec in sorted(specs, key=lambda s: -len(s.name)):
        name, label = re.escape(spec.name), f"“{short_label(spec)}”"
        show = lambda m, spec=spec: _shown_value(spec, m.group(1))  # noqa: E731
        if spec.kind == "bool":
            text = re.sub(rf"\bset {name}=True\b", f"tick {label}", text)
            text = re.sub(rf"\bset {name}=False\b", f"untick {label}", text)
            text = re.sub(rf"\bleave {name} off\b", f"leave {label} unticked", text)
        text = re.sub(rf"\bset {name}={value}", lambda m: f"set {label} to {show(m)}", text)
        text = re.sub(rf"\bleave {name} at {value}", lambda m: f"leave {label} at {show(m)}", text)
        text = re.sub(rf"\b{name}={value}", lambda m: f"{label} = {show(m)}", text)
        text = re.sub(rf"\({name} None\)", f"({label} 0)", text)
        if spec.kind == "seat":  # a seat out of range: the players' names, not seat numbers from 0
            text = re.sub(rf"\boption {name} must be a whole number from (\d+) to (\d+), not (-?\d+)",
                          lambda m: f"{label} must be {_seat_range(int(m[1]), int(m[2]))}, not Player {int(m[3]) + 1}"
                          f" (the game has {int(m[2]) + 1} players)", text)
        text = re.sub(rf"\boption {name}\b", label, text)
        text = re.sub(rf"^{name}\b", label, text)  # a message that starts with an option's name is about it
        if "_" in spec.name:  # a bare Python name; plain words (players, target) stay words
            text = re.sub(rf"\b{name}\b", label, text)
    for spec in specs:  # a choice's value quoted on its own ("the 'rebid' tie rule") in the drop-down's words
        for v, label, _meaning in spec.words if spec.kind == "choice" else ():
            text = text.replace(f"'{v}'", f"“{label}”")
    return text


def _seat_range(low: int, high: int) -> str:
    """Seats ``low`` to ``high`` as the boards name players: ``Player 1 or Player 2``, ``Player 1 to Player 4``."""
    joiner = " or " if high - low == 1 else " to "
    return f"Player {low + 1}" if low == high else f"Player {low + 1}{joiner}Player {high + 1}"


def seat_notes(bots, rules, short: bool = False) -> list[str]:
    """What the bots ``bots`` say of how they play ``rules`` (:meth:`Agent.seat_note`), each sentence once."""
    notes: list[str] = []
    for bot in bots:
        note = bot.seat_note(rules, short) if hasattr(bot, "seat_note") else None
        if note and note not in notes:
            notes.append(note)
    return notes


def seat_notes_html(notes) -> str:
    """The seat notes as a board shows them, under its title or its seat choosers."""
    return "".join(f'<div class="gopskit-seat-note">{escape(note)}</div>' for note in notes)


class OptionsPanel(widgets.VBox):
    """The controls for a game's options, plus one seat chooser per player."""

    def __init__(self, rules_class, specs: list[OptionSpec], options: dict, seats: list[str], bot_preference=(),
                 settle=None, default_bots=(), help_for=None):
        super().__init__()
        self.rules_class = rules_class
        self.settle = settle or (lambda values: values)  # the view's say on options that depend on each other
        self.specs = [s for s in specs if s.name in rules_class.option_names()]
        defaults = rules_class()
        self.controls = {
            s.name: option_control(s, options.get(s.name, getattr(defaults, s.name))) for s in self.specs
        }
        self.bot_preference = tuple(bot_preference)
        self.default_bots = tuple(default_bots) or self.bot_preference  # the order new seats are filled in
        self.help_for = help_for or (lambda spec, rules: spec.help)  # a tooltip that depends on the other options
        self._seat_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._seat_box.add_class("gopskit-seat-choosers")
        self.seat_controls: list[widgets.Dropdown] = []
        self._message = widgets.HTML()
        self._seat_notes = widgets.HTML()  # what a seated bot says of how it plays these rules
        for control in self.controls.values():
            control.observe(self._options_changed, "value")
        self.hinted = {name: HintedControl(control) for name, control in self.controls.items()}
        grid = widgets.HBox(list(self.hinted.values()), layout=widgets.Layout(flex_flow="row wrap"))
        grid.add_class("gopskit-option-grid")
        self.children = [grid, widgets.HTML("<b>Seats</b> (a person or a bot)"), self._seat_box, self._seat_notes,
                         self._message]
        self.add_class("gopskit-options")
        self._dealer_shown()
        self._fit_seat_choices()
        self._set_seats(seats)
        self._set_help()

    def values(self) -> dict:
        """The options as chosen now (every option the panel shows)."""
        return {s.name: read_control(s, self.controls[s.name]) for s in self.specs}

    def rules(self):
        """The rules the panel describes; raises :class:`~gopskit.errors.OptionError` if they are not valid."""
        return self.rules_class.from_options(self.settle(self.values()))

    def message(self, exc: Exception) -> str:
        """An error about the options in the panel's words (its labels, not the rules' Python names)."""
        return panel_message(str(exc), self.specs)

    def seats(self) -> list[str]:
        return [c.value for c in self.seat_controls]

    def _fit_seat_choices(self) -> None:
        """A seat drop-down (“First dealer”) offers the players at the table, not every seat the rules allow:
        with 2 players it lists Player 1 and Player 2. A seat already chosen beyond them stays listed, so the
        message under the panel can say why it does not fit."""
        players = self._players_now()
        for spec in self.specs:
            control = self.controls[spec.name]
            if spec.kind != "seat" or players is None or not hasattr(control, "options"):
                continue
            last = max(spec.low, min(spec.high, players - 1))
            value = control.value
            seats = list(range(spec.low, last + 1)) + ([value] if value is not None and value > last else [])
            wanted = tuple((f"Player {k + 1}", k) for k in seats)
            if tuple(control.options) != wanted:
                self._fitting = True
                try:
                    control.options = wanted
                    control.value = value
                finally:
                    self._fitting = False

    def _players_now(self) -> int | None:
        """How many players the panel's options seat now (``None`` if its Players box holds no valid number)."""
        spec = next((s for s in self.specs if s.name == "players"), None)
        if spec is None:
            return getattr(self.rules_class(), "num_players", None)
        try:
            return read_control(spec, self.controls["players"])
        except OptionError:
            return None

    def _dealer_shown(self) -> None:
        """“First dealer” matters only in Defeat the Dealer: where a game has that switch, the control shows only
        while it is ticked (as on the teacher's form)."""
        if "dealer" in self.hinted and "defeat_the_dealer" in self.controls:
            self.hinted["dealer"].layout.display = None if self.controls["defeat_the_dealer"].value else "none"

    def _options_changed(self, _change=None):
        if getattr(self, "_fitting", False):
            return
        self._dealer_shown()
        self._fit_seat_choices()
        try:
            rules = self.rules()
        except (GopsError, TypeError) as exc:
            self._message.value = f'<span class="gopskit-error">{escape(self.message(exc))}</span>'
            self._set_help()
            return
        self._message.value = ""
        self._set_seats(self.seats(), rules)
        self._set_help(rules)

    def _set_help(self, rules=None) -> None:
        """Each control's explanation as the rules now chosen make it (Ace high: what the Ace is worth with
        this many cards; a drop-down: what its chosen value does)."""
        try:
            rules = rules or self.rules()
        except (GopsError, TypeError):  # options that do not go together: each says what its own value does
            for spec in self.specs:
                self.hinted[spec.name].set_hint(spec.explain(self.controls[spec.name].value))
            return
        for spec in self.specs:
            self.hinted[spec.name].set_hint(self.help_for(spec, rules))

    def _set_seats(self, wanted: list[str], rules=None):
        if rules is None:
            try:
                rules = self.rules()
            except (GopsError, TypeError):
                return
        bots = agent_names(rules)
        choices = [(bot_label(HUMAN), HUMAN)] + [(bot_label(name), name) for name in bots]
        values: list[str] = []
        for p in range(rules.num_players):
            w = wanted[p] if p < len(wanted) else None
            values.append(w if w == HUMAN or w in bots else self._next_bot(values, bots))
        old, self.seat_controls = self.seat_controls, [
            widgets.Dropdown(options=choices, value=v, description=f"Player {p + 1}", style=_STYLE,
                             layout=widgets.Layout(width="auto", min_width="200px"))
            for p, v in enumerate(values)
        ]
        for control in self.seat_controls:
            control.observe(lambda _change, rules=rules: self._show_seat_notes(rules), "value")
        self._seat_box.children = self.seat_controls
        for control in old:  # drawn again: the old choosers are closed, not left in the kernel
            control.close()
        self._show_seat_notes(rules)

    def _show_seat_notes(self, rules) -> None:
        """Under the seats, what each bot chosen says of how it plays these rules (:meth:`Agent.seat_note`)."""
        bots = [make_agent(name) for name in dict.fromkeys(self.seats()) if name != HUMAN]
        self._seat_notes.value = seat_notes_html(seat_notes(bots, rules))

    def _next_bot(self, seated: list[str], bots: list[str]) -> str:
        """The bot for an empty seat: the view's default bots in turn, then the other bots that can play;
        a deterministic bot sits at most once (copies of it bid alike, cancel each other out and hand a
        person every prize), so once every bot is seated the empty seats go to the random ones."""
        order = [b for b in self.default_bots if b in bots] + [b for b in bots if b not in self.default_bots]
        fresh = [b for b in order if b not in seated]
        repeatable = [b for b in order if agent_class(b).classifier.get("stochastic")]
        return (fresh or repeatable or order or [HUMAN])[0]
