"""Field checks shared by :class:`~.model.SLODocument` and the OpenSLO reader; every message
names the field path (``spec.indicator.spec``, ``metadata.labels.team`` ...)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ...errors import ConfigError
from ...privacy import looks_personal

__all__ = ["quoted", "prefix", "check_str", "check_strings", "normalize_start", "refuse_threshold"]

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
