"""Run one student's strategy in a process of its own, with limits.

A :class:`SandboxWorker` starts ``python gopskit/arena/_worker.py`` in a
private temporary folder holding a copy of the student's file and nothing
else, so entries cannot read each other's code, and nothing the strategy does
(raise, loop, eat memory, print, exit) can reach the tournament. The worker
is reused for every game of the entry; it plays its side of many games per
message, which is what makes a class tournament fast.

Guards (the worker applies the first four; see :mod:`gopskit.arena._worker`):

1. a time limit per move (an alarm interrupts the student's code);
2. a memory limit (``RLIMIT_AS``);
3. printed output is captured and capped (``output_limit`` characters kept);
4. files outside the entry's folder, processes and sockets are refused;
5. the parent kills and restarts a worker that stops answering for longer
   than the time limit plus a grace period, or that dies.

Each move comes back as a :class:`Reply`: a move, or an error kind with a
sentence for a beginner. Error kinds: ``"exception"``, ``"timeout"``,
``"memory"``, ``"malformed"`` (not a card), ``"crash"`` (the process died
or had to be stopped), ``"load"`` (the file cannot be used) and
``"withdrawn"`` (too many timeouts; see :class:`Limits`).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "copycat.py").write_text("def strategy(observation):\\n    return observation.prize\\n")
>>> with SandboxWorker(folder / "copycat.py") as worker:
...     worker.play([("game-1", 7, {"prize": 4, "legal_moves": [1, 4]})])["game-1"].move
4
"""

from __future__ import annotations

import dataclasses
import json
import marshal
import os
import pathlib
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import weakref

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None

from ..errors import OptionError

