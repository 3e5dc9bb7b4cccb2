"""The explorers' charts for colour-blind eyes and weak eyes: nothing told by colour alone, numbers legible on
their cells (WCAG AA, 4.5:1)."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgb

from gopskit.viz.figures import heatmap_figure, payoff_lines_figure


def _luminance(rgb) -> float:  # WCAG 2
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a, b) -> float:
    light, dark = sorted((_luminance(to_rgb(a)), _luminance(to_rgb(b))), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_number_of_the_heat_map_stands_out_from_its_cell():
    """White numbers sat on every cell under 0.6: on the cividis greys and khakis around 0.4 to 0.6 that is
    under 3:1."""
    P = np.linspace(0.01, 1.0, 100).reshape(10, 10)
    fig = heatmap_figure(P, list(range(1, 11)), list(range(1, 11)))
    ax = fig.axes[0]
    image = ax.images[0]
    texts = ax.texts
    assert len(texts) == 100
    for text in texts:
        j, i = (round(v) for v in text.get_position())
        cell = image.cmap(image.norm(P[i, j]))
        ratio = _contrast(text.get_color(), cell)
        assert ratio >= 4.5, f"{text.get_text()} is {ratio:.2f}:1 on its cell"


def test_the_best_replies_are_not_told_by_colour_alone():
    """Against a mix of three strategies the bars were blue (best) or grey: the others are hatched too."""
    A = np.array([[4.0, 1.0, 3.0], [2.0, 3.0, 4.0], [1.0, 0.0, 2.0]])
    fig = payoff_lines_figure(A, -A, ["top", "middle", "bottom"], ["left", "centre", "right"],
                              [0.25, 0.75, 0.0], [0.5, 0.5, 0.0])
    for ax in fig.axes:
        bars = ax.patches
        assert len(bars) == 3
        heights = np.array([bar.get_height() for bar in bars])
        best = np.isclose(heights, heights.max())
        assert [bool(bar.get_hatch()) for bar in bars] == list(~best), ax.get_title()
        assert "best, in solid blue:" in ax.get_xlabel()
