"""Matplotlib figures for the explorers: data in, figure out (never a game object).

Every function builds a :class:`matplotlib.figure.Figure` directly (no
pyplot, so no global state and no GUI backend) in colours that people with
any common colour-vision deficiency can tell apart, with line styles as a
second cue. :func:`figure_to_svg` turns a figure into an SVG string a widget
can show.

>>> fig = heatmap_figure([[0.5, 1.0], [0.5, 0.0]], ["1", "2"], ["1", "2"])
>>> figure_to_svg(fig).lstrip().startswith("<?xml") or True
True
"""

from __future__ import annotations

import io

import functools

import numpy as np
from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from ..numbers import clean, fixed, numbers_together
from .svg import DASHES, PALETTE

_STYLES = ("-", "--", ":", "-.")
_PROJECTOR = {"font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12, "legend.fontsize": 11}


def _readable(draw):
    """Build a figure with type large enough for a projector."""

    @functools.wraps(draw)
    def wrapper(*args, **kwargs):
        with rc_context(_PROJECTOR):
            return draw(*args, **kwargs)

    return wrapper


def figure_to_svg(fig: Figure) -> str:
    """The figure as an SVG document (a string), for an HTML widget."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    return buffer.getvalue()


@_readable
def payoff_lines_figure(row_payoffs, col_payoffs, row_labels, col_labels, row_mix=None, col_mix=None) -> Figure:
    """Best-response lines of a game with two strategies on the opposing side.

    Left: each row strategy's expected payoff as the column player's chance
    of playing their first strategy goes from 0 to 1; the upper envelope is
    the row player's best response. Right: the same for the column player.
    A side whose opponent has more than two strategies is drawn as bars:
    each strategy's payoff against the opponent's equilibrium mix.
    """
    A, B = np.asarray(row_payoffs, float), np.asarray(col_payoffs, float)
    fig = Figure(figsize=(9, 4.2), layout="constrained")  # the layout engine keeps every label inside
    left, right = fig.subplots(1, 2)
    _side(left, A, row_labels, col_labels, col_mix, "Row player")
    _side(right, B.T, col_labels, row_labels, row_mix, "Column player")
    return fig


def _side(ax, M, own_labels, other_labels, other_mix, who):
    if M.shape[1] == 2:
        q = np.linspace(0, 1, 101)
        for i, label in enumerate(own_labels):
            ax.plot(q, M[i, 0] * q + M[i, 1] * (1 - q), _STYLES[i % 4], color=PALETTE[i % len(PALETTE)], lw=2.5, label=str(label))
        payoff = np.max(np.outer(M[:, 0], q) + np.outer(M[:, 1], 1 - q), axis=0)
        ax.plot(q, payoff, color="#000", lw=1, alpha=0.4)
        if other_mix is not None:
            ax.axvline(other_mix[0], color="#555", ls=":", lw=1.5)
        ax.set_xlabel(f"chance the other\nplays {other_labels[0]}")
    else:
        mix = np.full(M.shape[1], 1 / M.shape[1]) if other_mix is None else np.asarray(other_mix)
        gains = np.array([clean(g) for g in M @ mix])  # no bars of rounding noise
        best = gains >= gains.max() - 1e-9
        names = [str(x) for x in own_labels]
        bars = ax.bar(names, gains, color=[PALETTE[0] if b else "#bbbbbb" for b in best], edgecolor="#333")
        span = max(1.0, float(np.abs(gains).max()))
        flat = np.abs(gains) < 0.02 * span  # bars of (nearly) no height
        for bar, b, level in zip(bars, best, flat):  # not by colour alone: the others are hatched too
            bar.set_hatch("" if b else "//")
            if level:  # a thick stroke on the baseline shows the bar
                ax.plot([bar.get_x(), bar.get_x() + bar.get_width()], [0, 0], color=bar.get_facecolor(), lw=6,
                        ls="-" if b else (0, (2, 1)), solid_capstyle="butt", zorder=3, gid="gopskit-flat-bar")
        for k, (g, text, level) in enumerate(zip(gains, numbers_together(gains), flat)):
            lift = 3 + (4 if level else 0)  # clear of a flat bar's stroke
            ax.annotate(text, (k, g), xytext=(0, lift if g >= 0 else -lift), textcoords="offset points",
                        ha="center", va="bottom" if g >= 0 else "top")
        ax.set_ylim(min(0.0, gains.min()) - 0.25 * span, max(0.0, gains.max()) + 0.25 * span)
        ax.axhline(0, color="#333", lw=0.8)
        if len(names) > 3 or max(len(n) for n in names) > 8:
            ax.tick_params(axis="x", labelrotation=30)
        named = ", ".join(n for n, b in zip(names, best) if b)  # by name too: a best bar of height 0 shows no blue
        ax.set_xlabel("payoff against the other's equilibrium\nmix (best, in solid blue:" +
                      ("\n" if len(named) > 16 else " ") + f"{named})")
    ax.set_title(f"{who}:\npayoff of each strategy")
    if M.shape[1] == 2:
        ax.legend(loc="best")
    ax.grid(alpha=0.3)


def _luminance(rgb) -> float:
    """WCAG relative luminance of an RGB colour with channels from 0 to 1."""
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink_on(colour) -> str:
    """White or black, whichever stands out more from ``colour`` (an RGB or RGBA tuple from 0 to 1).

    >>> ink_on((0.0, 0.13, 0.3)), ink_on((0.99, 0.9, 0.22))
    ('white', 'black')
    """
    light = _luminance(colour)
    return "white" if (1.05 / (light + 0.05)) > ((light + 0.05) / 0.05) else "black"


# The boxes (width, height in CSS px) a figure is shown in on a laptop or a small projector: style.css draws
# `.gopskit-figure svg` at most 1040 px wide and 85vh tall, keeping its shape. 1280 x 800 gives 1040 x 680;
# a 1024 px window leaves about 960 px beside the page's margins (85vh: 765 px at 900 tall, 653 at 768).
FIGURE_BOXES = ((1040, 680), (960, 765), (960, 653))
SMALLEST_FIGURE_PX = 18.0  # the body text's size: glyph-box measures (digits are 0.73 em tall) still read >= 16


def displayed_px(points: float, figsize, box) -> float:
    """How many CSS px text of ``points`` shows at, in a figure of ``figsize`` inches drawn to fit ``box`` px.

    An SVG from matplotlib measures the figure in points (72 an inch); the page scales it to
    fit the box, keeping its shape.

    >>> round(displayed_px(12, (11.55, 8.55), (1040, 900)), 1)  # a 13-card heat map at 12 pt: 15 px, too small
    15.0
    """
    width, height = figsize
    return points * min(box[0] / (width * 72), box[1] / (height * 72))


def legible_points(figsize, base: float = 12.0) -> float:
    """The font size (pt), at least ``base``, at which a figure of ``figsize`` shows
    :data:`SMALLEST_FIGURE_PX` or more in every one of :data:`FIGURE_BOXES`."""
    return max(base, max(SMALLEST_FIGURE_PX / displayed_px(1.0, figsize, box) for box in FIGURE_BOXES))


def heatmap_figure(probabilities, bid_labels, prize_labels, title: str = "Optimal bid for each prize") -> Figure:
    """A heat map: rows are bids, columns prizes, cells the chance of the bid (printed in each cell).

    The figure grows with the cards while its box on the page does not: its type grows with it
    (:func:`legible_points`), so a 13-card map reads as large on screen as a 5-card one's smallest text.
    """
    P = np.asarray(probabilities, float)
    size = (max(5.0, 1.8 + 0.75 * P.shape[1]), max(3.4, 1.4 + 0.55 * P.shape[0]))  # room for the labels
    k = legible_points(size) / _PROJECTOR["font.size"]
    with rc_context({name: value * k for name, value in _PROJECTOR.items()}):
        return _heatmap(P, bid_labels, prize_labels, title, size, _PROJECTOR["font.size"] * k)


def _heatmap(P, bid_labels, prize_labels, title, size, points) -> Figure:
    fig = Figure(figsize=size, layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(P, cmap="cividis", vmin=0, vmax=1, aspect="auto", origin="lower")
    ax.set_xticks(range(P.shape[1]), [str(x) for x in prize_labels])
    ax.set_yticks(range(P.shape[0]), [str(x) for x in bid_labels])
    ax.set_xlabel("prize turned")
    ax.set_ylabel("your bid")
    ax.set_title(title)
    for (i, j), p in np.ndenumerate(P):
        if p >= 0.005:  # a grid: 0.20 beside 0.19
            ax.text(j, i, fixed(p), ha="center", va="center", color=ink_on(image.cmap(image.norm(p))))
    ax.tick_params(labelsize=points)  # ticks made when the figure is drawn, after this returns, keep the size
    bar = fig.colorbar(image, ax=ax, label="probability")
    bar.ax.tick_params(labelsize=points)
    return fig


@_readable
def convergence_figure(iterations, exploitability, strategies=None, labels=None, upto: int | None = None,
                       title: str = "Learning to play") -> Figure:
    """Left: each strategy's probability over the iterations; right: exploitability (log scale).

    ``strategies`` is an array (iterations × strategies) or ``None`` (only the
    exploitability curve); ``upto`` draws the first ``upto`` points (for animation).
    """
    t = np.asarray(iterations, float)
    e = np.asarray(exploitability, float)
    upto = len(t) if upto is None else max(1, min(upto, len(t)))
    fig = Figure(figsize=(9, 3.4))
    axes = fig.subplots(1, 2 if strategies is not None else 1)
    axes = np.atleast_1d(axes)
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.15, top=0.82, wspace=0.22)
    if strategies is not None:
        S = np.asarray(strategies, float)
        for k in range(S.shape[1]):
            axes[0].plot(t[:upto], S[:upto, k], _STYLES[k % 4], color=PALETTE[k % len(PALETTE)], lw=2,
                         label=str(labels[k]) if labels is not None else f"#{k}")
        axes[0].set_xlim(t[0], t[-1])
        axes[0].set_ylim(0, 1)
        axes[0].set_xlabel("iteration")
        axes[0].set_title("row player's mix")
        axes[0].legend(loc="upper right")
        axes[0].grid(alpha=0.3)
    ax = axes[-1]
    positive = np.maximum(e[:upto], 1e-12)
    ax.plot(t[:upto], positive, color=PALETTE[1], lw=2)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(_plain_power))  # 1, 0.1, 0.01: not 10⁰, 10⁻¹ for a school class
    ax.set_xlim(t[0], t[-1])
    low, high = max(min(np.maximum(e, 1e-12).min(), 1.0) * 0.5, 1e-9), max(e.max(), 1e-6) * 2
    ax.set_ylim(low, high)
    if np.log10(high / low) < 3:  # a short axis: 0.2 and 0.05 too, or a curve ending at 0.04 sits under one label
        ax.yaxis.set_minor_formatter(FuncFormatter(_two_and_five))
    ax.set_xlabel("iteration")
    ax.set_title("exploitability (0 at an equilibrium)")
    ax.grid(alpha=0.3, which="both")
    fig.suptitle(title)
    return fig


def _two_and_five(value: float, _position=None) -> str:
    """A log axis's minor tick labelled when it is 2 or 5 times a power of ten (``0.05``, ``0.2``), else blank."""
    if value <= 0:
        return ""
    mantissa = value / 10 ** np.floor(np.log10(value) + 1e-9)
    return _plain_power(value) if round(mantissa, 6) in (2.0, 5.0) else ""


def _plain_power(value: float, _position=None) -> str:
    """A log axis's tick as a plain decimal (``0.001``), down to a millionth; below that as a power of ten."""
    if value <= 0:
        return ""
    if value >= 1:
        return f"{value:,.0f}"
    if value >= 1e-6:
        return f"{value:.6f}".rstrip("0")
    return f"$10^{{{int(round(np.log10(value)))}}}$"


__all__ = ["DASHES", "convergence_figure", "figure_to_svg", "heatmap_figure", "payoff_lines_figure"]
