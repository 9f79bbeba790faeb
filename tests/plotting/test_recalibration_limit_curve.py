"""plot_recalibration's curve at every limit status: the share of time at ``limit_status`` or
worse as a function of the target, by the candidates' rule, so that each candidate dot sits on
the curve's step (stop 54: at ``critical`` the curve was the rolling success rate's distribution,
which crossed 1 % at 89.8 % while the recommendation was 88.5 % and a dot at 89 % showed 2.6 %
above a curve at 0; stop 56: the curve goes through the candidates' exact shares too).

The hand-built log: one event a minute for 4 days, every 6th failing on the first 2 days, none
after; a 1 h window. From 01:00 (after the warm-up) to 48:05 every window holds 60 events with 10
failures (the first failure of day 2's last window, at 47:05, leaves at 48:05): a rolling rate of
5/6 for 2,825 of the 5,699 evaluated minutes (01:00 .. 95:59), higher after. The seed's status
(budgetlab.budget.figures): budget = n (1 - t), remaining = 1 - f / (n (1 - t)); CRITICAL below
``critical`` = 0.1, WARNING below ``warning`` = 0.5, EXHAUSTED at 0. So a 5/6 window is
CRITICAL or worse at every target above 1 - (1/6) / 0.9 = 22/27 = 0.8148, WARNING or worse
above 1 - (1/6) / 0.5 = 2/3, EXHAUSTED at and above 5/6: there each share of time jumps from 0
to 2,825 / 5,699 (the 1 ns a window holds 61 events at an arrival aside).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.cbook import STEP_LOOKUP_MAP

import budgetlab as bl
from budgetlab.budget.figures import STATUSES
from budgetlab.plotting import plot_recalibration

#: The target from which the 5/6 windows are at the limit status or worse, by hand (above).
CROSSING = {"critical": 22 / 27, "warning": 2 / 3, "exhausted": 5 / 6}
#: Their share of the evaluated time: 01:00 .. 48:05 of 01:00 .. 95:59, in minutes.
SHARE = 2825 / 5699


@pytest.fixture(scope="module")
def events() -> pd.DataFrame:
    n = 4 * 1440
    i = np.arange(n)
    ts = pd.Timestamp("2026-01-05", tz="UTC") + pd.to_timedelta(i, unit="min")
    return bl.as_events(ts, ~((i < 2 * 1440) & (i % 6 == 5)))


def _run(events: pd.DataFrame, limit: str) -> bl.Recalibration:
    # two targets either side of the crossing, shown whatever the grid
    c = CROSSING[limit]
    return bl.recalibrate(events, window="1h", limit_status=limit, n_boot=0,
                          candidates=[round(c - 0.004, 3), round(c + 0.004, 3)])


def _limit_share(r: bl.Recalibration, limit: str) -> pd.Series:
    levels = STATUSES[STATUSES.index(limit):]
    return r.candidates[[f"share_{s}" for s in levels]].sum(axis=1)


@pytest.mark.parametrize("limit", ["critical", "warning", "exhausted"])
def test_the_curve_crosses_where_the_candidates_shares_jump(events, limit):
    r = _run(events, limit)
    d = r.distribution
    # the target column: the crossing at every level below the 5/6 windows' share ...
    low = d[d["probability"] <= 0.49]
    assert low["target"].to_numpy() == pytest.approx(CROSSING[limit], rel=1e-12)
    # ... while the rate is 5/6 there at every limit status
    assert low["success_rate"].to_numpy() == pytest.approx(5 / 6, rel=1e-12)
    share = _limit_share(r, limit).to_numpy()
    t = r.candidates["target"].to_numpy()
    c = CROSSING[limit]
    below, above = t < c, t > c
    assert share[below] == pytest.approx(0.0, abs=1e-9)
    assert share[above & (t < 5 / 6 + 0.001)] == pytest.approx(SHARE, abs=1e-9)
    assert below.any() and above.any()


def test_at_critical_the_rule_recommends_below_the_crossing(events):
    # the grid's fine steps of 0.005 between 0.8 and 0.85: 0.81 <= 22/27 = 0.8148 < 0.815
    r = _run(events, "critical")
    assert r.summary["recommended_target"].iloc[0] == pytest.approx(0.81)


def _drawn_y(line, x: float) -> float:
    """The y of the path matplotlib draws for ``line`` at ``x`` (inside a segment)."""
    xs, ys = STEP_LOOKUP_MAP[line.get_drawstyle()](np.asarray(line.get_xdata(), dtype=float),
                                                    np.asarray(line.get_ydata(), dtype=float))
    i = int(np.searchsorted(xs, x, side="right")) - 1
    return float(ys[i])


@pytest.mark.parametrize("limit", ["critical", "warning"])
def test_the_drawn_curve_steps_at_the_crossing_and_the_dots_sit_on_it(events, limit):
    r = _run(events, limit)
    ax = plot_recalibration(r, ax=plt.figure().gca(), logy=False)
    line = next(ln for ln in ax.lines if ln.get_gid() == "distribution:all")
    dots = next(ln for ln in ax.lines if ln.get_gid() == "candidates:all")
    x = 100 * CROSSING[limit]
    xs, ys = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
    # at 0 up to the crossing (the candidates below it: no time there, but the 1 ns at each
    # arrival, 1.4e-10 %), then the levels
    assert ys[xs < x - 1e-9] == pytest.approx(0.0, abs=1e-9)
    assert xs[ys > 1e-6][0] == pytest.approx(x)  # the curve rises there
    assert _drawn_y(line, x + 0.01) == pytest.approx(49.0)  # the last level below 49.57 %
    # right of the candidate above the crossing: its exact share, 2,825 / 5,699 by hand
    above = round(CROSSING[limit] + 0.004, 3) * 100
    assert _drawn_y(line, above + 0.01) == pytest.approx(100 * SHARE, abs=1e-7)
    assert ax.get_ylabel() == f"share of time {limit} or worse (%)"
    compared = 0
    for dx, dy in zip(dots.get_xdata(), dots.get_ydata(), strict=True):
        assert _drawn_y(line, dx) == pytest.approx(dy, abs=1e-9)  # on the line
        compared += 1
    assert compared >= 2
    plt.close("all")


def test_a_table_without_the_target_column_is_refused_beyond_exhausted(events):
    r = _run(events, "critical")
    old = bl.Recalibration(summary=r.summary, candidates=r.candidates,
                           distribution=r.distribution.drop(columns="target"),
                           bootstrap=r.bootstrap, settings=r.settings)
    with pytest.raises(bl.errors.InputError, match="recompute the result with "
                       r"budgetlab.recalibrate\(\)"):
        plot_recalibration(old, ax=plt.figure().gca())
    plt.close("all")
