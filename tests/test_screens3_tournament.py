"""The tournament runner, third screen audit: intervals inside what a game can give, every neighbouring pair
settled, names that wrap at spaces, and an intro and progress bar that say only what the page shows."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gopskit.arena.results import MIN_DEALS, ResultSet, interval_text

pytest.importorskip("ipywidgets")

from gopskit.widgets.tournament import TournamentApp, ranking_html  # noqa: E402

from screens_visual_static import browser  # noqa: E402,F401  (the fixture)


def strategy(observation):
    """The notebook's strategy: bid the card worth as much as the prize."""
    return observation.prize if observation.prize in observation.hand else observation.hand[0]


def _games(points_by_deal, names=("a", "b")):
    """One deal per entry of ``points_by_deal`` (``[a's points, b's points]``), played from one seat."""
    return [{"seats": list(names), "seed": k, "points": list(p), "winners": [0 if p[0] >= p[1] else 1],
             "forfeits": [], "record": None} for k, p in enumerate(points_by_deal)]


def _text(page: str) -> str:
    """What a reader sees of ``page``: no tags, entities read, runs of spaces as one."""
    import html

    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.split("</style>")[-1]))).strip()


# ------------------------------------------------ 1. intervals a game allows ---
@pytest.fixture(scope="module")
def two_deals():
    """The audit's run, without the slow equilibrium bot: 13 cards, 1 game per seating, seed 1 (2 deals each)."""
    app = TournamentApp(functions=[strategy], bots=["random", "match-prize"], num_cards=13)
    app.games.value = 1
    app.seed.value = "1"
    assert app.run() is not None, app.status.value
    return app


def test_two_deals_give_no_interval_but_say_why(two_deals):
    results = two_deals.results
    rows = results.ranking()
    assert all(row["deals"] == 2 and row["ci_low"] is None and row["ci_high"] is None for row in rows)
    text = _text(two_deals.table.value)
    assert text.count("too few deals") == len(rows)  # the interval column of every row
    assert re.search(r"-?\d+\.\d\d to -?\d+\.\d\d", text.split("How the table")[0]) is None
    assert f"an interval needs at least {MIN_DEALS} deals" in text
    assert "12.7 standard errors" in text  # Student's t over 2 deals, from scipy
    for sentence in re.findall(r"<li>(.*?)</li>", two_deals.table.value):
        assert "over 1 deal: too few to tell" in sentence and "interval " not in sentence.split("(")[0]


def test_the_points_chart_stays_inside_what_a_game_gives(two_deals):
    from gopskit.viz.tournament import plot_distributions

    results = two_deals.results
    assert results.point_range() == (0, 91)  # 1 + 2 + ... + 13
    ax = plot_distributions(results, labels=results.labels()).axes[0]
    left, right = ax.get_xlim()
    assert -0.02 * 91 - 1e-9 <= left and right <= 91 * 1.02 + 1e-9, (left, right)
    assert "no 95% intervals: too few deals" in ax.get_title()
    assert not [line for line in ax.get_lines() if line.get_linewidth() == 3]  # no interval bars


def test_an_interval_stops_at_the_fewest_and_most_points_and_says_so():
    # 0, 0, 0, 0, 91 over five deals: Student's t reaches below 0 (mean 18.2, half-width 50.5)
    games = _games([[0, 91], [0, 91], [0, 91], [0, 91], [91, 0]])
    rs = ResultSet("goofspiel", {"num_cards": 13}, 0, 1, [{"name": "a"}, {"name": "b"}], games)
    rows = {row["name"]: row for row in rs.ranking()}
    assert rows["a"]["ci_low"] == 0.0 and 0 < rows["a"]["ci_high"] < 91
    assert rows["b"]["ci_high"] == 91.0 and 0 < rows["b"]["ci_low"]
    assert interval_text(rows["a"]).startswith("0.00 to ")
    note = rs.interval_note()
    assert "Intervals stop at 0 and 91, the fewest and most points one game of 13 cards can give" in note
    assert note.endswith("for b, a.")  # in ranking order
    assert "Intervals stop at 0 and 91" in _text(ranking_html(rs)) and "Intervals stop at 0 and 91" in rs.ranking_text()
    row = rs.compare("b", "a")  # the margin: 91 - 0 = 91 on four deals, -91 on one
    assert row["high"] == 91.0 and row["cut"]
    assert "stopped at 91: no game is won by more than 91" in rs.compare_text("b", "a")
    assert "-" not in interval_text(rows["a"])


def test_a_narrow_interval_is_left_as_student_s_t_gives_it():
    from scipy import stats

    values = [30, 34, 31, 35, 33, 32]
    rs = ResultSet("goofspiel", {"num_cards": 13}, 0, 1, [{"name": "a"}, {"name": "b"}],
                   _games([[v, 91 - v] for v in values]))
    row = next(r for r in rs.ranking() if r["name"] == "a")
    half = stats.t.ppf(0.975, 5) * np.std(values, ddof=1) / np.sqrt(6)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((np.mean(values) - half, np.mean(values) + half))
    assert rs.interval_note() == ""  # nothing cut, nobody short of deals: no note


