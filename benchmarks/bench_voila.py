"""How fast the apps open and answer, measured in a real browser (a figure, never pass/fail).

For each app of ``notebooks/`` and for a bare notebook holding one ipywidgets
slider, served by the same Voila server (``python -m gopskit.serve``), it
opens a fresh headless Chromium page and times the wait from the request
until the first widget is on screen; the median of ``--repeat`` visits is
printed per app, with its ratio to the bare notebook. It does this with
Voila's preheated kernels off and on, so the choice in ``gopskit.serve`` rests
on a measurement. "On" keeps one kernel ready only for the notebooks of
``gopskit.serve.PREHEATED`` (the landing page and the Goofspiel board, a
small pool rather than one kernel per app): the other apps start their
kernel when asked in both modes. Then it plays Goofspiel turns and prints the click
latency: server side (the board's own timing of its callback, read from the
page) and round trip (click to updated page).

Run: ``.venv/bin/python benchmarks/bench_voila.py [--repeat 3] [--modes off,on]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from gopskit.serve import background_server, notebooks_dir

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
BARE = "zz_bare_slider.ipynb"
FIRST_WIDGET = ".jp-OutputArea-output .widget-slider:visible, .gopskit-status .gopskit-status-text, .gopskit-landing"
# the landing page has no widget: the first thing on screen is its grid of apps


def bare_notebook(folder: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import ipywidgets as widgets\n\nwidgets.IntSlider()")]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, folder / BARE)


def time_to_first_widget(browser, url: str, notebook: str) -> float:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        started = time.perf_counter()
        page.goto(f"{url}/voila/render/{notebook}", timeout=120_000)
        selector = FIRST_WIDGET if notebook != "tournament.ipynb" else ".jp-OutputArea-output .jupyter-widgets:visible"
        page.locator(selector).first.wait_for(timeout=120_000)
        return time.perf_counter() - started
    finally:
        context.close()


def click_latency(browser, url: str, turns: int = 4) -> tuple[list[float], list[float]]:
    """Server-side and round-trip milliseconds of card and confirm clicks on the Goofspiel app."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    server, round_trip = [], []
    try:
        page.goto(f"{url}/voila/render/goofspiel.ipynb", timeout=120_000)
        page.locator(".gopskit-status .gopskit-status-text").first.wait_for(timeout=120_000)
        for _ in range(turns):
            for action in ("card", "confirm"):
                before = page.locator(".gopskit-timing").inner_html()
                started = time.perf_counter()
                if action == "card":
                    page.locator(".gopskit-card:not([disabled])").first.click()
                else:
                    page.locator(".gopskit-confirm:not([disabled])").click()
                page.wait_for_function("b => document.querySelector('.gopskit-timing').innerHTML !== b", arg=before)
                round_trip.append((time.perf_counter() - started) * 1000)
                server.append(float(page.locator(".gopskit-timing span").get_attribute("data-click-ms")))
    finally:
        page.close()
    return server, round_trip


def measure(mode: str, folder: Path, apps: list[str], repeat: int, settle: float) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    os.environ["GOPSKIT_NOTEBOOKS"] = str(folder)
    results = {}
    with background_server(preheat=(mode == "on")) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        time.sleep(settle)  # let preheated kernels start and run their notebooks
        for notebook in apps:
            times = []
            for _ in range(repeat):
                times.append(time_to_first_widget(browser, url, notebook))
                time.sleep(settle / 4 if mode == "on" else 0.5)  # the pool refills between visits
            results[notebook] = statistics.median(times)
        server, trip = click_latency(browser, url)
        results["_click_server_ms"] = statistics.median(server)
        results["_click_server_max_ms"] = max(server)
        results["_click_round_trip_ms"] = statistics.median(trip)
        browser.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--modes", default="off,on", help="preheated kernels: off, on, or off,on")
    parser.add_argument("--apps", default="", help="comma-separated notebooks to measure (default: all)")
    parser.add_argument("--settle", type=float, default=40.0, help="seconds to let a preheated pool fill")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "notebooks"
        shutil.copytree(notebooks_dir(), folder)
        bare_notebook(folder)
        apps = [BARE] + sorted(p.name for p in folder.glob("*.ipynb") if p.name != BARE)
        if args.apps:
            apps = [BARE] + [a for a in args.apps.split(",") if a != BARE]
        table = {mode: measure(mode, folder, apps, args.repeat, args.settle if mode == "on" else 2.0)
                 for mode in args.modes.split(",")}
    modes = list(table)
    print(f"\ntime to first widget (median of {args.repeat}), seconds; ratio to the bare one-slider notebook")
    print(f"{'app':32}" + "".join(f"{'preheat ' + m:>16}{'ratio':>8}" for m in modes))
    for notebook in apps:
        cells = "".join(f"{table[m][notebook]:>16.2f}{table[m][notebook] / table[m][BARE]:>8.2f}" for m in modes)
        print(f"{notebook:32}{cells}")
    for m in modes:
        r = table[m]
        print(f"click latency, preheat {m}: server side median {r['_click_server_ms']:.1f} ms "
              f"(max {r['_click_server_max_ms']:.1f} ms), round trip median {r['_click_round_trip_ms']:.0f} ms")


if __name__ == "__main__":
    main()
