"""Real-browser tests: a real Voila server, a real headless Chromium.

The server is ``python -m gopskit.serve`` on a free localhost port (the
code behind ``gopskit serve``); the browser is Debian's Chromium driven by
Playwright. On the Goofspiel app a whole 5-card game is played against the
bot by clicking ``gopskit-card`` and ``gopskit-confirm`` until
``gopskit-status`` reports the final score. Every app opening without an
error, at three widths, with readable text and nothing fetched from
another host, is ``tests/test_browser_layout.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gopskit.serve import background_server
from test_browser_layout import SCROLLERS_JS, TEXTS_JS, text_size_problems

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = os.environ.get("GOPSKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
APP_TIMEOUT_MS = 90_000
PAGE_HEIGHT_JS = "() => Math.max(...Array.from(document.querySelectorAll('.lm-BoxPanel-child, body')).map(el => el.scrollHeight))"


def _require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}: the browser tests need it. "
            "Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), "
            "or point GOPSKIT_CHROMIUM at a Chromium binary.",
            pytrace=False,
        )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    with open(log_path, "wb") as log, background_server(log=log) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    yield page
    page.close()


def open_app(page, url: str, notebook: str, shots: Path | None = None) -> None:
    """Open one app and wait until its first widget is on screen (a screenshot is kept if it never comes)."""
    page.goto(f"{url}/voila/render/{notebook}", timeout=APP_TIMEOUT_MS)
    first = ".jp-OutputArea-output .jupyter-widgets:visible, .gopskit-landing, .voila-error"
    try:
        page.locator(first).first.wait_for(timeout=APP_TIMEOUT_MS)
    except Exception:
        if shots is not None:
            page.screenshot(path=str(shots / f"{notebook}-timeout.png"), full_page=True)
            (shots / f"{notebook}-timeout.html").write_text(page.content(), encoding="utf-8")
        raise


def status_text(page) -> str:
    return page.locator(".gopskit-status").inner_text().strip()


def test_landing_page_links_every_app(server, page):
    open_app(page, server, "index.ipynb")
    links = {a.get_attribute("href") for a in page.locator("a.gopskit-app-card").all()}
    assert "goofspiel.ipynb" in links and "tournament.ipynb" in links
    page.goto(server + "/", timeout=APP_TIMEOUT_MS)  # the bare address lands on the index
    assert page.url.endswith("/voila/render/index.ipynb")


def _play_turn_by_clicks(page) -> None:
    before = status_text(page)
    page.locator(".gopskit-card:not([disabled])").first.click()
    page.locator(".gopskit-confirm:not([disabled])").wait_for(timeout=10_000)
    page.locator(".gopskit-confirm").click()
    page.wait_for_function(
        "prev => document.querySelector('.gopskit-status').innerText.trim() !== prev "
        "&& !document.querySelector('.gopskit-status').innerText.includes('you chose') "
        "&& !document.querySelector('.gopskit-status').innerText.includes('still working out')",
        arg=before, timeout=10_000,
    )


def test_goofspiel_whole_game_against_a_bot(server, page, tmp_path):
    open_app(page, server, "goofspiel.ipynb")
    assert "Player 2 (" in page.locator(".gopskit-board").inner_text()  # seat 2 is a bot
    assert page.locator(".gopskit-new-game").count() == 1
    # turn 1 from the keyboard: A selects the Ace, Enter confirms
    page.keyboard.press("a")
    page.locator(".gopskit-confirm:not([disabled])").wait_for(timeout=10_000)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('.gopskit-history tbody tr').length === 1", timeout=10_000)
    first_row = page.locator(".gopskit-history tbody tr").first.inner_text()
    assert re.search(r"\bA\b", first_row), f"the Ace was not played from the keyboard: {first_row!r}"
    for _turn in range(4):
        _play_turn_by_clicks(page)
    shots = Path(os.environ.get("GOPSKIT_SCREENSHOTS") or tmp_path)  # the docs' pictures of a finished game
    for width, height in ((1920, 1080), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)
        if width == 1920:  # the end of a game (summary, chart, turn table) reads on a projector too
            problems = text_size_problems(page.evaluate(TEXTS_JS)) + page.evaluate(SCROLLERS_JS)
            assert not problems, problems
        # then as tall as the app: Voila's shell scrolls inside the page
        page.set_viewport_size({"width": width, "height": max(height, page.evaluate(PAGE_HEIGHT_JS))})
        page.wait_for_timeout(150)
        page.screenshot(path=str(shots / f"goofspiel-game-over-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    final = status_text(page)
    match = re.search(r"Final score: Player 1 (\d+), Player 2 (\d+)", final)
    assert match, f"no final score on the status line: {final!r}"
    assert int(match[1]) + int(match[2]) <= 15
    assert page.locator(".gopskit-history tbody tr").count() == 5
    assert page.locator(".gopskit-summary svg").count() == 1  # the points chart
    page.locator(".gopskit-new-game").click()
    page.wait_for_function("() => !document.querySelector('.gopskit-status').innerText.includes('Game over')",
                           timeout=10_000)
    assert page.locator(".gopskit-card:not([disabled])").count() == 5
