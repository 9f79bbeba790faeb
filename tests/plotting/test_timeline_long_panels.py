"""On a long log drawn on fewer pixel columns than its steps, the success-rate and burn-rate panels
must show the rate the log held, not a block from its lowest dip to 100 %. Hand-built log: an
event every 10 min for 200 days (28,800 events), the 51st of every 100 a failure (288 failures,
one every 1,000 min), window 1 h, target 0.95.

By hand. On the window's clock (``spans=``) each failure stays in the window for the hour after it
(it leaves 1 ns after ``ts + 1h``) among 6 events: success 5/6, burn (1/6) / 0.05 = 3.33x, for
60 min of each 1,000: a loss of 60 × 1/6 = 10 min. Per event (``states`` alone), each of the 7
events from the failure to ``ts + 1h`` holds 6/7 (burn 2.857x) for 10 min: a loss of 70 × 1/7 = 10
min. Either way the time-weighted mean success rate is 1 - 10/1000 = 99 % and the burn rate
0.01 / 0.05 = 0.2x. Drawn on 96 columns (``max_points=384``) of 3,000 min (3 periods; the
columns' edges drift by under 10 min over the log, the failures sit 500 min from a period's
edge), each column holds exactly 3 failures: its mean is 99 % (0.2x), its range 5/6 (6/7) to 100 %
and 0 to 3.33x (2.857x).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, replay, status_spans
from budgetlab.plotting import plot_timeline

pytestmark = pytest.mark.usefixtures("close_figures")

SLO_1H = SLO(target=0.95, window="1h")
TS = pd.date_range("2026-01-01", periods=288 * 100, freq="10min", tz="UTC")
OK = np.arange(len(TS)) % 100 != 50


def _drawn(clock: bool, keep: np.ndarray | None = None, max_points: int = 384):
    ts, ok = (TS, OK) if keep is None else (TS[keep], OK[keep])
    ev = as_events(ts, ok)
    states = replay(ev, SLO_1H)
    fig, ax = plt.subplots(figsize=(10, 4))
    spans = status_spans(ev, SLO_1H, steps=True) if clock else None
    plot_timeline(states, spans=spans, ax=ax, max_points=max_points)
    fig.canvas.draw()
    return ax


def _line(panel, gid):
    (line,) = [ln for ln in panel.get_lines() if ln.get_gid() == gid]
    return mdates.date2num(line.get_xdata()), np.asarray(line.get_ydata(), dtype=float)


def _band(panel, gid):
    (band,) = [c for c in panel.collections if c.get_gid() == gid]
    return band, np.concatenate([p.vertices for p in band.get_paths()])


@pytest.mark.parametrize("clock, low_success, high_burn", [
    (True, 5 / 6, (1 / 6) / 0.05),  # the window's clock: 5 of 6 for the failure's hour
    (False, 6 / 7, (1 / 7) / 0.05),  # per event: 6 of 7 at each of the 7 events after it
])
def test_each_column_draws_the_mean_rate_over_a_band_of_its_range(clock, low_success, high_burn):
    ax = _drawn(clock)
    for panel, gid, band_gid, mean, low, high, scale in [
        (ax, "success_rate", "success_range", 0.99, low_success, 1.0, 100),
        (ax.burn_ax, "burn_rate", "burn_range", 0.2, 0.0, high_burn, 1),
    ]:
        x, y = _line(panel, gid)
        assert len(y) == 96 + 1  # one step per column and the end: no extremes, no gap
        # every column holds 3 failures: its mean is the log's, 99 % (0.2x), never the dips
        # (30 min lost in a column of 2,999.9 min, not 3,000: 0.2000069x, within 1e-4)
        np.testing.assert_allclose(y, mean * scale, rtol=1e-4)
        band, vertices = _band(panel, band_gid)
        ys = vertices[:, 1]
        assert (ys.min(), ys.max()) == (pytest.approx(low * scale), pytest.approx(high * scale))
        lo, hi = panel.get_ylim()
        assert lo < low * scale and high * scale < hi  # the band is within the panel
        # keyed with the line, over a strip of the band's colour
        (key,) = [h for h in ax.legend_entries[ax.panels.index(panel)] if h.get_gid() == gid]
        assert np.allclose(mcolors.to_rgba(key.band), band.get_facecolor()[0])
        (line,) = [ln for ln in panel.get_lines() if ln.get_gid() == gid]
        assert (key.get_color(), key.get_label()) == (line.get_color(), line.get_label())
    # the target and the 1x line, and their legend entries, are kept
    assert [ln.get_gid() for ln in ax.get_lines()].count("target") == 1
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "target 95%" in labels
    assert any(ln.get_gid() == "burn_one" for ln in ax.burn_ax.get_lines())


def test_a_gap_of_over_a_column_breaks_every_line_and_its_band():
    """No event from day 100 12:00 to day 103 00:00 (60 h: 1.25 columns of 48 h at
    ``max_points=400``, covering none whole): each line and its band break over it; before, the
    budget's mean per column drew across it (only a whole column without a value broke it)."""
    t0 = TS[0]
    start, end = t0 + pd.Timedelta(days=100, hours=12), t0 + pd.Timedelta(days=103)
    keep = (TS < start) | (TS >= end)
    ax = _drawn(False, keep, max_points=400)
    last_before = TS[keep][TS[keep] < start][-1]
    inside = mdates.date2num(pd.DatetimeIndex([last_before + pd.Timedelta(minutes=1),
                                               start + pd.Timedelta(hours=30),
                                               end - pd.Timedelta(minutes=1)]).tz_localize(None))
    for panel, gid, band_gid in [(ax, "success_rate", "success_range"),
                                 (ax.burn_ax, "burn_rate", "burn_range"),
                                 (ax.budget_ax, "budget_remaining", "budget_range")]:
        x, y = _line(panel, gid)
        held = y[np.searchsorted(x, inside, side="right") - 1]  # steps-post: the value held
        assert np.isnan(held).all(), gid
        band, _ = _band(panel, band_gid)
        for path in band.get_paths():  # each unbroken piece of the band ends before the gap
            xs = path.vertices[:, 0]
            assert not ((xs.min() < inside) & (inside < xs.max())).any(), band_gid
