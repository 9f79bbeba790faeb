"""The flags of ``budgetlab backtest`` (:mod:`budgetlab.cli.backtest` runs it): the server, the
SLO and its SLI, the span, HTTP, incidents and outputs."""

from __future__ import annotations

import argparse
from typing import Any

from .number_flags import number
from .options import OUT_PRECISION, add_tz_option

__all__ = ["add_backtest_flags", "add_slo_flags"]


def add_backtest_flags(p: Any) -> None:
    """Add the flags of ``budgetlab backtest`` to its parser ``p``."""
    p.add_argument("--prometheus", required=True, metavar="URL",
                   help="server URL, e.g. http://localhost:9090")
    add_slo_flags(p.add_argument_group("SLO and SLI"))
    s = p.add_argument_group("span")
    s.add_argument("--since", default="30d", help="how far back from --end (default 30d)")
    s.add_argument("--start", default=None,
                   help="start time (ISO 8601; naive times in --tz) instead of --since")
    s.add_argument("--end", default=None,
                   help="end time (ISO 8601; naive times in --tz; default: now, at a bin boundary)")
    add_tz_option(s, naive="--start/--end")
    s.add_argument("--freq", default="1min",
                   help="bin width and query step (default 1min; >= scrape interval)")
    h = p.add_argument_group("HTTP")
    h.add_argument("--timeout", type=number, default=30.0,
                   help="seconds for the whole read, every request from the first to the "
                        "last byte of the last answer (one deadline; 30)")
    h.add_argument("--max-series", type=int, default=1000, metavar="N",
                   help="most series one answer may hold; sizes the cap on its bytes (N x points x "
                        "48 B + 1 MiB; up to 4 answers read at once; default 1000)")
    h.add_argument("--header", action="append", default=None, metavar="'NAME: VALUE'",
                   help="extra HTTP header, repeatable (e.g. Authorization); never printed")
    o = p.add_argument_group("incidents and outputs")
    o.add_argument("--incidents", default=None, metavar="CSV",
                   help="incident_id,start,end[,scope,kind] for scoring")
    o.add_argument("--grace", default="1h",
                   help="alerts up to this long after an incident still detect it (1h)")
    o.add_argument("--out", default=None, metavar="DIR|FILE",
                   help="folder for bins/episodes/detections/scores .csv, or one .csv/.parquet of "
                        f"the episodes; {OUT_PRECISION}")
    o.add_argument("--plot", default=None, metavar="FILE",
                   help="write a timeline of the episodes (.png, .svg or .pdf, by the suffix)")
    o.add_argument("--force", action="store_true", help="overwrite existing outputs")


def add_slo_flags(g: Any) -> None:
    """The SLO, its SLI (counters or a histogram), its groups and the policies compared."""
    g.add_argument("--slo", default=None, metavar="SLO.yaml[#NAME]",
                   help="OpenSLO (ratioMetric with Prometheus queries) or Sloth prometheus/v1 spec")
    g.add_argument("--total", default=None,
                   help="counter of all events (selector or PromQL), without --slo")
    g.add_argument("--errors", default=None, help="counter of failed events (with --total)")
    g.add_argument("--good", default=None, help="counter of successful events (not --errors)")
    g.add_argument("--histogram", default=None, metavar="NAME[{MATCHERS}]",
                   help="latency SLI: a Prometheus histogram of durations (its _bucket and _count "
                        "series), with --slow-above")
    g.add_argument("--slow-above", default=None, metavar="DURATION",
                   help="latency threshold: events slower than this are bad; must be a bucket "
                        "bound of --histogram")
    g.add_argument("--by", default=None, help="labels to group by, comma-separated (sum by (...))")
    g.add_argument("--not-personal", default=None, metavar="LABEL,...",
                   help="--by labels named like people or accounts (user, client, ...) that name "
                        "no person here")
    # read as typed (one_target): a refusal echoes 95, not 95.0
    g.add_argument("--target", default=None, help="target success rate (default: spec)")
    g.add_argument("--period", default=None,
                   help="SRE budget period of the burn factors and of budget_spent_pct (default: "
                        "spec, else 30d); the spec's own tiers keep their budget fractions")
    g.add_argument("--window", default=None, help=argparse.SUPPRESS)  # refused: see --period
    g.add_argument("--policy", default=None,
                   help="policies to compare, comma-separated: workbook, pyrra, sloth, sloth30, "
                        "sloth28, single_window (default: the spec's); single_window is always "
                        "one 1 h window at burn 0.9, whatever --period says")
