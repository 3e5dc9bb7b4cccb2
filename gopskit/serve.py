"""``gopskit serve``: the apps of ``notebooks/`` served with Voila.

Voila runs each notebook in its own kernel and shows only its widgets: no
code (``strip_sources``), no tracebacks (``show_tracebacks=False``). The
address http://localhost:8866 opens straight on the landing page
``index.ipynb``; every app is at ``/voila/render/NAME.ipynb``.

Voila can keep a kernel started and the notebook already run ("preheated
kernels"), so an app opens without waiting for Python to start.
:data:`PREHEAT` says whether ``serve`` does it, for the few notebooks of
:data:`PREHEATED` only (a kernel per app would start a dozen at once);
``benchmarks/bench_voila.py`` measures both ways in a real browser.

Every page load starts a kernel, so the server is bounded for a classroom
(see :mod:`gopskit.server`): a cap on live kernels with a "the room is full"
page beyond it, a cap per client (network address) with a "close another
tab" page beyond it, a memory limit per kernel, kernels of pages that have gone
culled, bounded message buffers, a pace of page loads per address, safe
websocket message parsing, friendly errors instead of tracebacks.

Served beyond this computer (``--host 0.0.0.0``), the teacher's page is
locked by a **teacher passcode** (:func:`teacher_passcode`): made fresh for
each run and printed beside the addresses, or the teacher's own
(``--teacher-passcode``). The kernels get it in the environment variable
``GOPSKIT_TEACHER_PASSCODE``; a student's strategy in a tournament runs with
an environment of its own (see :mod:`gopskit.arena.sandbox`). Plain HTTP
carries the passcode and every move readable by anyone who can watch the
network; given a certificate (``--certfile``, ``--keyfile``) the server
speaks HTTPS instead (:func:`gopskit.server.connections.tls_context`).

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
import logging
import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from functools import lru_cache
from pathlib import Path

from .errors import GopsError
from .server.limits import Limits
from .templates import voila_template_argv

DEFAULT_PORT = 8866
PREHEAT = True
INDEX = "index.ipynb"
#: The notebooks that keep one kernel started and run, so they open at once:
#: the landing page (everyone's first page) and the first board. Every other
#: app starts its kernel when a page asks for it.
PREHEATED = (INDEX, "goofspiel.ipynb")


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
               host: str = "localhost", limits: Limits | None = None) -> list[str]:
    """The command-line arguments Voila gets (tree mode on ``folder``).

    ``host`` is the address to listen on: ``localhost`` (this computer only) or
    ``0.0.0.0`` so that students' laptops on the school network can reach it.
    ``limits`` bound the kernels (see :mod:`gopskit.server`); the default
    :class:`~gopskit.server.limits.Limits` sizes the cap from this machine's memory.
    """
    limits = limits or Limits()
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
    argv += [
        # bounded kernels: a cap, a memory limit each, culled when their page has gone
        "--VoilaConfiguration.multi_kernel_manager_class=gopskit.server.kernels.GopskitKernelManager",
        f"--GopskitKernelManager.max_kernels={limits.max_kernels}",
        f"--GopskitKernelManager.kernels_per_client={limits.kernels_per_client}",
        f"--GopskitKernelManager.buffer_max_messages={limits.buffer_max_messages}",
        f"--GopskitKernelManager.buffer_max_bytes={limits.buffer_max_bytes}",
        f"--LimitedKernelManager.memory_mb={limits.kernel_memory_mb}",
        f"--MappingKernelManager.cull_idle_timeout={limits.cull_idle_seconds}",
        f"--MappingKernelManager.cull_interval={limits.cull_interval_seconds}",
        "--MappingKernelManager.cull_connected=False",
    ]
    if preheat:  # a small pool (see PREHEATED), not a kernel per app
        argv += ["--preheat_kernel=True", "--pool_size=0", "--VoilaKernelManager.fill_delay=0"]
    return argv


def voila_config(preheat: bool = PREHEAT):
    """The settings Voila's command line cannot carry: which notebooks keep a kernel ready."""
    from traitlets.config import Config

    config = Config()
    if preheat:
        pools = {"default": {"pool_size": 0}}
        pools.update({name: {"pool_size": 1} for name in PREHEATED})
        config.VoilaKernelManager.kernel_pools_config = pools
    return config


