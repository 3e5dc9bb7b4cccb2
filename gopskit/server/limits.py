"""The numbers that bound the served apps, and how their defaults are chosen.

>>> limits = Limits(max_kernels=12, kernel_memory_mb=1024)
>>> limits.max_kernels, limits.cull_idle_seconds, limits.kernels_per_client
(12, 60, 4)
>>> Limits(max_kernels=0)
Traceback (most recent call last):
...
gopskit.errors.GopsError: the kernel cap is a whole number from 1 to 500 (live kernels at once), not 0
>>> default_max_kernels(total_memory_mb=8192)
46
>>> default_max_kernels(total_memory_mb=1024)
2
"""

from __future__ import annotations

import dataclasses
import os
import re

from ..errors import GopsError

#: What one app's kernel usually holds in memory (resident), measured on the
#: kit's apps: 75 MB (a student's classroom page, the most numerous) to 250 MB
#: (strategy explorer).
TYPICAL_KERNEL_MB = 120
#: Memory kept for the system, the browser and the server itself.
RESERVED_MB = 2048
#: The kernel cap never goes beyond this, whatever the memory.
MAX_KERNELS_CEILING = 500
#: The serving computer itself, as a page request's address: not paced, not
#: held to the per-client cap (the teacher's browser, the kit's tests and
#: benchmarks open many pages). Only these addresses: 127.0.0.2 and the rest of
#: 127.0.0.0/8 count as clients like any other computer (the tests use them).
LOOPBACK = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


def total_memory_mb() -> int:
    """This machine's physical memory in MB (psutil when present, else sysconf)."""
    try:
        import psutil

        return psutil.virtual_memory().total >> 20
    except ImportError:  # pragma: no cover - psutil comes with ipykernel
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20


def default_max_kernels(total_memory_mb: int | None = None) -> int:
    """How many kernels may live at once: what fits in memory after a reserve, at least 2.

    A machine of 8 GB takes (8192 - 2048) / 120 = 51 kernels less a tenth
    for headroom: 46, enough for a class of thirty on the classroom page
    with the teacher's apps beside. A page opens one kernel, so this is the
    number of pages (students' apps) served at once.
    """
    total = total_memory_mb if total_memory_mb is not None else globals()["total_memory_mb"]()
    spare = max(total - RESERVED_MB, 0)
    return max(2, min(MAX_KERNELS_CEILING, int(spare / TYPICAL_KERNEL_MB * 0.9)))


