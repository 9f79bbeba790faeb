"""The first lines of a run over a log (``replay``, ``demo``, ``buckets``, ``compare-windows``,
``latency``): its events and span, on the clock of ``--tz``, the SLO and a note when a window is
longer than the data."""

from __future__ import annotations

import pandas as pd

from .._util.attrs import clock_span
from .._util.words import counted
from ..budget.replay_status import partial_window_note
from ..slo import SLO, PerGroup
from .prose import wrap
from .reading import longest_window
from .shared import print_slo

__all__ = ["span_words", "print_run_header", "print_partial_window"]


def span_words(events: pd.DataFrame, tz: str = "UTC") -> str:
    """The span of a canonical (time-sorted) table, first to last event, as a header says it
    (:func:`~budgetlab._util.attrs.clock_span`): ``2026-10-06 00:00 .. 2026-10-08 23:59 UTC``,
    or on the clock of ``tz`` (``--tz``) with each end's UTC offset and the zone named."""
    return clock_span(events["ts"].iloc[0], events["ts"].iloc[-1], tz)


def print_run_header(title: str, events: pd.DataFrame, slo: SLO | PerGroup, by: list[str],
                     tz: str = "UTC") -> None:
    """The run's first lines: events and span (on the clock of ``tz``), the SLO (per-group
    compactly), how per-group SLOs were bound, and a note when a window is longer than the
    data."""
    print(wrap(f"{title}: {counted(len(events), 'event')}, {span_words(events, tz)}", indent=""))
    print_slo(slo, by, events=events)
    print_partial_window(events, slo)


def print_partial_window(events: pd.DataFrame, slo: SLO | PerGroup) -> None:
    """The note of a run whose longest window is longer than the data (first to last event):
    every window is partial (:func:`~budgetlab.budget.replay_status.partial_window_note`)."""
    span = events["ts"].iloc[-1] - events["ts"].iloc[0]
    window = longest_window(slo)
    if window > span:
        print(wrap(f"note: {partial_window_note(window, span)}", indent=""))
