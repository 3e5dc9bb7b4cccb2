"""The server's connections, bounded: per computer, in all, in time, in size, and by the name asked for.

Voila listens with tornado's plain ``HTTPServer``, which takes every
connection and keeps it: one computer on the classroom network could open a
thousand idle connections (each says half a request and waits) and use up
the server's open files. Then tornado can accept nothing more, the
teacher's own page stops loading, and its loop retries the failing
``accept`` without pause: measured, 60 % of a processor and 20 MB of
tracebacks a second in the server's log until the connections are closed.
A request body was read whole into memory before any handler saw it (up to
100 MB each): eight connections of one computer made the server 720 MB
larger. And the server answered a page asked for under any name, so a web
page elsewhere could reach it through a name of its own that points here
(DNS rebinding) and drive the apps in the teacher's browser.

:func:`bound_connections` makes the Voila application listen with
:class:`BoundedHTTPServer` instead:

* at most ``max_connections_per_client`` connections from one computer at a
  time (an IPv6 /64 is one computer, see :func:`~.kernels.client_key`; this
  computer itself is exempt); beyond, the connection gets a short plain
  answer (503) saying so, and is closed (over HTTPS the answer follows the
  handshake, which gets :data:`TLS_REFUSAL_SECONDS`; at most
  :data:`TLS_REFUSALS` of those at once);
* at most ``new_connections_per_second`` new connections a second from one
  computer on average, ``new_connection_burst`` at once
  (:class:`ConnectionPace`); beyond, the same short answer says to wait
  (over HTTPS the connection is closed before any handshake: a script
  opening connections in a loop would otherwise cost a handshake each);
* at most as many connections in all as the open-file limit leaves beside
  the kernels' (the soft limit is first raised to the hard one);
* when ``accept`` fails for want of files anyway, the server stops accepting
  for half a second and says so once, instead of spinning;
* a request has ``header_timeout_seconds`` to send its headers (and its body),
  a connection with nothing to do is closed after that long, and a request
  body may hold ``max_body_bytes`` (pages send none);
* a request must name this server as browsers do: ``localhost``, an IP
  address (a student's browser at ``http://192.168.1.20:8866``), this
  computer's own name, the address it listens on, or a name the teacher
  gave with ``--host-name`` (:attr:`.limits.Limits.host_names`); any other
  name gets a page saying which address to open, and the server's log says
  once per name (for the first few) how to allow it.

``gopskit serve`` listens this way (``GopskitVoila.listen`` in
:mod:`gopskit.serve`). Given a certificate (``gopskit serve --certfile``,
:func:`tls_context`) it speaks HTTPS, under the same bounds: the teacher's
passcode and the students' moves then cross the classroom network
encrypted.
"""

from __future__ import annotations

import collections
import errno
import functools
import logging
import os
import re
import resource
import socket
import ssl
import time

from tornado import gen, netutil
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.iostream import SSLIOStream
from tornado.routing import AnyMatches, HostMatches, Rule, RuleRouter
from tornado.web import Application, RequestHandler

from .kernels import client_key
from .limits import LOOPBACK, Limits

log = logging.getLogger("gopskit.server")

#: Open files kept for the server itself (its log, its kernels' sockets, notebooks being read) ...
RESERVED_FILES = 256
#: ... and for each kernel it may run (the kernel's channels and their sockets).
FILES_PER_KERNEL = 40
#: How long the server stops accepting after running out of open files (seconds).
ACCEPT_PAUSE = 0.5
TLS_REFUSALS = 64  # refusals sent over TLS at once (each waits for a handshake); beyond, closed without words
TLS_REFUSAL_SECONDS = 2.0  # how long a refused TLS connection may take to shake hands and read its answer
_OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; return the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):  # macOS refuses beyond kern.maxfilesperproc: keep the soft limit
            pass
    return soft


def max_open_connections(open_files: int, max_kernels: int) -> int:
    """Connections the server may hold at once, so that kernels and files always have room.

    >>> max_open_connections(1024, 10)
    368
    >>> max_open_connections(1024, 46)
    64
    """
    return max(64, open_files - RESERVED_FILES - FILES_PER_KERNEL * max_kernels)