@settings(max_examples=40, deadline=None)
@given(deals=st.lists(st.integers(0, 21), min_size=1, max_size=12))
def test_no_interval_ever_leaves_the_possible_range(deals):
    """6 cards: 21 points a game. Each deal splits them (a takes v, b the rest)."""
    rs = ResultSet("goofspiel", {"num_cards": 6}, 0, 1, [{"name": "a"}, {"name": "b"}],
                   _games([[v, 21 - v] for v in deals]))
    for row in rs.ranking():
        if len(deals) < MIN_DEALS:
            assert row["ci_low"] is None and interval_text(row) == "too few deals"
        else:
            assert 0 <= row["ci_low"] <= row["mean_points"] <= row["ci_high"] <= 21
    margin = rs.compare("a", "b")
    if margin["low"] is not None:
        assert -21 <= margin["low"] <= margin["mean"] <= margin["high"] <= 21


def test_a_game_without_a_known_bound_keeps_student_s_t():
    rs = ResultSet("raj", {}, 0, 1, [{"name": "a"}, {"name": "b"}], _games([[0, 9], [9, 0]] * 3))
    assert rs.point_range() is None and rs.margin_range() is None
    row = next(r for r in rs.ranking() if r["name"] == "a")
    assert row["ci_low"] < 0  # the raw interval, as before: the kit knows no bound to cut it at


# ------------------------------------------- 2. every neighbouring pair ---
def _field(count: int, deals: int = 5) -> ResultSet:
    """``count`` entries e0, e1, ...: e_i scores 10 + i against anyone, on ``deals`` deals of every pair."""
    names = [f"e{i}" for i in range(count)]
    games = []
    for i, a in enumerate(names):
        for j, b in enumerate(names[i + 1:], i + 1):
            games += [{"seats": [a, b], "seed": 100 * i + 10 * j + k, "points": [10 + i + k % 2, 10 + j],
                       "winners": [1], "forfeits": [], "record": None, "table": f"{a}-{b}"} for k in range(deals)]
    return ResultSet("goofspiel", {"num_cards": 13}, 0, deals, [{"name": n, "kind": "student"} for n in names], games)


def test_every_neighbouring_pair_is_settled_down_to_the_last():
    from gopskit.widgets.tournament import neighbour_texts

    results = _field(9)
    ranking = results.ranking()
    order = [row["name"] for row in ranking]
    assert order == [f"e{i}" for i in range(8, -1, -1)]
    sentences = neighbour_texts(results, ranking)
    assert len(sentences) == 8 == len(results.neighbours())  # the app and the command line alike
    for (upper, lower), sentence in zip(zip(order, order[1:]), sentences):
        assert sentence.startswith(f"{upper} scores ") and f" than {lower} per game" in sentence
    page = ranking_html(results)
    items = re.findall(r"<li>(.*?)</li>", page.split("next one down")[1])
    assert len(items) == 8 and items[-1].startswith("e1 scores ") and " than e0 " in items[-1]


# ------------------------------------------- 3. names wrap at spaces only ---
# Where a line break cuts a cell's text: the cell and the character before each cut (the served page's test too).
CUTS_JS = """(selector) => Array.from(document.querySelectorAll(selector)).flatMap(cell => {
  const cuts = [], walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  let node, top = null, before = '';
  while ((node = walker.nextNode())) {
    for (let i = 0; i < node.textContent.length; i++) {
      const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      const rect = r.getBoundingClientRect();
      if (rect.width === 0) { before = node.textContent[i]; continue; }  // a space at a line's end
      if (top !== null && rect.top > top + 2) cuts.push(cell.innerText + ' after ' + JSON.stringify(before));
      top = rect.top; before = node.textContent[i];
    }
  }
  return cuts; })"""


def _audit_field() -> ResultSet:
    """The audit's table: a notebook strategy, the Equilibrium bot and the Random bot, 13 cards, 6 deals each."""
    entries = [{"name": "strategy", "kind": "notebook", "origin": "notebook"},
               {"name": "equilibrium", "kind": "bot", "bot": "equilibrium"}, {"name": "random", "kind": "bot", "bot": "random"}]
    pairs = (("strategy", "equilibrium"), ("strategy", "random"), ("equilibrium", "random"))
    games = [{"seats": [a, b], "seed": k, "points": [40 + 7 * k, 51 - 7 * k], "winners": [0 if k > 1 else 1],
              "forfeits": [], "record": None, "table": f"{a}-{b}"} for a, b in pairs for k in range(3)]
    return ResultSet("goofspiel", {"num_cards": 13}, 0, 3, entries, games)


