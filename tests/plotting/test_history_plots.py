"""budgetlab.plotting.history: the drawn artists hold the values of the tables (hand-made here)."""

from __future__ import annotations

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab.analyses.history import hourly_profile
from budgetlab.plotting import plot_daily_success, plot_hourly_profile

pytestmark = pytest.mark.usefixtures("close_figures")


def test_daily_points_and_bars_hold_the_rates():
    daily = pd.DataFrame({
        "g": ["a", "a", "b"],
        "day": pd.to_datetime(["2026-01-01", "2026-01-02",
                               "2026-01-01"]).tz_localize("Europe/Berlin"),
        "total": [100, 40, 50], "good": [90, 39, 50], "success_rate": [0.9, 0.975, 1.0],
        "ci_low": [0.82, 0.87, 0.93], "ci_high": [0.95, 0.99, 1.0], "full_day": [True, False,
                                                                                 True]})
    fig, ax = plt.subplots()
    plot_daily_success(daily, ax=ax)
    assert [c.get_label() for c in ax.containers] == ["a", "b"]
    bars = ax.containers[0].lines[2][0]  # the vertical error bars of group a
    segments = bars.get_segments()
    assert [v for s in segments for v in (s[0][1], s[1][1])] == pytest.approx([82.0, 95.0, 87.0,
                                                                               99.0])
    # group a (first of two): at local noon minus 3 h offset, in the zone the axis shows
    x = [pd.Timestamp(mdates.num2date(s[0][0], tz="Europe/Berlin")) for s in segments]
    assert x == [pd.Timestamp("2026-01-01 09:00", tz="Europe/Berlin"),
                 pd.Timestamp("2026-01-02 09:00", tz="Europe/Berlin")]
    lines = {line.get_gid(): line for line in ax.lines if line.get_gid()}
    full, partial = lines["days:a"], lines["partial:a"]
    assert list(full.get_ydata()) == pytest.approx([90.0]) and list(
        partial.get_ydata()
    ) == pytest.approx([97.5])
    assert partial.get_markerfacecolor() == "white"
    assert "Europe/Berlin" in ax.get_xlabel()


def test_hourly_lines_hold_the_rates():
    p = pd.DataFrame({"region": ["ams", "fra", "fra"], "hour": [3, 3, 14], "total": [1, 30, 20],
                      "bucket_failures": [1, 10, 0], "other_failures": [0, 10, 0],
                      "bucket_rate": [1.0, 1 / 3, 0.0], "other_rate": [0.0, 1 / 3, 0.0]})
    p.attrs["bucket"] = "timeout"
    ax = plot_hourly_profile(p, ax=plt.subplots()[1])
    lines = {line.get_gid(): line for line in ax.lines}
    assert set(lines) == {f"{kind}:{g}" for kind in ("bucket", "other", "thin_bucket", "thin_other")
                          for g in ("ams", "fra")}
    assert list(lines["bucket:fra"].get_xdata()) == list(range(24))
    y = np.asarray(lines["bucket:fra"].get_ydata(), dtype=float)
    assert np.allclose(y[[3, 14]], [100 / 3, 0.0])
    assert np.isnan(np.delete(y, [3, 14])).all()  # no attempt: nothing drawn, not interpolated
    # ams's one attempt at 03 is thin: off its line, its rate (0 of 1) a hollow point
    assert np.isnan(np.asarray(lines["other:ams"].get_ydata(), dtype=float)).all()
    assert list(lines["thin_other:ams"].get_ydata()) == pytest.approx([0.0])
    assert lines["bucket:ams"].get_label() == "ams: timeout"
    assert lines["other:fra"].get_linestyle() == "--"
    # ams's one attempt at 03 is under the rule (20): hollow; fra's 30 and 20 are not
    assert list(lines["thin_bucket:ams"].get_xdata()) == [3]
    assert list(lines["thin_bucket:fra"].get_xdata()) == []


def test_hourly_profile_breaks_at_empty_and_thin_hours_and_marks_thin_ones():
    """Hand-built events: hour 03 holds 25 attempts (5 timeouts, 2 solve errors), hour 14 one
    timeout, hour 15 two attempts (one timeout); nothing between them. The timeout line must not
    run from 03 across 04..13 to 14, nor from 14 to 15: 14 and 15 (1 and 2 attempts, under 20)
    are hollow points apart, as the table withholds their rates; 03 (25) is on the line."""
    rows = ([("2026-01-01 03:00", True, "success")] * 18 + [("2026-01-01 03:30", False,
                                                             "timeout")] * 5
            + [("2026-01-02 03:10", False, "solve_error")] * 2
            + [("2026-01-01 14:05", False, "timeout"), ("2026-01-01 15:05", False, "timeout"),
               ("2026-01-01 15:06", True, "success")])
    events = pd.DataFrame(rows, columns=["ts", "ok", "bucket"])
    events["ts"] = pd.to_datetime(events["ts"], utc=True)
    ax = plot_hourly_profile(hourly_profile(events, bucket="timeout"), ax=plt.subplots()[1])
    lines = {line.get_gid(): line for line in ax.lines}
    want = np.full(24, np.nan)
    want[3] = 100 * 5 / 25  # by hand: 5/25; 14 and 15 thin: no line through them
    assert np.allclose(lines["bucket:all"].get_ydata(), want, equal_nan=True)
    other = np.full(24, np.nan)
    other[3] = 100 * 2 / 25
    assert np.allclose(lines["other:all"].get_ydata(), other, equal_nan=True)
    for kind, rates in (("thin_bucket", [100.0, 50.0]), ("thin_other", [0.0, 0.0])):
        thin = lines[f"{kind}:all"]  # by hand: 1/1 and 1/2 timeouts, no other failure
        assert list(thin.get_xdata()) == [14, 15]
        assert list(thin.get_ydata()) == pytest.approx(rates)
        assert thin.get_linestyle() == "None" and thin.get_markerfacecolor() == "white"
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[-1] == "hollow: under 20 attempts at that hour"


