"""gopskit.numbers: every number on a screen reads as a person would write it."""

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gopskit.numbers import clean, fixed, number, percent, signed

WRITTEN = re.compile(r"^-?(\d+(\.\d+)?|\d+/\d+)$")  # 3, -4.25, 2/3: nothing else


def value_of(text: str) -> float:
    return float(Fraction(text))


finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)


@settings(max_examples=400, deadline=None)
@given(x=finite, places=st.integers(0, 4), fractions=st.booleans())
def test_a_number_is_written_plainly_and_means_the_value(x, places, fractions):
    text = number(x, places=places, fractions=fractions)
    assert WRITTEN.match(text), text
    assert "e" not in text.lower() and text != "-0" and not text.startswith("-0/")
    assert abs(value_of(text) - x) <= 0.5 * 10**-places + 1e-9 * max(1, abs(x))


@settings(max_examples=200, deadline=None)
@given(num=st.integers(-30, 30), den=st.integers(1, 12), noise=st.floats(-1e-12, 1e-12))
def test_small_fractions_survive_float_noise(num, den, noise):
    x = num / den + noise
    text = number(x)
    exact = Fraction(num, den)
    if exact.denominator == 1:
        assert text == str(exact.numerator)
    elif abs(exact) < 1 or (exact * 100).denominator != 1:
        assert Fraction(text) == exact
    else:
        assert float(text) == pytest.approx(float(exact))


@settings(max_examples=200, deadline=None)
@given(x=st.floats(-1e-10, 1e-10))
def test_rounding_noise_around_zero_reads_zero(x):
    assert number(x) == signed(x) == "0" and fixed(x) == "0.00" and clean(x) == 0.0


@settings(max_examples=200, deadline=None)
@given(x=finite)
def test_signed_and_fixed_agree_with_number(x):
    s = signed(x)
    assert s == "0" or s[0] in "+-"
    assert s.lstrip("+") == number(x)
    f = fixed(x)
    assert re.match(r"^-?\d+\.\d\d$", f) and f != "-0.00" and abs(float(f) - x) <= 0.005 + 1e-9 * abs(x)


def test_edges():
    assert number(None) == number(float("nan")) == "n/a"
    assert number(float("inf")) == "∞" and number(-math.inf) == "-∞"
    assert number(7) == "7" and percent(0.999) == "100%" and percent(None) == "n/a"
    with pytest.raises(TypeError, match="formats numbers"):
        number("3")


@settings(max_examples=300, deadline=None)
@given(x=st.floats(-1e6, 1e6, allow_nan=False), digits=st.integers(1, 4))
def test_significant_figures_never_use_an_exponent(x, digits):
    from gopskit.numbers import significant

    text = significant(x, digits)
    assert WRITTEN.match(text) and text != "-0", text
    if abs(x) > 1e-11:
        assert abs(float(text) - x) <= 0.51 * 10 ** (math.floor(math.log10(abs(x))) - digits + 1) + 1e-12


@given(st.lists(st.sampled_from([0, 0.25, 0.5, 0.75, 1.5, 2.5, -0.5, 1 / 3, 2 / 3, 7 / 3, 3.75]), min_size=1, max_size=6))
def test_labels_side_by_side_never_mix_a_plain_half_with_decimals(values):
    from fractions import Fraction

    from gopskit.numbers import numbers_together

    texts = numbers_together(values)
    assert len(texts) == len(values)
    for text, value in zip(texts, values):
        assert abs(float(Fraction(text)) - value) < 0.006  # each label still means its value
    if any("." in t for t in texts):
        assert all(Fraction(t).denominator in (3,) for t in texts if "/" in t), texts  # only fractions a decimal cannot write
