"""A share of time in a table's cell (budgetlab._util.percent.time_share_percent): the column's
decimals, one more where they would read 0 % or 100 %, and past that a bound, never 0 % for a
positive share nor the 13 decimals of a nanosecond. Expected strings written by hand."""

from __future__ import annotations

import pytest

from budgetlab._util.percent import time_share_percent


@pytest.mark.parametrize("share, digits, text", [
    (0.028182, 1, "2.8 %"),           # 2 h of 70 h 58 min
    (0.0004, 1, "0.04 %"),            # one decimal more: 0.0 would read as none
    (0.00006, 1, "0.01 %"),           # 0.006 % rounds to 0.01 at two decimals
    (0.00004, 1, "< 0.01 %"),         # 0.004 %: two decimals say 0.00
    (1e-9 / 255_480, 1, "< 0.01 %"),  # 1 ns of 70 h 58 min: 3.9e-13 %
    (1e-9 / 86_400, 0, "< 0.1 %"),    # 1 ns of a day at 0 decimals: the bound one decimal on
    (0.9996, 1, "99.96 %"),
    (1 - 1e-9 / 255_480, 1, "> 99.99 %"),
    (0.99996, 1, "> 99.99 %"),        # 99.996 %: 100.00 at two decimals
    (0.0, 1, "0.0 %"),                # exactly none and exactly all: as measured
    (1.0, 1, "100.0 %"),
])
def test_the_cells_by_hand(share, digits, text):
    assert time_share_percent(share, digits) == text


def test_missing_reads_as_asked():
    assert time_share_percent(float("nan"), missing="") == ""
    assert time_share_percent(None) == "n/a"