def test_a_thin_hour_between_two_full_ones_cuts_the_line_in_two():
    """Hours 02 and 04 hold 40 attempts each, 03 one (under 20): no line segment spans 03, whose
    rate (100 %, by hand 1/1) is only its hollow point; matplotlib draws no segment to a NaN."""
    p = pd.DataFrame({"hour": [2, 3, 4], "total": [40, 1, 40], "bucket_failures": [4, 1, 8],
                      "other_failures": [0, 0, 2], "bucket_rate": [0.1, 1.0, 0.2],
                      "other_rate": [0.0, 0.0, 0.05]})
    ax = plot_hourly_profile(p, ax=plt.subplots()[1])
    lines = {line.get_gid(): line for line in ax.lines}
    y = np.asarray(lines["bucket:all"].get_ydata(), dtype=float)
    assert y[2] == pytest.approx(10.0) and y[4] == pytest.approx(20.0) and np.isnan(y[3])
    path = lines["bucket:all"].get_path()  # the drawn path: a move to 04, no line into it
    codes = [c for v, c in path.iter_segments(simplify=False) if v[0] == 4]
    assert codes == [path.MOVETO]
    assert list(lines["thin_bucket:all"].get_ydata()) == pytest.approx([100.0])


def test_daily_points_fall_on_their_local_day_west_of_utc():
    """The axis shows the days' time zone (ticks at local midnights), so each point must sit inside
    its own local day there: with seven groups (as many as there are distinct colours, the most
    series drawn) the first sits at local midnight + 3 h and the last at + 21 h (noon - 9 h ...
    noon + 9 h). Naive wall times read as UTC put Los Angeles' points 8 hours early, the first
    group's in the previous day."""
    tz = "America/Los_Angeles"
    days = pd.to_datetime(["2026-01-01", "2026-01-02"]).tz_localize(tz)
    daily = pd.DataFrame({"g": np.repeat([f"g{i}" for i in range(7)], 2), "day": np.tile(days, 7),
                          "total": 10, "good": 9, "success_rate": 0.9, "ci_low": 0.6,
                          "ci_high": 0.98,
                          "full_day": True})
    fig, ax = plt.subplots()
    plot_daily_success(daily, ax=ax)
    lines = {line.get_gid(): line for line in ax.lines if line.get_gid()}
    for i in range(7):
        (x_first, x_second) = lines[f"days:g{i}"].get_xdata()  # the full-day points of group i
        shown = [pd.Timestamp(mdates.num2date(mdates.date2num(x), tz=tz)) for x in (x_first,
                                                                                    x_second)]
        hours = 12 + 3 * (i - 3)
        assert shown == [pd.Timestamp(f"2026-01-0{d} {hours:02d}:00", tz=tz) for d in (1, 2)], (
            i,
            shown,
        )


def test_hollow_days_are_said_by_their_rule_traffic_not_hours():
    # a log's first day that starts at 04:41 holds 19 h 19 min of traffic at the usual pace:
    # 280 events a day elsewhere (median 288), 232 that day, >= half the median, so daily_success
    # counts it a full day; the label must say the rule (traffic), not "partial day", which that
    # filled point would contradict. The last day's 40 events (< 144) are hollow.
    from budgetlab.analyses.history import daily_success

    ts = pd.concat([pd.Series(pd.date_range("2026-03-07 04:41", periods=232, freq="5min",
                                            tz="Europe/Berlin")),
                    pd.Series(pd.date_range("2026-03-08 00:00", periods=288 * 2, freq="5min",
                                            tz="Europe/Berlin")),
                    pd.Series(pd.date_range("2026-03-10 00:00", periods=40, freq="5min",
                                            tz="Europe/Berlin"))]).dt.tz_convert("UTC")
    events = pd.DataFrame({"ts": ts.to_numpy(), "ok": True})
    daily = daily_success(events, tz="Europe/Berlin")
    assert daily["total"].tolist() == [232, 288, 288, 40]
    fig, ax = plt.subplots()
    plot_daily_success(daily, ax=ax)
    lines = {line.get_gid(): line for line in ax.lines if line.get_gid()}
    assert len(lines["days:all"].get_ydata()) == 3 and len(lines["partial:all"].get_ydata()) == 1
    assert "hollow: a day with under half the group's median day of traffic" in ax.get_xlabel()
    assert "partial day" not in ax.get_xlabel()
