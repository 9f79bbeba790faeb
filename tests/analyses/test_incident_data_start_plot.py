"""The incident figure marks where the tracker's window reaches before the data's start, as it
marks the time after the data's end: the timeline's panels hatch the span from the data's start
(the report window's start when that is later) to the data's start plus the window (the tracker
table's ``read_from`` when that falls in the incident), keyed once in the timeline's legend; the
alert panel (shaded per tier) and the bucket panels (per bin, no window) are not hatched. The
log: one event at the start of each minute from 10:00 (or 08:00), SLO 99 % over 1 h, the
workbook policy (its 3 d window: every log here starts late). Each span is worked out by hand in
the comments."""

from __future__ import annotations

import matplotlib
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import pandas as pd

from budgetlab import SLO, as_events, incident_report

matplotlib.use("Agg")

T0 = pd.Timestamp("2026-03-02 08:00", tz="UTC")
SLO_99 = SLO(target=0.99, window="1h")
TIMELINE = {"success\nrate (%)", "burn\nrate (×)", "budget\nleft (%)"}
KEY = "window not yet covered by data:\nit reaches before the data's start"


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-03-02 {hhmm}", tz="UTC")


def log(first: int, last: int = 360) -> pd.DataFrame:
    """One event at the start of each minute ``first`` .. ``last - 1`` after 08:00; those of
    10:30 .. 10:39 fail."""
    idx = range(first, last)
    return as_events([T0 + pd.Timedelta(minutes=i) for i in idx],
                     [not 150 <= i < 160 for i in idx])


def hatched(fig, gid: str = "data_start") -> dict[str, list[tuple[pd.Timestamp, pd.Timestamp]]]:
    """Per panel (its y label) that holds any: the x ranges of its patches of ``gid``."""
    out: dict[str, list[tuple[pd.Timestamp, pd.Timestamp]]] = {}
    for ax in fig.axes:
        for p in ax.patches:
            if p.get_gid() == gid:  # an axvspan: a Rectangle in data units (days)
                x0, x1 = p.get_x(), p.get_x() + p.get_width()
                out.setdefault(ax.get_ylabel(), []).append(
                    (pd.Timestamp(mdates.num2date(x0)), pd.Timestamp(mdates.num2date(x1))))
    return out


def keys(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes if ax.get_legend() is not None
            for t in ax.get_legend().get_texts()]


def test_the_timeline_hatches_the_span_its_window_reaches_before_the_data():
    # log 10:00 .. 13:59, incident 10:15 .. 12:00, no context: the report window is the incident.
    # The tracker's 1 h window lies after the data's start from 10:00 + 1 h = 11:00 (read_from,
    # later than 10:15): the timeline hatches [10:15, 11:00], [start, read_from]
    rep = incident_report(log(120), SLO_99, "2026-03-02 10:15", "2026-03-02 12:00",
                          context="0s")
    assert rep.data_start == at("10:00")
    assert rep.tracker["read_from"].iloc[0] == at("11:00")
    fig = rep.plot()
    assert hatched(fig) == {label: [(at("10:15"), at("11:00"))] for label in TIMELINE}
    assert keys(fig).count(KEY) == 1  # keyed once, in the timeline's legend
    assert not hatched(fig, "data_end")
    plt.close(fig)
    # with 1 h of context the window starts at 09:15, before the data: hatched from the data's
    # start, 10:00, to 11:00 (the part of the context before the data is no data: hatched apart)
    rep = incident_report(log(120), SLO_99, "2026-03-02 10:15", "2026-03-02 12:00",
                          context="1h")
    fig = rep.plot()
    assert hatched(fig) == {label: [(at("10:00"), at("11:00"))] for label in TIMELINE}
    assert keys(fig).count(KEY) == 1
    plt.close(fig)


def test_no_hatch_once_the_window_lies_after_the_data_start_and_none_past_the_data_end():
    # log 08:00 .. 13:59, incident 10:00 .. 12:00, 1 h of context: the window starts at 09:00,
    # when the tracker's window first lies after the data's start (08:00 + 1 h): nothing to hatch
    # (the data still start late for the workbook's 3 d window: data_start is set)
    rep = incident_report(log(0), SLO_99, "2026-03-02 10:00", "2026-03-02 12:00", context="1h")
    assert rep.data_start == at("08:00")
    fig = rep.plot()
    assert not hatched(fig)
    assert KEY not in keys(fig)
    plt.close(fig)
    # log 10:00 .. 10:29, incident 10:15 .. 12:00, no context: the window would lie after the
    # data's start at 11:00, after the log's last event (10:29, read_from NaT): hatched from
    # 10:15 to the data's end, 10:29, where the data end's hatching takes over to 12:00
    rep = incident_report(log(120, 150), SLO_99, "2026-03-02 10:15", "2026-03-02 12:00",
                          context="0s")
    assert pd.isna(rep.tracker["read_from"].iloc[0])
    fig = rep.plot()
    assert hatched(fig) == {label: [(at("10:15"), at("10:29"))] for label in TIMELINE}
    ends = hatched(fig, "data_end")
    assert {s for spans in ends.values() for s in spans} == {(at("10:29"), at("12:00"))}
    plt.close(fig)


def test_the_window_before_the_log_begins_is_hatched_as_no_data_on_every_panel():
    # log 10:00 .. 13:59, incident 10:15 .. 12:00, 1 h of context: the window starts at 09:15,
    # 45 min before the log's first event. [09:15, 10:00) holds no data: every panel hatches it
    # as the time after a log's end is hatched (//), keyed "no data: the log begins" in the top
    # panel's legend; it ends where the tracker's not-yet-covered span (10:00 .. 11:00) begins
    rep = incident_report(log(120), SLO_99, "2026-03-02 10:15", "2026-03-02 12:00",
                          context="1h")
    assert rep.window_start == at("09:15") and rep.data_start == at("10:00")
    fig = rep.plot()
    before = hatched(fig, "before_data")
    drawn = {ax.get_ylabel() for ax in fig.axes if ax.get_ylabel()}
    assert set(before) == drawn and len(drawn) >= 5  # 3 timeline panels, alerts, buckets
    assert {s for spans in before.values() for s in spans} == {(at("09:15"), at("10:00"))}
    assert keys(fig).count("no data: the log begins") == 1  # keyed in the legend, as the end's
    assert not [t for ax in fig.axes for t in ax.texts if "no data" in t.get_text()]
    plt.close(fig)
    # the window starting with the log (context 15 min: 10:00): nothing before it to hatch
    rep = incident_report(log(120), SLO_99, "2026-03-02 10:15", "2026-03-02 12:00",
                          context="15min")
    fig = rep.plot()
    assert not hatched(fig, "before_data")
    plt.close(fig)
