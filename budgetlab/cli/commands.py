"""The parsers of the subcommands whose work needs pandas (``demo``, ``replay``, ``recalibrate``,
``compare-windows``, ``buckets``, ``incident``, ``alerts``, ``latency``), built without
importing it.

Each parser's handler is a :class:`Command`: the module that does the work
(:mod:`~budgetlab.cli.replay`, :mod:`~budgetlab.cli.demo`, :mod:`~budgetlab.cli.analyses`,
:mod:`~budgetlab.cli.buckets`, :mod:`~budgetlab.cli.incidents`, :mod:`~budgetlab.cli.latency`)
is imported when the command runs, and looked up in its ``COMMANDS`` table. ``budgetlab --help``,
``budgetlab COMMAND --help`` and argument errors therefore answer before pandas, numpy, numba or
matplotlib are loaded.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any, NamedTuple

from .number_flags import number
from .options import (
    DEFAULT_TARGET,
    OUT_PRECISION,
    SEED_ROUNDING,
    SHOW_GROUPS,
    add_analysis_options,
    add_log_argument,
    add_log_options,
    add_output_options,
    add_slo_options,
    add_tz_option,
    group_count,
)

__all__ = ["Command", "add_demo", "add_replay", "add_analyses", "add_incidents", "add_latency"]


class Command(NamedTuple):
    """The handler of subcommand ``name``, defined in ``budgetlab.cli.<module>`` (its
    ``COMMANDS[name]``) and imported on the first call. (A named tuple: :mod:`dataclasses` would
    import :mod:`inspect`, 20 ms of start-up.)

    >>> Command("replay", "replay")
    Command(module='replay', name='replay')
    """

    module: str
    name: str

    def __call__(self, args: argparse.Namespace) -> int:
        """Import the module that does the work and run the command with ``args``."""
        handlers = importlib.import_module(f"{__package__}.{self.module}").COMMANDS
        return int(handlers[self.name](args) or 0)


def add_demo(subparsers: Any) -> None:
    """Register ``budgetlab demo``."""
    demo = subparsers.add_parser("demo", help="replay the embedded sample data and tell its story")
    # the demo's own defaults (cli.demo's DEMO_TARGETS, said here: that module loads pandas)
    add_slo_options(demo, slo_file=False, by_default="captcha_type", target_default=(
        "the demo's per-type targets recaptcha_v2=0.93,turnstile=0.97,image=0.88 by "
        f"captcha_type; {DEFAULT_TARGET} under another --by"))
    add_output_options(demo,
                       out=f"write every status change (.csv or .parquet; {SEED_ROUNDING})")
    add_tz_option(demo, naive=None)
    demo.add_argument("--gap", default="30min",
                      help="merge CRITICAL episodes less than this apart (default 30min)")
    demo.set_defaults(func=Command("demo", "demo"))


def add_replay(subparsers: Any) -> None:
    """Register ``budgetlab replay``."""
    rep = subparsers.add_parser("replay",
                                help="replay an outcome log through the seed tracker, vectorized")
    add_log_argument(rep)
    add_slo_options(rep)
    add_log_options(rep)
    out = add_output_options(rep, groups="--summary-out writes every group's row")
    out.add_argument("--summary-out", default=None, metavar="FILE",
                     help="write the summary table, one row per group (.csv or .parquet; "
                          f"{OUT_PRECISION})")
    rep.add_argument("--incidents", default=None, metavar="CSV",
                     help="incidents table (incident_id,start,end[,scope,kind]): listed after the "
                          "summary and drawn on the --plot timeline; an input, never overwritten")
    rep.add_argument("--plot-groups", default=None, metavar="NAMES",
                     help="the groups the --plot timeline draws, by name (their --by values joined "
                          "by '/', comma-separated; default: the most failures, then the most "
                          "events)")
    rep.set_defaults(func=Command("replay", "replay"))


def add_analyses(subparsers: Any) -> None:
    """Register ``recalibrate``, ``compare-windows``, ``buckets``, ``incident`` and ``alerts``."""
    p = subparsers.add_parser("recalibrate",
                              help="recommend a target per group from the log's history")
    add_analysis_options(p, out=f"write the per-group table (.csv or .parquet; {OUT_PRECISION})",
                         groups="--out writes every group's row",
                         plot="write the rolling-rate distributions and recommendations (.png, "
                              ".svg, .pdf)")
    g = p.add_argument_group("recalibration")
    g.add_argument("--history", default="28D",
                   help="history counted back from the last event (default 28D)")
    g.add_argument("--step", type=number, default=0.005,
                   help="fine step of the candidate targets (default 0.005)")
    g.add_argument("--max-share", type=number, default=None,
                   help="largest share of time at --limit-status or worse (default: "
                        "budgetlab.recalibrate's, 0.01)")
    g.add_argument("--limit-status", default="exhausted", choices=["warning", "critical",
                                                                   "exhausted"],
                   help="the status the rule limits (default exhausted)")
    g.add_argument("--n-boot", type=int, default=200,
                   help="bootstrap samples over days (default 200; 0: none)")
    g.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    g.add_argument("--candidates-out", default=None, metavar="FILE",
                   help="write the candidates' table: per group and candidate target, the share "
                        "of time in each status, transitions and pages per day (.csv or "
                        f".parquet; {OUT_PRECISION})")
    p.set_defaults(func=Command("analyses", "recalibrate"))

    p = subparsers.add_parser("compare-windows",
                              help="replay the tracker under several windows side by side")
    add_analysis_options(p, out="write the comparison table (.csv or .parquet; "
                                f"{OUT_PRECISION})",
                         groups="--out writes every group's rows, one per window",
                         plot="write flapping against reaction time per window (.png, .svg, .pdf)")
    g = p.add_argument_group("windows")
    g.add_argument("--windows", default="1h,6h,24h,7D",
                   help="windows to compare, comma-separated; calendar:day|week|month reset at "
                        "midnight in --tz (default 1h,6h,24h,7D)")
    g.add_argument("--incidents", default=None, metavar="CSV",
                   help="incident_id,start,end[,scope,kind] to score")
    g.add_argument("--min-dwell", default="0s",
                   help="hysteresis: a status must hold this long (default 0s)")
    # None when not typed: without --incidents they are refused (they would do nothing)
    g.add_argument("--alert-at", default=None, choices=["warning", "critical", "exhausted"],
                   help="the status that counts as noticing an incident (default critical)")
    g.add_argument("--grace", default=None,
                   help="detections up to this long after an incident count (default 1h)")
    g.add_argument("--warmup", default="0s",
                   help="time after the first event left out of the shares (default 0s)")
    p.set_defaults(func=Command("analyses", "compare-windows"))

    p = subparsers.add_parser("buckets",
                              help="what each failure bucket costs: burn, SLI without it, changes "
                                   "caused")
    add_analysis_options(p, out="write the group x bucket table (.csv or .parquet; "
                                f"{OUT_PRECISION})",
                         groups="--out writes every group's rows, one per bucket",
                         plot="write the burn over time stacked by bucket (.png, .svg, .pdf)")
    g = p.add_argument_group("buckets")
    g.add_argument("--freq", default="1min", help="bin width of the alert policy (default 1min)")
    g.add_argument("--plot-freq", default=None,
                   help="bin width of the --plot figure (default 1h)")
    p.set_defaults(func=Command("buckets", "buckets"))

    add_incidents(subparsers)


#: What ``--policy`` of ``incident`` and ``alerts`` builds: presets for the SLO's SRE budget
#: period (``as_policy(name, period=slo.period)``), which ``--window`` never sets.
PRESET_PERIOD = ("presets only (an --slo file's own alert policies are not replayed), each "
                 "built for the SLO's SRE budget period: the --slo file's (its timeWindow, per "
                 "group when it binds several), else 30d, never --window (the tracker window); "
                 "workbook and pyrra keep their burns and scale their windows to it (pyrra names "
                 "its tiers by their windows: SLOs of different periods are refused with it), "
                 "sloth takes 28d or 30d only, single_window is one 1 h window at burn 0.9 at "
                 "any period")


def add_incidents(subparsers: Any) -> None:
    """Register ``budgetlab incident`` and ``budgetlab alerts``."""
    p = subparsers.add_parser("incident",
                              help="replay an incident: tracker, alert tiers, budget, failure "
                                   "buckets")
    add_analysis_options(p,
                         out="write the status changes in each reported window (.csv or "
                             f".parquet; {OUT_PRECISION}; current_rate, burn_rate and the "
                             "budget columns computed from each change's counts, not rounded "
                             "as the seed's report and replay --out round them)",
                         plot="write the incident's timeline, alerts and bucket burn (.png, .svg, "
                              ".pdf)",
                         groups="--tiers-out writes every group's rows, one per tier and incident")
    g = p.add_argument_group("incident")
    g.add_argument("--tiers-out", default=None, metavar="FILE",
                   help="write the alert tiers' table of every group, one row per group x tier "
                        f"and incident (.csv or .parquet; {OUT_PRECISION})")
    g.add_argument("--start", default=None, help="incident start (ISO 8601; naive times in --tz)")
    g.add_argument("--end", default=None, help="incident end, exclusive")
    g.add_argument("--incidents", default=None, metavar="CSV",
                   help="incident_id,start,end[,scope,kind] instead of --start/--end: every "
                        "incident, or --id")
    g.add_argument("--id", default=None, help="the incident of --incidents to report")
    g.add_argument("--scope", default=None,
                   help="only events in this scope, e.g. captcha_type=recaptcha_v2 (default: "
                        "the incident's scope, else all)")
    g.add_argument("--context", default="6h",
                   help="time shown before and after the incident (default 6h); the budget "
                        "share does not depend on it: it is sized from the whole log in "
                        "--scope, first to last event")
    g.add_argument("--policy", default="workbook",
                   help="alert policy replayed: workbook, sloth, pyrra, single_window (default "
                        f"workbook); {PRESET_PERIOD}")
    g.add_argument("--breakdown-by", default=None,
                   help="group keys of the bucket breakdown, some or all of --by's keys "
                        "(others are refused: the log keeps only the --by keys; default: --by)")
    g.add_argument("--freq", default="1min", help="bin width of the alert policy (default 1min)")
    g.add_argument("--grace", default="1h",
                   help="alerts up to this long after the incident still detect it, as in "
                        "alerts (1h)")
    p.set_defaults(func=Command("incidents", "incident"))

    p = subparsers.add_parser("alerts", help="score alert policies against an incidents table")
    add_analysis_options(p, out="write the scores of every policy (.csv or .parquet; "
                                f"{OUT_PRECISION})",
                         plot="write the alert episodes per policy against the incidents (.png, "
                              ".svg, .pdf)")
    g = p.add_argument_group("alerts")
    g.add_argument("--incidents", required=True, metavar="CSV",
                   help="incident_id,start,end[,scope,kind]")
    g.add_argument("--policy", default="workbook",
                   help="policies, comma-separated: workbook, pyrra, sloth, single_window "
                        f"(default workbook); {PRESET_PERIOD}")
    g.add_argument("--freq", default="1min",
                   help="bin width (default 1min; must divide the policies' windows)")
    g.add_argument("--grace", default="1h",
                   help="alerts up to this long after an incident still detect it (1h)")
    g.add_argument("--show-groups", type=group_count, default=None, metavar="N",
                   help=f"with more groups of --by than N (default {SHOW_GROUPS}), --plot draws "
                        "N of them: those an incident's scope names, then the most alert "
                        "episodes; 0 draws them all (--out writes every group's scores)")
    p.set_defaults(func=Command("incidents", "alerts"))


def add_latency(subparsers: Any) -> None:
    """Register ``budgetlab latency``."""
    p = subparsers.add_parser("latency",
                              help="latency profile of a log with durations: shares within "
                                   "thresholds, censored quantiles, the client-timeout trade-off")
    add_log_argument(p)
    add_log_options(p)
    add_output_options(p, out="write the shares table per group and period (.csv or .parquet; "
                           f"{OUT_PRECISION})",
                       plot="write the shares over time, or with --timeouts the trade-off (.png, "
                            ".svg, .pdf)",
                       groups="--out writes every group's shares per threshold and --freq period, "
                              "not its other figures")
    g = p.add_argument_group("latency")
    g.add_argument("--thresholds", default=None,
                   help="latency thresholds, comma-separated (e.g. 10s,20s,30s); default: the "
                        "50th, 75th, 90th, 95th and 99th percentiles of the successes' durations, "
                        "each rounded up to 0.1 s (latency_recalibrate's default grid), stated")
    g.add_argument("--by", default=None, help="group keys, comma-separated (e.g. captcha_type)")
    g.add_argument("--freq", default=None,
                   help="period of the --out table and of the shares plot (default 1D)")
    g.add_argument("--quantiles", default="0.5,0.9,0.99",
                   help="quantiles of the time to success (default 0.5,0.9,0.99)")
    g.add_argument("--client-timeout", default=None, metavar="DURATION",
                   help="the client timeout in force when the log does not show it (no timeout "
                        "rows)")
    g.add_argument("--timeouts", default=None, metavar="DURATION,...|auto",
                   help="candidate client timeouts at or below the one in force: the trade-off "
                        "table (a group whose own timeout is shorter is withheld at a longer one); "
                        "auto: a third, a half, three quarters and all of the longest timeout in "
                        "force (--client-timeout, else read from the log), the reading stated")
    g.add_argument("--window", default=None, metavar="DURATION",
                   help="tracker window (e.g. 1h, 24h): which target each threshold supports, and "
                        "the frontier (the smallest threshold each target allows)")
    g.add_argument("--target", default=None, metavar="TARGET|GROUP=TARGET,...",
                   help="the current target, reported beside the supported ones (with --window), "
                        "or one per group of the --by key, e.g. recaptcha_v2=0.93,turnstile=0.97")
    g.add_argument("--n-boot", type=int, default=None,
                   help="bootstrap resamples of the supported targets (with --window or --slo; "
                        "default 200; 0: none)")
    g.add_argument("--slo", default=None, metavar="SLO.yaml[#NAME]",
                   help="OpenSLO v1 file: its target is the current one and its window the "
                        "tracker's for the supported targets (as --target and --window; those "
                        "flags override it); FILE#NAME picks one SLO, applied to the events its "
                        "labels select")
    # the rest of the SLO that --target and --window make (recalibrate's parser reads them): its
    # defaults, latency having no flag for them
    p.set_defaults(func=Command("latency", "latency"), warning=None, critical=None,
                   min_events=None)
