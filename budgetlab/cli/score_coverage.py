"""The alert scores' note on the incidents of ``--incidents`` only partly in what was read
(``budgetlab alerts``): their detection span runs past its end, so a miss of them is read
with that caveat; and how the notes name incidents (:func:`incident_ids`)."""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["incident_ids", "partly_line", "span_ns"]


def span_ns(episodes: pd.DataFrame) -> tuple[int, int]:
    """The evaluated span ``(grid_start, grid_end)`` of the episodes' attrs, in ns."""
    lo, hi = (int(pd.Timestamp(episodes.attrs[k]).as_unit("ns").value)
              for k in ("grid_start", "grid_end"))
    return lo, hi


def incident_ids(incidents: pd.DataFrame, sel: Any) -> list[str]:
    """The ``incident_id`` of the rows ``sel`` of ``incidents``, as a message shows them."""
    from ..privacy import shown

    return [shown(v) for v in incidents["incident_id"].to_numpy()[sel]]


def partly_line(episodes: pd.DataFrame, incidents: pd.DataFrame, grace: Any, *,
                what: str = "log", tz: str = "UTC") -> str | None:
    """One sentence on the scored ``incidents`` whose detection span (``[start, end + grace)``,
    the rule of :func:`budgetlab.score_alerts`) runs past the end of the evaluated span (the
    episodes' ``grid_end``) while the incident begins inside it: an alert after that end could
    not be seen, so a miss of such an incident is read with that caveat; each named (a few, then
    how many more) with how much of it and of its grace lies in the span. ``None``: none.

    >>> ep = pd.DataFrame(columns=["tier"])
    >>> ep.attrs.update(grid_start=pd.Timestamp("2026-03-01", tz="UTC"),
    ...                 grid_end=pd.Timestamp("2026-03-03", tz="UTC"))
    >>> inc = pd.DataFrame({"incident_id": ["P"], "start": [pd.Timestamp("2026-03-02 23:30")],
    ...                     "end": [pd.Timestamp("2026-03-03 03:00")]})
    >>> from budgetlab.cli.shared import wrap
    >>> print(wrap(partly_line(ep, inc, pd.Timedelta("1h")), indent=""))
    1 incident of --incidents is only partly in the log (2026-03-01 00:00 .. 2026-03-03 00:00
    UTC): its detection span (the incident and its 1 h --grace) runs past the log's end: 'P' (30
    min of its 3 h 30 min in the log, none of its grace); an alert after the end could not be
    seen, so a miss of it is read with that caveat.
    """
    from .._util.attrs import clock_span
    from .._util.validation import utc_ns_column
    from .._util.words import counted, duration_words, prose_duration, some_named

    if not len(incidents) or "grid_end" not in episodes.attrs:
        return None
    lo, hi = span_ns(episodes)
    g = int(pd.Timedelta(grace).value)
    i_s, i_e = (utc_ns_column(incidents[c], c) for c in ("start", "end"))
    cut = (i_s < hi) & (i_e > lo) & (i_e + g > hi)
    if not cut.any():
        return None

    def dur(ns: int) -> str:
        return duration_words(pd.Timedelta(max(int(ns), 0), unit="ns"))

    parts = []
    for name, s, e in zip(incident_ids(incidents, cut), i_s[cut], i_e[cut], strict=True):
        inside, whole = min(e, hi) - max(s, lo), e - s
        part = (f"all of its {dur(whole)}" if inside >= whole
                else f"{dur(inside)} of its {dur(whole)}")
        kept = min(e + g, hi) - max(e, lo)
        extra = ("" if not g else ", none of its grace" if kept <= 0
                 else f", {dur(kept)} of its grace")
        parts.append(f"{name} ({part} in the {what}{extra})")
    n = int(cut.sum())
    span = clock_span(episodes.attrs["grid_start"], episodes.attrs["grid_end"], tz)
    return (f"{counted(n, 'incident')} of --incidents {'is' if n == 1 else 'are'} only partly in "
            f"the {what} ({span}): {'its' if n == 1 else 'their'} detection span (the incident "
            f"and its {prose_duration(pd.Timedelta(grace))} --grace) runs past the {what}'s end: "
            f"{some_named(parts, 5)}; an alert after the end could not be seen, so a miss of "
            f"{'it' if n == 1 else 'them'} is read with that caveat.")
