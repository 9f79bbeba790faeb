"""``plot_alerts`` on plain figures: the time label only under the chart that shows the dates,
and the tier names (y tick labels) and the y label kept inside a plain 6.4-inch figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from budgetlab import alert_episodes, as_events, bin_events
from budgetlab.plotting import plot_alerts

pytestmark = pytest.mark.usefixtures("close_figures")


def _episodes(regions=("fra", "ams")):
    # 10 h of minutes per region, minutes 300..339 failing: long names make long tier rows
    ts = pd.date_range("2026-01-01", periods=600, freq="1min")
    n = len(regions)
    ok = [not (300 <= i < 340) for i in range(600)]
    events = as_events(ts.repeat(n), [o for o in ok for _ in regions],
                       groups={"region": list(regions) * 600})
    return alert_episodes(bin_events(events, "1min", by=["region"]), 0.9, "workbook")


def test_time_label_only_under_the_bottom_of_stacked_charts():
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True)
    ep = _episodes()
    plot_alerts(ep, ax=top)
    plot_alerts(ep, ax=bottom, tz="Europe/Berlin")
    fig.canvas.draw()
    assert not any(t.get_visible() and t.get_text() for t in top.get_xticklabels())
    assert top.get_xlabel() == ""
    assert bottom.get_xlabel() == "time (Europe/Berlin)"
    # a single chart keeps its label
    assert plot_alerts(ep, ax=plt.subplots()[1]).get_xlabel() == "time (UTC)"


@pytest.mark.parametrize("regions", [("fra", "ams"),
                                     ("frankfurt-main-worker-pool", "amsterdam-west")])
def test_tier_names_lie_inside_a_plain_figure(regions):
    fig, ax = plt.subplots()  # 6.4 x 4.8 in, no layout engine
    plot_alerts(_episodes(regions), ax=ax)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    names = [t for t in ax.get_yticklabels() if t.get_text()]
    # rows by hand: 4 workbook tiers in each of the two regions
    assert len(names) == 8
    assert all(regions[1] in t.get_text() or regions[0] in t.get_text() for t in names)
    for text in [*names, ax.yaxis.label]:
        box = text.get_window_extent(r)
        assert box.x0 >= fig.bbox.x0 and box.x1 <= fig.bbox.x1, text.get_text()
    # the legend on the right is kept whole too
    assert ax.get_legend().get_window_extent(r).x1 <= fig.bbox.x1


def _incidents(*spans):
    return pd.DataFrame({"incident_id": [f"I{i}" for i in range(len(spans))],
                         "start": pd.to_datetime([s for s, _ in spans], utc=True),
                         "end": pd.to_datetime([e for _, e in spans], utc=True)})


def test_incidents_wholly_outside_the_span_are_not_drawn_but_counted():
    import matplotlib.dates as mdates

    from budgetlab.plotting.alert_chart import alert_rows

    ep = _episodes()  # 10 h of minutes: 2026-01-01 00:00 .. 10:00 UTC
    # two incidents before the log (one ends where it starts: 'end' is exclusive), one after
    # it, one across its start
    inc = _incidents(("2025-12-20 00:00", "2025-12-21 00:00"),
                     ("2025-12-31 23:00", "2026-01-01 00:00"),
                     ("2026-01-01 10:00", "2026-01-01 11:00"),
                     ("2025-12-31 23:00", "2026-01-01 06:00"))
    ax = plot_alerts(ep, incidents=inc, ax=plt.subplots()[1])
    assert ax.get_xlim() == pytest.approx((mdates.datestr2num("2026-01-01 00:00"),
                                           mdates.datestr2num("2026-01-01 10:00")))
    drawn = [c for c in ax.containers if c.get_label() == "incidents"]
    assert [len(c.patches) for c in drawn] == [1]  # the one across the start
    assert [t.get_text() for t in ax.texts if t.get_gid() == "incident_name"] == ["I3"]
    assert len([p for p in ax.patches if p.get_gid() == "incident"]) == 1
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "not drawn: 3 incidents wholly\noutside the span evaluated" in labels
    assert "incident" in labels
    # 8 tier rows (4 tiers in 2 regions) and the incident row
    assert alert_rows(ep, incidents=inc) == 9 == len(ax.get_yticks())


def test_no_incident_row_when_every_incident_lies_outside():
    from budgetlab.plotting.alert_chart import alert_rows

    ep = _episodes()
    inc = _incidents(("2025-12-20 00:00", "2025-12-21 00:00"))
    ax = plot_alerts(ep, incidents=inc, ax=plt.subplots()[1])
    assert not [c for c in ax.containers if c.get_label() == "incidents"]
    assert "incidents" not in [t.get_text() for t in ax.get_yticklabels()]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "incident" not in labels
    assert "not drawn: 1 incident wholly\noutside the span evaluated" in labels
    assert alert_rows(ep, incidents=inc) == 8
