"""``budgetlab demo``: replay the embedded sample data and tell its story.

The story, in order: what was replayed (per-type SLOs, as the seed advises), the time in each
status, the CRITICAL episodes per group (flaps less than ``--gap`` apart merged; the full list of
status changes only with ``--out``), the injected incident and what the tracker showed during it,
and a closing verdict per group (from :func:`budgetlab.recalibrate`, with its evidence) with the
command that recalibrates it.
"""

from __future__ import annotations

import argparse
import shlex
from importlib import resources

import pandas as pd

from .._util.attrs import clock_at, clock_span
from .._util.percent import given_fraction, given_percent, measured_percent
from .._util.validation import duration_label, to_timedelta
from .._util.words import counted, hours_words, length_words, prose_duration, speak
from ..errors import ConfigError
from ..slo import SLO, PerGroup
from .clock_text import between_events_line, format_summary, tie_line
from .prose import path_label
from .reading import group_keys, longest_window, slo_from_args
from .replay import print_run_header, replay_states, write_timeline
from .replay_tables import format_incidents, zone_words
from .shared import wrap
from .story import episode_lines

__all__ = ["COMMANDS", "DEMO_TARGETS", "LIMIT_STATUS", "demo_slo"]

#: The demo's per-type targets: the seed's 93 % for reCAPTCHA v2 and 97 % for Turnstile; image
#: captchas solve less often (about 90 % in the sample), so 88 %.
DEMO_TARGETS = {"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.88}

#: The verdict's rule: a target is too strict when the tracker would have sat at CRITICAL or
#: worse for more than 1 % of the time. Not recalibrate's default (EXHAUSTED): the seed's
#: tracker alerts at CRITICAL and the demo's episodes are CRITICAL ones, so its verdicts judge
#: the same status; they name the setting, and every recalibrate command it hints carries it.
LIMIT_STATUS = "critical"


def demo_slo(args: argparse.Namespace) -> SLO | PerGroup:
    """The demo's SLO: per-type targets (:data:`DEMO_TARGETS`) by ``captcha_type`` unless
    ``--target`` or another ``--by`` is given; the other flags complete them."""
    slo = slo_from_args(args)
    if args.target is None and group_keys(args) == ["captcha_type"] and isinstance(slo, SLO):
        return PerGroup(DEMO_TARGETS, base=slo,
                        binding="the demo's per-type targets, by captcha_type (--target sets "
                                "others)")
    return slo


def _print_incidents(events: pd.DataFrame, incidents: pd.DataFrame, slo: SLO | PerGroup,
                     by: list[str], tz: str) -> None:
    """The incident table (as ``replay --incidents`` prints it, on the clock of ``tz``), and per
    incident what the tracker showed (:func:`incident_report`)."""
    from ..analyses.incident import incident_report
    from .incidents import scoped_slo

    print("\n" + wrap("Injected incidents (ground truth: budgetlab/datasets/demo_incidents.csv; "
                      f"{zone_words(tz)})", indent=""))
    print(format_incidents(incidents, events, tz=tz))
    for _, inc in incidents.iterrows():
        scope = str(inc["scope"])
        # the default context (6 h), as `budgetlab incident` reports it: their notes agree
        rep = incident_report(events, scoped_slo(slo, scope, by), inc["start"], inc["end"],
                              by=by or None,
                              scope=scope,
                              incidents=incidents, tz=tz)
        print(f"\nIncident {inc['incident_id']} ({inc.get('kind', '')}, {scope}):")
        print(wrap(rep.summary, indent="  "))
        tracker = rep.tracker
        if len(tracker):
            row = tracker.iloc[0]
            before, changed = str(row["status_at_start"]), int(row["transitions"]) > 0
            first = (f"{clock_at(row['first_change_at'], tz)} "
                     f"({str(row['first_change_from']).upper()} -> "
                     f"{str(row['first_change_to']).upper()})") if changed else ""
            hides = ("A target the tracker sits below most of the time hides real incidents "
                     "(see the verdict below).")
            if before in ("critical", "exhausted") and not changed:
                print(wrap("The tracker could not show this incident: it was already "
                           f"{before.upper()} when it began, so the incident changed nothing an "
                           f"on-call person would see. {hides}", indent="  "))
            elif before in ("critical", "exhausted"):
                print(wrap(f"The tracker was already {before.upper()} when the incident began: "
                           f"it showed the incident only by its changes, the first at {first}. "
                           f"{hides}", indent="  "))
            elif changed:
                print(wrap(f"The tracker saw it: first change at {first}.", indent="  "))
            else:
                print(wrap("The tracker did not change status during the incident.",
                           indent="  "))
        for note in rep.notes:
            print(wrap(f"note: {note}", indent="  "))


def _rule_name() -> str:
    """The verdicts' rule by its command and setting, with recalibrate's own default when the demo's
    setting is not it: a user who runs recalibrate without the flag is told why it may differ."""
    import inspect

    from ..analyses.recalibration import recalibrate

    default = inspect.signature(recalibrate).parameters["limit_status"].default
    name = f"the rule of budgetlab recalibrate --limit-status {LIMIT_STATUS}"
    if default == LIMIT_STATUS:
        return name
    return (f"{name}, as the seed's tracker alerts at {LIMIT_STATUS.upper()}; recalibrate's "
            f"default is --limit-status {default}, which judges {str(default).upper()} instead")


def _recalibrate_command(slo: SLO | PerGroup, by: list[str]) -> str:
    """The shell command that recalibrates the demo's sample with the current targets."""
    data = resources.files("budgetlab.datasets") / "demo.parquet"
    parts = ["budgetlab", "recalibrate", shlex.quote(str(data)), "--ok", "ok", "--bucket", "bucket"]
    if by:
        parts += ["--by", ",".join(by)]
    base = slo.base if isinstance(slo, PerGroup) else slo
    if isinstance(slo, PerGroup):
        parts += ["--target", ",".join(f"{k[0]}={given_fraction(s.target)}"
                                       for k, s in slo.table.items())]
    else:
        parts += ["--target", given_fraction(slo.target)]
    parts += ["--window", duration_label(base.window), "--limit-status", LIMIT_STATUS,
              "--candidates-out", "candidates.csv"]
    return " ".join(parts)


def _print_verdicts(events: pd.DataFrame, slo: SLO | PerGroup, by: list[str],
                    summary: pd.DataFrame, tz: str = "UTC") -> None:
    """One verdict per group with its evidence and its action, the summary's figure for the same
    status beside the verdict's (each says which span it counts, the verdicts' on the clock of
    ``tz``), then the command that recalibrates it."""
    from ..analyses.recalibration import recalibrate

    rec = recalibrate(events, by=by or None, slo=slo, limit_status=LIMIT_STATUS,
                      show_progress=False)
    s = rec.settings
    window = prose_duration(longest_window(slo))
    print("\n" + wrap(f"Verdicts ({_rule_name()}: a target is too strict when the "
                      f"{window} tracker would have been {LIMIT_STATUS.upper()} or worse more "
                      f"than {given_percent(s['max_share'])} of the time; too loose when the "
                      "bootstrap interval of the rule's target lies wholly above it and the "
                      "window spends little of its "
                      "budget; else ok). They count each "
                      f"group's time with traffic after the first {window} window (warm-up), "
                      f"{clock_span(s['span_start'], s['span_end'], tz)}; "
                      "the summary above counts the whole log, warm-up included.", indent=""))
    worse = [st for st in ("critical", "exhausted")]
    for _, row in rec.summary.iterrows():
        label = ", ".join(str(row[k]) for k in by) or "all events"
        verdict = str(row["verdict"]).replace("_",
                                              " ") if pd.notna(row["verdict"]) else "no verdict"
        action, reason = str(row["action"] or ""), str(row["verdict_reason"])
        # the action once: in the head only where the reason does not end with it
        said = bool(action) and not reason.endswith(action)
        head = f"{label}: {verdict}" + (f": {action}" if said else "")
        if int(row["events"]):
            evidence = (f"{counted(int(row['events']), 'event')} in "
                        f"{hours_words(row['hours'])} after the warm-up, "
                        "success "
                        f"{measured_percent(row['success_rate'])} (95 % interval "
                        f"{measured_percent(row['ci_low'])} .. {measured_percent(row['ci_high'])})")
        else:
            evidence = "no events after the warm-up"
        side = _summary_share(summary, row, by, worse)
        note = str(row.get("recommendation_note", "") or "")
        note = "" if note == reason else note
        print(wrap(speak(f"{head}. {reason}. Evidence: {evidence}."
                             + (f" {side}" if side else "") + (f" Note: {note}." if note else "")),
                       indent="  "))  # the table's API words, said as flags here
    print("\nNext step: recalibrate on the sample (the same figures, and the candidates' table "
          "written):")
    print(f"  {_recalibrate_command(slo, by)}")
    print("and on your own log (2-4 weeks of history):")
    print(f"  budgetlab recalibrate LOG... --by {','.join(by) or 'KEY'} --slo SLOS.yaml "
          f"--limit-status {LIMIT_STATUS}")


def _summary_share(summary: pd.DataFrame, row: pd.Series, by: list[str], worse: list[str]) -> str:
    """The summary's time at ``worse`` for the group of ``row``, with the span it counts."""
    mine = summary
    for k in by:
        mine = mine[mine[k].astype(str) == str(row[k])]
    cols = [f"hours_{st}" for st in ("healthy", "warning", "critical", "exhausted")]
    if len(mine) != 1 or not all(c in mine.columns for c in cols):
        return ""
    hours = mine[cols].iloc[0].astype(float)
    total = float(hours.sum())
    bad = float(sum(hours[f"hours_{st}"] for st in worse))
    if total <= 0:
        return ""
    return (f"(The summary above: {worse[0].upper()} or worse "
            f"{measured_percent(bad / total, 0)} of its {hours_words(total)}, "
            "warm-up included.)")


def _check_run(events: pd.DataFrame, by: list[str], window: pd.Timedelta) -> None:
    """Refuse, before the story, a ``--by`` the sample does not have and a ``--window`` that
    leaves the closing verdicts nothing to evaluate (they count the time after the first
    window), each by its flag."""
    missing = [k for k in by if k not in events.columns]
    if missing:
        keys = ", ".join(c for c in events.columns if c not in ("ts", "ok", "bucket"))
        raise ConfigError(f"--by {','.join(by)}: the demo's sample has no column "
                          f"{', '.join(map(repr, missing))}; its group keys are {keys}.")
    span = events["ts"].iloc[-1] - events["ts"].iloc[0]
    if window >= span:
        raise ConfigError(f"the demo's sample spans {length_words(span)}, no longer than the "
                          f"{prose_duration(window)} window: its closing verdicts count the time "
                          "after the first window, which leaves none; give a shorter --window "
                          "(the demo's default: 24 h).")


def _cmd_demo(args: argparse.Namespace) -> int:
    from .. import datasets
    from .._util.files import write_table
    from .._util.plan import plan_outputs
    from .._util.validation import check_tz
    from ..budget.episodes import status_episodes
    from ..budget.spans import status_spans
    from ..budget.summary import replay_summary
    from ..budget.ties import find_ties

    if args.by is None:
        args.by = "captcha_type"
    slo = demo_slo(args)
    check_tz(args.tz)  # before the replay, not after it
    to_timedelta(args.gap, name="gap", allow_zero=True)  # as the episodes read it, by its flag
    plan_outputs({"--out": args.out, "--plot": args.plot}, force=args.force)
    by = group_keys(args)
    events = datasets.load("demo")
    _check_run(events, by, longest_window(slo))
    incidents = datasets.load("demo_incidents")
    print(wrap("budgetlab demo: the embedded sample (synthetic captcha-solving outcomes, "
               "budgetlab/datasets/demo.parquet)", indent="") + "\n")
    states, tr = replay_states(events, slo, by)
    # the window's clock: every figure of time reads it
    spans = status_spans(events, slo, by=by or None)
    summary = replay_summary(states, events, spans=spans)
    print_run_header("demo", events, slo, by, args.tz)
    print("\nSummary (time in each status, on the window's clock)")
    print(format_summary(summary, longest_window(slo)))
    ties = tie_line(find_ties(events, by or None), args.tz)  # as replay says them
    if ties:
        print(ties)
    episodes = status_episodes(spans, at_least="critical", gap=args.gap)
    print(f"\nEpisodes at CRITICAL or worse, per {', '.join(by) or 'run'} ({zone_words(args.tz)})")
    for line in episode_lines(summary, episodes, by, args.tz):
        print(wrap(line, indent="  "))
    warm = int((tr["ts"] < events["ts"].iloc[0] + longest_window(slo)).sum())
    where = f"written to {path_label(args.out)}" if args.out else "the full list with --out FILE"
    print(wrap(f"Transitions: {counted(len(tr), 'status change')} in all ({warm:,} in the log's "
               f"first {prose_duration(longest_window(slo))}, while the windows fill); {where}.",
               indent=""))
    between = between_events_line(summary, tr)
    if between:
        print(between)
    if len(incidents):
        _print_incidents(events, incidents, slo, by, args.tz)
    _print_verdicts(events, slo, by, summary, args.tz)
    if args.out:
        write_table(tr, args.out, force=args.force)
        print(f"\nwrote {counted(len(tr), 'transition')} to {path_label(args.out)}")
    if args.plot:
        write_timeline(states, tr, by, args.plot, slo=slo, incidents=incidents, force=args.force,
                       spans=spans, tz=args.tz, events=events)
        print(f"wrote timeline to {path_label(args.plot)}")
    return 0


#: The handlers of this module's subcommands (their parsers are in :mod:`budgetlab.cli.commands`).
COMMANDS = {"demo": _cmd_demo}