def _check_whole(name: str, value, low: int, high: int, unit: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GopsError(f"the {name} is a whole number from {low} to {high} ({unit}), not {value!r}")


_HOST_NAME = re.compile(r"^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$")


def _host_name(name) -> str:
    """``name`` as a host name the server may be called by (lower case), or :class:`GopsError`."""
    text = name.strip().lower().rstrip(".") if isinstance(name, str) else None
    if not text or not _HOST_NAME.match(text):
        raise GopsError(f"a host name is letters, digits, dashes and dots, such as pc-12.school.example, "
                        f"not {name!r}")
    return text


@dataclasses.dataclass(frozen=True)
class Limits:
    """Every bound of the served apps, checked when made.

    * ``max_kernels``: live kernels at once (each open page holds one); a page
      beyond it gets "the room is full". ``None``: :func:`default_max_kernels`.
    * ``kernel_memory_mb``: the data memory one kernel may allocate (its heap:
      ``RLIMIT_DATA``); beyond it the kernel's code gets a ``MemoryError``.
    * ``cull_idle_seconds`` and ``cull_interval_seconds``: a kernel whose page
      is gone (no open connection) and that has been quiet this long is shut
      down; the check runs every interval, so a page that has gone frees its
      kernel within their sum.
    * ``buffer_max_messages`` and ``buffer_max_bytes``: messages kept for a
      page whose connection dropped (replayed when it reconnects); beyond
      either, the buffer is dropped.
    * ``pages_per_minute``: page loads one network address may start in a
      minute; beyond it the page says to wait. The serving computer itself
      (loopback) is not paced unless ``pace_loopback``: the teacher's own
      browser, and the kit's tests and benchmarks, open many pages at once.
    * ``kernels_per_client``: live kernels one client (network address) may
      hold; a page beyond it is told to close another gopskit tab. Without
      it one student with many tabs, or anyone on purpose, fills the room.
      The serving computer itself (:data:`LOOPBACK`) is exempt; it still
      counts against ``max_kernels``.
    * ``max_message_bytes``: the largest message a browser may send.
    * ``max_pending_bytes``: bytes waiting to be sent to one page; a page that
      does not read them (a hostile client asking for widget states and never
      reading) is disconnected instead of growing the server.
    * ``max_connections_per_kernel``: websockets open on one kernel (a page
      needs one).
    * ``max_connections_per_client``: connections (HTTP and websockets) one
      client may hold open at once; beyond, a connection is answered "too
      many connections" and closed (see :mod:`.connections`). A browser
      holds about six per server plus a websocket per open app.
    * ``new_connections_per_second`` and ``new_connection_burst``: how fast
      one client may open new connections: on average, and at once (a
      token bucket, see :mod:`.connections`). A browser opens a few per
      page; a script that opens and closes them in a loop costs the server
      an accept each (a TLS handshake each over HTTPS) and is refused
      beyond it. Both grow with the connections the client may hold when
      ``kernels_per_client`` raises that (a room behind one proxy).
    * ``header_timeout_seconds``: how long a request may take to send its
      headers and its body, and how long an idle connection is kept.
    * ``max_body_bytes``: the largest request body (the apps send none).
    * ``max_messages_per_second``: the steady pace of messages one page may
      send its kernel (a dragged slider sends a few dozen a second); a page
      beyond it, after a burst, is disconnected.
    * ``host_names``: more names browsers may call the server by (a school's
      name for the teacher's computer, a proxy's); besides these the server
      answers to ``localhost``, IP addresses and this computer's own names
      (see :mod:`.connections`).
    """

    max_kernels: int | None = None
    kernel_memory_mb: int = 2048
    cull_idle_seconds: int = 60
    cull_interval_seconds: int = 20
    buffer_max_messages: int = 2000
    buffer_max_bytes: int = 16 << 20
    pages_per_minute: int = 60
    kernels_per_client: int = 4
    max_message_bytes: int = 4 << 20
    max_pending_bytes: int = 32 << 20
    max_connections_per_kernel: int = 6
    pace_loopback: bool = False
    max_connections_per_client: int = 64
    new_connections_per_second: int = 20
    new_connection_burst: int = 200
    header_timeout_seconds: int = 30
    max_body_bytes: int = 1 << 20
    max_messages_per_second: int = 100
    host_names: tuple[str, ...] = ()

    def __post_init__(self):
        if self.max_kernels is None:
            object.__setattr__(self, "max_kernels", default_max_kernels())
        _check_whole("kernel cap", self.max_kernels, 1, MAX_KERNELS_CEILING, "live kernels at once")
        _check_whole("kernel memory limit", self.kernel_memory_mb, 256, 1 << 20, "MB")
        _check_whole("idle time before a kernel is culled", self.cull_idle_seconds, 1, 86400, "seconds")
        _check_whole("culling interval", self.cull_interval_seconds, 1, 3600, "seconds")
        _check_whole("message buffer length", self.buffer_max_messages, 1, 10**6, "messages")
        _check_whole("message buffer size", self.buffer_max_bytes, 1024, 1 << 32, "bytes")
        _check_whole("page loads per minute", self.pages_per_minute, 1, 10**5, "per address")
        _check_whole("per-client kernel cap", self.kernels_per_client, 1, MAX_KERNELS_CEILING,
                     "live kernels one computer may hold")
        _check_whole("largest browser message", self.max_message_bytes, 1024, 1 << 30, "bytes")
        _check_whole("bytes waiting for one page", self.max_pending_bytes, 1 << 16, 1 << 32, "bytes")
        _check_whole("connections per kernel", self.max_connections_per_kernel, 1, 1000, "websockets")
        _check_whole("connections per client", self.max_connections_per_client, 8, 100_000, "open connections")
        _check_whole("pace of new connections", self.new_connections_per_second, 1, 100_000,
                     "new connections one computer may open a second")
        _check_whole("burst of new connections", self.new_connection_burst, 10, 1_000_000,
                     "new connections one computer may open at once")
        _check_whole("time to send a request", self.header_timeout_seconds, 1, 3600, "seconds")
        _check_whole("largest request body", self.max_body_bytes, 1024, 1 << 30, "bytes")
        _check_whole("messages a page may send", self.max_messages_per_second, 10, 100_000, "a second")
        object.__setattr__(self, "host_names", tuple(_host_name(n) for n in self.host_names))

    @property
    def freed_within_seconds(self) -> int:
        """The longest a kernel outlives its page (idle time plus one check)."""
        return self.cull_idle_seconds + self.cull_interval_seconds
