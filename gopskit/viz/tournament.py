"""Pictures of a tournament: data in (a :class:`~gopskit.arena.results.ResultSet`), figure out.

The last of Axelrod's stages (Match -> Tournament -> ResultSet -> Plot).
Every function builds a :class:`matplotlib.figure.Figure` without pyplot, in
the kit's colour-vision-safe palette, with entries in ranking order.

* :func:`plot_head_to_head`: who beats whom, by how much (a heat map);
* :func:`plot_distributions`: each entry's points per game (box plots);
* :func:`plot_bidding_profiles`: how each entry's bid follows the prize.

Each ``plot_*`` names the entries by their names (the identifiers code and the
results files use) unless ``labels`` (``{name: shown}``, such as
:meth:`~gopskit.arena.results.ResultSet.labels`: ``"One-higher bot"``) says otherwise; the
tournament app and ``gopskit tournament --plots`` pass the readable labels.

>>> from gopskit.arena.results import ResultSet
>>> rs = ResultSet("goofspiel", {"num_cards": 3}, 0, 1, [{"name": "a"}, {"name": "b"}],
...     [{"seats": ["a", "b"], "seed": 1, "points": [5, 1], "winners": [0], "forfeits": [],
...       "record": {"game": "goofspiel", "prizes": [3, 1, 2], "bids": [[3, 1], [1, 2], [2, 3]]}}])
>>> plot_head_to_head(rs).axes[0].get_title()
'Head to head: mean points of the row entry minus the column entry'
"""

from __future__ import annotations

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from ..numbers import fixed
from .svg import PALETTE

_LINES = ("-", "--", ":", "-.")

#: Text sizes in points. The tournament app shows a figure at 100 CSS px per
#: inch (rendered at twice that, see :data:`SCREEN_DPI`), so 12 pt is about
#: 17 px: readable from the back of a room when the page is projected.
TEXT_PT = 12
TITLE_PT = 13

#: Dots per inch of a figure on screen: 2 image pixels per CSS pixel at
#: 100 CSS px per inch, so lines and letters stay sharp when a projector or a
#: high-density screen enlarges the page up to twice.
SCREEN_DPI = 200

_NEW_BOXPLOT = tuple(int(x) for x in matplotlib.__version__.split(".")[:2]) >= (3, 10)
_HORIZONTAL = {"orientation": "horizontal"} if _NEW_BOXPLOT else {"vert": False}


def head_to_head_figure(names, matrix, title: str | None = None) -> Figure:
    """Heat map of ``matrix[i][j]`` (row minus column), ``nan`` cells left grey.

    >>> head_to_head_figure(["a", "b"], [[np.nan, 2.0], [-2.0, np.nan]]).axes[0].get_xticklabels()[1].get_text()
    'b'
    """
    values = np.asarray(matrix, dtype=float)
    n = len(names)
    size = max(4.5, 0.6 * n + 2.5)
    fig = Figure(figsize=(size + 1.5, size))
    ax = fig.subplots()
    limit = np.nanmax(np.abs(values)) if np.isfinite(values).any() else 1.0
    cmap = matplotlib.colormaps["PuOr"].with_extremes(bad="#dddddd")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=-limit, vmax=limit)
    ax.set_xticks(range(n), [str(x) for x in names], rotation=60, ha="right")
    ax.set_yticks(range(n), [str(x) for x in names])
    ax.set_xlabel("opponent", fontsize=TEXT_PT)
    _readable(ax)
    if n <= 16:
        for i in range(n):
            for j in range(n):
                if np.isfinite(values[i, j]):
                    dark = abs(values[i, j]) > 0.6 * limit
                    ax.text(j, i, _cell(values[i, j]), ha="center", va="center", fontsize=TEXT_PT,
                            color="white" if dark else "black")
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label("mean point difference", fontsize=TEXT_PT)
    _readable(bar.ax)
    ax.set_title(title or "Head to head: mean points of the row entry minus the column entry",
                 fontsize=TITLE_PT, wrap=True)
    fig.tight_layout()
    return fig


def _readable(ax) -> None:
    """Tick labels at :data:`TEXT_PT` (stored on the axes, so they hold whenever it is drawn)."""
    ax.tick_params(labelsize=TEXT_PT)


def _cell(value: float) -> str:
    """A heat-map cell: ``+3.0``, ``-0.5``, and ``0.0`` (never ``-0.0`` or ``+0.0``)."""
    text = fixed(value, 1)
    return text if text == "0.0" or text.startswith("-") else "+" + text


def plot_head_to_head(results, labels: dict | None = None) -> Figure:
    """The head-to-head heat map of a result set, best entry first (``labels``: see the module docstring)."""
    names, matrix = results.head_to_head()
    order = _ranked_indices(results, names)
    ranked = [_shown(names[i], labels) for i in order]
    return head_to_head_figure(ranked, np.asarray(matrix)[np.ix_(order, order)])


