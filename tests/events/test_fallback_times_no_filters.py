"""Stop 59: times that ISO-8601 cannot read (CLF, month names) are parsed without
``warnings.catch_warnings``, whose filters are the whole process's (not safe on the worker
threads of Dask's threaded scheduler): pandas is kept from warning at the source. A zone written
as a name pandas does not read (``10:00 CEST``; pandas 2 dropped it with a FutureWarning and read
the wall time as UTC, 2 hours off) is refused before pandas sees it. Oracles: the instants
written below, converted by hand."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.errors import TimestampError
from tests.filter_callers import filter_callers


def test_clf_and_month_name_times_are_read_without_a_warnings_filter(monkeypatch):
    raw = pd.DataFrame({"ts": ["17/May/2015:10:05:03 +0000",  # CLF: 10:05:03 UTC
                               "Sun, 29 Nov 2026 03:47:00 +0100",  # 02:47 UTC
                               "Nov 29 2026 22:00:00 +0000"],
                        "outcome": ["success", "timeout", "success"]})
    callers = filter_callers(monkeypatch)
    real = warnings.catch_warnings
    with real():
        warnings.simplefilter("error")  # any warning pandas gave would raise here
        got = read_events(raw)
    assert callers == []
    assert got["ts"].tolist() == [pd.Timestamp("2015-05-17T10:05:03Z"),
                                  pd.Timestamp("2026-11-29T02:47:00Z"),
                                  pd.Timestamp("2026-11-29T22:00:00Z")]


@pytest.mark.parametrize(("times", "rows"), [
    (["Sun Nov 29 10:00:00 EST 2026", "Sun, 29 Nov 2026 03:47:00 +0100"], "timestamp at row 1"),
    # every row so: pandas 2.2 read them as 10:00 and 11:00 UTC (10:00 CEST is 08:00 UTC)
    (["29 Nov 2026 10:00:00 CEST", "29 Nov 2026 11:00:00 CEST"], "timestamps at rows 1, 2"),
])
def test_a_zone_name_pandas_cannot_read_is_refused_with_no_warning(monkeypatch, times, rows):
    raw = pd.DataFrame({"ts": times, "outcome": ["success", "timeout"]})
    callers = filter_callers(monkeypatch)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(TimestampError, match=rf"unparseable {rows} \(1-based\)"):
            read_events(raw)
    assert callers == []
    assert [str(w.message) for w in caught] == []
