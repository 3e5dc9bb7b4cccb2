"""Run one student's strategy in a process of its own, behind a boundary.

A :class:`SandboxWorker` starts ``python _worker.py`` for one student file.
The worker is reused for every game of the entry; it plays its side of many
games per message, which is what makes a class tournament fast.

Two isolations exist (:func:`isolation` says which one this machine gives):

``"bubblewrap"`` (Linux with ``bwrap`` installed): the worker runs in new
namespaces (user, process ids, network, IPC, mounts): no network, a
read-only view of the system and of Python, nothing of the host's other
files (other entries, the teacher's home, ``/etc/passwd``, ``/tmp``), an
unprivileged user (uid 65534) without capabilities, a private 16 MB folder
``/entry`` holding a read-only copy of the student's file and a private 16 MB
``/tmp``, both in memory,
no ``gopskit`` to import, a seccomp filter that refuses new processes and a
few kernel interfaces (``ptrace``, ``pidfd_*``, ``bpf``, namespaces, shared
memory that the memory limit would not count), and
resource limits (memory, open files, file size, processes, CPU). The folder
lives in the sandbox's memory and disappears with it: nothing is left on disk.

``"fence"`` (no bubblewrap: macOS, Windows, a Linux without it): a private
temporary folder, resource limits and an audit hook that refuses files
outside the folder, processes and sockets. An audit hook is a classroom
fence against mistakes, **not** a security boundary: say so to whoever runs
the tournament (the tournament records and prints it).

In both, the parent process keeps the clock: it times every move with its
own monotonic clock and stops (SIGKILL) the whole sandbox when a move runs
past the time limit plus a small slack (:func:`parent_deadline`), so nothing
the strategy does inside can stop the clock. A worker that dies, at any
moment, costs only the games it was playing (forfeits) and is restarted.

Each move comes back as a :class:`Reply`: a move, or an error kind with a
sentence for a beginner. Error kinds: ``"exception"``, ``"timeout"``,
``"memory"``, ``"malformed"`` (not a card), ``"crash"`` (the process died
or had to be stopped), ``"load"`` (the file cannot be used) and
``"withdrawn"`` (too many timeouts or crashes; see :class:`Limits`).

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "copycat.py").write_text("def strategy(observation):\\n    return observation.prize\\n")
>>> with SandboxWorker(folder / "copycat.py") as worker:
...     worker.play([("game-1", 7, {"prize": 4, "legal_moves": [1, 4]})])["game-1"].move
4
"""

from __future__ import annotations

import dataclasses
import functools
import json
import marshal
import os
import pathlib
import platform
import select
import shutil
import signal
import site
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import weakref

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None

from ..errors import OptionError

WORKER_SCRIPT = pathlib.Path(__file__).with_name("_worker.py")
FENCE_SCRIPT = pathlib.Path(__file__).with_name("_fence.py")
ISOLATIONS = ("bubblewrap", "fence")
INSTALL_HINT = "sudo apt-get install bubblewrap"
SANDBOX_UID = 65534
ENTRY_FOLDER = "/entry"
FOLDER_BYTES = 16 * 2**20
MAX_PROCESSES = 16  # threads count too
MAX_OPEN_FILES = 64
MAX_RESTARTS = 8
_LOAD_GRACE = 2.0
_MAX_REPLY_BYTES = 8 * 2**20
_PIPE_BYTES = 2**20


def parent_deadline(time_limit: float) -> float:
    """Seconds the parent waits for one move before it stops the sandbox.

    The time limit plus a slack for the pipe and the scheduler (0.25 s plus a
    tenth of the limit). Inside, an alarm stops slow code at the limit itself,
    so an honest slow move is a timeout for that game only; a strategy that
    switches the alarm off is stopped by the parent at this deadline.

    >>> parent_deadline(1.0)
    1.35
    """
    return round(time_limit + 0.25 + 0.1 * time_limit, 6)


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits every student entry plays under.

    ``time_limit``: seconds per move. ``memory_limit``: bytes of address
    space (``None``: no limit). ``output_limit``: characters of printed
    output kept per entry. ``load_time_limit``: seconds to import the file.
    ``max_timeouts``: after this many timed-out games in a tournament the
    entry is withdrawn and forfeits the rest at once (``None``: never), so
    one sleeping strategy cannot hold a class up for hours. An entry whose
    process had to be restarted ``MAX_RESTARTS`` times is withdrawn too.
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


