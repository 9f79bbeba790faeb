"""``budgetlab recalibrate``: the recommendations of :func:`budgetlab.recalibrate` from the command
line, with the input flags of ``replay`` (:func:`~budgetlab.cli.reading.read_log` reads the log the
same way), ``--slo`` for per-group SLOs, the per-group table to ``--out``, the candidates' table to
``--candidates-out`` and the figure to ``--plot``. Each group's line says its evidence, target,
recommendation and verdict in words; the numbers are the library's, never recomputed here.
"""

from __future__ import annotations

import argparse

import pandas as pd

from .._util.attrs import clock_at, clock_span
from .._util.percent import given_fraction, given_percent, measured_percent
from .._util.words import counted, prose_duration, some_hours_words, speak
from ..errors import ConfigError
from .reading import group_keys, longest_window, read_log, slo_from_args
from .shared import group_label, print_slo, save_plot, wrap, write_output
from .shown_groups import group_limit, shown_groups
from .thin_lines import print_no_recommendation

__all__ = ["cmd_recalibrate"]


def cmd_recalibrate(args: argparse.Namespace) -> int:
    from ..analyses.recalibration import recalibrate
    from ..analyses.recalibration.rules import NO_INTERVAL
    from ..plotting import plot_recalibration

    given = args.target is not None or bool(args.slo)
    shaped = [f for f, v in (("--warning", args.warning), ("--critical", args.critical),
                             ("--min-events", args.min_events)) if v is not None]
    if shaped and not given:  # they would be dropped: the replay without a target is SLO()'s
        raise ConfigError(f"{shaped[0]} is part of the current SLO, which recalibrate replays "
                          "only with its target: give the current target too (--target T or "
                          "--slo FILE); the recommendations then come with a verdict.")
    slo = slo_from_args(args)
    limit = group_limit(args)
    read = read_log(args, {"--out": args.out, "--plot": args.plot,
                           "--candidates-out": args.candidates_out})
    by = group_keys(args)
    window = longest_window(slo)
    rec = recalibrate(read.events, by=by or None, slo=slo if given else None,
                      window=None if given else window,
                      history=args.history, step=args.step,
                      # not given: recalibrate's own default, the one source
                      **({} if args.max_share is None else {"max_share": args.max_share}),
                      limit_status=args.limit_status, n_boot=args.n_boot, seed=args.seed)
    s = rec.settings
    print(f"{read.title}: {counted(len(read.events), 'event')}; recalibrating the "
          f"{prose_duration(window)} tracker")
    first = read.events["ts"].min()
    cut = (f" (--history: the last {prose_duration(s['history'])} of the log, which begins "
           f"{clock_at(first, args.tz, say_utc=False)}; no figure counts its earlier events)"
           if s["span_end"] - s["history"] > first else "")
    # without --history cutting the log, a group's window holds only its warm-up events when the
    # evaluated span holds none of its own (no exclusions here)
    warmup = "" if cut else f"{prose_duration(window)} warm-up"
    print(wrap(f"evaluated span: {clock_span(s['span_start'], s['span_end'], args.tz)}{cut}, "
               "per group "
               "only the time its window held traffic, after the first window of each stretch of "
               "traffic (warm-up); "
               "every figure below counts that span", indent=""))
    if given:
        print_slo(slo, by, events=read.events)
    else:
        print("no current target given (--target or --slo): recommendations only, no verdict")
    print(f"rule: the highest target that would have been {s['limit_status'].upper()} or worse at "
          f"most {given_percent(s['max_share'])} of the evaluated time")
    print(speak(NO_INTERVAL) + "\n" if s["n_boot"] == 0 else "")  # no interval: said once
    shown = shown_groups(rec.summary, by, limit)
    for _, row in shown.rows.iterrows():
        print(wrap(f"{group_label(row, by)}: {_recalibration_line(row, given, warmup)}",
                   indent=""))
        for line in _reason_and_note(row, given):
            print(wrap(line))
    if shown.line:
        print(wrap(shown.line, indent=""))
    if by:  # the groups without a recommendation, counted by reason, wherever they are shown
        print_no_recommendation(rec.summary, bootstrap=s["n_boot"] > 0)
    if args.out:
        write_output(rec.summary, args, "group row", "(the recommendations)")
    if args.candidates_out:
        write_output(rec.candidates, args, "candidate row", "(the candidates' table)",
                     path=args.candidates_out)
    if args.plot:
        save_plot(lambda ax: plot_recalibration(rec, ax=ax), args.plot, force=args.force)
    return 0


