"""``budgetlab incident`` (replay an incident: tracker, alert tiers, budget, failure buckets, in
prose with its figures) and ``budgetlab alerts`` (alert policies scored against an incidents
table: precision, recall, detection and reset time per policy).

Both read the log as ``replay`` does; the incidents table is read by
:func:`budgetlab.alerts.incidents_file.read_incidents` (an input: no output may replace it).
"""

from __future__ import annotations

import argparse
import difflib
from typing import Any, cast

import pandas as pd

from .._util.validation import utc_timestamp
from .._util.words import counted, prose_duration
from ..errors import ConfigError, InputError, NoTrafficError
from ..privacy import shown
from ..slo import SLO, PerGroup
from .incident_notes import naive_times_note, print_incident_notes
from .incident_tiers import print_tier_table
from .policy_builds import group_periods, run_builds, tiers_text
from .prose import path_label
from .reading import group_keys, read_log, slo_from_args
from .score_text import SCORE_FOOTNOTE, print_score_notes
from .shared import print_slo, wrap, write_output
from .shown_groups import group_limit
from .unused_flags import refuse_unused

__all__ = ["COMMANDS", "naive_times_note", "scoped_slo"]


def _periods(slo: SLO | PerGroup, events: pd.DataFrame, by: list[str]) -> str:
    """The SRE budget period of the run, for the header: one, or each group's when they
    differ."""
    periods = group_periods(slo, events, by)
    if len(periods) == 1 or not isinstance(slo, PerGroup):
        return prose_duration(periods[0])
    keys = events.groupby(by, observed=True, sort=True, dropna=False).size().reset_index()[by]
    per = slo.resolve(keys)
    return "per group: " + ", ".join(f"{'/'.join(map(str, k))} {prose_duration(s.period)}"
                                     for k, s in zip(keys.itertuples(index=False, name=None), per,
                                                     strict=True))


def _policy_names(text: str, *, one: bool = False) -> list[str]:
    from ..alerts.policy import PRESET_NAMES

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ConfigError("--policy names no policy; give e.g. --policy workbook or --policy "
                          "workbook,pyrra,sloth.")
    if len(set(names)) != len(names):
        raise ConfigError("--policy lists a policy twice; give each once.")
    unknown = [n for n in names if n not in PRESET_NAMES]
    if unknown or (one and len(names) > 1):
        close = difflib.get_close_matches(unknown[0], PRESET_NAMES, n=1) if unknown else []
        what = (f"{shown(unknown[0])} is not a policy"
                + (f" (did you mean {close[0]}?)" if close else "") if unknown
                else "takes one policy here")
        give = " or ".join(PRESET_NAMES) if one else "one or more of " + ", ".join(PRESET_NAMES)
        raise ConfigError(f"--policy {what}; give {give}.")
    return names


def scoped_slo(slo: SLO | PerGroup, scope: str, by: list[str]) -> SLO | PerGroup:
    """The SLO of the one group a scope names (all ``by`` keys given), else ``slo`` as it is."""
    from ..events.schema import parse_scope

    if not isinstance(slo, PerGroup) or not by:
        return slo
    named = parse_scope(scope)
    key = tuple(named.get(k) for k in by)
    return slo.slo_for(key) if all(v is not None for v in key) else slo


# --- incident -----------------------------------------------------------------------------------


def _check_span_flags(args: argparse.Namespace) -> None:
    """How the incident is given, checked before the read: ``--start``/``--end`` (``--end``
    after ``--start``; ``--id`` refused, there is nothing to pick), or ``--incidents FILE``
    (with ``--id`` to pick one), not both."""
    if args.incidents is not None:
        if args.start or args.end:
            raise ConfigError("give the incident either as --start/--end or as --incidents FILE, "
                              "not both.")
        return
    refuse_unused(args, ["--id"], "it picks one incident of --incidents FILE, and this run's "
                  "incident is --start/--end")
    if not (args.start and args.end):
        raise ConfigError("give the incident as --start T --end T (ISO 8601; naive times in --tz), "
                          "or --incidents FILE.")
    start = utc_timestamp(args.start, name="start", tz=args.tz)  # named first when refused
    if utc_timestamp(args.end, name="end", tz=args.tz) <= start:
        raise ConfigError("--end must be after --start (the incident is [--start, --end)).")


def _spans(args: argparse.Namespace, table: pd.DataFrame | None
           ) -> list[tuple[str, Any, Any, str | None]]:
    """``(id, start, end, scope)`` of each incident to report (``table``: ``--incidents``'; the
    flags checked by :func:`_check_span_flags`); ``--plot`` draws one. Run on the incidents
    table before the log is read, so that ``--id`` and ``--plot`` are refused before the read."""
    if table is not None:
        if args.id is not None:
            table = table[table["incident_id"].astype(str) == args.id]
            if table.empty:
                raise ConfigError("--id: no incident with this id in "
                                  f"{path_label(args.incidents)}; see its incident_id column.")
        if args.plot and len(table) > 1:
            raise ConfigError(f"--plot draws one incident and {path_label(args.incidents)} "
                              f"holds {len(table):,}; pick one with --id.")
        return [(str(r["incident_id"]), r["start"], r["end"], args.scope or str(r["scope"]))
                for _, r in table.iterrows()]
    return [("incident", args.start, args.end, args.scope)]


