"""``gopskit serve``: where the apps are found and what Voila is told."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import nbformat
import pytest

from gopskit import serve
from gopskit.errors import GopsError
from gopskit.widgets.apps import APPS

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_notebooks_are_found_beside_the_package(monkeypatch):
    monkeypatch.delenv("GOPSKIT_NOTEBOOKS", raising=False)
    assert serve.notebooks_dir() == NOTEBOOKS


def test_the_environment_variable_wins(monkeypatch, tmp_path):
    (tmp_path / "index.ipynb").write_text("{}")
    monkeypatch.setenv("GOPSKIT_NOTEBOOKS", str(tmp_path))
    assert serve.notebooks_dir() == tmp_path


def test_missing_notebooks_say_where_they_were_looked_for(monkeypatch, tmp_path):
    monkeypatch.setenv("GOPSKIT_NOTEBOOKS", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(serve, "__file__", str(tmp_path / "pkg" / "serve.py"))
    with pytest.raises(GopsError, match="GOPSKIT_NOTEBOOKS"):
        serve.notebooks_dir()


def test_voila_hides_sources_and_tracebacks():
    argv = serve.voila_argv(NOTEBOOKS, port=9001, open_browser=False)
    assert argv[0] == str(NOTEBOOKS)
    for flag in ("--port=9001", "--strip_sources=True", "--show_tracebacks=False", "--Voila.open_browser=False"):
        assert flag in argv
    assert ("--preheat_kernel=True" in argv) == serve.PREHEAT
    assert "--preheat_kernel=True" not in serve.voila_argv(NOTEBOOKS, preheat=False)


@pytest.mark.parametrize("port", [0, 70000, "8866", True])
def test_bad_ports_are_refused(port):
    with pytest.raises(GopsError, match="port"):
        serve.voila_argv(NOTEBOOKS, port=port)


def test_every_app_has_a_notebook_and_the_index_links_it():
    names = {p.name for p in NOTEBOOKS.glob("*.ipynb")} - {"index.ipynb"}
    listed = {a.notebook for a in APPS}
    assert names <= listed, f"notebooks missing from the landing page: {names - listed}"
    mine = listed - {"tournament.ipynb"}  # the tournament app is written by its own module's owner
    assert mine <= names, f"apps without a notebook: {mine - names}"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebooks_are_stored_clean_and_small(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "store notebooks without outputs"
            assert len(cell.source.splitlines()) <= 8, "notebooks arrange; logic lives in gopskit"


@pytest.mark.slow
def test_the_bare_address_redirects_to_the_index():
    with serve.background_server(preheat=False) as url:
        with urllib.request.urlopen(url + "/", timeout=30) as answer:
            assert answer.url.endswith("/voila/render/index.ipynb")
        with urllib.request.urlopen(url + "/voila/api/contents", timeout=10) as answer:
            listing = json.load(answer)
    assert any(item["name"] == "goofspiel.ipynb" for item in listing["content"])


def test_the_stored_index_matches_the_list_of_apps():
    from gopskit.widgets.apps import index_notebook

    stored = nbformat.read(NOTEBOOKS / "index.ipynb", as_version=4)
    assert stored.cells[0].source == index_notebook().cells[0].source, \
        "index.ipynb is out of date: run gopskit.widgets.apps.write_index('notebooks/index.ipynb')"


def test_serve_can_listen_on_the_classroom_network():
    from pathlib import Path

    from gopskit.serve import voila_argv

    assert "--Voila.ip=localhost" in voila_argv(Path("notebooks"), 8866, False)
    assert "--Voila.ip=0.0.0.0" in voila_argv(Path("notebooks"), 8866, False, host="0.0.0.0")


# ------------------------------------------------------------ the bounds (gopskit.server)
def test_voila_gets_the_bounds_and_a_small_preheated_pool():
    from gopskit.server.limits import Limits

    argv = serve.voila_argv(NOTEBOOKS, 9001, False, limits=Limits(max_kernels=7, kernel_memory_mb=512,
                                                                  cull_idle_seconds=30, cull_interval_seconds=10))
    for flag in ("--GopskitKernelManager.max_kernels=7", "--LimitedKernelManager.memory_mb=512",
                 "--MappingKernelManager.cull_idle_timeout=30", "--MappingKernelManager.cull_interval=10",
                 "--MappingKernelManager.cull_connected=False", "--pool_size=0",
                 "--VoilaConfiguration.multi_kernel_manager_class=gopskit.server.kernels.GopskitKernelManager"):
        assert flag in argv
    pools = serve.voila_config(preheat=True).VoilaKernelManager.kernel_pools_config
    assert pools["default"]["pool_size"] == 0
    assert sum(p["pool_size"] for p in pools.values()) == len(serve.PREHEATED) <= 2
    assert all((NOTEBOOKS / name).is_file() for name in serve.PREHEATED)


@pytest.mark.parametrize("field, value", [("max_kernels", 0), ("max_kernels", 10_000), ("kernel_memory_mb", 10),
                                          ("cull_idle_seconds", "60"), ("pages_per_minute", True),
                                          ("kernels_per_client", 0), ("kernels_per_client", 501)])
def test_bad_limits_are_refused_with_what_is_allowed(field, value):
    from gopskit.server.limits import Limits

    with pytest.raises(GopsError, match="whole number from"):
        Limits(**{field: value})


def test_the_default_cap_follows_the_memory():
    from gopskit.server.limits import default_max_kernels

    caps = [default_max_kernels(total_memory_mb=gb * 1024) for gb in (1, 4, 8, 16, 64, 4096)]
    assert caps == sorted(caps) and caps[0] == 2 and caps[-1] == 500
    assert 30 < default_max_kernels(total_memory_mb=8 * 1024) <= (8 * 1024 - 2048) / 120  # a class of 30 fits


def test_serve_options_reach_the_limits():
    import argparse

    parser = argparse.ArgumentParser()
    serve.add_limit_options(parser, hidden=True)
    limits = serve.limits_from(parser.parse_args(["--max-kernels=5", "--kernel-memory=700", "--cull-after=9",
                                                  "--kernels-per-client=3"]))
    assert (limits.max_kernels, limits.kernel_memory_mb, limits.cull_idle_seconds) == (5, 700, 9)
    assert limits.kernels_per_client == 3
    assert "--GopskitKernelManager.kernels_per_client=3" in serve.voila_argv(NOTEBOOKS, limits=limits)
    assert serve.limits_from(parser.parse_args([])).kernels_per_client == 4
    with pytest.raises(GopsError, match="kernel cap"):
        serve.limits_from(parser.parse_args(["--max-kernels=-1"]))


def test_the_addresses_printed_for_a_classroom(monkeypatch):
    assert serve.addresses_to_open(8866, "localhost") == ["Open http://localhost:8866 in a browser on this computer."]
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.20")
    assert serve.addresses_to_open(8866, "0.0.0.0")[1].startswith("Students open http://192.168.1.20:8866")
    monkeypatch.setattr(serve, "lan_address", lambda: None)
    assert "no network address found" in serve.addresses_to_open(8866, "0.0.0.0")[1]


def test_headers_are_read_safely_whatever_the_counts_say():
    import struct

    from gopskit.server.handlers import message_type, well_formed

    huge = (2 ** 60).to_bytes(8, "little") + struct.pack("<QQ", 10**12, 10**13) + b"x" * 40
    assert message_type(huge, v1=True) is None and not well_formed(huge, v1=True)
    legacy = struct.pack("!II", 1, 8) + b'{"header": {"msg_type": "execute_input"}}'
    assert message_type(legacy, v1=True) is None  # misread as v1: still no harm, no answer
    assert well_formed(legacy, v1=False) and message_type(legacy, v1=False) is None
    assert message_type('{"header": {"msg_type": "execute_input"}}', v1=False) == "execute_input"
    assert message_type('{"header": {"msg_type": "stream"}}', v1=False) is None
    assert message_type({"header": {"msg_type": "execute_input"}}, v1=True) == "execute_input"


def test_pace_allows_a_number_of_loads_a_minute_per_address():
    from gopskit.server.handlers import Pace

    local = Pace(per_minute=1, pace_loopback=False)
    assert all(local.allow("127.0.0.1", now=0) for _ in range(5))
    assert local.allow("10.0.0.7", now=0) and not local.allow("10.0.0.7", now=1)
    pace = Pace(per_minute=2, max_addresses=3)
    assert [pace.allow("a", now=t) for t in (0, 1, 2)] == [True, True, False]
    assert pace.allow("b", now=2) and pace.allow("a", now=61.5)
    for i in range(10):  # many addresses: the table stays bounded
        pace.allow(f"x{i}", now=100 + i)
    assert len(pace._seen) <= 3


def test_the_offline_buffer_is_bounded():
    """Messages kept for a dropped page stop at buffer_max_messages; then the buffer is dropped."""
    from gopskit.server.kernels import GopskitKernelManager

    class Stream:
        def __init__(self):
            self.callback, self.closed_ = None, False
            self.socket = type("S", (), {"closed": False})()

        def on_recv(self, callback):
            self.callback = callback

        def close(self):
            self.closed_ = True

    manager = GopskitKernelManager(buffer_max_messages=5, buffer_max_bytes=1 << 20)
    manager._check_kernel_id = lambda kernel_id: None
    streams = {"iopub": Stream(), "shell": Stream()}
    manager.start_buffering("k", "session", streams)
    for _ in range(5):
        streams["iopub"].callback([b"x" * 10])
    assert len(manager._kernel_buffers["k"]["buffer"]) == 5
    streams["iopub"].callback([b"x"])
    assert "k" not in manager._kernel_buffers and manager.buffers_dropped == 1
    assert all(s.closed_ for s in streams.values())


def test_a_crashing_click_shows_no_server_path():
    from gopskit.widgets._guard import guarded

    class Widget:
        crash_advice = " Press New game."
        shown = None

        def _show_error(self, text):
            self.shown = text

        def _record_click_ms(self, ms):
            self.ms = ms

        @guarded
        def click(self):
            open("/work/secret/folder/notes.txt")

    widget = Widget()
    widget.click()
    assert isinstance(widget.last_error, FileNotFoundError)
    assert widget.shown.startswith("Something went wrong (FileNotFoundError:") and widget.shown.endswith("New game.")
    assert "/work" not in widget.shown and "secret" not in widget.shown


def test_gopskit_serve_refuses_a_bad_per_client_cap_in_one_line():
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "gopskit.cli", "serve", "--no-browser", "--kernels-per-client", "0"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "gopskit: the per-client kernel cap is a whole number from 1 to 500 (live kernels one computer may hold), not 0"]


def test_kernels_are_counted_by_the_connection_address_not_by_headers():
    from gopskit.server.kernels import client_key
    from gopskit.server.limits import LOOPBACK

    assert client_key("10.0.0.7") != client_key("10.0.0.8")
    assert client_key("fe80::1:2:3:4") == client_key("fe80::9:9:9:9")  # one computer's many IPv6 addresses
    assert client_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert "127.0.0.2" not in LOOPBACK and "127.0.0.1" in LOOPBACK  # only this computer's own browser is exempt


def test_a_kernel_caught_half_started_costs_the_culler_one_line_not_a_traceback(caplog):
    """A trait read too early (a traitlets error) is logged as one line and the culler moves on."""
    import asyncio
    import logging

    from traitlets import TraitError

    from gopskit.server.kernels import GopskitKernelManager

    class HalfStarted:
        execution_state = "starting"

        @property
        def kernel_spec(self):
            raise TraitError("The 'kernel_spec_manager' trait expected a KernelSpecManager, not the NoneType None.")

    manager = GopskitKernelManager()
    manager._kernels["k"] = HalfStarted()
    manager.log = logging.getLogger("gopskit-test-culler")
    with caplog.at_level(logging.INFO, logger="gopskit-test-culler"):
        asyncio.run(manager.cull_kernels())
    lines = [r for r in caplog.records if r.name == "gopskit-test-culler"]
    assert any("skipped kernel k" in r.getMessage() and "TraitError" in r.getMessage() for r in lines)
    assert not any(r.exc_info for r in lines)
    assert "k" in manager._kernels  # nothing was shut down
