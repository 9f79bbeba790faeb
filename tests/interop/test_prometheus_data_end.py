"""Stop 60: past the server's data the refusal advised an end 5 minutes after the last sample
(the lookback keeps a count for 5 minutes more: "no data after 00:05"), and following it gave
5 scrape-gap bins. It names the last sample's time now. Oracle: the test server's counters
(tests/interop/prometheus_server.py) have their last sample at the end of minute MINUTES,
2026-01-07 00:00 UTC; read up to that time, the only gap is par's (3 bins)."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from budgetlab.errors import InputError
from budgetlab.interop.prometheus_source import read_prometheus
from budgetlab.interop.prometheus_span import ScrapeGapWarning
from tests.interop.prometheus_server import MINUTES, START

LAST = START + pd.Timedelta(minutes=MINUTES)  # 2026-01-07 00:00 UTC


def _read(url: str, end: pd.Timestamp) -> pd.DataFrame:
    return read_prometheus(url, total="app_requests_total", errors="app_request_errors_total",
                           start=LAST - pd.Timedelta(hours=1), end=end, by="region")


def test_the_end_advised_is_the_last_sample_and_following_it_reads_no_tail_gap(prom):
    with pytest.raises(InputError) as info:
        _read(prom, LAST + pd.Timedelta(hours=1))
    assert str(info.value) == ("total: the server holds no data after 2026-01-07 00:00 UTC (its "
                               "last sample); end at or before that time.")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScrapeGapWarning)  # no gap in the hour before LAST
        bins = _read(prom, LAST)
    assert bins.attrs["gaps"] == []
    assert bins["bin_start"].max() == LAST - pd.Timedelta(minutes=1)
