"""The kernel manager of the served apps: a cap on live kernels, culling, bounded buffers.

Voila starts one kernel per page load. :class:`GopskitKernelManager` (given
to Voila as its ``multi_kernel_manager_class``) adds:

* a cap (``max_kernels``): a start beyond it raises :class:`RoomFull`, which
  the page handler turns into a "the room is full" page. Kernels being
  started count, so a flood of simultaneous loads cannot slip past it;
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

import uuid
from functools import partial

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from traitlets import Integer, default

from .kernel_launcher import launcher_argv


class RoomFull(Exception):
    """No kernel may start: the cap of live kernels is reached."""


class LimitedKernelManager(ServerKernelManager):
    """One kernel, started through the launcher that limits its memory."""

    memory_mb = Integer(2048, config=True, help="data memory one kernel may allocate, in MB")

    def format_kernel_cmd(self, extra_arguments=None):
        return launcher_argv(self.memory_mb, super().format_kernel_cmd(extra_arguments))


class GopskitKernelManager(AsyncMappingKernelManager):
    """Voila's kernels, capped in number and in the messages kept for dropped pages."""

    max_kernels = Integer(20, config=True, help="live kernels at once; a page beyond gets 'the room is full'")
    buffer_max_messages = Integer(2000, config=True, help="messages kept for a page whose connection dropped")
    buffer_max_bytes = Integer(16 << 20, config=True, help="bytes kept for a page whose connection dropped")

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self):
        return "gopskit.server.kernels.LimitedKernelManager"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._starting: set[str] = set()
        self.refused = 0  # page loads refused because the room was full
        self.buffers_dropped = 0

    # ------------------------------------------------------------- the cap
    def live_kernels(self) -> int:
        """Kernels alive or being started right now."""
        return len(set(self.list_kernel_ids()) | self._starting)

    def is_full(self) -> bool:
        return self.live_kernels() >= self.max_kernels

    async def start_kernel(self, *args, kernel_id=None, **kwargs):
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        if self.is_full():
            self.refused += 1
            raise RoomFull(f"{self.live_kernels()} kernels are live, the most this server allows is {self.max_kernels}")
        kernel_id = kernel_id or str(uuid.uuid4())
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
