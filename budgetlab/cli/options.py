"""The options the log-reading subcommands share (``replay``, ``demo`` and every analysis): the
positional ``LOG...``, the SLO, the input columns and the outputs; and what the reading flags
mean: ``--by`` as group keys, ``--outcomes`` as a mapping, the
:class:`~budgetlab.events.spec.ReadSpec` of the input flags, and :func:`read_paths`, which reads
the files by them as every command reads its ``LOG...``: an access log (recognised by its first
line) with :func:`~budgetlab.read_access_log`, anything else with :func:`~budgetlab.read_events`.

Only :mod:`argparse` and light modules at import, so that ``budgetlab COMMAND --help`` answers
before pandas is imported; the readers are imported when a command reads.
:mod:`budgetlab.cli.reading` adds what a command does around the read (inputs registered,
outputs checked, the "how it was read" block); :mod:`budgetlab.cli.read_flags` reads a
notebook's ``read`` parameter by the same flags.
"""

from __future__ import annotations

import argparse
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._util.words import flags_as
from ..errors import ConfigError
from .number_flags import number

if TYPE_CHECKING:
    import pandas as pd

    from ..events.spec import ReadSpec

__all__ = ["add_log_argument", "add_slo_options", "add_output_options", "add_log_options",
           "add_analysis_options", "add_tz_option", "SHOW_GROUPS", "group_count", "flag_table",
           "OUT_DIGITS", "OUT_PRECISION", "SEED_ROUNDING",
           "DEFAULT_TARGET", "DEFAULT_WINDOW",
           "group_keys", "parse_outcomes", "read_spec", "read_paths"]


def add_log_argument(p: argparse.ArgumentParser) -> None:
    """The positional ``LOG...``."""
    p.add_argument("log", nargs="+",
                   help="one or more outcome logs: .csv, .tsv, .parquet, .jsonl (optionally .gz), "
                        "Apache/nginx access logs; several files, a glob or a folder")


#: The target and window of a command line that gives neither (``--target``, ``--window``).
DEFAULT_TARGET, DEFAULT_WINDOW = 0.95, "24h"


def add_slo_options(p: argparse.ArgumentParser, *, slo_file: bool = True,
                    target_default: str = str(DEFAULT_TARGET), by_default: str = "") -> None:
    """``--target``, ``--window``, ``--warning``, ``--critical``, ``--min-events``, ``--by`` and
    (with ``slo_file``) ``--slo FILE``; their help names ``target_default`` and ``by_default``
    (none said when empty) as the defaults."""
    g = p.add_argument_group("SLO")
    g.add_argument("--target", default=None, metavar="TARGET|GROUP=TARGET,...",
                   help=f"target success rate (default: {target_default}), or one per group of "
                        "the --by key, e.g. recaptcha_v2=0.93,turnstile=0.97")
    g.add_argument("--window", default=None,
                   help=f"trailing window, e.g. 1h, 24h, 7D (default: {DEFAULT_WINDOW})")
    g.add_argument("--warning", type=number, default=None,
                   help="warning below this budget fraction (0.5)")
    g.add_argument("--critical", type=number, default=None,
                   help="critical below this budget fraction (0.1)")
    g.add_argument("--min-events", type=int, default=None,
                   help="hold the status below this many events (0)")
    g.add_argument("--by", default=None,
                   help="group keys, comma-separated (e.g. captcha_type,region)"
                        + (f" (default: {by_default})" if by_default else ""))
    if slo_file:
        g.add_argument("--slo", default=None, metavar="SLO.yaml[#NAME]",
                       help="OpenSLO v1 file; several SLOs bound to groups by metadata.labels "
                            "(keys named in --by) "
                            "apply each to its group; FILE#NAME picks one, applied to the events "
                            "its labels select (--window/--warning/--critical/--min-events "
                            "override them)")


#: Significant digits of the float figures every table output writes (``--out``, ``--summary-out``,
#: ``--tiers-out``: :func:`budgetlab.cli.shared.out_figures`): a stated precision, far above what
#: the counts carry, that drops float noise (a burn of 3 computed as 3.000000000000001 is written
#: 3.0).
OUT_DIGITS = 12
#: How the ``--help`` of each table output states :data:`OUT_DIGITS`.
OUT_PRECISION = (f"its figures to {OUT_DIGITS} significant digits, a duration in a CSV as the "
                 "window column writes one: 24m (minutes), 1h30m, 10s")
#: How the ``--help`` of ``replay --out`` and ``demo --out`` states their rounding (the seed's).
SEED_ROUNDING = "its figures rounded as the seed tracker's report rounds them"


