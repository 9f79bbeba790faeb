"""On a long log drawn on fewer pixel columns than its steps, the budget panel must not read as
exhausted when the log mostly is not. Hand-built log: an event every 10 min for 200 days, a
failure at 04:00, 12:00 and 20:00 each day (600 failures), window 1 h, target 0.95: the window
holds 6 or 7 events (a budget of 0.3 to 0.35 failures), so each failure exhausts it for exactly
the hour it stays in (it leaves 1 ns after ts + 1 h) and the budget left is 0 then, 100 %
otherwise. By hand: 600 h exhausted of the 4,799 h 50 min observed, 12.5 %; the budget's mean
over time 87.5 %. Drawn on 100 columns (``max_points=400``) of 48 h, each column holds about six
failures: every column touched EXHAUSTED (the strip marks each, as promised for a one-pixel
stretch), but each column held HEALTHY longest."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, replay, status_spans, transitions
from budgetlab.plotting import plot_timeline

pytestmark = pytest.mark.usefixtures("close_figures")

SHARE_EXHAUSTED = 600 / (200 * 24 - 1 / 6)  # 0.12500...
SLO_1H = SLO(target=0.95, window="1h")


def _drawn():
    ts = pd.date_range("2026-01-01", periods=200 * 144, freq="10min", tz="UTC")
    ok = ~((ts.minute == 0) & np.isin(ts.hour, [4, 12, 20]))
    ev = as_events(ts, ok)
    states = replay(ev, SLO_1H)
    fig, ax = plt.subplots(figsize=(10, 4))
    plot_timeline(states, spans=status_spans(ev, SLO_1H, steps=True), ax=ax, max_points=400,
                  transitions=transitions(states))
    fig.canvas.draw()
    x0, x1 = mdates.date2num(ts[[0, -1]].tz_localize(None).to_numpy())
    return ax, x0, x1


def _covered(bottom, gid: str) -> float:
    """The days the bars of ``gid`` cover on the bottom panel."""
    total = 0.0
    for c in bottom.collections:
        if c.get_gid() == gid:
            for path in c.get_paths():
                xs = path.vertices[:, 0]
                total += float(xs.max() - xs.min())
    return total


def test_the_bands_show_the_time_in_each_status_and_the_strip_every_exhausted_column():
    ax, x0, x1 = _drawn()
    bottom = ax.budget_ax
    span = x1 - x0
    # no column held EXHAUSTED longest: its full-height band covers at most the true share
    assert _covered(bottom, "status_exhausted") / span <= SHARE_EXHAUSTED + 0.01
    assert _covered(bottom, "status_healthy") / span == pytest.approx(1.0, abs=0.01)
    # every column touched EXHAUSTED: the strip along the top says so in each
    assert _covered(bottom, "exhausted_strip") / span == pytest.approx(1.0, abs=0.01)
    labels = [t.get_text() for t in bottom.get_legend().get_texts()]
    assert any(label.startswith("exhausted") for label in labels)  # named: the strip shows it


def test_the_budget_line_is_its_mean_per_column_over_a_light_band_of_its_range():
    ax, x0, x1 = _drawn()
    bottom = ax.budget_ax
    (line,) = [ln for ln in bottom.get_lines() if ln.get_gid() == "budget_remaining"]
    x = mdates.date2num(line.get_xdata())
    y = np.asarray(line.get_ydata(), dtype=float)
    area = np.nansum(y[:-1] * np.diff(x)) / (x[-1] - x[0])  # steps-post: y[i] until x[i + 1]
    assert area == pytest.approx(100 * (1 - SHARE_EXHAUSTED), abs=0.5)  # 87.5 %
    (band,) = [c for c in bottom.collections if c.get_gid() == "budget_range"]
    ys = np.concatenate([p.vertices[:, 1] for p in band.get_paths()])
    assert (ys.min(), ys.max()) == (0.0, 100.0)  # down to 0 and up to 100 in the columns
    # the legend keys the line over a strip of its band (the band is no status of its own)
    (key,) = [h for h in ax.legend_entries[-1] if h.get_gid() == "budget_remaining"]
    assert key.get_label() == "budget remaining (%)"
    assert np.allclose(mcolors.to_rgba(key.band), band.get_facecolor()[0])


def test_the_legend_counts_the_status_changes_with_a_thousands_separator():
    ax, _, _ = _drawn()
    labels = [t.get_text() for t in ax.budget_ax.get_legend().get_texts()]
    assert "1,200 status changes at events (rug)" in labels  # 600 failures, in and out each


def test_column_envelope_and_longest_status_by_hand():
    from budgetlab.plotting._pixels import column_envelope, longest_per_column

    # 0..4: 1.0 for 1, 0.0 for 3 -> mean 0.25, range 0..1; 4..8: no value (NaN)
    edges, mean, low, high = column_envelope(np.array([0, 1, 4, 8]),
                                             np.array([1.0, 0.0, np.nan, 1.0]), 2)
    assert edges.tolist() == [0, 4, 8]
    assert mean[0] == 0.25 and np.isnan(mean[1])
    assert (low[0], high[0]) == (0.0, 1.0)
    # column 0..5: healthy 4, exhausted 1 -> healthy; 5..10: warning 5 -> warning
    held = longest_per_column(np.array([0, 4, 5]), np.array([4, 5, 10]), np.array([0, 3, 1]),
                              0, 10, 2)
    assert held.tolist() == [0, 1]
