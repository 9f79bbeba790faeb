"""The timeline's lines on the window's clock (``spans=``): they change where the window changes
between events (an expiry, 1 ns after ``ts + window``), break exactly over the empty window, and
agree with the status strip. Oracle: a four-event log worked out by hand."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, as_events, replay, status_spans  # noqa: E402
from budgetlab.plotting import plot_timeline  # noqa: E402

T0 = pd.Timestamp("2026-01-01")
NS = pd.Timedelta(1, unit="ns")
# target 0.48: 52 % of the window may fail. Remaining fraction = max(0, 1 - (failures / total) /
# 0.52) (the seed floors it at 0); warning below 0.5, critical below 0.1, exhausted at or below 0
# (the SLO's defaults)
SLO_48 = SLO(target=0.48, window="1h")


def at(hhmm):
    return T0 + pd.Timedelta(hhmm)


def hand_log():
    """Successes at 00:00, 00:10, 00:20, a failure at 00:30, then silence until 03:00."""
    ts = pd.to_datetime([at("0h"), at("10min"), at("20min"), at("30min")]).tz_localize("UTC")
    return as_events(ts, [True, True, True, False])


# By hand (window [T - 1 h, T]; an event leaves 1 ns after ts + 1 h):
#   [00:00, 00:30)         3 successes at most         success 100 %,  remaining 1
#   [00:30, 01:00 + 1 ns)  3 of 4 (the failure in)     75 %,   1 - 0.25 / 0.52 = 0.519 healthy
#   [01:00 + 1 ns, ...)    00:00 leaves: 2 of 3        66.7 %, 1 - (1/3) / 0.52 = 0.359 warning
#   [01:10 + 1 ns, ...)    00:10 leaves: 1 of 2        50 %,   1 - 0.5 / 0.52 = 0.038 critical
#   [01:20 + 1 ns, ...)    00:20 leaves: 0 of 1        0 %,    1 - 1 / 0.52 < 0: 0 exhausted
#   [01:30 + 1 ns, 03:00)  the failure leaves: empty   no traffic: the lines break
HAND_SUCCESS = [(at("0h"), 100.0), (at("30min"), 75.0), (at("1h") + NS, 200 / 3),
                (at("70min") + NS, 50.0), (at("80min") + NS, 0.0), (at("90min") + NS, np.nan)]
HAND_EXHAUSTED = (at("80min") + NS, at("90min") + NS, 0.0)
END = at("3h")


def steps(line):
    """``[(x, y), ...]`` where the drawn step line changes value (x naive UTC), and its last x."""
    x = pd.to_datetime(np.asarray(line.get_xdata()))
    y = np.asarray(line.get_ydata(), dtype=float)
    same = np.r_[False, (y[1:] == y[:-1]) | (np.isnan(y[1:]) & np.isnan(y[:-1]))]
    return [(x[i], y[i]) for i in np.flatnonzero(~same)], x[-1]


@pytest.fixture
def timeline():
    ev = hand_log()
    fig = plt.figure()
    ax = plot_timeline(replay(ev, SLO_48), slo=SLO_48,
                       spans=status_spans(ev, SLO_48, end=END.tz_localize("UTC"), steps=True),
                       ax=fig.add_subplot())
    yield ax
    plt.close(fig)


def gid_line(panel, gid):
    return next(ln for ln in panel.get_lines() if ln.get_gid() == gid)


def test_the_success_rate_changes_at_each_expiry_and_breaks_over_the_empty_window(timeline):
    drawn, last_x = steps(gid_line(timeline, "success_rate"))
    assert [x for x, _ in drawn] == [x for x, _ in HAND_SUCCESS]  # to the nanosecond
    np.testing.assert_allclose([y for _, y in drawn], [y for _, y in HAND_SUCCESS], rtol=1e-12)
    assert last_x == END  # the NaN holds over [01:30 + 1 ns, 03:00): the no-traffic span
    bottom = timeline.panels[-1]
    (quiet,) = [c for c in bottom.collections if c.get_gid() == "status_no_traffic"]
    (path,) = quiet.get_paths()
    np.testing.assert_allclose([path.vertices[:, 0].min(), path.vertices[:, 0].max()],
                               mdates.date2num([HAND_SUCCESS[-1][0], END]), rtol=0, atol=1e-9)


def test_the_budget_line_is_at_or_below_zero_under_the_exhausted_strip(timeline):
    bottom = timeline.panels[-1]
    (strip,) = [c for c in bottom.collections if c.get_gid() == "exhausted_strip"]
    (path,) = strip.get_paths()
    lo, hi = path.vertices[:, 0].min(), path.vertices[:, 0].max()
    start, stop, value = HAND_EXHAUSTED
    np.testing.assert_allclose([lo, hi], mdates.date2num([start, stop]), rtol=0, atol=1e-9)
    drawn, _ = steps(gid_line(bottom, "budget_remaining"))
    x = mdates.date2num([d for d, _ in drawn])
    y = np.array([v for _, v in drawn])
    # the values held over the strip: the step running at its start and those starting in it
    under = (x < hi - 1e-9) & (np.r_[x[1:], np.inf] > lo + 1e-9)
    assert under.any() and bool((y[under] <= 0).all())
    assert y[under].tolist() == pytest.approx([value])


def test_burn_rate_follows_the_same_clock(timeline):
    drawn, _ = steps(gid_line(timeline.burn_ax, "burn_rate"))
    # burn = (failures / total) / 0.52, hand: 0, 0.25, 1/3, 0.5, 1 over the same steps
    hand = [0.0, 0.25, 1 / 3, 0.5, 1.0]
    np.testing.assert_allclose([y for _, y in drawn[:-1]], np.array(hand) / 0.52, rtol=1e-12)
    assert np.isnan(drawn[-1][1])
