"""The kernel manager of the served apps: a cap on live kernels, culling, bounded buffers.

Voila starts one kernel per page load. :class:`GopskitKernelManager` (given
to Voila as its ``multi_kernel_manager_class``) adds:

* a cap (``max_kernels``): a start beyond it raises :class:`RoomFull`, which
  the page handler turns into a "the room is full" page. Kernels being
  started count, so a flood of simultaneous loads cannot slip past it;
* a cap per client (``kernels_per_client``): the kernels started for one
  network address's page loads count against it while they live; a start
  beyond it raises :class:`ClientFull`, which the page handler turns into
  "close another gopskit tab". Which client a kernel belongs to is told by
  the page handler through :data:`PAGE_LOAD` (see :class:`Claim`); culling,
  a closed tab or a shut-down kernel frees its place, since only live
  kernels are counted;
* a page gone is replaced: a browser does not shut its page's kernel down
  when a tab is closed or reloaded, so a kernel outlives its page until it
  is culled. When a client (or the room) is full, a new page load from that
  client first takes the place of one of the client's own pages that has
  gone (see :meth:`GopskitKernelManager.reclaimable`), so a student who
  reloads a page is never told to close tabs they do not have. Only the
  client's own kernels are ever taken;
* bounded offline buffers: when a page's connection drops, Jupyter keeps
  the kernel's messages for it until it reconnects; here at most
  ``buffer_max_messages`` messages and ``buffer_max_bytes`` bytes, beyond
  which the buffer is dropped (the page, if it comes back, reloads);
* every kernel started through :mod:`.kernel_launcher` (memory limit,
  friendly errors), by :class:`LimitedKernelManager`.

Culling (``cull_idle_timeout``, ``cull_interval``) is Jupyter Server's own;
``gopskit serve`` switches it on with the values of :class:`~.limits.Limits`.
"""

from __future__ import annotations

import contextvars
import dataclasses
import ipaddress
import time
import uuid
from functools import partial

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from traitlets import Integer, default

from .kernel_launcher import launcher_argv
from .limits import LOOPBACK


#: A kernel whose page never opened its websocket, idle this long after the
#: load, belongs to a load that never became a page (a script, a page closed
#: while loading): its client's next page may take its place.
NEVER_CONNECTED_SECONDS = 30


class RoomFull(Exception):
    """No kernel may start: the cap of live kernels is reached."""


class ClientFull(Exception):
    """No kernel may start for this client: it already holds its cap of live kernels."""

    def __init__(self, address: str, held: int, cap: int):
        super().__init__(f"{address} holds {held} live kernels, the most one client may hold is {cap}")
        self.address, self.held, self.cap = address, held, cap


@dataclasses.dataclass
class Claim:
    """The page load being served: who asked, and the kernel it got (once it has one).

    The page handler sets one in :data:`PAGE_LOAD` for the time of a page
    load; the kernel manager charges the first kernel started (or taken
    ready from a pool) during it to ``address``. Later kernels started from
    the same context (a pool refilling itself) are charged to nobody.
    """

    address: str
    kernel_id: str | None = None


#: The page load in progress in this task, if any (set by the page handler).
PAGE_LOAD: contextvars.ContextVar[Claim | None] = contextvars.ContextVar("gopskit_page_load", default=None)


