"""What keeps a classroom page live: its poller, and the script of its browser bridge.

Neither needs ipywidgets: :class:`Poller` runs a function every few tenths
of a second on the kernel's event loop (Voila's or JupyterLab's), and
:data:`BRIDGE_ESM` is the JavaScript module of the small ``anywidget`` in
:mod:`gopskit.widgets.classroom` that keeps a page's key in the browser
(``sessionStorage``, then ``localStorage``), tells the kernel the page's address
(``page_url``: the teacher's page derives the students' address from it) and beats while the page is open.

>>> Poller(lambda: None, 0.1).start()   # outside a kernel there is no loop: the caller ticks by hand
False
"""

from __future__ import annotations

import asyncio

BRIDGE_ESM = """
function read(key) {
  try { return window.sessionStorage.getItem(key) || window.localStorage.getItem(key) || ""; } catch (e) { return ""; }
}
function write(key, value) {
  try {
    for (const store of [window.sessionStorage, window.localStorage]) {
      if (value) { store.setItem(key, value); } else { store.removeItem(key); }
    }
  } catch (e) {}
}
function render({ model, el }) {
  el.style.display = "none";
  const key = model.get("storage_key");
  if (model.get("to_save")) { write(key, model.get("to_save")); }
  model.set("saved", read(key));
  model.set("page_url", window.location.href);
  model.set("loaded", true);
  model.save_changes();
  model.on("change:to_save", () => write(key, model.get("to_save")));
  const timer = setInterval(() => { model.set("beats", model.get("beats") + 1); model.save_changes(); },
                            model.get("every_ms"));
  return () => clearInterval(timer);
}
export default { render };
"""


class Poller:
    """Calls ``tick`` every ``every`` seconds on the kernel's event loop (Voila's, or JupyterLab's)."""

    def __init__(self, tick, every: float):
        self.tick, self.every, self.task = tick, every, None

    def start(self) -> bool:
        try:
            loop = asyncio.get_running_loop()  # a kernel runs cells and clicks inside its loop
        except RuntimeError:
            return False  # plain Python (tests): call tick() by hand
        if self.task is None or self.task.done():
            self.task = loop.create_task(self._run())
        return True

    async def _run(self):
        while True:
            self.tick()
            await asyncio.sleep(self.every)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


__all__ = ["BRIDGE_ESM", "Poller"]
