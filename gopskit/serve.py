"""``gopskit serve``: the apps of ``notebooks/`` served with Voila.

Voila runs each notebook in its own kernel and shows only its widgets: no
code (``strip_sources``), no tracebacks (``show_tracebacks=False``). The
address http://localhost:8866 opens straight on the landing page
``index.ipynb``; every app is at ``/voila/render/NAME.ipynb``.

Voila can keep a kernel per app started and the notebook already run
("preheated kernels"), so an app opens without waiting for Python to start.
:data:`PREHEAT` says whether ``serve`` does it; ``benchmarks/bench_voila.py``
measures both ways in a real browser.

Where the notebooks are: the environment variable ``GOPSKIT_NOTEBOOKS`` if
set, else ``notebooks/`` beside the package (a checkout, installed editable
with ``pip install -e .``), else ``notebooks/`` in the current folder.

>>> argv = voila_argv(notebooks_dir(), port=8870, open_browser=False)
>>> "--port=8870" in argv and "--strip_sources=True" in argv
True
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .errors import GopsError
from .templates import voila_template_argv

DEFAULT_PORT = 8866
PREHEAT = True
INDEX = "index.ipynb"


def notebooks_dir() -> Path:
    """The folder of the apps; raises :class:`GopsError` naming the places looked in."""
    candidates = []
    if os.environ.get("GOPSKIT_NOTEBOOKS"):
        candidates.append(Path(os.environ["GOPSKIT_NOTEBOOKS"]))
    candidates += [Path(__file__).resolve().parent.parent / "notebooks", Path.cwd() / "notebooks"]
    for folder in candidates:
        if (folder / INDEX).is_file():
            return folder
    raise GopsError(
        "cannot find the apps (a notebooks/ folder holding index.ipynb); looked in "
        + ", ".join(map(str, candidates))
        + ". Run from the gopskit checkout or set GOPSKIT_NOTEBOOKS to the folder."
    )


def voila_argv(folder: Path, port: int = DEFAULT_PORT, open_browser: bool = True, preheat: bool = PREHEAT,
               host: str = "localhost") -> list[str]:
    """The command-line arguments Voila gets (tree mode on ``folder``).

    ``host`` is the address to listen on: ``localhost`` (this computer only) or
    ``0.0.0.0`` so that students' laptops on the school network can reach it.
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise GopsError(f"a port is a whole number from 1 to 65535, not {port!r}")
    argv = [
        str(folder),
        f"--port={port}",
        f"--Voila.ip={host}",
        "--strip_sources=True",
        "--show_tracebacks=False",
        f"--Voila.open_browser={open_browser}",
        "--Voila.port_retries=0",
        "--theme=light",
        # on a busy machine a kernel can be slow to send its outputs: wait, never drop a board
        "--VoilaExecutor.iopub_timeout=60",
        "--VoilaExecutor.startup_timeout=120",
        # kernels talk over local sockets, not TCP ports: no race for a free port when many start at once
        "--KernelManager.transport=ipc",
    ] + voila_template_argv()  # gopskit's page: nothing fetched from another host
    if preheat:
        argv += ["--preheat_kernel=True", "--pool_size=1", "--VoilaKernelManager.fill_delay=0"]
    return argv


def _voila_app_class():
    """Voila, plus a redirect from ``/`` to the landing page."""
    from jupyter_server.utils import url_path_join
    from tornado.web import RedirectHandler
    from voila.app import Voila

    class GopskitVoila(Voila):
        def init_handlers(self):
            handlers = super().init_handlers()
            index = url_path_join(self.server_url, "voila/render", INDEX)
            return [(url_path_join(self.server_url, r"/?"), RedirectHandler, {"url": index})] + handlers

    return GopskitVoila


def serve(port: int = DEFAULT_PORT, open_browser: bool = True, preheat: bool = PREHEAT, host: str = "localhost") -> int:
    """Serve the apps until interrupted; return the exit status.

    Opens http://localhost:PORT (the landing page) in a browser unless
    ``open_browser`` is false.
    """
    folder = notebooks_dir()
    argv = voila_argv(folder, port, open_browser, preheat, host)
    where = f"http://localhost:{port}" + (f" and on this computer's network address, port {port}" if host != "localhost" else "")
    print(f"gopskit: serving the apps in {folder} at {where} (Ctrl-C stops)", flush=True)
    _voila_app_class().launch_instance(argv=argv)
    return 0


def free_port() -> int:
    """A TCP port on localhost that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def background_server(port: int | None = None, preheat: bool = PREHEAT, timeout: float = 90, log=None):
    """Run ``python -m gopskit.serve`` in a child process; yield its base URL.

    Waits until the server answers (at most ``timeout`` seconds) and stops it
    on exit. Tests and benchmarks use it.
    """
    port = port or free_port()
    command = [sys.executable, "-m", "gopskit.serve", f"--port={port}", "--no-browser"]
    if not preheat:
        command.append("--no-preheat")
    child = subprocess.Popen(command, stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://localhost:{port}"
    try:
        _wait_for(url + "/voila/tree", child, timeout)
        yield url
    finally:
        child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _wait_for(url: str, child, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise GopsError(f"the Voila server stopped at start-up with status {child.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise GopsError(f"the Voila server did not answer at {url} within {timeout:g} s")


def main(argv=None) -> int:
    """``python -m gopskit.serve [--port N] [--no-browser] [--no-preheat]`` (tests and benchmarks use it)."""
    parser = argparse.ArgumentParser(prog="python -m gopskit.serve", description="serve the gopskit apps with Voila")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-preheat", action="store_true")
    args = parser.parse_args(argv)
    try:
        return serve(args.port, not args.no_browser, not args.no_preheat)
    except GopsError as exc:
        print(f"gopskit: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
