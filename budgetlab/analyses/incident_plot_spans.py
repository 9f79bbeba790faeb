"""The spans the incident figure (:func:`~budgetlab.analyses.incident_plot.plot_report`) shades
or hatches across its panels, and their keys: the incident of ``--start``/``--end``, the time
without data before the log's first event or after its last, and where the tracker's window
reaches before the data's start."""

from __future__ import annotations

from typing import Any

from .incident_plot_keys import key_incident, key_span_in_alerts, key_span_in_buckets

__all__ = ["NO_DATA_BEGINS", "NO_DATA_ENDS", "NOT_COVERED", "data_start_span", "mark_data_start",
           "mark_spans"]


#: The keys of the hatched spans without data, in the timeline's top legend.
NO_DATA_BEGINS, NO_DATA_ENDS = "no data: the log begins", "no data: the log ends"


def mark_spans(r: Any, panels: list[Any], rest: list[Any]) -> None:
    """Shade the incident on every panel (the timeline's ``panels`` and the ``rest``); where the
    window holds time without data, before the log's first event (``r.data_start`` after the
    window's start) or after its last (``r.data_end``), hatch every panel there and key it in the
    top panel's legend, whatever the span's width (words drawn on a narrow span would run past
    the axes): the log begins, the log ends (after the end no status nor alert is drawn: the
    report evaluates none there, :func:`~budgetlab.analyses.incident_replay.replay_tables`)."""
    axes = [*panels, *rest]
    for ax in axes:
        ax.axvspan(r.start.tz_convert(None), r.end.tz_convert(None), color="black", alpha=0.04,
                   lw=0)
    keys = []
    first = getattr(r, "data_start", None)
    if first is not None and first > r.window_start:  # the window begins before the log does
        keys.append(_no_data(axes, r.window_start, first, "before_data", NO_DATA_BEGINS))
    if getattr(r, "data_end", None) is not None:  # the log ends before the window does
        keys.append(_no_data(axes, r.data_end, r.window_end, "data_end", NO_DATA_ENDS))
    entries = getattr(panels[0], "legend_entries", None)
    unkeyed = False
    if entries and not len(r.incidents):  # the span of --start/--end alone: keyed as the
        key_incident(entries[-1])  # incidents the timeline draws are
        unkeyed = True
    if not len(r.incidents) and rest:  # and in the alert panel, whose legend is its own
        key_span_in_alerts(rest[0])
    for ax in rest[1:]:  # the bucket panels: no incident of their own, the span keyed always
        key_span_in_buckets(ax)
    if entries and (keys or unkeyed):
        from ..plotting.timeline_marks import place_legends

        entries[0].extend(keys)
        place_legends(panels, entries)


def _no_data(axes: list[Any], lo: Any, hi: Any, gid: str, words: str) -> Any:
    """Hatch ``[lo, hi)`` on every panel (``//``, grey); the legend key saying ``words`` (its
    gid ``GID_key``)."""
    from matplotlib.patches import Patch

    lo, hi = lo.tz_convert(None), hi.tz_convert(None)
    for ax in axes:
        ax.axvspan(lo, hi, facecolor="none", edgecolor="0.7", hatch="//", lw=0, gid=gid)
    key = Patch(facecolor="none", edgecolor="0.7", hatch="//", label=words)
    key.set_gid(f"{gid}_key")
    return key


#: The timeline's key of the span where the tracker's window reaches before the data's start.
NOT_COVERED = "window not yet covered by data:\nit reaches before the data's start"
#: Its hatching: the data end's (``//``) mirrored, so that the two read apart where they meet.
_START_HATCH = "\\\\"


def data_start_span(report: Any) -> tuple[Any, Any] | None:
    """Where the focus group's tracker window reaches before the data's start when the log starts
    late (``report.data_start``): from the data's start (the report window's start when that is
    later) to ``data_start + slo.window``, the tracker table's ``read_from`` when that falls in
    the incident; cut at the window's end and at the data's end (hatched apart). ``None`` when
    the window lies after the data's start all through the report's window.

    >>> from types import SimpleNamespace as NS
    >>> import pandas as pd
    >>> t = pd.Timestamp("2015-05-17 10:05", tz="UTC")
    >>> rep = NS(data_start=t, data_end=None, slo=NS(window=pd.Timedelta("1h")),
    ...          window_start=t - pd.Timedelta("35min"), window_end=t + pd.Timedelta("8h"))
    >>> [f"{x:%H:%M}" for x in data_start_span(rep)]
    ['10:05', '11:05']
    """
    start = getattr(report, "data_start", None)
    if start is None:
        return None
    lo = max(report.window_start, start)
    hi = min(report.window_end, start + report.slo.window)
    if getattr(report, "data_end", None) is not None:
        hi = min(hi, report.data_end)
    return (lo, hi) if hi > lo else None


def mark_data_start(r: Any, panels: list[Any]) -> None:
    """Hatch the timeline's panels where the tracker's window reaches before the data's start
    (:func:`data_start_span`), as the data's end is hatched (mirrored: ``\\``): what is drawn
    there is read on less than a window of data, not what the tables read (they are read from
    ``read_from``); keyed once in the timeline's legend (:data:`NOT_COVERED`)."""
    from matplotlib.patches import Patch

    from ..plotting.timeline_marks import place_legends

    span = data_start_span(r)
    if span is None:
        return
    lo, hi = (t.tz_convert(None) for t in span)
    for ax in panels:
        ax.axvspan(lo, hi, facecolor="none", edgecolor="0.7", hatch=_START_HATCH, lw=0,
                   gid="data_start")
    entries = getattr(panels[0], "legend_entries", None)
    if entries:
        key = Patch(facecolor="none", edgecolor="0.7", hatch=_START_HATCH, label=NOT_COVERED)
        key.set_gid("data_start")
        entries[-1].append(key)
        place_legends(panels, entries)
