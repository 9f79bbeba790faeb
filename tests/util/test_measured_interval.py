"""An estimate and its interval's bounds: digits enough to tell them apart (hand-stated values)."""

from __future__ import annotations

import pandas as pd

from budgetlab._util.durations import measured_interval


def test_a_fourth_digit_only_where_three_say_a_bound_as_the_estimate():
    # 14.568 s in 14.514 .. 14.634 s: three digits say 14.6, 14.5 .. 14.6 (estimate = high bound)
    assert measured_interval("14.568s", "14.514s", "14.634s") == ("14.57 s", "14.51 s", "14.63 s")
    # three digits tell 9.24 from 9.19 and 9.31: no fourth
    assert measured_interval("9.24s", "9.19s", "9.31s") == ("9.24 s", "9.19 s", "9.31 s")


def test_equal_values_print_alike_and_four_digits_at_most():
    # a bound equal to the estimate is said alike at three digits (no digit added for it)
    assert measured_interval("5s", "5s", "5.5s") == ("5 s", "5 s", "5.5 s")
    # 14.5681 and 14.5684 differ past four digits: four digits at most, said alike
    assert measured_interval("14.5681s", "14.5601s", "14.5684s") == ("14.57 s", "14.56 s",
                                                                     "14.57 s")


def test_one_unit_for_the_estimate_and_its_bounds():
    # the largest's unit: 998 ms beside 1.02 s is 0.998 s, never 998 ms .. 1.02 s
    assert measured_interval("998ms", "990ms", "1.02s") == ("0.998 s", "0.99 s", "1.02 s")
    assert measured_interval("220ms", "1.84ms", "228ms") == ("220 ms", "1.84 ms", "228 ms")
    assert measured_interval(pd.NaT, "1s", pd.NaT) == ("n/a", "1 s", "n/a")
