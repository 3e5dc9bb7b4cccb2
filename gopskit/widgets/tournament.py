"""A tournament in a notebook: pick bots and a folder (or notebook functions), run, read the results.

The widget only arranges: :class:`~gopskit.arena.tournament.Tournament`
plays, :mod:`gopskit.viz.tournament` draws, and :func:`ranking_html` (a pure
function tests can call) writes the table.

>>> from gopskit.widgets.tournament import TournamentApp   # doctest: +SKIP
>>> def strategy(observation):                             # doctest: +SKIP
...     return observation.prize
>>> TournamentApp(functions=[strategy], bots=["random", "match-prize"])  # doctest: +SKIP
"""

from __future__ import annotations

import html
import io
import pathlib

import ipywidgets as w

from ..agents import agent_names
from ..arena.entries import bot_entry, entries_from_folder, entry_from_function
from ..arena.sandbox import Limits
from ..arena.tournament import Tournament
from ..errors import GopsError
from ..games.goofspiel import Goofspiel
from .assets import style_html


_TABLE_STYLE = (
    "<style>.gopskit-tournament-table{border-collapse:collapse;margin:6px 0}"
    ".gopskit-tournament-table th,.gopskit-tournament-table td{padding:3px 10px;text-align:right;"
    "border-bottom:1px solid #ddd}"
    ".gopskit-tournament-table td:nth-child(2),.gopskit-tournament-table th:nth-child(2),"
    ".gopskit-tournament-table td:last-child,.gopskit-tournament-table th:last-child{text-align:left}</style>"
)


def ranking_html(results) -> str:
    """The ranking, forfeits and play summary of ``results`` as an HTML table."""
    rows = []
    summary = results.play_summary()
    for r in results.ranking():
        exploit = "n/a" if r["exploitability"] is None else f"{r['exploitability']:.2f}"
        mean = "&ndash;" if r["mean_points"] is None else f"{r['mean_points']:.2f}"
        rows.append(
            f"<tr><td>{r['rank']}</td><td><b>{html.escape(r['name'])}</b></td><td>{r['kind']}</td>"
            f"<td>{mean}</td><td>{r['wins']}</td><td>{r['draws']}</td><td>{r['losses']}</td>"
            f"<td>{r['forfeits']}</td><td>{r['opponents_beaten']}</td><td>{exploit}</td>"
            f"<td>{html.escape(summary.get(r['name'], ''))}</td></tr>")
    head = "".join(f"<th>{h}</th>" for h in ("#", "entry", "kind", "mean points", "wins", "draws", "losses",
                                                 "forfeits", "beats", "exploitability", "how it plays"))
    table = (_TABLE_STYLE + "<table class='gopskit-tournament-table'>"
             f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    forfeits = "".join(f"<li><b>{html.escape(f['entry'])}</b>: {f['count']} &times; {html.escape(f['reason'])} "
                       f"&ndash; {html.escape(f['example'])}</li>" for f in results.forfeits())
    if forfeits:
        table += ("<p>Forfeits (the forfeiting entry scores 0, the others the whole hand):</p>"
                  f"<ul>{forfeits}</ul>")
    return table


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return buffer.getvalue()


class TournamentApp(w.VBox):
    """Pick entries and options, press *Run tournament*, read the table and plots.

    ``functions``: strategies written in the notebook (each runs in its own
    sandbox, like a submitted file); ``folder``: a folder of strategy files;
    ``bots``: the bots ticked at the start.
    """

    def __init__(self, functions=(), folder: str = "", bots=("random", "match-prize"), num_cards: int = 13):
        self.functions = list(functions)
        self.results = None
        self.bots = w.SelectMultiple(options=agent_names(Goofspiel()), value=tuple(bots), rows=6,
                                     description="Bots")
        self.folder = w.Text(value=str(folder), description="Folder", placeholder="folder of strategy .py files")
        self.cards = w.IntSlider(value=num_cards, min=3, max=13, description="Cards")
        self.games = w.BoundedIntText(value=20, min=1, max=10_000, description="Games")
        self.seed = w.IntText(value=0, description="Seed")
        self.time_limit = w.BoundedFloatText(value=1.0, min=0.05, max=60, step=0.1, description="Time (s)")
        self.run_button = w.Button(description="Run tournament", button_style="primary", icon="play")
        self.run_button.add_class("gopskit-run")
        self.progress = w.IntProgress(value=0, min=0, max=1, description="Tables")
        self.status = w.HTML("Choose entries and press <b>Run tournament</b>.")
        self.status.add_class("gopskit-status")
        self.table = w.HTML()
        self.plots = w.Tab(children=[w.Image(format="png") for _ in range(3)], layout=w.Layout(display="none"))
        for index, title in enumerate(("Head to head", "Points", "Bids")):
            self.plots.set_title(index, title)
        self.run_button.on_click(lambda _: self.run())
        options = w.VBox([self.folder, self.bots, w.HBox([self.cards, self.games]),
                          w.HBox([self.seed, self.time_limit])])
        header = w.HTML(style_html())  # the boards' stylesheet
        options.add_class("gopskit-form")
        self.table.add_class("gopskit-results")
        super().__init__([header, options, w.HBox([self.run_button, self.progress]), self.status, self.table,
                          self.plots])
        self.add_class("gopskit-board")  # the boards' look (gopskit/widgets/style.css)
        self.add_class("gopskit-tournament")

    def entries(self) -> list:
        """The entries the controls describe (notebook functions, the folder's files, the bots)."""
        entries = [entry_from_function(f) for f in self.functions]
        if self.folder.value.strip():
            entries += entries_from_folder(pathlib.Path(self.folder.value.strip()).expanduser())
        return entries + [bot_entry(name) for name in self.bots.value]

    def run(self):
        """Play the tournament the controls describe; show the results (or what went wrong)."""
        self.run_button.disabled = True
        self.status.value = "Checking the entries and starting their sandboxes&hellip;"
        try:
            tournament = Tournament(Goofspiel(num_cards=self.cards.value), self.entries(), games=self.games.value,
                                    seed=self.seed.value, limits=Limits(time_limit=self.time_limit.value))
            self.progress.max, self.progress.value = len(tournament.tables()), 0
            self.results = tournament.run(progress=False, on_table=self._advance)
        except GopsError as exc:
            self.status.value = f"<span style='color:#b00'>{html.escape(str(exc))}</span>"
            return None
        finally:
            self.run_button.disabled = False
        self.show(self.results)
        return self.results

    def _advance(self, done: int, total: int) -> None:
        self.progress.max, self.progress.value = total, done
        more = " Computing the exploitability and the plots&hellip;" if done == total else ""
        self.status.value = f"Played {done} of {total} tables&hellip;{more}"

    def show(self, results) -> None:
        """Fill the table and the plots from a result set (also for results loaded from disk)."""
        from ..viz.tournament import plot_bidding_profiles, plot_distributions, plot_head_to_head

        self.results = results
        self.table.value = ranking_html(results)
        for image, plot in zip(self.plots.children, (plot_head_to_head, plot_distributions, plot_bidding_profiles)):
            image.value = _png(plot(results))
        self.plots.layout.display = None
        self.status.value = f"Done: {len(results.games)} games."

    def reset(self) -> None:
        """Clear the results (the controls keep their values)."""
        self.results = None
        self.table.value = ""
        self.progress.value = 0
        for image in self.plots.children:
            image.value = b""
        self.plots.layout.display = "none"
        self.status.value = "Choose entries and press <b>Run tournament</b>."


__all__ = ["TournamentApp", "ranking_html"]
