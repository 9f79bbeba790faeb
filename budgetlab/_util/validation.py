"""Small argument checks shared by every module (one place, one style)."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import difflib
from collections.abc import Collection, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from ..errors import ConfigError, InputError, SchemaError
from .durations import MAX_DURATION, duration_label, to_ns, to_timedelta, window_words
from .one_duration import is_one_duration, refuse_joined
from .wall_clock import localize_wall_time
from .words import say

# the duration parsers live in .durations; named here too, as every argument check is
__all__ = ["MAX_DURATION", "check_argument", "check_number", "check_fraction", "check_whole",
           "check_tz", "to_timedelta", "to_ns", "refuse_joined", "is_one_duration", "window_words",
           "duration_label", "as_list", "percent_to_fraction",
           "require_columns", "close_names", "utc_timestamp", "utc_ns_column", "utc_from_ns",
           "options_object"]

_Options = TypeVar("_Options")


def check_argument(name: str, value: Any, options: Iterable[Any]) -> Any:
    """Return ``value`` if it is one of ``options``, else raise :class:`ConfigError`.

    >>> check_argument("pii", "drop", ("error", "drop", "hash"))
    'drop'
    """
    opts = list(options)
    if value not in opts:
        raise ConfigError(f"{name}={value!r} is not valid; use one of "
                          f"{', '.join(map(repr, opts))}.")
    return value


def check_number(name: str, value: Any, *, low: float | None = None, high: float | None = None,
                 low_open: bool = True, high_open: bool = False) -> float:
    """``value`` as a finite float within ``low``/``high`` (an open or closed end each; ``None``:
    no bound), else :class:`ConfigError` naming ``name``.

    >>> check_number("rate", 2, low=0, high=1e6)
    2.0
    >>> check_number("days", 0, low=0, high=3660)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: days=0 must lie in (0, 3660].
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ConfigError(f"{name} must be a number, got {type(value).__name__}.")
    v = float(value)
    lo_ok = low is None or (v > low if low_open else v >= low)
    hi_ok = high is None or (v < high if high_open else v <= high)
    if not (np.isfinite(v) and lo_ok and hi_ok):
        lo = "(-inf" if low is None else f"{'(' if low_open else '['}{low:g}"
        hi = "inf)" if high is None else f"{high:g}{')' if high_open else ']'}"
        raise ConfigError(f"{name}={value!r} must lie in {lo}, {hi}.")
    return v


def check_fraction(name: str, value: Any, *, low_open: bool = True,
                   high_open: bool = True) -> float:
    """``value`` as a float in ``(0, 1)`` (``low_open``/``high_open`` False close that end), else
    :class:`ConfigError` naming ``name``. A value above 1 that, read as a percentage, is an
    allowed fraction (``95``) is refused with that fraction (``0.95``, divided as
    :func:`percent_to_fraction` divides); ``1`` itself gets no such hint (1 % or 100 %?).

    >>> check_fraction("target", 0.95)
    0.95
    >>> check_fraction("target", 95)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: target=95 must lie in (0, 1); if 95 is a percentage, use a
    fraction: target=0.95.
    """
    try:
        return check_number(name, value, low=0.0, high=1.0, low_open=low_open,
                            high_open=high_open)
    except ConfigError as exc:
        number = float(value) if isinstance(value, (int, float, np.integer, np.floating)) and \
            not isinstance(value, bool) else np.nan
        if not (np.isfinite(number) and 1 < number <= 100) or (number == 100 and high_open):
            raise
        fraction = float(decimal.Decimal(repr(number)) / 100)
        # the number as given (a command line's flag keeps its text: "1.50", never "1.5")
        raise ConfigError(f"{str(exc)[:-1]}; if {value} is a percentage, use a fraction: "
                          f"{name}={fraction!r}.") from None


def percent_to_fraction(name: str, value: Any, *, low_open: bool = True,
                        high_open: bool = True) -> float:
    """A percentage (``99.9``) as the fraction its decimal text means (``0.999``), else
    :class:`ConfigError` naming ``name``. Every percentage becomes a fraction here.

    The division is done in decimal on the shortest text of the number (``repr``), then rounded
    once to the nearest double: ``99.9`` gives exactly ``0.999``, where ``99.9 / 100`` gives
    ``0.9990000000000001`` (about a third of the 1-3-decimal percentages differ that way).

    >>> percent_to_fraction("targetPercent", 99.9), 99.9 / 100
    (0.999, 0.9990000000000001)
    >>> percent_to_fraction("targetPercent", 100)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: targetPercent=100 must lie in (0, 100).
    """
    pct = check_number(name, value)
    lo_ok = pct > 0 if low_open else pct >= 0
    hi_ok = pct < 100 if high_open else pct <= 100
    if not (lo_ok and hi_ok):
        raise ConfigError(f"{name}={value!r} must lie in {'(' if low_open else '['}0, "
                          f"100{')' if high_open else ']'}.")
    return float(decimal.Decimal(repr(pct)) / 100)


