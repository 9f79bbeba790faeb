"""A silence far shorter than a pixel column stays visible on the timeline of the window's
clock: its no-traffic band is at least one column of the panel wide (whether the bands are
reduced to the columns or drawn exactly) and outlined, as its legend box is.

The oracle is by hand: events every 5 s over 2 days (2026-03-02 .. 04), none in 18:00..18:01 on
the first day; with a 30 s window the window stands empty from 30 s after the last event before
the silence (17:59:55 + 30 s = 18:00:25; the window holds ``(t - 30 s, t]``, so from 1 ns
after it) to the first event after it (18:01:00), 35 s, while a
column is the observation (first to last event: 2 days - 5 s = 172,795 s) / columns (with
``max_points=4 * columns``): 432 s at 400 columns."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.plotting import plot_timeline

matplotlib.use("Agg")
LO, HI = pd.Timestamp("2026-03-02", tz="UTC"), pd.Timestamp("2026-03-04", tz="UTC")


@pytest.fixture(scope="module")
def replayed():
    t = pd.date_range(LO, HI, freq="5s", inclusive="left")
    t = t[(t < "2026-03-02 18:00") | (t >= "2026-03-02 18:01")]
    events = bl.read_events(pd.DataFrame({"ts": t, "outcome": "success"}))
    slo = bl.SLO(target=0.95, window="30s")
    spans = bl.status_spans(events, slo, steps=True)
    quiet = spans[spans["status"] == "no_traffic"]
    assert len(quiet) == 1  # the oracle's silence, 35 s
    assert quiet["start"].iloc[0] == pd.Timestamp("2026-03-02 18:00:25.000000001", tz="UTC")
    assert quiet["end"].iloc[0] == pd.Timestamp("2026-03-02 18:01", tz="UTC")
    return bl.replay(events, slo), slo, spans


@pytest.mark.parametrize("columns", [400, 2], ids=["exact-bands", "bands-per-column"])
def test_a_35_second_silence_is_a_column_wide_and_outlined(replayed, columns):
    import matplotlib.pyplot as plt

    states, slo, spans = replayed
    ax = plot_timeline(states, slo=slo, spans=spans, max_points=4 * columns)
    fig = ax.get_figure(root=True)
    try:
        bottom = fig.axes[2]
        quiet = [c for c in bottom.collections if c.get_gid() == "status_no_traffic"]
        assert len(quiet) == 1
        x = np.concatenate([p.vertices[:, 0] for p in quiet[0].get_paths()])
        width_days = float(x.max() - x.min())  # matplotlib dates: days
        assert width_days * 86_400 >= 172_795 / columns - 1e-3
        assert x.min() <= matplotlib.dates.date2num(pd.Timestamp("2026-03-02 18:00:26"))
        assert float(np.max(quiet[0].get_linewidth())) > 0  # outlined: a line at least
    finally:
        plt.close(fig)
