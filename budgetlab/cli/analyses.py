"""``budgetlab compare-windows`` (and, from :mod:`~budgetlab.cli.recalibrate_command`,
``recalibrate``; from :mod:`~budgetlab.cli.buckets`, ``buckets``; from
:mod:`~budgetlab.cli.incidents`, ``incident`` and ``alerts``): every analysis from the command
line, with the input flags of ``replay`` (:func:`~budgetlab.cli.reading.read_log` reads the log
the same way), ``--slo`` for per-group SLOs, tables to ``--out`` and plots to ``--plot`` (PNG,
SVG or PDF by the suffix).

Each command prints what the analysis found with its evidence; the numbers are the library's
(:func:`budgetlab.recalibrate`, :func:`budgetlab.compare_windows`), never recomputed here.
"""

from __future__ import annotations

import argparse
import warnings
from typing import Any

import pandas as pd

from .._util.percent import time_share_percent
from .._util.validation import to_timedelta, window_words
from .._util.words import counted, duration_words, flags_as, prose_duration, speak
from ..errors import BudgetlabWarning, ConfigError
from .clock_text import silence_lines
from .quiet_text import quiet_gap_lines
from .reading import group_keys, read_log, slo_from_args
from .recalibrate_command import cmd_recalibrate
from .replay import span_words
from .shared import group_label, print_slo, save_plot, table_text, wrap, write_output
from .shown_groups import group_limit, shown_groups
from .thin_lines import more_rows
from .unused_flags import given_flags, refuse_unused

__all__ = ["COMMANDS"]


# --- compare-windows ----------------------------------------------------------------------------


#: Why ``compare-windows`` refuses ``--window``, and the one thing to do instead.
_WINDOWS_ONLY = ("--window would do nothing: compare-windows replays the tracker under each "
                 "window of --windows, never under --window; leave --window out and list every "
                 "window to compare in --windows (e.g. --windows 1h,24h).")
#: Why ``compare-windows`` refuses ``--alert-at`` and ``--grace`` without ``--incidents``.
_INCIDENTS_ONLY = ("the detection of the incidents of --incidents reads them, and this run "
                   "scores no incidents (give --incidents CSV)")


def _alerting(args: argparse.Namespace) -> tuple[str, str]:
    """``(--alert-at, --grace)`` of the run (their defaults when not typed); refused without
    ``--incidents``, where they would do nothing (``--min-dwell`` and ``--warmup`` shape the
    time shares too: they are taken)."""
    if args.incidents is None:
        refuse_unused(args, ["--alert-at", "--grace"], _INCIDENTS_ONLY)
    return args.alert_at or "critical", args.grace or "1h"


def _scoped(read: Any, by: list[str], args: argparse.Namespace,
            ) -> tuple[pd.DataFrame | None, list[str]]:
    """The incidents to score and the notes on their scopes, as ``alerts`` says them
    (:func:`~budgetlab.cli.alerts_checks.scored_incidents`): keys that are not ``--by`` keys
    (they restrict nothing; one that is no column of the log said so) and scopes that match no
    group (not scored; every one: refused)."""
    from ..alerts.incident_scopes import ungrouped_scope_words
    from ..analyses.window_detection import SCOPE_COUNTS
    from .alerts_checks import scored_incidents

    inc, path = read.incidents, args.incidents
    if inc is None or path is None:
        return None, []
    scored, unmatched = scored_incidents(inc, read.events, by, path)
    scopes = inc["scope"] if "scope" in inc.columns else pd.Series([], dtype=object)
    return scored, [n for n in (ungrouped_scope_words(scopes, by, SCOPE_COUNTS,
                                                      columns=read.file_columns(args)),
                                unmatched) if n]


