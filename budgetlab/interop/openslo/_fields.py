"""Field values shared by :class:`~.model.SLODocument`, the OpenSLO reader and writer; every
message names the field path (``spec.indicator.spec``, ``metadata.labels.team`` ...).

**Duration shorthands** (``5m``, ``1h``, ``28d``, ``2w``, read and written). OpenSLO's grammar is
narrower than the durations budgetlab reads elsewhere
(:func:`budgetlab._util.validation.to_timedelta`): a whole number and one unit letter, no
space, no seconds, and ``M``/``Q``/``Y`` are calendar months, quarters and years (never
minutes). So the grammar is checked here; the count and unit are then converted by that one
duration parser.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ..._util.validation import duration_label, to_timedelta
from ...errors import ConfigError
from ...privacy import looks_personal, shown

__all__ = ["quoted", "yaml_type", "prefix", "check_str", "check_strings", "normalize_start",
           "refuse_threshold", "parse_duration_shorthand", "duration_shorthand", "MAX_DURATION"]

_START_FORMAT = "%Y-%m-%d %H:%M:%S"


def quoted(value: Any, limit: int = 60) -> str:
    """A value read from a file as a message may quote it: its ``repr`` (shortened when long),
    or a placeholder when it looks like personal data (never shown).

    >>> quoted("lte"), quoted(None), quoted("ivan@example.org")
    ("'lte'", 'None', 'a value that looks like personal data (not shown)')
    """
    if looks_personal(str(value)):
        return "a value that looks like personal data (not shown)"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def yaml_type(value: Any) -> str:
    """What a YAML value is, in the words of YAML (a field that should be a list says what it
    is instead).

    >>> [yaml_type(v) for v in ({"a": 1}, "x", 2.5, True, None, [1])]
    ['a mapping', 'a string', 'a number', 'a boolean', 'empty (null)', 'a list']
    """
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "a boolean"
    kinds = ((Mapping, "a mapping"), (str, "a string"), ((int, float), "a number"),
             (list, "a list"), ((_dt.date, _dt.datetime), "a date"))
    return next((word for kind, word in kinds if isinstance(value, kind)), "another YAML type")


def prefix(where: str) -> str:
    """Field-path prefix: ``"spec."`` for ``"spec"``, nothing at the top of an object."""
    return f"{where}." if where else ""


def check_str(value: Any, where: str, *, required: bool = False) -> str:
    """A string (``""`` for a missing optional one); ``required``: a non-empty one."""
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise ConfigError(f"{where} must be a {'non-empty ' if required else ''}string.")
    return value


def check_strings(value: Any, where: str, *, lists: bool = False) -> dict[str, Any]:
    """A mapping of non-empty names to strings (``lists``: or lists of strings, as labels may
    hold); ``{}`` for ``None``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping of names to "
                          f"strings{' (or lists of strings)' if lists else ''}.")
    out: dict[str, Any] = {}
    for k, v in value.items():
        if not isinstance(k, str) or not k:
            raise ConfigError(f"{where} keys must be non-empty strings.")
        if isinstance(v, str):
            out[k] = v
        elif lists and isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
            out[k] = list(v)
        else:
            raise ConfigError(f"{where}.{k} must be a "
                              "string" + (" or a list of "
                                                                 "strings." if lists else
                                                                  " (quote it in YAML)."))
    return out


def normalize_start(value: Any, where: str) -> str:
    """A calendar ``startTime``: local date-time text without a zone, ``2022-01-01 12:00:00``."""
    if isinstance(value, (_dt.datetime, pd.Timestamp)):
        ts = pd.Timestamp(value)
    elif isinstance(value, str):
        try:
            ts = pd.Timestamp(value.strip())
        except (ValueError, TypeError):
            raise ConfigError(f"{where}: {quoted(value)} is not a date-time like '2022-01-01 "
                              "12:00:00'.") from None
    else:
        raise ConfigError(f"{where} must be a date-time like '2022-01-01 12:00:00' (no time zone).")
    if pd.isna(ts):
        raise ConfigError(f"{where} is missing.")
    if ts.tzinfo is not None:
        raise ConfigError(f"{where} must be written without a time zone; give the zone in "
                          "calendar.timeZone.")
    return str(ts.strftime(_START_FORMAT))