def _answer(status: str, text: str, retry_after: int) -> bytes:
    body = text.encode("utf-8")
    return (f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: {retry_after}\r\n"
            f"Cache-Control: no-store\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


class ConnectionPace:
    """New connections per computer, paced: a token bucket for each.

    A computer's bucket holds up to ``burst`` tokens and fills at
    ``per_second``; a new connection takes one, and with none left it is
    refused. ``clock`` gives seconds (a test passes its own). At most
    :attr:`MAX_COMPUTERS` buckets are kept: full ones are forgotten first
    (a full bucket is what a computer not seen gets), then the fullest, so
    that many computers with a connection each cannot wipe out the empty
    bucket of one that floods.

    >>> now = [0.0]
    >>> pace = ConnectionPace(per_second=2, burst=3, clock=lambda: now[0])
    >>> [pace.allow("pc-1") for _ in range(4)], pace.allow("pc-2")
    ([True, True, True, False], True)
    >>> now[0] = 0.5  # one token back for pc-1 (2 a second)
    >>> pace.allow("pc-1"), pace.allow("pc-1")
    (True, False)
    """

    MAX_COMPUTERS = 4096

    def __init__(self, per_second: float, burst: float, clock=time.monotonic):
        self.per_second, self.burst, self.clock = float(per_second), float(burst), clock
        self._buckets: dict[str, tuple[float, float]] = {}  # computer -> (tokens, when counted)

    def allow(self, key: str) -> bool:
        """Whether computer ``key`` may open one more connection now (taking a token if so)."""
        now = self.clock()
        tokens = self._filled(*self._buckets.pop(key, (self.burst, now)), now)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)  # re-inserted: the newest
        if len(self._buckets) > self.MAX_COMPUTERS:
            self._forget(now)
        return allowed

    def _filled(self, tokens: float, since: float, now: float) -> float:
        """A bucket's tokens now: what it held at ``since``, refilled since then, never above the burst."""
        return min(self.burst, tokens + max(0.0, now - since) * self.per_second)

    def _forget(self, now: float) -> None:
        """Down to three quarters of :attr:`MAX_COMPUTERS`, keeping the emptiest buckets (a flooder's stays)."""
        tokens = {k: self._filled(t, since, now) for k, (t, since) in self._buckets.items()}
        keep = sorted(tokens, key=tokens.get)[:self.MAX_COMPUTERS * 3 // 4]
        self._buckets = {k: self._buckets[k] for k in keep if tokens[k] < self.burst}


class _Counted:
    """An accepted connection that tells the server when it is closed (tornado closes it exactly once)."""

    _release = None

    def close(self):
        release, self._release = self._release, None
        try:
            super().close()
        finally:
            if release is not None:
                release()


class _CountedSocket(_Counted, socket.socket):
    pass


class _CountedSSLSocket(_Counted, ssl.SSLSocket):
    pass


class CertificateError(ValueError):
    """A certificate or key that cannot be served with, and why."""


def tls_context(certfile, keyfile=None) -> ssl.SSLContext:
    """A server's TLS settings from a PEM certificate (chain) and its private key (``keyfile``, or in ``certfile``).

    Raises :class:`CertificateError` saying what is wrong with the files.
    The connections it makes are counted like plain ones
    (:class:`BoundedHTTPServer`); TLS 1.2 at least.
    """
    for path in (certfile, keyfile):
        if path is not None and not os.path.isfile(path):
            raise CertificateError(f"{'not a file' if os.path.exists(path) else 'no such file'}: {path}")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(certfile, keyfile)
    except FileNotFoundError as exc:
        raise CertificateError(f"no such file: {exc.filename or certfile}") from None
    except ssl.SSLError as exc:
        raise CertificateError(f"{certfile}{' and ' + str(keyfile) if keyfile else ''} are not a PEM certificate "
                               f"and its private key ({exc.reason or exc})") from None
    except OSError as exc:
        raise CertificateError(f"cannot read {exc.filename or certfile}: {exc.strerror or exc}") from None
    context.sslsocket_class = _CountedSSLSocket
    return context


class BoundedHTTPServer(HTTPServer):
    """Tornado's HTTP server, holding a bounded number of connections per computer and in all.

    Besides :class:`~tornado.httpserver.HTTPServer`'s own arguments:
    ``per_client`` (connections one computer may hold; this computer itself
    is exempt), ``max_connections`` (in all), ``pace`` (a
    :class:`ConnectionPace`: how fast one computer may open new ones) and ``tls`` (a
    :func:`tls_context`: HTTPS; tornado's own ``ssl_options`` would lose
    count of the connections it wraps).
    """

    def initialize(self, request_callback, *args, per_client: int = 64, max_connections: int = 1024,
                   tls: ssl.SSLContext | None = None, pace: ConnectionPace | None = None, **kwargs):
        super().initialize(request_callback, *args, **kwargs)
        self.per_client, self.max_connections, self.tls = per_client, max_connections, tls
        self.pace = pace if pace is not None else ConnectionPace(Limits.new_connections_per_second,
                                                                 Limits.new_connection_burst)
        self.open_connections: collections.Counter[str] = collections.Counter()
        self.refused_connections = 0
        self.refusing = 0  # refusals being sent over TLS (_refuse_over_tls)
        self.accept_pauses = 0

    def open_total(self) -> int:
        return sum(self.open_connections.values())

    def add_sockets(self, sockets) -> None:
        """Listen on ``sockets`` with :meth:`_accept` (tornado's loop, pausing when files run out)."""
        for sock in sockets:
            self._sockets[sock.fileno()] = sock
            self._handlers[sock.fileno()] = self._watch(sock)

    def _watch(self, sock: socket.socket):
        loop = IOLoop.current()
        loop.add_handler(sock, functools.partial(self._accept, sock), IOLoop.READ)

        def remove_handler() -> None:  # tornado's stop() calls it (paused or not: removing twice is harmless)
            loop.remove_handler(sock)

        return remove_handler

    def _accept(self, sock: socket.socket, fd, events) -> None:
        for _ in range(netutil._DEFAULT_BACKLOG):
            try:
                connection, address = sock.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue
            except OSError as failed:
                if failed.errno not in _OUT_OF_FILES:
                    raise
                self._pause(sock, failed)
                return
            self._admit(connection, address)

    def _pause(self, sock: socket.socket, failed: OSError) -> None:
        """Out of open files: stop accepting for :data:`ACCEPT_PAUSE` seconds (one line in the log)."""
        self.accept_pauses += 1
        log.warning("gopskit: out of open files (%s, %d connections open); new connections wait %.1f s",
                    failed.strerror, self.open_total(), ACCEPT_PAUSE)
        loop = IOLoop.current()
        loop.remove_handler(sock)

        def resume() -> None:
            if not self._stopped and sock.fileno() in self._sockets:
                loop.add_handler(sock, functools.partial(self._accept, sock), IOLoop.READ)

        loop.call_later(ACCEPT_PAUSE, resume)

    def _admit(self, connection: socket.socket, address) -> None:
        ip = address[0] if isinstance(address, tuple) and address else str(address)
        key = client_key(ip)
        if ip not in LOOPBACK and not self.pace.allow(key):
            if self.tls is not None:  # a script in a loop: no handshake, no words
                self._count_refusal(ip)
                connection.close()
                return None
            return self._refuse(connection, ip, _answer(
                "503 Service Unavailable",
                "This computer opened new connections to the gopskit server faster than "
                f"{self.pace.per_second:g} a second ({self.pace.burst:g} at once), the most one computer may. "
                "Wait a few seconds, then reload this page.\n", retry_after=5))
        if ip not in LOOPBACK and self.open_connections[key] >= self.per_client:
            return self._refuse(connection, ip, _answer(
                "503 Service Unavailable",
                f"This computer has {self.per_client} connections open to the gopskit server, the most one "
                "computer may have. Close some gopskit tabs, then reload this page.\n", retry_after=10))
        if self.open_total() >= self.max_connections:
            return self._refuse(connection, ip, _answer(
                "503 Service Unavailable",
                f"The gopskit server holds {self.max_connections} connections, all it can. "
                "Wait a moment, then reload this page.\n", retry_after=10))
        try:
            counted = _CountedSocket(connection.family, connection.type, connection.proto, connection.detach())
        except OSError:
            connection.close()
            return None
        self.open_connections[key] += 1
        counted._release = functools.partial(self._release, key)
        return self._handle_connection(counted, address)

    def _handle_connection(self, connection, address) -> None:
        """As tornado's, but a TLS connection keeps its count: the wrapped socket inherits the release."""
        if self.tls is None:
            return super()._handle_connection(connection, address)
        release, connection._release = connection._release, None
        try:
            wrapped = self.tls.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        except (ssl.SSLError, OSError):  # closed at once (a port scan), or not TLS at all
            connection.close()
            release()
            return None
        wrapped._release = release
        try:
            stream = SSLIOStream(wrapped, max_buffer_size=self.max_buffer_size, read_chunk_size=self.read_chunk_size)
        except Exception:
            wrapped.close()
            raise
        future = self.handle_stream(stream, address)
        if future is not None:
            IOLoop.current().add_future(gen.convert_yielded(future), lambda done: done.result())
        return None

    def _release(self, key: str) -> None:
        self.open_connections[key] -= 1
        if self.open_connections[key] <= 0:
            del self.open_connections[key]

    def _count_refusal(self, ip: str) -> None:
        self.refused_connections += 1
        if self.refused_connections in (1, 10, 100) or self.refused_connections % 1000 == 0:
            log.warning("gopskit: refused a connection from %s (%d refused so far)", ip, self.refused_connections)

    def _refuse(self, connection: socket.socket, ip: str, answer: bytes) -> None:
        self._count_refusal(ip)
        if self.tls is not None and self.refusing < TLS_REFUSALS:
            return self._refuse_over_tls(connection, answer)
        try:
            connection.setblocking(False)
            try:  # what the client already sent is read first: closing on unread data would reset the answer away
                connection.recv(1 << 16)
            except BlockingIOError:
                pass
            connection.send(answer)
            connection.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        finally:
            connection.close()


    def _refuse_over_tls(self, connection: socket.socket, answer: bytes) -> None:
        """The refusal, in words a browser shows: over TLS, once the handshake is done (at most :data:`TLS_REFUSAL_SECONDS`).

        Sent in plain text, a browser would show only a protocol error. At
        most :data:`TLS_REFUSALS` such answers are under way at once; beyond
        that a refused connection is closed at once.
        """
        self.refusing += 1
        try:
            wrapped = self.tls.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
            stream = SSLIOStream(wrapped)
        except (ssl.SSLError, OSError):
            self.refusing -= 1
            connection.close()
            return None
        loop = IOLoop.current()
        deadline = loop.call_later(TLS_REFUSAL_SECONDS, stream.close)

        def finished(_stream=None) -> None:
            loop.remove_timeout(deadline)
            self.refusing -= 1

        def sent(done) -> None:
            if not done.cancelled():
                done.exception()  # a client gone before the answer: nothing to report
            stream.close()

        stream.set_close_callback(finished)
        stream.write(answer).add_done_callback(sent)
        return None


def local_names(address: str | None = None, extra=()) -> list[str]:
    """The names a browser may call this server by: ``localhost``, this computer's names, the listen address,
    and ``extra`` (``--host-name``)."""
    names = {"localhost", socket.gethostname(), *extra}
    names.add(socket.gethostname().split(".")[0] + ".local")  # the name a school's mDNS gives
    try:
        names.add(socket.getfqdn())
    except OSError:  # pragma: no cover - no resolver at all
        pass
    if address and address not in ("0.0.0.0", "::", ""):
        names.add(address)
    return sorted(n.lower() for n in names if n)


def host_pattern(names: list[str]) -> str:
    r"""The pattern of the names allowed in a request's ``Host``: ``names``, ``*.localhost`` and any IP address.

    >>> import re
    >>> allowed = re.compile(host_pattern(["localhost", "teacher-laptop"]))
    >>> [bool(allowed.match(h)) for h in ("localhost", "192.168.1.20", "[fe80::1]", "teacher-laptop", "evil.example")]
    [True, True, True, True, False]
    """
    spelled = "|".join(re.escape(n) for n in names)
    return rf"^(?:{spelled}|[a-z0-9-]+\.localhost|\d{{1,3}}(?:\.\d{{1,3}}){{3}}|\[[0-9a-f:.]+\])$"


class WrongHostHandler(RequestHandler):
    """Every request that names another host: a page saying which address to open (421)."""

    def initialize(self, names: list[str], told: set) -> None:
        self.names, self.told = names, told

    def prepare(self) -> None:
        from .handlers import refusal_page

        self._tell_the_teacher()
        self.set_status(421)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(refusal_page("Wrong address", [
            "This gopskit server answers only at its own address: "
            "http://localhost on the computer it runs on, its network address (numbers such as "
            "http://192.168.1.20:8866) or the computer's name (" + ", ".join(self.names) + ").",
            "Open the address your teacher wrote on the board.",
        ], "/"))

    def _tell_the_teacher(self) -> None:
        """One line in the server's log for each refused name (the first few): it may be the school's own."""
        name = self.request.host_name or ""
        if name in self.told or len(self.told) >= MAX_NAMES_TOLD:
            return
        self.told.add(name)
        shown = name if re.fullmatch(r"[a-z0-9.-]{1,80}", name) else repr(name[:80]).encode("ascii", "backslashreplace").decode()
        log.warning("refused a page that called this server %s; if that is a right name for this computer, "
                    "restart with --host-name %s", shown, shown)


MAX_NAMES_TOLD = 20  # refused names the log mentions; a script could send thousands


def guarded(app: Application, names: list[str]) -> RuleRouter:
    """``app`` behind a check of each request's ``Host``: other names get :class:`WrongHostHandler`."""
    refusal = Application([(r".*", WrongHostHandler, {"names": names, "told": set()})])
    return RuleRouter([Rule(HostMatches(host_pattern(names)), app), Rule(AnyMatches(), refusal)])


CONNECTIONS_PER_APP = 16  # a browser's few HTTP connections plus an app's websocket, with room to spare


def connections_per_client(limits: Limits) -> int:
    """Connections one computer may hold: ``max_connections_per_client``, more if it may open many apps.

    Students behind one shared address (a proxy) are one computer to the
    server; the teacher then raises ``--kernels-per-client`` to the size of
    the room, and the connections follow.

    >>> connections_per_client(Limits(max_kernels=40)), connections_per_client(Limits(max_kernels=40, kernels_per_client=30))
    (64, 480)
    """
    return max(limits.max_connections_per_client, CONNECTIONS_PER_APP * limits.kernels_per_client)


def server_options(limits: Limits, open_files: int) -> dict:
    """The :class:`BoundedHTTPServer` arguments for ``limits`` on a process allowed ``open_files`` files."""
    per_client = connections_per_client(limits)
    scale = per_client / limits.max_connections_per_client  # a room behind one address: its pace grows with its share
    return {
        "per_client": per_client,
        "pace": ConnectionPace(limits.new_connections_per_second * scale, limits.new_connection_burst * scale),
        "max_connections": max_open_connections(open_files, limits.max_kernels),
        "idle_connection_timeout": limits.header_timeout_seconds,
        "body_timeout": limits.header_timeout_seconds,
        "max_body_size": limits.max_body_bytes,
        # a websocket message is read whole into this buffer: room for the largest one allowed
        "max_buffer_size": 2 * limits.max_message_bytes,
    }


def bound_connections(app: Application, limits: Limits, tls: ssl.SSLContext | None = None) -> None:
    """Make ``app.listen`` (what Voila calls) listen with a :class:`BoundedHTTPServer` under ``limits`` (HTTPS with ``tls``)."""

    def listen(port: int, address: str | None = None, **kwargs) -> BoundedHTTPServer:
        options = server_options(limits, raise_open_files_limit())
        server = BoundedHTTPServer(guarded(app, local_names(address, limits.host_names)), tls=tls, **options)
        server.listen(port, address=address, **kwargs)
        return server

    app.listen = listen
