"""The test suite stops what it starts: no PostgreSQL server outlives the pytest run that started it."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def postgres_processes(folder: str) -> list[int]:
    """Process ids whose command line names ``folder`` (a running cluster there)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if folder in cmdline and "postgres" in cmdline:
            found.append(int(proc.name))
    return found


def test_an_xdist_pytest_run_stops_the_postgresql_cluster_it_started():
    folder = f"/tmp/gopskit-pg-cleanup-{secrets.token_hex(4)}"  # under /tmp: the postgres user must reach it
    env = {k: v for k, v in os.environ.items()
           if k not in ("GOPSKIT_TEST_POSTGRES_URL", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT")}
    env["GOPSKIT_PG_DIR"] = folder
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "1",
             str(TESTS / "test_classroom_support.py") + "::test_postgres_fixture_reaches_a_real_server"],
            cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert "1 passed" in run.stdout  # it did reach a real server in that folder
        assert not Path(folder).exists(), "the cluster's folder outlived the run"
        assert postgres_processes(folder) == [], "a PostgreSQL server outlived the run"
    finally:
        if Path(folder).exists():  # clean up after a failure, so it does not linger either
            subprocess.run(["bash", str(TESTS / "ensure_postgres.sh"), "stop"], env=env, capture_output=True)
        Path(folder + ".lock").unlink(missing_ok=True)
