"""gopskit's own Voila page template, shipped inside the package.

Voila's stock "lab" page links Font Awesome from a public CDN: on a school
network without internet every page logs errors, and on every network it
tells a third party who opens the kit. The template ``gopskit`` (in
``gopskit/share/jupyter/voila/templates/gopskit/``) is the "lab" page without
those links: Voila's own bundle, served by the same server, already carries
Font Awesome and its fonts. It also centres the apps on the page.

Voila finds templates on the Jupyter data path, so
:func:`voila_template_argv` puts the package's ``share/jupyter`` folder first
on ``JUPYTER_PATH`` (of this process, whose Voila renders the pages) and
returns the argument that picks the template.

>>> argv = voila_template_argv(environ={})
>>> argv
['--template=gopskit']
>>> (template_root() / "voila" / "templates" / TEMPLATE / "index.html.j2").is_file()
True
"""

from __future__ import annotations

import os
from pathlib import Path

TEMPLATE = "gopskit"


def template_root() -> Path:
    """The package's Jupyter data folder (``gopskit/share/jupyter``)."""
    return Path(__file__).resolve().parent / "share" / "jupyter"


def voila_template_argv(environ=None) -> list[str]:
    """Voila's arguments for the gopskit template; puts its folder on ``environ["JUPYTER_PATH"]``.

    ``environ`` defaults to ``os.environ`` (the running process: the Voila
    started in it renders every page). The folder is added once, first.
    """
    environ = os.environ if environ is None else environ
    root = str(template_root())
    paths = [p for p in environ.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != root]
    environ["JUPYTER_PATH"] = os.pathsep.join([root, *paths])
    return [f"--template={TEMPLATE}"]


__all__ = ["TEMPLATE", "template_root", "voila_template_argv"]
