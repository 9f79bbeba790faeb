"""The parser of ``budgetlab export openslo|prometheus`` (argparse only: ``--help`` answers at
once); the work is in :mod:`budgetlab.cli.export`, imported when the command runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ConfigError
from .commands import Command
from .number_flags import number

__all__ = ["add_parser", "refuse_unread", "refuse_window", "refuse_half_latency"]

#: ``export openslo``'s flags that only ``--from-recalibration`` reads
_RECALIBRATION_ONLY = ("--by", "--target-column", "--name-prefix")
#: what each source of the SLOs does not read: given, such a flag was dropped without a word
_NOT_READ = {
    "--from-recalibration": {
        "--target": ": each SLO's target is the one its row's action names (--target-column)",
        "--name": ": the SLOs are named --name-prefix and each group's values",
        "--description": ""},
    "--from": dict.fromkeys(
        ("--name", "--description", "--warning", "--critical", "--min-events"),
        ": the SLOs keep the spec's names, descriptions and tracker thresholds (--target, "
        "--window, --period, --policy, --service and the SLI flags replace theirs)"),
}


def _duration(text: str) -> Any:
    """A ``--window``/``--period`` value: OpenSLO shorthand (``28d``, ``2w``, ``90m``) or any
    duration budgetlab reads (``24h``, ``7D``, ``90min``). One of seconds that is no whole number
    of minutes is refused here, in the words it was typed (``90s``, never ``1m30s``)."""
    from .._util.units import MINUTE_NS
    from .._util.validation import to_timedelta
    from ..interop.openslo import parse_duration_shorthand

    try:
        return parse_duration_shorthand(text)
    except ConfigError:
        pass
    try:
        td = to_timedelta(text, name="duration")
    except ConfigError:
        return text  # refused where it is read, with its own words
    if td.value % MINUTE_NS:  # OpenSLO durations are whole minutes
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of minutes; OpenSLO "
                                         "durations have no seconds")
    return text


#: ``export openslo --window``'s help; ``export prometheus`` takes the flag only to refuse it
#: (:func:`refuse_window`) and leaves it out of its help
_WINDOW_HELP = ("tracker window, e.g. 24h, 28d (whole minutes; the budgetlab/window annotation; "
                "default: the --from file's, the window a --from-recalibration table's targets "
                "were judged under, else 28d)")


def _add_common(p: argparse.ArgumentParser, window_help: str = argparse.SUPPRESS) -> None:
    p.add_argument("out", metavar="OUT.yaml", help="output file")
    p.add_argument("--force", action="store_true", help="overwrite an existing output")
    # read as typed (one_target): a refusal echoes 95, not 95.0
    p.add_argument("--target", default=None, help="target success rate (e.g. 0.95)")
    p.add_argument("--window", type=_duration, default=None, help=window_help)
    p.add_argument("--name", default="slo", help="SLO name (metadata.name; default: slo)")
    p.add_argument("--service", default=None, help="service name (spec.service / sloth_service)")
    p.add_argument("--policy", default=None, metavar="PRESET",  # interop.prometheus.POLICY_PRESETS
                   choices=["workbook", "sloth", "sloth30", "sloth28", "pyrra", "single_window"],
                   help="alert policy preset: workbook, sloth, sloth30, sloth28, pyrra, "
                        "single_window")
    p.add_argument("--period", type=_duration, default=None,
                   help="SRE budget period (OpenSLO timeWindow; default 30d); the policy's burn "
                        "factors refer to it (a file's own tiers keep their budget fractions)")
    p.add_argument("--total-metric", default=None,
                   help="counter of all attempts (e.g. captcha_solves_total)")
    p.add_argument("--errors-metric", default=None, help="counter of failed attempts")
    p.add_argument("--selector", default=None,
                   help="label matchers for both counters, e.g. 'job=\"solver\"'")
    p.add_argument("--histogram", default=None, metavar="NAME[{MATCHERS}]",
                   help="latency SLI: a Prometheus histogram of durations (good: its bucket at "
                        "--slow-above; total: its _count)")
    p.add_argument("--slow-above", default=None, metavar="DURATION",
                   help="latency threshold, a bucket bound of --histogram (le in seconds), e.g. "
                        "500ms")


def _add_openslo(o: argparse.ArgumentParser) -> None:
    """``export openslo``'s own options, beside the common ones."""
    o.add_argument("--description", default=None, help="spec.description")
    o.add_argument("--warning", type=number, default=0.5,
                   help="tracker warning threshold (0.5)")
    o.add_argument("--critical", type=number, default=0.1,
                   help="tracker critical threshold (0.1)")
    o.add_argument("--min-events", type=int, default=0, help="tracker min_events (0)")
    o.add_argument("--from", dest="from_spec", default=None, metavar="SLO.yaml[#NAME]",
                   help="start from an OpenSLO file (--target/--window/--period/--policy/"
                        "--service and the SLI flags override)")
    o.add_argument("--from-recalibration", default=None, metavar="TABLE",
                   help="one SLO per row of a recalibration table (.csv/.parquet), under the "
                        "window its target was judged under (the table's window column); rows "
                        "without a target are left out and named")
    o.add_argument("--by", default=None,
                   help="group keys of the recalibration table (e.g. captcha_type)")
    o.add_argument("--target-column", default=None,
                   help="target column (default: the target the row's action names: "
                        "current_target where it says keep, else recommended_target)")
    o.add_argument("--name-prefix", default="", help="prefix of the SLO names from a recalibration")