# ------------------------------------------------------------ isolation ---
def isolation() -> str:
    """``"bubblewrap"`` when student code runs behind an OS boundary here, else ``"fence"``.

    ``GOPSKIT_SANDBOX=fence`` forces the fence; ``GOPSKIT_SANDBOX=bubblewrap``
    makes a missing or broken bubblewrap an error instead of a fallback.
    """
    wanted = os.environ.get("GOPSKIT_SANDBOX", "auto").strip().lower() or "auto"
    if wanted not in ("auto", *ISOLATIONS):
        raise OptionError(f"GOPSKIT_SANDBOX={wanted!r} is not known; allowed: auto, bubblewrap, fence")
    if wanted == "fence":
        return "fence"
    problem = _bubblewrap_problem()
    if problem is None:
        return "bubblewrap"
    if wanted == "bubblewrap":
        raise OptionError(f"GOPSKIT_SANDBOX=bubblewrap but {problem}")
    return "fence"


def isolation_report() -> str:
    """One sentence for the tournament's output: which isolation, and what it means."""
    if isolation() == "bubblewrap":
        return ("student code runs under bubblewrap: own namespaces, no network, read-only system, "
                "only its own 16 MB folder writable, uid 65534, no new processes, memory/CPU/file limits")
    problem = _bubblewrap_problem() if os.environ.get("GOPSKIT_SANDBOX", "auto") != "fence" else "GOPSKIT_SANDBOX=fence"
    return (f"WARNING: NO OPERATING-SYSTEM SANDBOX ({problem}). Student code runs with an in-process fence "
            f"only, which stops mistakes, not attacks: run untrusted entries on Linux with bubblewrap "
            f"({INSTALL_HINT})")


def bwrap_path() -> str | None:
    """The bubblewrap program (``GOPSKIT_BWRAP`` or ``bwrap`` on the PATH), or None."""
    return os.environ.get("GOPSKIT_BWRAP") or shutil.which("bwrap") or (
        "/usr/bin/bwrap" if os.path.exists("/usr/bin/bwrap") else None)


