"""The web side of the bounds: safe websocket headers, the full-room page, a sane ``/logout``.

**Why the websocket handler is replaced.** Voila's websocket handler reads
the header of every binary message the kernel sends to a page, to hold
back ``execute_input`` (it carries the notebook's code). It assumes the
"v1" websocket protocol, whose first 8 bytes count the message's parts. A
client that opens the websocket without asking for that protocol gets
Jupyter's older binary format, whose first 8 bytes are two 4-byte numbers:
read as one count they make about 10**17, and Voila builds a list of that
many offsets -- in the server's one event loop, so the server grows by tens
of MB a second and answers nothing more until the machine runs out of
memory. A widget state with binary buffers (the tournament app's) is such a
message; asking for all widget states is enough. :func:`message_type`
reads both formats, bounded by the message's own length.

>>> import json, struct
>>> legacy = struct.pack("!III", 2, 12, 14) + b"{}" + b"ab"   # older format: 2 parts
>>> message_type(legacy, v1=False) is None
True
>>> header = json.dumps({"msg_type": "execute_input"}).encode()
>>> parts = [b"iopub", header, b"{}", b"{}", b"{}"]
>>> offsets, at = [], 8 * (len(parts) + 2)
>>> for part in parts:
...     offsets.append(at); at += len(part)
>>> v1 = struct.pack("<" + "Q" * (len(parts) + 2), len(parts) + 1, *offsets, at) + b"".join(parts)
>>> message_type(v1, v1=True)
'execute_input'
>>> message_type(v1[:20], v1=True) is None  # truncated: no header, no harm
True
"""

from __future__ import annotations

import collections
import html
import json
import time

from jupyter_server.utils import ensure_async, url_path_join
from tornado.web import HTTPError, RedirectHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from .kernels import PAGE_LOAD, Claim, ClientFull, RoomFull
from .limits import LOOPBACK

V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: A page may send a burst of this many seconds' worth of messages at once (then its steady pace).
MESSAGE_BURST_SECONDS = 5
_MAX_HEADER_BYTES = 1 << 16


def _v1_header_type(message: bytes) -> str | None:
    """``msg_type`` of a v1 binary message: count (8 bytes LE), offsets (8 bytes LE each), parts."""
    size = len(message)
    if size < 24:
        return None
    count = int.from_bytes(message[:8], "little")
    if count < 3 or 8 * (count + 1) > size:
        return None
    start = int.from_bytes(message[16:24], "little")
    end = int.from_bytes(message[24:32], "little")
    if not 0 <= start <= end <= size or end - start > _MAX_HEADER_BYTES:
        return None
    try:
        return json.loads(message[start:end].decode("utf-8")).get("msg_type")
    except (ValueError, AttributeError):
        return None


def well_formed(message, v1: bool) -> bool:
    """Whether a binary message from a page can be parsed without trusting its counts.

    Jupyter Server trusts the part count at the start of a binary message
    (v1: 8 bytes; older format: 4 bytes) and builds that many offsets; a
    forged count makes it build billions. Text messages are always fine.

    >>> well_formed((2 ** 60).to_bytes(8, "little"), v1=True)
    False
    >>> well_formed(b"\\x7f\\xff\\xff\\xff", v1=False)
    False
    >>> well_formed('{"header": {}}', v1=True)
    True
    """
    if isinstance(message, str):
        return True
    width, order = (8, "little") if v1 else (4, "big")
    count = int.from_bytes(bytes(message[:width]), order, signed=not v1)
    return len(message) >= width and 1 <= count and width * (count + 1) <= len(message)


def message_type(message, v1: bool) -> str | None:
    """The ``msg_type`` of a message on its way to a page, or None when it cannot be read cheaply.

    Dicts and JSON text (the older protocol's messages without buffers) are
    read directly; binary messages by their format (``v1``: the page asked
    for the v1 protocol). An older-format binary message always carries
    buffers, which ``execute_input`` never has: it is not read at all.
    """
    if isinstance(message, dict):
        return (message.get("header") or {}).get("msg_type")
    if isinstance(message, str):
        if "execute_input" not in message:
            return None
        try:
            return json.loads(message)["header"]["msg_type"]
        except (ValueError, KeyError, TypeError):
            return None
    if isinstance(message, (bytes, bytearray, memoryview)) and v1:
        return _v1_header_type(bytes(message))
    return None


class SafeKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voila's websocket handler, bounded.

    Headers are read by :func:`message_type`; binary messages with forged
    counts are dropped; a kernel takes at most ``max_connections_per_kernel``
    websockets; a page that lets more than ``max_pending_bytes`` wait unsent
    (it does not read what it asked for) is disconnected, and so is a page
    that sends more than ``max_messages_per_second`` messages a second
    (beyond a burst of :data:`MESSAGE_BURST_SECONDS` seconds' worth): a
    flood of widget messages kept its kernel and the server's one loop busy,
    and a classmate's page took 27 s to open.
    """

    def _limits(self):
        return self.settings.get("gopskit_limits")

    async def pre_get(self):
        limits = self._limits()
        connections = getattr(self.kernel_manager, "_kernel_connections", {}).get(self.kernel_id, 0)
        if limits is not None and connections >= limits.max_connections_per_kernel:
            self.log.warning("gopskit: refused websocket %d on kernel %s from %s", connections + 1,
                             self.kernel_id, self.request.remote_ip)
            raise HTTPError(429, "too many connections to this app's kernel")
        return await super().pre_get()

    def _pending_bytes(self) -> int:
        """Bytes written to this websocket that the client has not taken yet (tornado's write buffer)."""
        stream = getattr(self.ws_connection, "stream", None)
        buffer = getattr(stream, "_write_buffer", None)
        return len(buffer) if buffer is not None else 0

    def _too_fast(self) -> bool:
        """Whether this message goes beyond the page's pace (a bucket of ``max_messages_per_second``,
        holding :data:`MESSAGE_BURST_SECONDS` seconds' worth)."""
        limits = self._limits()
        if limits is None:
            return False
        rate = limits.max_messages_per_second
        now = time.monotonic()
        tokens, then = getattr(self, "_pace", (rate * MESSAGE_BURST_SECONDS, now))
        tokens = min(rate * MESSAGE_BURST_SECONDS, tokens + (now - then) * rate)
        if tokens < 1:
            return True
        self._pace = (tokens - 1, now)
        return False

    def on_message(self, ws_message):
        if self.ws_connection is None or self.ws_connection.is_closing():
            return None
        if self._too_fast():
            self.log.warning("gopskit: disconnected %s: more than %d messages a second on kernel %s",
                             self.request.remote_ip, self._limits().max_messages_per_second, self.kernel_id)
            self.close(1008, "too many messages")
            return None
        if not well_formed(ws_message, self.selected_subprotocol == V1_PROTOCOL):
            self.log.warning("gopskit: dropped a malformed binary message from %s", self.request.remote_ip)
            return None
        return super().on_message(ws_message)

    def write_message(self, message, binary=False):
        if self.ws_connection is None or self.ws_connection.is_closing():
            return None  # the page has gone: its kernel's last replies are dropped without a word in the log
        v1 = self.selected_subprotocol == V1_PROTOCOL
        if message_type(message, v1) == "execute_input":
            return None  # the notebook's code stays on the server
        limits = self._limits()
        if limits is not None and self.ws_connection is not None and \
                self._pending_bytes() > limits.max_pending_bytes:
            if not self.ws_connection.is_closing():
                self.log.warning("gopskit: disconnected %s: %d bytes waiting unread on kernel %s",
                                 self.request.remote_ip, self._pending_bytes(), self.kernel_id)
                self.close(1008, "too much unread data")
            return None
        return super(VoilaKernelWebsocketHandler, self).write_message(message, binary)


class Pace:
    """Page loads per network address in the last minute (a sliding window, bounded in size)."""

    LOOPBACK = LOOPBACK

    def __init__(self, per_minute: int, max_addresses: int = 10_000, pace_loopback: bool = True):
        self.per_minute = per_minute
        self.max_addresses = max_addresses
        self.pace_loopback = pace_loopback
        self._seen: dict[str, collections.deque] = {}

    def allow(self, address: str, now: float | None = None) -> bool:
        if not self.pace_loopback and address in self.LOOPBACK:
            return True
        now = time.monotonic() if now is None else now
        if len(self._seen) >= self.max_addresses:
            self._forget(now)
        times = self._seen.setdefault(address, collections.deque())
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        return True

    def _forget(self, now: float) -> None:
        for address in [a for a, t in self._seen.items() if not t or now - t[-1] > 60]:
            del self._seen[address]
        while len(self._seen) >= self.max_addresses:  # still full: drop the oldest entries
            del self._seen[next(iter(self._seen))]


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;font-size:20px;max-width:40em;margin:4em auto;padding:0 1em;
color:#222;line-height:1.5}}h1{{font-size:1.6em}}a{{color:#1a5fb4}}</style></head>
<body class="gopskit-refused"><h1>{title}</h1>{body}<p><a href="">Try again</a> &middot;
<a href="{home}">All the apps</a></p></body></html>
"""


def refusal_page(title: str, paragraphs: list[str], home: str) -> str:
    """A plain page that says why a request was refused (no script, nothing from other hosts)."""
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return _PAGE.format(title=html.escape(title), body=body, home=html.escape(home))


class BoundedVoilaHandler(TornadoVoilaHandler):
    """Voila's page handler, refusing politely when the room is full, a client holds too many
    apps or an address loads too fast.

    A page load is charged to the connection's own address
    (``request.remote_ip``: tornado reads ``X-Forwarded-For`` only when told
    to, and the kit never tells it), through :data:`~.kernels.PAGE_LOAD`.
    """

    def _refuse(self, status: int, title: str, paragraphs: list[str], retry_after: int) -> None:
        self.clear()
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Retry-After", str(retry_after))
        self.set_header("Cache-Control", "no-store")
        self.finish(refusal_page(title, paragraphs, url_path_join(self.base_url, "/")))

    def _room_full(self) -> None:
        limits = self.settings["gopskit_limits"]
        self._refuse(503, "The room is full", [
            f"This server runs at most {limits.max_kernels} apps at once, and all of them are open right now.",
            "Close an app you no longer use, or wait a minute and try again: "
            f"a page that has been closed frees its place within {limits.freed_within_seconds} seconds.",
            "Teacher: gopskit serve --max-kernels N raises the limit if the computer has the memory.",
        ], retry_after=limits.cull_interval_seconds)

    def _client_full(self, held: int, cap: int) -> None:
        limits = self.settings["gopskit_limits"]
        self._refuse(429, "Too many apps open on this computer", [
            f"This computer already has {held} gopskit apps open (tabs or windows); "
            f"one computer may have at most {cap} open at once, so that every student gets a place.",
            "Close a gopskit tab you no longer use, then try again: "
            "the place of a tab you close goes to your next page at once.",
            "Teacher: gopskit serve --kernels-per-client N changes this number.",
        ], retry_after=limits.cull_interval_seconds)

    async def _exists(self, notebook: str | None) -> bool:
        if not notebook:
            return True
        try:
            return bool(await ensure_async(self.contents_manager.file_exists(notebook)))
        except Exception:  # an address the contents manager refuses (outside the folder...): Voila answers it
            return False

    async def get(self, path=None):
        address = self.request.remote_ip or "?"
        pace = self.settings["gopskit_pace"]
        if not pace.allow(address):
            return self._refuse(429, "Too many pages at once", [
                f"This computer opened more than {pace.per_minute} pages in the last minute.",
                "Wait a moment, then try again.",
            ], retry_after=30)
        manager = self.kernel_manager
        notebook = self.notebook_path or path
        if not await self._exists(notebook):  # a mistyped address gets Voila's "not found", not a full room
            return await super().get(path)
        if getattr(manager, "client_is_full", lambda _: False)(address):
            manager.refused_clients += 1
            return self._client_full(len(manager.client_kernels(address)), manager.kernels_per_client)
        if getattr(manager, "is_full", lambda: False)() and not manager.get_pool_size(notebook) \
                and manager.reclaimable(address) is None:  # a page of this computer's that has gone gives way
            manager.refused += 1
            return self._room_full()
        token = PAGE_LOAD.set(Claim(address))  # the kernel this load starts is charged to this address
        try:
            for attempt in (1, 2):
                try:
                    return await super().get(path)
                except ClientFull as full:  # simultaneous loads from one client: the last ones
                    if self._headers_written:  # pragma: no cover - the kernel starts before the first byte
                        return self.finish()
                    return self._client_full(full.held, full.cap)
                except RoomFull:
                    if self._headers_written:  # pragma: no cover - the kernel starts before the first byte
                        return self.finish()
                    # a ready kernel that could not be started when the room was full: once more, cold
                    if attempt == 2 or manager.is_full():
                        break
            return self._room_full()
        finally:
            PAGE_LOAD.reset(token)


def bounded_handlers(handlers: list, base_url: str, landing: str) -> list:
    """Voila's handlers with the safe websocket, the bounded page handler and ``/logout``."""
    swap = {VoilaKernelWebsocketHandler: SafeKernelWebsocketHandler, TornadoVoilaHandler: BoundedVoilaHandler}
    out = [(url_path_join(base_url, r"/logout/?"), RedirectHandler, {"url": landing, "permanent": False})]
    for rule in handlers:
        if isinstance(rule, tuple) and len(rule) >= 2 and rule[1] in swap:
            rule = (rule[0], swap[rule[1]], *rule[2:])
        out.append(rule)
    return out