WORKER_SCRIPT = pathlib.Path(__file__).with_name("_worker.py")
_GRACE_SECONDS = 2.0
_MAX_REPLY_BYTES = 8 * 2**20
_PIPE_BYTES = 2**20


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits every student entry plays under.

    ``time_limit``: seconds per move. ``memory_limit``: bytes of address
    space (``None``: no limit). ``output_limit``: characters of printed
    output kept per entry. ``load_time_limit``: seconds to import the file.
    ``max_timeouts``: after this many timed-out games in a tournament the
    entry is withdrawn and forfeits the rest at once (``None``: never), so
    one sleeping strategy cannot hold a class up for hours.
    """

    time_limit: float = 1.0
    memory_limit: int | None = 512 * 2**20
    output_limit: int = 4000
    load_time_limit: float = 10.0
    max_timeouts: int | None = 5

    def __post_init__(self):
        if not self.time_limit > 0:
            raise OptionError(f"the time limit is a positive number of seconds, not {self.time_limit!r}")
        if self.memory_limit is not None and self.memory_limit < 64 * 2**20:
            raise OptionError("the memory limit must be at least 64 MB (Python itself needs some)")


@dataclasses.dataclass(frozen=True)
class Reply:
    """One answer from a strategy: ``move``, or ``error`` (a kind) and ``detail``."""

    move: object = None
    error: str | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None


class SandboxWorker:
    """One student entry running in its own process (see the module docstring).

    Use :meth:`play` (or :meth:`send` then :meth:`collect`, to let several
    workers think at once); close it with :meth:`close` or a ``with`` block.
    """

    def __init__(self, path, limits: Limits | None = None):
        self.path = pathlib.Path(path)
        self.limits = limits or Limits()
        self.home = pathlib.Path(tempfile.mkdtemp(prefix="gopskit-entry-"))
        weakref.finalize(self, shutil.rmtree, self.home, ignore_errors=True)  # even if close() is never called
        shutil.copy(self.path, self.home / self.path.name)
        self.process: subprocess.Popen | None = None
        self.load_error: str | None = None
        self.kind: str | None = None
        self.output, self.output_cut = "", 0
        self.timeouts, self.restarts, self.generation = 0, 0, 0
        self._waiting: list = []
        self._buffer = b""

    # -- life cycle --------------------------------------------------------
    def start(self) -> bool:
        """Start the process and load the file; return True when it is ready to play."""
        if self.process is not None:
            return self.load_error is None
        self.process = subprocess.Popen(
            [sys.executable, "-s", "-B", "-P", str(WORKER_SCRIPT)], cwd=self.home,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=_worker_environment(self.home), start_new_session=True,
        )
        self._buffer = b""
        _widen_pipes(self.process)
        try:
            self._write(_frame(self._config()), time.monotonic() + _GRACE_SECONDS + 5)
        except (OSError, TimeoutError) as exc:
            hello = Reply(error="crash", detail=f"Python would not start ({exc})")
        else:
            hello = _json(self._next_line(time.monotonic() + self.limits.load_time_limit + _GRACE_SECONDS + 5))
        if isinstance(hello, dict) and hello.get("ready") is True:
            self.kind, self.load_error = hello.get("kind"), None
            self.generation += 1
        else:
            self.load_error = _load_problem(hello)
            self._stop()
        return self.load_error is None

    def _config(self) -> dict:
        return {
            "file": self.path.name, "time_limit": float(self.limits.time_limit),
            "memory_limit": self.limits.memory_limit, "output_limit": int(self.limits.output_limit),
            "load_time_limit": float(self.limits.load_time_limit),
            "read_dirs": [str(pathlib.Path(__file__).resolve().parents[1])],
        }

    def close(self) -> None:
        """Stop the process and delete the private folder."""
        if self.process is not None and self.process.poll() is None:
            try:
                self._write(_frame({"op": "quit"}), time.monotonic() + 1)
                self.process.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired, TimeoutError):
                pass
        self._stop()
        shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _stop(self):
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        self.process = None

    # -- playing -----------------------------------------------------------
    @property
    def withdrawn(self) -> bool:
        limit = self.limits.max_timeouts
        return limit is not None and self.timeouts >= limit

    def play(self, items) -> dict:
        """Ask for one move in each game of ``items`` (``(key, seed, observation dict)``).

        Returns ``{key: Reply}``. ``seed`` seeds the strategy's ``random``
        module for that game; a key never seen before starts a new game.
        """
        self.send(items)
        return self.collect()

    def send(self, items, plain=None) -> None:
        """Send a batch of move requests without waiting (see :meth:`collect`).

        Observations must be ``marshal`` data (dicts, lists, tuples, numbers,
        text, ``None``); when they are not, ``plain(items)`` converts them.
        """
        self._waiting = [key for key, _, _ in items]
        if not items or self.withdrawn or not self.start():
            return
        left = (self.limits.max_timeouts - self.timeouts) if self.limits.max_timeouts is not None else 1 << 30
        message = {"op": "play", "timeouts_left": left, "items": items}
        try:
            frame = _frame(message)
        except ValueError:
            if plain is None:
                raise
            frame = _frame({**message, "items": plain(items)})
        try:
            self._write(frame, time.monotonic() + self.limits.time_limit + _GRACE_SECONDS)
        except (OSError, TimeoutError):
            self._stop()

    def collect(self) -> dict:
        """Wait for the answers to the last :meth:`send`; never raises for the strategy's faults."""
        waiting, self._waiting = self._waiting, []
        if not waiting:
            return {}
        if self.load_error is not None:
            return {k: Reply(error="load", detail=self.load_error) for k in waiting}
        if self.withdrawn:
            return {k: Reply(error="withdrawn", detail=self._withdrawn_detail()) for k in waiting}
        replies, problem = self._read_replies(waiting)
        if problem is not None:
            self._stop()
            self.restarts += 1
            replies.update({k: problem for k in waiting if k not in replies})
        self.timeouts += sum(r.error == "timeout" for r in replies.values())
        return {k: self._explain(replies[k]) for k in waiting}

    def reset_games(self) -> None:
        """Forget every game (strategy objects and their memory): call between tables."""
        if self.process is not None and self.process.poll() is None:
            try:
                self._write(_frame({"op": "reset"}), time.monotonic() + _GRACE_SECONDS)
                self._next_line(time.monotonic() + _GRACE_SECONDS)
            except (OSError, TimeoutError):
                self._stop()

    def _explain(self, reply: Reply) -> Reply:
        if reply.error == "withdrawn":
            return Reply(error="withdrawn", detail=self._withdrawn_detail())
        return reply

    def _withdrawn_detail(self) -> str:
        return f"withdrawn after {self.limits.max_timeouts} timed-out games"

    def _read_replies(self, waiting: list):
        """One reply line per key, in order, then the closing line: ``(replies, problem or None)``."""
        replies: dict = {}
        keys = iter(waiting)
        while True:
            line = self._next_line(time.monotonic() + self.limits.time_limit + _GRACE_SECONDS)
            if isinstance(line, Reply):
                return replies, line
            if line[:1] == b"d":
                self._keep_output(_json(line[1:]) or {})
                missing = len(replies) < len(waiting)
                return replies, (Reply(error="crash", detail="gave no answer") if missing else None)
            key = next(keys, None)
            reply = _parse_reply(line)
            if key is None or reply is None:
                return replies, Reply(error="crash", detail="sent something that is not an answer")
            replies[key] = reply

    def _keep_output(self, line: dict) -> None:
        text, cut = str(line.get("out", "")), int(line.get("cut", 0) or 0)
        room = max(0, self.limits.output_limit - len(self.output))
        self.output += text[:room]
        self.output_cut += cut + max(0, len(text) - room)

    # -- pipes -------------------------------------------------------------
    def _write(self, data: bytes, deadline: float) -> None:
        fd = self.process.stdin.fileno()
        view = memoryview(data)
        while view:
            _, ready, _ = select.select([], [fd], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError("the strategy's process is not reading")
            view = view[os.write(fd, view[: 1 << 16]):]

    def _next_line(self, deadline: float):
        """The next line from the worker (bytes), or a Reply saying why there is none."""
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > _MAX_REPLY_BYTES:
                return Reply(error="crash", detail="sent an answer far too long")
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return Reply(error="timeout", detail=f"stopped answering for longer than "
                             f"{self.limits.time_limit + _GRACE_SECONDS:g} s and was stopped")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return Reply(error="crash", detail=self._death_reason())
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def _death_reason(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "closed its pipe"
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
            return f"its Python process was killed ({name}; out of memory?)"
        return f"its Python process stopped (exit code {code}); a strategy must return a card, never exit"


def _widen_pipes(process) -> None:
    """Ask Linux for 1 MB pipes, so a batch of observations is written in one go."""
    setsize = getattr(fcntl, "F_SETPIPE_SZ", 1031) if fcntl else None
    if setsize is None or not sys.platform.startswith("linux"):
        return
    for pipe in (process.stdin, process.stdout):
        try:
            fcntl.fcntl(pipe.fileno(), setsize, _PIPE_BYTES)
        except OSError:
            pass


def _parse_reply(line: bytes) -> Reply | None:
    """A worker's reply line as a Reply (``None`` when it is not one)."""
    head = line[:1]
    try:
        if head == b"e":
            kind, detail = json.loads(line[1:])
            return Reply(error=str(kind), detail=str(detail)[:400])
        if head == b"s":
            return Reply(move=str(json.loads(line[1:])))
        return Reply(move=int(line))
    except (ValueError, TypeError):
        return None


def _json(line):
    if isinstance(line, Reply):
        return line
    try:
        return json.loads(line)
    except (ValueError, TypeError):
        return None


def _frame(message) -> bytes:
    data = marshal.dumps(message)
    return struct.pack(">I", len(data)) + data


def _load_problem(hello) -> str:
    if isinstance(hello, dict) and hello.get("ready") is False:
        return str(hello.get("error", "the file could not be loaded"))[:600]
    if isinstance(hello, Reply):
        if hello.error == "timeout":
            return "importing the file took too long"
        return f"the file could not be loaded: {hello.detail}"
    return "the file could not be loaded"


def _worker_environment(home: pathlib.Path) -> dict:
    env = {
        "HOME": str(home), "TMPDIR": str(home), "PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8",
        "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "LANG": "C.UTF-8",
    }
    if "PATH" in os.environ:
        env["PATH"] = os.environ["PATH"]
    return env


__all__ = ["Limits", "Reply", "SandboxWorker", "WORKER_SCRIPT"]
