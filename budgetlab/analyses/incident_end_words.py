"""How the incident summary says the tracker's status when the incident ended: read on the
window's clock, beside the count of changes at its events, which ends at the incident's last
event (the tracker table's ``status_at_last_event``). When the clock left that status before the
incident ended, older events left the window with no event to record it, and the words say so.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .._util.words import prose_duration

__all__ = ["clock_words", "detection_span_words", "ended_words", "grace_cut_words",
           "in_repeated_hour", "moved_on_clock"]


def detection_span_words(grace: Any) -> str:
    """The span in which an alert detects the incident (``[start, end + grace)``, the rule of
    ``budgetlab alerts``), in the summary's words.

    >>> detection_span_words(pd.Timedelta("1h")), detection_span_words(pd.Timedelta(0))
    ('during the incident or its 1 h grace', 'during the incident')
    """
    g = pd.Timedelta(grace)
    return "during the incident" + (f" or its {prose_duration(g)} grace" if g > pd.Timedelta(0)
                                    else "")


def grace_cut_words(tiers: pd.DataFrame, end: pd.Timestamp, grace: Any, tz: str,
                    last_event: pd.Timestamp | None = None) -> str:
    """Where the detection span ``[start, end + grace)`` was cut because the log ends first
    (``tiers``' ``judged_to``: the last evaluation whose windows hold data, the end of the bin of
    the log's last event), in the words of the summary and of the tier table's note: an alert
    that would have begun after it is not known, so a tier that did not fire is not said to
    have stayed silent through the grace. ``""`` when the whole grace was replayed (or there is
    none), or every tier fired (``fired``). The cut is the last evaluation, not the log's end:
    ``last_event`` (when the report knows it, ``data_end``) is said beside it (before stop 59
    the cut was "the end of the log", a minute after the data's end another note named).

    >>> t = pd.Timestamp
    >>> tiers = pd.DataFrame({"judged_to": [t("2026-01-01 11:30", tz="UTC")]})
    >>> end = t("2026-01-01 10:00", tz="UTC")
    >>> print(grace_cut_words(tiers, end, "2h", "UTC", t("2026-01-01 11:29:10", tz="UTC")))
    ... # doctest: +NORMALIZE_WHITESPACE
    the 2 h grace is cut at 11:30, the last evaluation after the log's last event at 11:29: an
    alert that would have begun after it is not known
    """
    g = pd.Timedelta(grace)
    if g <= pd.Timedelta(0) or "judged_to" not in tiers or not len(tiers):
        return ""
    if "fired" in tiers and tiers["fired"].all():  # nothing is said of a silent tier
        return ""
    cut = tiers["judged_to"].min()
    if pd.isna(cut) or cut >= end + g:
        return ""
    if cut <= end:
        return (f"none of the {prose_duration(g)} grace is in the log (its last evaluation is at "
                f"{clock_words(cut, tz, end)}): an alert that would have begun after it is not "
                "known")
    at = "" if last_event is None else f" at {clock_words(last_event, tz, end)}"
    return (f"the {prose_duration(g)} grace is cut at {clock_words(cut, tz, end)}, the last "
            f"evaluation after the log's last event{at}: an alert that would have begun after "
            "it is not known")


def clock_words(ts: pd.Timestamp, tz: str, ref: pd.Timestamp) -> str:
    """Local time of day, with the date when it is not the day of ``ref``, and with its zone's
    abbreviation when that time of day happens twice on its date (the hour repeated when the
    clocks go back): ``02:30`` alone would be either.

    >>> t = pd.Timestamp
    >>> clock_words(t("2026-01-02 04:05", tz="UTC"), "UTC", t("2026-01-01 23:00", tz="UTC"))
    '2026-01-02 04:05'
    >>> ref = t("2026-10-24 23:00", tz="UTC")  # Berlin goes from CEST back to CET at 01:00 UTC
    >>> utc = [t(f"2026-10-25 {h}:30", tz="UTC") for h in ("00", "01", "02")]
    >>> [clock_words(u, "Europe/Berlin", ref) for u in utc]
    ['02:30 CEST', '02:30 CET', '03:30']
    """
    local = ts.tz_convert(tz)
    said = (f"{local:%H:%M}" if local.date() == ref.tz_convert(tz).date()
            else f"{local:%Y-%m-%d %H:%M}")
    return f"{said} {local:%Z}" if in_repeated_hour(local) else said


def in_repeated_hour(local: pd.Timestamp) -> bool:
    """The minute of ``local`` (tz-aware) happens twice on its zone's clock."""
    # floored on UTC (zones shift by whole minutes): flooring the wall time would be ambiguous
    wall = local.tz_convert("UTC").floor("min").tz_convert(local.tz).tz_localize(None)
    return bool(pd.isna(wall.tz_localize(local.tz, ambiguous="NaT")))


def moved_on_clock(row: pd.Series) -> bool:
    """The window's clock left the status of the incident's last event before the incident
    ended (older events left the window after it, with no event to record it)."""
    last = row.get("status_at_last_event")
    return bool(pd.notna(last)) and str(last) != str(row["status_at_end"])


def ended_words(row: pd.Series, tz: str, start: pd.Timestamp, peak: str,
                data_end: pd.Timestamp | None = None) -> str:
    """``was HEALTHY when the incident ended (PEAK)``, read on the window's clock (at the log's
    last event ``data_end`` when the log ends first: ``at the data's end (03:41), before the
    incident ended``); when that is not the status of the incident's last event, the status
    there first and why it moved: ``was EXHAUSTED at the last of them (04:05); after it, with no
    event, older events left its window and it was HEALTHY when the incident ended (PEAK)``."""
    end_status = str(row["status_at_end"])
    when = ("when the incident ended" if data_end is None else
            f"at the data's end ({clock_words(data_end, tz, start)}), before the incident ended")
    ended = (f"had no traffic {when} (its window was empty; {peak})"
             if end_status == "no_traffic" else f"was {end_status.upper()} {when} ({peak})")
    if not moved_on_clock(row):
        return ended
    return (f"was {str(row['status_at_last_event']).upper()} at the last of them "
            f"({clock_words(row['last_event_at'], tz, start)}); after it, with no event, older "
            f"events left its window and it {ended}")
