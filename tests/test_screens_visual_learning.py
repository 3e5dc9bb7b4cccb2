"""The learning explorer names the run it draws, never controls changed since (audit item 1)."""

from __future__ import annotations

import re

from gopskit.widgets.explorers import LearningExplorer


def _texts(explorer) -> list[str]:
    """The chart's words: matplotlib draws text as paths, each after a comment holding it."""
    return re.findall(r"<!-- (.*?) -->", explorer._picture.value)


def test_changed_controls_do_not_rename_the_run_on_screen():
    explorer = LearningExplorer(iterations=100)
    assert explorer.status.startswith("Fictitious play on Biased Rock-Paper-Scissors: iteration")
    explorer.algorithm.value = "regret matching+"
    explorer.game.value = "Matching Pennies"
    explorer.frame.value = 20
    status = explorer.status
    assert status.startswith("Fictitious play on Biased Rock-Paper-Scissors: iteration"), status
    assert "rock" in status and "heads" not in status.split("Press Run")[0]
    assert "Press Run for 100 iterations of regret matching+ on Matching Pennies" in status
    texts = _texts(explorer)
    assert "Fictitious play on Biased Rock-Paper-Scissors" in texts and "rock" in texts
    assert not any("regret" in t or "Matching Pennies" in t for t in texts), texts
    explorer.run_button.click()
    status = explorer.status
    assert status.startswith("Regret matching+ on Matching Pennies: iteration") and "heads" in status
    assert "Regret matching+ on Matching Pennies" in _texts(explorer) and "heads" in _texts(explorer)
    assert "Press Run" not in status


def test_the_chart_title_is_the_trace_s():
    explorer = LearningExplorer(iterations=60)
    trace = explorer.trace
    assert (trace.algorithm, trace.game, trace.runs) == ("fictitious play", "Biased Rock-Paper-Scissors", 60)
    explorer.game.value = "Matching Pennies"
    assert explorer.trace.title() == "fictitious play on Biased Rock-Paper-Scissors"


def test_cfr_hides_the_game_it_ignores():
    explorer = LearningExplorer(iterations=20)
    assert not explorer.game.disabled and explorer.game.layout.display is None
    explorer.algorithm.value = "CFR+ on 3-card Goofspiel"
    assert explorer.game.disabled and explorer.game.layout.display == "none"
    assert explorer.algorithm.layout.display is None  # its layout is not shared with the hidden game
    explorer.run_button.click()
    assert explorer.status.startswith("CFR+ on 3-card Goofspiel: iteration")
    assert "Rock-Paper-Scissors" not in explorer.status and "Press Run" not in explorer.status
    explorer.game.value = "Matching Pennies"  # ignored by CFR+: nothing to run again
    assert "Press Run" not in explorer.status
    explorer.algorithm.value = "fictitious play"
    assert not explorer.game.disabled and "Press Run for 20 iterations of fictitious play on Matching Pennies" in explorer.status


def test_the_exploitability_axis_reads_as_plain_numbers():
    from gopskit.viz.figures import convergence_figure

    fig = convergence_figure(range(1, 301), [2.0 / k for k in range(1, 301)])
    ax = fig.axes[-1]
    shown = [label.get_text() for label in ax.get_yticklabels() if label.get_text()]
    assert shown, shown
    assert all(re.fullmatch(r"[0-9.,]+", text) for text in shown), shown  # '0.01', '0.1', '1': no 10^-1
    assert "0.1" in shown and "1" in shown
    explorer = LearningExplorer()
    explorer.refresh()
    assert "10^" not in explorer._picture.value and "10^{" not in " ".join(_texts(explorer))


def test_the_heat_map_prints_every_chance_with_two_decimals():
    import numpy as np

    from gopskit.viz.figures import heatmap_figure

    fig = heatmap_figure(np.array([[0.2, 0.5], [0.8, 0.5]]), [1, 2], [1, 2])
    assert sorted(t.get_text() for t in fig.axes[0].texts) == ["0.20", "0.50", "0.50", "0.80"]  # not 0.2 beside 0.19, nor 1/2


def test_a_short_exploitability_axis_labels_the_values_under_its_one_decade():
    from gopskit.viz.figures import convergence_figure

    curve = [1.0 / k ** 0.55 for k in range(1, 301)]  # like fictitious play: 1 down to about 0.04
    fig = convergence_figure(range(1, 301), curve)
    ax = fig.axes[-1]
    low, high = ax.get_ylim()
    shown = {}
    for label in ax.get_yticklabels(minor=False) + ax.get_yticklabels(minor=True):
        value = label.get_position()[1]
        if label.get_text() and low <= value <= high:
            shown[label.get_text()] = value
    assert min(curve) < 0.1 and any(value < 0.1 for value in shown.values()), shown  # 0.05 under the 0.1
    assert {"0.05", "0.1", "0.2", "0.5", "1"} <= set(shown), shown
    assert all(re.fullmatch(r"[0-9.]+", text) for text in shown), shown
