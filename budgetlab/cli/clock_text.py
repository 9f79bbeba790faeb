"""The replay's summary as printed: time in each status on the window's clock, with the lines that
say what it counts (observation, warm-up, no traffic), the silences and the ties."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.words import prose_duration
from ..budget.ties import Ties

__all__ = ["format_summary", "summary_notes", "silence_line", "tie_line", "silence_record"]

_STATUSES = ("healthy", "warning", "critical", "exhausted", "no_traffic")


def _hours(h: float) -> str:
    """Hours as read: '3.5 h', '52.0 h', '270.2 days' from 10 days on."""
    return f"{h / 24:,.1f} days" if h >= 240 else f"{h:,.1f} h"


def _share(x: float) -> str:
    """A share in whole percent; '<1 %' for a small one that is not zero."""
    return "<1 %" if 0 < x < 0.005 else f"{x * 100:.0f} %"


def format_summary(summary: pd.DataFrame, window: Any = None) -> str:
    """The summary table as printed (success rate in %, hours and share of the observation in each
    status, no traffic apart, events per day over observed time, blank where a group has none),
    then :func:`summary_notes`."""
    show = summary.copy()
    show["success_rate"] = (show["success_rate"] * 100).map("{:.2f} %".format)
    for st in _STATUSES:
        show[st] = (
            show[f"hours_{st}"].map("{:.1f} h".format)
            + " ("
            + show[f"share_{st}"].map(_share)
            + ")"
        )
    show["events/day"] = [f"{v:,.1f}" if np.isfinite(v) else "" for v in show["events_per_day"]]
    keys = [c for c in summary.columns if c not in _NOT_KEYS and not c.startswith(("hours_",
                                                                                   "share_"))]
    cols = [*keys, "events", "success_rate", *_STATUSES, "events/day", "transitions",
            "final_status",
            "status_at_end"]
    table = show[cols].rename(columns={"no_traffic": "no traffic", "status_at_end": "at_end"})
    return table.to_string(index=False) + "\n" + "\n".join(summary_notes(summary, window))


_NOT_KEYS = {"target", "window", "events", "success_rate", "observed_hours", "warmup_hours",
             "events_per_day",
             "transitions", "transitions_per_day", "silences", "longest_silence_hours",
             "silent_hours",
             "final_status", "status_at_end"}


def summary_notes(summary: pd.DataFrame, window: Any = None) -> list[str]:
    """What the summary counts: the observation and its warm-up, no traffic, the rates' time, the
    silences; final status against status at the end."""
    if summary.empty:
        return []
    span = float(summary[[f"hours_{s}" for s in _STATUSES]].sum(axis=1).max())
    warm = float(summary["warmup_hours"].max())
    # a full window's warm-up is the window, spelled as everywhere else (24 h, not 24.0 h)
    full = window is not None and abs(warm * 3600 - pd.Timedelta(window).total_seconds()) < 1e-6
    warm_text = prose_duration(window) if full else _hours(warm)
    lines = [f"Time counts the whole observation (first to last event of the log, {_hours(span)}), "
             "warm-up included "
             "(the first window from a group's first event and after each silence: up to "
             f"{warm_text} per group). "
             "no traffic: the window held no event (not the last status).",
             "events/day: over observed time (the window holds at least one event). final_status: "
             "after the group's "
             "last event, what the tracker's callbacks and gate keep; at_end: the window's clock "
             "at the end."]
    lines.append(silence_line(summary, window))
    return lines


def silence_line(summary: pd.DataFrame, window: Any = None) -> str:
    """One line on the gaps between events longer than the window."""
    what = ("Silences longer than the window "
            f"({prose_duration(window)})") if window is not None else \
        "Silences longer than the window"
    n = int(summary["silences"].sum())
    if n == 0:
        return f"{what}: none."
    keys = [c for c in summary.columns if c not in _NOT_KEYS and not c.startswith(("hours_",
                                                                                   "share_"))]
    top = summary.iloc[int(np.argmax(summary["longest_silence_hours"].to_numpy()))]
    who = f" ({', '.join(str(top[k]) for k in keys)})" if keys else ""
    groups = int((summary["silences"] > 0).sum())
    return (f"{what}: {n:,} in {groups:,} group{'s' if groups != 1 else ''}, longest "
            f"{_hours(float(top['longest_silence_hours']))}"
            f"{who}, {_hours(float(summary['silent_hours'].sum()))} in all; the time after each "
            "counts as no traffic.")


def tie_line(ties: Ties) -> str | None:
    """One line on rows sharing a timestamp (``None`` without ties)."""
    if ties.rows == 0:
        return None
    text = (f"Ties: {ties.rows:,} rows share a timestamp with another row of their group "
            f"({ties.instants:,} "
            f"instant{'s' if ties.instants != 1 else ''}).")
    if ties.mixed and ties.first_mixed is not None:
        text += (f" At {ties.mixed:,} of them the outcomes differ (first "
                 f"{ties.first_mixed:%Y-%m-%d %H:%M:%S} UTC): "
                 "the per-event replay and its transitions record them in file order, and another "
                 "order can give "
                 "other transitions; the time in each status reads the window after all rows of an "
                 "instant "
                 "(order-free).")
    return text


def silence_record(summary: pd.DataFrame, ties: Ties) -> dict[str, Any]:
    """The silences and ties for the run record (JSON)."""
    keys = [c for c in summary.columns if c not in _NOT_KEYS and not c.startswith(("hours_",
                                                                                   "share_"))]
    quiet = summary[summary["silences"] > 0]
    return {
        "silences": {
            "meaning": "gaps between two events of a group longer than the window; hours the "
            "window was empty",
            "total": int(summary["silences"].sum()),
            "groups": [
                {
                    "group": [str(r[k]) for k in keys],
                    "silences": int(r["silences"]),
                    "longest_hours": round(float(r["longest_silence_hours"]), 3),
                    "silent_hours": round(float(r["silent_hours"]), 3),
                }
                for _, r in quiet.iterrows()
            ],
        },
        "ties": {
            "rows": ties.rows,
            "instants": ties.instants,
            "outcomes_differ": ties.mixed,
            "first_differing": None if ties.first_mixed is None else ties.first_mixed.isoformat(),
            "order_used": "file order (the per-event replay); time in status reads the window "
            "after all rows "
            "of an instant",
        },
    }
