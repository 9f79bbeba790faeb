"""The latency SLO of an OpenSLO file on the command line: an SLI that is a histogram bucket
over its count (``export openslo --histogram --slow-above``) gives the log's ``--slow-above``
(:func:`adopt_latency`, called by :func:`~budgetlab.cli.reading.slo_from_args`)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pandas as pd

from .._util.validation import duration_label, to_ns
from .._util.words import prose_duration
from ..errors import BudgetlabError, ConfigError
from .prose import wrap

__all__ = ["adopt_latency"]

#: The ``le`` bound of the good query's histogram bucket (seconds).
_BUCKET_LE = re.compile(r'_bucket\s*\{[^}]*\ble\s*=~?\s*"([0-9.eE+]+)')


def adopt_latency(args: argparse.Namespace, path: Path, said: str) -> None:
    """An OpenSLO file whose SLI is a histogram bucket over its count (``export openslo
    --histogram --slow-above``) is a latency SLO: its threshold becomes ``--slow-above`` for the
    log (which needs ``--duration``), so that one definition runs through every command (``said``:
    the file as its messages name it, :func:`~budgetlab.cli.prose.path_label`)."""
    from ..interop.openslo import read_openslo

    if not hasattr(args, "slow_above") or path.suffix.lower() not in (".yaml", ".yml", ".json"):
        return
    try:
        docs = read_openslo(path)
    # a Sloth or Pyrra file: load_slos read it; its SLI is not read from logs
    except BudgetlabError:
        return
    name = str(args.slo).partition("#")[2]
    if name:  # FILE#NAME: that SLO only (load_slos has checked that it exists)
        docs = [d for d in docs if d.name == name] or docs
    found = set()
    for d in docs:
        good = ((d.indicator or {}).get("spec", {}).get("ratioMetric", {}) or {}).get("good") or {}
        m = _BUCKET_LE.search(str(good.get("metricSource", {}).get("spec", {}).get("query", "")))
        if m is not None:
            found.add(float(m.group(1)))
    if not found:
        return
    if len(found) > 1:
        raise ConfigError(f"{said}: its SLOs have different latency thresholds; give one SLO "
                          "with FILE#NAME.")
    threshold = pd.Timedelta(found.pop(), unit="s")
    label, within = duration_label(threshold), prose_duration(threshold)  # typed; in prose
    if getattr(args, "thresholds", None) is not None:  # latency: it reads the durations itself
        given = {to_ns(t.strip(), name="thresholds") for t in args.thresholds.split(",")
                 if t.strip()}
        among = ("one of --thresholds" if threshold.value in given
                 else f"not among --thresholds: add {label} for the file's own")
        sys.stderr.write(wrap(f"{said} is a latency SLO (events within {within}), {among}; "
                              "latency compares its target with each threshold's supported one",
                              indent="") + "\n")
        return
    if args.slow_above is not None:
        if pd.Timedelta(to_ns(args.slow_above, name="slow_above"), unit="ns") != threshold:
            raise ConfigError(f"--slow-above {args.slow_above} differs from the latency threshold "
                              f"of {said} "
                              f"({label}); leave --slow-above out to use the file's.")
        return
    if args.duration is None:
        raise ConfigError(f"{said} is a latency SLO (events within {within}); give --duration "
                          "COLUMN, the log's "
                          "request durations (its threshold is used as --slow-above).")
    args.slow_above = label
    sys.stderr.write(wrap(f"--slow-above {label}: the latency threshold of {said}", indent="")
                     + "\n")
