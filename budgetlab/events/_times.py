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

from .._util.codes import on_chunks
from .._util.words import say
from ..errors import TimestampError
from ._columns import MISSING_LABELS, numpy_backed
from ._messages import expand, row_numbers

__all__ = ["EPOCH_UNITS", "OFFSETS_READING", "parse_time"]

#: Units of epoch numbers (``epoch=``) in nanoseconds.
EPOCH_UNITS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
_NS_MAX = 2**63 - 1  # pandas' Timestamp range in ns (int64 min is NaT)
# an offset (or Z/UTC/GMT) right after a clock time at the end of the string
_OFFSET_AT_END = r"[0-9]:[0-9][0-9](?::[0-9][0-9](?:[.,][0-9]+)?)?[ \t]*(?:[Zz]|UTC|GMT|[+-][0-9][0-9](?::?[0-9][0-9])?)[ \t]*$"
_MONTHS = r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
# epoch numbers must land in [2000, 2100): anything else is almost surely the wrong unit
_EPOCH_LOW_NS = 946_684_800 * 10**9  # 2000-01-01T00:00:00Z
_EPOCH_HIGH_NS = 4_102_444_800 * 10**9  # 2100-01-01T00:00:00Z
_UNIT_NAMES = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}
# "GMT+0100", "UTC-05:00", "GMT+1" after any date style: an offset with the ISO sign (east is +).
# (dateutil reads "GMT+1" the POSIX way, with the sign inverted: rewritten to "+01:00" first.)
_GMT_OFFSETS = (
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9]{2}):?([0-9]{2})(?![0-9])", r"\1\2:\3"),
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9]{2})(?![0-9:])", r"\1\2:00"),
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9])(?![0-9:])", r"\g<1>0\2:00"),
)
_ZONE_NAME_AT_END = r"[ \t]*\([A-Za-z][^()]*\)[ \t]*$"  # JavaScript's "(Central European Standard Time)"
# a full date: year, month and day (ISO/slashed, basic ISO, CLF, or a month name with a day and a year)
_FULL_DATE = (r"(?:^|[^0-9])[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}(?:$|[^0-9])|^[+-]?[0-9]{8}(?:T|$)"
              r"|[0-9]{1,2}/[A-Za-z]{3}/[0-9]{4}")
_DAY_NUMBER = r"(?:^|[^0-9:.+-])(?:0?[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)?(?:$|[^0-9:])"
_YEAR = r"(?:^|[^0-9])[0-9]{4}(?:$|[^0-9])"