def _check_scopes(args: argparse.Namespace, spans: list[tuple[str, Any, Any, str | None]],
                  columns: pd.Index, in_log: set[str] | None) -> None:
    """Refuse a scope (``--scope`` or an incident's in ``--incidents``) naming a key the log was
    not read with: only the ``--by`` keys are kept. A key that is none of the log's columns
    (``in_log``, when known) is said so: no ``--by`` would read it."""
    from ..events.schema import parse_scope

    for ident, _, _, scope in spans:
        missing = [k for k in parse_scope(scope) if k not in columns]
        if missing:
            where = ("--scope" if args.scope else
                     f"the scope of incident {shown(ident)} in {path_label(args.incidents)}")
            absent = [k for k in missing if in_log is not None and k not in in_log]
            if absent:
                raise ConfigError(f"{where} names {shown(absent[0])}, which is not a column of "
                                  "the log: a scope's keys must be group keys, columns of the "
                                  "log given to --by; name one of the log's columns.")
            keys = ",".join([*group_keys(args), *dict.fromkeys(missing)])
            raise ConfigError(f"{where} names column {shown(missing[0])}, which the log was not "
                              f"read with: a scope's keys must be group keys; give --by {keys}.")


def _breakdown_keys(args: argparse.Namespace, columns: pd.Index) -> list[str] | None:
    """``--breakdown-by`` as a list (None: the ``--by`` keys); a key the log was not read with
    is refused: the log keeps only the ``--by`` keys."""
    if not args.breakdown_by:
        return None
    keys = [b.strip() for b in args.breakdown_by.split(",") if b.strip()]
    missing = [k for k in keys if k not in columns]
    if missing:
        by = ",".join([*group_keys(args), *dict.fromkeys(missing)])
        raise ConfigError(f"--breakdown-by names column {shown(missing[0])}, which the log was "
                          "not read with: the log keeps only the --by keys; give --by "
                          f"{by} (the tracker then runs per {shown(missing[0])} too).")
    return keys


def _cmd_incident(args: argparse.Namespace) -> int:
    from ..analyses.incident import incident_report
    from ..budget.status_changes import unrounded_changes

    slo = slo_from_args(args)
    _check_span_flags(args)  # how the incident is given fails before the read; so do a bad
    # name and a --freq that does not fit the preset built for the groups' period when every
    # SLO has that one (else after the read, for the log's groups)
    name = _policy_names(args.policy, one=True)[0]
    checked = run_builds([name], slo, args.freq)
    policy = args.policy  # the preset name: each SLO's report builds it for that SLO's period
    by = group_keys(args)
    limit = group_limit(args)
    read = read_log(args, {"--out": args.out, "--plot": args.plot, "--tiers-out": args.tiers_out},
                    incidents=args.incidents, check_incidents=lambda t: _spans(args, t))
    checked = checked or run_builds([name], slo, args.freq, read.events, by)
    table = read.incidents
    spans = _spans(args, table)
    _check_scopes(args, spans, read.events.columns, read.file_columns(args))
    breakdown_by = _breakdown_keys(args, read.events.columns)
    print(f"{read.title}: {len(read.events):,} events; replaying {counted(len(spans), 'incident')}")
    if table is not None and naive_times_note(table, args.incidents):
        print(wrap(naive_times_note(table, args.incidents), indent=""))
    print_slo(slo, by, events=read.events)
    outs, tiers = [], []
    for ident, start, end, scope in spans:
        try:
            rep = incident_report(
                read.events,
                scoped_slo(slo, scope or "*", by),
                start,
                end,
                policy=policy,
                by=by or None,
                context=args.context,
                scope=scope,
                incidents=table,
                tz=args.tz,
                freq=args.freq,
                breakdown_by=breakdown_by, grace=args.grace,
            )
        except NoTrafficError as exc:
            if len(spans) == 1:
                raise
            # one of several incidents of --incidents: said, and the others reported
            print("\n" + wrap(f"{ident}: not reported: {exc.why}.", indent=""))
            continue
        _print_incident(ident, rep, by, limit)
        # the figures unrounded (as the summary says them), not the seed report's rounding
        outs.append(unrounded_changes(rep.transitions, rep.slos or rep.slo)
                    .assign(incident_id=ident))
        tiers.append(rep.tiers.assign(incident_id=ident))
        if args.plot:
            _save_incident_plot(rep, args)
    if not outs:
        raise InputError(f"none of the {len(spans):,} incidents of --incidents has events in its "
                         "report window (the incident and its --context): nothing to report; "
                         "check their times and zone against the log's.")
    if args.out:
        write_output(pd.concat(outs, ignore_index=True), args,
                     "status change", "in the reported windows")
    if args.tiers_out:
        write_output(pd.concat(tiers, ignore_index=True), args, "alert tier row",
                     "(group x tier, per incident)", path=args.tiers_out)
    return 0