def check_whole(name: str, value: Any, *, low: int = 0, high: int | None = None) -> int:
    """``value`` as an int from ``low`` (to ``high``, both included), else :class:`ConfigError`.

    >>> check_whole("seed", 3)
    3
    >>> check_whole("split_every", 1, low=2)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: split_every=1 must be a whole number >= 2.
    """
    if (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low
            or (high is not None and value > high)):
        limits = f">= {low}" if high is None else f"from {low} to {high}"
        raise ConfigError(f"{name}={value!r} must be a whole number {limits}.")
    return int(value)


def as_list(by: str | Sequence[str] | None) -> list[str]:
    """Normalise a ``by=`` argument to a list of column names."""
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    out = list(by)
    for b in out:
        if not isinstance(b, str):
            raise ConfigError(f"by= takes column names (strings), got {type(b).__name__}.")
    return out


def close_names(name: str, present: Sequence[str], *, taken: Collection[str] = ()) -> list[str]:
    """The names of ``present`` suggested for a missing column ``name``, closest first (at most
    three), one rule for every refusal of a missing column (the readers' and
    :func:`require_columns`): a group key, where ``taken`` names present columns that are read as
    something else (the time, the outcome, ``ok``), is suggested only the other columns, from
    difflib's ratio 0.6; any other column every column, from 0.6, or from 0.5 when one name
    begins the other (``dur`` for ``duration``): letters shared out of order are no likeness
    (``duration`` was suggested ``region``, ratio 0.57).

    >>> close_names("tss", ["ts", "ok", "region"])
    ['ts']
    >>> close_names("bucket_ids", ["ts", "ok", "bucket", "region"], taken=["ts", "ok", "bucket"])
    []
    >>> close_names("duration", ["ts", "outcome", "region"]), close_names("dur", ["duration"])
    ([], ['duration'])
    """
    rest = [n for n in present if n not in taken]
    if len(rest) < len(present):
        return difflib.get_close_matches(name, rest, n=3, cutoff=0.6)
    low = name.lower()
    return [n for n in difflib.get_close_matches(name, rest, n=3, cutoff=0.5)
            if difflib.SequenceMatcher(None, name, n).ratio() >= 0.6
            or n.lower().startswith(low) or low.startswith(n.lower())]


def require_columns(frame: pd.DataFrame, columns: Iterable[str], *, what: str = "events",
                    roles: Collection[str] = (), plural: bool = False) -> None:
    """Raise :class:`SchemaError` naming missing columns and the closest existing names
    (:func:`close_names`). ``roles``: the columns of ``frame``'s kind that are not group keys
    (an event table's ``ts``, ``ok``, ``bucket``...); with them, a missing column outside them
    is a group key, suggested only another column that could be one. ``what`` is the subject
    (``plural``: ``2 files have no column``)."""
    have = [str(c) for c in frame.columns]
    for col in columns:
        if col not in frame.columns:
            key = bool(roles) and col not in roles
            close = close_names(str(col), have, taken=[n for n in have if n in roles] if key
                                else ())
            hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
            raise SchemaError(
                f"{what} {'have' if plural else 'has'} no column {col!r}.{hint} Columns present: "
                f"{', '.join(map(repr, have[:20]))}."
            )


def check_tz(tz: Any, *, name: str = "tz") -> str:
    """An IANA time-zone name (``None`` means UTC; a :mod:`zoneinfo` or pytz zone gives its
    name), or :class:`ConfigError` naming ``name``.

    >>> check_tz("Europe/Berlin"), check_tz(None)
    ('Europe/Berlin', 'UTC')
    >>> check_tz("Mars/Olympus")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: tz='Mars/Olympus' is not a time zone; give an IANA name such as
    'Europe/Berlin' or 'UTC'.
    """
    if tz is None or tz is datetime.UTC:
        return "UTC"
    if isinstance(tz, datetime.tzinfo):
        tz = getattr(tz, "key", None) or getattr(tz, "zone", None) or tz  # zoneinfo, pytz
    if not isinstance(tz, str) or not tz:
        raise ConfigError(f"{name} must be a time-zone name such as 'UTC' or 'Europe/Berlin'.")
    try:
        pd.Timestamp(0, tz=tz)
    except Exception:  # zoneinfo and pytz raise different types for unknown zones
        raise ConfigError(f"{name}={tz!r} is not a time zone; give an IANA name such as "
                          "'Europe/Berlin' or 'UTC'.") from None
    return tz


