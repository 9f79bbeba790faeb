"""A ``start``/``end`` inside a bin: ``read_prometheus`` and ``budgetlab backtest`` read the whole
bins around it and say the span counted (attrs, warning, the header), never the span asked.

The fake server (127.0.0.1, stopped by its fixture) answers every count query with two services
at constant rates: api 100 events and 10 failures a minute, web 200 and 21. The oracle is by
hand: a bin of 5 minutes holds 1,500 events and 155 failures, so 09:55..10:45 (10 bins) is 15,000
events and 1,550 failed, where 09:58..10:43 would be 13,500.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.interop.prometheus_source import read_prometheus
from budgetlab.interop.prometheus_span import SpanWidenedWarning
from tests.interop.test_prometheus_hostile import Fake, _matrix, serving

RATES = {"api": (100, 10), "web": (200, 21)}  # (events, failures) per minute


def _act(h, body: dict) -> None:
    query = body["query"][0]
    lo, hi, step = (float(body[k][0]) for k in ("start", "end", "step"))
    times = [lo + i * step for i in range(round((hi - lo) / step) + 1)]
    col = 1 if "err_total" in query else 0
    h.send(200, _matrix([{"metric": {"service": name},
                          "values": [[t, str(rate[col] * step / 60)] for t in times]}
                         for name, rate in RATES.items()]))


@pytest.fixture()
def fake() -> Iterator[Fake]:
    with serving(Fake()) as server:
        server.act = _act
        yield server


def _read(url: str, start: str, end: str, freq: str) -> pd.DataFrame:
    return read_prometheus(url, total="req_total", errors="err_total", by="service",
                           start=start, end=end, freq=freq)


def test_unaligned_span_is_read_as_whole_bins_and_said(fake):
    with pytest.warns(SpanWidenedWarning) as said:
        bins = _read(fake.url, "2025-12-01T09:58", "2025-12-01T10:43", "5min")
    assert int(bins["total"].sum()) == 15_000 and int(bins["bad"].sum()) == 1_550
    assert bins.attrs["span"] == {"start": "2025-12-01T09:55:00+00:00",
                                  "end": "2025-12-01T10:45:00+00:00"}
    words = str(said[0].message)
    assert "2025-12-01 09:58 .. 2025-12-01 10:43 UTC asked" in words
    assert "2025-12-01 09:55 .. 2025-12-01 10:45 UTC counted" in words
    assert bins.attrs["notes"][0].startswith("span widened to whole 5 min bins: ")
    json.dumps(bins.attrs["span"])


def test_seconds_inside_a_minute_bin_are_said_with_their_seconds(fake):
    with pytest.warns(SpanWidenedWarning, match=r"2025-12-01 00:00:30 \.\. 2025-12-01 01:00:30 "
                                                r"UTC asked, 2025-12-01 00:00:00 \.\. "
                                                r"2025-12-01 01:01:00 UTC counted"):
        bins = _read(fake.url, "2025-12-01T00:00:30", "2025-12-01T01:00:30", "1min")
    assert bins["bin_start"].nunique() == 61  # 00:00 .. 01:00 inclusive
    assert int(bins["total"].sum()) == 300 * 61


def test_aligned_span_is_read_as_asked_without_a_word(fake):
    with warnings.catch_warnings():
        warnings.simplefilter("error", SpanWidenedWarning)
        bins = _read(fake.url, "2025-12-01T10:00", "2025-12-01T10:40", "5min")
    assert int(bins["total"].sum()) == 12_000 and int(bins["bad"].sum()) == 1_240
    assert bins.attrs["span"]["start"] == "2025-12-01T10:00:00+00:00"
    assert not any(n.startswith("span widened") for n in bins.attrs["notes"])


def _backtest(url: str, capsys, start: str, end: str, freq: str) -> tuple[int, str, str]:
    rc = main(["backtest", "--prometheus", url, "--total", "req_total", "--errors", "err_total",
               "--by", "service", "--target", "0.99", "--policy", "workbook",
               "--start", start, "--end", end, "--freq", freq])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_backtest_header_prints_the_span_counted(fake, capsys):
    rc, out, err = _backtest(fake.url, capsys, "2025-12-01T09:58", "2025-12-01T10:43", "5m")
    assert rc == 0, err
    header = " ".join(out.split("How it was read:")[0].split()).split(" span ", 1)[1]
    assert header.startswith("2025-12-01 09:55 .. 2025-12-01 10:45 UTC (widened to whole "
                             "bins; see how it was read), bins of 5 min")
    assert "15,000 events, 1,550 failed" in header
    # the note under "How it was read"
    assert "09:58 .. 2025-12-01 10:43 UTC asked" in " ".join(out.split())
    assert "SpanWidenedWarning" not in err and "widened" not in err  # said once, on stdout


def test_backtest_header_at_one_minute_counts_61_bins(fake, capsys):
    rc, out, err = _backtest(fake.url, capsys, "2025-12-01T00:00:30", "2025-12-01T01:00:30",
                             "1min")
    assert rc == 0, err
    header = " ".join(out.split("How it was read:")[0].split()).split(" span ", 1)[1]
    assert header.startswith("2025-12-01 00:00 .. 2025-12-01 01:01 UTC (widened")
    assert f"{300 * 61:,} events" in header