def _cmd_compare_windows(args: argparse.Namespace) -> int:
    from ..analyses.window_clock import thin_rows
    from ..analyses.window_lengths import compare_windows
    from ..analyses.window_options import WindowOptions
    from ..plotting import plot_window_comparison

    if given_flags(args, ["--window"]):
        raise ConfigError(_WINDOWS_ONLY)
    alert_at, grace = _alerting(args)
    slo = slo_from_args(args)
    windows = [w.strip() for w in args.windows.split(",") if w.strip()]
    if not windows:
        raise ConfigError("--windows names no window; give e.g. --windows 1h,24h.")
    limit = group_limit(args)
    with flags_as(window="--windows"):  # every option refused by its flag before the read
        WindowOptions(windows=windows, min_dwell=args.min_dwell, alert_at=alert_at, grace=grace,
                      warmup=args.warmup)
    read = read_log(args, {"--out": args.out, "--plot": args.plot}, incidents=args.incidents)
    by = group_keys(args)
    inc, scope_notes = _scoped(read, by, args)
    with flags_as(window="--windows"), warnings.catch_warnings():
        # the API's window= is an item of --windows here; the scope notes below say its warning
        warnings.filterwarnings("ignore", "incident scopes name", BudgetlabWarning)
        table = compare_windows(read.events, slo, windows, incidents=inc, by=by or None, tz=args.tz,
                                min_dwell=args.min_dwell, alert_at=alert_at, grace=grace,
                                warmup=args.warmup)
    shown = table["window"].cat.categories
    print(wrap(f"{read.title}: {counted(len(read.events), 'event')}, "
               f"{span_words(read.events, args.tz)}; the seed tracker under "
               f"{counted(len(shown), 'window')}: "
               f"{', '.join(map(window_words, shown))}", indent=""))
    for note in scope_notes:
        print(wrap(note, indent=""))
    # the SLO's own window is not one of those compared
    print_slo(slo, by, events=read.events, window=False)
    cut = shown_groups(table, by, limit)
    show, unseen, unrecovered = _compare_cells(cut.rows, by, inc is not None)
    _print_compare_legend(args, table, (alert_at, read.incidents), unseen, unrecovered,
                          "already_at_alert" in show.columns)
    print()
    print(table_text(show, [*by, "window"], float_format=lambda x: f"{x:.2f}"))
    if cut.line:
        print(wrap(cut.line, indent=""))
    thin = thin_rows(table)
    _print_thin(table[thin], by)
    for line in silence_lines(table, by):  # status time resting on a window held over a silence
        print(wrap(line, indent="  " if line.startswith("  ") else ""))
    for line in quiet_gap_lines(table, by, args.tz):  # status time over gaps shorter than that
        print(wrap(line, indent="  " if line.startswith("  ") else ""))
    if args.out:  # the thin rows' shares and rates empty, as the table above leaves them
        rates = [c for c in table.columns if c.startswith("share_") or c.endswith("_per_day")]
        write_output(table.assign(**{c: table[c].mask(thin) for c in rates}), args, "row",
                     "(window x group)")
    if args.plot:
        save_plot(lambda ax: plot_window_comparison(table, ax=ax), args.plot, force=args.force)
    return 0


def _compare_cells(rows: pd.DataFrame, by: list[str],
                   scored: bool) -> tuple[pd.DataFrame, bool, bool]:
    """The compare-windows table as printed (figures in words; a thin row's shares and rates,
    and the detections of a row without an event in its evaluated span, blank: the reason is
    said below the table), and whether it has ``unseen`` and ``unrecovered`` columns (and an
    ``already_at_alert`` one when a row has an incident that began at the alert status). With
    incidents ``missed`` is always shown: ``incidents = already_at_alert + detected + missed +
    unseen``, none left for the reader to infer."""
    from ..analyses.window_clock import thin_rows

    cols = [*by, "window", "events", "hours", "hours_no_traffic", "share_warning", "share_critical",
            "share_exhausted", "transitions_per_day", "round_trips_per_day"]
    unseen = scored and bool(rows["unseen"].fillna(0).any())
    unrecovered = scored and bool(rows["unrecovered"].fillna(0).any())
    already = scored and bool(rows["already_at_alert"].fillna(0).any())
    if scored:
        cols += ["incidents", *(["already_at_alert"] if already else []), "detected", "missed",
                 *(["unseen"] if unseen else []),
                 *(["unrecovered"] if unrecovered else []), "detection_median", "recovery_median"]
    show = rows[cols].copy()
    # one spelling of a window in the text, the header's (the API's labels stay, e.g. in --out)
    show["window"] = show["window"].map(window_words).astype(str)
    # a row with less than a day of evaluated time (none at all included) has shares and rates
    # too thin to go by: blank cells, the reason said below the table
    blank = thin_rows(rows)
    for c in ("share_warning", "share_critical", "share_exhausted"):
        show[c] = show[c].mask(blank).map(lambda v: time_share_percent(v, missing=""))
    for c in ("transitions_per_day", "round_trips_per_day"):
        show[c] = show[c].mask(blank).map(lambda v: "" if pd.isna(v) else f"{v:.2f}")
    for c in ("already_at_alert", "detected", "missed", "unseen",
              "unrecovered"):  # withheld ones blank
        if c in show:
            show[c] = show[c].map(lambda v: "" if pd.isna(v) else f"{int(v):,}")
    for c in ("detection_median", "recovery_median"):
        if c in show:
            show[c] = _time_cells(rows, c)
    show["events"] = show["events"].map("{:,}".format)  # as the reading block counts them
    return show, unseen, unrecovered


