"""The tournament app: controls -> a tournament -> table and plots; errors shown, never raised."""

import pathlib

import pytest

pytest.importorskip("ipywidgets")

from gopskit.arena.results import ResultSet  # noqa: E402
from gopskit.widgets.tournament import TournamentApp, ranking_html  # noqa: E402

EXAMPLES = pathlib.Path(__file__).parents[1] / "examples" / "students"


def copier(observation):
    return observation.prize if observation.prize in observation.hand else observation.hand[0]


def test_the_folder_and_the_games_are_counted_in_good_english(monkeypatch, tmp_path):
    (tmp_path / "alone.py").write_text((EXAMPLES / "copy_the_prize.py").read_text())
    monkeypatch.setenv("GOPSKIT_TOURNAMENT_DIR", str(tmp_path))
    app = TournamentApp(bots=["random"], num_cards=3)
    assert app.use_folder.description.endswith("(1 strategy file)")
    games = [{"seats": ["a", "b"], "seed": 1, "points": [3, 0], "winners": [0], "record": None, "forfeits": []}]
    app.show(ResultSet("goofspiel", {"num_cards": 3}, 5, 1, [{"name": "a"}, {"name": "b"}], games))
    assert app.status.value.startswith("Done: 1 game. Seed 5")


def test_the_isolation_is_said_in_words():
    games = [{"seats": ["a", "b"], "seed": 1, "points": [3, 0], "winners": [0], "record": None, "forfeits": []}]
    entries = [{"name": "a", "kind": "student"}, {"name": "b", "kind": "bot", "bot": "random"}]
    fence = ranking_html(ResultSet("goofspiel", {"num_cards": 3}, 0, 1, entries, games, isolation="fence"))
    assert "in-process fence only" in fence and "ran with: fence" not in fence
    assert "bubblewrap sandbox" in ranking_html(ResultSet("goofspiel", {}, 0, 1, entries, games, isolation="bubblewrap"))
    bots = ranking_html(ResultSet("goofspiel", {}, 0, 1, entries, games, isolation="none needed"))
    assert "Student code" not in bots and "none needed" not in bots


def test_ranking_html_is_a_pure_rendering():
    games = [{"seats": ["a<b", "c"], "seed": 1, "points": [3, 0], "winners": [0], "record": None,
              "forfeits": [{"seat": 1, "entry": "c", "reason": "exception", "detail": "ValueError", "turn": 1}]}]
    results = ResultSet("goofspiel", {"num_cards": 3}, 0, 1, [{"name": "a<b", "kind": "bot"}, {"name": "c"}], games)
    page = ranking_html(results)
    assert "a&lt;b" in page and "<td>1</td>" in page
    assert "Forfeits" in page and "exception" in page and page == ranking_html(results)
    assert "How the table is ranked" in page and "mean points per game" in page


def test_the_app_runs_a_notebook_function_a_folder_and_bots(monkeypatch):
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(functions=[copier], folder=str(EXAMPLES), bots=["random"], num_cards=3)
    app.games.value = 2
    app.time_limit.value = 0.5
    results = app.run()
    names = {e["name"] for e in results.entries}
    assert {"copier", "random", "copy_the_prize", "save_big_cards"} <= names
    rows = {r["name"]: r for r in results.ranking()}
    assert rows["copier"]["kind"] == "notebook" and rows["copy_the_prize"]["kind"] == "student"
    assert "<td>notebook</td>" in app.table.value and "95% interval" in app.table.value
    assert rows["random"]["exploitability"] is not None  # 3 cards: solved
    assert f"Seed {results.seed}" in app.status.value
    assert app.progress.value == app.progress.max == len(names) * (len(names) - 1) // 2
    assert "copier" in app.table.value and "Done" in app.status.value
    assert all(bytes(image.value).startswith(b"\x89PNG") for image in app.plots.children)
    assert not app.run_button.disabled
    app.reset()
    assert app.table.value == "" and app.results is None and bytes(app.plots.children[0].value) == b""


