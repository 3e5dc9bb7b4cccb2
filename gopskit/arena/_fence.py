"""The sandbox's fence and limits (stdlib only; loaded by the worker by path).

:class:`Fence` is an audit hook (PEP 578): a strategy may open, list and
change files only inside its own folder, read Python's library, and nothing
else; starting processes, sockets, calling C through ``ctypes`` and raising
its own limits are refused with :class:`PermissionError`. Audit hooks are a
classroom fence, not a security boundary: under bubblewrap they only give
friendly messages, and the operating system holds the line (see
:mod:`gopskit.arena.sandbox`).

>>> fence = Fence("/tmp/entry-x", ())
>>> fence._allowed("/tmp/entry-x/notes.txt", write=True), fence._allowed("/etc/passwd", write=False)
(True, False)
"""

import os
import signal
import sysconfig

_DENIED_PREFIXES = (
    "subprocess.", "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.forkpty",
    "os.kill", "os.killpg", "os.chdir", "os.fchdir", "pty.", "socket.", "ctypes.dlsym",
    "ctypes.call_function", "ctypes.string_at", "ctypes.wstring_at", "ctypes.addressof",
    "urllib.", "http.client.", "ftplib.", "smtplib.", "poplib.", "imaplib.", "nntplib.",
    "telnetlib.", "webbrowser.", "resource.setrlimit", "resource.prlimit", "gc.get_",
    "sys.addaudithook", "os.setuid", "os.setgid",
)
_READ_EVENTS = ("os.listdir", "os.scandir", "glob.glob", "glob.glob/2", "os.listxattr", "os.getxattr", "ctypes.dlopen")
_WRITE_EVENTS = (
    "os.mkdir", "os.remove", "os.rename", "os.rmdir", "os.symlink", "os.link", "os.chmod", "os.chown",
    "os.chflags", "os.lchflags", "os.truncate", "os.utime", "os.mkfifo", "os.mknod", "os.setxattr",
    "os.removexattr", "shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.copytree",
    "shutil.rmtree", "shutil.move", "shutil.chown", "shutil.make_archive", "shutil.unpack_archive",
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_DEVICES = ("/dev/null", "/dev/urandom", "/dev/random")


class Fence:
    """The audit hook: file access only inside ``home`` (and the library, read-only)."""

    def __init__(self, home, read_dirs):
        self.home = os.path.realpath(home)
        roots = [sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")]
        roots += list(read_dirs)
        self.read_roots = tuple({os.path.realpath(r) for r in roots if r})
        self.busy = False

    def __call__(self, event, args):
        if self.busy:
            return
        if event.startswith(_DENIED_PREFIXES):
            raise PermissionError(f"{event} is not allowed in a tournament")
        if event == "open":
            self._check_open(args)
        elif event in _READ_EVENTS:
            self._check_paths(event, args[:1], write=False)
        elif event in _WRITE_EVENTS:
            self._check_paths(event, args, write=True)

    def _check_open(self, args):
        path = args[0]
        mode, flags = (args[1] if len(args) > 1 else None), (args[2] if len(args) > 2 else 0)
        write = (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool((flags or 0) & _WRITE_FLAGS)
        self._check_paths("open", (path,), write)

    def _check_paths(self, event, paths, write):
        for path in paths:
            if not _is_path(path):
                continue
            self.busy = True
            try:
                real = os.path.realpath(os.fsdecode(os.fspath(path)))
            finally:
                self.busy = False
            if self._allowed(real, write):
                continue
            raise PermissionError(
                f"{event} of {os.fsdecode(os.fspath(path))!r} is not allowed: a strategy may only use files "
                f"in its own folder"
            )

    def _allowed(self, real, write):
        if _inside(real, self.home):
            return True
        if write:
            return real == "/dev/null"
        return real in _DEVICES or any(_inside(real, root) for root in self.read_roots)


def _is_path(value):
    return isinstance(value, (str, bytes, os.PathLike))


def _inside(path, root):
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


CPU_SECONDS = 3600


def apply_limits(memory_limit, max_processes=None, max_open_files=None, file_bytes=16 * 2**20):
    """Resource limits for the rest of this process's life (hard limits: they cannot be raised again).

    Memory (address space), the size of any file written, open files, no core
    dumps, a backstop of CPU seconds for the whole process (the parent times
    each move; this only stops a process that somehow outlives its clock)
    and, under bubblewrap, processes and threads. SIGXFSZ is ignored so a
    file too big just fails to grow.

    And first in line for the kernel's out-of-memory killer
    (``oom_score_adj`` 1000): if a class's sandboxes together fill the
    machine's memory, each below its own limit, Linux stops a sandbox (its
    entry forfeits as a crash), never the server, a page's kernel or the
    tournament.
    """
    import resource

    try:
        with open("/proc/self/oom_score_adj", "w", encoding="ascii") as adj:
            adj.write("1000")
    except OSError:  # not Linux, or no /proc: the other limits still hold
        pass

    limits = [(resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, int(file_bytes)),
              (resource.RLIMIT_CPU, CPU_SECONDS)]
    if memory_limit:
        limits.append((resource.RLIMIT_AS, int(memory_limit)))
    if max_open_files:
        limits.append((resource.RLIMIT_NOFILE, int(max_open_files)))
    if max_processes and hasattr(resource, "RLIMIT_NPROC"):
        limits.append((resource.RLIMIT_NPROC, int(max_processes)))
    for which, value in limits:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
