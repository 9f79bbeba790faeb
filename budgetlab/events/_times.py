"""Reading a time column: ISO-8601 text (offsets per row, or naive in a time zone), datetimes,
epoch numbers and the common log formats, to int64 nanoseconds UTC.

Arrow's strict ISO-8601 cast reads the common case without a Python loop; whatever it refuses
takes the careful path (pandas' ISO-8601 parser, then the forms of :func:`_fallback_parse`),
which also names the rows it cannot read. Naive and zone-aware times mixed, and naive local
times that a DST change makes ambiguous or impossible, are refused, never guessed.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from .._util.codes import numpy_backed, on_chunks
from ..errors import TimestampError
from ._epochs import EPOCH_UNITS, NS_MAX, UNIT_NAMES, epoch_decimal_text, from_epoch
from ._messages import expand, row_numbers
from .schema import MISSING_LABELS

__all__ = ["EPOCH_UNITS", "OFFSETS_READING", "parse_time"]

# an offset (or Z/UTC/GMT) right after a clock time at the end of the string
_OFFSET_AT_END = (r"[0-9]:[0-9][0-9](?::[0-9][0-9](?:[.,][0-9]+)?)?[ "
                  r"\t]*(?:[Zz]|UTC|GMT|[+-][0-9][0-9](?::?[0-9][0-9])?)[ \t]*$")
_MONTHS = r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
# "GMT+0100", "UTC-05:00", "GMT+1" after any date style: an offset with the ISO sign (east is +).
# (dateutil reads "GMT+1" the POSIX way, with the sign inverted: rewritten to "+01:00" first.)
_GMT_OFFSETS = (
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9]{2}):?([0-9]{2})(?![0-9])", r"\1\2:\3"),
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9]{2})(?![0-9:])", r"\1\2:00"),
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9])(?![0-9:])", r"\g<1>0\2:00"),
)
# JavaScript's "(Central European Standard Time)"
_ZONE_NAME_AT_END = r"[ \t]*\([A-Za-z][^()]*\)[ \t]*$"
# a full date: year, month and day (ISO/slashed, basic ISO, CLF, or a month name with a day and a
# year)
_FULL_DATE = (
    r"(?:^|[^0-9])[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}(?:$|[^0-9])|^[+-]?[0-9]{8}(?:T|$)"
    r"|[0-9]{1,2}/[A-Za-z]{3}/[0-9]{4}"
)
_DAY_NUMBER = r"(?:^|[^0-9:.+-])(?:0?[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)?(?:$|[^0-9:])"
_YEAR = r"(?:^|[^0-9])[0-9]{4}(?:$|[^0-9])"


def _to_ns(parsed: pd.Series, mask_out: np.ndarray | None = None) -> np.ndarray:
    """int64 ns of a datetime64[unit, UTC] Series, with rows outside pandas' ns range refused."""
    unit = str(parsed.dt.unit)
    vals = np.asarray(parsed.array.asi8, dtype=np.int64)
    f = EPOCH_UNITS[unit]
    if f == 1:
        return vals
    lo, hi = -(NS_MAX // f), NS_MAX // f
    bad = (vals < lo) | (vals > hi)
    bad &= ~parsed.isna().to_numpy()
    if bad.any():
        full = bad if mask_out is None else expand(bad, mask_out)
        raise TimestampError(
            f"timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at {row_numbers(full)}; "
            "check the time "
            "column (and the epoch unit)."
        )
    return vals * f


def _missing_error(missing: np.ndarray) -> TimestampError:
    return TimestampError(f"{int(missing.sum())} empty or missing timestamp(s) at "
                          f"{row_numbers(missing)}; "
                          "fill or drop those rows.")


def parse_time(col: pd.Series, *, tz: Any, epoch: str | None) -> np.ndarray:
    """Parse a time column to int64 ns UTC (see :func:`budgetlab.read_events` for the accepted
    forms); ``tz`` is the zone of naive times, ``epoch`` the unit of numbers (``None``: refused)."""
    col = numpy_backed(col)
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        col = col.astype(dtype.categories.dtype)  # e.g. dictionary-encoded Parquet strings
        dtype = col.dtype
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_complex_dtype(dtype):
        raise TimestampError("the time column holds true/false or complex values, not times; check "
                             "time=.")
    missing = col.isna().to_numpy()
    if isinstance(dtype, pd.DatetimeTZDtype):
        if missing.any():
            raise _missing_error(missing)
        return _to_ns(col.dt.tz_convert("UTC"))
    if pd.api.types.is_datetime64_dtype(dtype):
        if missing.any():
            raise _missing_error(missing)
        return _localize(pd.Series(col), tz)
    if pd.api.types.is_numeric_dtype(dtype):
        if missing.any():
            raise _missing_error(missing)
        return from_epoch(col.to_numpy(), epoch)
    if pd.api.types.is_object_dtype(dtype):
        inferred = pd.api.types.infer_dtype(col, skipna=True)
        if inferred in ("integer", "floating", "mixed-integer-float", "decimal"):
            if missing.any():
                raise _missing_error(missing)
            return from_epoch(pd.to_numeric(col).to_numpy(), epoch)
        if inferred == "boolean":
            raise TimestampError("the time column holds true/false values, not times; check time=.")
        if inferred in ("datetime", "date", "datetime64"):
            # datetime objects: str() gives ISO text with the offset of each (exact instants);
            # naive and aware objects mixed are refused like naive and aware strings
            text = col.astype(str).where(~missing, None)
            return _from_strings(pd.Series(text, dtype="str"), tz=tz, epoch=epoch)
    return _from_strings(
        col
        if pd.api.types.is_string_dtype(dtype) and not pd.api.types.is_object_dtype(dtype)
        else col.astype("str"),
        tz=tz,
        epoch=epoch,
    )


def _localize(col: pd.Series, tz: Any) -> np.ndarray:
    """Naive datetimes (wall time in ``tz``) -> int64 ns UTC; DST gaps and overlaps are refused."""
    if str(tz) in ("UTC", "utc", "Etc/UTC"):
        return _to_ns(col.dt.tz_localize("UTC"))
    local = col.dt.tz_localize(tz, ambiguous="NaT", nonexistent="NaT")
    bad = local.isna().to_numpy()
    if bad.any():
        raise TimestampError(
            f"naive local times in tz={tz!r} are ambiguous or do not exist around a DST change at "
            f"{row_numbers(bad)}; log times with UTC offsets (e.g. 2026-10-25T02:30:00+01:00) or "
            "in UTC."
        )
    return _to_ns(local.dt.tz_convert("UTC"))


def _parse_iso(s: pd.Series) -> pd.Series:
    return pd.to_datetime(s, format="ISO8601", utc=True, errors="coerce")


def _fast_iso(s: pd.Series) -> tuple[np.ndarray, bool] | None:
    """Arrow's strict ISO-8601 cast: ``(ns, aware)`` when every value parses, else ``None``.

    The zone-aware cast succeeds only if every value has an offset (or Z), the naive cast only
    if none has; anything else (blanks, other forms, out-of-range years) takes the careful path.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        arr = pa.chunked_array(pa.array(s.array)) if not isinstance(s.dtype, pd.ArrowDtype) else \
            pa.chunked_array(s.array._pa_array)  # type: ignore[attr-defined]
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if arr.null_count or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    for target, aware in ((pa.timestamp("ns", tz="UTC"), True), (pa.timestamp("ns"), False)):
        def to_ns(part: Any, to: Any = target) -> np.ndarray:
            return np.asarray(pc.cast(part, to).cast(pa.int64()).to_numpy(), dtype=np.int64)

        try:
            parts = on_chunks(to_ns, arr)  # halves of a large column on two threads
        except (pa.ArrowException, ValueError, OverflowError):
            continue
        return np.asarray(np.concatenate(parts), dtype=np.int64), aware
    return None


def _from_strings(s: pd.Series, *, tz: Any, epoch: str | None) -> np.ndarray:
    n = len(s)
    if epoch is None:
        fast = _fast_iso(s)
        if fast is not None:
            t_fast, aware_all = fast
            if aware_all or str(tz) in ("UTC", "utc", "Etc/UTC"):
                return t_fast
            return _localize(pd.Series(pd.DatetimeIndex(t_fast.view("datetime64[ns]"))), tz)
    na = s.isna().to_numpy()
    if epoch is not None:
        return _from_epoch_text(s, na, epoch)
    digits = s.str.fullmatch(r"[ \t]*[+-]?[0-9]+(?:[.][0-9]*)?[ "
                             r"\t]*").fillna(False).to_numpy(dtype=bool)
    if digits.any():
        if (digits | na).all():
            if na.any():
                raise _missing_error(na)
            return from_epoch(pd.to_numeric(s.str.strip()).to_numpy(), None)
        raise TimestampError(
            f"the time column mixes plain numbers (at {row_numbers(digits)}) with other values; "
            "give every time in "
            "one form (ISO-8601 like 2026-11-29T03:47:00Z, or epoch numbers with epoch=)."
        )
    s = _iso_offsets(s)
    parsed = _parse_iso(s)
    t = np.zeros(n, dtype=np.int64)
    ok = ~parsed.isna().to_numpy()
    if ok.all():
        t = _to_ns(parsed)
    else:
        if ok.any():
            t[ok] = _to_ns(parsed[ok], ok)
        rest = ~ok
        stripped = s[rest].str.strip()
        missing_sub = na[rest] | stripped.str.lower().isin(list(MISSING_LABELS)).fillna(
            True
        ).to_numpy(dtype=bool)
        if missing_sub.any():
            raise _missing_error(expand(missing_sub, rest))
        t[rest] = _fallback_parse(stripped.reset_index(drop=True), rest)
    _check_full_dates(s)
    return _in_zone(s, t, tz)


def _from_epoch_text(s: pd.Series, na: np.ndarray, epoch: str) -> np.ndarray:
    """Epoch numbers written as text (``epoch=`` given): every value must be one."""
    stripped = s.str.strip()
    missing = na | stripped.str.lower().isin(list(MISSING_LABELS)).to_numpy(dtype=bool)
    if missing.any():
        raise _missing_error(missing)
    exact = epoch_decimal_text(stripped, epoch)
    if exact is not None:
        return exact
    num = pd.to_numeric(stripped, errors="coerce")
    bad = num.isna().to_numpy()
    if bad.any():
        raise TimestampError(f"unparseable epoch timestamp(s) at {row_numbers(bad)}; with epoch= "
                             "every time "
                             "must be a number.")
    return from_epoch(num.to_numpy(), epoch)


def _in_zone(s: pd.Series, t: np.ndarray, tz: Any) -> np.ndarray:
    """The parsed times ``t`` of text ``s`` as UTC instants: as they are when every value has a
    UTC offset, read as wall-clock times in ``tz`` when none has; a mix is refused."""
    aware = s.str.contains(_OFFSET_AT_END, regex=True).fillna(False).to_numpy(dtype=bool)
    if aware.all():
        return t
    if aware.any():
        few = ~aware if (~aware).sum() <= aware.sum() else aware
        label = "without" if few is not aware else "with"
        raise TimestampError(
            f"mixed naive and zone-aware timestamps ({int(few.sum())} {label} a UTC offset, at "
            f"{row_numbers(few)}); "
            "give every time an offset, or none and pass tz= for the local zone."
        )
    if str(tz) in ("UTC", "utc", "Etc/UTC"):
        return t
    return _localize(pd.Series(pd.DatetimeIndex(t.view("datetime64[ns]"))), tz)


def _iso_offsets(s: pd.Series) -> pd.Series:
    """``GMT+0100`` / ``UTC-05:00`` / ``GMT+1`` rewritten as ISO offsets (``+01:00``) and a
    trailing zone name in parentheses dropped, so every parser reads the ISO sign."""
    if not bool(s.str.contains(r"(?i)(?:GMT|UTC)[ \t]*[+-]|\)[ \t]*$",
                               regex=True).fillna(False).any()):
        return s
    for pattern, repl in _GMT_OFFSETS:
        s = s.str.replace(pattern, repl, regex=True)
    return s.str.replace(_ZONE_NAME_AT_END, "", regex=True)


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
            f"timestamp(s) without a day or a year at {row_numbers(~full)} (e.g. 'Nov 2026' or "
            "'2026-11'); a parser "
            "would fill in the 1st or January. Write full dates like 2026-11-29T03:47:00Z."
        )


def _fallback_parse(s: pd.Series, where: np.ndarray) -> np.ndarray:
    """Parse the strings ISO-8601 could not: a trailing UTC/GMT, Apache/CLF times
    (``17/May/2015:10:05:03 +0000``) and forms with a month name and a 4-digit year
    (``Sun, 29 Nov 2026 03:47:00 +0100``). Numeric day/month orders are ambiguous and refused."""
    out = np.zeros(len(s), dtype=np.int64)
    done = np.zeros(len(s), dtype=bool)

    def store(mask: np.ndarray, parsed: pd.Series) -> None:
        """Keep what parsed among the rows of ``mask``; those rows are done either way."""
        good = ~parsed.isna().to_numpy()
        idx = np.flatnonzero(mask)[good]
        if good.any():
            out[idx] = _to_ns(parsed[good], expand(_expand_idx(idx, len(s)), where))
        done[idx] = True

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        utc_suffix = s.str.contains(r"(?i)[ \t]*(?:UTC|GMT)$",
                                    regex=True).fillna(False).to_numpy(dtype=bool)
        if utc_suffix.any():
            fixed = s[utc_suffix].str.replace(r"(?i)[ \t]*(?:UTC|GMT)$", "+00:00", regex=True)
            p = _parse_iso(fixed)
            store(utc_suffix, p)
        clf = ~done & s.str.fullmatch(
            r"[0-9]{1,2}/[A-Za-z]{3}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2}[ \t]*[+-][0-9]{4}"
        ).fillna(False).to_numpy(dtype=bool)
        if clf.any():
            p = pd.to_datetime(s[clf], format="%d/%b/%Y:%H:%M:%S %z", utc=True, errors="coerce")
            store(clf, p)
        named = ~done & (
            s.str.contains(_MONTHS, regex=True)
            & s.str.contains(r"(?:^|[^0-9])[0-9]{4}(?:$|[^0-9])", regex=True)
        ).fillna(False).to_numpy(dtype=bool)
        if named.any():
            p = pd.to_datetime(s[named], format="mixed", utc=True, errors="coerce")
            store(named, p)
    if not done.all():
        bad = expand(~done, where)
        ambiguous = s[~done].str.fullmatch(r"[0-9]{1,2}[./-][0-9]{1,2}[./-][0-9]{2,4}(?:[ "
                                           r"T].*)?").fillna(False)
        hint = (" Dates like 01.02.2026 are ambiguous (day or month "
                "first?);" if ambiguous.any() else "")
        raise TimestampError(
            f"unparseable timestamp(s) at {row_numbers(bad)};{hint} use ISO-8601 like "
            "2026-11-29T03:47:00Z "
            "or 2026-11-29 04:47:00+01:00."
        )
    return out


def _expand_idx(idx: np.ndarray, n: int) -> np.ndarray:
    mask = np.zeros(n, dtype=bool)
    mask[idx] = True
    return mask


#: How a time column of ISO-8601 text with UTC offsets is read (stated in ``how_read``).
OFFSETS_READING = "text with UTC offsets (each row its own instant)"


def describe_time(col: pd.Series, *, tz: Any, epoch: str | None) -> str:
    """How :func:`parse_time` read a column (it has read it already, so forms are not mixed):
    judged on the dtype and the first value."""
    col = numpy_backed(col)
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        return "datetimes with their zones"
    if pd.api.types.is_datetime64_dtype(dtype):
        return f"naive datetimes in {tz}"
    if epoch is not None:
        return f"epoch numbers in {UNIT_NAMES[epoch]} (checked: 2000 to 2100, one magnitude)"
    first = col.dropna().astype(str).iloc[:1]
    if len(first) and bool(_iso_offsets(first.str.strip()).str.contains(_OFFSET_AT_END,
                                                                        regex=True).iloc[0]):
        return OFFSETS_READING
    return f"text without offsets, read as local times in {tz}"