def _time_cells(rows: pd.DataFrame, column: str) -> pd.Series:
    """A detection or recovery column as the table shows it: the time in words, or why a row has
    none (``no incident``, ``none detected``, ``unseen (no traffic)``, ``none recovered``: the
    figure's words, :func:`~budgetlab.plotting.window_gaps.why_no_time`), never a blank cell."""
    from ..plotting.window_gaps import why_no_time

    why = pd.Series(why_no_time(rows, column), index=rows.index)
    return rows[column].map(lambda v: "" if pd.isna(v) else duration_words(v)).where(
        rows[column].notna(), why)


def _print_compare_legend(args: argparse.Namespace, table: pd.DataFrame,
                          scored: tuple[str, pd.DataFrame | None], unseen: bool,
                          unrecovered: bool, already: bool = False) -> None:
    """What the compare-windows table's columns count: the time (warm-up, ``--warmup``) and,
    with ``--incidents`` (``scored``: ``--alert-at`` and the incidents read), detection and
    recovery (``already``: the incidents that began at the alert status counted apart) and the
    incidents left out, counted among all those read."""
    from ..analyses.window_detection import left_out_note

    alert_at, read = scored
    warmup = to_timedelta(args.warmup, name="warmup", allow_zero=True)
    start = (f" and from {prose_duration(warmup)} after the log's first event on (--warmup)"
             if warmup > pd.Timedelta(0) else "")
    # a calendar window has no warm-up (it starts empty at each reset): said when one is compared
    warm = ("after warm-up (a rolling window: the first window of each stretch of traffic; a "
            "calendar window has none, it counts from a stretch's first event and resets at "
            f"midnight in {args.tz}, --tz; weeks on Monday)"
            if table["window_kind"].eq("calendar").any()
            else "after the first window of each stretch of traffic (warm-up)")
    print(wrap(f"hours: time the window held traffic, {warm}{start}; shares and rates per day "
               "are over it; "
               "hours_no_traffic: time the window was empty after the group's first event",
               indent=""))
    if read is None:
        return
    status = alert_at.upper()
    print(wrap(f"detection: from an incident's start to the first instant at {alert_at} "
               "or worse; recovery: from its end until the status is below it or the window "
               "is empty after having reached it (detected after the end: from the detection "
               "on; a failure leaves the window 1 ns after its time + the window, not at "
               "the next event), of the detected incidents only"
               + (" and those already there" if already else "") + "; both on the window's "
               "clock, medians over the incidents; missed: incidents during which (up to "
               f"--grace after their end) the window held traffic but never reached {alert_at} "
               "or worse"
               + (f"; already_at_alert: incidents that began while the window was already "
                  f"{status} or worse (--alert-at): it could not show them, so they are "
                  "neither detected nor missed and have no detection time (the detection "
                  "figures are over the others; their recovery counts)" if already else "")
               + ("; unseen: incidents during which the window held no traffic (nothing to "
                  "detect, no miss)" if unseen else "")
               + ("; unrecovered: incidents still at "
                  f"{alert_at} or worse when the log ends (no recovery time)"
                  if unrecovered else ""), indent=""))
    # an incident no row counts (before the first event or in the warm-up, or a scope that
    # covers no group) is said, by reason, never dropped without a word
    note = left_out_note(table.attrs["incidents_left_out"], len(read),
                         pd.Timestamp(table.attrs["start"]) - warmup, warmup, args.tz)
    if note:
        print(wrap(speak(note), indent=""))


def _print_thin(rows: pd.DataFrame, by: list[str], most: int = 10) -> None:
    """Below the table: each row whose shares and rates per day are left blank, and why (its
    ``note``: its evaluated hours and events, and the minimum; or no event in its evaluated
    span, which blanks its detections too)."""
    if not len(rows):
        return
    empty = " (and, without an event, detections)" if rows["events"].eq(0).any() else ""
    print(f"shares and rates per day{empty} left blank, too thin to go by:")
    for _, r in rows.head(most).iterrows():
        where = [window_words(r["window"]), *([group_label(r, by)] if by else [])]
        if r["min_dwell"] > pd.Timedelta(0):
            where.append(f"dwell {prose_duration(r['min_dwell'])}")
        print(wrap(f"{', '.join(where)}: {speak(r['note'])}", indent="  "))
    if len(rows) > most:
        print(more_rows(len(rows) - most, "more row"))


#: The handlers of this module's subcommands (their parsers are in :mod:`budgetlab.cli.commands`).
COMMANDS = {"recalibrate": cmd_recalibrate, "compare-windows": _cmd_compare_windows}
