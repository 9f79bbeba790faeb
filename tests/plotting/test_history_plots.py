"""budgetlab.plotting.history: the drawn artists hold the values of the tables (hand-made here)."""

from __future__ import annotations

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import plot_daily_success, plot_hourly_profile


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


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
    p = pd.DataFrame({"region": ["ams", "fra", "fra"], "hour": [3, 3, 14], "total": [1, 3, 1],
                      "bucket_failures": [1, 1, 0], "other_failures": [0, 1, 0],
                      "bucket_rate": [1.0, 1 / 3, 0.0], "other_rate": [0.0, 1 / 3, 0.0]})
    p.attrs["bucket"] = "timeout"
    ax = plot_hourly_profile(p, ax=plt.subplots()[1])
    lines = {line.get_gid(): line for line in ax.lines}
    assert set(lines) == {"bucket:ams", "other:ams", "bucket:fra", "other:fra"}
    assert list(lines["bucket:fra"].get_xdata()) == [3, 14]
    assert np.allclose(lines["bucket:fra"].get_ydata(), [100 / 3, 0.0])
    assert np.allclose(lines["other:ams"].get_ydata(), [0.0])
    assert lines["bucket:ams"].get_label() == "ams: timeout"
    assert lines["other:fra"].get_linestyle() == "--"


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
