"""``budgetlab latency``'s lists: ``--thresholds`` checked before the log is read
(:func:`given_thresholds`), or, without it, latency_recalibrate's default grid read from the log
and stated (:func:`default_grid`); ``--quantiles`` checked and echoed as typed
(:func:`given_quantiles`).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._util.validation import check_fraction, to_timedelta
from .._util.words import given_duration
from ..errors import ConfigError
from .number_flags import TypedNumber

__all__ = ["given_thresholds", "default_grid", "DEFAULT_WORDS", "given_quantiles"]

#: The default grid in words (``--help``, the line that states it).
DEFAULT_WORDS = ("the 50th, 75th, 90th, 95th and 99th percentiles of the successes' durations, "
                 "each rounded up to 0.1 s (latency_recalibrate's default grid)")


def given_thresholds(args: argparse.Namespace) -> list[str] | None:
    """``--thresholds`` as a list, each a duration with its unit, and at most the line styles of
    the shares ``--plot``; None without the flag (:func:`default_grid` reads them)."""
    if args.thresholds is None:
        return None
    thresholds = [x.strip() for x in args.thresholds.split(",") if x.strip()]
    if not thresholds:
        raise ConfigError("--thresholds names no threshold; give e.g. --thresholds 10s,20s,30s.")
    for item in thresholds:  # each a duration with its unit, before the log is read
        to_timedelta(item, name="thresholds")
    _refuse_styles(args, len({to_timedelta(t, name="thresholds") for t in thresholds}),
                   "--thresholds gives")
    return thresholds


def given_quantiles(text: str) -> list[float]:
    """``--quantiles`` as fractions in (0, 1), each refused as typed (``--quantiles 50``, never
    ``50.0``); a list with an empty item (``,``, ``0.5,,0.9``) refused, as is one that names no
    quantile."""
    items = [x.strip() for x in text.split(",")]
    if not any(items):
        raise ConfigError(f"--quantiles {text.strip()} names no quantile; give fractions such as "
                          "--quantiles 0.5,0.9,0.99.")
    if not all(items):
        raise ConfigError(f"--quantiles {text.strip()} has an empty item (two commas in a row, "
                          "or one at an end); give fractions such as --quantiles 0.5,0.9,0.99.")
    quantiles = []
    for item in items:  # in (0, 1), before the log is read
        try:
            typed = TypedNumber(item)
        except ValueError:
            raise ConfigError(f"--quantiles {text.strip()}: {item} is not a number; give "
                              "fractions such as --quantiles 0.5,0.9,0.99.") from None
        quantiles.append(float(check_fraction("quantiles", typed)))
    return quantiles


def default_grid(events: Any, args: argparse.Namespace) -> tuple[list[str], str]:
    """Without ``--thresholds``: the default grid of ``events`` (a log without a success
    refused) and the line that states it."""
    from ..analyses.latency_recalibration import default_thresholds

    grid = [given_duration(t, grouped=False).replace(" ", "") for t in default_thresholds(events)]
    _refuse_styles(args, len(grid), "the default grid (no --thresholds) gives")
    return grid, (f"no --thresholds: the thresholds {', '.join(grid)}, {DEFAULT_WORDS}; give "
                  "--thresholds for others")


def _refuse_styles(args: argparse.Namespace, n: int, gives: str) -> None:
    """Refuse more thresholds than the shares figure has line styles (``--plot`` without
    ``--timeouts``)."""
    if not (args.plot and not args.timeouts):
        return
    from ..plotting.latency import STYLE_WORDS

    if n > len(STYLE_WORDS):
        raise ConfigError(
            f"--plot draws the shares of at most {len(STYLE_WORDS)} thresholds, a line style "
            f"each ({', '.join(STYLE_WORDS)}); {gives} {n}: give at most "
            f"{len(STYLE_WORDS)} with --plot"
            + (", or leave --plot out (the lines and --out give the shares of all "
               f"{n})." if gives.startswith("--thresholds") else " (--thresholds)."))