def client_key(address: str) -> str:
    """Whose kernel it is: an IPv4 address as it is, an IPv6 address by its /64 network.

    One computer can take any number of IPv6 addresses in its network's /64
    (privacy addresses), so the cap counts the /64. An IPv4 address written
    as IPv6 (``::ffff:a.b.c.d``, on a dual-stack socket) is the IPv4 address.
    The address is the connection's own: headers such as ``X-Forwarded-For``
    are never trusted (anyone can write them).

    >>> client_key("192.168.1.20")
    '192.168.1.20'
    >>> client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::7")
    True
    >>> client_key("::ffff:10.0.0.5")
    '10.0.0.5'
    >>> client_key("not an address")
    'not an address'
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.version == 6 and not ip.is_loopback:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class LimitedKernelManager(ServerKernelManager):
    """One kernel, started through the launcher that limits its memory."""

    memory_mb = Integer(2048, config=True, help="data memory one kernel may allocate, in MB")

    def format_kernel_cmd(self, extra_arguments=None):
        return launcher_argv(self.memory_mb, super().format_kernel_cmd(extra_arguments))


class GopskitKernelManager(AsyncMappingKernelManager):
    """Voila's kernels, capped in number (in all and per client) and in the messages kept for dropped pages."""

    max_kernels = Integer(20, config=True, help="live kernels at once; a page beyond gets 'the room is full'")
    kernels_per_client = Integer(4, config=True,
                                 help="live kernels one network address may hold (this computer itself: no cap)")
    buffer_max_messages = Integer(2000, config=True, help="messages kept for a page whose connection dropped")
    buffer_max_bytes = Integer(16 << 20, config=True, help="bytes kept for a page whose connection dropped")

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self):
        return "gopskit.server.kernels.LimitedKernelManager"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._starting: set[str] = set()
        self._pending: set[str] = set()  # places held for page loads waiting for a ready (pool) kernel
        self._owners: dict[str, tuple[str, float]] = {}  # kernel id -> (client key, when charged)
        self.refused = 0  # page loads refused because the room was full
        self.refused_clients = 0  # page loads refused because their client held its cap
        self.reclaimed = 0  # kernels of gone pages shut down to make room for their client's new page
        self._connected_once: set[str] = set()  # kernels a page's websocket has reached
        self._reclaiming: set[str] = set()  # kernels being shut down to make room
        self.buffers_dropped = 0
        pool_get = getattr(self, "get_rendered_notebook", None)  # Voila's ready kernels (preheat)
        if pool_get is not None:
            self.get_rendered_notebook = partial(self._charged_pool_get, pool_get)

    # ------------------------------------------------------------- the cap
    def live_kernels(self) -> int:
        """Kernels alive or being started right now."""
        return len(set(self.list_kernel_ids()) | self._starting)

    def is_full(self) -> bool:
        return self.live_kernels() >= self.max_kernels

    # ------------------------------------------------- the cap per client
    def client_kernels(self, address: str) -> list[str]:
        """The live kernels (and places held) charged to ``address``'s client; forgets dead ones."""
        alive = set(self.list_kernel_ids()) | self._starting | self._pending
        for gone in [k for k in self._owners if k not in alive]:
            del self._owners[gone]
        key = client_key(address)
        return [k for k, (owner, _) in self._owners.items() if owner == key]

    def at_client_cap(self, address: str) -> bool:
        """Whether ``address`` holds its cap of live kernels (this computer itself never does)."""
        return address not in LOOPBACK and len(self.client_kernels(address)) >= self.kernels_per_client

    def client_is_full(self, address: str) -> bool:
        """Whether a page load from ``address`` would be refused: at its cap, and none of its pages has gone."""
        return self.at_client_cap(address) and self.reclaimable(address) is None

    def notify_connect(self, kernel_id):
        super().notify_connect(kernel_id)
        if kernel_id in self._owners:
            self._connected_once.add(kernel_id)

    def reclaimable(self, address: str, now: float | None = None) -> str | None:
        """The oldest kernel of ``address``'s client whose page has gone, if any.

        A page has gone when no websocket is open on its kernel and either
        one was (the tab was closed or reloaded), or none came within
        :data:`NEVER_CONNECTED_SECONDS` of the load while the kernel sat idle
        (a load that never became a page). A page still loading (its kernel
        busy running the notebook, or charged only moments ago) is never taken.
        """
        now = time.monotonic() if now is None else now
        connections = getattr(self, "_kernel_connections", {})
        self._connected_once &= set(self._owners)
        key = client_key(address)
        for kernel_id, (owner, since) in sorted(self._owners.items(), key=lambda item: item[1][1]):
            if owner != key or kernel_id in self._starting or kernel_id in self._pending:
                continue
            if kernel_id not in self or connections.get(kernel_id, 0) > 0:
                continue
            if kernel_id in self._connected_once:
                return kernel_id
            try:
                idle = getattr(self.get_kernel(kernel_id), "execution_state", "") == "idle"
            except Exception:  # noqa: BLE001 - a kernel half started or stopped is not taken
                idle = False
            if idle and now - since > NEVER_CONNECTED_SECONDS:
                return kernel_id
        return None

    async def _reclaim(self, address: str) -> bool:
        """Shut down one kernel of ``address``'s client whose page has gone; whether there was one."""
        victim = self.reclaimable(address)
        if victim is None:
            return False
        del self._owners[victim]  # its place is free from now on, before the first await
        self._connected_once.discard(victim)
        self._reclaiming.add(victim)
        self.reclaimed += 1
        self.log.info("gopskit: kernel %s of a page %s left makes room for its new page", victim, address)
        try:
            await self.shutdown_kernel(victim, now=True)
        except Exception as failed:  # already gone (culled meanwhile): its place is free all the same
            self.log.info("gopskit: kernel %s was already stopping (%s)", victim, failed)
        finally:
            self._reclaiming.discard(victim)
        return True

    async def cull_kernel_if_idle(self, kernel_id):
        """Jupyter Server's culling, skipping a kernel shut down since its round began.

        The culler walks a list of the kernels made at the start of its round
        and awaits each shutdown; a kernel that a new page has replaced
        meanwhile would otherwise print a ``KeyError`` traceback in the
        teacher's terminal. A kernel caught half started or half stopped can
        also fail the culler's questions (a trait read before it is set, seen
        once under load as a traitlets error); that is one line in the log,
        and the next round looks at the kernel again.
        """
        if kernel_id not in self._kernels or kernel_id in self._reclaiming:
            return None
        try:
            return await super().cull_kernel_if_idle(kernel_id)
        except Exception as failed:  # noqa: BLE001 - a round of the culler must not print a traceback
            self.log.warning("gopskit: the culler skipped kernel %s this round (%s: %s)",
                             kernel_id, type(failed).__name__, failed)
            return None

    async def _admit_client(self, needs_room: bool) -> Claim | None:
        """The page load to charge a new kernel to (None: nobody), refused when its client is at the cap.

        At the cap, or when the room is full and the load starts a kernel
        (``needs_room``), one of the client's own pages that has gone gives
        up its place first.
        """
        claim = PAGE_LOAD.get()
        if claim is None or claim.kernel_id is not None:
            return None
        for _ in range(self.kernels_per_client + 1):
            crowded = self.at_client_cap(claim.address) or (needs_room and self.is_full())
            if not crowded or not await self._reclaim(claim.address):
                break
        if self.at_client_cap(claim.address):
            self.refused_clients += 1
            raise ClientFull(claim.address, len(self.client_kernels(claim.address)), self.kernels_per_client)
        return claim

    def _charge(self, claim: Claim | None, kernel_id: str) -> None:
        if claim is not None:
            claim.kernel_id = kernel_id
            self._owners[kernel_id] = (client_key(claim.address), time.monotonic())

    async def _charged_pool_get(self, pool_get, notebook_name, *args, **kwargs):
        """Voila's ``get_rendered_notebook`` (a ready kernel for a page), charged to the page's client.

        A place is held as soon as the client is admitted (no await in
        between), so simultaneous loads from one client cannot all pass; the pool is not touched when
        the client is at its cap.
        """
        claim = await self._admit_client(needs_room=False)
        place = f"pending-{uuid.uuid4()}"
        self._charge(claim, place)
        self._pending.add(place)
        try:
            render_task, rendered, kernel_id = await pool_get(notebook_name, *args, **kwargs)
        except BaseException:
            if claim is not None:
                claim.kernel_id = None  # the handler may try again with a kernel of its own
            raise
        finally:
            self._pending.discard(place)
            self._owners.pop(place, None)
        self._charge(claim, kernel_id)
        return render_task, rendered, kernel_id

    async def start_kernel(self, *args, kernel_id=None, **kwargs):
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        claim = await self._admit_client(needs_room=True)  # first: "close another tab" says more than "the room is full"
        if self.is_full():
            self.refused += 1
            raise RoomFull(f"{self.live_kernels()} kernels are live, the most this server allows is {self.max_kernels}")
        kernel_id = kernel_id or str(uuid.uuid4())
        self._charge(claim, kernel_id)
        self._starting.add(kernel_id)  # counted from now on, before the first await
        try:
            return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        finally:
            self._starting.discard(kernel_id)

    # -------------------------------------------------- bounded buffering
    def start_buffering(self, kernel_id, session_key, channels):
        super().start_buffering(kernel_id, session_key, channels)
        if kernel_id not in self._kernel_buffers or not self._kernel_buffers[kernel_id].get("channels"):
            return
        info = self._kernel_buffers[kernel_id]
        info["bytes"] = 0

        def keep(channel, parts):
            if info.get("buffer") is None:
                return
            size = sum(len(p) for p in parts)
            if len(info["buffer"]) >= self.buffer_max_messages or info["bytes"] + size > self.buffer_max_bytes:
                self.log.warning("gopskit: dropped the message buffer of kernel %s (page gone too long)", kernel_id)
                self.buffers_dropped += 1
                self.stop_buffering(kernel_id)
                return
            info["bytes"] += size
            info["buffer"].append((channel, parts))

        for channel, stream in channels.items():
            stream.on_recv(partial(keep, channel))
