"""``clock_line`` beyond ``max_points``: each pixel column's time-weighted mean of the window's
line, the timeline's reduction (not the column's extremes, which drew a log bad one hour in
eight as a band from its worst to its best all along). Oracle: a log worked out by hand."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, as_events, status_spans  # noqa: E402
from budgetlab.plotting.clock_lines import clock_line, clock_lines  # noqa: E402

T0 = pd.Timestamp("2026-01-01", tz="UTC")
DAYS = 200


def bad_hour_in_eight():
    """An event at every minute for 200 days, every event of hours 7, 15 and 23 of each day
    failing (one hour in eight); window 1 h, target 0.9; observed [T0, T0 + 200 d)."""
    k = np.arange(DAYS * 1440)
    ok = (k // 60) % 8 != 7
    ev = as_events(T0 + pd.to_timedelta(k, unit="min"), ok)
    slo = SLO(target=0.9, window="1h")
    return status_spans(ev, slo, steps=True, start=T0, end=T0 + pd.Timedelta(days=DAYS))


def test_each_day_s_column_is_the_success_rate_s_mean_seven_in_eight():
    """200 columns of one day each. On day d >= 1 the window holds 60 events from each event on
    (the 1 ns where it holds the one at its cut-off too is a blip, drawn as the value before),
    so the success rate integrates to (good events of the day x 60 min) / 60 over the day: the
    previous day's last hour is its bad hour 23 (no good event reaching into day d) and the
    day's own bad hour 23 ends it, so 1,260 good events of 1,440 minutes: 1260 / 1440 = 0.875.
    Day 0: 1 during the first hour (the window filling with successes), then the 60 events of
    minutes 0..59 each counted for the m minutes it still spends in the window after 01:00
    (sum 0..59 = 1,770 min, / 60 = 29.5) and the 1,200 good events of minutes 60..1379 for 60
    min each: (60 + 29.5 + 1200) / 1440 = 1289.5 / 1440."""
    steps = bad_hour_in_eight()
    x, y = clock_line(steps, "success_rate", columns=DAYS, max_points=1000)
    fig, ax = plt.subplots()
    try:
        (line,) = ax.plot(x, y, drawstyle="steps-post")
        drawn_x, drawn = line.get_xdata(), np.asarray(line.get_ydata(), dtype=float)
    finally:
        plt.close(fig)
    assert drawn[0] == pytest.approx(1289.5 / 1440, rel=1e-9)
    assert drawn[1:] == pytest.approx(np.full(DAYS, 0.875), rel=1e-9)
    # held from each day's midnight, and the last value to the observation's end
    assert pd.to_datetime(drawn_x).tolist() == list(
        pd.date_range("2026-01-01", periods=DAYS + 1, freq="D"))


def test_the_burn_rate_s_mean_is_its_share_of_bad_minutes_over_the_budget():
    """The same log, burn rate = (failures in the window / 60) / (1 - 0.9). On day d >= 1 the
    bad events of hours 7 and 15 spend their 60 min in the window inside the day; hour 23's
    event at minute m of the hour spends 60 - m min of it in day d and m in day d + 1, so day d
    holds sum(60 - m) = 1,830 of its own and sum(m) = 1,770 of day d - 1's: 120 x 60 + 1,830 +
    1,770 = 10,800 event-minutes, / 60 = 180 min of one failure in the window: mean
    180 / 1440 / 0.1 = 1.25 (the last day too). clock_lines draws what clock_line draws."""
    steps = bad_hour_in_eight()
    lines = clock_lines(steps, ["burn_rate", "success_rate"], columns=DAYS, max_points=1000)
    _, burn = lines["burn_rate"]
    assert burn[1:-1] == pytest.approx(np.full(DAYS - 1, 1.25), rel=1e-9)
    assert lines["success_rate"][1].tolist() == clock_line(
        steps, "success_rate", columns=DAYS, max_points=1000)[1].tolist()
