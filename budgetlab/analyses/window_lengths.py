"""Window-length experiments: the same history under several windows, side by side.

Each row of :func:`compare_windows` replays the seed tracker's status (see
:func:`budgetlab.replay`) with one window and reports what an operator would have seen:
flapping, time in each status and, against labelled incidents, how fast the status reacted and
how long it took to recover (per incident: :func:`window_incidents`). Rolling windows sit next to
the two status variants of :mod:`budgetlab.analyses.status_variants`: calendar windows
(``"calendar:day"``, ``"calendar:week"``, ``"calendar:month"``, reset at local midnight in
``tz``) and hysteresis (``min_dwell``).

**Time shares and flapping are on the window's clock** (:mod:`budgetlab.analyses.window_clock`):
between events the window keeps moving, a status holds only while the window still holds the
events it was computed from, and an empty window is *no traffic* (its own column, never a
status). Shares are over the observed time after warm-up (the first window of every traffic
stretch, and ``warmup``), and status changes are per day of that time. Detection and recovery
against incidents are on the same clock (:mod:`budgetlab.analyses.window_detection`): a recovery
is dated when the failures left the window (at ``ts + window``, the last instant they are in it),
not at the next event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.durations import duration_label
from .._util.ratios import ratio
from .._util.units import DAY_NS, HOUR_NS
from ..budget.figures import STATUSES
from ..slo import SLO, PerGroup
from .recalibration.clock import ClockCounts
from .sorted_events import Sorted, WindowSpec
from .window_attrs import left_out_attrs, run_attrs
from .window_clock import (
    clock_events,
    clock_figures,
    thin_notes,
    warmup_notes,
    withhold_empty,
)
from .window_detection import UNSEEN as UNSEEN  # re-exported: the note on an unseen incident
from .window_detection import Incidents, incident_columns, incident_frame, warn_scopes
from .window_options import WindowOptions, after_warmup, window_options
from .window_runs import prepare_runs, window_runs
from .window_silence import events_notes, quiet_hold, silence_hold

__all__ = ["compare_windows", "window_incidents"]


# ----------------------------------------------------------------------------------------------
# compare_windows


def compare_windows(
    events: pd.DataFrame,
    slo: SLO | PerGroup | Mapping[Any, Any],
    windows: Sequence[Any] | Any = ("1h", "6h", "24h", "7D"),
    *,
    incidents: pd.DataFrame | None = None,
    by: str | Sequence[str] | None = None,
    target: Any = None,
    tz: str = "UTC",
    min_dwell: Any = 0,
    round_trip: Any = "1h",
    alert_at: str = "critical",
    grace: Any = "1h",
    warmup: Any = 0,
    show_progress: bool | None = None,
    options: WindowOptions | None = None,
) -> pd.DataFrame:
    """Replay the seed tracker under several windows (and dwell times) and compare them.

    Parameters
    ----------
    events : DataFrame
        Canonical event table.
    slo : SLO or PerGroup
        Target, thresholds and ``min_events``; its ``window`` is replaced by each of ``windows``.
        Per group (a :class:`~budgetlab.PerGroup` or a mapping from group key to SLO or target):
        each group's rows equal those of a run with its own SLO.
    windows : sequence
        Rolling windows (``"1h"``, ``"24h"``, ``"7D"``) and/or calendar windows that reset at
        local midnight in ``tz`` (``"calendar:day"``, ``"calendar:week"``, ``"calendar:month"``).
    incidents : DataFrame, optional
        Labelled incidents (``incident_id``, ``start``, ``end`` exclusive, ``scope``) for the
        detection and recovery columns; an incident counts for the groups its scope covers
        (:func:`budgetlab.events.schema.scope_mask`; a scope key that is not a ``by`` key
        restricts nothing). Such keys, and scopes that cover no group, are warned of.
    by : str or list of str, optional
        Group keys; each group has its own tracker and row.
    target : float, DataFrame or mapping, optional
        Per-group targets overriding ``slo.target`` (see :func:`group_targets`) and the targets of
        per-group SLOs.
    tz : str
        Time zone of calendar windows.
    min_dwell : duration or sequence of durations
        Hysteresis (see :func:`hysteresis`); several values give one row each.
    round_trip : duration
        A ``healthy -> warning -> healthy`` round trip counts when the warning lasted at most this.
    alert_at : {"critical", "warning", "exhausted"}
        The status that counts as "the tracker noticed": an incident is detected when its
        group's status is at least this before ``end + grace``; it has recovered once the status
        is below it again.
    grace : duration
        How long after an incident's end a detection still counts.
    warmup : duration
        Time after the first event that is left out of the time shares and transition counts
        (the windows still see those events); incidents starting earlier are not scored
        (``attrs["incidents_left_out"]`` counts them).
    show_progress : bool, optional
        Progress bar over the windows (default: only on a terminal, see ``TQDM_DISABLE``).
    options : WindowOptions, optional
        ``windows`` ... ``show_progress`` as one checked object shared with
        :func:`window_incidents` (:class:`~budgetlab.analyses.window_options.WindowOptions`); with
        it, leave those keywords at their defaults (a keyword given as well is refused).

    Returns
    -------
    DataFrame
        One row per window, dwell time and group (in that order): group keys, ``window`` (ordered
        categorical label: ``"1h"``, ``"1d"``, ``"calendar:day"``), ``window_kind``
        (``rolling``/``calendar``), ``min_dwell`` (Timedelta), ``events`` and ``failures`` (in
        the evaluated span), ``hours`` (evaluated time: the window holds traffic, after warm-up),
        ``hours_no_traffic`` (time from ``warmup`` and the group's first event on with an empty
        window: before its first event a group had not begun), ``share_healthy``,
        ``share_warning``, ``share_critical``, ``share_exhausted`` (time-weighted over ``hours``;
        NaN for a group without evaluated time), ``hours_exhausted``, ``hours_silent_window`` and
        ``hours_exhausted_silent`` (of ``hours`` and of ``hours_exhausted``: the time after the
        last event before a silence, a gap longer than the window, for a calendar window longer
        than its period, or the log's end that far after the group's last event, while the
        window still holds the events before it:
        :mod:`~budgetlab.analyses.window_silence`), ``hours_quiet_in_window`` (of ``hours``:
        the time inside gaps between two events of at least an hour that are no silence, the
        window holding its status with no new event), ``quiet_gaps``, ``quiet_gap_hours``,
        ``longest_quiet_gap_hours`` and ``longest_quiet_gap_start`` (those gaps, whole:
        :mod:`budgetlab.budget.quiet_gaps`), ``transitions`` and ``transitions_per_day``
        (status changes, per day of ``hours``; NaN without evaluated time), ``round_trips`` and
        ``round_trips_per_day`` (healthy -> warning -> healthy within ``round_trip``). With
        ``incidents``: ``incidents`` (in scope), ``detected``, ``missed`` (with traffic in the
        window but not detected), ``unseen`` (the window held no traffic from the incident's start
        to its end + ``grace``: nothing to detect), ``already_at_alert`` (at ``alert_at`` or
        worse in the instant before the start: not shown, so none of the three),
        ``detection_median``, ``detection_max`` (of the detected: Timedelta from incident start
        to the first instant on the window's clock with status at least ``alert_at``, i.e.
        critical or exhausted by default; NaT if none detected), ``recovery_median``,
        ``recovery_max`` (of the detected and the already there: from incident end until the
        status is below ``alert_at`` or the window is empty; 0 when already below; NaT if none
        recovered), ``unrecovered`` (of those, still at or above ``alert_at`` at the end of the
        observation, the last event of the log). A status held for
        one instant only counts for neither (docs/conventions.md). Then ``expected_failures``
        (``events`` x (1 - target)) and last ``note``: why the row's shares and rates per day
        are too thin to go by (less than one day of evaluated time,
        :data:`~budgetlab.analyses.window_clock.MIN_EVALUATED_HOURS`, or fewer than 10 expected
        failures, the rule of ``buckets`` and ``recalibrate``), empty when they are not;
        the figures keep their meaning (over ``hours``) and the CLI leaves them blank. A row whose
        evaluated span holds no event (``events`` 0) has every figure read off the status withheld
        (:data:`~budgetlab.analyses.window_clock.EMPTY_COLUMNS`: NaN, NaT, ``<NA>`` in the counts,
        which are nullable integers, ``Int64``, so never ``1.0``), its ``note`` saying why.
        ``attrs["slo"]`` is the SLO the rows were judged by (with ``target=``, each group's SLO
        under the target it was judged against), ``attrs["by"]`` and ``attrs["tz"]`` the group
        keys and the zone; ``attrs["start"]`` and ``attrs["end"]`` (ISO-8601 text, UTC) are the
        span every row counts in: from the first event (plus ``warmup``) to the last; each
        row's ``hours`` are the part of it its window held traffic after its warm-up.
        With ``incidents``, ``attrs["incidents_left_out"]`` counts the incidents no row counts,
        by reason (``before_first_event``, ``in_warmup``: starting before ``warmup`` ended,
        ``no_group``: a scope that covers none of the groups), and ``attrs["incidents_note"]``
        says so in words (empty when every incident counts); ``attrs["alert_at"]`` the status
        the detections count at.

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.date_range("2026-01-01", periods=48 * 60, freq="1min")
    >>> # every attempt fails 20:00-24:00
    >>> ok = [not (20 * 60 <= i < 24 * 60) for i in range(len(ts))]
    >>> t = compare_windows(as_events(ts, ok), SLO(target=0.9), ["1h", "24h", "calendar:day"])
    >>> t[["window", "hours", "hours_exhausted",
    ...    "transitions"]]  # the calendar day forgets at midnight
             window      hours  hours_exhausted  transitions
    0            1h  46.983333         4.816667            4
    1            1d  23.983333        21.600000            3
    2  calendar:day  47.983333         1.783333            4

    The 24 h window's first day is warm-up (``hours``): the evaluated time starts one window
    after the first event, as after every silence longer than the window. That leaves it less
    than the day of evaluated time its shares and rates per day need, and ``note`` says so:

    >>> t["note"].str.startswith("only 23 h 59 min of evaluated time").tolist()
    [False, True, False]
    """
    opts = window_options(options, {
        "windows": windows, "tz": tz, "min_dwell": min_dwell, "round_trip": round_trip,
        "alert_at": alert_at, "grace": grace, "warmup": warmup, "show_progress": show_progress})
    srt, slos, targets = prepare_runs(events, slo, by, target)
    lo_ns = after_warmup(srt, opts)
    inc = Incidents(incidents, srt) if incidents is not None else None
    if inc is not None:
        warn_scopes(inc, srt.by, events.columns)
    parts = []
    for spec, dwell_ns, c, code in window_runs(srt, slos, targets, opts, "compare_windows"):
        frame = pd.DataFrame(_compare_columns((srt, targets), spec, dwell_ns, (c, code), opts,
                                              lo_ns, inc))
        if srt.by:
            frame = pd.concat([srt.keys.reset_index(drop=True), frame], axis=1)
        parts.append(frame)
    out = pd.concat(parts, ignore_index=True)
    out["window"] = pd.Categorical(out["window"], categories=[s.label for s in opts.specs],
                                   ordered=True)
    out.attrs.update(run_attrs(slo, (srt, slos, targets), target, opts, lo_ns),
                     **left_out_attrs(inc, srt, opts))
    if inc is not None:  # what already_at_alert and the detections are counted against
        out.attrs["alert_at"] = opts.alert_at
    return out


def _compare_columns(log: tuple[Sorted, np.ndarray], spec: WindowSpec, dwell_ns: int,
                     clock: tuple[ClockCounts, np.ndarray], opts: WindowOptions, lo_ns: int,
                     inc: Incidents | None) -> dict[str, Any]:
    """The columns of one window x dwell run of :func:`compare_windows`, one value per group
    (``log``: the sorted events and each group's target)."""
    (srt, targets), g_n, hi_ns = log, log[0].n_groups, int(log[0].t.max())
    c, code = clock
    fig = clock_figures(c, code, g_n, lo_ns, hi_ns, round_trip_ns=opts.round_trip_ns)
    span_ns = fig.observed_ns
    days = span_ns / DAY_NS
    share = ratio(fig.hours, span_ns[:, None])
    row: dict[str, Any] = {
        "window": [spec.label] * g_n,
        "window_kind": [spec.kind] * g_n,
        "min_dwell": [pd.Timedelta(dwell_ns, unit="ns")] * g_n,
        "events": clock_events(srt, spec, lo_ns, hi_ns).astype(np.int64),
        "failures": clock_events(srt, spec, lo_ns, hi_ns, failures=True).astype(np.int64),
        "hours": span_ns / HOUR_NS,
        "hours_no_traffic": fig.no_traffic_ns / HOUR_NS,
    }
    for j, st in enumerate(STATUSES):
        row[f"share_{st}"] = share[:, j]
    row["hours_exhausted"] = fig.hours[:, 3] / HOUR_NS
    row["hours_silent_window"], row["hours_exhausted_silent"] = silence_hold(
        srt, spec, opts.tz, clock, lo_ns, hi_ns)
    row.update(quiet_hold(srt, spec, opts.tz, clock, lo_ns, hi_ns))  # gaps no silence: status
    row["transitions"] = fig.transitions.astype(np.int64)
    row["transitions_per_day"] = ratio(fig.transitions, days)
    row["round_trips"] = fig.round_trips.astype(np.int64)
    row["round_trips_per_day"] = ratio(fig.round_trips, days)
    if inc is not None:
        row.update(incident_columns(inc, c, code, g_n, lo_ns, hi_ns, opts.grace_ns,
                                    opts.alert_level))
    row["expected_failures"] = row["events"] * (1 - np.asarray(targets, dtype=np.float64))
    row["note"] = events_notes(warmup_notes(thin_notes(row["hours"], row["events"]), srt, spec,
                                            hi_ns), row["events"], targets)
    return withhold_empty(row, spec, opts.warmup_ns)


def window_incidents(
    events: pd.DataFrame,
    slo: SLO | PerGroup | Mapping[Any, Any],
    incidents: pd.DataFrame,
    windows: Sequence[Any] | Any = ("1h", "6h", "24h", "7D"),
    *,
    by: str | Sequence[str] | None = None,
    target: Any = None,
    tz: str = "UTC",
    min_dwell: Any = 0,
    alert_at: str = "critical",
    grace: Any = "1h",
    warmup: Any = 0,
    show_progress: bool | None = None,
    options: WindowOptions | None = None,
) -> pd.DataFrame:
    """Per incident: when each window's status reached critical and when it was healthy again.

    Same parameters and rules as :func:`compare_windows` (which aggregates these rows); the same
    ``options`` object serves both (its ``round_trip`` is not used here).

    Returns
    -------
    DataFrame
        One row per window, dwell time, group and in-scope incident: group keys, ``window``,
        ``window_kind``, ``min_dwell``, ``incident_id``, ``incident_kind`` (the incident's ``kind``,
        empty when the table has none), ``incident_start``, ``incident_end``, ``detected``,
        ``detection`` (Timedelta from start to the first instant on the window's clock with status
        at least ``alert_at``; NaT when missed), ``recovered``, ``recovery`` (of a detected
        incident: Timedelta from end until the status is below ``alert_at`` or the window is empty;
        NaT when it never is again before the observation ends, and for a missed incident, which has
        nothing to recover from; ``recovered`` is False for both), ``unseen`` (the window held no
        traffic from the incident's start to its end + ``grace``: nothing to detect, so not detected
        and no miss either), ``already_at_alert`` (as in :func:`compare_windows`: not detected, no
        miss, its recovery kept, the ``note`` says so), ``withheld`` (the detection is not known:
        the window and group's row of :func:`compare_windows` has no event in its evaluated span and
        withholds its detections; ``detected``, ``recovered`` and ``unseen`` are then ``<NA>``,
        nullable booleans, and the times NaT) and ``note`` (why, in words, the row's note for a
        withheld pair; empty otherwise). An incident with no row (starting before the first event or
        in the warm-up, or whose scope covers none of the groups) is counted in
        ``attrs["incidents_left_out"]`` and ``attrs["incidents_note"]``, as in
        :func:`compare_windows`, whose other ``attrs`` it holds too (``slo``, ``by``, ``tz``,
        ``start``, ``end``), with ``alert_at`` and ``grace``.

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.date_range("2026-01-01", periods=6 * 60, freq="1min")
    >>> ok = [not (120 <= i < 150) for i in range(len(ts))]  # 02:00-02:30 every attempt fails
    >>> inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
    ...     "start": pd.to_datetime(["2026-01-01 02:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 02:30"], utc=True)})
    >>> w = window_incidents(as_events(ts, ok), SLO(target=0.9), inc, ["1h", "3h"])
    >>> w[["window", "detected", "detection", "recovery"]]
      window  detected       detection        recovery
    0     1h      True 0 days 00:05:00 0 days 00:54:00
    1     3h      True 0 days 00:11:00 0 days 02:43:00

    The 1 h window recovers at 03:24, when the 02:24 failure leaves it (the 03:24 arrival itself
    holds 02:24 for one instant). An event is in the window through ``ts + window``; the
    contents without it hold from 1 ns later, and the change is dated at ``ts + window``, so the
    figures are whole minutes here, not ``00:54:00.000000001``.
    """
    opts = window_options(options, {
        "windows": windows, "tz": tz, "min_dwell": min_dwell, "alert_at": alert_at, "grace": grace,
        "warmup": warmup, "show_progress": show_progress})
    srt, slos, targets = prepare_runs(events, slo, by, target)
    lo_ns = after_warmup(srt, opts)
    inc = Incidents(incidents, srt)
    warn_scopes(inc, srt.by, events.columns)
    out = pd.concat([incident_frame(inc, srt, run, lo_ns, opts.grace_ns, opts.alert_level,
                                    opts.warmup_ns, opts.alert_at)
                     for run in window_runs(srt, slos, targets, opts, "window_incidents")],
                    ignore_index=True)
    out["window"] = pd.Categorical(out["window"], categories=[s.label for s in opts.specs],
                                   ordered=True)
    out.attrs.update(run_attrs(slo, (srt, slos, targets), target, opts, lo_ns),
                     alert_at=opts.alert_at,
                     grace=duration_label(pd.Timedelta(opts.grace_ns, unit="ns")),
                     **left_out_attrs(inc, srt, opts))
    return out
