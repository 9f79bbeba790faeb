"""Issue 32, point 6: ``backtest --prometheus`` with a latency SLI read from a histogram
(``--histogram NAME --slow-above T``), against a real Prometheus server holding a histogram with
known per-minute counts (``tests/interop/prometheus_server.histogram_counts``).

Expected figures by hand from those counts: with the bound 0.5 s, fra's 20 slow events a minute for
20 minutes are bad (400), ams has none; with 0.1 s also ams's 4 a minute for 10 minutes (40); with
1 s nothing is bad."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main
from tests.interop.prometheus_server import (
    HISTOGRAM,
    HISTOGRAM_MINUTES,
    START,
)

END = START + pd.Timedelta(minutes=HISTOGRAM_MINUTES)
SPAN = ["--start", START.isoformat(), "--end", END.isoformat()]


def _bins(url, tmp_path, capsys, threshold, *extra):
    out = tmp_path / threshold
    out.mkdir()
    rc = main(["backtest", "--prometheus", url, "--histogram", HISTOGRAM, "--slow-above", threshold,
               "--target", "0.99", "--policy", "workbook", "--by", "region", *SPAN, "--out",
               str(out), *extra])
    text = capsys.readouterr()
    assert rc == 0, text.err
    return pd.read_csv(out / "bins.csv"), text.out


@pytest.mark.parametrize("threshold, bad_fra, bad_ams", [("500ms", 400, 0), ("0.1s", 400, 40),
                                                         ("1s", 0, 0)])
def test_bad_events_are_the_slow_ones(hist_prom, tmp_path, capsys, threshold, bad_fra, bad_ams):
    bins, out = _bins(hist_prom, tmp_path, capsys, threshold)
    per = bins.groupby("region")["bad"].sum()
    assert (per["fra"], per["ams"]) == (bad_fra, bad_ams)
    tot = bins.groupby("region")["total"].sum()
    assert (tot["fra"], tot["ams"]) == (30 * HISTOGRAM_MINUTES, 10 * HISTOGRAM_MINUTES)
    assert f"latency SLI from the histogram {HISTOGRAM}" in out and "_count" in out


def test_slow_minutes_land_in_their_bins(hist_prom, tmp_path, capsys):
    bins, _ = _bins(hist_prom, tmp_path, capsys, "500ms")
    fra = bins[bins["region"] == "fra"].reset_index(drop=True)
    slow = fra.index[fra["bad"] > 0].tolist()
    assert slow == list(range(60, 80)) and fra["bad"].iloc[60] == 20


@pytest.mark.parametrize("threshold, needle", [
    ("700ms", "the nearest are 500 ms and 1 s"),
    ("50ms", "the nearest is 100 ms"),
    ("2s", "the nearest is 1 s"),
])
def test_threshold_between_bounds_is_refused(hist_prom, capsys, threshold, needle):
    rc = main(["backtest", "--prometheus", hist_prom, "--histogram", HISTOGRAM, "--slow-above",
               threshold,
               "--target", "0.99", "--policy", "workbook", *SPAN])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert "bounds: 100 ms, 500 ms, 1 s, +Inf" in err and needle in err


@pytest.mark.parametrize("extra, needle", [
    (["--histogram", HISTOGRAM], "--slow-above"),
    (["--histogram", HISTOGRAM + "_bucket", "--slow-above", "1s"], "without the suffix _bucket"),
    (["--histogram", HISTOGRAM, "--slow-above", "1s", "--total", "x_total"], "not both"),
    (["--histogram", HISTOGRAM + '{region="mars"}', "--slow-above", "1s"], "no series in the span"),
])
def test_half_given_latency_sli_is_refused(hist_prom, capsys, extra, needle):
    rc = main(["backtest", "--prometheus", hist_prom, *extra, "--target", "0.99", "--policy",
               "workbook", *SPAN])
    err = capsys.readouterr().err
    assert rc == 2 and needle in err and err.count("\n") == 1


def test_spec_round_trip_equals_the_flags(hist_prom, tmp_path, capsys):
    """The OpenSLO file `export openslo --histogram --slow-above` writes, read back by backtest
    --slo:
    the same bad counts as the flags (400 for fra at 0.5 s; none at 1 s, written le="1.0" here)."""
    for threshold, bad in (("500ms", 400), ("1s", 0)):
        spec = tmp_path / f"slo-{threshold}.yaml"
        assert main(["export", "openslo", str(spec), "--target", "0.99", "--histogram", HISTOGRAM,
                     "--slow-above", threshold, "--policy", "workbook"]) == 0
        out = tmp_path / f"out-{threshold}"
        out.mkdir()
        assert main(["backtest", "--prometheus", hist_prom, "--slo", str(spec), "--by", "region",
                     *SPAN,
                     "--out", str(out)]) == 0
        capsys.readouterr()
        per = pd.read_csv(out / "bins.csv").groupby("region")["bad"].sum()
        assert (per["fra"], per["ams"]) == (bad, 0)


@pytest.mark.parametrize("good, needle", [
    (f'{HISTOGRAM}_bucket{{le="0.7"}}',
     'good: the bucket le="0.7" of ' + HISTOGRAM + " is not a bucket bound"),
    (f'{HISTOGRAM}_bucket{{le="1"}}', 'is written le="1.0" on this server'),
    (f'{HISTOGRAM}_bucket{{le=~"0.7|0.8"}}',
     "matches no bound of the histogram (0.1, 0.5, 1.0, +Inf)"),
])
def test_a_bucket_the_server_lacks_is_refused(hist_prom, capsys, good, needle):
    """Read as given, such a query would find no good events: every event bad (a wrong number)."""
    rc = main(["backtest", "--prometheus", hist_prom, "--good", good, "--total",
               f"{HISTOGRAM}_count",
               "--target", "0.99", "--policy", "workbook", *SPAN])
    err = capsys.readouterr().err
    assert rc == 2 and needle in err and err.count("\n") == 1, err


def test_a_bound_below_a_nanosecond_is_named_with_every_digit():
    """A bucket bound under 1 ns (or below 0) cannot be a duration label: the refusal names it
    with all its digits as the server wrote them (six significant digits said 1.23457e-10 s)."""
    from budgetlab.errors import ConfigError
    from budgetlab.interop.prometheus_histogram import match_bound

    listed = r"bounds: -0\.123456789 s, 1\.23456789e-10 s, 1 s, \+Inf\)"  # one spelling
    with pytest.raises(ConfigError, match=listed):
        match_bound(["-0.123456789", "1.23456789e-10", "1", "+Inf"], 500_000_000, what="h")