@pytest.mark.parametrize("font", ["sans-serif", "monospace"])
def test_entry_names_wrap_at_spaces_never_inside_a_word(browser, font):  # noqa: F811
    """The served page's font is not this page's: a wider one (monospace stands in) must not cut a word either.
    The entry column used to shrink to 6em and cut "Equilibrium bot" as "Equilibri" / "um bot" (1280 px)."""
    from screens_visual_static import html_widget, open_page, page_html

    body = html_widget(ranking_html(_audit_field()), "gopskit-results")
    wide = f"<style>.gopskit-tournament-table td, .gopskit-tournament-table th{{font-family:{font}}}</style>"
    assert "<b>Equilibrium bot</b>" in body
    for size in ((1920, 1080), (1280, 800), (1024, 768)):
        page = open_page(browser, page_html(wide + body, "gopskit-board gopskit-tournament"), size)
        cuts = page.evaluate(CUTS_JS, ".gopskit-tournament-table td:nth-child(2)")
        fits = page.evaluate("() => { const s = document.querySelector('.gopskit-results');"
                             " return s.scrollWidth <= s.clientWidth + 1; }")
        page.close()
        bad = [cut for cut in cuts if not cut.endswith(('"_"', '" "', '"-"'))]
        assert not bad, (size, font, bad)
        assert fits or size[0] < 1280 or font == "monospace", (size, font)  # the table still fits a laptop


def test_only_a_monster_of_a_name_breaks_inside_and_then_in_long_pieces():
    from gopskit.widgets.tournament import _breakable

    assert _breakable("Equilibrium bot") == "Equilibrium bot" and _breakable("one_above") == "one_<wbr>above"
    assert _breakable("abcdefghijklmnopqrstuvwxyz") == "abcdefghijkl<wbr>mnopqrstuvwx<wbr>yz"
    assert _breakable("x<y_z") == "x&lt;y_<wbr>z"


# ------------------------------- 4. an intro and a progress bar the page bears out ---
def _intro() -> str:
    import json
    import pathlib

    notebook = json.loads((pathlib.Path(__file__).parents[1] / "notebooks" / "tournament.ipynb").read_text())
    return "".join(notebook["cells"][0]["source"])


def test_the_intro_speaks_only_of_what_the_served_page_shows():
    intro = _intro()
    for gone in ("written right here", "example strategies below", "settle each pair"):
        assert gone not in intro, gone  # the code is hidden on a served page; nothing below lists the examples
    assert "named in the form: those always take part" in intro and "tick box below names the folder" in intro
    assert "compare every entry with the next one down" in intro and "once the entry has played enough deals" in intro


def test_the_notebook_strategies_are_named_in_the_form_and_always_play(monkeypatch):
    import ipywidgets as w

    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(functions=[strategy], bots=["random"], num_cards=3)
    form = app.children[1]
    assert app.notebook_note in form.children  # in the options form, beside the class folder's tick box
    note = _text(app.notebook_note.value)
    assert note == ("From this notebook (always in the tournament): strategy "
                    "– The notebook's strategy: bid the card worth as much as the prize.")
    assert not any(isinstance(c, w.Checkbox) and "strategy" in c.description for c in form.children)
    assert [e.name for e in app.entries() if e.origin == "notebook"] == ["strategy"]
    bare = TournamentApp(bots=["random", "match-prize"], num_cards=3)
    assert bare.notebook_note not in bare.children[1].children  # no notebook strategies: no line


def test_the_progress_bar_says_what_it_counts(monkeypatch):
    monkeypatch.delenv("GOPSKIT_TOURNAMENT_DIR", raising=False)
    app = TournamentApp(functions=[strategy], bots=["random", "match-prize", "one-higher"], num_cards=3)
    assert app.progress.description == ""  # no bare "Tables" beside it
    row = app.children[2].children
    assert row.index(app.progress_label) == row.index(app.progress) - 1  # the label is right before the bar
    assert _text(app.progress_label.value).strip() == "Tables played (one per pair of entries): none yet"
    seen = []
    show = app._show_progress
    app._show_progress = lambda done, total: (show(done, total), seen.append(_text(app.progress_label.value)))
    app.games.value = 1
    app.seed.value = "2"
    results = app.run()
    tables = len({tuple(sorted(game["seats"])) for game in results.games})
    assert tables == 4 * 3 // 2  # four entries: six pairs
    assert seen[0].strip().endswith(f": 0 of {tables}") and seen[-1].strip().endswith(f": {tables} of {tables}")
    assert _text(app.progress_label.value).strip().endswith(f"{tables} of {tables}")
    assert (app.progress.value, app.progress.max) == (tables, tables)
    app.reset()
    assert _text(app.progress_label.value).strip().endswith("none yet") and app.progress.value == 0
