"""The boards' stylesheet and keyboard shortcuts, as one HTML snippet.

Every board carries this snippet in a hidden HTML widget, so a board looks
right wherever it is shown (JupyterLab, Voila, a lesson notebook) without a
front-end extension.

Keyboard: a card per key (``A`` or ``1`` for the Ace, ``2``..``9``, ``0`` or
``T`` for the 10, ``J Q K``), ``Enter`` confirms. A button with the focus keeps
its own ``Enter`` and ``Space`` (``Tab`` to a card, ``Space`` chooses it), except
the card already chosen: ``Enter`` on it confirms, as the status line says.
The play buttons of an animation (``Play``, ``Stop``, ``Repeat``) are icons
only: the same script names them (``aria-label`` and tooltip) for screen
readers and for the curious mouse. The listener is installed
once per page by the ``onerror`` handler of an empty image: an HTML widget
does not run ``<script>`` tags, but it does run event handlers.
"""

from __future__ import annotations

import functools
from html import escape
from importlib import resources

_KEYS_JS = """
if (!window.gopskitKeys) { window.gopskitKeys = true;
 document.addEventListener('keydown', function (e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  var t = e.target, tag = t && t.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
  var k = (e.key || '').toLowerCase();
  var chosen = k === 'enter' && t.classList && t.classList.contains('gopskit-card') && t.parentElement
    && t.parentElement.querySelector('.gopskit-selected');
  if ((k === 'enter' || k === ' ') && tag === 'BUTTON' && !chosen) return;
  if (k === '1') k = 'a'; if (k === 't') k = '0';
  var sel = k === 'enter' ? '.gopskit-confirm' : '.gopskit-key-' + k;
  if (!/^[a-z0-9-]+$/.test(k) && k !== 'enter') return;
  var found = Array.prototype.filter.call(document.querySelectorAll(sel),
    function (b) { return !b.disabled && b.offsetParent !== null; });
  if (found.length) { found[0].click(); e.preventDefault(); }
 });
 var icons = {'fa-play': 'Play', 'fa-pause': 'Pause', 'fa-stop': 'Stop', 'fa-retweet': 'Repeat (on or off)'};
 var nameIcons = function () {
  Array.prototype.forEach.call(document.querySelectorAll('.widget-play button'), function (b) {
   var i = b.querySelector('i'), name = '';
   for (var cls in icons) { if (i && i.classList.contains(cls)) name = icons[cls]; }
   if (name && b.getAttribute('aria-label') !== name) { b.setAttribute('aria-label', name); b.title = name; }
  });
 };
 new MutationObserver(nameIcons).observe(document.body, {childList: true, subtree: true, attributes: true,
                                                          attributeFilter: ['class']});
 nameIcons();
}
"""


@functools.lru_cache(maxsize=1)
def stylesheet() -> str:
    """The CSS of every board (``gopskit/widgets/style.css``)."""
    return resources.files("gopskit.widgets").joinpath("style.css").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def style_html() -> str:
    """``<style>`` plus the keyboard listener, ready for an HTML widget.

    >>> "gopskit-card" in style_html() and "keydown" in style_html()
    True
    """
    js = " ".join(line.strip() for line in _KEYS_JS.strip().splitlines())
    return (
        f"<style>{stylesheet()}</style>"
        f'<img alt="" src="data:image/png;base64,AA==" style="display:none" onerror="{escape(js)}">'
    )
