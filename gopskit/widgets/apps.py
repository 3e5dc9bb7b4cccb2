"""The apps of ``notebooks/`` and their landing page (``index.ipynb``).

:data:`APPS` lists every app: its notebook, title, one line, and the cards
its thumbnail shows. :func:`landing_page_html` draws the page as one HTML
string (pure; tested without a browser); :func:`landing_page` wraps it in a
widget for the notebook.

>>> html = landing_page_html()
>>> 'href="goofspiel.ipynb"' in html and 'href="tournament.ipynb"' in html
True
"""

from __future__ import annotations

import dataclasses
from html import escape

from .assets import stylesheet
from .cards import render_card


@dataclasses.dataclass(frozen=True)
class App:
    """One app: ``notebook`` is its file name in ``notebooks/``."""

    notebook: str
    title: str
    line: str
    thumbnail: tuple | str = ()  # (rank, suit) pairs drawn on its card, or an icon: matrix, heatmap, curve, bars


APPS = (
    App("goofspiel.ipynb", "Goofspiel", "Bid for prize cards against a bot: every variant, every tie rule.", (("7", "D"), ("K", "S"), ("5", "H"))),
    App("gops_for_three.ipynb", "Gops for three", "Parlett's three-hand Gops: win the most or the least, with a Joker.", (("JK", ""), ("Q", "D"), ("A", "S"))),
    App("throps.ipynb", "Throps", "Four hands, one a dummy stock: collect one suit.", (("10", "C"), ("J", "H"), ("4", "S"))),
    App("gooseberry_fool.ipynb", "Gooseberry Fool", "A three-player trick game where the odd card out wins.", (("9", "H"), ("9", "S"), ("8", "D"))),
    App("divide_and_conquer.ipynb", "Divide and Conquer", "Open hands: a low card beats a high one it divides.", (("2", "S"), ("Q", "H"), ("5", "C"))),
    App("raj.ipynb", "Raj", "Hol's der Geier: bid 1 to 15 for plus and minus prizes.", (("+10", ""), ("15", ""), ("-5", ""))),
    App("matrix_explorer.ipynb", "Payoff-matrix explorer", "Watch dominated strategies fall away; find the equilibrium.", "matrix"),
    App("strategy_explorer.ipynb", "Goofspiel strategy explorer", "The optimal bid for any position of a solved deck, as a heat map.", "heatmap"),
    App("learning_explorer.ipynb", "Learning explorer", "Fictitious play, regret matching and CFR+ converging, step by step.", "curve"),
    App("tournament.ipynb", "Tournament runner", "Students' strategies and the bots, every one against every other: tables and charts.", "bars"),
    App("classroom.ipynb", "Classroom: join a game",
        "Play your classmates on your own laptop: your name and the room code.", (("A", "S"), ("A", "H"), ("7", "D"))),
    App("classroom-teacher.ipynb", "Classroom: teacher",
        "Open a room, pair the class, watch every table, export the games.", "bars"),
)


_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")


def _thumbnail(app: App) -> str:
    if not isinstance(app.thumbnail, str):
        cards = "".join(render_card(rank, suit, size="small") for rank, suit in app.thumbnail)
        return f'<div class="gopskit-thumb">{cards}</div>'
    return f'<svg viewBox="0 0 180 110" aria-hidden="true">{_ICONS[app.thumbnail]()}</svg>'


def _matrix_icon() -> str:
    cells = "".join(
        f'<rect x="{45 + 30 * j}" y="{8 + 30 * i}" width="28" height="28" fill="{"#dddddd" if i == 2 or j == 2 else "#ffffff"}" '
        f'stroke="#444"/><text x="{59 + 30 * j}" y="{28 + 30 * i}" font-size="14" text-anchor="middle">{v}</text>'
        for i, row in enumerate(((4, 1, 3), (2, 3, 4), (1, 0, 2))) for j, v in enumerate(row)
    )
    return cells + '<line x1="40" y1="82" x2="140" y2="82" stroke="#D55E00" stroke-width="3"/>'


def _heatmap_icon() -> str:
    shades = ("#00204d", "#414d6b", "#7c7b78", "#bcaf6f", "#fde737")
    return "".join(
        f'<rect x="{40 + 20 * j}" y="{5 + 20 * i}" width="20" height="20" fill="{shades[(i * 2 + j * 3) % 5]}"/>'
        for i in range(5) for j in range(5)
    )


def _curve_icon() -> str:
    points = " ".join(f"{10 + 8 * k},{100 - 85 / (1 + 0.6 * k)}" for k in range(21))
    fall = " ".join(f"{10 + 8 * k},{15 + 80 * (1 - 1 / (1 + 0.4 * k))}" for k in range(21))
    return (f'<polyline points="{points}" fill="none" stroke="{_COLOURS[0]}" stroke-width="3"/>'
            f'<polyline points="{fall}" fill="none" stroke="{_COLOURS[1]}" stroke-width="3" stroke-dasharray="6 3"/>'
            '<line x1="6" y1="100" x2="174" y2="100" stroke="#444"/>')


def _bars_icon() -> str:
    bars = "".join(
        f'<rect x="{12 + 26 * i}" y="{100 - h}" width="18" height="{h}" fill="{c}"/>'
        for i, (h, c) in enumerate(zip((40, 70, 55, 85, 30, 62), _COLOURS))
    )
    return bars + '<line x1="6" y1="100" x2="174" y2="100" stroke="#444"/>'


_ICONS = {"matrix": _matrix_icon, "heatmap": _heatmap_icon, "curve": _curve_icon, "bars": _bars_icon}


def landing_page_html(apps=APPS) -> str:
    """The landing page: a title and one linked card per app."""
    cards = "".join(
        f'<a class="gopskit-app-card" href="{escape(a.notebook)}">{_thumbnail(a)}'
        f"<h3>{escape(a.title)}</h3><div>{escape(a.line)}</div></a>"
        for a in apps
    )
    return (
        f"<style>{stylesheet()} .gopskit-thumb {{ display: flex; gap: 6px; justify-content: center; height: 110px; "
        "align-items: center; }</style>"
        '<div class="gopskit-board gopskit-landing"><h1>gopskit: game theory with cards</h1>'
        "<p>Pick an app. Every board opens with you as Player 1 against the game's bots; "
        "its <i>Options and seats</i> button changes the rules and who plays.</p>"
        f'<div class="gopskit-app-grid">{cards}</div></div>'
    )


def landing_page():
    """The landing page as an ipywidgets HTML widget (for a notebook; the app uses :func:`write_index`)."""
    import ipywidgets as widgets

    return widgets.HTML(landing_page_html())


def index_notebook():
    """``index.ipynb``: the landing page as one Markdown cell, so it opens without running any code."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_markdown_cell(landing_page_html())
    cell.pop("id", None)
    nb.cells = [cell]
    nb.nbformat_minor = 4
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}}
    return nb


def write_index(path) -> None:
    """Write ``index.ipynb`` from :data:`APPS` (run after changing the list of apps)."""
    import nbformat

    nbformat.write(index_notebook(), str(path))
