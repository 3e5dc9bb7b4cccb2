"""Static pages for the visual tests: the kit's stylesheet around HTML the widgets wrote, in Chromium.

The boards' look is one stylesheet (gopskit/widgets/style.css) applied to the HTML
the widgets write; the wrappers here repeat the ipywidgets nesting an HTML widget
has on a Voila page (``.widget-html > .widget-html-content``, whose
``overflow-wrap`` the kit sets), so a layout rule is measured without a server.
The page has Voila's side margins (20 px each side: a 1240 px app at 1280).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gopskit.widgets.assets import stylesheet

CHROMIUM = os.environ.get("GOPSKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SIZES = ((1920, 1080), (1280, 800))


def html_widget(content: str, classes: str = "") -> str:
    return f'<div class="widget-html {classes}"><div class="widget-html-content">{content}</div></div>'


def page_html(body: str, root: str = "gopskit-board") -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{stylesheet()}</style>"
            "<style>body{margin:0;padding:0 20px;font-family:sans-serif}"
            ".widget-box{display:flex;flex-direction:column}</style></head>"
            f"<body><div class='{root} widget-box'>{body}</div></body></html>")


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def open_page(browser, html: str, size):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.set_content(html)
    return page


# Words (runs without spaces) that a line break cuts in two, in the cells matched by a selector.
BROKEN_WORDS_JS = """
(selector) => {
  const broken = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(node.textContent))) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(cell.tagName + ' ' + JSON.stringify(cell.innerText));
      }
    }
  }
  return broken;
}
"""