def refuse_threshold(spec: Any, where: str) -> None:
    """budgetlab evaluates ratio SLIs: an SLI ``spec`` with a thresholdMetric (valid OpenSLO) is
    refused."""
    if isinstance(spec, Mapping) and "thresholdMetric" in spec:
        raise ConfigError(f"{where}.thresholdMetric is not supported: budgetlab evaluates "
                          "good/total "
                          "event ratios; describe the SLI as a ratioMetric (good or bad over "
                          "total).")


#: The longest duration an OpenSLO field may give (10 years): longer ones are no SLO window and
#: would overflow the nanosecond timestamps of the computations.
MAX_DURATION = pd.Timedelta(days=3650)

_SHORTHAND = re.compile(r"^([0-9]+)([mhdwMQY])$")
_UNITS = {"m": "min", "h": "h", "d": "D", "w": "W"}  # OpenSLO unit -> pandas unit
_MINUTES = {"m": 1, "h": 60, "d": 1440, "w": 10080}
_WRITTEN_UNITS = (("d", pd.Timedelta("1D")), ("h", pd.Timedelta("1h")), ("m", pd.Timedelta("1min")))


def parse_duration_shorthand(value: Any, *, where: str = "duration",
                             allow_zero: bool = False) -> pd.Timedelta:
    """Read an OpenSLO duration shorthand (``5m``, ``1h``, ``28d``, ``2w``) as a Timedelta.

    ``M``, ``Q`` and ``Y`` (months, quarters, years) have no fixed length and are refused here;
    calendar windows handle ``1M`` themselves.

    >>> parse_duration_shorthand("2w")
    Timedelta('14 days 00:00:00')
    >>> parse_duration_shorthand("90s")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: duration: '90s' is not an OpenSLO duration shorthand; give a whole
    number and one of m, h, d, w (e.g. 5m, 1h, 28d).
    >>> parse_duration_shorthand("999999999d")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: duration: '999999999d' is out of range; give a duration from 1m to
    3650d (10 years).
    """
    m = _SHORTHAND.match(value.strip()) if isinstance(value, str) and len(value) < 100 else None
    if m is None:
        raise ConfigError(f"{where}: {shown(value)} is not an OpenSLO duration shorthand; give a "
                          "whole number "
                          "and one of m, h, d, w (e.g. 5m, 1h, 28d).")
    count, unit = m.groups()
    if unit in "MQY":
        raise ConfigError(f"{where}: {value!r} uses months/quarters/years, which have no fixed "
                          "length; "
                          "give days or weeks (e.g. 30d, 4w).")
    if int(count) == 0 and not allow_zero:
        raise ConfigError(f"{where}: {value!r} must be positive.")
    if len(count) > 12 or int(count) * _MINUTES[unit] > MAX_DURATION // pd.Timedelta(minutes=1):
        raise ConfigError(f"{where}: {shown(value)} is out of range; give a duration from "
                          f"{'0m' if allow_zero else '1m'} "
                          f"to {MAX_DURATION.days}d (10 years).")
    return to_timedelta(f"{count}{_UNITS[unit]}", name=where, allow_zero=True)


def duration_shorthand(value: Any, *, where: str = "duration") -> str:
    """Write a duration as an OpenSLO shorthand in days, hours or minutes, the largest unit that
    divides it exactly (``28d`` rather than ``4w``, as SLO windows are usually quoted).

    OpenSLO has no seconds: the duration must be a whole number of minutes.

    >>> duration_shorthand("24h"), duration_shorthand("14D"), duration_shorthand("90min")
    ('1d', '14d', '90m')
    """
    td = to_timedelta(value, name=where, allow_zero=True)
    if td == pd.Timedelta(0):
        return "0m"
    for unit, size in _WRITTEN_UNITS:
        if td % size == pd.Timedelta(0):
            return f"{td // size}{unit}"
    raise ConfigError(f"{where} {duration_label(td)} is not a whole number of minutes; OpenSLO "
                      "durations have no seconds.")
