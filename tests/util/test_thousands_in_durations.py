"""Elapsed and given durations of four digits or more in a unit have their thousands separated,
as every count in budgetlab's text is (``55,460 transitions``): a silence total over 5,000 groups
read ``1186505 h 11 min in all``. Expected strings written by hand."""

import pandas as pd

from budgetlab._util.words import days_words, duration_words, hours_words, prose_duration


def test_hours_past_a_thousand_are_separated():
    # 1,186,505 h 11 min = 4,271,418,660 s
    assert hours_words(4_271_418_660 / 3600) == "1,186,505 h 11 min"
    assert hours_words(999.5) == "999 h 30 min"  # three digits: nothing to separate
    assert hours_words(1000.0) == "1,000 h"
    assert duration_words(pd.Timedelta(hours=12_345, minutes=6), days=False) == "12,345 h 6 min"


def test_days_past_a_thousand_are_separated():
    assert days_words(1234.5) == "1,234 d 12 h"
    assert duration_words("1000D") == "1,000 d"


def test_given_lengths_separate_their_whole_units_only():
    assert prose_duration("1500D") == "1,500 d"
    assert prose_duration("1200h") == "50 d"  # a whole number of days from two days up
    assert prose_duration("1201h") == "1,201 h"
    assert prose_duration("1000.5h") == "1,000.5 h"
    # seconds keep every digit as given (a threshold, a timeout), thousands separated as every
    # count in words ("timeout 10000 s" beside "2,423 s" read as two styles)
    assert prose_duration("3601s") == "3,601 s"
