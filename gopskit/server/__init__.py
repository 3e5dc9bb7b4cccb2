"""The served apps, bounded: what ``gopskit serve`` adds to Voila for a classroom.

A teacher's laptop serving thirty students is a shared machine on a hostile
network. This package holds what keeps it alive:

* :mod:`.limits` -- the numbers: how many kernels may live at once (sized
  from the machine's memory) and how many for one client (network
  address), how much memory one kernel may take, how soon a
  page that has gone frees its kernel, how many messages are kept for a page
  that dropped its connection, how many pages one address may open a minute.
* :mod:`.kernels` -- the kernel manager that enforces them.
* :mod:`.kernel_launcher` -- the wrapper every kernel starts through: it sets
  the kernel's memory limit and replaces tracebacks sent to browsers by a
  friendly line (the full traceback goes to the server's terminal).
* :mod:`.handlers` -- the web side: a "the room is full" page instead of a
  crash, a "close another tab" page for a client at its cap, a websocket handler that reads message headers safely, a sane
  ``/logout``.
"""