def _to_ns(parsed: pd.Series, mask_out: np.ndarray | None = None) -> np.ndarray:
    """int64 ns of a datetime64[unit, UTC] Series, with rows outside pandas' ns range refused."""
    unit = str(parsed.dt.unit)
    vals = np.asarray(parsed.array.asi8, dtype=np.int64)
    f = EPOCH_UNITS[unit]
    if f == 1:
        return vals
    lo, hi = -(_NS_MAX // f), _NS_MAX // f
    bad = (vals < lo) | (vals > hi)
    bad &= ~parsed.isna().to_numpy()
    if bad.any():
        full = bad if mask_out is None else expand(bad, mask_out)
        raise TimestampError(
            f"timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at {row_numbers(full)}; check the time "
            "column (and the epoch unit)."
        )
    return vals * f


def _missing_error(missing: np.ndarray) -> TimestampError:
    return TimestampError(f"{int(missing.sum())} empty or missing timestamp(s) at {row_numbers(missing)}; "
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
        raise TimestampError("the time column holds true/false or complex values, not times; check time=.")
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
        return _from_epoch(col.to_numpy(), epoch)
    if pd.api.types.is_object_dtype(dtype):
        inferred = pd.api.types.infer_dtype(col, skipna=True)
        if inferred in ("integer", "floating", "mixed-integer-float", "decimal"):
            if missing.any():
                raise _missing_error(missing)
            return _from_epoch(pd.to_numeric(col).to_numpy(), epoch)
        if inferred == "boolean":
            raise TimestampError("the time column holds true/false values, not times; check time=.")
        if inferred in ("datetime", "date", "datetime64"):
            # datetime objects: str() gives ISO text with the offset of each (exact instants);
            # naive and aware objects mixed are refused like naive and aware strings
            text = col.astype(str).where(~missing, None)
            return _from_strings(pd.Series(text, dtype="str"), tz=tz, epoch=epoch)
    return _from_strings(col if pd.api.types.is_string_dtype(dtype) and not pd.api.types.is_object_dtype(dtype) else col.astype("str"),
                         tz=tz, epoch=epoch)


def _localize(col: pd.Series, tz: Any) -> np.ndarray:
    """Naive datetimes (wall time in ``tz``) -> int64 ns UTC; DST gaps and overlaps are refused."""
    if str(tz) in ("UTC", "utc", "Etc/UTC"):
        return _to_ns(col.dt.tz_localize("UTC"))
    local = col.dt.tz_localize(tz, ambiguous="NaT", nonexistent="NaT")
    bad = local.isna().to_numpy()
    if bad.any():
        raise TimestampError(
            f"naive local times in tz={tz!r} are ambiguous or do not exist around a DST change at "
            f"{row_numbers(bad)}; log times with UTC offsets (e.g. 2026-10-25T02:30:00+01:00) or in UTC."
        )
    return _to_ns(local.dt.tz_convert("UTC"))


def _unit_of(magnitude: np.ndarray) -> np.ndarray:
    """The epoch unit each magnitude looks like (index into s, ms, us, ns)."""
    return np.searchsorted(np.array([1e11, 1e14, 1e17]), magnitude, side="right")


def _check_epoch(values: np.ndarray, out: np.ndarray, epoch: str) -> np.ndarray:
    """Refuse epoch numbers whose unit cannot be right: units mixed in one column (magnitudes
    1000x apart), or instants before 2000 or from 2100 on under ``epoch``; ``out`` is returned."""
    units = list(EPOCH_UNITS)
    magnitude = np.abs(np.asarray(values, dtype=np.float64))
    per_row = _unit_of(magnitude)
    kinds = np.unique(per_row)
    if len(kinds) > 1:
        parts = [f"{int((per_row == k).sum())} look like {_UNIT_NAMES[units[k]]} ({row_numbers(per_row == k)})"
                 for k in kinds[:2]]
        raise TimestampError(
            f"the epoch numbers mix units (magnitudes 1000x apart): {'; '.join(parts)}; give every time in one unit "
            "(or write ISO-8601 like 2026-11-29T03:47:00Z)."
        )
    bad = (out < _EPOCH_LOW_NS) | (out >= _EPOCH_HIGH_NS)
    if bad.any():
        guess = units[int(np.bincount(per_row).argmax())]
        hint = (f"these numbers look like {say(f'epoch={guess!r}', f'--epoch {guess}')} ({_UNIT_NAMES[guess]})"
                if guess != epoch else "check the time column")
        raise TimestampError(
            f"with {say(f'epoch={epoch!r}', f'--epoch {epoch}')} ({_UNIT_NAMES[epoch]}) {int(bad.sum())} timestamp(s) "
            f"fall before 2000 or after 2100, at {row_numbers(bad)}; {hint}."
        )
    return out


def _from_epoch(values: np.ndarray, epoch: str | None) -> np.ndarray:
    if epoch is None:
        finite = values[np.isfinite(values)] if values.dtype.kind == "f" else values
        v = float(np.median(np.abs(finite))) if len(finite) else 0.0
        guess = "ns" if v > 1e17 else "us" if v > 1e14 else "ms" if v > 1e11 else "s"
        raise TimestampError(
            "the timestamps are plain numbers; say their unit with "
            + say(f"epoch='s', 'ms', 'us' or 'ns' (these look like epoch={guess!r})",
                  f"--epoch s|ms|us|ns (these look like --epoch {guess})")
            + ". For dates write ISO-8601 like 2026-11-29T03:47:00Z."
        )
    f = EPOCH_UNITS[epoch]
    if values.dtype.kind in "Ob":
        values = values.astype(np.float64)
    if values.dtype.kind == "f":
        finite = np.isfinite(values)
        if not finite.all():
            raise TimestampError(f"non-finite epoch timestamp(s) at {row_numbers(~finite)}; fill or drop those rows.")
        bad = (values <= -(2.0**63) / f) | (values >= 2.0**63 / f)
        if bad.any():
            raise TimestampError(f"epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at "
                                 f"{row_numbers(bad)}; check epoch={epoch!r}.")
        whole = np.floor(values)  # split so that the fraction keeps its precision
        out = whole.astype(np.int64) * f
        frac = values - whole
        if frac.any():
            out += np.round(frac * f).astype(np.int64)
        return _check_epoch(values, np.asarray(out, dtype=np.int64), epoch)
    ints = values.astype(np.int64) if values.dtype.kind in "iu" and values.dtype.itemsize <= 8 else values
    if ints.dtype.kind == "u":
        bad = ints > np.uint64(_NS_MAX // f)
        ints = np.where(bad, 0, ints).astype(np.int64)
    else:
        bad = (ints < -(_NS_MAX // f)) | (ints > _NS_MAX // f)
    if bad.any():
        raise TimestampError(f"epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at "
                             f"{row_numbers(bad)}; check epoch={epoch!r}.")
    return _check_epoch(ints, np.asarray(ints, dtype=np.int64) * f, epoch)


def _epoch_decimal_text(text: pd.Series, epoch: str) -> np.ndarray | None:
    """Epoch numbers written as plain decimals, converted exactly (no float rounding):
    ``"1780000000.1"`` s is 1780000000100000000 ns. ``None`` if some value has another form."""
    if not bool(text.str.fullmatch(r"[+-]?[0-9]{1,19}(?:[.][0-9]*)?").fillna(False).all()):
        return None
    f = EPOCH_UNITS[epoch]
    whole_text = text.str.replace(r"^[+-]?([0-9]+)(?:[.][0-9]*)?$", r"\1", regex=True)
    whole = pd.to_numeric(whole_text).to_numpy()
    if whole.dtype.kind != "i" or (whole > _NS_MAX // f).any():
        bad = np.asarray(pd.to_numeric(whole_text).to_numpy(dtype=np.float64) > _NS_MAX // f)
        raise TimestampError(f"epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at "
                             f"{row_numbers(bad)}; check epoch={epoch!r}.")
    out = whole.astype(np.int64) * f
    digits = len(str(f)) - 1
    if digits:
        frac = text.str.replace(r"^[+-]?[0-9]+(?:[.]([0-9]*))?$", r"\1", regex=True)
        frac = frac.str.slice(0, digits).str.pad(digits, side="right", fillchar="0")
        out += pd.to_numeric(frac).to_numpy().astype(np.int64)
    neg = text.str.startswith("-").fillna(False).to_numpy(dtype=bool)
    out[neg] = -out[neg]
    return _check_epoch(np.where(neg, -whole, whole), np.asarray(out, dtype=np.int64), epoch)


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
        stripped = s.str.strip()
        missing = na | stripped.str.lower().isin(list(MISSING_LABELS)).to_numpy(dtype=bool)
        if missing.any():
            raise _missing_error(missing)
        exact = _epoch_decimal_text(stripped, epoch)
        if exact is not None:
            return exact
        num = pd.to_numeric(stripped, errors="coerce")
        bad = num.isna().to_numpy()
        if bad.any():
            raise TimestampError(f"unparseable epoch timestamp(s) at {row_numbers(bad)}; with epoch= every time "
                                 "must be a number.")
        return _from_epoch(num.to_numpy(), epoch)
    digits = s.str.fullmatch(r"[ \t]*[+-]?[0-9]+(?:[.][0-9]*)?[ \t]*").fillna(False).to_numpy(dtype=bool)
    if digits.any():
        if (digits | na).all():
            if na.any():
                raise _missing_error(na)
            return _from_epoch(pd.to_numeric(s.str.strip()).to_numpy(), None)
        raise TimestampError(
            f"the time column mixes plain numbers (at {row_numbers(digits)}) with other values; give every time in "
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
        missing_sub = na[rest] | stripped.str.lower().isin(list(MISSING_LABELS)).fillna(True).to_numpy(dtype=bool)
        if missing_sub.any():
            raise _missing_error(expand(missing_sub, rest))
        t[rest] = _fallback_parse(stripped.reset_index(drop=True), rest)
    _check_full_dates(s)
    aware = s.str.contains(_OFFSET_AT_END, regex=True).fillna(False).to_numpy(dtype=bool)
    if aware.all():
        return t
    if aware.any():
        few = ~aware if (~aware).sum() <= aware.sum() else aware
        label = "without" if few is not aware else "with"
        raise TimestampError(
            f"mixed naive and zone-aware timestamps ({int(few.sum())} {label} a UTC offset, at {row_numbers(few)}); "
            "give every time an offset, or none and pass tz= for the local zone."
        )
    if str(tz) in ("UTC", "utc", "Etc/UTC"):
        return t
    wall = pd.Series(pd.DatetimeIndex(t.view("datetime64[ns]")))
    return _localize(wall, tz)


def _iso_offsets(s: pd.Series) -> pd.Series:
    """``GMT+0100`` / ``UTC-05:00`` / ``GMT+1`` rewritten as ISO offsets (``+01:00``) and a
    trailing zone name in parentheses dropped, so every parser reads the ISO sign."""
    if not bool(s.str.contains(r"(?i)(?:GMT|UTC)[ \t]*[+-]|\)[ \t]*$", regex=True).fillna(False).any()):
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
            f"timestamp(s) without a day or a year at {row_numbers(~full)} (e.g. 'Nov 2026' or '2026-11'); a parser "
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
        utc_suffix = s.str.contains(r"(?i)[ \t]*(?:UTC|GMT)$", regex=True).fillna(False).to_numpy(dtype=bool)
        if utc_suffix.any():
            fixed = s[utc_suffix].str.replace(r"(?i)[ \t]*(?:UTC|GMT)$", "+00:00", regex=True)
            p = _parse_iso(fixed)
            store(utc_suffix, p)
        clf = ~done & s.str.fullmatch(r"[0-9]{1,2}/[A-Za-z]{3}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2}[ \t]*[+-][0-9]{4}") \
            .fillna(False).to_numpy(dtype=bool)
        if clf.any():
            p = pd.to_datetime(s[clf], format="%d/%b/%Y:%H:%M:%S %z", utc=True, errors="coerce")
            store(clf, p)
        named = ~done & (s.str.contains(_MONTHS, regex=True) & s.str.contains(r"(?:^|[^0-9])[0-9]{4}(?:$|[^0-9])",
                                                                                regex=True)).fillna(False).to_numpy(dtype=bool)
        if named.any():
            p = pd.to_datetime(s[named], format="mixed", utc=True, errors="coerce")
            store(named, p)
    if not done.all():
        bad = expand(~done, where)
        ambiguous = s[~done].str.fullmatch(r"[0-9]{1,2}[./-][0-9]{1,2}[./-][0-9]{2,4}(?:[ T].*)?").fillna(False)
        hint = (" Dates like 01.02.2026 are ambiguous (day or month first?);" if ambiguous.any() else "")
        raise TimestampError(
            f"unparseable timestamp(s) at {row_numbers(bad)};{hint} use ISO-8601 like 2026-11-29T03:47:00Z "
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
        return f"epoch numbers in {_UNIT_NAMES[epoch]} (checked: 2000 to 2100, one magnitude)"
    first = col.dropna().astype(str).iloc[:1]
    if len(first) and bool(_iso_offsets(first.str.strip()).str.contains(_OFFSET_AT_END, regex=True).iloc[0]):
        return OFFSETS_READING
    return f"text without offsets, read as local times in {tz}"
