"""After an alert: what the tracker showed at that moment, which span to review, what each alert
policy would have paged, and whether waking the team was justified.

These functions sit on top of :func:`budgetlab.replay` and :func:`budgetlab.incident_report`:

* :func:`tracker_at`: the replayed tracker's row at a moment (the last event at or before it);
* :func:`incident_span`: the span under review: the given one, else the labelled incidents around
  the alert, else the tracker's CRITICAL-or-worse episode around it, else one window either side;
* :func:`to_zone`: a table's time columns in the reader's zone, as a notebook shows them;
* :func:`~budgetlab.analyses.paging.page_table` and
  :func:`~budgetlab.analyses.paging.wake_verdict`: what each policy paged, and whether waking the
  team was justified (:mod:`budgetlab.analyses.paging`).

Times may be given as text; naive times are read in ``tz``. Returned times are UTC.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import (
    check_tz,
    require_columns,
    utc_ns_column,
    utc_timestamp,
)
from .._util.words import counted, duration_words, flags_as, prose_duration
from ..alerts.score_inputs import outside_span
from ..budget.episodes import status_episodes
from ..budget.figures import BURN_BANDS
from ..budget.status_changes import transitions
from ..errors import ConfigError, InputError
from ..events.schema import ts_ns
from ..slo import table_slo

#: ``duration_words``: an elapsed time as the CLI says it (``1 h 40 min``), for the notebook's
#: page delays (:func:`budgetlab._util.words.duration_words`)
__all__ = ["tracker_at", "incident_span", "to_zone", "BURN_BANDS_TEXT", "BURN_LIMITS",
           "duration_words"]

#: The upper limits of the seed's burn-rate bands (:data:`~budgetlab.budget.figures.BURN_BANDS`).
BURN_LIMITS = (*BURN_BANDS, np.inf)
#: The seed's burn-rate table: (upper limit, what to do).
BURN_BANDS_TEXT = tuple(zip(BURN_LIMITS, (
    "below 1: slower than planned, nothing to do",
    "1 to 2: just makes it, watch more closely",
    "2 to 5: gone in half the window, investigate and slow down changes",
    "5 and above: melting, pause non-critical work"), strict=True))


def tracker_at(states: pd.DataFrame, at: Any = None, *, tz: str | None = None,
               names: Mapping[str, str] | None = None) -> pd.Series:
    """The tracker's state at ``at``: the replayed row of the last event at or before it.

    Parameters
    ----------
    states : DataFrame
        One group's :func:`budgetlab.replay` output.
    at : time, optional
        The moment (text or Timestamp; naive times are read in ``tz``). ``None``, or a moment
        outside the log's span: the worst moment of the log (lowest success rate once the first
        window is full); ``note`` says so, and also when the window was not yet full at ``at``.
    tz : str, optional
        Time zone of a naive ``at`` (default UTC).
    names : dict, optional
        The notebook's parameter that gave ``at`` (``{"at": "alert_time"}``): a refusal names
        it, not ``at=``.

    Returns
    -------
    Series
        The replay row (``ts``, ``total``, ``failures``, ``success_rate``, ``burn_rate``,
        ``remaining_fraction``, ``status``, ...) plus ``at`` (the moment used, UTC), ``row``
        (its position in ``states``) and ``note`` (empty, or why the worst moment was used).

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ev = as_events(pd.date_range("2026-01-01", periods=120, freq="1min"),
    ...                [i < 60 for i in range(120)])
    >>> st = replay(ev, SLO(target=0.9, window="30min"))
    >>> r = tracker_at(st, "2026-01-01 01:00:30")
    >>> str(r["ts"]), int(r["failures"]), str(r["status"])
    ('2026-01-01 01:00:00+00:00', 1, 'healthy')
    """
    require_columns(states, ["ts", "success_rate"], what="states")
    if not len(states):
        raise InputError("the replay holds no events; there is no tracker state to read.")
    tz = check_tz(tz)
    slo = table_slo(states)
    window = pd.Timedelta(getattr(slo, "window", pd.Timedelta(0)))
    first, last = states["ts"].iloc[0], states["ts"].iloc[-1]
    note = ""
    with flags_as(**(names or {})):
        when = None if at is None else utc_timestamp(at, name="at", tz=tz)
    if when is not None and not first <= when <= last:
        note = "the given moment is outside the log's span; the worst moment is used instead"
        when = None
    if when is None:
        full = (states["ts"] >= first + window).to_numpy()
        pool = np.flatnonzero(full) if full.any() else np.arange(len(states))
        row = int(pool[int(np.argmin(states["success_rate"].to_numpy()[pool]))])
        when = states["ts"].iloc[row]
        note = note or "no moment given: the worst moment of the log is used"
    else:
        row = int(np.searchsorted(ts_ns(states), when.value, "right")) - 1
        if when < first + window:
            note = ("the tracker's window was not yet full at that moment (the log starts less "
                    "than a window before)")
    out = states.iloc[row].copy()
    out["at"], out["row"], out["note"] = when, row, note
    return out


def incident_span(states: pd.DataFrame, *, at: Any, incidents: pd.DataFrame | None = None,
                  start: Any = None, end: Any = None, tz: str | None = None,
                  names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The span of an incident to review around the alert at ``at``.

    **Rule**, first that applies: ``start`` and ``end`` as given; else the labelled incidents
    that overlap the tracker's window before the alert ``[at - window, at]`` (from the earliest
    start to the latest end); else the tracker's CRITICAL-or-worse episode that holds ``at``
    (:func:`budgetlab.status_episodes`, flaps within 30 minutes merged); else one window either
    side of ``at``. ``reason`` names the rule that picked it (before stop 63 an 11 s episode
    was "the tracker's critical-or-worse episode around the alert", the rule unsaid).

    Parameters
    ----------
    states : DataFrame
        One group's :func:`budgetlab.replay` output (its ``attrs["slo"]`` gives the window).
    at : time
        The alert.
    incidents : DataFrame, optional
        Incident table (``incident_id``, ``start``, ``end``).
    start, end : time, optional
        The span, when known (both or neither).
    tz : str, optional
        Time zone of naive times (default UTC).
    names : dict, optional
        The notebook's parameters that gave ``at``, ``start`` and ``end``
        (``{"start": "incident_start", "end": "incident_end"}``): a refusal names them.

    Returns
    -------
    dict
        ``start``, ``end`` (UTC Timestamps, ``end > start``) and ``reason`` (a phrase).

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ok = [not 40 <= i < 70 for i in range(180)]
    >>> st = replay(as_events(pd.date_range("2026-01-01", periods=180, freq="1min"), ok),
    ...             SLO(target=0.9, window="30min"))
    >>> span = incident_span(st, at="2026-01-01 00:50")
    >>> str(span["start"]), str(span["end"])
    ('2026-01-01 00:42:00+00:00', '2026-01-01 01:38:00+00:00')
    >>> print(span["reason"])  # doctest: +NORMALIZE_WHITESPACE
    the tracker's critical-or-worse episode around the alert (picked as the one holding the
    alert, whatever its length, flaps within 30 min merged; no incident labels given)
    """
    require_columns(states, ["ts", "status"], what="states")
    tz = check_tz(tz)
    with flags_as(**(names or {})):
        when = utc_timestamp(at, name="at", tz=tz)
        given = _given_span(start, end, tz)
    if given is not None:
        return {"start": given[0], "end": given[1], "reason": "as given"}
    slo = table_slo(states)
    window = pd.Timedelta(getattr(slo, "window", pd.Timedelta("1h")))
    if incidents is not None and len(incidents):
        require_columns(incidents, ["start", "end"], what="incidents")
        i_s = utc_ns_column(incidents["start"], "incidents['start']")
        i_e = utc_ns_column(incidents["end"], "incidents['end']")
        # scoring's overlap rule on [at - window, at] (+ 1 ns: an incident starting at the alert)
        near = incidents[~outside_span(i_s, i_e, (when.value - window.value, when.value + 1))]
        if len(near):
            noun = "incident" if len(near) == 1 else "incidents"
            which = (f"the labelled {noun} " + ", ".join(near["incident_id"].astype(str))
                     if "incident_id" in near.columns else counted(len(near), "labelled incident"))
            return {"start": near["start"].min(), "end": near["end"].max(),
                    "reason": f"{which} around the alert (picked as every labelled incident "
                    f"overlapping the tracker's {prose_duration(window)} before the alert, from "
                    "the earliest start to the latest end)"}
    episodes = status_episodes(states, transitions(states), at_least="critical")
    hold = episodes[((episodes["start"] <= when) & (episodes["end"] >= when)).to_numpy()]
    none = ("no incident labels given" if incidents is None or not len(incidents)
            else f"no labelled incident overlaps the {prose_duration(window)} before the alert")
    if len(hold) and hold["end"].iloc[0] > hold["start"].iloc[0]:
        return {"start": hold["start"].iloc[0], "end": hold["end"].iloc[0],
                "reason": "the tracker's critical-or-worse episode around the alert (picked as "
                f"the one holding the alert, whatever its length, flaps within 30 min merged; "
                f"{none})"}
    return {"start": when - window, "end": when + window,
            "reason": "one window either side of the alert (the tracker was not critical then; "
            f"{none})"}


