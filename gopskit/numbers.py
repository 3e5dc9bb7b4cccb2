"""Numbers as people write them: one place that turns a float into text for a screen.

Solvers work in floating point, so an exact 0 often arrives as
``-1.11e-16`` and an exact third as ``0.3333333333333333``. Nothing a
student reads should look like that. Every screen of the kit (explorers,
tournament tables, figures' labels) formats through these functions:

* :func:`number`: a whole number stays whole (``3``); a value within
  rounding noise of a small fraction is written as that fraction
  (``1/3``, ``-2/7``), when ``fractions=True``; anything else is rounded to
  ``places`` decimals (``4.83``). Never an exponent, never ``-0``.
* :func:`signed`: the same with an explicit ``+`` (``+1/3``, ``-0.25``, ``0``).
* :func:`significant`: a few significant figures for values that shrink to 0.
* :func:`percent`: a share as a whole percentage (``34%``).
* :func:`clean`: the float itself with rounding noise removed (for
  arithmetic before display, e.g. which bars to draw).

>>> number(-1.1102230246251565e-16), number(1 / 3), number(0.5), number(4.8333333)
('0', '1/3', '1/2', '4.83')
>>> number(2.0), number(-0.0), number(1e-17, fractions=False), number(123456789.0)
('2', '0', '0', '123456789')
>>> signed(0.25), signed(-1 / 3), signed(1e-18), percent(0.3449)
('+1/4', '-1/3', '0', '34%')
>>> number(1 / 3, fractions=False), number(0.125, places=3, fractions=False), number(2.5e-7)
('0.33', '0.125', '0')
>>> number(2.5), number(7 / 3), number(1234567.5), number(float('nan'))
('2.5', '7/3', '1234567.5', 'n/a')
>>> number(0.3), number(0.75), number(1 / 1001), number(1000 / 1001)
('0.3', '3/4', '0.000999', '0.999')
"""

from __future__ import annotations

import math
from fractions import Fraction

NOISE = 1e-9
MAX_DENOMINATOR = 12


def clean(value: float, noise: float = NOISE) -> float:
    """``value`` with floating-point noise removed: near-integers become integers, ``-0.0`` becomes ``0.0``.

    >>> clean(0.30000000000000004), clean(-1e-16), clean(2.9999999999999996)
    (0.30000000000000004, 0.0, 3.0)
    """
    value = float(value)
    if not math.isfinite(value):
        return value
    nearest = round(value)
    if abs(value - nearest) <= noise * max(1.0, abs(value)):
        return float(nearest) + 0.0  # + 0.0 turns -0.0 into 0.0
    return value


def _fraction(value: float, max_denominator: int) -> Fraction | None:
    """The small fraction ``value`` is (within noise), or ``None``."""
    guess = Fraction(value).limit_denominator(max_denominator)
    if abs(float(guess) - value) <= NOISE * max(1.0, abs(value)):
        return guess
    return None


def _terminates(exact: Fraction, places: int) -> bool:
    """Whether ``exact`` is written exactly with ``places`` decimals (5/2 = 2.5 is; 7/3 is not)."""
    return (exact * 10**places).denominator == 1


def number(value, places: int = 2, fractions: bool = True, max_denominator: int = MAX_DENOMINATOR) -> str:
    """``value`` as text for a student's screen (see the module docstring).

    ``places``: decimals kept when the value is not whole (trailing zeros
    dropped: ``0.5``, not ``0.50``); ``fractions``: write values that are
    exactly a fraction with denominator up to ``max_denominator`` as that
    fraction when its decimals would not be exact (``1/3``, ``7/3``, ``1/8``)
    and for halves and quarters below 1 (``1/2``, ``3/4``); tenths and fifths
    stay decimals (``0.3``, ``2.5``). A value that rounding would turn into
    a whole number it is not (``0.000999`` into ``0``) keeps a few
    significant figures instead. ``None`` and NaN read ``n/a``; infinities ``∞`` / ``-∞``.
    """
    if value is None:
        return "n/a"
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise TypeError(f"number() formats numbers, not {type(value).__name__}")
    if isinstance(value, int):
        return str(value)
    value = float(value)
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    value = clean(value)
    if value == int(value):
        return str(int(value))
    if fractions:
        exact = _fraction(value, max_denominator)
        if exact is not None and exact.denominator > 1 and abs(exact.numerator) <= 99 and (
                not _terminates(exact, places) or (abs(value) < 1 and exact.denominator in (2, 4))):
            return f"{exact.numerator}/{exact.denominator}"
    text = f"{value:.{max(0, int(places))}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    text = "0" if text in ("-0", "") else text
    if "." not in text and abs(value - float(text)) > 1e-6:
        # rounding would hide the value (0.000999 as 0, 0.999 as 1): keep a few significant figures
        text = significant(value, max(1, int(places)) + 1)
    return text


def numbers_together(values, places: int = 2) -> list[str]:
    """Several values shown side by side (a chart's bar labels) in one style.

    :func:`number` writes a lone half as ``1/2``; beside ``2.5`` that reads
    oddly, so when the labels would mix fractions and decimals, every value
    whose decimals are exact is written as a decimal (``0.5``), and only a
    value that needs a fraction to be exact keeps it (``1/3``).

    >>> numbers_together([2.5, 2.5, 0.5]), numbers_together([0.5, 0.25]), numbers_together([1 / 3, 0.5])
    (['2.5', '2.5', '0.5'], ['1/2', '1/4'], ['1/3', '1/2'])
    """
    texts = [number(v, places) for v in values]

    def is_fraction(text):
        return "/" in text and text != "n/a"

    if any(map(is_fraction, texts)) and any("." in t for t in texts):
        texts = [number(v, places, fractions=False) if is_fraction(t) and _terminates(Fraction(t), places) else t
                 for t, v in zip(texts, values)]
    return texts


def fixed(value, places: int = 2) -> str:
    """``value`` with exactly ``places`` decimals, for a column of figures (``4.80``, never ``-0.00``).

    >>> fixed(4.8), fixed(-0.001), fixed(None), fixed(3)
    ('4.80', '0.00', 'n/a', '3.00')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    text = f"{clean(float(value)):.{max(0, int(places))}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def significant(value, digits: int = 2) -> str:
    """``value`` to ``digits`` significant figures, still without an exponent.

    For quantities that shrink towards 0 (a learner's exploitability):
    ``0.000123`` reads ``0.00012``, ``0.5`` reads ``0.5``, ``1234.7`` reads ``1235``.

    >>> significant(0.000123), significant(0.5), significant(1234.7), significant(-2e-13)
    ('0.00012', '0.5', '1235', '0')
    """
    if value is None:
        return "n/a"
    value = clean(float(value), noise=1e-12)
    if not math.isfinite(value):
        return number(value)
    if value == 0:
        return "0"
    places = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = f"{value:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def signed(value, places: int = 2, fractions: bool = True) -> str:
    """:func:`number` with a ``+`` in front of positive values; zero stays ``0``."""
    text = number(value, places, fractions)
    return text if text in ("0", "n/a") or text.startswith("-") else "+" + text


def percent(share, places: int = 0) -> str:
    """A share from 0 to 1 as a percentage: ``percent(0.3449) == '34%'``."""
    if share is None:
        return "n/a"
    return number(100 * float(share), places=places, fractions=False) + "%"


__all__ = ["MAX_DENOMINATOR", "NOISE", "clean", "fixed", "number", "percent", "signed", "significant"]
