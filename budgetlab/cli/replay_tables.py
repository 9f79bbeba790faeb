"""The tables ``budgetlab replay`` (and ``demo``) prints under its summary: the status changes at
events (:func:`print_transitions`, :func:`format_transitions`) and the incidents of
``--incidents`` (:func:`format_incidents`), each cut to a number of rows with how many more."""

from __future__ import annotations

import pandas as pd

from .._util.attrs import clock_text
from .._util.words import counted_of, prose_duration
from .shared import table_text, wrap

__all__ = ["format_incidents", "format_transitions", "print_transitions", "zone_words"]


def zone_words(tz: str) -> str:
    """How a table's heading names the clock of its times (``--tz``)."""
    return "times UTC" if tz == "UTC" else f"times in {tz}, with their UTC offset"


def format_incidents(incidents: pd.DataFrame, events: pd.DataFrame, limit: int = 40,
                     tz: str = "UTC") -> str:
    """The incidents table as printed: ``incident_id``, ``kind``, ``start``, ``end`` (to the
    minute, in UTC or on the clock of ``tz`` with the UTC offset), ``scope``; at most ``limit``
    rows, and a note on incidents outside the log's span."""
    if incidents.empty:
        return "(no incidents in the file)"
    cols = [c for c in ("incident_id", "kind", "start", "end", "scope") if c in incidents.columns]
    show = incidents[cols].head(limit).copy()
    for c in ("start", "end"):
        show[c] = clock_text(show[c], tz, "%Y-%m-%d %H:%M")
    text = table_text(show, ["incident_id"])
    if len(incidents) > limit:
        text += f"\n... {len(incidents) - limit:,} more (--plot draws every incident)"
    first, last = events["ts"].min(), events["ts"].max()
    outside = int(((incidents["end"] < first) | (incidents["start"] > last)).sum())
    if outside:
        span = clock_text(pd.Series([first, last]), tz, "%Y-%m-%d %H:%M")
        text += (f"\nnote: {counted_of(outside, len(incidents), 'incident')} "
                 f"{'lies' if outside == 1 else 'lie'} outside the log's span "
                 f"({span[0]} .. {span[1]}{' UTC' if tz == 'UTC' else ''})")
    return text


def format_transitions(tr: pd.DataFrame, limit: int = 40, tz: str = "UTC") -> str:
    """The status changes as printed: at most ``limit`` rows, their times in UTC or on the clock
    of ``tz`` (``--tz``) with their UTC offset (``2026-10-25 02:30:00 +01:00``: the repeated hour
    of a fall-back reads twice, told apart), the seed's rounding said under them, and how many
    more ``--out`` writes."""
    if tr.empty:
        return "(no status changes)"
    show = tr.head(limit).copy()
    show["ts"] = clock_text(show["ts"], tz, "%Y-%m-%d %H:%M:%S")
    # a budget of 0.05 failures (1 event at 0.95) reads 0.1: say the rounding, not only the figure
    note = ("The seed tracker's report figures, rounded as it rounds them (--out too): "
            "current_rate to 4 decimals, burn_rate to 2, budget_total, budget_remaining and "
            "budget_remaining_pct to 1.")
    hidden = {"burn_rate", "failures"} <= set(show.columns) and bool(
        ((show["burn_rate"] == 0) & (show["failures"] > 0)).any())
    if hidden:  # never "0" for a burn
        note += (" A burn_rate of 0.0 beside failures is a burn under 0.005 (its rounding), not "
                 "none.")
    keys = list(show.columns[: show.columns.get_loc("from_status")])  # ts and the group keys
    text = table_text(show, keys) + "\n" + wrap(note, indent="")
    if len(tr) > limit:
        text += f"\n... {len(tr) - limit:,} more (--out writes every status change)"
    return text


def print_transitions(tr: pd.DataFrame, events: pd.DataFrame, window: pd.Timedelta,
                      tz: str = "UTC") -> None:
    """The transitions' heading, how many fell in the log's first ``window`` (the windows
    filling) and the zone of their times (``tz``), and :func:`format_transitions` of those after
    it (all when none are)."""
    warm = (tr["ts"] < events["ts"].iloc[0] + window).to_numpy()
    after = int((~warm).sum())
    # the log's first window (a group's own warm-up, as the summary counts it, may start later)
    those = "that one is" if len(tr) == 1 else "those are"
    listed = ("listed from the log's first full window on" if after else
              f"none after it, so {those} listed") if warm.any() else "listed"
    zone = zone_words(tz)
    print("\n" + wrap(f"Transitions at events ({len(tr):,}; {int(warm.sum()):,} in the log's "
                      f"first {prose_duration(window)}, while the windows fill: {listed}; "
                      f"{zone})", indent=""))
    print(format_transitions(tr[~warm] if after else tr, tz=tz))
