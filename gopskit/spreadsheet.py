"""Text cells a spreadsheet opens as text: the one rule every CSV file the kit writes follows.

A spreadsheet that opens a CSV file reads a cell starting with ``=``, ``+``,
``-`` or ``@`` as a formula, and may run it (``=HYPERLINK(...)``, or worse);
a tab or a carriage return first can hide such a start from a first glance.
Cells the kit writes from what students typed or named (a name in the
classroom export's ``bids.csv``, a strategy file's name in a tournament's
``games.csv`` and ``ranking.csv``) go through :func:`inert`, which writes
such a cell with a leading ``'``: a spreadsheet shows it as text, and
``'=cmd`` read back is still plainly the name ``=cmd``.

>>> [inert(v) for v in ("=cmd", "+1", "-x", "@SUM(A1)", "\\tx", "Ann", "", 3, -2.5, None)]
["'=cmd", "'+1", "'-x", "'@SUM(A1)", "'\\tx", 'Ann', '', 3, -2.5, None]
"""

from __future__ import annotations

#: First characters a spreadsheet reads as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@")
#: First characters :func:`inert` marks: a formula's, and a tab or carriage return before one.
UNSAFE_STARTS = FORMULA_STARTS + ("\t", "\r")


def inert(value):
    """``value`` as a CSV cell that is never run: text starting with :data:`UNSAFE_STARTS` gets a leading ``'``.

    Anything but text (a number, ``None``) is returned as it is: a negative
    number is a number, not a formula.
    """
    return "'" + value if isinstance(value, str) and value.startswith(UNSAFE_STARTS) else value


__all__ = ["FORMULA_STARTS", "UNSAFE_STARTS", "inert"]
