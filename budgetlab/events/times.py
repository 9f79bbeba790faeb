"""A time column to int64 ns UTC: ISO-8601 text (offsets per row, or naive in a time zone),
datetimes, epoch numbers (``epoch=``; decimals written as text converted exactly) and the common
log forms. Arrow's strict ISO-8601 cast reads the common case; what it refuses takes the careful
path (pandas' ISO-8601 parser, then :func:`_fallback_parse`), which names the rows it cannot read.
Refused, never guessed: naive and zone-aware times mixed, naive local times a DST change makes
ambiguous or impossible, dates without a day or a year, epoch numbers without a unit or whose unit
cannot be right (units mixed in one column, instants before 2000 or from 2100 on).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.codes import numpy_backed
from .._util.words import noun_for, say
from ..errors import TimestampError
from ._messages import MISSING_LABELS, expand, fill_or_drop, row_numbers
from ._time_words import dst_words, numeric_date_words, syslog_words, twelve_hour_words
from .epochs import (
    EPOCH_UNITS,
    MISSING_TIME,
    NS_MAX,
    UNIT_NAMES,
    epoch_text,
    from_epoch,
    range_error,
)
from .offsets import has_offset, iso_offsets, unread_zone_names
from .second_fractions import parse_form

__all__ = ["OFFSETS_READING", "parse_time", "describe_time", "is_instant", "zone_reading"]

#: How a time column of ISO-8601 text with UTC offsets is read (stated in ``how_read``).
OFFSETS_READING = "text with UTC offsets (each row its own instant)"
_ZONED = "datetimes with their zones"
_UTC = ("UTC", "utc", "Etc/UTC")
_MONTHS = r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
# a full date: year, month and day (ISO/slashed, basic ISO, CLF; month names are checked apart)
_FULL_DATE = (r"(?:^|[^0-9])[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}(?:$|[^0-9])"
              r"|^[+-]?[0-9]{8}(?:T|$)|[0-9]{1,2}/[A-Za-z]{3}/[0-9]{4}")
_DAY_NUMBER = r"(?:^|[^0-9:.+-])(?:0?[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)?(?:$|[^0-9:])"
_YEAR = r"(?:^|[^0-9])[0-9]{4}(?:$|[^0-9])"


def _to_ns(parsed: pd.Series, where: np.ndarray | None = None) -> np.ndarray:
    """int64 ns of a datetime64[unit, UTC] Series (the rows ``where`` of the column), with rows
    outside pandas' ns range refused."""
    f = EPOCH_UNITS[str(parsed.dt.unit)]
    vals = np.asarray(parsed.array.asi8, dtype=np.int64)
    if f == 1:
        return vals
    bad = ((vals < -(NS_MAX // f)) | (vals > NS_MAX // f)) & ~parsed.isna().to_numpy()
    if bad.any():
        raise range_error(bad if where is None else expand(bad, where),
                           "check the time column (and the epoch unit)")
    return vals * f


def parse_time(col: pd.Series, *, tz: Any, epoch: str | None) -> np.ndarray:
    """Parse a time column to int64 ns UTC (see :func:`budgetlab.read_events` for the accepted
    forms); ``tz`` is the zone of naive times, ``epoch`` the unit of numbers (``None``: refused)."""
    col = numpy_backed(col) if isinstance(col.dtype, pd.ArrowDtype) else col
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        col = col.astype(dtype.categories.dtype)  # e.g. dictionary-encoded Parquet strings
        dtype = col.dtype
    missing, is_ = col.isna().to_numpy(), pd.api.types
    inferred = is_.infer_dtype(col, skipna=True) if is_.is_object_dtype(dtype) else ""
    if is_.is_bool_dtype(dtype) or is_.is_complex_dtype(dtype) or inferred == "boolean":
        raise TimestampError("the time column holds true/false or complex values, not times; "
                             "check time=.")
    numbers = is_.is_numeric_dtype(dtype) or inferred in ("integer", "floating", "decimal",
                                                          "mixed-integer-float")
    if missing.any() and (numbers or is_.is_datetime64_any_dtype(dtype)):
        raise fill_or_drop(TimestampError, MISSING_TIME, missing)
    if isinstance(dtype, pd.DatetimeTZDtype):
        return _to_ns(col.dt.tz_convert("UTC"))
    if is_.is_datetime64_dtype(dtype):
        return _localize(_to_ns(col), tz)
    if numbers:
        return from_epoch(pd.to_numeric(col).to_numpy(), epoch)
    if inferred in ("datetime", "date", "datetime64"):
        # datetime objects: str() gives ISO text with the offset of each (exact instants); naive
        # and aware objects mixed are refused like naive and aware strings
        col = pd.Series(col.astype(str).where(~missing, None), dtype="str")
    elif not is_.is_string_dtype(dtype) or is_.is_object_dtype(dtype):
        col = col.astype("str")
    return _from_strings(col, tz=tz, epoch=epoch)


def _localize(t: np.ndarray, tz: Any) -> np.ndarray:
    """Naive wall times (int64 ns) in ``tz`` (``None``: not given, UTC) -> int64 ns UTC; DST gaps
    and overlaps are refused."""
    if tz is None or str(tz) in _UTC:
        return t
    wall = pd.Series(pd.DatetimeIndex(t.view("datetime64[ns]")))
    local = wall.dt.tz_localize(tz, ambiguous="NaT", nonexistent="NaT")
    bad = local.isna().to_numpy()
    if bad.any():
        raise TimestampError(dst_words(wall, bad, tz))
    return _to_ns(local.dt.tz_convert("UTC"))


def _parse_iso(s: pd.Series) -> pd.Series:
    return pd.to_datetime(s, format="ISO8601", utc=True, errors="coerce")


def _fast_iso(s: pd.Series) -> tuple[np.ndarray, bool] | None:
    """Arrow's strict ISO-8601 cast: ``(ns, aware)`` when every value parses, else ``None``. The
    zone-aware cast succeeds only if every value has an offset (or Z), the naive cast only if none
    has; anything else (blanks, other forms, out-of-range years) takes the careful path."""
    values: Any = s.array
    try:
        arr = pa.chunked_array(values._pa_array if isinstance(s.dtype, pd.ArrowDtype)
                               else pa.array(values))
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if arr.null_count or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    for target, aware in ((pa.timestamp("ns", tz="UTC"), True), (pa.timestamp("ns"), False)):
        try:
            cast = pc.cast(arr, target).cast(pa.int64())
        except (pa.ArrowException, ValueError, OverflowError):
            continue
        return np.asarray(cast.to_numpy(), dtype=np.int64), aware
    return None


def _from_strings(s: pd.Series, *, tz: Any, epoch: str | None) -> np.ndarray:
    if epoch is None and (fast := _fast_iso(s)) is not None:
        return fast[0] if fast[1] else _localize(fast[0], tz)
    na = s.isna().to_numpy()
    if epoch is not None:
        return epoch_text(s, na, epoch)
    digits = s.str.fullmatch(r"[ \t]*[+-]?[0-9]+(?:[.][0-9]*)?[ \t]*").fillna(False) \
        .to_numpy(dtype=bool)
    if digits.any():
        if not (digits | na).all():
            raise TimestampError(
                f"the time column mixes plain numbers (at {row_numbers(digits)}) with other "
                "values; give every time in one form (ISO-8601 like 2026-11-29T03:47:00Z, or "
                "epoch numbers with epoch=).")
        if na.any():
            raise fill_or_drop(TimestampError, MISSING_TIME, na)
        return from_epoch(pd.to_numeric(s.str.strip()).to_numpy(), None)
    s = iso_offsets(s)
    parsed = _parse_iso(s)
    ok = ~parsed.isna().to_numpy()
    if ok.all():
        t = _to_ns(parsed)
    else:
        t = np.zeros(len(s), dtype=np.int64)
        if ok.any():
            t[ok] = _to_ns(parsed[ok], ok)
        stripped = s[~ok].str.strip()
        missing = na[~ok] | stripped.str.lower().isin(list(MISSING_LABELS)).fillna(True) \
            .to_numpy(dtype=bool)
        if missing.any():
            raise fill_or_drop(TimestampError, MISSING_TIME, expand(missing, ~ok))
        t[~ok] = _fallback_parse(stripped.reset_index(drop=True), ~ok)
    _check_full_dates(s)
    aware = has_offset(s)
    if aware.all():
        return t
    if aware.any():
        few = ~aware if (~aware).sum() <= aware.sum() else aware
        label = "without" if few is not aware else "with"
        raise TimestampError(
            f"mixed naive and zone-aware timestamps ({int(few.sum())} {label} a UTC offset, at "
            f"{row_numbers(few)}); give every time an offset, or none and pass tz= for the local "
            "zone.")
    return _localize(t, tz)


def _check_full_dates(s: pd.Series) -> None:
    """Refuse dates without a day or a year (``Nov 2026``, ``2026-11``, ``29 Nov``): parsers fill
    them in with the 1st or January, which is never what the log meant."""
    full = s.str.contains(_FULL_DATE, regex=True).fillna(True).to_numpy(dtype=bool).copy()
    if full.all():
        return
    rest = s[~full]
    named = (rest.str.contains(_MONTHS, regex=True) & rest.str.contains(_YEAR, regex=True)
             & rest.str.contains(_DAY_NUMBER, regex=True)).fillna(False).to_numpy(dtype=bool)
    full[np.flatnonzero(~full)[named]] = True
    if not full.all():
        raise TimestampError(
            f"{noun_for(int((~full).sum()), 'timestamp')} without a day or a year at "
            f"{row_numbers(~full)} (e.g. 'Nov 2026' or '2026-11'); a parser would fill in the "
            "1st or January. Write full dates like 2026-11-29T03:47:00Z.")


def _fallback_parse(s: pd.Series, where: np.ndarray) -> np.ndarray:
    """Parse the strings (the rows ``where`` of the column) ISO-8601 could not: Apache/CLF times
    (``17/May/2015:10:05:03 +0000``) and forms with a month name and a 4-digit year
    (``Sun, 29 Nov 2026 03:47:00 +0100``). Numeric day/month orders are ambiguous and refused."""
    out = np.zeros(len(s), dtype=np.int64)
    todo = np.ones(len(s), dtype=bool)
    clf = s.str.fullmatch(r"[0-9]{1,2}/[A-Za-z]{3}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2}[ \t]*"
                          r"[+-][0-9]{4}").fillna(False).to_numpy(dtype=bool)
    named = (s.str.contains(_MONTHS, regex=True) & s.str.contains(_YEAR, regex=True)) \
        .fillna(False).to_numpy(dtype=bool) & ~unread_zone_names(s)  # pandas would warn: refused
    for form, fmt in ((clf, "%d/%b/%Y:%H:%M:%S %z"), (named, "mixed")):
        rows = todo & form
        if not rows.any():
            continue
        parsed, fraction = parse_form(s[rows], fmt)  # dateutil keeps microseconds: ns added
        good = ~parsed.isna().to_numpy()
        idx = np.flatnonzero(rows)[good]
        if good.any():
            out[idx] = _to_ns(parsed[good], expand(np.isin(np.arange(len(s)), idx), where)) \
                + fraction[good]
        todo[idx] = False
    if todo.any():
        # 01.02.2026: which orders, and the format of each; 2026-03-01 10:00 PM, Dec 31 23:59:58:
        # its format
        dates = numeric_date_words(s[todo]) or twelve_hour_words(s[todo]) \
            or syslog_words(s[todo])
        raise TimestampError(
            f"unparseable {noun_for(int(todo.sum()), 'timestamp')} at "
            f"{row_numbers(expand(todo, where))}; " + (f"{dates}; or write" if dates else "use")
            + " ISO-8601 like 2026-11-29T03:47:00Z or 2026-11-29 04:47:00+01:00.")
    return out


def zone_reading(tz: Any) -> str:
    """Where naive times were placed, in words that tell a zone the user chose (``tz``) from the
    default (``None``: not given, read as UTC).

    >>> zone_reading(None)
    'read as UTC (the default; pass tz= to choose a zone)'
    >>> zone_reading("Europe/Berlin"), zone_reading("UTC")
    ('read as local times in Europe/Berlin (tz= given)', 'read as local times in UTC (tz= given)')

    A zone of one fixed offset other than zero says it (POSIX ``Etc/GMT+5`` is five hours *behind*
    UTC):

    >>> zone_reading("Etc/GMT+5")
    'read as local times in Etc/GMT+5, UTC-05:00 all year (tz= given)'
    """
    if tz is None:
        return f"read as UTC (the default; pass {say('tz=', '--tz')} to choose a zone)"
    zone = pd.DatetimeTZDtype(tz=tz).tz  # utcoffset(None): a fixed offset, else None
    fixed = (f", UTC{pd.Timestamp(0, tz=zone).isoformat()[-6:]} all year"
             if zone.utcoffset(None) else "")
    return f"read as local times in {tz}{fixed} ({say('tz=', '--tz')} given)"


def describe_time(col: pd.Series, *, tz: Any, epoch: str | None) -> str:
    """How :func:`parse_time` read a column (it has read it already, so forms are not mixed):
    judged on the dtype and the first value; ``tz`` as :func:`zone_reading` takes it."""
    col = numpy_backed(col)
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        return _ZONED
    if pd.api.types.is_datetime64_dtype(dtype):
        return f"naive datetimes, {zone_reading(tz)}"
    if epoch is not None:
        return f"epoch numbers in {UNIT_NAMES[epoch]} (checked: 2000 to 2100, one magnitude)"
    first = iso_offsets(col.dropna().astype(str).iloc[:1].str.strip())
    if len(first) and bool(has_offset(first)[0]):
        return OFFSETS_READING
    return f"text without offsets, {zone_reading(tz)}"


def is_instant(reading: str) -> bool:
    """Whether times read as :func:`describe_time` says are instants (zoned text or datetimes,
    epochs), not wall times that need ``tz``."""
    return reading in (OFFSETS_READING, _ZONED) or reading.startswith("epoch numbers")