@functools.lru_cache(maxsize=4)
def _probe(bwrap: str) -> str | None:
    """Start one empty sandbox; None when it works, else what went wrong."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", prefix="gopskit-probe-") as probe:
        probe.write("pass\n")
        probe.flush()
        command, fds = _bwrap_command(bwrap, pathlib.Path(probe.name))
        try:
            done = subprocess.run([*command, sys.executable, "-S", "-c", "pass"], pass_fds=fds,
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bubblewrap could not start ({exc})"
        finally:
            for fd in fds:
                os.close(fd)
    if done.returncode != 0:
        return f"bubblewrap failed: {done.stderr.decode(errors='replace').strip()[:200]}"
    return None


def _bubblewrap_problem() -> str | None:
    if not sys.platform.startswith("linux"):
        return f"bubblewrap is Linux only; this is {sys.platform}"
    bwrap = bwrap_path()
    if bwrap is None:
        return f"bubblewrap is not installed ({INSTALL_HINT})"
    return _probe(bwrap)


_SYSTEM_TOPS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def _bwrap_command(bwrap: str, student_file: pathlib.Path) -> tuple[list[str], list[int]]:
    """The bubblewrap command line (up to the program) and the descriptors it reads."""
    args = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
            "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--cap-drop", "ALL",
            # a private /tmp first: the kit itself may live under /tmp (a fresh clone), and its
            # read-only binds below are then made inside this in-memory folder
            "--size", str(FOLDER_BYTES), "--perms", "0700", "--tmpfs", "/tmp",
            "--ro-bind", "/usr", "/usr"]
    for top in _SYSTEM_TOPS:
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for name in ("/etc/ld.so.cache", "/etc/localtime"):
        args += ["--ro-bind-try", name, name]
    roots = _python_roots()
    for root in roots:
        args += ["--ro-bind", root, root]
    if not any(_inside(sys.executable, root) for root in [*roots, "/usr", *_SYSTEM_TOPS]):  # through a link:
        args += ["--symlink", os.path.realpath(sys.executable), sys.executable]  # the link, not its folder
    for folder in _installed_gopskit():
        args += ["--tmpfs", folder]  # an installed copy of the kit: hidden behind an empty folder
    args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev"]
    args += ["--size", str(FOLDER_BYTES), "--perms", "0700", "--tmpfs", ENTRY_FOLDER,
             "--ro-bind", str(student_file), f"{ENTRY_FOLDER}/{student_file.name}",
             "--ro-bind", str(WORKER_SCRIPT), "/sandbox/_worker.py",
             "--ro-bind", str(FENCE_SCRIPT), "/sandbox/_fence.py",
             "--remount-ro", "/", "--chdir", ENTRY_FOLDER]
    fds = []
    program = seccomp_program()
    if program:
        read, write = os.pipe()
        os.write(write, program)
        os.close(write)
        fds.append(read)
        args += ["--seccomp", str(read)]
    return args + ["--"], fds


def _python_roots() -> list[str]:
    """Folders holding this Python and its packages (bound read-only), outermost only.

    Python's prefixes and the folder of its real program, never the folder
    around a link to it: a teacher's ``~/bin/python`` made all of ``~``
    readable to every strategy (the link itself is recreated in the sandbox).
    """
    candidates = {sys.base_prefix, sys.prefix, sys.base_exec_prefix, sys.exec_prefix,
                  os.path.dirname(os.path.realpath(sys.executable))}
    roots = sorted({os.path.realpath(c) for c in candidates} | candidates)
    keep = []
    for root in roots:
        if not os.path.isdir(root) or root in ("/", "/usr") or root.startswith("/usr/"):
            continue
        if any(_inside(root, k) for k in keep):
            continue
        keep.append(root)
    return keep


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _installed_gopskit() -> list[str]:
    """``gopskit`` folders inside the bound site-packages (a non-editable install)."""
    dirs = list(getattr(site, "getsitepackages", lambda: [])())
    found = []
    for folder in dirs:
        path = os.path.join(folder, "gopskit")
        if os.path.isdir(path):
            found.append(path)
    return found


# x86-64 and arm64 system call numbers the filter refuses (EPERM), and clone3 (ENOSYS: glibc then uses clone).
# The second line of each list is memory that lives outside the process's address space, so that the memory
# limit (RLIMIT_AS) would not count it: System V shared memory, message queues and semaphores, POSIX message
# queues, memfd_create and memfd_secret. A segment filled and detached stayed in the sandbox's IPC namespace
# until the sandbox ended, so one move could hold gigabytes of the teacher's memory.
_SYSCALLS = {
    "x86_64": {"arch": 0xC000003E, "clone": 56, "clone3": 435, "deny": (
        57, 58, 101, 310, 311, 312, 424, 434, 438, 321, 298, 323, 425, 426, 427, 248, 249, 250,
        165, 166, 155, 161, 272, 308, 135,
        29, 30, 31, 67, 64, 65, 66, 220, 68, 69, 70, 71, 240, 319, 447)},
    "aarch64": {"arch": 0xC00000B7, "clone": 220, "clone3": 435, "deny": (
        117, 270, 271, 272, 424, 434, 438, 280, 241, 282, 425, 426, 427, 217, 218, 219,
        40, 39, 41, 51, 97, 268, 92,
        194, 195, 196, 197, 190, 191, 192, 193, 186, 187, 188, 189, 180, 279, 447)},
}


def seccomp_program() -> bytes | None:
    """A classic-BPF seccomp filter for bubblewrap's ``--seccomp`` (None on other machines).

    Refuses every way to start a process (``fork``, ``vfork``, ``clone``
    without ``CLONE_THREAD``; threads are allowed), ``ptrace``,
    ``process_vm_*``, ``pidfd_*``, ``bpf``, ``perf_event_open``,
    ``userfaultfd``, ``io_uring``, the key ring, mounts, ``unshare``,
    ``setns`` and ``personality``, and memory the memory limit cannot see
    (System V shared memory, message queues and semaphores, POSIX message
    queues, ``memfd_create``, ``memfd_secret``); any other architecture's
    calls (x32, 32-bit) are refused too.
    """
    table = _SYSCALLS.get(platform.machine())
    if table is None:
        return None
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    code = [(0x20, 0, 0, 4), (0x15, 1, 0, table["arch"]), (0x06, 0, 0, enosys), (0x20, 0, 0, 0)]
    if table["arch"] == 0xC000003E:
        code += [(0x35, 0, 1, 0x40000000), (0x06, 0, 0, enosys)]  # the x32 ABI
    code += [(0x15, 0, 1, table["clone3"]), (0x06, 0, 0, enosys)]
    for number in table["deny"]:
        code += [(0x15, 0, 1, number), (0x06, 0, 0, eperm)]
    code += [(0x15, 0, 3, table["clone"]), (0x20, 0, 0, 16), (0x45, 1, 0, 0x00010000), (0x06, 0, 0, eperm),
             (0x06, 0, 0, allow)]
    return b"".join(struct.pack("=HBBI", *op) for op in code)


# --------------------------------------------------------------- worker ---
class SandboxWorker:
    """One student entry running in its own sandbox (see the module docstring).

    Use :meth:`play` (or :meth:`send` then :meth:`collect`, or
    :func:`collect_all` to let several workers think at once); close it with
    :meth:`close` or a ``with`` block.
    """

    def __init__(self, path, limits: Limits | None = None):
        self.path = pathlib.Path(path)
        self.limits = limits or Limits()
        self.isolation = isolation()
        self.home: pathlib.Path | None = None
        if self.isolation == "fence":
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
        self._death: str | None = None
        self._load_crashed = self._forfeit_next = False
        self._hello_deadline = 0.0
        self._pid: int | None = None
        self._cpu_base: float | None = None
        self._busy, self._cpu_checked = 0.0, 0.0
        self._reading: _Reading | None = None

    # -- life cycle --------------------------------------------------------
    def start(self) -> bool:
        """Start the process and load the file; return True when it is ready to play.

        A file that failed to load is not tried again. A process found dead
        (it exited since its last batch) is cleared away: its next batch is
        forfeited (see :meth:`send`) and the one after starts a fresh process.
        To start many workers at once use :func:`start_all`.
        """
        return start_all([self])[0]

    def _launch(self) -> bool | None:
        """Begin starting: True (running), False (cannot play), None (launched: await its hello)."""
        if self.load_error is not None and not self._load_crashed:
            return False
        if self.load_error is not None:  # it died while loading (not the file's fault): try again
            self.load_error, self._load_crashed = None, False
            self.restarts += 1
        if self.process is not None:
            if self.process.poll() is None:
                return True
            self._death = self._death_reason() + " (between moves)"
            self._stop()
            self._forfeit_next = True
            return True
        if self._forfeit_next:
            return True
        try:
            self.process = self._spawn()
        except OSError as exc:
            self._hello(Reply(error="crash", detail=f"Python would not start ({exc.strerror})"))
            return False
        self._buffer = b""
        _widen_pipes(self.process)
        try:
            self._write(_frame(self._config()), time.monotonic() + _LOAD_GRACE)
        except (OSError, TimeoutError, ValueError) as exc:
            return self._hello(Reply(error="crash", detail=f"Python would not start ({exc})"))
        self._hello_deadline = time.monotonic() + self.limits.load_time_limit + _LOAD_GRACE
        return None

    def _hello(self, hello) -> bool:
        """Take the worker's first line: ready, or why the file cannot be used."""
        if hello is None:
            hello = _json(self._next_line(self._hello_deadline))
        if isinstance(hello, dict) and hello.get("ready") is True:
            self.kind, self.load_error = hello.get("kind"), None
            self.generation += 1
        else:
            self.load_error = _load_problem(hello)
            self._load_crashed = isinstance(hello, Reply) and hello.error == "crash"
            self._stop()
        return self.load_error is None

    def _spawn(self) -> subprocess.Popen:
        if self.isolation == "bubblewrap":
            prefix, fds = _bwrap_command(bwrap_path(), self.path.resolve())
            command, cwd = [*prefix, sys.executable, "-s", "-B", "-P", "/sandbox/_worker.py"], "/"
            env = _worker_environment(ENTRY_FOLDER)
        else:
            fds = []
            command, cwd = [sys.executable, "-s", "-B", "-P", str(WORKER_SCRIPT)], self.home
            env = _worker_environment(str(self.home))
        try:
            process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, env=env, start_new_session=True, pass_fds=fds)
        finally:
            for fd in fds:
                os.close(fd)
        weakref.finalize(self, _kill_if_running, process)  # a worker dropped without close() stops too
        return process

    def _config(self) -> dict:
        bubblewrap = self.isolation == "bubblewrap"
        return {
            "file": self.path.name, "time_limit": float(self.limits.time_limit),
            "memory_limit": self.limits.memory_limit, "output_limit": int(self.limits.output_limit),
            "load_time_limit": float(self.limits.load_time_limit),
            "read_dirs": [], "isolation": self.isolation,
            "max_processes": MAX_PROCESSES if bubblewrap else None, "max_open_files": MAX_OPEN_FILES,
            "file_bytes": FOLDER_BYTES,
        }

    def close(self) -> None:
        """Stop the process and delete the private folder (the fence's; bubblewrap leaves none)."""
        if self.process is not None and self.process.poll() is None:
            try:
                self._write(_frame({"op": "quit"}), time.monotonic() + 0.5)
                self.process.wait(timeout=0.5)
            except (OSError, subprocess.TimeoutExpired, TimeoutError, ValueError):
                pass
        self._stop()
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _stop(self):
        """Kill the whole sandbox (its process group) and close the pipes; never raises."""
        process, self.process = self.process, None
        self._reading = None
        self._pid, self._cpu_base, self._busy = None, None, 0.0
        if process is None:
            return
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, OSError):
                try:
                    process.kill()
                except OSError:
                    pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for pipe in (process.stdin, process.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    # -- playing -----------------------------------------------------------
    @property
    def withdrawn(self) -> bool:
        limit = self.limits.max_timeouts
        return (limit is not None and self.timeouts >= limit) or self.restarts >= MAX_RESTARTS

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
        self._reading = None
        if not items or self.withdrawn or not self.start():
            return
        if self._forfeit_next:  # died since its last batch: these games are forfeits; the next batch restarts it
            self._forfeit_next = False
            return
        if self._buffer or _readable(self.process.stdout):
            self._death = "wrote on the tournament's pipe between moves and was stopped"
            self._stop()
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
            self._write(frame, time.monotonic() + parent_deadline(self.limits.time_limit))
        except (OSError, TimeoutError, ValueError):
            self._death = self._death_reason()
            self._stop()
            return
        self._reading = _Reading(self._waiting, time.monotonic() + parent_deadline(self.limits.time_limit))

    def collect(self) -> dict:
        """Wait for the answers to the last :meth:`send`; never raises for the strategy's faults."""
        return collect_all([self])[0]

    def _finish(self) -> dict:
        """The replies of the last batch, once reading is over (see :func:`collect_all`)."""
        waiting, self._waiting = self._waiting, []
        reading, self._reading = self._reading, None
        if not waiting:
            return {}
        if self.load_error is not None:
            return {k: Reply(error="load", detail=self.load_error) for k in waiting}
        if self.withdrawn and reading is None:
            return {k: Reply(error="withdrawn", detail=self._withdrawn_detail()) for k in waiting}
        if reading is None:  # the process died before the batch could be sent
            problem = Reply(error="crash", detail=(self._death or "its Python process stopped")[:400])
            self._death = None
            self.restarts += 1
            return {k: problem for k in waiting}
        replies, problem = reading.replies, reading.problem
        if reading.discard:
            replies = {}  # it broke the protocol: none of this batch's answers can be trusted
        if problem is not None:
            self._stop()
            self.restarts += 1
            replies.update({k: problem for k in waiting if k not in replies})
        else:
            self._watch_processor((reading.ended or time.monotonic()) - reading.started)
        self.timeouts += sum(r.error == "timeout" for r in replies.values())
        return {k: self._explain(replies[k]) for k in waiting}

    def _watch_processor(self, batch_seconds: float) -> None:
        """Stop a sandbox that used the processor while it had no move to make.

        The parent lets a strategy compute only while a batch is out: the
        process's CPU time (all its threads, read from ``/proc``) may not
        exceed the wall time of its batches plus a small slack. A thread left
        spinning between moves (which would slow everyone else's moves) is
        caught at the next check, the sandbox stopped, and its next batch
        forfeited. Linux only; checked at most four times a second.
        """
        self._busy += batch_seconds
        now = time.monotonic()
        if now - self._cpu_checked < 0.25:
            return
        self._cpu_checked = now
        used = _cpu_seconds(self._worker_pid())
        if used is None:
            return
        if self._cpu_base is None:
            self._cpu_base, self._busy = used, 0.0
            return
        if used - self._cpu_base > self._busy * 1.05 + 0.25:
            self._death = (f"kept the processor busy between its moves ({used - self._cpu_base:.1f} s of CPU "
                           f"in {self._busy:.1f} s of moves; a thread left running?) and was stopped")
            self._stop()
            self._forfeit_next = True

    def resident_bytes(self) -> int:
        """The memory the sandbox holds now (its Python and the processes it started; 0 when not running)."""
        pid = self._worker_pid() if self.process is not None and self.process.poll() is None else None
        return _tree_resident(pid) if pid is not None else 0

    def stop_over_budget(self, held: int, budget: int) -> None:
        """Stop the sandbox because the sandboxes together hold more than ``budget`` bytes and it holds most."""
        self._death = (f"held {held / 2**20:.0f} MB when the tournament's sandboxes together passed their "
                       f"{budget / 2**20:.0f} MB (it held the most) and was stopped")
        self._stop()
        self._forfeit_next = True

    def _worker_pid(self) -> int | None:
        """The host pid of the Python running the strategy (inside bubblewrap: bwrap's grandchild)."""
        if self.process is None:
            return None
        pid = self.process.pid
        if self.isolation != "bubblewrap":
            return pid
        if self._pid is None:
            for _ in range(3):
                try:
                    with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as handle:
                        children = handle.read().split()
                except OSError:
                    return None
                if not children:
                    break
                pid = int(children[0])
            self._pid = pid
        return self._pid

    def reset_games(self) -> None:
        """Forget every game (strategy objects and their memory): call between tables."""
        if self.process is not None and self.process.poll() is None:
            begin = time.monotonic()
            try:
                self._write(_frame({"op": "reset"}), begin + _LOAD_GRACE)
                line = self._next_line(time.monotonic() + _LOAD_GRACE)
            except (OSError, TimeoutError, ValueError):
                line = None
            if not isinstance(line, bytes):
                self._stop()
            else:
                self._busy += time.monotonic() - begin  # forgetting is work it was asked to do

    def _explain(self, reply: Reply) -> Reply:
        if reply.error == "withdrawn":
            return Reply(error="withdrawn", detail=self._withdrawn_detail())
        return reply

    def _withdrawn_detail(self) -> str:
        if self.restarts >= MAX_RESTARTS:
            return f"withdrawn after its process stopped {self.restarts} times"
        return f"withdrawn after {self.limits.max_timeouts} timed-out games"

    def _keep_output(self, line: dict) -> None:
        text, cut = printable(line["out"], keep="\n\t"), line["cut"]
        room = max(0, self.limits.output_limit - len(self.output))
        self.output += text[:room]
        self.output_cut += cut + max(0, len(text) - room)

    # -- reading a batch, one chunk at a time --------------------------------
    def _fileno(self) -> int | None:
        if self.process is None or self._reading is None or self._reading.problem is not None:
            return None
        return self.process.stdout.fileno()

    def _on_readable(self) -> None:
        """Read what the worker wrote and take every whole line from it."""
        reading = self._reading
        try:
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
        except OSError as exc:
            reading.fail(Reply(error="crash", detail=f"its pipe failed ({exc.strerror})"))
            return
        if not chunk:
            reading.fail(Reply(error="crash", detail=self._death_reason()))
            return
        self._buffer += chunk
        now = time.monotonic()
        while b"\n" in self._buffer and reading.problem is None and not reading.done:
            line, self._buffer = self._buffer.split(b"\n", 1)
            self._take_line(reading, line, now)
        if len(self._buffer) > _MAX_REPLY_BYTES:
            reading.fail(Reply(error="crash", detail="sent an answer far too long"))

    def _take_line(self, reading: "_Reading", line: bytes, now: float) -> None:
        if line[:1] == b"d":
            closing = _closing_line(line)
            if closing is None:  # not what the worker writes: a strategy wrote on the pipe
                reading.fail(Reply(error="crash", detail="wrote something that is not an answer on the "
                                   "tournament's pipe"), discard=True)
                return
            self._keep_output(closing)
            reading.done, reading.ended = True, now
            if self._buffer:
                reading.fail(Reply(error="crash", detail="wrote something that is not an answer on the "
                                   "tournament's pipe"), discard=True)
            elif len(reading.replies) < len(reading.keys):
                reading.fail(Reply(error="crash", detail="gave no answer"), discard=True)
            return
        reply = _parse_reply(line)
        if len(reading.replies) >= len(reading.keys) or reply is None:
            reading.fail(Reply(error="crash", detail="wrote something that is not an answer on the "
                               "tournament's pipe"), discard=True)
            return
        reading.replies[reading.keys[len(reading.replies)]] = reply
        reading.deadline = now + parent_deadline(self.limits.time_limit)

    def _on_deadline(self) -> None:
        self._reading.fail(Reply(error="timeout", detail=(
            f"took longer than {self.limits.time_limit:g} s (the time limit per move) and was stopped: "
            f"nothing came back within {parent_deadline(self.limits.time_limit):g} s")))

    # -- pipes -------------------------------------------------------------
    def _write(self, data: bytes, deadline: float) -> None:
        if self.process is None:
            raise OSError("the strategy's process is not running")
        fd = self.process.stdin.fileno()
        view = memoryview(data)
        while view:
            _, ready, _ = select.select([], [fd], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError("the strategy's process is not reading")
            view = view[os.write(fd, view[: 1 << 16]):]

    def _next_line(self, deadline: float):
        """The next line from the worker (bytes), or a Reply saying why there is none."""
        if self.process is None:
            return Reply(error="crash", detail=self._death or "its Python process is not running")
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > _MAX_REPLY_BYTES:
                return Reply(error="crash", detail="sent an answer far too long")
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return Reply(error="timeout", detail="stopped answering and was stopped")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return Reply(error="crash", detail=self._death_reason())
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def _death_reason(self) -> str:
        if self.process is None:
            return "its Python process stopped"
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "closed its pipe"
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
            return f"its Python process was killed ({name}; out of memory?)"
        if self.isolation == "bubblewrap" and code >= 128:
            number = code - 128
            name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
            return f"its Python process was killed ({name}; out of memory?)"
        return f"its Python process stopped (exit code {code}); a strategy must return a card, never exit"


@dataclasses.dataclass
class _Reading:
    """The parent's side of one batch: keys asked, replies so far, the clock."""

    keys: list
    deadline: float
    replies: dict = dataclasses.field(default_factory=dict)
    started: float = dataclasses.field(default_factory=time.monotonic)
    ended: float | None = None  # when its closing line was read: the batch's work is from started to ended
    problem: Reply | None = None
    done: bool = False
    discard: bool = False

    def fail(self, problem: Reply, discard: bool = False) -> None:
        if self.problem is None:
            self.problem = problem
        self.discard = self.discard or discard


def _tree_resident(pid: int, depth: int = 0) -> int:
    """Resident bytes of process ``pid`` and of the processes it started (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as handle:
            total = int(handle.read().split()[1]) * _PAGE
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as handle:
            children = [int(c) for c in handle.read().split()]
    except (OSError, ValueError, IndexError):
        return 0
    if depth < 4:  # a sandbox holds at most MAX_PROCESSES processes; deeper trees are its own business
        total += sum(_tree_resident(child, depth + 1) for child in children[:MAX_PROCESSES])
    return total


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def default_memory_budget() -> int | None:
    """Half the memory this machine has free now (``MemAvailable``), or None where that cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except (OSError, ValueError, IndexError):
        pass
    return None


class MemoryBudget:
    """The resident memory all the sandboxes of one process may hold together.

    Each sandbox has its own limit, but a class of them (every student entry
    has a sandbox in each helper process) could together fill the machine.
    :meth:`check`, called after the files load and after every round of
    moves (two reads of ``/proc`` per sandbox: 0.4 ms for a class of thirty,
    measured once), adds up what the sandboxes hold and, while the sum is
    over the budget, stops the one holding the most: its next games are
    forfeits (a crash, with the reason), and its next batch starts it again.
    """

    def __init__(self, total: int | None):
        self.total = None if total is None else int(total)

    def check(self, workers) -> None:
        if self.total is None:
            return
        held = {worker: worker.resident_bytes() for worker in workers}
        held = {worker: size for worker, size in held.items() if size}
        while held and sum(held.values()) > self.total:
            worker = max(held, key=held.get)
            worker.stop_over_budget(held.pop(worker), self.total)


def start_all(workers) -> list[bool]:
    """Start (or check) several workers at once: their Pythons boot side by side.

    Returns, per worker, whether it is ready to play (see :meth:`SandboxWorker.start`).
    """
    workers = list(workers)
    launched = [w._launch() for w in workers]
    return [w._hello(None) if state is None else state for w, state in zip(workers, launched)]


def collect_all(workers) -> list[dict]:
    """Collect the last batch of every worker at once: one ``{key: Reply}`` per worker.

    The parent watches every pipe together, so each move is timed from when
    its worker could have started it (the batch sent, or its previous answer
    seen), and a worker silent past :func:`parent_deadline` is stopped.
    Never raises for anything a strategy does.
    """
    workers = list(workers)
    while True:
        active = {w._fileno(): w for w in workers if w._fileno() is not None and not w._reading.done}
        if not active:
            break
        soonest = min(w._reading.deadline for w in active.values())
        try:
            ready, _, _ = select.select(list(active), [], [], max(0.0, soonest - time.monotonic()))
        except (OSError, ValueError):
            ready = []
        for fd in ready:
            active[fd]._on_readable()
        if not ready:
            now = time.monotonic()
            for fd, worker in active.items():
                if worker._reading.deadline <= now and not _readable(fd):
                    worker._on_deadline()
    return [w._finish() for w in workers]


def _kill_if_running(process: subprocess.Popen) -> None:
    """Kill a sandbox's process group if that process was never waited for (its pid is still ours)."""
    try:
        if process.returncode is None and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        pass


def _cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU seconds of ``pid`` (all its threads), from ``/proc``; None if unknown."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _readable(fd) -> bool:
    try:
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return False


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


#: The forfeit kinds a worker reports itself (the parent adds "crash", "load" and its own "timeout").
WORKER_ERRORS = ("exception", "timeout", "memory", "malformed", "withdrawn")


def _closing_line(line: bytes) -> dict | None:
    """A batch's closing line (``d`` and ``{"done": n, "out": text, "cut": n}``) as a dict, or None.

    Only what the worker writes is taken: a strategy that writes on the
    pipe itself (any JSON at all) must not reach the parent's arithmetic.

    >>> _closing_line(b'd{"done": 2, "out": "hi", "cut": 0}')["out"]
    'hi'
    >>> _closing_line(b'd{"cut": 1e999}') is None, _closing_line(b"d[1]") is None
    (True, True)
    """
    data = _json(line[1:])
    if not isinstance(data, dict) or set(data) != {"done", "out", "cut"}:
        return None
    if not isinstance(data["out"], str) or any(type(data[k]) is not int or data[k] < 0 for k in ("done", "cut")):
        return None
    return data


#: What a character that cannot be shown becomes (a lone surrogate, a control or format character).
UNSHOWABLE = "\ufffd"
_NOT_SHOWN = ("Cc", "Cf", "Cs", "Zl", "Zp")


def printable(text: str, keep: str = "") -> str:
    """``text`` as the parent may show, print and save it: every character it cannot is replaced.

    Anything a strategy sends back (an exception's message, a move that is
    text, printed output) and a file's name reach the teacher's terminal,
    the saved CSV files and the apps. A lone surrogate (``"\\udcff"``: valid
    in a Python string, not in UTF-8) made saving the results raise and lose
    the whole tournament; an escape sequence (``"\\x1b[2J"``) cleared the
    teacher's terminal in the middle of the ranking; a direction override
    reorders what follows it. They become :data:`UNSHOWABLE`; line breaks and
    tabs become spaces unless ``keep`` names them (printed output keeps them).

    >>> printable("bad \\udcff \\x1b[2J name\\n")
    'bad \ufffd \ufffd[2J name '
    >>> printable("line one\\nline two", keep="\\n")
    'line one\\nline two'
    """
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char in keep or char == " " or unicodedata.category(char) not in _NOT_SHOWN:
            out.append(char)
        else:
            out.append(" " if char in "\n\r\t" else UNSHOWABLE)
    return "".join(out)


def _parse_reply(line: bytes) -> Reply | None:
    """A worker's reply line as a Reply (``None`` when it is not one)."""
    head = line[:1]
    try:
        if head == b"e":
            kind, detail = json.loads(line[1:])
            if kind not in WORKER_ERRORS or not isinstance(detail, str):
                return None
            return Reply(error=kind, detail=printable(detail[:400]))
        if head == b"s":
            return Reply(move=printable(str(json.loads(line[1:]))[:40]))
        return Reply(move=int(line[:40]))
    except (ValueError, TypeError):
        return None


def _json(line):
    if isinstance(line, Reply):
        return line
    try:
        return json.loads(line)
    except (ValueError, TypeError, RecursionError):
        return None


def _frame(message) -> bytes:
    data = marshal.dumps(message)
    return struct.pack(">I", len(data)) + data


def _load_problem(hello) -> str:
    if isinstance(hello, dict) and hello.get("ready") is False:
        return printable(str(hello.get("error", "the file could not be loaded"))[:600])
    if isinstance(hello, Reply):
        if hello.error == "timeout":
            return "importing the file took too long"
        return f"the file could not be loaded: {hello.detail}"
    return "the file could not be loaded"


def _worker_environment(home: str) -> dict:
    env = {
        "HOME": home, "TMPDIR": home, "PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8",
        "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "LANG": "C.UTF-8",
        "PATH": "/usr/bin:/bin",
    }
    return env


__all__ = ["ISOLATIONS", "Limits", "MemoryBudget", "Reply", "SandboxWorker", "default_memory_budget", "WORKER_SCRIPT", "collect_all", "isolation", "start_all",
           "isolation_report", "parent_deadline", "seccomp_program"]
