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
    assert measured_interval("5s", "5s", "5.5s") == ("5.0 s", "5.0 s", "5.5 s")  # one decimal
    # 14.5681 and 14.5684 differ past four digits: four digits at most, said alike
    assert measured_interval("14.5681s", "14.5601s", "14.5684s") == ("14.57 s", "14.56 s",
                                                                     "14.57 s")


def test_one_unit_for_the_estimate_and_its_bounds():
    # the largest's unit: 998 ms beside 1.02 s is 0.998 s, never 998 ms .. 1.02 s
    assert measured_interval("998ms", "990ms", "1.02s") == ("0.998 s", "0.990 s", "1.020 s")
    assert measured_interval("220ms", "1.84ms", "228ms") == ("220.00 ms", "1.84 ms", "228.00 ms")
    assert measured_interval(pd.NaT, "1s", pd.NaT) == ("n/a", "1 s", "n/a")


def test_the_estimate_and_both_ends_share_one_number_of_decimals():
    # 17.02 s at three digits is 17 s, beside 17.4 s: said 17.0 s (it read "17 s .. 17.4 s")
    assert measured_interval("17.1s", "17.02s", "17.4s") == ("17.1 s", "17.0 s", "17.4 s")
    # each rounded from its own value at the shared decimals: 9.996 s beside 9.5 s is 10.0 s
    assert measured_interval("9.7s", "9.5s", "9.996s") == ("9.7 s", "9.5 s", "10.0 s")