def add_output_options(p: argparse.ArgumentParser, *,
                       out: str = "write the transitions table (.csv or .parquet; times "
                                  f"in UTC, ISO-8601, whatever --tz; {SEED_ROUNDING})",
                       plot: str = "write a timeline (.png, .svg or .pdf)",
                       groups: str | None = None) -> argparse._ArgumentGroup:
    """``--out``, ``--plot`` and ``--force``, and with ``groups`` (the file flag that writes every
    group and what it writes per group, for its help: ``--out writes every group's rows, one per
    bucket``) ``--show-groups``; the "outputs" group, for a command's own."""
    g = p.add_argument_group("outputs")
    g.add_argument("--out", default=None, help=out)
    g.add_argument("--plot", default=None, help=plot)
    g.add_argument("--force", action="store_true", help="overwrite existing outputs")
    if groups is not None:
        g.add_argument("--show-groups", type=group_count, default=None, metavar="N",
                       help=f"with more groups than N (default {SHOW_GROUPS}), the terminal "
                            f"shows N of them, chosen as the line under the table says; 0 shows "
                            f"them all ({groups})")
    return g


#: The groups a command prints on the terminal at most, unless ``--show-groups`` says otherwise
#: (:func:`budgetlab.cli.shown_groups.shown_groups`): a table of 40 groups reads on a screen or
#: two; one of 5,000 does not.
SHOW_GROUPS = 40


def group_count(text: str) -> int:
    """``--show-groups``' value: a whole number, 0 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is below 0 (0 shows every group)")
    return n


class _Given(argparse.Action):
    """An option remembered as typed (``args.<flag>_given``: ``tz_given``, ``strict_given``): a
    log's naive times read in the default UTC are stated as the default, not as a zone the user
    chose; a message about ``--on-error`` names ``--strict`` when that was the flag typed. With
    ``nargs=0`` the option takes no value and stores ``const``."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)
        setattr(namespace, f"{str(option_string).lstrip('-').replace('-', '_')}_given", True)


def flag_table(parser: argparse.ArgumentParser) -> dict[str, str]:
    """A command's flags by the keyword names an API message may use: each option's destination
    and its long name spelled as a keyword (``min_events`` and ``slo_file`` -> ``--min-events``).

    >>> p = argparse.ArgumentParser()
    >>> add_log_options(p)
    >>> flag_table(p)["on_error"], flag_table(p)["ok_when"]
    ('--on-error', '--ok-when')
    """
    table: dict[str, str] = {}
    for action in parser._actions:
        for flag in (s for s in action.option_strings if s.startswith("--")):
            table.setdefault(action.dest, flag)
            table.setdefault(flag[2:].replace("-", "_"), flag)
    return table


def add_tz_option(g: argparse._ActionsContainer, *, naive: str | None) -> None:
    """``--tz``, the zone of the ``--plot`` axis (the data stay UTC), and of the naive times the
    command reads (``naive`` says which; ``None``: it reads none, ``demo``: its printed episodes
    and incidents are on that clock)."""
    of = (f"naive {naive} and of the plot axis" if naive else
          "the plot axis and of the episodes and incidents printed, with their UTC offset")
    g.add_argument("--tz", default="UTC", action=_Given,
                   help=f"time zone of {of} (default: UTC)")


def add_log_options(p: argparse.ArgumentParser) -> None:
    """How to read the log's columns: ``--time``, ``--outcome``, ``--ok``, ``--outcomes``, ..."""
    g = p.add_argument_group("input columns")
    g.add_argument("--time", default="ts", help="time column (default: ts)")
    # no default here: --ok-when refuses an --outcome typed beside it (read_spec fills in outcome)
    g.add_argument("--outcome", default=None, help="outcome-label column (default: outcome)")
    g.add_argument("--ok", default=None, help="boolean success column instead of --outcome")
    g.add_argument("--ok-when", default=None, metavar="'COLUMN<NUMBER'",
                   help="a metric series (one measured value per row) read by your threshold: a "
                        "row is a success when the comparison holds (<, <=, >, >=), e.g. "
                        "'value<300'; instead of --outcome and --ok")
    g.add_argument("--bucket", default=None, help="failure-kind column (with --ok)")
    add_tz_option(g, naive="timestamps")
    g.add_argument("--epoch", default=None, choices=["s", "ms", "us", "ns"],
                   help="unit of numeric timestamps")
    g.add_argument("--pii", default="error", choices=["error", "drop", "hash"],
                   help="personal-data policy")
    g.add_argument("--salt", default=None, help="secret for --pii hash")
    g.add_argument("--not-personal", default=None, metavar="KEY,...",
                   help="group keys named like people or accounts (user, client, ...) that name no "
                        "person here")
    g.add_argument("--outcomes", default=None, metavar="LABEL=MEANING,...",
                   help="complete outcome mapping: LABEL=success, LABEL=<failure bucket> or "
                        "LABEL=skip (rows left "
                        "out, counted); HTTP status ranges allowed, e.g. "
                        "2xx=success,3xx=success,4xx=skip,"
                        "5xx=server_error (unlisted labels are refused; a label holding , or = "
                        "in quotes: 'ok=success,\"err,conn\"=failure')")
    g.add_argument("--duration", default=None, metavar="COLUMN",
                   help="request-duration column (for --slow-above)")
    g.add_argument("--duration-unit", default=None, choices=["s", "ms", "us", "ns"],
                   help="unit of numeric durations")
    g.add_argument("--slow-above", default=None, metavar="DURATION",
                   help="latency SLI: successes slower than this (e.g. 2s) count as failures in "
                        "bucket 'slow'")
    g.add_argument("--format", default=None, choices=["csv", "tsv", "parquet", "jsonl", "access"],
                   help="file format when the extension does not say it (access: Apache/nginx "
                        "access log; recognised by content anyway)")
    g.add_argument("--encoding", default="utf-8",
                   help="text encoding of CSV/JSON Lines (default: utf-8)")
    _add_text_log_options(p)


