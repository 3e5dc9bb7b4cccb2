"""The lessons' small figures: each function takes data and returns a matplotlib Figure.

Each figure is made with pyplot and closed at once, so a notebook shows it
exactly once, as the cell's result (importing pyplot is what lets Jupyter's
inline backend draw a returned figure), and nothing is left open. Colours are the Okabe-Ito palette (safe for colour-blind readers),
text is large enough for a projector.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
FONT = {"font.size": 12}


def _figure(width: float = 7.5, height: float = 4.2, cols: int = 1):
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(width, height), layout="constrained")
    plt.close(fig)
    axes = fig.subplots(1, cols)
    return fig, axes


def _styled(function):
    """Draw with the lessons' font size (artists read it when they are made)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        import matplotlib.pyplot as plt

        with plt.rc_context(FONT):
            return function(*args, **kwargs)

    return wrapper


@_styled
def lines_against_x(x: Sequence, series: Mapping[str, Sequence], *, title: str, xlabel: str, ylabel: str,
                    exact: Mapping[str, Sequence] | None = None, errors: Mapping[str, Sequence] | None = None,
                    logx: bool = False, logy: bool = False):
    """Simulated or computed series as markers with error bars, exact ones as lines.

    ``series`` maps a label to y values (drawn as points, with ``errors``
    as error bars when given); ``exact`` maps a label to y values drawn as
    solid lines.
    """
    fig, ax = _figure()
    faint = 0.5 if series else 1.0  # exact lines behind simulated points are drawn faint
    for k, (label, ys) in enumerate((exact or {}).items()):
        ax.plot(x, ys, "-", color=PALETTE[k % len(PALETTE)], lw=2.5, alpha=faint, label=label)
    for k, (label, ys) in enumerate(series.items()):
        err = (errors or {}).get(label)
        ax.errorbar(x, ys, yerr=err, fmt="o", ms=6, capsize=3, color=PALETTE[k % len(PALETTE)], label=label)
    if not logy:
        ax.axhline(0, color="#888", lw=0.8)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.legend(frameon=False)
    return fig


@_styled
def payoff_heatmap(matrix: np.ndarray, row_labels: Sequence, col_labels: Sequence, *, title: str,
                   xlabel: str = "their plan", ylabel: str = "my plan", annotate: bool = True, highlight_rows=()):
    """A payoff matrix as a diverging heat map (purple: good for the row player, orange: bad)."""
    matrix = np.asarray(matrix, dtype=float)
    fig, ax = _figure(1.0 + 0.55 * matrix.shape[1], 1.0 + 0.45 * matrix.shape[0])
    limit = max(float(np.abs(matrix).max()), 1e-9)
    ax.imshow(matrix, cmap="PuOr", vmin=-limit, vmax=limit)
    ax.set_xticks(range(len(col_labels)), [str(c) for c in col_labels], rotation=90 if len(col_labels) > 8 else 0)
    ax.set_yticks(range(len(row_labels)), [str(r) for r in row_labels])
    if annotate:
        for (i, j), v in np.ndenumerate(matrix):
            ax.text(j, i, f"{v:g}", ha="center", va="center", fontsize=10,
                    color="white" if abs(v) > 0.6 * limit else "black")
    for i in highlight_rows:
        ax.add_patch(_row_box(ax, i, matrix.shape[1]))
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    return fig


def _row_box(ax, row: int, width: int):
    from matplotlib.patches import Rectangle

    return Rectangle((-0.5, row - 0.5), width, 1, fill=False, ec="#D55E00", lw=2.5, ls="--")


@_styled
def probability_heatmap(table: np.ndarray, *, title: str, xlabel: str = "bid", ylabel: str = "prize",
                        row_labels: Sequence | None = None, col_labels: Sequence | None = None, ax=None):
    """Probabilities (rows: situations such as prizes, columns: bids) as a heat map with the numbers written in."""
    table = np.asarray(table, dtype=float)
    fig = None
    if ax is None:
        fig, ax = _figure(1.5 + 0.6 * table.shape[1], 1.2 + 0.5 * table.shape[0])
    rows = row_labels if row_labels is not None else range(1, table.shape[0] + 1)
    cols = col_labels if col_labels is not None else range(1, table.shape[1] + 1)
    ax.imshow(table, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(table.shape[1]), [str(c) for c in cols])
    ax.set_yticks(range(table.shape[0]), [str(r) for r in rows])
    for (i, j), v in np.ndenumerate(table):
        if v >= 0.005:
            ax.text(j, i, f"{v:.2f}".lstrip("0"), ha="center", va="center", fontsize=9,
                    color="white" if v > 0.6 else "black")
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    return fig if fig is not None else ax.figure


