"""The incident figure's budget panel keeps a critical stretch of seconds (``--plot``): its strip
is reduced to the pixel columns of the window it shows, the worst status of each, as the
timeline reduces a long log (issue 30 point 3). Before, with fewer status runs than columns,
each run was drawn as it is: 5 s of critical in a window of 6 h or more is under a pixel.

Hand-built log, SLO 90 % over 1 h: one success every 10 s, 2026-03-01 00:00 .. 05:59:50 (360
events in each hour). At 03:00, 37 failures: the window holds 397 events, a budget of 39.7
failures, 2.7 left: 6.8 % < 10 %, critical. At 03:00:05, 600 successes: 998 events, a budget of
99.8, 62.8 left: 63 %, healthy (the failures leave the window at 04:00, with 600 successes still
in it: healthy). So critical for [03:00, 03:00:05), 5 s, nothing else but healthy."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import budgetlab as bl  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-03-01", tz="UTC")
T = T0 + pd.Timedelta("3h")


def _num(t: pd.Timestamp) -> float:
    return float(mdates.date2num(t.tz_convert(None).to_datetime64()))


def _report():
    ts = list(T0 + pd.to_timedelta(np.arange(0, 6 * 3600, 10), unit="s"))
    ok = [True] * len(ts)
    ts += [T] * 37 + [T + pd.Timedelta("5s")] * 600
    ok += [False] * 37 + [True] * 600
    log = pd.DataFrame({"ts": ts, "ok": ok}).sort_values("ts", kind="stable")
    ev = bl.as_events(log["ts"], log["ok"].to_numpy())
    return bl.incident_report(ev, bl.SLO(0.9, "1h"), T0, T0 + pd.Timedelta("6h"))


def test_five_seconds_of_critical_in_six_hours_keep_a_pixel_column_in_the_strip():
    rep = _report()
    fig = rep.plot()
    bottom = next(a for a in fig.axes if a.get_ylabel().startswith("budget"))
    (strip,) = [c for c in bottom.collections if c.get_gid() == "critical_strip"]
    bars = [(b.x0, b.x1) for b in (p.get_extents() for p in strip.get_paths())]
    # a pixel column: the panel's width in pixels over the time it shows (the report's window)
    assert bottom.get_xlim() == pytest.approx((_num(rep.window_start), _num(rep.window_end)))
    column = (_num(rep.window_end) - _num(rep.window_start)) / bottom.get_window_extent().width
    assert column > _num(T + pd.Timedelta("5s")) - _num(T)  # the premise: 5 s is under a column
    held = [(x0, x1) for x0, x1 in bars if x0 <= _num(T) + 1e-9 and x1 >= _num(T)]
    assert len(held) == 1, bars  # one critical bar, at the critical stretch
    (x0, x1) = held[0]
    assert x1 - x0 >= 0.99 * column  # a pixel column wide, not 5 s
    assert x1 >= _num(T + pd.Timedelta("5s")) - 1e-9
    # and nothing else: the rest of the 6 h is healthy
    assert sum(b - a for a, b in bars) <= 2.01 * column
