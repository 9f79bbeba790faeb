"""The two percent texts (budgetlab._util.percent): hand-written expected strings.

A measured fraction (a success rate, a share) has fixed decimals, but a value other than exactly 0
or 1 never reads 0 % or 100 % (decimals are added until it does not); a given fraction (a target,
a threshold) is printed as written.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab._util.percent import fraction_to_percent, given_percent, measured_percent


@pytest.mark.parametrize("x, digits, text", [
    (0.938044, 2, "93.80 %"),
    (0.5, 0, "50 %"),
    (0.01, 0, "1 %"),
    (1.0, 2, "100.00 %"),
    (1.0, 0, "100 %"),
    (0.0, 2, "0.00 %"),
    (-0.0, 2, "0.00 %"),
    # strictly between 0 and 1, rounding to 0 % or 100 % at two decimals: one more decimal
    (0.99999, 2, "99.999 %"),          # 1 failure in 100,000
    (29_999 / 30_000, 2, "99.997 %"),  # 1 failure in 30,000: 99.99666... %
    (0.99995, 2, "99.995 %"),          # 99.995 rounds to 100.00 at two decimals
    (0.00001, 2, "0.001 %"),
    (0.00004, 2, "0.004 %"),
    (1 / 3_000_000, 2, "0.00003 %"),   # 0.0000333... %: the first nonzero decimal
    (1 - 1 / 3_000_000, 2, "99.99997 %"),
    # the same rule at 0 and 1 decimals
    (0.996, 0, "99.6 %"),
    (0.004, 0, "0.4 %"),
    (0.9996, 1, "99.96 %"),
    (0.9994, 1, "99.9 %"),             # 99.94 rounds to 99.9: not 100, nothing added
    # outside [0, 1] (a budget spent): not 100 % when it is not exactly 1
    (1.00001, 2, "100.001 %"),
    (1.5, 1, "150.0 %"),
    (-0.00001, 2, "-0.001 %"),
])
def test_measured_percent(x, digits, text):
    assert measured_percent(x, digits) == text


def test_measured_percent_largest_double_below_one():
    # 1 - 2**-53: 99.999999999999988898 %, shown to the first decimal that is not a 9 run to 100
    text = measured_percent(1 - 2**-53)
    assert text.startswith("99.99999999999") and text.endswith(" %")
    assert text != "100.00 %"


@pytest.mark.parametrize("x", [None, float("nan"), np.nan, pd.NA, float("inf"), -np.inf])
def test_measured_percent_missing_in_words(x):
    assert measured_percent(x) == "n/a"
    assert measured_percent(x, missing="no events") == "no events"


def test_measured_percent_numpy_scalar():
    assert measured_percent(np.float64(0.938044)) == "93.80 %"
    assert measured_percent(np.float32(0.5), 0) == "50 %"


@pytest.mark.parametrize("x, text", [
    (0.9125, "91.25 %"),
    (0.9995, "99.95 %"),    # never "100 %"
    (0.9999995, "99.99995 %"),
    (0.93, "93 %"),         # no digit added
    (0.975, "97.5 %"),
    (0.9, "90 %"),
    (0.5, "50 %"),
    (0.07, "7 %"),
    (0.0125, "1.25 %"),
    (1e-7, "0.00001 %"),
    (1.0, "100 %"),
])
def test_given_percent_as_written(x, text):
    assert given_percent(x) == text
    assert given_percent(x, space=False) == text.replace(" %", "%")


@pytest.mark.parametrize("x", [None, float("nan"), pd.NA, float("inf")])
def test_given_percent_missing_in_words(x):
    assert given_percent(x) == "n/a"
    assert given_percent(x, missing="none") == "none"


@pytest.mark.parametrize("x, text", [(0.999, "99.9"), (0.95, "95"), (0.9995, "99.95"), (-0.0, "0")])
def test_fraction_to_percent(x, text):
    assert fraction_to_percent(x) == text
