"""The prose of a story told from a replay: one line per group of its status episodes (computed by
:func:`budgetlab.budget.episodes.status_episodes`, flaps closer than a gap merged into one
episode), and durations in words for the demo's incidents and verdicts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.words import prose_duration
from ..budget.figures import STATUSES

__all__ = ["episode_lines", "duration_words"]


def duration_words(value: Any) -> str:
    """A duration as ``6 h 10 m``, ``3 d 2 h``, ``45 m`` or ``20 s``.

    >>> (duration_words(pd.Timedelta("6h10min")), duration_words(pd.Timedelta("50h")),
    ...  duration_words(pd.Timedelta(0)))
    ('6 h 10 m', '2 d 2 h', '0 s')
    """
    secs = int(pd.Timedelta(value).total_seconds())
    d, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    if d:
        return f"{d} d {h} h" if h else f"{d} d"
    if h:
        return f"{h} h {m} m" if m else f"{h} h"
    if m:
        return f"{m} m"
    return f"{s} s"


def _hours_minutes(hours: float) -> str:
    """Hours as ``29 h 35 m`` (never days: the summary beside it counts hours), ``45 m``.

    >>> _hours_minutes(29.59), _hours_minutes(0.75), _hours_minutes(0.0)
    ('29 h 35 m', '45 m', '0 m')
    """
    h, m = divmod(int(hours * 3600) // 60, 60)
    return f"{h} h {m} m" if h else f"{m} m"


def episode_lines(summary: pd.DataFrame, episodes: pd.DataFrame, by: list[str]) -> list[str]:
    """One line per group of ``replay_summary`` rows: time at ``at_least`` or worse (the summary's
    hours, on the window's clock like ``episodes`` of :func:`budgetlab.status_spans`; in hours
    and minutes, as the episodes), how many episodes (and the raw ones they merge), the longest
    with its start."""
    at_least = episodes.attrs.get("at_least", "critical")
    level = STATUSES.index(at_least)
    worse = STATUSES[level:]
    lines = []
    for _, row in summary.iterrows():
        label = ", ".join(str(row[k]) for k in by) or "all events"
        ep = episodes
        for k in by:
            ep = ep[ep[k].astype(str) == str(row[k])]
        hours = sum(float(row[f"hours_{s}"]) for s in worse)
        share = sum(float(row[f"share_{s}"]) for s in worse)
        head = (f"{label}: {at_least.upper()} or worse {share * 100:.0f} % of the time "
                f"({_hours_minutes(hours)})")
        if ep.empty:
            lines.append(f"{head}; no episode.")
            continue
        longest = ep.iloc[int(np.argmax(ep["duration"].to_numpy()))]
        ongoing = " (still there at the end)" if bool(longest["ongoing"]) else ""
        n = len(ep)
        lines.append(f"{head}; {n} episode{'s' if n != 1 else ''} ({int(ep['merged'].sum())} "
                     "before merging), "
                     f"longest {_hours_minutes(longest['duration'] / pd.Timedelta(hours=1))} from "
                     f"{longest['start']:%Y-%m-%d %H:%M}{ongoing}")
    gap = episodes.attrs.get("gap")
    if gap is not None:
        lines.append(f"(an episode runs from reaching {at_least.upper()} to dropping below it or "
                     "the window emptying; "
                     "episodes less than "
                     f"{prose_duration(gap)} apart are merged into one)")
    return lines
