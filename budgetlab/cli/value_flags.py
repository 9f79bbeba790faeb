"""The command line's early checks of value flags: the durations, shares and table outputs every
command reads the same way, refused before the log is read (one line, exit 2) rather than after a
long read, or after a replay printed whole (:func:`check_value_flags`, run by the CLI before the
command). Each value is checked by the reader its command uses, in its laxest form: the command
still applies its own rule (``--grace 0s`` is refused by ``backtest`` only), so nothing a
command accepts is refused here. A ``--target`` is read from its text as typed
(:func:`target_value`, :func:`one_target`), so that a refusal echoes ``95``, not ``95.0``."""

from __future__ import annotations

import argparse
from pathlib import Path

from .._util.durations import to_timedelta
from .._util.files import TABLE_SUFFIXES
from .._util.validation import check_fraction
from ..errors import ConfigError

__all__ = ["DURATION_FLAGS", "SHARE_FLAGS", "TABLE_OUTPUT_FLAGS", "check_value_flags", "one_target",
           "target_value"]

#: The flags (their ``dest``) read as a duration by every command that has them.
DURATION_FLAGS = ("grace", "context", "gap", "min_dwell", "warmup", "history", "since")
#: The flags read as a share of time in ``(0, 1]``.
SHARE_FLAGS = ("max_share",)
#: The flags that write one table: a name ending in ``.csv`` or ``.parquet`` (``--out``, which
#: some commands write as a folder or a figure, is checked by the run's output plan).
TABLE_OUTPUT_FLAGS = ("summary_out", "tiers_out", "candidates_out")


def check_value_flags(args: argparse.Namespace) -> None:
    """Refuse (:class:`~budgetlab.errors.ConfigError`, in keyword words the CLI speaks as its
    flags) a value of :data:`DURATION_FLAGS` that is no duration, of :data:`SHARE_FLAGS` outside
    ``(0, 1]``, and of :data:`TABLE_OUTPUT_FLAGS` without a table's suffix; flags the command
    does not have, or not given, are passed over.

    >>> check_value_flags(argparse.Namespace(grace="2h", max_share=0.05, summary_out="s.csv"))
    >>> check_value_flags(argparse.Namespace(summary_out="rec.json"))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: summary_out='rec.json' must end in .csv or .parquet.
    """
    given = vars(args)
    for name in DURATION_FLAGS:
        if given.get(name) is not None:
            to_timedelta(given[name], name=name, allow_zero=True)
    for name in SHARE_FLAGS:
        if given.get(name) is not None:
            check_fraction(name, given[name], high_open=False)
    for name in TABLE_OUTPUT_FLAGS:
        path = given.get(name)
        if path is not None and Path(path).suffix.lower() not in TABLE_SUFFIXES:
            raise ConfigError(f"{name}={path!r} must end in .csv or .parquet.")


def one_target(text: str | None) -> float | None:
    """``--target`` of a command that takes one number (``export``, ``backtest``), read from the
    text as typed: a fraction in (0, 1), else refused echoing the text (``95``, not ``95.0``) as
    ``replay``'s ``--target`` is; ``None`` when not given.

    >>> one_target("0.95"), one_target(None)
    (0.95, None)
    >>> one_target("99.50")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --target 99.50 must lie in (0, 1); if 99.50 is a percentage, use
    a fraction: --target 0.995.
    """
    if text is None:
        return None
    try:
        float(text)
    except ValueError:
        raise ConfigError(f"--target {text!r}: give one target as a fraction, e.g. --target "
                          "0.95.") from None
    return target_value(text.strip(), text.strip())


def target_value(text: str, typed: str) -> float:
    """One target of ``--target`` as a number in (0, 1); else refused echoing it as ``typed``
    (``95``, not ``95.0``), with the fraction of a percentage in (1, 100) (``0.95``, the
    decimal text divided, not the double). ValueError: not a number.

    >>> target_value("95", "95")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --target 95 must lie in (0, 1); if 95 is a percentage, use a
    fraction: --target 0.95.
    >>> target_value("99.5", "GET=99.5")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --target GET=99.5 must lie in (0, 1); if 99.5 is a percentage,
    use a fraction: --target GET=0.995.
    """
    import decimal

    value = float(text)
    if 0 < value < 1:
        return value
    said = f"--target {typed} must lie in (0, 1)"
    if 1 < value < 100:
        fraction = float(decimal.Decimal(text) / 100)
        said += (f"; if {text} is a percentage, use a fraction: --target "
                 f"{typed[:len(typed) - len(text)]}{fraction!r}")
    raise ConfigError(said + ".")