@_styled
def heatmap_grid(tables: Mapping[str, np.ndarray], *, xlabel: str = "bid", ylabel: str = "prize",
                 row_labels: Sequence | None = None, col_labels: Sequence | None = None):
    """Several probability tables side by side (one panel each)."""
    fig, axes = _figure(4.2 * len(tables), 4.2, cols=len(tables))
    for ax, (title, table) in zip(np.atleast_1d(axes), tables.items()):
        probability_heatmap(table, title=title, xlabel=xlabel, ylabel=ylabel, row_labels=row_labels,
                            col_labels=col_labels, ax=ax)
    return fig


@_styled
def bars(labels: Sequence, groups: Mapping[str, Sequence], *, title: str, ylabel: str, errors=None):
    """Grouped bars: one group per label, one bar per series in ``groups``."""
    fig, ax = _figure()
    width = 0.8 / max(len(groups), 1)
    x = np.arange(len(labels))
    for k, (name, values) in enumerate(groups.items()):
        err = (errors or {}).get(name)
        ax.bar(x + (k - (len(groups) - 1) / 2) * width, values, width, yerr=err, capsize=3,
               color=PALETTE[k % len(PALETTE)], label=name)
    ax.set_xticks(x, [str(label) for label in labels])
    ax.axhline(0, color="#888", lw=0.8)
    ax.set(title=title, ylabel=ylabel)
    if len(groups) > 1:
        ax.legend(frameon=False)
    return fig


@_styled
def information_sets(grid, *, title: str = "What you are told after the first turn"):
    """Two panels over (my bid, their bid): with bids shown every cell is its own information set; with
    hidden bids, cells of one row with the same outcome are one set (a dashed box around them)."""
    from matplotlib.patches import FancyBboxPatch

    grid = np.asarray(grid)
    n = grid.shape[0]
    colours = {"won": PALETTE[2], "tie": "#BBBBBB", "lost": PALETTE[1]}
    fig, axes = _figure(4.0 * 2 + 0.5, 4.0, cols=2)
    for ax, hidden in zip(axes, (False, True)):
        for (i, j), word in np.ndenumerate(grid):
            ax.add_patch(_cell(j, i, colours[word]))
            ax.text(j, i, word if hidden else f"{j + 1}", ha="center", va="center", fontsize=10)
        for i in range(n):
            runs = _runs(grid[i]) if hidden else [(j, j) for j in range(n)]
            for start, end in runs:
                ax.add_patch(FancyBboxPatch((start - 0.42, i - 0.38), end - start + 0.84, 0.76,
                                            boxstyle="round,pad=0.02", fill=False, ls="--", lw=1.8, ec="black"))
        ax.set_xlim(-0.6, n - 0.4)
        ax.set_ylim(n - 0.4, -0.6)
        ax.set_xticks(range(n), [str(c) for c in range(1, n + 1)])
        ax.set_yticks(range(n), [str(c) for c in range(1, n + 1)])
        ax.set(xlabel="their bid", ylabel="my bid",
               title="hidden bids: you are told who won" if hidden else "bids shown: you see their card")
    fig.suptitle(title)
    return fig


def _cell(x, y, colour):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, color=colour, alpha=0.35)


def _runs(row) -> list[tuple[int, int]]:
    """Maximal runs of equal words in a row: ``[(start, end), ...]``."""
    runs, start = [], 0
    for j in range(1, len(row) + 1):
        if j == len(row) or row[j] != row[start]:
            runs.append((start, j - 1))
            start = j
    return runs


__all__ = ["PALETTE", "bars", "heatmap_grid", "information_sets", "lines_against_x", "payoff_heatmap", "probability_heatmap"]