def _reason_and_note(row: pd.Series, given: bool) -> list[str]:
    """The lines under one group's line: its ``verdict_reason`` and ``recommendation_note``, the
    table's API words said as flags, each sentence once. Where the evidence is too thin for both a
    verdict and a recommendation for the same reason, the two columns hold the same sentence: it
    is said once, as the reason. Without a current target (``given`` False) every other reason
    is the header's "no current target given" and the rule's target the group's line names: the
    note alone is said. The columns are compared whole, never cut apart by their words."""
    reason = str(row["verdict_reason"])
    note = str(row.get("recommendation_note", "") or "")
    lines = [speak(reason)] if given or reason == note else []
    return lines + ([f"note: {speak(note)}"] if note and note != reason else [])


def _recalibration_line(row: pd.Series, given: bool, warmup: str = "") -> str:
    """One group's evidence, target (when a current target was ``given``: without one, the header
    says so once), recommendation and verdict in words (a figure that does not exist is said so,
    never printed as a number). A group without evaluated events says what its window held in
    its evaluated time: only its ``warmup`` events (``"1 h warm-up"``), or, when ``--history``
    cut the log (``warmup`` empty), events from before the span or its warm-ups."""
    from ..analyses.recalibration.rules import recommendation_name
    from ..analyses.recalibration.verdict import verdict_given
    from ..analyses.target_words import evaluated_words  # as the notes and the plot say it

    n = int(row["events"])
    hours = float(row["hours"])
    if n == 0:
        rate = _no_events_words(hours, warmup)
    else:
        rate = (f"observed {measured_percent(row['success_rate'])} over "
                f"{counted(n, 'event')} in {evaluated_words(hours)} (95 % "
                f"interval {measured_percent(row['ci_low'])} .. "
                f"{measured_percent(row['ci_high'])})")
    cur = (f"current target {given_fraction(row['current_target'])}; "
           if pd.notna(row["current_target"])
           else "no current target; " if given else "")
    low, high = (given_fraction(row[c], missing="below the candidates' range")
                 for c in ("recommended_low", "recommended_high"))
    boot = (f" (bootstrap {low} .. {high})"
            if pd.notna(row["recommended_high"]) or pd.notna(row["recommended_low"]) else "")
    if pd.notna(row["recommended_target"]):
        name = recommendation_name(bool(row["recommended_capped"]))
        rec_text = f"{name} {given_fraction(row['recommended_target'])}{boot}"
    else:  # resampled histories may meet the rule where the whole one does not
        rec_text = f"no recommended target{boot}"
    if verdict_given(row["verdict"]):
        verdict = f"verdict: {str(row['verdict']).replace('_', ' ')}, {row['action']}"
    elif row["action"]:
        verdict = f"no verdict; {row['action']}"
    else:
        verdict = "no verdict"
    return f"{rate}; {cur}{rec_text}; {verdict}"


def _no_events_words(hours: float, warmup: str) -> str:
    """``no events after the 1 h warm-up (the window held only warm-up events, for 59 min 22 s of
    evaluated time)``: a group whose ``hours`` of evaluated time hold none of its events (a
    time under a second said so, never ``0 s``)."""
    head = f"no events after the {warmup}" if warmup else "no events in the evaluated span"
    if not hours > 0:
        return f"{head} (no evaluated time)"
    held = "warm-up events" if warmup else "events from before the span or its warm-ups"
    span = some_hours_words(hours)
    return f"{head} (the window held only {held}, for {span} of evaluated time)"
