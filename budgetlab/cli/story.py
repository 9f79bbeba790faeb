"""The prose of a story told from a replay: one line per group of its status episodes (computed by
:func:`budgetlab.budget.episodes.status_episodes`, flaps closer than a gap merged into one
episode).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.attrs import clock_text
from .._util.percent import measured_percent
from .._util.words import counted, duration_words, hours_words, prose_duration
from ..budget.figures import STATUSES

__all__ = ["episode_lines"]


def episode_lines(summary: pd.DataFrame, episodes: pd.DataFrame, by: list[str],
                  tz: str = "UTC") -> list[str]:
    """One line per group of ``replay_summary`` rows: time at ``at_least`` or worse (the summary's
    hours, on the window's clock like ``episodes`` of :func:`budgetlab.status_spans`; in hours
    and minutes, as the episodes), how many episodes (and the raw ones they merge), the longest
    with its start (in UTC, or on the clock of ``tz`` with its UTC offset: :func:`clock_text`)."""
    at_least = episodes.attrs.get("at_least", "critical")
    level = STATUSES.index(at_least)
    worse = STATUSES[level:]
    gap = episodes.attrs.get("gap")
    merging = gap is None or pd.Timedelta(gap) > pd.Timedelta(0)  # --gap 0: nothing merges
    lines = []
    for _, row in summary.iterrows():
        label = ", ".join(str(row[k]) for k in by) or "all events"
        ep = episodes
        for k in by:
            ep = ep[ep[k].astype(str) == str(row[k])]
        hours = sum(float(row[f"hours_{s}"]) for s in worse)
        share = sum(float(row[f"share_{s}"]) for s in worse)
        head = (f"{label}: {at_least.upper()} or worse {measured_percent(share, 0)} of the time "
                f"({hours_words(hours)})")
        if ep.empty:
            lines.append(f"{head}; no episode.")
            continue
        i = int(np.argmax(ep["duration"].to_numpy()))
        longest, start = ep.iloc[i], clock_text(ep["start"], tz, "%Y-%m-%d %H:%M").iloc[i]
        ongoing = " (still there at the end)" if bool(longest["ongoing"]) else ""
        raw = f" ({int(ep['merged'].sum()):,} before merging)" if merging else ""
        lines.append(f"{head}; {counted(len(ep), 'episode')}{raw}, "
                     f"longest {duration_words(longest['duration'], days=False)} from "
                     f"{start}{ongoing}")
    if gap is not None:
        merged = (f"episodes less than {prose_duration(gap)} apart are merged into one" if merging
                  else "with a zero --gap, none are merged")
        lines.append(f"(an episode runs from reaching {at_least.upper()} to dropping below it or "
                     f"the window emptying; {merged})")
    return lines
