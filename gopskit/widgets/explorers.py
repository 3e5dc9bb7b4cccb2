"""The explorers: payoff matrices, Goofspiel's optimal bids, learning dynamics.

Each explorer is a view (docs/architecture.md, layers): controls in, a status line, an
HTML picture out; :meth:`reset` puts the controls back to how it opened. The
numbers come from :mod:`gopskit.widgets.explore_data` and the solvers, the
figures from :mod:`gopskit.viz.figures`, and every number on screen is
written by :mod:`gopskit.numbers`. An error replaces what was shown: a
picture never stays under a message saying its input was refused.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets
import numpy as np
import traitlets

from ..cards import rank_name
from ..errors import GopsError
from ..numbers import number, signed, significant
from ._guard import guarded
from .assets import style_html
from .views.goofspiel import TIE_CHOICES
from .explore_data import (
    ALGORITHMS, FULL_DECK, bid_table, full_deck_solution, goofspiel_solution, learning_trace, matrix_report, matrix_text,
    mix_text, parse_cards, parse_labelled_matrix, preset, preset_names, render_matrix_html, steps_text, survivors_after,
)

_WIDE = widgets.Layout(width="auto", min_width="240px")
_STYLE = {"description_width": "initial"}


class Explorer(widgets.VBox):
    """Shared parts: a title, a status line (``gopskit-status``), a picture area."""

    status = traitlets.Unicode("")
    last_click_ms = traitlets.Float(0.0)

    def __init__(self, title: str, intro: str):
        super().__init__()
        self.last_error = None
        self._status = widgets.HTML()
        self._status.add_class("gopskit-status")
        self._header = widgets.HTML(f'<div class="gopskit-title"><span class="gopskit-game">{escape(title)}</span>'
                                    f'<span class="gopskit-rules-line">{escape(intro)}</span></div>')
        self._picture = widgets.HTML()
        self._picture.add_class("gopskit-picture")
        self.add_class("gopskit-board")

    def _arrange(self, *rows):
        self.children = [widgets.HTML(style_html()), self._header, *rows, self._status, self._picture]

    def _say(self, text: str, error: bool = False) -> None:
        self.status = text
        cls = "gopskit-status-text gopskit-error" if error else "gopskit-status-text"
        self._status.value = f'<div class="{cls}">{escape(text)}</div>'

    crash_advice = ""

    def _show_error(self, text: str) -> None:
        self._clear()
        self._say(text, error=True)

    def _clear(self) -> None:
        """Remove every output drawn from the last good input (subclasses add theirs)."""
        self._picture.value = ""

    def _record_click_ms(self, ms: float) -> None:
        self.last_click_ms = ms


def _svg(fig) -> str:
    from ..viz.figures import figure_to_svg

    return f'<div class="gopskit-figure">{figure_to_svg(fig)}</div>'


# ------------------------------------------------------------ matrices ---
class MatrixExplorer(Explorer):
    """Pick or type a zero-sum game; step through dominance; see the equilibrium and the best-response lines."""

    def __init__(self, game: str = "Dominated strategies fall away"):
        super().__init__("Payoff-matrix explorer", "zero-sum games: the numbers are what the row player wins")
        self._initial = game
        self.game = widgets.Dropdown(options=preset_names() + ["Type your own"], value=game, description="Game",
                                     style=_STYLE, layout=_WIDE)
        self.text = widgets.Textarea(description="Payoffs", placeholder="1 -1\n-1 1", style=_STYLE,
                                     layout=widgets.Layout(width="auto", min_width="24em", height="8em"))
        self.steps = widgets.IntSlider(value=0, min=0, max=0, description="Steps shown", style=_STYLE)
        self.play = widgets.Play(interval=1200, min=0, max=0)
        widgets.jslink((self.play, "value"), (self.steps, "value"))
        self.solve_button = widgets.Button(description="Use my matrix", icon="calculator", layout=widgets.Layout(width="auto"))
        self.solve_button.add_class("gopskit-new-game")
        self._table = widgets.HTML()
        self._summary = widgets.HTML()
        self.game.observe(lambda _c: self.refresh(), "value")
        self._quiet = False
        self.steps.observe(lambda _c: None if self._quiet else self._draw_steps(), "value")
        self.solve_button.on_click(lambda _b: self.refresh(custom=True))
        self._arrange(widgets.HBox([self.game, self.text, self.solve_button], layout=widgets.Layout(flex_flow="row wrap")),
                      widgets.HBox([self.play, self.steps]), widgets.HBox([self._table, self._summary],
                                                                          layout=widgets.Layout(flex_flow="row wrap")))
        self.report, self.labels = None, ((), ())
        self.refresh()

    def reset(self) -> None:
        self.game.value = self._initial
        self.refresh()

    @guarded
    def refresh(self, custom: bool = False) -> None:
        if custom and self.game.value != "Type your own":
            self.game.value = "Type your own"  # its observer refreshes with the typed matrix
            return
        if self.game.value == "Type your own":
            payoffs, rows, cols = parse_labelled_matrix(self.text.value)  # an empty box is refused
            if rows is None:  # plain numbers: keep the names on screen if the shape still fits
                old_rows, old_cols = self.labels
                same = (len(old_rows), len(old_cols)) == payoffs.shape
                rows = old_rows if same else tuple(f"r{i + 1}" for i in range(payoffs.shape[0]))
                cols = old_cols if same else tuple(f"c{j + 1}" for j in range(payoffs.shape[1]))
            labels = (tuple(rows), tuple(cols))
        else:
            payoffs, *labels = preset(self.game.value)
            self.text.value = matrix_text(payoffs, *labels)
        self.report, self.labels = matrix_report(payoffs), tuple(labels)
        self._quiet = True  # one drawing below, not one per slider change
        try:
            self.steps.max = self.play.max = len(self.report.steps)
            self.steps.value = self.play.value = 0
        finally:
            self._quiet = False
        self._draw_steps()
        self._draw_summary()  # last: once the summary shows the new game, everything else does too

    def _clear(self) -> None:
        super()._clear()
        self.report = None
        self._table.value = self._summary.value = ""

    @guarded
    def _draw_steps(self) -> None:
        """The table, the status and the payoff picture, all of the game as it stands after the steps shown."""
        from ..viz.figures import payoff_lines_figure

        if self.report is None:
            return
        r, (rows, cols), shown = self.report, self.labels, self.steps.value
        live_rows, live_cols = survivors_after(r, shown)
        A = r.payoffs[np.ix_(live_rows, live_cols)]
        fig = payoff_lines_figure(A, -A, [rows[i] for i in live_rows], [cols[j] for j in live_cols],
                                  _renormalised(r.row_mix, live_rows), _renormalised(r.col_mix, live_cols))
        self._picture.value = _svg(fig)
        self._table.value = render_matrix_html(r, rows, cols, shown)
        self._say(steps_text(r, shown))  # the status last: it names the step everything above shows

    def _draw_summary(self) -> None:
        r, (rows, cols) = self.report, self.labels
        size = f"{_count(len(r.rows), 'row')} × {_count(len(r.cols), 'column')}"
        left = (f"Left after {_count(len(r.steps), 'step')} of dominance: {size}." if r.steps
                else f"Nothing is strictly dominated: {'all ' if len(r.rows) * len(r.cols) > 1 else ''}{size} stay.")
        self._summary.value = (
            f'<div class="gopskit-summary"><h3>Value {escape(number(r.value))}</h3>'
            f"<div>Row player plays: {escape(mix_text(r.row_mix, rows))}</div>"
            f"<div>Column player plays: {escape(mix_text(r.col_mix, cols))}</div>"
            f"<div>{escape(left)}</div></div>"
        )


def _renormalised(mix, keep) -> np.ndarray:
    """The equilibrium mix on the strategies still in play (a struck strategy has weight 0 in it)."""
    part = np.asarray(mix, float)[list(keep)]
    return part / part.sum() if part.sum() > 0 else np.full(len(part), 1 / len(part))


def _count(k: int, one: str) -> str:
    return f"{k} {one}" if k == 1 else f"{k} {one}s"


# ------------------------------------------------------------ strategy ---
class StrategyExplorer(Explorer):
    """The optimal bid distribution of a solved deck at any position, as a heat map (bid × prize)."""

    def __init__(self, num_cards: int = 5):
        super().__init__("Goofspiel strategy explorer", "two players, solved exactly: the optimal bid for each prize")
        self._initial = num_cards
        decks = [(str(n), n) for n in range(2, 9)] + [("13, the full deck", FULL_DECK)]
        self.num_cards = widgets.Dropdown(options=decks, value=num_cards, description="Cards", style=_STYLE)
        self.objective = widgets.Dropdown(options=[("most points", "points"), ("win the game", "win")], value="points",
                                          description="Aim", style=_STYLE)
        solved = ("discard", "carry")  # the tie rules the exact solver takes
        self.ties = widgets.Dropdown(options=[(label, value) for value, label, _ in TIE_CHOICES if value in solved],
                                     value="discard", description="Ties", style=_STYLE)
        self.hand = widgets.Text(value="all", description="Your hand", style=_STYLE)
        self.opp_hand = widgets.Text(value="all", description="Opponent's hand", style=_STYLE)
        self.prizes = widgets.Text(value="all", description="Prizes left", style=_STYLE)
        self.lead = widgets.IntText(value=0, description="Your lead (points)", style=_STYLE, layout=widgets.Layout(width="200px"))
        self.pot = widgets.IntText(value=0, description="Carried pot", style=_STYLE, layout=widgets.Layout(width="170px"))
        self.show = widgets.Button(description="Show", icon="search", button_style="primary")
        self.show.add_class("gopskit-new-game")
        self.show.on_click(lambda _b: self.refresh())
        for control in (self.num_cards, self.objective, self.ties):
            control.observe(lambda _c: self.refresh(), "value")
        wrap = widgets.Layout(flex_flow="row wrap")
        self._arrange(widgets.HBox([self.num_cards, self.objective, self.ties], layout=wrap),
                      widgets.HBox([self.hand, self.opp_hand, self.prizes, self.lead, self.pot, self.show], layout=wrap))
        self.table = None
        self.refresh()

    def reset(self) -> None:
        for control, value in ((self.hand, "all"), (self.opp_hand, "all"), (self.prizes, "all"), (self.lead, 0), (self.pot, 0)):
            control.value = value
        self.num_cards.value = self._initial
        self.refresh()

    @guarded
    def refresh(self) -> None:
        from ..viz.figures import heatmap_figure

        n = self.num_cards.value
        hand, opp = parse_cards(self.hand.value, n, "Your hand"), parse_cards(self.opp_hand.value, n, "Opponent's hand")
        prizes = parse_cards(self.prizes.value, n, "Prizes left")
        if self.pot.value < 0 or (self.ties.value == "discard" and self.pot.value):  # said with the controls' words
            why = ("with Ties “Discard the prize” nothing is carried over, so it is 0" if self.ties.value == "discard"
                   else "points carried over from tied turns, 0 or more")
            raise GopsError(f"Carried pot: {why}, not {self.pot.value}")
        lead = self.lead.value
        turned = n * (n + 1) // 2 - sum(prizes)  # the prizes not left were turned before
        if abs(lead) + self.pot.value > turned:  # under either aim: a lead is points won from prizes already turned
            in_pot = f", {self.pot.value} of them in the pot" if self.pot.value else ""
            raise GopsError(f"Your lead (points): {lead} is impossible: only {turned} points were turned "
                            f"before these prizes{in_pot}")
        self._say(f"Solving {n}-card Goofspiel…")
        source = None
        if n == FULL_DECK:
            solution, source = full_deck_solution(self.objective.value, self.ties.value, hand, opp, prizes,
                                                  self.lead.value, self.pot.value)
        else:
            solution = goofspiel_solution(n, self.objective.value, self.ties.value)
        table, values, before = bid_table(solution, hand, opp, prizes, self.lead.value, self.pot.value)
        self.table = table
        text = value_text(before, values, prizes, self.objective.value,
                          symmetric=hand == opp and lead == 0 and self.pot.value == 0, lead=lead)
        self._say(text if source is None else f"{text} (From {source}.)")
        self._picture.value = _svg(heatmap_figure(table, [rank_name(c) for c in hand], [rank_name(c) for c in prizes]))

    def _clear(self) -> None:
        super()._clear()
        self.table = None


def value_text(before: float, values, prizes, objective: str, symmetric: bool = False, lead: int = 0) -> str:
    """The strategy explorer's status line: the position's worth, before and after the prize is turned.

    Under "most points" the worth is the points still to come, whatever the lead: a lead
    changes neither the best bids nor that worth, and the line adds it to say how far
    ahead you expect to finish.

    >>> value_text(0.0, [0.0, 0.0], (1, 2), "points", symmetric=True)[:60]
    'Worth 0 to you before the prize is turned (expected points a'
    >>> value_text(0.5, [1.0, 0.0], (1, 2), "points").split(". ")[1]
    'Once the prize is turned: prize A +1, prize 2 0.'
    >>> value_text(0.0, [0.0, 0.0], (1, 2), "points", lead=5).split(". ")[-1]
    'You are 5 points ahead now, so you expect to finish 5 ahead: under this aim a lead changes no bid.'
    """
    unit = ("expected points ahead from the prizes left" if objective == "points"
            else "chance of winning minus chance of losing")
    text = f"Worth {signed(before)} to you before the prize is turned ({unit}). "
    if all(number(v) == "0" for v in values):
        why = (": both hold the same cards with no lead and no pot, so neither has an edge (symmetry)"
               if symmetric else "")
        text += f"It stays worth 0 whichever prize is turned{why}."
    else:
        text += "Once the prize is turned: " + ", ".join(f"prize {rank_name(p)} {signed(v)}"
                                                         for p, v in zip(prizes, values)) + "."
    if objective == "points" and lead:
        now = f"{abs(lead)} points {'ahead' if lead > 0 else 'behind'}"
        final = lead + before
        finish = "level" if number(final) == "0" else f"{number(abs(final))} {'ahead' if final > 0 else 'behind'}"
        text += f" You are {now} now, so you expect to finish {finish}: under this aim a lead changes no bid."
    return text


# ------------------------------------------------------------ learning ---
class LearningExplorer(Explorer):
    """Animate fictitious play, regret matching or CFR converging, with the exploitability curve."""

    frames = 40

    def __init__(self, game: str = "Biased Rock-Paper-Scissors", algorithm: str = "fictitious play", iterations: int = 300):
        super().__init__("Learning explorer", "how players who learn from experience approach an equilibrium")
        self._initial = (game, algorithm, iterations)
        self.game = widgets.Dropdown(options=preset_names(), value=game, description="Game", style=_STYLE,
                                     layout=widgets.Layout(width="auto", min_width="240px"))
        self.algorithm = widgets.Dropdown(options=[(a[:1].upper() + a[1:], a) for a in ALGORITHMS], value=algorithm, description="Learner", style=_STYLE, layout=_WIDE)
        self.iterations = widgets.IntSlider(value=iterations, min=20, max=2000, step=20, description="Iterations", style=_STYLE)
        self.frame = widgets.IntSlider(value=self.frames, min=1, max=self.frames, description="Frame", style=_STYLE)
        self.play = widgets.Play(interval=500, min=1, max=self.frames, value=self.frames)
        widgets.jslink((self.play, "value"), (self.frame, "value"))
        self.run_button = widgets.Button(description="Run", icon="play", button_style="primary")
        self.run_button.add_class("gopskit-new-game")
        self.run_button.on_click(lambda _b: self.refresh())
        self.frame.observe(lambda _c: self._draw(), "value")
        for control in (self.game, self.algorithm, self.iterations):  # the status says when they no longer match the run
            control.observe(lambda _c: self._controls_changed(), "value")
        wrap = widgets.Layout(flex_flow="row wrap")
        self._arrange(widgets.HBox([self.game, self.algorithm, self.iterations, self.run_button], layout=wrap),
                      widgets.HBox([self.play, self.frame]))
        self.trace = None
        self._controls_changed()
        self.refresh()

    def reset(self) -> None:
        self.game.value, self.algorithm.value, self.iterations.value = self._initial
        self.refresh()

    def _clear(self) -> None:
        super()._clear()
        self.trace = None

    @guarded
    def refresh(self) -> None:
        payoffs, rows, _cols = preset(self.game.value)
        self._say(f"Running {self.iterations.value} iterations of {self.algorithm.value}…")  # CFR+ takes seconds
        game = "" if self._plays_its_own_game() else self.game.value
        self.trace = learning_trace(self.algorithm.value, payoffs, rows, self.iterations.value, game=game)
        self.frame.value = self.play.value = self.frames
        self._draw()

    def _plays_its_own_game(self) -> bool:
        """CFR+ learns the Goofspiel named in its own name: the Game control plays no part."""
        return self.algorithm.value.startswith("CFR")

    def _controls_changed(self) -> None:
        self.game.disabled = self._plays_its_own_game()
        self.game.layout.display = "none" if self.game.disabled else None  # its own Layout: hides nothing else
        self._draw()

    def pending(self) -> str:
        """What Run would run now, if that is not the run on screen; else ``""``."""
        t = self.trace
        if t is None:
            return ""
        game = "" if self._plays_its_own_game() else self.game.value
        wanted = f"{self.algorithm.value} on {game}" if game else self.algorithm.value
        if (self.algorithm.value, game, self.iterations.value) == (t.algorithm, t.game, t.runs):
            return ""
        return f"{self.iterations.value} iterations of {wanted}"

    @guarded
    def _draw(self) -> None:
        from ..viz.figures import convergence_figure

        t = self.trace
        if t is None:
            return
        upto = max(1, round(len(t.iterations) * self.frame.value / self.frames))
        pending = self.pending()
        note = f" Shown: the last run. Press Run for {pending}." if pending else ""
        heading = t.title()[:1].upper() + t.title()[1:]  # a sentence and a chart title start with a capital
        self._say(f"{heading}: iteration {t.iterations[upto - 1]} of {t.iterations[-1]} "  # the slider counts frames
                  f"(frame {self.frame.value} of {self.frames}), "
                  f"exploitability {significant(t.exploitability[upto - 1], 3)}" +
                  ("" if t.strategies is None else
                   f"; row player's mix: {mix_text(t.strategies[upto - 1], t.labels, places=3)}")
                  + ("." if note else "") + note)
        fig = convergence_figure(t.iterations, t.exploitability, t.strategies, t.labels, upto=upto, title=heading)
        self._picture.value = _svg(fig)
