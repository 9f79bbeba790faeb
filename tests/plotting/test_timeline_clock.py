"""The timeline on the window's clock: no-traffic spans drawn as such, lines broken there, a lone
event drawn (checked through the artists: the spans from status_spans, the dots at the events)."""

from __future__ import annotations

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from budgetlab import SLO, as_events, replay, status_spans
from budgetlab.plotting import STATUS_HATCHES, plot_timeline


def test_no_traffic_band_lines_broken_and_last_event_s_window():
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:20",
                         "2026-01-10 00:00"], utc=True)
    ev = as_events(ts, [True, False, True, True])
    slo = SLO(target=0.9, window="1h")
    spans = status_spans(ev, slo, end="2026-01-10 01:00", steps=True)
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
    # the success-rate line breaks once, over the empty window (from 01:20 + 1 ns, when the 00:20
    # event leaves, to the next event); the last event alone in its window is a step at 100 %
    # over its hour, to the observation's end (no dot: it is not alone on the clock)
    line = next(ln for ln in ax.get_lines() if ln.get_gid() == "success_rate")
    y = line.get_ydata().astype(float)
    x = mdates.date2num(line.get_xdata())
    (gap,) = np.flatnonzero(np.isnan(y))
    np.testing.assert_allclose(x[gap:gap + 2], mdates.date2num(
        pd.to_datetime(["2026-01-01 01:20", "2026-01-10 00:00"]).to_numpy()), rtol=0, atol=1e-9)
    np.testing.assert_allclose(x[-2:], mdates.date2num(
        pd.to_datetime(["2026-01-10 00:00", "2026-01-10 01:00"]).to_numpy()), rtol=0, atol=1e-9)
    assert y[-2:].tolist() == [100.0, 100.0]
    assert not any(ln.get_gid() == "success_rate_lone" for ln in ax.get_lines())
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
    ax = plot_timeline(replay(ev, slo), slo=slo, spans=status_spans(ev, slo, steps=True),
                       ax=fig.add_subplot())
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
