"""The incident report of a scope that begins later than the log: the note on history counts
from the log's first event, not from the scope's (on the Elastic Apache log, ``--by method
--scope method=POST`` said "the data start 0 s before the report's window"), and the traffic the
period's budget is extrapolated from is the scope's whole log over its time with traffic (it
said 7 POST events a day, on calendar time, where the log held 4 in 2.3 days)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.analyses.incident import incident_report


def _events() -> pd.DataFrame:
    """key a: one event every 10 min, 2026-01-01 00:00 .. 2026-01-03 00:00, all successes; key b:
    one an hour, 2026-01-02 10:00 .. 20:00, those of 12:00 and 13:00 failed."""
    a = pd.date_range("2026-01-01", "2026-01-03", freq="10min", tz="UTC")
    b = pd.date_range("2026-01-02 10:00", "2026-01-02 20:00", freq="1h", tz="UTC")
    ok = np.ones(len(a) + len(b), dtype=bool)
    ok[len(a) + 2:len(a) + 4] = False
    return bl.as_events(a.append(b), ok, groups={"key": ["a"] * len(a) + ["b"] * len(b)})


def test_a_late_scope_counts_its_traffic_over_the_logs_span():
    """Incident 12:00 .. 14:00 on 2026-01-02 in scope key=b, context 1 h: the report's window is
    11:00 .. 15:00; the workbook policy's 3 d window needs history from 2025-12-30 11:00, before
    the log. By hand: the budget is carried from the whole log in scope, its first to its last
    event, b's 10:00 .. 20:00 on 2026-01-02, 10 h, holding 11 events. Its time with traffic (the
    1 h window holds one of b's events: one an hour) is all of it, 10 h: b's traffic ran at 26.4
    a day while it ran, and 10 h are under the day a rate per day needs, so the period's figures
    are withheld. (Before: the replayed span 2026-01-01 00:00 .. 2026-01-02 15:00, 39 h, 5 of b's
    events in 5 h with traffic.) The data start 1 d 11 h before the report's window."""
    rep = incident_report(_events(), bl.SLO(target=0.9, window="1h"), "2026-01-02 12:00",
                          "2026-01-02 14:00", by="key", scope="key=b", context="1h")
    row = rep.budget.iloc[0]
    assert (row["log_start"], row["log_end"]) == (
        pd.Timestamp("2026-01-02 10:00", tz="UTC"), pd.Timestamp("2026-01-02 20:00", tz="UTC"))
    assert (row["log_events"], row["log_hours"], row["log_traffic_hours"]) == (11, 10.0, 10.0)
    assert row[["period_events", "period_budget", "period_budget_pct"]].isna().all()
    assert ("only 10 h of sending time in the whole log in scope (11 events in it)"
            in rep.budget.attrs["budget_note"])
    assert "events a day" not in rep.summary
    assert rep.notes[0].startswith("the data start 1 d 11 h before the report's window")


def test_a_log_beginning_inside_the_window_says_so_not_zero_seconds():
    """The same incident with the log cut at 2026-01-02 11:30 (key a from then on, key b as
    before): the data start inside the report's window (11:00 .. 15:00), not "0 s before" it."""
    ev = _events()
    ev = ev[ev["ts"] >= pd.Timestamp("2026-01-02 11:30", tz="UTC")].reset_index(drop=True)
    rep = incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-01-02 12:00",
                          "2026-01-02 14:00", by="key", scope="key=b", context="1h")
    assert rep.notes[0].startswith("the data start only at 2026-01-02 11:30:00 UTC, inside the "
                                   "report's window (the incident and its context), with none of "
                                   "the 3 d of history the longest window needs")


@pytest.mark.parametrize(("start", "end", "where"), [
    ("2026-01-02 12:00", "2026-01-02 14:00", "before the incident ended: the incident's figures "
                                             "count only its part before that"),
    ("2026-01-02 14:00", "2026-01-02 14:30", "before the incident began: the log does not cover "
                                             "the incident"),
    ("2026-01-02 10:00", "2026-01-02 11:00", "inside the context after the incident"),
])
def test_a_log_ending_inside_the_window_says_so(start, end, where):
    """The log cut before 2026-01-02 13:00: its last event is key a's of 12:50. The report's
    window (the incident and 2 h of context) goes on after it; the replay reads the rest as no
    traffic, which the log cannot tell (before, an incident after the log's end was reported with
    "there were no events during the incident" alone)."""
    ev = _events()
    ev = ev[ev["ts"] < pd.Timestamp("2026-01-02 13:00", tz="UTC")].reset_index(drop=True)
    rep = incident_report(ev, bl.SLO(target=0.9, window="1h"), start, end, by="key",
                          context="2h")
    said = [n for n in rep.notes if n.startswith("the data end")]
    assert said == [f"the data end at 2026-01-02 12:50:00 UTC, {where}; after it the log holds no "
                    "events (the log ended, not the traffic), so the statuses, burns and alerts "
                    "after it are not production's."]


def test_a_log_going_on_after_the_window_has_no_end_note():
    rep = incident_report(_events(), bl.SLO(target=0.9, window="1h"), "2026-01-02 12:00",
                          "2026-01-02 14:00", by="key", context="1h")
    assert not [n for n in rep.notes if n.startswith("the data end")]


def test_the_figure_hatches_the_time_after_the_logs_end():
    """The log cut before 2026-01-02 13:00 (last event 12:50), incident 12:00 .. 14:00 with 2 h
    of context: the window runs to 16:00. Every panel hatches 12:50 .. 16:00 (the tracker's
    clock running on after the data), and the top panel's legend keys "no data: the log ends";
    a log that runs past the window has neither."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.dates as mdates
    import matplotlib.pyplot as plt

    ev = _events()
    ev = ev[ev["ts"] < pd.Timestamp("2026-01-02 13:00", tz="UTC")].reset_index(drop=True)
    rep = incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-01-02 12:00",
                          "2026-01-02 14:00", by="key", context="2h")
    assert rep.data_end == pd.Timestamp("2026-01-02 12:50", tz="UTC")
    fig = rep.plot()
    spans = [p for ax in fig.axes for p in ax.patches if p.get_gid() == "data_end"]
    panels = [ax for ax in fig.axes if any(p.get_gid() == "data_end" for p in ax.patches)]
    assert len(panels) == len(spans) >= 4  # every time panel: the timeline's, alerts, buckets
    for p in spans:
        x0, x1 = p.get_x(), p.get_x() + p.get_width()  # a Rectangle in data units (days)
        assert mdates.num2date(x0) == pd.Timestamp("2026-01-02 12:50", tz="UTC")
        assert mdates.num2date(x1) == pd.Timestamp("2026-01-02 16:00", tz="UTC")
    # keyed once in the top panel's legend, never drawn over the panels (nor past them)
    keyed = [t.get_text() for ax in fig.axes if ax.get_legend() is not None
             for t in ax.get_legend().get_texts()]
    assert keyed.count("no data: the log ends") == 1
    assert not [t for ax in fig.axes for t in ax.texts if "no data" in t.get_text()]
    plt.close(fig)
    whole = incident_report(_events(), bl.SLO(target=0.9, window="1h"), "2026-01-02 12:00",
                            "2026-01-02 14:00", by="key", context="1h")
    assert whole.data_end is None
    fig = whole.plot()
    assert not [p for ax in fig.axes for p in ax.patches if p.get_gid() == "data_end"]
    plt.close(fig)
