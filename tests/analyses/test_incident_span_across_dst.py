"""An incident across the autumn change of the clocks, 02:15 CEST to 02:45 CET on 2026-10-25 in
Europe/Berlin (00:15 to 01:45 UTC: 90 minutes; the clocks go back from 03:00 CEST to 02:00 CET at
01:00 UTC). The figure's title and its budget legend said "2026-10-25 02:15–02:45
(Europe/Berlin)", which reads as 30 minutes; each end now carries its own zone, as the summary
says them, and a span inside the repeated hour carries the zone it is in."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from budgetlab import SLO, as_events, incident_report
from budgetlab.analyses.incident_plot import span_title

START, END = pd.Timestamp("2026-10-25 00:15", tz="UTC"), pd.Timestamp("2026-10-25 01:45", tz="UTC")


def test_each_end_of_the_title_carries_its_zone_across_the_change():
    assert span_title(START, END, "Europe/Berlin") == \
        "2026-10-25 02:15 CEST – 02:45 CET (Europe/Berlin)"
    # 00:15 .. 00:45 UTC: 02:15 .. 02:45 CEST, the first pass through the repeated hour
    assert span_title(START, START + pd.Timedelta("30min"), "Europe/Berlin") == \
        "2026-10-25 02:15–02:45 CEST (Europe/Berlin)"
    # 01:15 .. 01:45 UTC: 02:15 .. 02:45 CET, the second pass
    assert span_title(END - pd.Timedelta("30min"), END, "Europe/Berlin") == \
        "2026-10-25 02:15–02:45 CET (Europe/Berlin)"


def test_the_figure_title_and_budget_legend_say_both_zones():
    # one event a minute, 2026-10-24 20:00 .. 2026-10-25 03:59 UTC; every one of 00:20 .. 00:39
    # UTC fails, so the 1 h tracker changes status during the incident
    ts = pd.date_range("2026-10-24 20:00", "2026-10-25 03:59", freq="min", tz="UTC")
    bad = (ts >= pd.Timestamp("2026-10-25 00:20", tz="UTC")) & (
        ts < pd.Timestamp("2026-10-25 00:40", tz="UTC"))
    report = incident_report(as_events(ts, ~bad), SLO(target=0.9, window="1h"), START, END,
                             tz="Europe/Berlin")
    fig = report.plot()
    try:
        assert fig.get_suptitle() == "Incident 2026-10-25 02:15 CEST – 02:45 CET (Europe/Berlin)"
        legend = [t.get_text() for ax in fig.axes if ax.get_legend() is not None
                  for t in ax.get_legend().get_texts() if "during the incident" in t.get_text()]
        assert len(legend) == 1
        assert "during the incident,\n2026-10-25 02:15 CEST – 02:45 CET (Europe/Berlin)" in \
            legend[0]
    finally:
        plt.close(fig)
