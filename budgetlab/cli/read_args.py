"""What the reading flags of a command line mean: ``--by`` as group keys, ``--outcomes`` as a
mapping, the :class:`~budgetlab.events.spec.ReadSpec` of the input flags, and :func:`read_paths`,
which reads the files by them as every command reads its ``LOG...``: an access log (recognised by
its first line) with :func:`~budgetlab.read_access_log`, anything else with
:func:`~budgetlab.read_events`.

:mod:`budgetlab.cli.reading` adds what a command does around the read (inputs registered,
outputs checked, the "how it was read" block); :mod:`budgetlab.cli.read_flags` reads a notebook's
``read`` parameter by the same flags.
"""

from __future__ import annotations

import argparse
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._util.words import flags_as
from ..errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

    from ..events.spec import ReadSpec

__all__ = ["group_keys", "parse_outcomes", "read_spec", "read_paths"]


def group_keys(args: argparse.Namespace) -> list[str]:
    """``--by a,b`` as a list of column names."""
    by = getattr(args, "by", None)
    return [b.strip() for b in by.split(",") if b.strip()] if by else []


def parse_outcomes(text: str | None) -> dict[str, str] | None:
    """``--outcomes ok=success,pending=skip,5xx=server_error`` as a mapping (None when not given).

    >>> parse_outcomes("done=success,pending=skip")
    {'done': 'success', 'pending': 'skip'}
    """
    if text is None:
        return None
    table: dict[str, str] = {}
    for part in text.split(","):
        label, sep, bucket = part.partition("=")
        if not sep or not label.strip() or not bucket.strip():
            raise ConfigError("--outcomes: an item is not LABEL=MEANING (e.g. "
                              "done=success,pending=skip,"
                              "5xx=server_error).")
        table[label.strip()] = bucket.strip()
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
        raise ConfigError("the inputs mix access logs and event tables; give one kind per run.")
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