def test_bots_are_named_by_their_labels_and_the_results_keep_their_names(monkeypatch, tmp_path):
    """The picker shows each bot's label and the name code takes; table, sentences, footnotes and plots name bots
    by their labels; the result set and its files keep the names (outside tools read them)."""
    import json

    import matplotlib.text

    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(functions=[copier], bots=["one-higher", "adaptive"], num_cards=6)
    options = dict(app.bots.options)
    assert options["One-higher bot (one-higher)"] == "one-higher" and app.bots.value == ("one-higher", "adaptive")
    assert len(set(options)) == len(options) and all(label != value for label, value in options.items())
    app.games.value = 2
    app.seed.value = "3"
    results = app.run()
    assert {e["name"] for e in results.entries} == {"copier", "one-higher", "adaptive"}
    page = app.table.value
    assert "<b>One-higher bot</b>" in page and "<b>Adaptive bot</b>" in page and "<b>copier</b>" in page
    cells = page.split("<tbody>")[1]
    assert "one-higher" not in cells and "adaptive" not in cells  # not in the rows, the sentences or the notes
    assert "One-higher bot" in page.split("next one down")[1] and "Adaptive bot: computed up to 5 cards" in page
    for image, plot in zip(app.plots.children, ("plot_head_to_head", "plot_distributions", "plot_bidding_profiles")):
        import gopskit.viz.tournament as plots

        figure = getattr(plots, plot)(results, labels=results.labels())
        texts = {t.get_text() for t in figure.findobj(matplotlib.text.Text)}
        assert {"One-higher bot", "Adaptive bot", "copier"} <= texts and "one-higher" not in texts, plot
    results.save(tmp_path)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert {row["name"] for row in saved["ranking"]} == {"copier", "one-higher", "adaptive"}
    assert "one-higher" in (tmp_path / "ranking.csv").read_text() and "One-higher bot" not in (tmp_path / "ranking.csv").read_text()


def test_identical_play_is_said_with_labels_and_counted_deals():
    from gopskit.widgets.tournament import neighbour_texts

    games = [{"seats": seats, "seed": k, "points": [3, 3], "winners": [0, 1], "forfeits": [], "record": None}
             for k in range(2) for seats in (["one-higher", "mine"], ["mine", "one-higher"])]
    results = ResultSet("goofspiel", {"num_cards": 3}, 0, 1,
                        [{"name": "one-higher", "kind": "bot", "bot": "one-higher"}, {"name": "mine", "kind": "student"}],
                        games)
    assert neighbour_texts(results, results.ranking()) == [
        "mine and One-higher bot scored the same on every deal (2 deals): more games won't separate identical play."]
    one = ResultSet("goofspiel", {"num_cards": 3}, 0, 1, results.entries, games[:1])
    assert "(1 deal)" not in ranking_html(one) and "over 1 deal" in ranking_html(one)


def test_a_bad_folder_is_shown_in_the_status_line(monkeypatch):
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(folder="/no/such/folder", bots=["random", "match-prize"])
    assert app.run() is None
    assert "not a folder" in app.status.value and not app.run_button.disabled


def test_only_the_configured_class_folder_runs(monkeypatch, tmp_path):
    """The page has no path box: the folder comes from the server's environment or the notebook's code."""
    import ipywidgets as w

    monkeypatch.setenv("GOPSKIT_TOURNAMENT_DIR", str(EXAMPLES))
    app = TournamentApp(folder=str(tmp_path), bots=["random"], num_cards=3)
    assert app.class_folder == EXAMPLES and "students/ (5 strategy files)" in app.use_folder.description
    texts = [c.description for c in _all_widgets(app) if isinstance(c, (w.Text, w.Textarea))]
    assert texts == ["Seed"]  # no box where a path could be typed
    assert {e.name for e in app.entries()} >= {"copy_the_prize", "random"}
    app.use_folder.value = False  # a browser may only leave the folder out
    assert {e.name for e in app.entries()} == {"random"}
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR")
    bare = TournamentApp(bots=["random"])
    assert bare.class_folder is None and bare.use_folder.disabled and "GOPSKIT_TOURNAMENT_DIR" in bare.use_folder.description


def _all_widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _all_widgets(child)


def test_limits_are_enforced_with_a_clear_message(monkeypatch):
    from gopskit.widgets import tournament as module

    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(bots=["random", "match-prize", "one-higher"], num_cards=3)
    app.games.value = 10_000  # what a hostile page sends: the widget clamps it
    assert app.games.value == module.MAX_GAMES
    app.time_limit.value = 600
    assert app.time_limit.value == module.MAX_TIME_LIMIT
    monkeypatch.setattr(module, "MAX_TOTAL_GAMES", 100)
    assert app.run() is None
    assert "1,200 games; the app plays up to 100" in app.status.value and "gopskit tournament" in app.status.value
    app.seed.value = "-3"
    assert app.run() is None and "seed: a whole number" in app.status.value
    assert app.table.value == "" and app.results is None


