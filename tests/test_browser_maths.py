"""Maths in a served app is typeset by the page's own MathJax, with nothing fetched from another host.

Voila's front end carries two typesetters: MathJax 2 loaded from a CDN, used
when the page config names a MathJax URL, and MathJax 3 bundled in its own
scripts, used when it names none. The kit's server names none, so a lesson
or app with formulas works on a classroom network without the internet. A
real Voila server serves a notebook with inline and display maths; real
Chromium must show it typeset and make no request beyond the server.
"""

from __future__ import annotations

import nbformat
import pytest

from gopskit.serve import background_server
from test_browser import APP_TIMEOUT_MS, browser, page  # noqa: F401 (fixtures)
from test_browser_layout import outside_requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def maths_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("maths-app")
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("The value is $v = \\max_x \\min_y x^\\top A y$, and\n\n"
                                      "$$\\sum_{i=1}^{13} i = 91.$$"),
        nbformat.v4.new_code_cell("1 + 1"),
    ])
    nbformat.write(notebook, folder / "index.ipynb")  # the server wants a landing page: this is it
    log_path = folder / "voila.log"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GOPSKIT_NOTEBOOKS", str(folder))
        with open(log_path, "wb") as log, background_server(log=log, preheat=False) as url:
            yield url


def test_formulas_are_typeset_without_the_internet(maths_server, page):  # noqa: F811 (fixture)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{maths_server}/voila/render/index.ipynb", timeout=APP_TIMEOUT_MS)
    page.locator(".jp-RenderedMarkdown").first.wait_for(timeout=APP_TIMEOUT_MS)
    typeset = page.locator("mjx-container")
    typeset.first.wait_for(timeout=APP_TIMEOUT_MS)
    assert typeset.count() == 2  # the inline formula and the displayed one
    assert "$" not in page.locator(".jp-RenderedMarkdown").first.inner_text()  # no raw TeX left on screen
    assert outside_requests(maths_server, requests) == []