def add_parser(subparsers: Any) -> None:
    """Register ``budgetlab export`` with its two formats."""
    exp = subparsers.add_parser("export", help="write OpenSLO v1 or Prometheus rule files")
    fmt = exp.add_subparsers(dest="format", metavar="FORMAT", parser_class=type(exp))
    fmt.required = True

    o = fmt.add_parser("openslo",
                       help="write OpenSLO v1 SLOs (from a target, a spec or a recalibration)")
    _add_common(o, _WINDOW_HELP)
    _add_openslo(o)
    o.set_defaults(func=Command("export", "openslo"))

    p = fmt.add_parser("prometheus",
                       help="write Prometheus recording and alerting rules (Sloth-style names)")
    _add_common(p)
    p.add_argument("--slo", default=None, metavar="SLO.yaml[#NAME]",
                   help="read the SLOs, their queries and alerts from an OpenSLO, Sloth "
                        "prometheus/v1 or Pyrra file")
    p.add_argument("--errors-selector", default=None,
                   help="extra matchers for the errors counter only")
    p.add_argument("--selector-labels", default=None,
                   help="SLO labels to add as matchers, comma-separated (e.g. captcha_type)")
    p.add_argument("--alert-name", default=None,
                   help="alert name (default: the spec's alert name, e.g. Sloth's alerting.name, "
                        "else SLOErrorBudgetBurn)")
    p.add_argument("--interval", default="1m", help="rule group evaluation interval (1m)")
    p.add_argument("--function", default="increase", choices=["increase", "rate"],
                   help="counter function of the ratios (increase: bit-exact ties; rate: Sloth's "
                        "form)")
    p.add_argument("--style", default="budgetlab", choices=["budgetlab", "sloth"],
                   help="budgetlab: one alert per tier (labels severity, tier); sloth: Sloth's "
                        "layout, one alert per severity with tiers OR-ed, sloth_severity label, "
                        "Sloth's meta recordings")
    p.add_argument("--check", action="store_true", help="run 'promtool check rules' before writing")
    p.set_defaults(func=Command("export", "prometheus"))


def refuse_unread(args: argparse.Namespace) -> None:
    """Refuse an ``export openslo`` flag that the source of the SLOs (``--from-recalibration``,
    ``--from``, else the flags) does not read, naming the flag; a flag counts as given when its
    value is not its default."""
    parser = argparse.ArgumentParser(add_help=False)
    _add_common(parser)
    _add_openslo(parser)
    source = ("--from-recalibration" if args.from_recalibration is not None
              else "--from" if args.from_spec is not None else None)
    for action in parser._actions:
        flag = next((s for s in action.option_strings if s.startswith("--")), None)
        if flag is None or getattr(args, action.dest, None) == action.default:
            continue
        if source != "--from-recalibration" and flag in _RECALIBRATION_ONLY:
            raise ConfigError(f"{flag} is read with --from-recalibration only; leave {flag} out.")
        why = _NOT_READ.get(source or "", {}).get(flag)
        if why is not None:
            raise ConfigError(f"{flag} is not read with {source}{why}; leave {flag} out.")


def refuse_window(args: argparse.Namespace) -> None:
    """Refuse ``export prometheus --window``: the rules hold no tracker window (they read the
    SLO's target and period and the policy's windows), so the flag would be dropped without a
    word; ``export openslo`` writes it (the ``budgetlab/window`` annotation)."""
    if args.window is not None:
        raise ConfigError("--window is the tracker window, which Prometheus rules do not hold "
                          "(they alert on the policy's burn-rate windows over --period); leave "
                          "--window out.")


def refuse_half_latency(args: argparse.Namespace) -> None:
    """Refuse ``--histogram`` without ``--slow-above`` or the reverse (``export`` and
    ``backtest``): a latency SLI needs both."""
    if (args.histogram is None) != (args.slow_above is None):
        raise ConfigError("a latency SLI takes both --histogram NAME (a Prometheus histogram of "
                          "durations) and "
                          "--slow-above DURATION (one of its bucket bounds).")