def test_too_few_entries_are_explained(monkeypatch):
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(bots=["random"])
    assert app.run() is None and "a tournament needs at least 2 entries, and these controls give 1" in app.status.value
    assert "goofspiel" not in app.status.value and "choose more bots" in app.status.value  # no engine name


def test_notebook_functions_leave_no_folder_behind(monkeypatch):
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(functions=[copier], bots=["random"])
    first, second = app.entries()[0].path, app.entries()[0].path
    assert first == second and first.is_file()  # one file per function, however often the app runs
    folder = first.parent
    app.close()  # a kernel that ends removes it too (the folder is a TemporaryDirectory)
    assert not folder.exists()


def test_a_bug_while_drawing_becomes_a_sentence_not_a_traceback(monkeypatch):
    import gopskit.viz.tournament as plots

    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)

    def broken(results, labels=None):
        raise KeyError("/srv/secret/path")

    monkeypatch.setattr(plots, "plot_head_to_head", broken)
    app = TournamentApp(bots=["random", "match-prize"], num_cards=3)
    app.games.value = 1
    assert app.run() is None
    assert "Something went wrong (KeyError)" in app.status.value and "/srv" not in app.status.value
    assert isinstance(app.last_error, KeyError) and app.table.value == "" and not app.run_button.disabled


def test_plots_are_sharp_and_their_labels_readable_on_a_projector():
    """Each plot: a PNG of twice the pixels it is shown at, no text under 12 pt (about 17 CSS px)."""
    import matplotlib.text

    from gopskit.viz.tournament import plot_bidding_profiles, plot_distributions, plot_head_to_head

    games = [{"seats": seats, "seed": k, "points": points, "winners": [0], "forfeits": [],
              "record": {"game": "goofspiel", "prizes": [3, 1, 2], "bids": [[3, 1], [1, 2], [2, 3]]}}
             for k, (seats, points) in enumerate(((["a", "b"], [5, 1]), (["b", "a"], [1, 5])))]
    results = ResultSet("goofspiel", {"num_cards": 3}, 0, 2, [{"name": "a"}, {"name": "b"}], games)
    for plot in (plot_head_to_head, plot_distributions, plot_bidding_profiles):
        figure = plot(results)
        figure.canvas.draw()
        sizes = {t.get_text(): t.get_fontsize() for t in figure.findobj(matplotlib.text.Text)
                 if t.get_visible() and t.get_text()}
        assert sizes and min(sizes.values()) >= 12, (plot.__name__, sizes)
    app = TournamentApp(bots=["random"], num_cards=3)
    app.show(results)
    for image in app.plots.children:
        png = bytes(image.value)
        pixels = int.from_bytes(png[16:20], "big")
        assert png.startswith(b"\x89PNG") and image.layout.width == f"calc(var(--gopskit-px, 1px) * {pixels // 2})" and pixels >= 1000
        assert image.layout.max_width == "100%"


def test_the_docstring_examples_hold():
    import doctest

    from gopskit.widgets import tournament

    assert doctest.testmod(tournament).failed == 0


def test_every_control_of_the_tournament_form_has_a_hint_under_it():
    import html as html_module
    import re

    from gopskit.widgets.panel import HintedControl
    app = TournamentApp(bots=["random", "match-prize"], num_cards=5)

    def boxes(widget):
        yield widget
        for child in getattr(widget, "children", ()):
            yield from boxes(child)

    hinted = {box.control: html_module.unescape(re.sub(r"<[^>]+>", "", box.hint.value))
              for box in boxes(app) if isinstance(box, HintedControl)}
    for control in (app.bots, app.cards, app.games, app.seed, app.time_limit):
        assert hinted.get(control), control.description  # as the boards' options and the teacher's form
    assert "choose several" in hinted[app.bots]
    assert "from each seat" in hinted[app.games] and "replays" in hinted[app.seed] and "per move" in hinted[app.time_limit]
    app.games.value, app.seed.value = 2, "5"
    assert app.run() is not None, app.status.value
    assert "Done: 4 games" in app.status.value  # 2 entries, 2 seats, 2 games from each: the hint's arithmetic
