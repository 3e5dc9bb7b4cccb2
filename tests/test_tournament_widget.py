"""The tournament app: controls -> a tournament -> table and plots; errors shown, never raised."""

import pathlib

import pytest

pytest.importorskip("ipywidgets")

from gopskit.arena.results import ResultSet  # noqa: E402
from gopskit.widgets.tournament import TournamentApp, ranking_html  # noqa: E402

EXAMPLES = pathlib.Path(__file__).parents[1] / "examples" / "students"


def copier(observation):
    return observation.prize if observation.prize in observation.hand else observation.hand[0]


def test_ranking_html_is_a_pure_rendering():
    games = [{"seats": ["a<b", "c"], "seed": 1, "points": [3, 0], "winners": [0], "record": None,
              "forfeits": [{"seat": 1, "entry": "c", "reason": "exception", "detail": "ValueError", "turn": 1}]}]
    results = ResultSet("goofspiel", {"num_cards": 3}, 0, 1, [{"name": "a<b", "kind": "bot"}, {"name": "c"}], games)
    page = ranking_html(results)
    assert "a&lt;b" in page and "<td>1</td>" in page
    assert "Forfeits" in page and "exception" in page and page == ranking_html(results)


def test_the_app_runs_a_notebook_function_a_folder_and_bots():
    app = TournamentApp(functions=[copier], folder=str(EXAMPLES), bots=["random"], num_cards=3)
    app.games.value = 2
    app.time_limit.value = 0.5
    results = app.run()
    names = {e["name"] for e in results.entries}
    assert {"copier", "random", "copy_the_prize", "save_big_cards"} <= names
    assert app.progress.value == app.progress.max == len(names) * (len(names) - 1) // 2
    assert "copier" in app.table.value and "Done" in app.status.value
    assert all(bytes(image.value).startswith(b"\x89PNG") for image in app.plots.children)
    assert not app.run_button.disabled
    app.reset()
    assert app.table.value == "" and app.results is None and bytes(app.plots.children[0].value) == b""


def test_a_bad_folder_is_shown_in_the_status_line():
    app = TournamentApp(folder="/no/such/folder", bots=["random", "match-prize"])
    assert app.run() is None
    assert "not a folder" in app.status.value and not app.run_button.disabled


def test_too_few_entries_are_explained():
    app = TournamentApp(bots=["random"])
    assert app.run() is None and "at least" in app.status.value
