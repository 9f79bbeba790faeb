"""Stop 60: past the server's data the refusal advised an end 5 minutes after the last sample
(the lookback keeps a count for 5 minutes more: "no data after 00:05"), and following it gave
5 scrape-gap bins. It names the last sample's time now. Oracle: the test server's counters
(tests/interop/prometheus_server.py) have their last sample at the end of minute MINUTES,
2026-01-07 00:00 UTC; read up to that time, the only gap is par's (3 bins)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.errors import InputError
from budgetlab.interop.prometheus_source import read_prometheus
from budgetlab.interop.prometheus_span import ScrapeGapWarning
from tests.interop.prometheus_server import (
    MINUTES,
    START,
    PrometheusServer,
    missing_binary,
    prometheus_binaries,
)

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


# -- the twin at the start -------------------------------------------------------------------------
# Hand-set: a_total (+10 a minute) and b_total (+1) sampled every minute from 2026-01-05
# 10:02:30 UTC, off the 1-minute grid: the first bin with a count is [10:03, 10:04), its start
# reads the 10:02:30 sample; c_total from 10:05:00, on the grid: its first bin starts there.
FIRST = pd.Timestamp("2026-01-05 10:02:30", tz="UTC")


def _first_text() -> str:
    t0, t1 = FIRST.value // 10**9, FIRST.value // 10**9 + 150
    lines = ["# TYPE a counter", *(f"a_total {10 * i} {t0 + 60 * i}" for i in range(60)),
             "# TYPE b counter", *(f"b_total {i} {t0 + 60 * i}" for i in range(60)),
             "# TYPE c counter", *(f"c_total {5 * i} {t1 + 60 * i}" for i in range(60))]
    return "\n".join([*lines, "# EOF"]) + "\n"


@pytest.fixture(scope="module")
def first_prom() -> Iterator[str]:
    if prometheus_binaries() is None:
        missing_binary("prometheus or promtool", "needs the prometheus and promtool binaries on "
                       "PATH (Debian package 'prometheus')")
    with PrometheusServer(_first_text()) as url:
        yield url


def test_before_the_data_the_first_sample_is_named_and_the_first_bin_advised(first_prom, capsys):
    with pytest.raises(InputError) as info:
        read_prometheus(first_prom, total="a_total", errors="b_total", start="2026-01-05 09:00",
                        end="2026-01-05 11:00")
    assert str(info.value) == (
        "total: the server holds no data before 2026-01-05 10:02:30 UTC (its first sample; "
        "retention, or the counter is newer), so the first bin with a count starts at 2026-01-05 "
        "10:03 UTC; start at or after that time (start=).")
    with pytest.raises(InputError) as info:  # on the grid: one time
        read_prometheus(first_prom, total="c_total", errors="b_total", start="2026-01-05 09:00",
                        end="2026-01-05 11:00")
    assert str(info.value) == (
        "total: the server holds no data before 2026-01-05 10:05 UTC (its first sample; "
        "retention, or the counter is newer); start at or after that time (start=).")
    rc = main(["backtest", "--prometheus", first_prom, "--total", "a_total", "--errors",
               "b_total", "--target", "0.99", "--policy", "workbook", "--start",
               "2026-01-05T09:00", "--end", "2026-01-05T11:00"])
    assert (rc, capsys.readouterr().err) == (2, (
        "budgetlab: error: --total: the server holds no data before 2026-01-05 10:02:30 UTC (its "
        "first sample; retention, or the counter is newer), so the first bin with a count starts "
        "at 2026-01-05 10:03 UTC; start at or after that time (--start, or a shorter --since).\n"))
    bins = read_prometheus(first_prom, total="a_total", errors="b_total",  # the advice followed
                           start="2026-01-05 10:03", end="2026-01-05 11:00")
    assert bins["total"].tolist() == [10] * 57 and bins["bad"].tolist() == [1] * 57