def _add_text_log_options(p: argparse.ArgumentParser) -> None:
    """How to read line-oriented text logs: ``--pattern``, ``--preset``, ``--time-format``,
    ``--year``, ``--on-error`` (or ``--strict``)."""
    g = p.add_argument_group("line-oriented text logs (.log, .txt, compressed)")
    g.add_argument("--pattern", default=None, metavar="REGEX",
                   help="one event per matching line: an RE2 regular expression whose named groups "
                        "are the columns, "
                        "e.g. '^(?P<ts>\\S+ \\S+) (?P<outcome>\\w+)' (unmatched lines are counted, "
                        "not events)")
    g.add_argument("--preset", default=None, choices=["sshd", "proxifier", "access"],
                   help="a named --pattern with its --time-format and --outcomes (docs: own-log "
                        "page)")
    g.add_argument("--time-format", default=None, metavar="FORMAT",
                   help="read times as written with this strptime format, e.g. '%%b %%d "
                        "%%H:%%M:%%S'")
    g.add_argument("--year", default=None, type=int, metavar="YYYY",
                   help="year of the first line, for a --time-format without one (a log crossing "
                        "New Year goes on "
                        "in the next)")
    lines = g.add_mutually_exclusive_group()
    lines.add_argument("--on-error", default=None, choices=["count", "raise", "skip"],
                       help="lines not in the format: count them (default with --pattern, "
                            "--preset), raise (refuse them; the default for access logs read "
                            "without --preset) or skip them with a warning")
    lines.add_argument("--strict", dest="on_error", action=_Given, nargs=0, const="raise",
                       help="the same as --on-error raise")


def add_analysis_options(p: argparse.ArgumentParser, *, out: str, plot: str,
                         groups: str | None = None) -> None:
    """The options every analysis shares with ``replay``: ``LOG...``, the SLO (``--slo``), the
    input columns and the outputs."""
    add_log_argument(p)
    add_slo_options(p)
    add_log_options(p)
    add_output_options(p, out=out, plot=plot, groups=groups)


def group_keys(args: argparse.Namespace) -> list[str]:
    """``--by a,b`` as a list of column names."""
    by = getattr(args, "by", None)
    return [b.strip() for b in by.split(",") if b.strip()] if by else []


def parse_outcomes(text: str | None) -> dict[str, str] | None:
    """``--outcomes ok=success,pending=skip,5xx=server_error`` as a mapping (None when not given).
    A label holding ``,`` or ``=`` is written in quotes (:func:`budgetlab._util.pairs.split_items`);
    a label without quotes ends at the item's last ``=``.

    >>> parse_outcomes("done=success,pending=skip,'err,conn'=failure")
    {'done': 'success', 'pending': 'skip', 'err,conn': 'failure'}
    """
    if text is None:
        return None
    from .._util.pairs import split_items

    table: dict[str, str] = {}
    for label, sep, bucket in split_items(text):
        if not sep or not label or not bucket:
            raise ConfigError("--outcomes: an item is not LABEL=MEANING (e.g. "
                              "done=success,pending=skip,"
                              "5xx=server_error; a label holding , or = in quotes, the whole "
                              "value quoted for the shell: 'ok=success,\"err,conn\"=failure').")
        table[label] = bucket
    return table


