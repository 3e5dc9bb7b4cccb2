"""The Binder configuration agrees with the package's own dependencies."""

import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _requirements():
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    return sorted(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def test_binder_requirements_equal_the_package_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert _requirements() == sorted(project["dependencies"])


def test_post_build_stops_on_error_and_installs_the_package():
    script = (ROOT / "binder" / "postBuild").read_text()
    assert "set -e" in script and "pip install" in script and script.startswith("#!")


# ------------------------------------------------- Voila's template on Binder ---
# On Binder, Voila runs as an extension of the Jupyter server, not as `gopskit
# serve`: binder/install_voila_template.sh (run by postBuild) copies the
# package's template onto the Jupyter data path and writes voila.json into
# the Jupyter config folder. The tests run that very script into a scratch
# folder and serve a notebook with it.

import html.parser
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

from gopskit.serve import free_port, stop_child
from gopskit.templates import TEMPLATE


def test_post_build_installs_the_voila_template():
    script = (ROOT / "binder" / "postBuild").read_text()
    install = script.index("pip install")
    assert script.index("binder/install_voila_template.sh") > install  # after gopskit itself is installed
    config = json.loads((ROOT / "binder" / "voila_template.json").read_text())
    assert config == {"VoilaConfiguration": {"template": TEMPLATE}}


class _Assets(html.parser.HTMLParser):
    """Every address a page's ``<link href>`` and ``<script src>`` tags load."""

    def __init__(self):
        super().__init__()
        self.addresses: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        address = attrs.get("href") if tag == "link" else attrs.get("src") if tag == "script" else None
        if address:
            self.addresses.append(address)


def _get(url: str, timeout: float = 120) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read().decode()


@pytest.fixture(scope="module")
def binder_server(tmp_path_factory):
    """A Jupyter server (Voila as its extension) configured by Binder's own script, on 127.0.0.1."""
    home = tmp_path_factory.mktemp("binder-home")
    env = {key: value for key, value in os.environ.items() if not key.startswith("JUPYTER")}
    env |= {"PATH": os.pathsep.join([str(pathlib.Path(sys.executable).parent), env.get("PATH", "")]),
            "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
            "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    subprocess.run(["bash", str(ROOT / "binder" / "install_voila_template.sh")], env=env, check=True,
                   capture_output=True, timeout=120)
    port, token = free_port(), "binder-test"
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter_server", "--no-browser", "--allow-root", "--ip=127.0.0.1",
         f"--port={port}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={ROOT / 'notebooks'}",
         f"--IdentityProvider.token={token}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                _get(f"{base}/api/status?token={token}", timeout=5)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the Jupyter server did not start") from None
                time.sleep(0.5)
        yield base, token
    finally:
        stop_child(server, timeout=20)


def test_binder_voila_renders_with_the_gopskit_template_and_links_no_other_host(binder_server):
    base, token = binder_server
    page = _get(f"{base}/voila/render/goofspiel.ipynb?token={token}")
    parser = _Assets()
    parser.feed(page)
    assert parser.addresses, "the page links no stylesheet or script at all"
    outside = [a for a in parser.addresses
               if urllib.parse.urlsplit(a).netloc or urllib.parse.urlsplit(a).scheme not in ("", "data")]
    assert outside == [], f"the page loads from another host: {outside}"
    assert "fontawesome" not in page.lower()
    ours = [a for a in parser.addresses if a.startswith(f"/voila/templates/{TEMPLATE}/static/")]
    assert ours, f"the page is not rendered with the {TEMPLATE} template: {parser.addresses}"
    assert "application/vnd.jupyter.widget-view+json" in page  # the board itself was rendered
    for address in ours:  # and the template's own files are served by the same server
        assert _get(f"{base}{address}&token={token}" if "?" in address else f"{base}{address}?token={token}")
