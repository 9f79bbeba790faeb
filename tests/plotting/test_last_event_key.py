"""The last event of a group that stopped sending is keyed in the timeline's legend, outside the
plot area, not written in the top panel beside its dashed line (``replay --plot``): there the
words ran over a line at their height (a success rate at 100 %, the target), as strangers found
on a 7 d replay.

Hand log: ``stops`` one success an hour from 2026-01-01 00:00 to 2026-01-09 00:00, 48 h before
``steady``'s last event (2026-01-11 00:00): its success rate runs at 100 % across the top panel,
at the height the label was written at."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, as_events, replay, status_spans  # noqa: E402
from budgetlab.plotting import plot_timeline  # noqa: E402
from budgetlab.plotting.last_event import LAST_EVENT_GID, mark_last_event, stopped_at  # noqa: E402
from budgetlab.plotting.timeline_marks import merge_legends  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-01-01", tz="UTC")
WORDS = "last event (stopped sending)"


def _events():
    steady = pd.DataFrame({"ts": pd.date_range(T0, periods=241, freq="h"), "svc": "steady"})
    last = pd.Timestamp("2026-01-09", tz="UTC")
    stops = pd.DataFrame({"ts": pd.date_range(T0, last, freq="h"), "svc": "stops"})
    frame = pd.concat([steady, stops]).sort_values("ts", kind="stable").reset_index(drop=True)
    return as_events(frame["ts"], np.ones(len(frame), dtype=bool),
                     groups={"svc": frame["svc"].to_numpy()})


def _texts(fig, words):
    """Every drawn text of ``fig`` reading ``words`` (titles, annotations, legend entries)."""
    return [t for t in fig.findobj(matplotlib.text.Text) if t.get_text() == words]


def test_the_last_event_is_keyed_in_the_legend_clear_of_every_line():
    ev = _events()
    slo = SLO(target=0.95, window="7d")
    spans = status_spans(ev, slo, by="svc")
    mine = ev[ev["svc"] == "stops"].reset_index(drop=True)
    top = plot_timeline(replay(mine, slo), slo=slo)
    panels = top.panels
    mark_last_event(panels, stopped_at(ev, spans, ["svc"], ("stops",)), WORDS)
    merge_legends([top])  # as replay --plot lays the legends of its groups
    fig = top.figure
    fig.canvas.draw()
    (said,) = _texts(fig, WORDS)  # said once
    legend = panels[0].get_legend()
    assert said in legend.get_texts()  # a legend entry
    # outside every panel's plot area: no line of any panel runs under it
    box = said.get_window_extent()
    for p in panels:
        assert not box.overlaps(p.get_window_extent())
    # its key a vertical tick in the line's grey, as the dashed line drawn at the last event
    key = legend.legend_handles[legend.get_texts().index(said)]
    (line,) = [ln for ln in panels[0].get_lines() if ln.get_gid() == LAST_EVENT_GID]
    assert (key.get_marker(), key.get_color()) == ("|", line.get_color())