def distributions_figure(points: dict, title: str = "Points per game", intervals: dict | None = None,
                         limits: tuple | None = None) -> Figure:
    """Box plots of each entry's points (``{name: array}``, drawn top to bottom), the mean as a dot.

    ``intervals`` (``{name: (low, high)}``) draws each mean's confidence interval as a bar through the dot
    (none where ``low`` is ``None``). ``limits`` (``(least, most)``): the points a game can give at all; the
    axis never runs further than a sliver past them (room for a mark on the edge).
    """
    names = list(points)
    fig = Figure(figsize=(8, max(3.2, 0.5 * len(names) + 1.6)))
    ax = fig.subplots()
    data = [np.asarray(points[n], dtype=float) for n in names]
    positions = np.arange(len(names))[::-1]
    shown = [d if len(d) else np.array([np.nan]) for d in data]
    ax.boxplot(shown, positions=positions, widths=0.6, showfliers=True, **_HORIZONTAL,
               flierprops={"markersize": 2, "alpha": 0.4}, medianprops={"color": PALETTE[1]})
    means = [d.mean() if len(d) else np.nan for d in data]
    ax.plot(means, positions, "o", color=PALETTE[0], markersize=5, label="mean")
    drawn = 0
    for name, y in zip(names, positions):
        low, high = (intervals or {}).get(name, (None, None))
        if low is not None:
            ax.plot([low, high], [y, y], color=PALETTE[0], lw=3, solid_capstyle="butt",
                    label=None if drawn else "95% interval of the mean")
            drawn += 1
    if limits is not None:
        least, most = limits
        pad = 0.02 * (most - least)
        left, right = ax.get_xlim()
        ax.set_xlim(max(left, least - pad), min(right, most + pad))
    ax.set_yticks(positions, names)
    ax.set_xlabel("points in one game", fontsize=TEXT_PT)
    _readable(ax)
    ax.legend(loc="lower right", fontsize=TEXT_PT)
    ax.set_title(title, fontsize=TITLE_PT, wrap=True)
    fig.tight_layout()
    return fig


def plot_distributions(results, labels: dict | None = None) -> Figure:
    """Each entry's points per game, best entry on top (``labels``: see the module docstring)."""
    points = results.points()
    rows = results.ranking()
    bars = sum(row["ci_low"] is not None for row in rows)
    bar = ("bar: its 95% interval" if bars == len(rows) else "bar: its 95% interval, none with too few deals"
           if bars else "no 95% intervals: too few deals")
    return distributions_figure({_shown(row["name"], labels): points[row["name"]] for row in rows},
                                title=f"Points per game (box: middle half; dot: mean; {bar})",
                                intervals={_shown(row["name"], labels): (row["ci_low"], row["ci_high"]) for row in rows},
                                limits=results.point_range())


def bidding_figure(profiles: dict, num_cards: int | None = None) -> Figure:
    """Mean bid for each prize value, one line per entry (``{name: {prize: mean bid}}``)."""
    fig = Figure(figsize=(8, 5.2))
    ax = fig.subplots()
    top = num_cards or max((max(p) for p in profiles.values() if p), default=13)
    ax.plot([1, top], [1, top], color="#999", lw=1, ls=":", label="bid = prize")
    for k, (name, mean_bid) in enumerate(profiles.items()):
        if not mean_bid:
            continue
        xs = sorted(mean_bid)
        ax.plot(xs, [mean_bid[x] for x in xs], _LINES[k % 4], marker="o", markersize=3,
                color=PALETTE[k % len(PALETTE)], label=str(name))
    ax.set_xlabel("prize card", fontsize=TEXT_PT)
    ax.set_ylabel("mean bid", fontsize=TEXT_PT)
    _readable(ax)
    ax.set_title("How each entry's bid follows the prize", fontsize=TITLE_PT)
    ax.legend(fontsize=TEXT_PT, loc="upper left", ncol=2)
    fig.tight_layout()
    return fig


def plot_bidding_profiles(results, names=None, limit: int = 8, labels: dict | None = None) -> Figure:
    """Bidding profiles of ``names`` (default: the ``limit`` best entries that bid; ``labels``: see the module docstring)."""
    if names is None:
        names = [row["name"] for row in results.ranking()]
    profiles = {}
    for name in names:
        mean_bid = results.bidding_profile(name)["mean_bid"]
        if mean_bid:
            profiles[_shown(name, labels)] = mean_bid
        if len(profiles) >= limit:
            break
    return bidding_figure(profiles, results.options.get("num_cards"))


def _shown(name: str, labels: dict | None) -> str:
    return labels.get(name, name) if labels else name


def _ranked_indices(results, names) -> list[int]:
    position = {name: i for i, name in enumerate(names)}
    return [position[row["name"]] for row in results.ranking()]


__all__ = ["SCREEN_DPI", "TEXT_PT", "TITLE_PT",
           "bidding_figure", "distributions_figure", "head_to_head_figure", "plot_bidding_profiles",
           "plot_distributions", "plot_head_to_head"]
