"""The wrapper every served kernel starts through: a memory limit, no tracebacks to browsers.

The server starts a kernel as ``python -m gopskit.server.kernel_launcher
--memory-mb N -- <the kernelspec's command>``. This module then

1. limits the kernel's data memory (``RLIMIT_DATA``: its heap and private
   mappings) to N MB, so one page cannot take the machine's memory: beyond
   it, the kernel's code gets a ``MemoryError`` (which the apps' click guard
   shows as a friendly line) instead of the machine swapping or the system's
   out-of-memory killer ending the server;
2. when the command is the usual ``python -m ipykernel_launcher``, runs the
   kernel in this same process with two changes: a traceback that would be
   sent to the browser (an exception in a widget callback) is replaced by
   :data:`FRIENDLY`, while the full traceback is written to the server's
   terminal for the teacher; and Python warnings go to that terminal too,
   never to a page (both name server paths).

Any other kernel command is run as it is (``exec``), under the memory limit.

>>> launcher_argv(1024, ["python", "-m", "ipykernel_launcher", "-f", "k.json"])[-8:]
['--memory-mb', '1024', '--', 'python', '-m', 'ipykernel_launcher', '-f', 'k.json']
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sys
import warnings

#: What a browser is told when server code raised.
FRIENDLY = "Something went wrong on the server. The app may need a reload; the teacher's terminal shows the details."


class ServerError(Exception):
    """The name a page sees for any error in server code (the message is :data:`FRIENDLY`)."""


def launcher_argv(memory_mb: int, kernel_cmd: list[str]) -> list[str]:
    """The command that starts ``kernel_cmd`` through this wrapper."""
    return [sys.executable, "-m", "gopskit.server.kernel_launcher", "--memory-mb", str(memory_mb), "--", *kernel_cmd]


def limit_memory(memory_mb: int) -> None:
    """Cap this process's data memory (heap and private mappings) at ``memory_mb``."""
    limit = memory_mb << 20
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def _to_terminal(text: str) -> None:
    """Write to the server's terminal (the process's original stderr), never to a page."""
    stream = sys.__stderr__
    if stream is not None:
        stream.write(text if text.endswith("\n") else text + "\n")
        stream.flush()


def install_friendly_errors() -> None:
    """Browsers get :data:`FRIENDLY`; the terminal gets the traceback and every warning."""
    from ipykernel.zmqshell import ZMQInteractiveShell

    original = ZMQInteractiveShell._showtraceback

    def _showtraceback(self, etype, evalue, stb):
        if isinstance(etype, type) and issubclass(etype, KeyboardInterrupt):  # the server stopping a busy kernel
            _to_terminal("gopskit kernel: interrupted (the server is stopping it)")
            return original(self, ServerError, FRIENDLY, [FRIENDLY])
        _to_terminal("gopskit kernel: an error reached the kernel (the page shows a short message):\n"
                     + "\n".join(stb or []))
        return original(self, ServerError, FRIENDLY, [FRIENDLY])

    ZMQInteractiveShell._showtraceback = _showtraceback

    def showwarning(message, category, filename, lineno, file=None, line=None):
        _to_terminal("gopskit kernel: " + warnings.formatwarning(message, category, filename, lineno, line))

    warnings.showwarning = showwarning


def _is_ipykernel(cmd: list[str]) -> bool:
    """Whether ``cmd`` is ``python -m ipykernel_launcher ...`` with this very Python."""
    python = shutil.which(cmd[0]) if cmd else None
    return len(cmd) >= 3 and cmd[1:3] == ["-m", "ipykernel_launcher"] and python is not None and \
        os.path.realpath(python) == os.path.realpath(sys.executable)


def main(argv: list[str] | None = None) -> None:
    """Parse ``--memory-mb N -- CMD...``, set the limit, run the kernel."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 4 or argv[0] != "--memory-mb" or argv[2] != "--":
        raise SystemExit("usage: python -m gopskit.server.kernel_launcher --memory-mb N -- KERNEL COMMAND...")
    memory_mb, cmd = int(argv[1]), argv[3:]
    limit_memory(memory_mb)
    if not _is_ipykernel(cmd):
        os.execvp(cmd[0], cmd)
    # the server interrupts kernels as it stops them; until ipykernel has its own handler, ignore that
    # (ipykernel ignores SIGINT too when idle, and takes it only while running code)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    install_friendly_errors()
    from ipykernel import kernelapp

    # the kernel's own fd-level output goes to the terminal, not to pages
    kernelapp.launch_new_instance(argv=[*cmd[3:], "--IPKernelApp.capture_fd_output=False"])


if __name__ == "__main__":
    main()