class _Unactionable(logging.Filter):
    """Drops log lines a teacher can do nothing about (Voila renders untrusted notebooks all the same)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "is not trusted" not in record.getMessage()


def _voila_app_class(limits: Limits | None = None, tls=None):
    """Voila, plus a redirect from ``/`` to the landing page and the bounds of :mod:`gopskit.server` (HTTPS with ``tls``)."""
    from jupyter_server.utils import url_path_join
    from tornado.web import RedirectHandler
    from voila.app import Voila

    from .server.handlers import Pace, bounded_handlers

    limits = limits or Limits()

    class GopskitVoila(Voila):
        def init_settings(self):
            settings = super().init_settings()
            self.log.addFilter(_Unactionable())
            for handler in self.log.handlers:
                handler.addFilter(_Unactionable())
            self.tornado_settings = {
                **self.tornado_settings,
                "gopskit_limits": limits,
                "gopskit_pace": Pace(limits.pages_per_minute, pace_loopback=limits.pace_loopback),
                "websocket_max_message_size": limits.max_message_bytes,
                # a page whose computer went to sleep is noticed within a minute (Jupyter's pings, in ms)
                "ws_ping_interval": 30_000,
                "ws_ping_timeout": 30_000,
            }
            return settings

        def listen(self):
            from .server.connections import bound_connections

            bound_connections(self.app, limits, tls)  # connections per computer, slow requests, bodies, Host names
            super().listen()

        def _url(self, ip):  # the address Voila prints and opens: https when it speaks it
            url = super()._url(ip)
            return "https" + url[len("http"):] if tls is not None and url.startswith("http:") else url

        def init_handlers(self):
            index = url_path_join(self.server_url, "voila/render", INDEX)
            handlers = bounded_handlers(super().init_handlers(), self.server_url, index)
            return [(url_path_join(self.server_url, r"/?"), RedirectHandler, {"url": index})] + handlers

    return GopskitVoila


def lan_address() -> str | None:
    """This computer's address on the local network (a private IPv4 address), if it has one.

    Read from the network interfaces; nothing is sent anywhere.
    """
    import ipaddress

    import psutil

    found = []
    for name, addresses in psutil.net_if_addrs().items():
        for address in addresses:
            if address.family == socket.AF_INET:
                ip = ipaddress.ip_address(address.address)
                if ip.is_private and not ip.is_loopback and not ip.is_link_local:
                    found.append(address.address)
    return found[0] if found else None


def addresses_to_open(port: int, host: str, scheme: str = "http") -> list[str]:
    """What ``serve`` prints: the address on this computer, and the one students open (``scheme`` https with TLS).

    >>> addresses_to_open(8866, "localhost")
    ['Open http://localhost:8866 in a browser on this computer.']
    >>> addresses_to_open(8866, "localhost", "https")
    ['Open https://localhost:8866 in a browser on this computer.']
    """
    lines = [f"Open {scheme}://localhost:{port} in a browser on this computer."]
    if listens_beyond(host):  # 127.0.0.2 is this computer too: no address for students
        lan = host if host not in ("0.0.0.0", "::", "") else lan_address()
        if lan:
            lines.append(f"Students open {scheme}://{lan}:{port} (same network as this computer).")
        else:
            lines.append(f"Students open {scheme}://THIS-COMPUTER'S-ADDRESS:{port} (no network address found).")
    return lines


@lru_cache(maxsize=8)  # serve asks three times (addresses, passcode, kernels' note): resolve a name once
def listens_beyond(host: str) -> bool:
    """Whether a server listening on ``host`` can be reached from other computers.

    Only loopback addresses (``127.0.0.0/8``, ``::1``) and names that stand
    for nothing else (``localhost``) keep it to this computer; an address of
    all interfaces (``0.0.0.0``, ``::``, ``""``), a network address, and a
    name that does not resolve count as beyond.

    >>> [listens_beyond(h) for h in ("localhost", "127.0.0.2", "[::1]", "0.0.0.0", "::", "192.168.1.20", "")]
    [False, False, False, True, True, True, True]
    """
    import ipaddress

    name = host.strip().strip("[]").lower()
    if not name:
        return True
    if name == "localhost" or name.endswith(".localhost"):  # RFC 6761: always this computer
        return False
    try:
        addresses = [ipaddress.ip_address(name)]
    except ValueError:  # a host name: what it resolves to
        try:
            addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in socket.getaddrinfo(name, None)]
        except (OSError, ValueError):
            return True
    return not addresses or not all(_loopback(a) for a in addresses)


def _loopback(address) -> bool:
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is this computer too
    return (mapped or address).is_loopback


def teacher_passcode(host: str, chosen: str | None = None, off: bool = False) -> tuple[str | None, list[str]]:
    """The teacher passcode of this run, and what ``serve`` prints about it.

    ``off`` (``--no-teacher-passcode``): none. Else ``chosen``
    (``--teacher-passcode``), else one already in the environment
    (``GOPSKIT_TEACHER_PASSCODE``), each checked for strength; else, when
    the server listens beyond this computer (:func:`listens_beyond`), a
    fresh one. A passcode given is never printed (the teacher knows it).
    """
    from .classroom.tokens import PASSCODE_ENV, new_passcode, passcode_problem

    if off:
        return None, ["No teacher passcode (--no-teacher-passcode): anyone who reaches this server can open rooms."]
    given = chosen if chosen is not None else os.environ.get(PASSCODE_ENV)
    if given is not None:
        problem = passcode_problem(given)
        if problem:
            where = "--teacher-passcode" if chosen is not None else f"the environment variable {PASSCODE_ENV}"
            raise GopsError(f"{where}: {problem}")
        where = "--teacher-passcode" if chosen is not None else PASSCODE_ENV
        return given, [f"Teacher passcode: the one in {where} (the teacher's page asks for it)."]
    if not listens_beyond(host):
        return None, []
    passcode = new_passcode()
    return passcode, [f"Teacher passcode: {passcode} (the teacher's page asks for it; students never need it, "
                      "so keep this terminal off the projector)."]


def serve(port: int = DEFAULT_PORT, open_browser: bool = True, preheat: bool = PREHEAT, host: str = "localhost",
          limits: Limits | None = None, passcode: str | None = None, no_passcode: bool = False,
          certfile: str | None = None, keyfile: str | None = None) -> int:
    """Serve the apps until interrupted; return the exit status.

    Opens http://localhost:PORT (the landing page) in a browser unless
    ``open_browser`` is false. ``limits`` bound the kernels (default: sized
    from this machine's memory). ``passcode`` and ``no_passcode``: the
    teacher passcode's options (see :func:`teacher_passcode`). With
    ``certfile`` (a PEM certificate, its key in ``keyfile`` or in the same
    file) the server speaks HTTPS only.
    """
    from .classroom.tokens import PASSCODE_ENV, SERVED_BEYOND_ENV

    tls = served_tls(certfile, keyfile)
    code, code_lines = teacher_passcode(host, passcode, no_passcode)
    folder = notebooks_dir()
    limits = limits or Limits()
    # ready kernels count against the cap: keep them only when they leave most of it to pages
    preheat = preheat and limits.max_kernels > 2 * len(PREHEATED)
    argv = voila_argv(folder, port, open_browser, preheat, host, limits)
    print(f"gopskit: serving the apps in {folder} (Ctrl-C stops).", flush=True)
    print(f"gopskit: at most {limits.max_kernels} apps open at once ({limits.kernels_per_client} per "
          f"computer), {limits.kernel_memory_mb} MB each; "
          f"a closed page frees its place within {limits.freed_within_seconds} s.", flush=True)
    for line in addresses_to_open(port, host, "https" if tls else "http") + code_lines + tls_lines(host, certfile):
        print("gopskit: " + line, flush=True)
    if code is None:  # the kernels inherit the environment: none of them may find an old passcode
        os.environ.pop(PASSCODE_ENV, None)
    else:
        os.environ[PASSCODE_ENV] = code
    os.environ[SERVED_BEYOND_ENV] = "1" if listens_beyond(host) else "0"  # what the teacher's page tells
    if precompile_in_background() is not None:
        print("gopskit: compiling the exact solver in the background (once after installing, about 20 s).", flush=True)
    _voila_app_class(limits, tls).launch_instance(argv=argv, config=voila_config(preheat))
    return 0


_PRECOMPILING: list = []  # the background compile this process started, kept until it ends


def precompile_in_background():
    """Start ``python -m gopskit.solvers.precompile`` unless the solver's kernels are compiled; the process, or None.

    Installed with ``pip`` rather than ``make``, nothing has compiled them:
    without this the first game with the equilibrium bot past 9 cards would
    wait for the compile (see :mod:`gopskit.solvers.precompile`). It runs
    beside the server, which starts at once; its output is dropped.
    """
    from .solvers.precompile import compiled

    if compiled():
        return None
    process = subprocess.Popen([sys.executable, "-m", "gopskit.solvers.precompile", "--quiet"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _PRECOMPILING.append(process)
    return process


def served_tls(certfile: str | None, keyfile: str | None):
    """The TLS settings of ``--certfile``/``--keyfile`` (None for plain HTTP); a :class:`GopsError` saying what is wrong."""
    from .server.connections import CertificateError, tls_context

    if certfile is None:
        if keyfile is not None:
            raise GopsError("--keyfile goes with --certfile: give the certificate too")
        return None
    try:
        return tls_context(certfile, keyfile)
    except CertificateError as exc:
        raise GopsError(f"cannot serve HTTPS: {exc}. Give --certfile a PEM certificate and --keyfile its "
                        "private key (or one file holding both)") from None


def tls_lines(host: str, certfile: str | None) -> list[str]:
    """What ``serve`` says of encryption: nothing on this computer alone; beyond it, whether the network can read."""
    if not listens_beyond(host):
        return []
    if certfile is None:
        return ["Plain HTTP: on a network you do not trust, anyone on it can read the passcode and the moves; "
                "--certfile and --keyfile serve HTTPS."]
    return ["HTTPS: the students' browsers must trust this certificate (one made by this computer itself "
            "shows them a warning to accept once)."]


def free_port() -> int:
    """A TCP port on localhost that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def background_server(port: int | None = None, preheat: bool = PREHEAT, timeout: float = 90, log=None,
                      options: list[str] | None = None):
    """Run ``python -m gopskit.serve`` in a child process; yield its base URL.

    Waits until the server answers (at most ``timeout`` seconds) and stops it
    on exit. ``options`` are more arguments of :func:`main` (limits, e.g.
    ``["--max-kernels=4", "--cull-after=5"]``). Tests and benchmarks use it;
    the child's process id is ``background_server.pid`` while it runs.
    """
    port = port or free_port()
    command = [sys.executable, "-m", "gopskit.serve", f"--port={port}", "--no-browser", *(options or [])]
    if not preheat:
        command.append("--no-preheat")
    child = subprocess.Popen(command, stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT)
    tls = any(option == "--certfile" or option.startswith("--certfile=") for option in options or [])
    url = f"{'https' if tls else 'http'}://localhost:{port}"
    background_server.pid = child.pid
    try:
        _wait_for(url + "/voila/tree", child, timeout)
        yield url
    finally:
        stop_child(child)


def stop_child(child: subprocess.Popen, timeout: float = 15) -> None:
    """Stop a child process: ask it to (SIGTERM), then kill it if it has not ended within ``timeout`` seconds."""
    child.terminate()
    try:
        child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def kernel_processes(server_pid: int) -> int:
    """How many app kernels (``gopskit.server.kernel_launcher`` processes) a server process runs now."""
    import psutil

    count = 0
    for child in psutil.Process(server_pid).children(recursive=True):
        try:
            count += "gopskit.server.kernel_launcher" in " ".join(child.cmdline())
        except psutil.NoSuchProcess:  # ended while being looked at
            pass
    return count


def _wait_for(url: str, child, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise GopsError(f"the Voila server stopped at start-up with status {child.returncode}")
        try:  # a test's certificate need not be trusted here: this only asks whether the server is up
            context = ssl._create_unverified_context() if url.startswith("https:") else None
            with urllib.request.urlopen(url, timeout=2, context=context) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise GopsError(f"the Voila server did not answer at {url} within {timeout:g} s")


def add_limit_options(parser: argparse.ArgumentParser, hidden: bool = False) -> None:
    """The teacher's limits (``--max-kernels``, ``--kernel-memory``, ``--kernels-per-client``);
    with ``hidden``, the tests' too."""
    parser.add_argument("--max-kernels", type=int, default=None,
                        help="apps open at once across all browsers (default: sized from this computer's memory)")
    parser.add_argument("--kernel-memory", type=int, default=Limits.kernel_memory_mb, metavar="MB",
                        help=f"memory one open app may use, in MB (default {Limits.kernel_memory_mb})")
    parser.add_argument("--kernels-per-client", type=int, default=Limits.kernels_per_client, metavar="N",
                        help="apps one computer (network address) may have open at once; this computer "
                             f"itself is not limited (default {Limits.kernels_per_client})")
    if hidden:
        for flag, field in (("--cull-after", "cull_idle_seconds"), ("--cull-every", "cull_interval_seconds"),
                            ("--pages-per-minute", "pages_per_minute"), ("--buffer-messages", "buffer_max_messages"),
                            ("--max-pending-bytes", "max_pending_bytes")):
            parser.add_argument(flag, type=int, default=getattr(Limits, field), dest=field)
        parser.add_argument("--pace-loopback", action="store_true", help="pace this computer's own page loads too")


def add_host_name_option(parser: argparse.ArgumentParser) -> None:
    """``--host-name NAME``: more names the server answers to (see :func:`.server.connections.local_names`)."""
    parser.add_argument("--host-name", action="append", default=[], metavar="NAME", dest="host_names",
                        help="another name students' browsers may call this computer by (a school's name for it, "
                             "a proxy's); repeat for several. Without it the server answers to localhost, IP "
                             "addresses and this computer's own names, and no other (a page from another site "
                             "cannot reach it by a name of its own)")


def add_passcode_options(parser: argparse.ArgumentParser) -> None:
    """``--teacher-passcode TEXT`` and ``--no-teacher-passcode`` (see :func:`teacher_passcode`)."""
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--teacher-passcode", default=None, metavar="TEXT",
                        help="the passcode the teacher's page asks for (at least 12 characters); served beyond this "
                             "computer (--host 0.0.0.0) without it, a fresh one is made and printed")
    choice.add_argument("--no-teacher-passcode", action="store_true",
                        help="no passcode: anyone who reaches the server may open rooms (a network you trust)")


def add_tls_options(parser: argparse.ArgumentParser) -> None:
    """``--certfile PEM`` and ``--keyfile PEM``: serve HTTPS (see :func:`served_tls`)."""
    parser.add_argument("--certfile", default=None, metavar="PEM",
                        help="serve HTTPS with this certificate (PEM; the private key too, unless --keyfile)")
    parser.add_argument("--keyfile", default=None, metavar="PEM", help="the certificate's private key (PEM)")


def limits_from(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` of parsed options (a bad value raises :class:`GopsError`)."""
    extra = {f: getattr(args, f) for f in ("cull_idle_seconds", "cull_interval_seconds", "pages_per_minute",
                                           "buffer_max_messages", "max_pending_bytes") if hasattr(args, f)}
    if getattr(args, "pace_loopback", False):
        extra["pace_loopback"] = True
    if hasattr(args, "kernels_per_client"):
        extra["kernels_per_client"] = args.kernels_per_client
    if getattr(args, "host_names", None):
        extra["host_names"] = tuple(args.host_names)
    return Limits(max_kernels=args.max_kernels, kernel_memory_mb=args.kernel_memory, **extra)


def main(argv=None) -> int:
    """``python -m gopskit.serve [--port N] [--no-browser] [--no-preheat] [limits]`` (tests and benchmarks use it)."""
    parser = argparse.ArgumentParser(prog="python -m gopskit.serve", description="serve the gopskit apps with Voila")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--host", default="localhost")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-preheat", action="store_true")
    add_limit_options(parser, hidden=True)
    add_host_name_option(parser)
    add_passcode_options(parser)
    add_tls_options(parser)
    args = parser.parse_args(argv)
    try:
        return serve(args.port, not args.no_browser, not args.no_preheat, args.host, limits_from(args),
                     args.teacher_passcode, args.no_teacher_passcode, args.certfile, args.keyfile)
    except GopsError as exc:
        print(f"gopskit: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
