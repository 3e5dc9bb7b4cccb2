"""``make serve`` on a fresh clone: the time until the landing page answers, and what a teacher reads.

Clones this checkout's last commit into a temporary folder, runs ``make serve
PORT=N`` there (a new virtual environment, the kit and its libraries
installed from PyPI, then the server), and polls the landing page. Prints
the time each phase began (read from the lines ``make serve`` prints), the
time to the first answer of the landing page, every line of the output that
looks like a warning, and how many kernels the server started before anyone
opened a page. Then stops the server and deletes the folder.

pip's download cache (``~/.cache/pip``) is used unless ``--no-cache``: a
classroom laptop installing for the first time is nearer the ``--no-cache``
figure.

Run: ``.venv/bin/python benchmarks/bench_serve_start.py [--no-cache] [--keep]``
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from gopskit.serve import free_port, kernel_processes

REPO = Path(__file__).resolve().parent.parent
WARNING = re.compile(r"warn|deprecat|not trusted|error|traceback", re.IGNORECASE)


def landing_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://localhost:{port}/voila/render/index.ipynb", timeout=120) as answer:
            return answer.status == 200 and b"gopskit" in answer.read()
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-cache", action="store_true", help="ignore pip's download cache")
    parser.add_argument("--keep", action="store_true", help="keep the clone (its .venv/pip.log)")
    parser.add_argument("--timeout", type=float, default=1200)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="gopskit-fresh-"))
    clone = folder / "gopskit"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    port = free_port()
    env = {**os.environ, "PYTHON": sys.executable if not os.environ.get("PYTHON") else os.environ["PYTHON"]}
    env.pop("VIRTUAL_ENV", None)
    if args.no_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    lines: list[tuple[float, str]] = []
    started = time.monotonic()
    make = subprocess.Popen(["make", "serve", f"PORT={port}"], cwd=clone, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)

    def read():
        for line in make.stdout:
            lines.append((time.monotonic() - started, line.rstrip("\n")))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    answered = None
    try:
        while time.monotonic() - started < args.timeout and make.poll() is None:
            if any("Open http://localhost" in text for _, text in lines) and landing_answers(port):
                answered = time.monotonic() - started
                break
            time.sleep(1)
        kernels_alive = None
        if answered is not None:
            kernels_alive = kernel_processes(make.pid)
    finally:
        os.killpg(make.pid, signal.SIGINT)
        try:
            make.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
            make.wait()
        reader.join(timeout=5)

    print(f"make serve on a fresh clone ({'no pip cache' if args.no_cache else 'with pip cache'}), "
          f"Python {sys.version.split()[0]}:")
    for at, text in lines:
        if text.strip().startswith("gopskit:"):
            print(f"  {at:6.1f} s  {text}")
    longest = max((b[0] - a[0] for a, b in zip(lines, lines[1:])), default=0.0)
    print(f"  longest silence between two lines of output: {longest:.0f} s")
    if answered is None:
        print(f"  the landing page did not answer within {args.timeout:.0f} s (make exit {make.returncode})")
    else:
        print(f"  landing page answered after {answered:.1f} s; kernels alive then: {kernels_alive} "
              "(the page's own and the small preheated pool)")
    warnings = [text for _, text in lines if WARNING.search(text)]
    print(f"  lines that look like warnings or errors: {len(warnings)}")
    for text in warnings[:20]:
        print(f"    {text[:160]}")
    if args.keep:
        print(f"  kept: {clone}")
    else:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
