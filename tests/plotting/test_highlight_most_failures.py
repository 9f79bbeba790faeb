"""Stop 60: the compare-windows and recalibrate figures coloured the groups with the most events;
among near-equal heavy groups that choice was arbitrary, and the one that failed most (the
stranger's sk_heavy_00: 91.4 % success, EXHAUSTED 99.9 % of the time) was drawn grey. They now
colour as ``replay --plot`` draws: the most failures first, then the most events, and the
legend's grey entry says so."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from budgetlab import SLO, as_events, compare_windows, recalibrate
from budgetlab.plotting import plot_recalibration, plot_window_comparison

GREY = "other (2 groups; fewer failures, then events)"


def _table() -> pd.DataFrame:
    """Eight groups under 1 h and 24 h: g0 .. g6 with 1,000 .. 994 events and 20 failures each,
    outlier with 990 events and 86 failures (91.3 % success)."""
    names = [f"g{i}" for i in range(7)] + ["outlier"]
    events = [1000 - i for i in range(7)] + [990]
    fails = [20] * 7 + [86]
    t = pd.DataFrame({"g": names * 2, "window": ["1h"] * 8 + ["1d"] * 8,
                      "min_dwell": pd.Timedelta(0), "events": events * 2, "failures": fails * 2,
                      "hours": 300.0, "transitions_per_day": np.arange(16, dtype=float),
                      "share_exhausted": 0.1})
    t.attrs["by"] = ["g"]
    return t


def test_the_window_comparison_colours_the_most_failures_first():
    ax = plot_window_comparison(_table(), ax=plt.figure().gca())
    coloured = {ln.get_gid().split(":", 1)[1] for ln in ax.lines
                if str(ln.get_gid()).startswith("transitions_per_day:")}
    # by hand: 7 colours, 6 kept: outlier (86 failures), then g0 .. g4 (20 each, most events)
    assert coloured == {"outlier", "g0", "g1", "g2", "g3", "g4"}
    legend = [x.get_text() for x in ax.get_legend().get_texts()]
    assert GREY in legend
    plt.close("all")


def test_compare_windows_counts_the_failures_of_the_evaluated_span():
    # one event every 10 min for 3 h (19), failing at 30, 70, 120 and 170 min; under 1 h the
    # first hour is warm-up: 13 events (60 .. 180 min) evaluated, 3 failures among them
    ts = pd.date_range("2026-05-04", periods=19, freq="10min", tz="UTC")
    ok = ~np.isin(np.arange(19), [3, 7, 12, 17])
    t = compare_windows(as_events(ts, ok), SLO(target=0.9), ["1h"])
    assert (int(t.loc[0, "events"]), int(t.loc[0, "failures"])) == (13, 3)


def test_the_recalibration_colours_the_most_failures_first():
    # eight groups, one event every 2 min in turn over 3 days (2,160 each; outlier 2,100: its
    # last 60 left out); g0 .. g6 fail every 100th event, outlier every 10th
    n = 8 * 2160
    ts = pd.date_range("2026-05-04", periods=n, freq="15s", tz="UTC")
    names = np.array([f"g{i}" for i in range(7)] + ["outlier"])[np.arange(n) % 8]
    idx = np.arange(n) // 8
    keep = ~((names == "outlier") & (idx >= 2100))
    ok = np.where(names == "outlier", idx % 10 != 0, idx % 100 != 0)
    ev = as_events(ts[keep], ok[keep], groups={"k": names[keep]})
    # 30 min (g63recal): under 1 h the window's rule withholds g0 .. g6 (30 events a window, one
    # failure puts it at 96.7 %, below their Wilson low ~98.5 %, for 1 h of 71 h, 1.4 % > 1 %),
    # and plot_recalibration draws no group without a recommendation; 30 min of 71.5 h is 0.7 %
    r = recalibrate(ev, by="k", window="30min", target=0.95, n_boot=0)
    ax = plot_recalibration(r, ax=plt.figure().gca())
    coloured = {str(ln.get_gid()).split(":", 1)[1] for ln in ax.lines
                if str(ln.get_gid()).startswith("distribution:")}
    # by hand: outlier 210 failures, each other group 22 (and 2,160 events): the outlier is
    # coloured, and 5 of g0 .. g6, the first ones (ties in both)
    assert coloured == {"outlier", "g0", "g1", "g2", "g3", "g4"}
    assert GREY in [" ".join(x.get_text().split()) for x in ax.get_legend().get_texts()]
    plt.close("all")
