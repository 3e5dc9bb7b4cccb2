"""Suite-wide hooks: the test suite stops what it starts.

The classroom tests start a throwaway PostgreSQL cluster with
``tests/ensure_postgres.sh``. Each pytest run gets a cluster folder of its
own (``/tmp/gopskit-pg-<uid>-run<pid>``), shared by its pytest-xdist workers,
and the controlling process stops the cluster and deletes the folder when the
run ends, whether the tests passed or not. Two runs side by side never stop
each other's server.

* ``GOPSKIT_TEST_POSTGRES_URL`` set: the tests use that server and this file
  does nothing.
* ``GOPSKIT_PG_DIR`` set: the cluster lives there; it is stopped at the end
  only if it was not already running when the run began.

A run killed outright (``kill -9``) cannot clean up; the next run stops any
cluster whose run has gone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from hypothesis import HealthCheck, settings

# A loaded two-core CI machine must not fail a property test for being slow to
# generate examples: the examples, not the clock, decide. Tests that set their
# own @settings keep these for whatever they leave out.
settings.register_profile("gopskit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gopskit")

SCRIPT = Path(__file__).with_name("ensure_postgres.sh")
RUN_PREFIX = f"gopskit-pg-{os.getuid()}-run"

# The tournament app lets one tournament run at a time on a computer (a lock in the cache folder). Each test
# process stands for a computer of its own: two xdist workers running tournament tests side by side must not
# refuse each other, and a test of the lock sets its own path. Servers started by a test inherit this.
# (xdist workers inherit the controlling process's environment, so each sets its own path over that one.)
_LOCK_PREFIX = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"gopskit-tournament-{os.getuid()}-")
if os.environ.get("GOPSKIT_TOURNAMENT_LOCK", _LOCK_PREFIX).startswith(_LOCK_PREFIX):
    os.environ["GOPSKIT_TOURNAMENT_LOCK"] = f"{_LOCK_PREFIX}{os.getpid()}.lock"


def pytest_configure(config):
    if hasattr(config, "workerinput") or os.environ.get("GOPSKIT_TEST_POSTGRES_URL"):
        return  # an xdist worker (the controller owns the cluster), or somebody else's server
    chosen = os.environ.get("GOPSKIT_PG_DIR")
    if chosen:
        config._gopskit_pg = (chosen, _running(chosen))
    else:
        folder = str(Path("/tmp") / f"{RUN_PREFIX}{os.getpid()}")
        os.environ["GOPSKIT_PG_DIR"] = folder  # inherited by the xdist workers started after this
        config._gopskit_pg = (folder, False)
        _stop_orphans()


def pytest_unconfigure(config):
    lock = os.environ.get("GOPSKIT_TOURNAMENT_LOCK", "")
    if lock.startswith(_LOCK_PREFIX):  # this process's stand-in for a computer's tournament lock
        Path(lock).unlink(missing_ok=True)
    folder, was_running = getattr(config, "_gopskit_pg", (None, True))
    if folder and not was_running:
        stop_cluster(folder)


def stop_cluster(folder: str) -> None:
    """Stop the cluster in ``folder`` (if any) and delete the folder and its lock file."""
    if Path(folder).exists():
        subprocess.run(["bash", str(SCRIPT), "stop"], env={**os.environ, "GOPSKIT_PG_DIR": folder},
                       capture_output=True, timeout=120)
    if Path(folder).name.startswith(RUN_PREFIX):
        Path(folder + ".lock").unlink(missing_ok=True)
        shutil.rmtree(folder, ignore_errors=True)


def _running(folder: str) -> bool:
    return (Path(folder) / "data" / "postmaster.pid").exists()


def _stop_orphans() -> None:
    """Stop clusters left by earlier runs that were killed before they could clean up."""
    for folder in Path("/tmp").glob(f"{RUN_PREFIX}*"):
        if folder.suffix == ".lock" or not folder.name[len(RUN_PREFIX):].isdigit():
            continue
        if not _alive(int(folder.name[len(RUN_PREFIX):])):
            stop_cluster(str(folder))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
