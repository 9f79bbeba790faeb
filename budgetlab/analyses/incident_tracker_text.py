"""The tracker's sentence of the incident report's summary
(:func:`~budgetlab.analyses.incident_text.summary_text`): when and where, and what the tracker
of the worst group did, read over the incident on the window's clock, from when its window lies
after the data's start when the log starts late (its table's ``read_from``) and up to the log's
last event when the log ends first, each said so."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pandas as pd

from .._util.burns import three_digits
from .._util.percent import given_percent, measured_percent
from .._util.words import counted, hours_words, prose_duration
from ..budget.figures import STATUSES
from ..events.schema import parse_scope
from ..slo import SLO
from .incident_end_words import clock_words, ended_words, moved_on_clock
from .incident_group_words import for_group

__all__ = ["between", "held_peak_words", "tracker_sentence"]


_clock = clock_words  # local time of day, with the date when not the day of the reference
_TO_END = " to the incident's end"


def between(start: pd.Timestamp, end: pd.Timestamp, tz: str) -> str:
    """``Between 02:00 and 02:30 UTC on 2026-01-01``; across midnight each time carries its date:
    ``Between 23:30 on 2026-10-07 and 03:30 on 2026-10-08 UTC``; across a DST change each time
    carries its own zone (04:00 CET does not exist on 2026-03-29 in Europe/Berlin).

    >>> t = pd.Timestamp
    >>> between(t("2026-01-01 02:00", tz="UTC"), t("2026-01-01 02:30", tz="UTC"), "UTC")
    'Between 02:00 and 02:30 UTC on 2026-01-01'
    >>> between(t("2026-10-07 23:30", tz="UTC"), t("2026-10-08 03:30", tz="UTC"), "UTC")
    'Between 23:30 on 2026-10-07 and 03:30 on 2026-10-08 UTC'
    >>> between(t("2026-10-07 22:30", tz="UTC"), t("2026-10-08 00:00", tz="UTC"), "UTC")
    'Between 22:30 and midnight UTC on 2026-10-07'
    >>> between(t("2026-03-29 00:00", tz="UTC"), t("2026-03-29 02:00", tz="UTC"), "Europe/Berlin")
    'Between 01:00 CET and 04:00 CEST on 2026-03-29'
    >>> between(t("2026-10-24 21:30", tz="UTC"), t("2026-10-25 02:30", tz="UTC"), "Europe/Berlin")
    'Between 23:30 CEST on 2026-10-24 and 03:30 CET on 2026-10-25'

    Times off the minute carry their seconds (a 12 s incident is not "18:00 and 18:00"), and
    their milliseconds when off the second:

    >>> between(t("2026-01-01 18:00:03", tz="UTC"), t("2026-01-01 18:00:15", tz="UTC"), "UTC")
    'Between 18:00:03 and 18:00:15 UTC on 2026-01-01'
    >>> between(t("2026-01-01 18:00", tz="UTC"), t("2026-01-01 18:00:00.25", tz="UTC"), "UTC")
    'Between 18:00:00.000 and 18:00:00.250 UTC on 2026-01-01'
    """
    loc_s, loc_e = start.tz_convert(tz), end.tz_convert(tz)
    return _between(loc_s, loc_e, _clock_format(start, end))


def _clock_format(*times: pd.Timestamp) -> str:
    """``%H:%M``, with seconds when a time is off the minute, milliseconds when off the second
    (both times alike, so that they read side by side)."""
    if any(x.microsecond or x.nanosecond for x in times):
        return "%H:%M:%S.%f"
    return "%H:%M:%S" if any(x.second for x in times) else "%H:%M"


def _between(loc_s: pd.Timestamp, loc_e: pd.Timestamp, hm: str) -> str:
    def c(x: pd.Timestamp) -> str:
        text = x.strftime(hm)
        return text[:-3] if hm.endswith("%f") else text  # %f is microseconds: keep the ms

    z_s, z_e = f"{loc_s:%Z}", f"{loc_e:%Z}"
    # one zone after both times when they share it; else each time its own
    s_zone, e_zone = ("", f" {z_e}") if z_s == z_e else (f" {z_s}", f" {z_e}")
    if loc_e.date() == loc_s.date():
        return f"Between {c(loc_s)}{s_zone} and {c(loc_e)}{e_zone} on {loc_s:%Y-%m-%d}"
    if loc_e == (loc_s.normalize() + pd.Timedelta(days=1)).tz_convert(loc_s.tz) \
            and loc_e.hour == 0 and loc_e.minute == 0:
        return f"Between {c(loc_s)}{s_zone} and midnight{e_zone} on {loc_s:%Y-%m-%d}"
    if z_s == z_e:
        return (f"Between {c(loc_s)} on {loc_s:%Y-%m-%d} and {c(loc_e)} on "
                f"{loc_e:%Y-%m-%d} {z_e}")
    return (f"Between {c(loc_s)} {z_s} on {loc_s:%Y-%m-%d} and {c(loc_e)} {z_e} on "
            f"{loc_e:%Y-%m-%d}")


def tracker_sentence(start: pd.Timestamp, end: pd.Timestamp, tz: str, slo: SLO, keys: Sequence[str],
                     scope: str, tracker: pd.DataFrame,
                     data_end: pd.Timestamp | None = None, *, thin: str = "",
                     all_thin: bool = False, steps: pd.DataFrame | None = None,
                     apart: Collection[tuple[str, ...]] = ()) -> str:
    """When and where, and what the tracker of the worst group did (its first row); ``thin``:
    why the events in its window behind its figures are too few for a verdict (said after
    them; ``all_thin``: so were every other group's whose status is known, said so); the peak
    held on the window's clock as the figure draws it (``steps``) beside the peak at its events
    when they differ (:func:`held_peak_words`); its clock
    read up to the log's last event ``data_end`` when the log ends first, and from its
    ``read_from`` (when its window first lay after the data's start) when the log starts late,
    each said so; not known when its window never lay after the data's start (NaT), or when
    the log ends before the incident begins. The other groups below HEALTHY are counted, but
    for those in ``apart`` (their keys as text: the thin groups, said in their own sentence)."""
    where = "" if scope == "*" else f" ({scope})"
    head = f"{between(start, end, tz)}{where}"
    window = prose_duration(slo.window)
    target = given_percent(slo.target)
    if data_end is not None and data_end < start:  # no group's status there is known
        return (f"{head}, what the {window} tracker{' of any group' if keys else ''} (target "
                f"{target}) showed is not known: the log ends ({_clock(data_end, tz, start)}) "
                "before the incident begins: nothing of it is in the log.")
    if len(tracker) == 0:
        return head + f", there were no events for the {window} tracker (target {target})."
    row = tracker.iloc[0]
    # the group's part of the scope, unless its keys name every key of the scope already
    inside = " in that scope" if keys and not set(parse_scope(scope)) <= set(keys) else ""
    name = f"the {window} tracker{for_group(row, keys)}{inside} (target {target})"
    read_from = row.get("read_from", start)
    if pd.isna(read_from):  # its window reached before the data's start throughout
        return (f"{head}, what {name} showed is not known: its {window} window never lay after "
                "the data's start during the incident.")
    since = read_from if read_from > start else None
    at_start = str(row["status_at_start"])
    worst = str(row["worst_status"])
    peak = (f"at its events: peak {window} burn {three_digits(row['peak_burn'])} at "
            f"{_clock(row['peak_burn_at'], tz, start)}, lowest {window} success "
            f"{measured_percent(row['min_success_rate'])}"
            + held_peak_words(row, steps, keys, start, end, tz, window)
            ) if pd.notna(row["peak_burn"]) else "no events"
    began = _began_words(at_start, since, tz, start)
    n_tr = int(row["transitions"])
    ended = ended_words(row, tz, start, peak, data_end)
    upto = "" if data_end is None else f" up to the data's end ({_clock(data_end, tz, start)})"
    over = (f"throughout{upto}" if since is None else f"from {_clock(since, tz, start)} (when "
            f"its window first lay after the data's start){upto or _TO_END}")
    reached = _reached_words(row, tz, start)
    if n_tr > 0:
        txt = _first_change_words(row, name, began, since, tz, start, window)
        # counted at events (the callbacks), said so; the end is read on the window's clock
        txt += f"; it changed status {counted(n_tr, 'time')} at its events and {ended}"
    elif worst == "no_traffic":
        txt = f"{name} had no traffic {over} (its window was empty)"
    elif at_start == "no_traffic":
        txt = f"{name} {began}, then showed {worst.upper()} at worst ({peak})"
    elif worst == at_start == str(row["status_at_end"]) and not moved_on_clock(row):
        txt = (f"{name} was already {at_start.upper()} when the incident began and stayed so"
               f"{upto} ({peak})" if at_start != "healthy" and since is None
               else f"{name} stayed {at_start.upper()} {over} ({peak})")
    else:  # no change at its events, but the window's clock moved between them
        txt = (f"{name} {began}{reached if worst not in (at_start, 'no_traffic') else ''}; it "
               f"did not change status at its events and {ended}")
    quiet = float(row.get("hours_no_traffic", 0.0) or 0.0)
    if quiet > 0 and worst != "no_traffic":
        txt += (f"; its window was empty for {hours_words(quiet)} of the incident"
                + (f" from {_clock(since, tz, start)}" if since is not None else "") + upto)
    txt += _thin_clause(thin, all_thin and bool(keys) and len(tracker) > 1)
    others = _others_words(tracker.iloc[1:], keys, apart)
    return head + ", " + txt + (f"; {others}" if others else "") + "."


def _thin_clause(thin: str, every: bool) -> str:
    """``; its figures rest on 2 events ...: too few for a verdict (...)`` (``thin``: why), and
    when ``every`` other group's did too, said so; ``""`` without ``thin``."""
    if not thin:
        return ""
    return f"; its figures rest on {thin}" + (
        "; so do every other group's: no group's window held enough events for a verdict"
        if every else "")


def held_peak_words(row: pd.Series, steps: pd.DataFrame | None, keys: Sequence[str],
                    start: pd.Timestamp, end: pd.Timestamp, tz: str, window: str) -> str:
    """``; held on the window's clock, as the figure draws it: peak 1 h burn 10 from 10:00,
    lowest 1 h success 0.00 %``: the peak burn and lowest success rate of ``row``'s group over
    the ``steps`` (:func:`budgetlab.status_spans` with ``steps=True``) held during the incident
    (a value held for one instant only, at an event as older events leave, is not drawn), when
    either differs, as said, from the tracker's at its events (the window read at the instant of
    an event holds the event exactly one window earlier; the instant after, it does not);
    ``""`` otherwise."""
    if steps is None or not len(steps) or "instant" not in steps:
        return ""
    mine = steps[(steps["start"] < end) & (steps["end"] > start) & ~steps["instant"]
                 & (steps["total"] > 0)]
    for k in keys:
        mine = mine[mine[k].astype(str) == str(row[k])]
    if not len(mine):
        return ""
    burn = mine["burn_rate"].to_numpy(dtype=float)
    rate = ((mine["total"] - mine["failures"]) / mine["total"]).to_numpy(dtype=float)
    top = int(burn.argmax())
    held = (three_digits(burn[top]), measured_percent(rate.min()))
    if held == (three_digits(row["peak_burn"]), measured_percent(row["min_success_rate"])):
        return ""
    at = max(mine["start"].iloc[top], start)
    return (f"; held on the window's clock, as the figure draws it: peak {window} burn "
            f"{held[0]} from {_clock(at, tz, start)}, lowest {window} success {held[1]}")


def _others_words(others: pd.DataFrame, keys: Sequence[str] = (),
                  apart: Collection[tuple[str, ...]] = ()) -> str:
    """The other groups below HEALTHY during the incident, each said for what it did: ``1 other
    group also left HEALTHY`` (HEALTHY when the incident began), ``1 other group was already
    WARNING when the incident began and stayed so`` (below HEALTHY at the start, no change),
    ``... was already below HEALTHY when the incident began`` (below at the start, then changed),
    ``... went below HEALTHY after a start without traffic``; ``""`` when none was below.
    The groups in ``apart`` (their ``keys`` as text: said in their own sentence) are left out."""
    if apart and keys:
        said = pd.Series([tuple(str(r[k]) for k in keys) in apart for _, r in others.iterrows()],
                         index=others.index, dtype=bool)
        others = others[~said]
    at_start = others["status_at_start"].astype(str)
    below = ~others["worst_status"].astype(str).isin(["healthy", "no_traffic"])
    left = int((below & (at_start == "healthy")).sum())
    already = others[below & ~at_start.isin(["healthy", "no_traffic"])]
    quiet = int((below & (at_start == "no_traffic")).sum())
    stayed = [str(r["status_at_start"]) for _, r in already.iterrows()
              if int(r["transitions"]) == 0 and not moved_on_clock(r)
              and str(r["worst_status"]) == str(r["status_at_start"]) == str(r["status_at_end"])]
    parts = [f"{counted(left, 'other group')} also left HEALTHY"] if left else []
    if len(already):
        n = counted(len(already), "other group")
        was = "was" if len(already) == 1 else "were"
        if len(stayed) == len(already) == 1:
            parts.append(f"{n} was already {stayed[0].upper()} when the incident began and "
                         "stayed so")
        else:
            parts.append(f"{n} {was} already below HEALTHY when the incident began"
                         + (" and stayed at their statuses" if len(stayed) == len(already)
                            else ""))
    if quiet:
        parts.append(f"{counted(quiet, 'other group')} went below HEALTHY after a start "
                     "without traffic")
    return " and ".join(parts)


def _first_change_words(row: pd.Series, name: str, began: str, since: pd.Timestamp | None,
                        tz: str, start: pd.Timestamp, window: str) -> str:
    """``the 1 h tracker ... went EXHAUSTED at 02:05 with 1 h burn 1.15 (1 h success 88.52 %)``:
    its first status change at its events, the status it began with (``began``, read on the
    window's clock) beside it, said as one thing. When the clock's status at the start is not
    the one the change left (a status reached between events at a tie, or the clock read at the
    start itself when it begins there): a change at the instant the reading begins (the
    incident's start, or ``since``) is what it began with (``went EXHAUSTED at 02:00, as the
    incident began``), and a later change to the status the clock held already was reached
    between its events, older events leaving its window, and recorded at its next event; then
    the worst status when worse than both (:func:`_reached_words`)."""
    at_start, to = str(row["status_at_start"]), str(row["first_change_to"])
    when = _clock(row["first_change_at"], tz, start)
    at_change = (f"with {window} burn {three_digits(row['first_change_burn'])} ({window} success "
            f"{measured_percent(row['first_change_rate'])})")
    if (row["first_change_at"] == (start if since is None else since)
            and at_start != str(row["first_change_from"])):
        said = {to}
        txt = (f"{name} went {to.upper()} at {when}, " + ("as the incident began" if since is None
               else "when its window first lay after the data's start") + f", {at_change}")
    elif to == at_start:  # the clock held it before the change its events recorded
        said = {to}
        txt = (f"{name} {began}, reached between its events as older events left its window, "
               f"and its events recorded that change (from "
               f"{str(row['first_change_from']).upper()}) at {when} {at_change}")
    else:
        said = {to, at_start}
        txt = name + (f" {began}{',' if since else ''} and" if at_start != "healthy" or since
                      else "") + f" went {to.upper()} at {when} {at_change}"
    worst = str(row["worst_status"])
    return txt + (_reached_words(row, tz, start) if worst not in said and worst != "no_traffic"
                  else "")


def _reached_words(row: pd.Series, tz: str, start: pd.Timestamp) -> str:
    """``, reached CRITICAL at 01:01``: the worst status, read on the window's clock; when it is
    worse than any the incident's events showed, older events leaving the window between them
    reached it, said so."""
    worst = str(row["worst_status"])
    at_events = str(row["worst_status_at_events"])  # "nan": no event during the incident
    between_events = (worst in STATUSES and at_events in STATUSES
                      and STATUSES.index(worst) > STATUSES.index(at_events))
    return (f", reached {worst.upper()} at {_clock(row['worst_at'], tz, start)}"
            + (" between its events, as older events left its window" if between_events
               else ""))


def _began_words(at_start: str, since: pd.Timestamp | None, tz: str, start: pd.Timestamp) -> str:
    """``was HEALTHY when the incident began``; when the tracker is read from later (``since``:
    when its window first lay after the data's start), ``was HEALTHY at 11:00, when its window
    first lay after the data's start``."""
    when = ("when the incident began" if since is None else
            f"at {_clock(since, tz, start)}, when its window first lay after the data's start")
    return (f"had no traffic {when} (its window was empty)" if at_start == "no_traffic"
            else f"was {at_start.upper()} {when}")