def _print_incident(ident: str, rep: Any, by: list[str], limit: int = 0) -> None:
    """One incident's report: its window and scope, summary, notes and the alert tiers' table
    (with more than ``limit`` groups, ``--show-groups``, those that fired first)."""
    # in the zone the summary speaks (--tz)
    start, end = rep.start.tz_convert(rep.tz or "UTC"), rep.end.tz_convert(rep.tz or "UTC")
    zone = f" {start:%Z}" if f"{start:%Z}" != f"{end:%Z}" else ""  # across a DST change: each
    print(f"\n{ident}: {start:%Y-%m-%d %H:%M}{zone} .. {end:%Y-%m-%d %H:%M} {end:%Z}, scope "
          f"{rep.scope}")
    print(wrap(rep.summary, indent="  "))
    for note in rep.notes:
        print(wrap(f"note: {note}", indent="  "))
    print_tier_table(rep, by, limit)


def _save_incident_plot(rep: Any, args: argparse.Namespace) -> None:
    """``--plot``: the incident's figure written to that file, then closed."""
    from .._util.figures import save_figure

    fig = rep.plot()
    try:
        save_figure(fig, args.plot, force=args.force)
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)
    print(f"wrote the plot to {path_label(args.plot)}")


# --- alerts -------------------------------------------------------------------------------------

def _cmd_alerts(args: argparse.Namespace) -> int:
    from ..analyses.choices.policy_thin import split_by_verdict
    from ..windows.binning import bin_events
    from .alerts_checks import refuse_unused_alert_flags, scored_incidents
    from .thin_scores import score_policy

    refuse_unused_alert_flags(args)
    slo = slo_from_args(args)
    names = _policy_names(args.policy)
    # a bad name fails before the read; so do a period the preset refuses and a --freq that
    # does not fit its windows, when every SLO has one period (else after the read: the
    # periods of the log's groups' SLOs)
    builds = run_builds(names, slo, args.freq)
    by = group_keys(args)
    read = read_log(args, {"--out": args.out, "--plot": args.plot}, incidents=args.incidents)
    builds = builds or run_builds(names, slo, args.freq, read.events, by)
    inc = cast(pd.DataFrame, read.incidents)  # --incidents is required
    scored, unmatched = scored_incidents(inc, read.events, by, args.incidents)
    bins = bin_events(read.events, args.freq, by=by or None)
    periods = _periods(slo, read.events, by)
    print(wrap(f"{read.title}: {counted(len(read.events), 'event')} in bins of "
               f"{prose_duration(args.freq)}; {counted(len(inc), 'incident')} from "
               f"{path_label(args.incidents)}; SRE budget period {periods}", indent=""))
    print_incident_notes(inc, args.incidents, by, read.file_columns(args), more=[unmatched])
    print_slo(slo, by, events=read.events, tracker=False)  # the policies read the target
    split = split_by_verdict(bins, slo)  # the rule of notebook 02's policy choice
    tables, episodes, own, judged = [], {}, {}, scored
    for name in names:
        # the preset name, not a policy object: each group's policy is built for its SLO's period
        got = score_policy(name, bins, slo, split, scored, args.grace)
        episodes[name], own[name], judged = got.episodes, got.scores, got.scored
        tables.append(got.table.assign(policy=name))
        # the tiers the groups ran: the builds for their periods
        print("\n" + wrap(f"policy {name} ({counted(len(got.episodes), 'alert episode')}; "
                          f"{tiers_text(builds[name])})", indent=""))
        print_score_notes(got.scores, got.episodes, len(inc), by, budget=bool(args.out),
                          tz=args.tz, incidents=scored, grace=args.grace, withheld=got.withheld,
                          span=read.events["ts"].max() - read.events["ts"].min())
        if got.line:
            print(wrap(got.line, indent=""))
    print(wrap(SCORE_FOOTNOTE, indent=""))
    if args.out:
        table = pd.concat(tables, ignore_index=True)
        write_output(table[["policy", *[c for c in table.columns if c != "policy"]]], args,
                     "score row")
    if args.plot:
        from .alert_figure import drawn_groups, plot_policies

        evaluated = bins[by].drop_duplicates() if by else None  # groups without episodes too
        if evaluated is not None:
            evaluated, episodes, line = drawn_groups(evaluated, episodes, inc, by,
                                                     group_limit(args))
            if line:
                print(wrap(line, indent=""))
        plot_policies(args.plot, episodes, inc, args.force, tz=args.tz, groups=evaluated,
                      bins=bins, grace=args.grace, scores=own, scored=judged,  # scored once
                      target=slo)  # the thin groups' bars light, keyed as left out
        print(f"wrote the plot to {path_label(args.plot)}")
    return 0


#: The handlers of this module's subcommands (their parsers are in :mod:`budgetlab.cli.commands`).
COMMANDS = {"incident": _cmd_incident, "alerts": _cmd_alerts}
