"""The replay's summary as printed: time in each status on the window's clock, with the lines that
say what it counts (observation, warm-up, no traffic), the silences and the ties. The table's
cells are hours with one decimal, minutes for a log shorter than 2 h (one unit down the table,
beside their shares, to compare across groups and statuses); the lines below write elapsed time
in budgetlab's one spelling, :func:`~budgetlab._util.words.hours_words` (``83 h``, ``1 h 5 min``:
hours, as in the table)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import clock_at
from .._util.percent import measured_percent, time_share_percent
from .._util.words import (
    counted,
    hours_words,
    length_words,
    prose_duration,
    some_hours_words,
    some_named,
)
from ..budget.quiet_gaps import QUIET_COLUMNS
from ..budget.sending import SENDING_GAP_HOURS
from ..budget.ties import Ties
from ..slo import SLO, PerGroup
from .clock_edges import after_last_line, before_first_line
from .quiet_text import quiet_gap_line
from .replay_evidence import EVIDENCE_COLUMNS, WITHHELD, evidenced_first
from .shared import group_label, table_text, wrap
from .shown_groups import shown_groups

__all__ = ["format_summary", "summary_notes", "silence_line", "thin_rate_line", "tie_line",
           "silence_record", "between_events_line", "silence_lines"]

_STATUSES = ("healthy", "warning", "critical", "exhausted", "no_traffic")


def _keys(summary: pd.DataFrame) -> list[str]:
    """The group keys of a :func:`~budgetlab.budget.summary.replay_summary` table."""
    return [c for c in summary.columns
            if c not in _NOT_KEYS and not c.startswith(("hours_", "share_"))]


def format_summary(summary: pd.DataFrame, window: Any = None, limit: int = 0,
                   slo: SLO | PerGroup | None = None, tz: str = "UTC") -> str:
    """The summary table as printed (success rate in %, hours and share of the observation in each
    status, no traffic apart, events per day over sending time, blank where it is too thin to
    go by: under a day of sending time, :func:`~budgetlab.analyses.window_clock.too_thin`),
    then :func:`summary_notes`. With more than ``limit`` groups (``--show-groups``; 0: all), the
    ``limit`` worst (:data:`WORST_FIRST`; the groups with enough evidence first, given the
    columns of :func:`~budgetlab.cli.replay_evidence.evidence_columns` and the run's ``slo``) and
    a line saying so (:func:`shown_groups`); a ``held`` column when a status was held under
    ``min_events``, and ``final_status`` withheld where it was never evaluated. Instants on
    the clock of ``tz`` (``--tz``)."""
    from ..analyses.window_clock import too_thin

    ranked, order, most, thin_line = evidenced_first(summary, WORST_FIRST[0], WORST_FIRST[1],
                                                     slo)
    cut = shown_groups(ranked, _keys(summary), limit, order=order, most=most,
                       full="--summary-out FILE writes every group's row")
    show = cut.rows.copy()
    show["success_rate"] = show["success_rate"].map(measured_percent)
    for count in ("events", "transitions"):  # as the reading block and the heading count them
        show[count] = show[count].map("{:,}".format)
    # one unit down the table: hours, or minutes for a log shorter than 2 h (0.0 h said nothing)
    span = float(summary[[f"hours_{s}" for s in _STATUSES]].sum(axis=1).max()) if len(show) else 0
    cell = "{:,.1f} min".format if span < 2 else "{:,.1f} h".format  # 1,890.2 h, as the text
    scale = 60.0 if span < 2 else 1.0
    for st in _STATUSES:
        show[st] = (
            (show[f"hours_{st}"] * scale).map(cell)
            + " ("
            + show[f"share_{st}"].map(lambda x: time_share_percent(x, 0))  # 1 ns: "< 0.1 %"
            + ")"
        ).where(show[f"share_{st}"].notna(), "")  # no time observed: no share (summary_notes)
    thin = too_thin(show["sending_hours"] if "sending_hours" in show.columns
                    else show["observed_hours"])  # a summary file of an older release
    show["events/day"] = ["" if t or not np.isfinite(v) else f"{v:,.1f}"
                          for v, t in zip(show["events_per_day"], thin, strict=True)]
    held = "hours_held_low_traffic" in show.columns and bool(
        (summary["hours_held_low_traffic"] > 0).any())
    if held:
        show["held"] = ((show["hours_held_low_traffic"] * scale).map(cell) + " ("
                        + show["share_held_low_traffic"].map(lambda x: time_share_percent(x, 0))
                        + ")").where(show["share_held_low_traffic"].notna(), "")
    if "status_evaluated" in show.columns:
        show["final_status"] = show["final_status"].astype(str).where(
            show["status_evaluated"].to_numpy(dtype=bool), WITHHELD)
    cols = [*_keys(summary), "events", "success_rate", *_STATUSES, *(["held"] if held else []),
            "events/day", "transitions", "final_status", "status_at_end"]
    table = show[cols].rename(columns={"no_traffic": "no traffic", "status_at_end": "at_end"})
    said = [wrap(x, indent="") for x in (cut.line, thin_line and cut.line and thin_line) if x]
    notes = summary_notes(summary, window, tz)
    return "\n".join([table_text(table, _keys(summary)), *said, *notes])


#: The summary's groups the terminal shows first when it cannot show them all: the most time
#: exhausted, then critical (the worst statuses, where the budget went), then the most events.
WORST_FIRST = (("hours_exhausted", "hours_critical", "events"),
               "the most time exhausted first, then critical, then the most events")


_NOT_KEYS = {"target", "window", "events", "success_rate", "observed_hours", "warmup_hours",
             "refill_hours", "before_first_hours", "after_last_hours",
             "sending_hours", "events_per_day",
             "transitions", "transitions_per_day", "silences", "longest_silence_hours",
             "silent_hours", *QUIET_COLUMNS, "since_last_event_hours",
             "final_status", "status_at_end", "note", *EVIDENCE_COLUMNS}


def _log_length(summary: pd.DataFrame, hours: float) -> pd.Timedelta:
    """The observation a summary counts (its ``attrs`` ``start`` .. ``end``, to the nanosecond),
    else ``hours`` (its groups' time, which tiles it) read back to the millisecond."""
    start, end = summary.attrs.get("start"), summary.attrs.get("end")
    if start is not None and end is not None:
        return pd.Timestamp(end) - pd.Timestamp(start)
    return pd.Timedelta(hours=hours).round("ms")


def summary_notes(summary: pd.DataFrame, window: Any = None, tz: str = "UTC") -> list[str]:
    """What the summary counts: the observation and its warm-up (the first window from a group's
    first event, and apart the window refilling after a silence), no traffic, the rates' time,
    the silences and the quiet gaps shorter than the window (instants on the clock of ``tz``);
    final status against status at the end."""
    if summary.empty:
        return []
    span = float(summary[[f"hours_{s}" for s in _STATUSES]].sum(axis=1).max())
    refill = summary["refill_hours"].to_numpy(dtype=np.float64)
    start = float((summary["warmup_hours"].to_numpy(dtype=np.float64) - refill).max())
    # a full window's warm-up is the window, spelled as everywhere else (24 h, not 24.0 h)
    full = window is not None and abs(start * 3600 - pd.Timedelta(window).total_seconds()) < 1e-6
    warm_text = f"the first window from a group's first event (up to " \
        f"{prose_duration(window) if full else hours_words(start)} per group)"
    if window is not None and not full:
        warm_text = warm_text[:-1] + f", the log ending before the {prose_duration(window)} " \
            "window filled)"
    if refill.max() > 0:
        warm_text += (" and the window refilling after each silence (up to "
                      f"{hours_words(float(refill.max()))} per group)")
    # every group is observed from the log's first event to its last: no time for all or none
    first = (f"Time counts the whole observation (first to last event of the log, "
             f"{length_words(_log_length(summary, span))}), warm-up included: {warm_text}."
             if span > 0 else
             "No time was observed: the log's first and last events are at one instant, so no "
             "status holds a share of it (the status columns are left blank).")
    lines = [wrap(f"{first} no traffic: the window held no event (not the last status).",
                  indent=""),
             wrap("events/day: over each group's sending time, its first to its last event less "
                  f"any gap between two of its events longer than {SENDING_GAP_HOURS:g} h (the "
                  "tracker's window does not enter it). "
                  "final_status: after the group's last event, what the tracker's callbacks and "
                  "gate keep; at_end: the window's clock at the end.", indent="")]
    thin = thin_rate_line(summary)
    if thin:
        lines.append(thin)
    lines.append(silence_line(summary, window))
    keys = _keys(summary)
    lines += [x for x in (quiet_gap_line(summary, keys, window, tz),) if x]
    lines += [x for x in (before_first_line(summary, keys), after_last_line(summary, keys)) if x]
    return lines


def thin_rate_line(summary: pd.DataFrame, most: int = 10) -> str | None:
    """The groups whose events/day is left blank, too thin to go by (under a day of sending
    time, ``sending_hours``; of observed time in a summary file without it:
    :func:`~budgetlab.analyses.window_clock.too_thin`), each with its events and that time;
    ``None`` when there are none.

    >>> s = pd.DataFrame({"method": ["GET", "OPTIONS"], "events": [9952, 1],
    ...                   "sending_hours": [83.0, 7.0]})
    >>> print(thin_rate_line(s))
    events/day left blank, too thin to go by (a rate per day needs at least 24 h of sending
    time): method=OPTIONS (1 event in 7 h).
    >>> print(thin_rate_line(s.assign(sending_hours=[0.5, 0.25])))
    events/day left blank for all 2 groups, too thin to go by (a rate per day needs at least 24 h
    of sending time; the most any group has is 30 min, method=GET).
    """
    from ..analyses.window_clock import MIN_EVALUATED_HOURS, too_thin

    col = next((c for c in ("sending_hours", "observed_hours") if c in summary.columns), None)
    if col is None:
        return None
    time = "sending time" if col == "sending_hours" else "observed time"
    rows = summary[too_thin(summary[col])]
    if not len(rows):
        return None
    keys = _keys(summary)
    if len(rows) > 1 and len(rows) == len(summary):  # a short log: one sentence, not every group
        top = rows.iloc[int(np.argmax(rows[col].to_numpy()))]
        return wrap(f"events/day left blank for all {len(rows):,} groups, too thin to go by (a "
                    f"rate per day needs at least {MIN_EVALUATED_HOURS:g} h of {time}; the "
                    f"most any group has is {hours_words(float(top[col]))}, "
                    f"{group_label(top, keys)}).", indent="")
    said = []
    for _, r in rows.head(most).iterrows():
        n, h = int(r["events"]), float(r[col])
        seen = f"in {hours_words(h)}" if h > 0 else f"and no {time}"
        said.append(f"{group_label(r, keys)} ({counted(n, 'event')} {seen})")
    more = f" and {counted(len(rows) - most, 'more group')}" if len(rows) > most else ""
    return wrap(f"events/day left blank, too thin to go by (a rate per day needs at least "
                f"{MIN_EVALUATED_HOURS:g} h of {time}): {', '.join(said)}{more}.",
                indent="")


def silence_line(summary: pd.DataFrame, window: Any = None) -> str:
    """One line on the gaps between events longer than the window: how many, and how long the
    window stood empty after them (a gap of 1 h 4 min under a 1 h window leaves it empty for
    4 min: the no-traffic time, not the gap, is the figure).

    >>> s = pd.DataFrame({"method": ["GET", "POST"], "silences": [0, 3],
    ...                   "longest_silence_hours": [0.0, 19.99], "silent_hours": [0.0, 40.5]})
    >>> print(silence_line(s, pd.Timedelta("1h")))
    Silences longer than the window (1 h): 3 in 1 group; the window stood empty for up to 19 h 59
    min after one (method=POST), 40 h 30 min in all: that time counts as no traffic.
    """
    what = ("Silences longer than the window "
            f"({prose_duration(window)})") if window is not None else \
        "Silences longer than the window"
    n = int(summary["silences"].sum())
    if n == 0:
        return wrap(f"{what}: none.", indent="")
    keys = _keys(summary)
    top = summary.iloc[int(np.argmax(summary["longest_silence_hours"].to_numpy()))]
    who = f" ({group_label(top, keys)})" if keys else ""
    groups = int((summary["silences"] > 0).sum())
    longest = hours_words(float(top["longest_silence_hours"]))
    after = f"for {longest} after it{who}" if n == 1 else f"for up to {longest} after one{who}"
    total = "" if n == 1 else f", {hours_words(float(summary['silent_hours'].sum()))} in all"
    return wrap(f"{what}: {n:,} in {counted(groups, 'group')}; the window stood empty {after}"
                f"{total}: that time counts as no traffic.", indent="")


def between_events_line(summary: pd.DataFrame, tr: pd.DataFrame, most: int = 5) -> str | None:
    """One line on the statuses the summary gives a group time in (on the window's clock) that
    none of its transitions (taken at events) shows: reached only between events, as older
    events left the window (an event exactly one window old is still in at the next event's
    instant, and leaves 1 ns later). ``None`` when there are none.

    >>> s = pd.DataFrame({"hours_warning": [37.9], "hours_critical": [7.7],
    ...                   "hours_exhausted": [0.0]})
    >>> tr = pd.DataFrame({"from_status": ["healthy"], "to_status": ["warning"]})
    >>> print(between_events_line(s, tr))
    Time in the summary at a status no transition shows (they are taken at events), reached only
    between events as older events left the window: CRITICAL (7 h 42 min).
    """
    keys = _keys(summary)

    def key_of(frame: pd.DataFrame) -> list[tuple[str, ...]]:
        return list(zip(*(frame[k].astype(str) for k in keys), strict=True)) if keys \
            else [()] * len(frame)

    tr_keys = key_of(tr)
    shown = {(k, str(st)) for col in ("from_status", "to_status")
             for k, st in zip(tr_keys, tr[col], strict=True)}
    said = []
    for status in ("warning", "critical", "exhausted"):  # healthy is where every group starts
        rows = summary[summary[f"hours_{status}"] > 0].sort_values(f"hours_{status}",
                                                                  ascending=False)
        rows = rows[[(k, status) not in shown for k in key_of(rows)]]
        if not len(rows):
            continue
        names = [f"{', '.join(f'{k}={v}' for k, v in zip(keys, key, strict=True))} "
                 f"({hours_words(h)})" if keys else f"({hours_words(h)})"
                 for key, h in zip(key_of(rows), rows[f"hours_{status}"], strict=True)]
        said.append(f"{status.upper()} {'for ' if keys else ''}{some_named(names, most)}")
    if not said:
        return None
    return wrap("Time in the summary at a status no transition shows (they are taken at events), "
                f"reached only between events as older events left the window: {'; '.join(said)}.",
                indent="")


def tie_line(ties: Ties, tz: str = "UTC") -> str | None:
    """One line on rows sharing a timestamp (``None`` without ties); the first instant where
    their outcomes differ in UTC, or on the clock of ``tz`` (``--tz``) with its UTC offset."""
    if ties.rows == 0:
        return None
    text = (f"Ties: {ties.rows:,} rows share a timestamp with another row of their group "
            f"({counted(ties.instants, 'instant')}).")
    if ties.mixed and ties.first_mixed is not None:
        when = (f"{'first ' if ties.mixed > 1 else ''}"
                f"{clock_at(ties.first_mixed, tz, '%Y-%m-%d %H:%M:%S')}")
        at = ("At that instant" if ties.instants == 1 else f"At {ties.mixed:,} of them")
        text += (f" {at} the outcomes differ ({when}): "
                 "the per-event replay and its transitions record them in file order, and another "
                 "order can give "
                 "other transitions; the time in each status reads the window after all rows of an "
                 "instant "
                 "(order-free).")
    return wrap(text, indent="")


def silence_record(summary: pd.DataFrame, ties: Ties) -> dict[str, Any]:
    """The silences and ties for the run record (JSON)."""
    keys = _keys(summary)
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


def silence_lines(table: pd.DataFrame, by: list[str], most: int = 10) -> list[str]:
    """Below the compare-windows table: each row whose status time rests partly on a window held
    over a silence (``hours_silent_window``), with how much of it, in words; none when no row has
    any. A row held for under a second is left out (it would read ``0 s of its 0 s``: a rolling
    window's evaluated nanosecond, when each event's window is its stretch's warm-up).

    >>> t = pd.DataFrame({"window": ["1h", "calendar:month", "3h"], "hours": [1966.0, 2639.0,
    ...                   3e-11], "hours_silent_window": [1.0, 672.0, 2.8e-11],
    ...                   "hours_exhausted_silent": [1.0, 672.0, 0.0]})
    >>> print(*silence_lines(t, []), sep="\\n")  # doctest: +NORMALIZE_WHITESPACE
    held over a silence (after the last event before a gap longer than the window, a calendar
    window's period, or before the log's end when it goes on longer than that after a group's
    last event: the window holds no new event until it empties):
      1 h: 1 h of its 1,966 h (1 h of it EXHAUSTED)
      calendar:month: 672 h of its 2,639 h (672 h of it EXHAUSTED)
    """
    from .._util.validation import window_words

    if "hours_silent_window" not in table.columns:
        return []
    rows = table[table["hours_silent_window"].fillna(0.0) * 3600 >= 1]
    if not len(rows):
        return []
    out = ["held over a silence (after the last event before a gap longer than the window, a "
           "calendar window's period, or before the log's end when it goes on longer than that "
           "after a group's last event: the window holds no new event until it empties):"]
    for _, r in rows.head(most).iterrows():
        where = ", ".join([window_words(r["window"]), *([group_label(r, by)] if by else [])])
        gone = float(r["hours_exhausted_silent"])
        ex = f" ({some_hours_words(gone)} of it EXHAUSTED)" if gone > 0 else ""
        out.append(f"  {where}: {hours_words(float(r['hours_silent_window']))} of its "
                   f"{hours_words(float(r['hours']))}{ex}")
    if len(rows) > most:
        out.append(f"  ... and {counted(len(rows) - most, 'more row')} (hours_silent_window in "
                   "--out)")
    return out
