"""The quiet gaps in words: gaps between two events of a group shorter than the window, of an hour
or more (:mod:`budgetlab.budget.quiet_gaps`). No silence, so no no-traffic time: the window held
its status over them with no new event, and the reader is told so, beside the silences
(``replay``'s summary, below the compare-windows table)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import clock_span
from .._util.validation import window_words
from .._util.words import counted, hours_words, prose_duration
from ..budget.quiet_gaps import QUIET_GAP_HOURS
from .shared import group_label, wrap

__all__ = ["quiet_gap_line", "quiet_gap_lines"]

#: What a quiet gap's time is, said once wherever the gaps are.
_MEANING = ("the window still held earlier events, so that time counts at the status it held, on "
            "the window's clock, not as no traffic")


def _longest(rows: pd.DataFrame, keys: list[str], tz: str) -> str:
    """The longest quiet gap of ``rows`` (first of equals): its length, group and instants."""
    top = rows.iloc[int(np.argmax(rows["longest_quiet_gap_hours"].to_numpy()))]
    start = pd.Timestamp(top["longest_quiet_gap_start"])
    hours = float(top["longest_quiet_gap_hours"])
    span = clock_span(start, start + pd.Timedelta(hours=hours).round("ns"), tz)
    who = f"{group_label(top, keys)}, " if keys else ""
    return f"{hours_words(hours)} ({who}{span})"


def quiet_gap_line(summary: pd.DataFrame, keys: list[str], window: Any = None,
                   tz: str = "UTC") -> str | None:
    """One line on a replay summary's quiet gaps (``quiet_gaps``, ``longest_quiet_gap_*``,
    ``quiet_gap_hours``), times on the clock of ``tz``; ``None`` without any (or in a summary
    without the columns).

    >>> s = pd.DataFrame({"g": ["a", "b"], "quiet_gaps": [1, 0], "quiet_gap_hours": [10.0, 0.0],
    ...                   "longest_quiet_gap_hours": [10.0, 0.0], "longest_quiet_gap_start":
    ...                   pd.to_datetime(["2026-01-02 04:00", None], utc=True)})
    >>> print(quiet_gap_line(s, ["g"], pd.Timedelta("24h")))
    Gaps shorter than the window (24 h), of 1 h or more: 1 in 1 group, 10 h (g=a, 2026-01-02 04:00
    .. 2026-01-02 14:00 UTC): the window still held earlier events, so that time counts at the
    status it held, on the window's clock, not as no traffic.
    """
    if "quiet_gaps" not in summary.columns:
        return None
    rows = summary[summary["quiet_gaps"] > 0]
    if not len(rows):
        return None
    n = int(rows["quiet_gaps"].sum())
    longest = _longest(rows, keys, tz)
    size = (f"{longest}" if n == 1 else
            f"the longest {longest}, {hours_words(float(rows['quiet_gap_hours'].sum()))} in all")
    return wrap(f"{_what(window)}: {n:,} in {counted(len(rows), 'group')}, {size}: {_MEANING}.",
                indent="")


def _what(window: Any) -> str:
    size = f" ({prose_duration(window)})" if window is not None else ""
    return f"Gaps shorter than the window{size}, of {QUIET_GAP_HOURS:g} h or more"


def quiet_gap_lines(table: pd.DataFrame, by: list[str], tz: str = "UTC") -> list[str]:
    """Below the compare-windows table: per window with quiet gaps, how many, the longest (its
    group and instants on the clock of ``tz``) and the evaluated hours in them
    (``hours_quiet_in_window``); none when no window has any."""
    if "quiet_gaps" not in table.columns:
        return []
    out = []
    for label in table["window"].drop_duplicates():
        rows = table[table["window"] == label]
        rows = rows[(rows["min_dwell"] == rows["min_dwell"].iloc[0]) & (rows["quiet_gaps"] > 0)]
        if not len(rows):
            continue
        n, quiet = int(rows["quiet_gaps"].sum()), float(rows["hours_quiet_in_window"].sum())
        held = (f"{hours_words(quiet)} of its hours in them" if quiet * 3600 >= 1 else
                "none of its hours in them (they fall in the warm-up)")
        out.append(f"  {window_words(label)}: {n:,} in {counted(len(rows), 'group')}, the longest "
                   f"{_longest(rows, by, tz)}; {held}")
    if not out:
        return []
    return [f"{_what(None)} (no silence: {_MEANING}; hours_quiet_in_window in --out):", *out]
