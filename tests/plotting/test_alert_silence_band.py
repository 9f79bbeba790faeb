"""The alert chart's silences read as bands, not as the unseen incidents' dashed lines
(stop 59). A group with an event every 3 h under a 1 h window is silent 2 h of every 3: drawn
as grey rules alone (no fill), its ~100 boxes looked like long dashed grey lines across the
row, the look the legend gives an unseen incident (hollow, dashed outline). Now a silence is a
light grey filled band (its legend box filled alike); the unseen incident keeps its dashed
hollow bar.

Oracles: the silences' bounds worked out by hand from the events (below), the unseen reading
by the rule of budgetlab.alerts.unseen applied by hand; the styles those the legend keys."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events  # noqa: E402
from budgetlab.plotting import plot_alerts  # noqa: E402

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")


def _num(minutes: float) -> float:
    return float(mdates.date2num((T0 + pd.Timedelta(minutes=minutes)).tz_localize(None)))


def test_recurring_silences_are_filled_bands_apart_from_the_unseen_style() -> None:
    """One good event at 00:00, 03:00, 06:00 and 09:00 (1 min bins), a 1 h window: a bin is
    in the window through the evaluation 60 min after its end, so the windows are empty from
    01:01 to 03:01, 04:01 to 06:01 and 07:01 to 09:01 (the grid ends at 09:01). U (01:30 ..
    02:00, grace 30 min: to 02:30) lies inside the first silence: unseen."""
    ts = pd.DatetimeIndex([T0 + pd.Timedelta(hours=h) for h in (0, 3, 6, 9)])
    bins = bin_events(as_events(ts, [True] * 4), "1min")
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("1h", burn=4.5))
    inc = pd.DataFrame({"incident_id": ["U"], "start": [T0 + pd.Timedelta("1h30min")],
                        "end": [T0 + pd.Timedelta("2h")]})
    ax = plot_alerts(ep, incidents=inc, bins=bins, grace="30min")
    plt.close(ax.figure)  # the artists stay; the next test draws on a figure of its own
    marks = [c for c in ax.collections if c.get_gid() == "no_traffic"]
    assert len(marks) == 1
    spans = [p.get_extents().get_points()[:, 0] for p in marks[0].get_paths()]
    assert [tuple(s) for s in spans] == [
        pytest.approx((_num(a), _num(b)), abs=1e-9) for a, b in ((61, 181), (241, 361),
                                                                   (421, 541))]
    # a band: filled (alpha > 0), its edges not dashed
    face = marks[0].get_facecolor()
    assert len(face) and all(c[3] > 0 for c in face)
    assert all(ls[1] is None for ls in marks[0].get_linestyles())  # solid: no dash pattern
    # the unseen incident keeps the hollow dashed bar
    bar = next(c for c in ax.containers if c.get_label() == "incidents").patches[0]
    assert bar.get_gid() == "incident_unseen"
    assert bar.get_facecolor()[3] == 0 and bar.get_linestyle() == "--"
    # the legend keys them apart: the silence's box filled as its bands, the unseen one hollow
    keys = {h.get_gid(): h for h in ax.alert_keys}
    assert to_rgba(keys["no_traffic"].get_facecolor()) == pytest.approx(tuple(face[0]))
    assert keys["unseen"].get_facecolor()[3] == 0