def to_zone(frame: pd.DataFrame, columns: Sequence[str], tz: str) -> pd.DataFrame:
    """A copy of ``frame`` whose time ``columns`` (zoned, or text read as UTC) are in the zone
    ``tz``; a missing time stays ``NaT``.

    >>> t = pd.DataFrame({"at": pd.to_datetime(["2026-11-05 02:47", None], utc=True)})
    >>> to_zone(t, ["at"], "Europe/Berlin")["at"].tolist()
    [Timestamp('2026-11-05 03:47:00+0100', tz='Europe/Berlin'), NaT]
    """
    out = frame.copy()
    for column in columns:
        out[column] = pd.to_datetime(out[column], utc=True).dt.tz_convert(check_tz(tz))
    return out


def _given_span(start: Any, end: Any, tz: str) -> tuple[pd.Timestamp, pd.Timestamp] | None:
    """``start`` and ``end`` as UTC times, or ``None`` when neither is given; refused when one
    is given alone or ``end`` does not come after ``start``."""
    if (start is None) != (end is None):
        given, missing = ("start", "end") if end is None else ("end", "start")
        raise ConfigError(f"{given}= is given but {missing}= is not; give both start= and end= "
                          "(the span under review), or neither.")
    if start is None:
        return None
    lo, hi = utc_timestamp(start, name="start", tz=tz), utc_timestamp(end, name="end", tz=tz)
    if hi <= lo:
        raise ConfigError(f"end='{end}' must come after start='{start}'; give the span's end "
                          "as end=, its start as start=.")
    return lo, hi