def read_spec(args: argparse.Namespace) -> ReadSpec:
    """The :class:`~budgetlab.events.spec.ReadSpec` of the command line's reading flags."""
    from ..events.spec import ReadSpec

    text_logs: dict[str, Any] = {k: getattr(args, k, None) for k in ("pattern", "preset",
                                                                     "time_format", "year")}
    ok_when = getattr(args, "ok_when", None)
    if ok_when is not None and args.outcome is not None:  # typed, even as the default's name
        from ..events.threshold import both_given_error

        raise both_given_error("outcome")
    # --strict is --on-error raise: a refusal of the choice names the flag typed
    with flags_as(on_error="--strict") if getattr(args, "strict_given", False) else nullcontext():
        return ReadSpec(time=args.time, ok=args.ok, ok_when=ok_when, bucket=args.bucket,
                        outcome=args.outcome if args.outcome is not None else "outcome",
                        by=group_keys(args),
                        tz=args.tz if getattr(args, "tz_given", False) else None,  # else stated
                        epoch=args.epoch, pii=args.pii, salt=args.salt,
                        outcomes=parse_outcomes(args.outcomes),
                        format=args.format, encoding=args.encoding, duration=args.duration,
                        duration_unit=args.duration_unit, slow_above=args.slow_above,
                        on_error=getattr(args, "on_error", None) or "count",
                        not_personal=[k.strip() for k in (getattr(args, "not_personal", None)
                                                          or "").split(",") if k.strip()],
                        **text_logs)


def _refuse_personal_data_flags(args: argparse.Namespace) -> None:
    """``--pii drop|hash`` and ``--salt`` on an access log: it never reads a personal field, so
    they would do nothing, and a flag that does nothing is refused, not ignored."""
    given = [f"--pii {args.pii}"] if args.pii != "error" else []
    if args.salt is not None:
        given.append("--salt")
    if given:
        raise ConfigError(f"{' and '.join(given)} would do nothing: an access log's client "
                          "address, user, request path, referrer and user agent are never read "
                          "(only the time, the status and the method); leave "
                          f"{'them' if len(given) > 1 else 'it'} out.")


def read_paths(paths: list[Path], args: argparse.Namespace) -> tuple[pd.DataFrame, bool]:
    """The events of ``paths`` read with the command line's reading flags (``args``), and
    whether they were access logs: recognised by their first line unless ``--format`` names
    another format or a ``--pattern``/``--preset`` is given; every reading flag that would do
    nothing on an access log is refused."""
    from ..events.accesslog import is_access_log
    from ..privacy import shown

    lines = getattr(args, "pattern", None) is not None or getattr(args, "preset", None) is not None
    access = [is_access_log(p) for p in paths] if args.format in (None, "access") and not lines \
        else [False] * len(paths)
    if args.format == "access" and not all(access):
        bad = next(p for p, a in zip(paths, access, strict=True) if not a)
        raise ConfigError(f"{shown(bad.name)}: its first line is not in common/combined access-log "
                          "format; "
                          "check --format.")
    if any(access) and not all(access):
        log = next(p for p, a in zip(paths, access, strict=True) if a)
        table = next(p for p, a in zip(paths, access, strict=True) if not a)
        raise ConfigError(f"the inputs mix access logs ({shown(log.name)}) and event tables "
                          f"({shown(table.name)}); give one kind per run.")
    if all(access) or getattr(args, "preset", None) == "access":
        _refuse_personal_data_flags(args)
    if not all(access):
        from ..events.read import read_events

        return read_events(paths, read_spec(args)), False
    from ..events.accesslog import read_access_log

    if getattr(args, "ok_when", None) is not None:  # a flag that would do nothing
        raise ConfigError("--ok-when reads a metric series; an access log's outcome is its "
                          "status: map the statuses with --outcomes (e.g. 5xx=server_error).")
    if args.slow_above is not None or args.duration is not None:
        flag = "--duration" if args.duration is not None else "--slow-above"
        raise ConfigError(f"{flag} needs a duration column, and access logs in "
                          "common/combined format carry none. If your lines end with the "
                          "request time (nginx $request_time, Apache %D), read them with a "
                          "--pattern whose group (?P<duration>...) holds it, and --duration "
                          "duration --duration-unit; else export the log with its request "
                          "time as CSV/JSON Lines and pass --duration COLUMN.")
    if args.on_error == "count":
        raise ConfigError("--on-error count goes with --pattern or --preset; pass --preset "
                          "access to count the lines not in the format of an access log.")
    return read_access_log(paths, outcomes=parse_outcomes(args.outcomes),
                           by=group_keys(args) or None, on_error=args.on_error or "raise"), True