def utc_timestamp(value: Any, *, name: str, tz: str = "UTC") -> pd.Timestamp:
    """A point in time as a UTC :class:`pandas.Timestamp` (ns); a naive time is read in ``tz``
    (refused when the clocks' change gives it two instants or none: ``localize_wall_time``).

    >>> utc_timestamp("2026-11-05 03:47", name="at", tz="Europe/Berlin")
    Timestamp('2026-11-05 02:47:00+0000', tz='UTC')
    >>> utc_timestamp(None, name="start")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: start is missing (NaT); give a time such as '2026-01-01 00:00'.
    >>> utc_timestamp("3000-01-01", name="at")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: at='3000-01-01' is out of range: times run from 1677-09-21 to \
2262-04-11; give a time within them.
    """
    try:
        ts = pd.Timestamp(value)
    except (ValueError, TypeError):
        raise ConfigError(f"{name}={value!r} is not a time; give e.g. '2026-01-01 "
                          f"00:00'{say(' or a Timestamp', '')} "
                          f"(a time without offset is read in {tz}).") from None
    if pd.isna(ts):
        raise ConfigError(f"{name} is missing (NaT); give a time such as '2026-01-01 00:00'.")
    ts = localize_wall_time(ts, tz, name=name) if ts.tzinfo is None else ts
    try:
        return ts.tz_convert("UTC").as_unit("ns")
    except pd.errors.OutOfBoundsDatetime:
        raise ConfigError(f"{name}={value!r} is out of range: times run from "
                          f"{pd.Timestamp.min:%Y-%m-%d} to {pd.Timestamp.max:%Y-%m-%d}; give a "
                          "time within them.") from None


def utc_ns_column(col: pd.Series, what: str) -> np.ndarray:
    """A timestamp column (zoned, or parseable; naive means UTC) as int64 UTC nanoseconds."""
    if not isinstance(col.dtype, pd.DatetimeTZDtype):
        try:
            col = pd.to_datetime(col, utc=True)
        except (ValueError, TypeError):
            raise SchemaError(f"{what} must hold timestamps (datetime64[ns, UTC]).") from None
    if col.isna().any():
        raise InputError(f"{what} has missing timestamps.")
    return np.asarray(col.dt.tz_convert("UTC").dt.as_unit("ns").array.asi8, dtype=np.int64)


def utc_from_ns(values: np.ndarray, *, copy: bool = True) -> pd.DatetimeIndex:
    """int64 UTC nanoseconds as a UTC :class:`pandas.DatetimeIndex` (``copy=False``: a view of
    ``values``, which the caller then must not change).

    >>> utc_from_ns(np.array([0])).strftime("%Y-%m-%d %H:%M %Z").tolist()
    ['1970-01-01 00:00 UTC']
    """
    return pd.DatetimeIndex(np.asarray(values, dtype=np.int64), dtype="datetime64[ns, UTC]",
                            copy=copy)


def options_object(cls: type[_Options], options: _Options | None, given: dict[str, Any],
                   example: str) -> _Options:
    """``options`` (a ``cls``), or the keyword options ``given`` as one ``cls``; with ``options``
    the keywords must be at their defaults: a keyword given as well is refused, never dropped.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Opts:
    ...     n: int = 1
    >>> options_object(Opts, None, {"n": 2}, "Opts(n=2)"), options_object(Opts, Opts(3), {"n": 1},
    ...                                                                   "Opts(n=2)")
    (Opts(n=2), Opts(n=3))
    >>> options_object(Opts, Opts(3), {"n": 2}, "Opts(n=2)")
    Traceback (most recent call last):
    budgetlab.errors.ConfigError: n given both as keyword and in options=; set it in options only.
    """
    if options is None:
        return cls(**given)
    if not isinstance(options, cls):
        raise ConfigError(f"options must be a {cls.__name__}, e.g. {example}.")
    defaults = {f.name: f.default for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    both = [name for name, value in given.items() if not _is_default(value, defaults[name])]
    if both:
        raise ConfigError(f"{', '.join(both)} given both as keyword and in options=; set "
                          f"{'it' if len(both) == 1 else 'them'} in options only.")
    return options


def _is_default(value: Any, default: Any) -> bool:
    if value is default:
        return True
    plain = isinstance(value, (str, int, float, tuple)) and not isinstance(value, bool)
    return bool(default is not None and plain and value == default)
