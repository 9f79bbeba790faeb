"""round_like_python (the vectorized rounding of the transitions' report figures) against its
oracle: Python's own ``round(x, digits)`` element by element, compared bit for bit (signs of
zero and nan included)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab.budget.figures import round_like_python


def python_round(values, digits):
    """The oracle: Python's round, as the seed's get_report() calls it."""
    return np.array([round(v, digits) for v in np.asarray(values, dtype=np.float64).tolist()],
                    dtype=np.float64)


def assert_bits_equal(got, want):
    assert got.dtype == np.float64
    assert got.tobytes() == want.tobytes(), [
        (i, float(g), float(w))
        for i, (g, w) in enumerate(zip(got, want, strict=True))
        if g.tobytes() != w.tobytes()
    ][:5]


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=50), st.integers(0, 15))
def test_any_double_equals_python_round(values, digits):
    assert_bits_equal(round_like_python(np.array(values, dtype=np.float64), digits),
                      python_round(values, digits))


@st.composite
def near_ties(draw):
    """Decimal halves (k + 0.5) / 10**d and their nearest doubles a few ulps either side: the
    values where x * 10**d rounds onto or across the half."""
    digits = draw(st.sampled_from([0, 1, 2, 4]))
    k = draw(st.integers(-(10**12), 10**12))
    x = (k + 0.5) / 10**digits
    for _ in range(draw(st.integers(-3, 3)) % 7):
        x = math.nextafter(x, draw(st.sampled_from([math.inf, -math.inf])))
    return x, digits


@given(st.lists(near_ties(), min_size=1, max_size=30))
def test_near_ties_equal_python_round(cases):
    for digits in {d for _, d in cases}:
        values = np.array([x for x, d in cases if d == digits])
        assert_bits_equal(round_like_python(values, digits), python_round(values, digits))


# hand-picked: famous binary near-ties (2.675 is 2.67499999..., 0.125 an exact tie rounded to even),
# values one ulp off a tie, large magnitudes (the fraction lost), signed zeros, tiny and non-finite
HAND = [2.675, 0.125, 0.375, 1.0049999999999999, 1.005, 0.285, 1.115, 2.5, 3.5, -2.5, -0.125,
        -2.675,
        0.045, 1e15 + 0.5, 2.0**52 + 1, 2.0**53, 1e300, -1e300, 1.7976931348623157e308, 5e-324,
        -5e-324,
        0.0, -0.0, -0.004, -0.00005, math.inf, -math.inf, math.nan, 99.995, 99.99499999999999,
        math.nextafter(0.125, 1.0), math.nextafter(0.125, 0.0), 4503599627370495.5, 0.5, 1.5, -1.5]


@pytest.mark.parametrize("digits", [0, 1, 2, 4, 15])
def test_hand_picked_near_ties(digits):
    assert_bits_equal(round_like_python(np.array(HAND), digits), python_round(HAND, digits))


def test_hand_computed_values():
    # Python: round(2.675, 2) == 2.67 (the double is
    # 2.67499999999999982236431605997495353221893310546875);
    # round(0.125, 2) == 0.12 (an exact tie, half to even); round(-0.004, 2) == -0.0
    got = round_like_python(np.array([2.675, 0.125, -0.004, 12.3456]), 2)
    assert got.tolist() == [2.67, 0.12, -0.0, 12.35]
    assert math.copysign(1.0, got[2]) == -1.0


def test_vectorized_path_is_taken_and_np_round_would_differ(monkeypatch):
    """Not a vacuous oracle: np.round (x * 10**d, rint, / 10**d) differs from Python on some of the
    hand-picked near ties, which round_like_python hands to Python's round (counted); ordinary
    values
    never reach it (the vectorized path alone gives Python's bits)."""
    import builtins

    import budgetlab.budget.figures as figures

    calls: list[float] = []

    def counting_round(v, d):
        calls.append(v)
        return builtins.round(v, d)

    monkeypatch.setattr(figures, "round", counting_round, raising=False)  # the module's name lookup
    x = np.array([1.0049999999999999, 2.675, 0.285, 1.115])
    differs = np.round(x, 2) != python_round(x, 2)
    assert differs.any()
    assert_bits_equal(round_like_python(x, 2), python_round(x, 2))
    assert len(calls) == len(x)  # each of these lies within an ulp of a half: Python decides
    calls.clear()
    ordinary = np.random.default_rng(5).random(20_000) * np.array([1.0, 100.0, 1e6,
                                                                   1e-3]).repeat(5_000)
    for digits in (1, 2, 4):
        assert_bits_equal(round_like_python(ordinary, digits), python_round(ordinary, digits))
    assert calls == []


def test_digits_out_of_range():
    with pytest.raises(ValueError):
        round_like_python(np.array([1.0]), 16)
