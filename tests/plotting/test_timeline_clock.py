"""The timeline on the window's clock: no-traffic spans drawn as such, lines broken there, a lone
event drawn (checked through the artists: the spans from status_spans, the dots at the events)."""

from __future__ import annotations

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from budgetlab import SLO, as_events, replay, status_spans
from budgetlab.plotting import STATUS_HATCHES, plot_timeline


def test_no_traffic_band_lines_broken_and_lone_event():
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:20",
                         "2026-01-10 00:00"], utc=True)
    ev = as_events(ts, [True, False, True, True])
    slo = SLO(target=0.9, window="1h")
    spans = status_spans(ev, slo, end="2026-01-10 01:00")
    fig = plt.figure()
    ax = plot_timeline(replay(ev, slo), slo=slo, spans=spans, ax=fig.add_subplot())
    bottom = ax.panels[-1]
    bands = {c.get_gid(): c for c in bottom.collections if str(c.get_gid()).startswith("status_")}
    assert set(bands) == {"status_healthy", "status_exhausted", "status_no_traffic"}
    # the no-traffic band spans exactly the spans' no_traffic rows (x in matplotlib days)
    quiet = spans[spans["status"] == "no_traffic"]
    x0 = mdates.date2num(quiet["start"].dt.tz_localize(None).to_numpy())
    paths = bands["status_no_traffic"].get_paths()
    lefts = sorted(p.vertices[:, 0].min() for p in paths)
    np.testing.assert_allclose(lefts, sorted(x0), rtol=0, atol=1e-9)
    # the success-rate line breaks after the 00:20 event (NaN), the lone last event is a dot
    line = next(ln for ln in ax.get_lines() if ln.get_gid() == "success_rate")
    assert np.isnan(line.get_ydata().astype(float)).sum() == 1
    dot = next(ln for ln in ax.get_lines() if ln.get_gid() == "success_rate_lone")
    assert len(dot.get_xdata()) == 1 and float(dot.get_ydata()[0]) == 100.0
    # the axis covers the observation, the trailing hour included
    assert ax.get_xlim()[1] >= mdates.date2num(pd.Timestamp("2026-01-10 01:00").to_datetime64())
    labels = [t.get_text() for t in bottom.get_legend().get_texts()]
    assert "no traffic (window empty)" in labels
    plt.close(fig)


def test_no_traffic_cannot_be_read_as_a_status():
    """No traffic is unfilled and ruled horizontally: every status band is filled, hatched (if at
    all) with dots or diagonals; its legend entry is its own, before the statuses."""
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-02 00:00"], utc=True)
    ev = as_events(ts, [True, False, True])
    slo = SLO(target=0.9, window="1h")
    fig = plt.figure()
    ax = plot_timeline(replay(ev, slo), slo=slo, spans=status_spans(ev, slo), ax=fig.add_subplot())
    bottom = ax.panels[-1]
    bands = {c.get_gid(): c for c in bottom.collections if str(c.get_gid()).startswith("status_")}
    quiet = bands.pop("status_no_traffic")
    assert quiet.get_facecolor()[0][3] == 0.0 and set(quiet.get_hatch()) == {"-"}
    assert not set("".join(STATUS_HATCHES.values())) & set("-|+")  # no status hatch has a rule
    assert all(c.get_facecolor()[0][3] > 0 for c in bands.values())
    legend = bottom.get_legend()
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels.index("no traffic (window empty)") < labels.index("healthy")
    (entry,) = [h for h, t in zip(legend.legend_handles, labels, strict=True)
                if t == "no traffic (window empty)"]
    assert np.allclose(entry.get_edgecolor(), quiet.get_edgecolor()[0])
    plt.close(fig)
