"""The tournament app and the matrix explorer in a real Voila server and a real headless Chromium.

The server is started with ``GOPSKIT_TOURNAMENT_DIR`` naming a class folder
of two strategy files, the way a teacher configures it; the page has no box
to type another folder into. The test sets the games per seating, runs the
tournament by clicking, and reads the table as a student would: every entry
listed with its kind (bots by their labels, as on the boards), each mean inside its 95 % interval, the rule stated,
no float noise; then picks Rock-Paper-Scissors in the matrix explorer and
reads "Value 0" and "1/3".
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gopskit.serve import background_server

from test_browser import APP_TIMEOUT_MS, browser, open_app, page, status_text  # noqa: F401  (fixtures too)
from test_screens3_tournament import CUTS_JS  # where a line break cuts a cell's text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXAMPLES = Path(__file__).parents[1] / "examples" / "students"
NOISE = re.compile(r"\d\.0*[1-9]\d{4,}|\d[eE][-+]?\d|(?<![\w.])-0\.00(?!\d)")


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    for name in ("copy_the_prize", "one_above"):
        (folder / f"{name}.py").write_text((EXAMPLES / f"{name}.py").read_text(), encoding="utf-8")
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    before = os.environ.get("GOPSKIT_TOURNAMENT_DIR")
    os.environ["GOPSKIT_TOURNAMENT_DIR"] = str(folder)  # the server (and its kernels) inherit it
    try:
        with open(log_path, "wb") as log, background_server(log=log) as url:
            yield url
    finally:
        if before is None:
            os.environ.pop("GOPSKIT_TOURNAMENT_DIR", None)
        else:
            os.environ["GOPSKIT_TOURNAMENT_DIR"] = before


def test_the_tournament_app_runs_the_configured_class_and_explains_its_table(class_server, page, tmp_path):
    open_app(page, class_server, "tournament.ipynb")
    app = page.locator(".gopskit-tournament")
    app.wait_for(timeout=APP_TIMEOUT_MS)
    assert "Class folder" in app.inner_text() and "(2 strategy files)" in app.inner_text()
    assert page.locator(".gopskit-tournament input[type=text]").count() == 1  # the seed, no folder box
    picker = [t.replace("\xa0", " ") for t in page.locator(".gopskit-tournament select option").all_inner_texts()]
    assert "One-higher bot (one-higher)" in picker and "Random bot (random)" in picker  # the label, then the name code takes
    notebook = page.locator(".gopskit-tournament .gopskit-notebook-entries").inner_text()
    assert notebook.startswith("From this notebook (always in the tournament): strategy")  # its code is hidden here
    assert page.locator(".gopskit-progress-label").inner_text().endswith("none yet")
    page.locator(".gopskit-tournament select").first.select_option(label=[  # the audit's long word: "Equilibri" / "um bot"
        "Random bot (random)", "Match-the-prize bot (match-prize)", "One-higher bot (one-higher)",
        "Equilibrium bot (equilibrium)"])
    games = page.locator(".gopskit-tournament .widget-inline-hbox", has_text="Games").locator("input")
    games.fill("2")
    games.press("Tab")
    page.locator(".gopskit-run").click()
    page.wait_for_function("() => document.querySelector('.gopskit-tournament .gopskit-status')"
                           ".innerText.includes('Done')", timeout=240_000)
    track, bar = (page.locator(f".gopskit-tournament .widget-hprogress {part}").bounding_box()["width"]
                  for part in (".progress", ".progress-bar"))
    assert track >= 200 and bar >= track - 4, (track, bar)  # the Tables bar is seen, full once played (it was 2 px wide)
    assert page.locator(".gopskit-progress-label").inner_text() == "Tables played (one per pair of entries): 21 of 21"
    table = page.locator(".gopskit-tournament-table")
    rows = [[cell.strip() for cell in row.inner_text().split("\t")] for row in table.locator("tbody tr").all()]
    names = {row[1]: row for row in rows}
    assert set(names) == {"strategy", "copy_the_prize", "one_above", "Random bot", "Match-the-prize bot", "One-higher bot",
                          "Equilibrium bot"}
    assert names["strategy"][2] == "notebook" and names["one_above"][2] == "student" and names["Random bot"][2] == "bot"
    means = [float(row[3]) for row in rows]
    assert means == sorted(means, reverse=True)
    for row in rows:
        low, high = (float(x) for x in row[4].split(" to "))
        assert low <= float(row[3]) <= high
    assert names["Match-the-prize bot"][10] == "9.00"  # 6 cards: a bot that bids the prize loses 9 points to a perfect reply
    assert names["one_above"][10].startswith("n/a")
    text = page.locator(".gopskit-tournament .gopskit-results").inner_text()
    assert "How the table is ranked" in text and "up to 4 cards for strategy files" in text
    assert not NOISE.search(text), NOISE.search(text)
    for width in (1280, 1024):  # an entry's name wraps at a space, a hyphen or after an underscore, never inside a word
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(250)
        cuts = page.evaluate(CUTS_JS, ".gopskit-tournament-table td:nth-child(2)")
        assert not [cut for cut in cuts if not cut.endswith(('"_"', '" "', '"-"'))], (width, cuts)
    shots = Path(os.environ.get("GOPSKIT_SCREENSHOTS") or tmp_path)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.wait_for_timeout(250)
    page.screenshot(path=str(shots / "tournament-results-1920.png"), full_page=True)


def test_the_matrix_explorer_writes_numbers_as_people_do(class_server, page, tmp_path):
    open_app(page, class_server, "matrix_explorer.ipynb")
    page.locator(".gopskit-board select").first.select_option("Rock-Paper-Scissors")
    picture = page.locator(".gopskit-picture").inner_html()
    page.wait_for_function("() => document.querySelector('.gopskit-summary') && "
                           "document.querySelector('.gopskit-summary').innerText.includes('rock 1/3') && "
                           "document.querySelector('.gopskit-status').innerText.includes('No strategy')",
                           timeout=30_000)
    assert page.locator(".gopskit-picture").inner_html() != picture  # the picture is of the new game too
    summary = page.locator(".gopskit-summary").inner_text()
    assert "Value 0" in summary and "rock 1/3, paper 1/3, scissors 1/3" in summary
    assert "No strategy is strictly dominated" in status_text(page)
    assert not NOISE.search(summary + status_text(page))
    shots = Path(os.environ.get("GOPSKIT_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(shots / "matrix-explorer-rps-1280.png"), full_page=True)


def test_the_strategy_explorer_shows_the_full_deck(class_server, page):
    """13 cards: the opening position from the shipped book, then a 9-card position solved on the click."""
    from gopskit.solvers.exact import solve_endgame

    open_app(page, class_server, "strategy_explorer.ipynb")
    page.locator(".gopskit-board select").first.select_option("13, the full deck")
    page.wait_for_function("() => document.querySelector('.gopskit-status').innerText.includes('opening book')",
                           timeout=60_000)
    assert "Worth 0 to you" in status_text(page) and "(symmetry)" in status_text(page)
    hand, opp, prizes = [1, 3, 4, 6, 8, 9, 10, 11, 13], [2, 3, 5, 6, 7, 9, 11, 12, 13], [1, 2, 4, 5, 7, 8, 10, 12, 13]
    boxes = page.locator(".gopskit-board input[type='text']")
    for box, cards in zip([boxes.nth(i) for i in range(3)], (hand, opp, prizes)):
        box.fill(" ".join(map(str, cards)))
    page.locator(".gopskit-new-game").first.click()
    page.wait_for_function("() => document.querySelector('.gopskit-status').innerText.includes('solved exactly just now')",
                           timeout=60_000)
    status = status_text(page)
    truth = solve_endgame(hand, opp, prizes).value(hand, opp, prizes)
    worth = float(re.search(r"Worth ([-+]?[\d.]+) to you", status).group(1))
    assert abs(worth - truth) <= 0.005 and worth < -1 and not NOISE.search(status)
    assert page.locator(".gopskit-picture svg").count() == 1
