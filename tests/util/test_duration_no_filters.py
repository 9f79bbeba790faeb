"""Stop 59: durations written with unit spellings pandas deprecates (``"1H"``, ``"90MIN"``,
``"45S"``, ``"2d"``) are read without ``warnings.catch_warnings``, whose filters are the whole
process's (not safe on the threads that read durations inside Dask partitions): the spelling is
written as pandas asks before pandas sees it, so pandas has nothing to warn about. Oracles: the
durations worked out by hand in each row."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from budgetlab._util.durations import to_timedelta
from budgetlab._util.one_duration import is_one_duration
from tests.filter_callers import filter_callers

S = 10**9


@pytest.mark.parametrize(("text", "ns"), [
    ("1H", 3600 * S),                  # 1 hour
    ("1.5H", 5400 * S),                # 1.5 h = 90 min (the exact decimal path)
    ("90MIN", 5400 * S),               # 90 min
    ("45S", 45 * S),                   # 45 s
    ("250MS", 250 * 10**6),            # 250 ms
    ("2d", 2 * 86400 * S),             # 2 days
    ("1H30MIN", 5400 * S),             # 1 h + 30 min, a compound duration (largest unit first)
    ("3US", 3000),                     # 3 microseconds
    ("7NS", 7),                        # 7 nanoseconds
])
def test_deprecated_unit_spellings_are_read_without_warnings_or_a_filter(monkeypatch, text, ns):
    callers = filter_callers(monkeypatch)
    with warnings.catch_warnings():  # the test's own filter (not budgetlab's: the spy skips it)
        warnings.simplefilter("error")  # any warning pandas gave would raise here
        got = to_timedelta(text, name="threshold")
    assert callers == []
    assert got == pd.Timedelta(ns, unit="ns")


@pytest.mark.parametrize(("text", "one"), [
    ("1H30MIN", True),   # hours then minutes: one compound duration
    ("30MIN 1H", False),  # minutes then an hour: two durations pandas would add up
    ("1w 2D", True),     # a week then days
])
def test_one_duration_checks_deprecated_spellings_without_a_filter(monkeypatch, text, one):
    callers = filter_callers(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = is_one_duration(text)
    assert callers == []
    assert got is one
