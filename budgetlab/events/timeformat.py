"""Times read as written: a strptime-style format (``time_format=``, CLI ``--time-format``), and
the year of formats that carry none (``year=``, CLI ``--year``).

A format without a year (syslog's ``%b %d %H:%M:%S``, a proxy's ``%m.%d %H:%M:%S``) is refused
unless the year is given; it is the year of the first line. **New Year rule:** each line is read
in the year that puts it nearest the latest time read so far: a time more than half a year
(183 days) earlier than that latest time is in the next year (the log has crossed New Year:
``Dec 31 23:59:59`` then ``Jan 1 00:00:01``), one more than half a year later than it is in the
year before (a ``Dec 31`` line written late, after ``Jan 1``). Unsorted lines thus never move a
year on by themselves. The rule is stated in the "how it was read" block each time it applies.
Dates that do not exist in their year (``Feb 29`` in 2015) are refused, never rolled over to
another day.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.words import counted, say
from ..errors import ConfigError, TimestampError
from ._messages import row_numbers
from .epochs import EPOCH_UNITS, NS_MAX
from .times import parse_time, zone_reading

__all__ = ["check_time_format", "has_year", "parse_formatted", "instants", "year_shifts",
           "matches_format", "NEW_YEAR_GAP"]

#: A time this much earlier than the latest one before it is in the next year, this much later
#: than it in the year before (formats without a year).
NEW_YEAR_GAP = pd.Timedelta(days=183)
_YEAR = re.compile(r"%[YyGcxD]")
# a day of the year: day and month, the day of the year, a whole date, or a week and a weekday
_DAY, _MONTH, _DATE = re.compile(r"%[de]"), re.compile(r"%[mbBh]"), re.compile(r"%[jcxD]")
_WEEK, _WEEKDAY = re.compile(r"%[UWV]"), re.compile(r"%[uwaA]")
# weeks counted from the year's first Sunday (%U) or Monday (%W): strptime takes week 0's Sunday
# of 2026 for 2025-12-28 and Arrow's 2026-52-6 for 2028-02-03, so their dates must format back
_YEAR_WEEK = re.compile(r"%[UW]")
_ORDER_YEAR = 2000  # a leap year: Feb 29 orders before the year is known
_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def has_year(fmt: str) -> bool:
    """Whether the strptime format ``fmt`` carries the year.

    >>> has_year("%b %d %H:%M:%S"), has_year("%Y-%m-%d %H:%M")
    (False, True)
    """
    return _YEAR.search(fmt) is not None


def check_time_format(fmt: Any, year: Any) -> None:
    """Refuse a time format that is not a strptime format with a time, and a year that is not
    needed (the format has one) or not a year."""
    if fmt is None:
        if year is not None:
            raise ConfigError("year= goes with time_format= (a format without a year, e.g. "
                              "'%b %d %H:%M:%S').")
        return
    if not isinstance(fmt, str) or "%" not in fmt:
        raise ConfigError("time_format= takes a strptime format such as '%b %d %H:%M:%S' or "
                          "'%d/%m/%Y %H:%M'.")
    if "%Z" in fmt.replace("%%", ""):  # strptime would drop the name and read the wall time as UTC
        raise ConfigError(
            f"time_format={fmt!r} has %Z, a zone name (CET, PDT, UTC), which budgetlab does not "
            "read: names are ambiguous (CST is three zones) and change at DST. For times all in "
            "UTC write that as text in the format (e.g. '%Y-%m-%d %H:%M:%S UTC'); for local "
            "times leave the name out of the time and give tz= (e.g. Europe/Berlin); for "
            "offsets like +0100 use %z.")
    if "%s" in fmt.replace("%%", ""):
        raise ConfigError(f"time_format={fmt!r} has %s, epoch seconds: leave time_format= out "
                          "and give epoch='s' (its checks of unit and range apply).")
    bare = fmt.replace("%%", "")
    if ("%G" in bare or "%V" in bare) and not ("%G" in bare and "%V" in bare
                                               and _WEEKDAY.search(bare)):
        raise ConfigError(f"time_format={fmt!r}: an ISO week (%V) goes with the ISO year (%G, "
                          "not %Y) and a weekday (%u or %a), e.g. '%G-W%V-%u %H:%M'.")
    # a week's days depend on its year, and are checked to lie in it (which %z would hide)
    if _YEAR_WEEK.search(bare) and ("%z" in bare or not re.search("%[Yy]", bare)):
        raise ConfigError(f"time_format={fmt!r}: weeks %U/%W are read with their year (%Y) and "
                          "without an offset (%z); write e.g. '%Y-%U-%w %H:%M', ISO weeks "
                          "('%G-W%V-%u %H:%M %z') or the date ('%Y-%m-%d').")
    if not (_DATE.search(fmt) or (_DAY.search(fmt) and _MONTH.search(fmt))
            or (_WEEK.search(bare) and _WEEKDAY.search(bare))):
        raise ConfigError(
            f"time_format={fmt!r} has no day and month (%d with %m or %b, %j, or a week %V, %U "
            "or %W with a weekday %u, %w or %a): every time would fall on January 1st; put the "
            "date in the format (and in the pattern's time group).")
    if year is not None:
        if isinstance(year, bool) or not isinstance(year, int) or not 1970 <= year <= 2100:
            raise ConfigError(f"year={year!r} is not a year budgetlab reads: give the year of "
                              "the first line in full, from 1970 to 2100 (e.g. 2026).")
        if has_year(fmt):
            raise ConfigError(f"time_format={fmt!r} carries the year already; leave year= out.")


def _arrow_exact(texts: pa.Array, fmt: str) -> tuple[np.ndarray, np.ndarray]:
    """``(seconds, exact)`` by Arrow's strptime, kept only where the time formats back to the
    text as written (Arrow rolls 31 Apr over to 1 May; pandas refuses it): a trailing ``%z`` is
    read here when it is ``+HHMM`` under 24 h; any other text is not exact (pandas reads it)."""
    local, fmt_local, off = texts, fmt, np.zeros(len(texts), dtype=np.int64)
    exact = np.ones(len(texts), dtype=bool)
    if _WEEK.search(fmt):  # Arrow misreads weeks (ISO weeks as 1900-01-01): pandas reads them
        return off, ~exact
    if fmt.endswith("%z") and fmt.count("%z") == 1:
        local, fmt_local = pc.utf8_slice_codeunits(texts, 0, -5), fmt[:-2]
        zone = pc.utf8_slice_codeunits(texts, -5)
        exact = np.asarray(pc.match_substring_regex(zone, r"^[+-](?:[01][0-9]|2[0-3])[0-5][0-9]$"),
                           dtype=bool)
        hhmm = pc.cast(pc.if_else(pa.array(exact), pc.utf8_slice_codeunits(zone, 1), "0000"),
                       pa.int64()).to_numpy()
        sign = np.where(np.asarray(pc.starts_with(zone, "-"), dtype=bool), -1, 1)
        off = sign * (hhmm // 100 * 3600 + hhmm % 100 * 60)
    elif "%z" in fmt or "%f" in fmt:
        return off, ~exact
    if "%b" in fmt_local and not re.search(r"%[aABpPcxXZ]", fmt_local):  # %m: 8x faster than %b
        for number, month in enumerate(_MONTHS, 1):
            local = pc.replace_substring(local, month, f"{number:02d}")
        fmt_local = fmt_local.replace("%b", "%m")
    stamp = pc.strptime(local, format=fmt_local, unit="s", error_is_null=True)
    exact &= np.asarray(stamp.is_valid(), dtype=bool)
    # a rolled-over date lands on day 1..3; leading blanks Arrow skips: those must format back
    suspect = pc.fill_null(pc.or_(pc.less_equal(pc.day(stamp), 3), pc.starts_with(local, " ")),
                           True)
    check = np.flatnonzero(exact & np.asarray(suspect, dtype=bool))
    back = pc.strftime(stamp.take(check), format=fmt_local)
    exact[check] = np.asarray(pc.fill_null(pc.equal(back, local.take(check)), False), dtype=bool)
    return np.asarray(pc.fill_null(stamp.cast(pa.int64()), 0), dtype=np.int64) - off, exact


def _distinct_ns(texts: pa.Array, fmt: str) -> tuple[np.ndarray, np.ndarray]:
    """``(ns, valid)`` of distinct texts: Arrow where exact, pandas' strptime for the rest; an
    instant outside datetime64[ns] (1677..2262) is not valid."""
    secs, valid = _arrow_exact(texts, fmt)
    valid &= np.abs(secs) < NS_MAX // 10**9 - 1
    ns = np.where(valid, secs, 0) * 10**9
    rest = np.flatnonzero(~valid)
    if len(rest):
        given = pd.Series(texts.take(rest).to_pylist(), dtype=object)
        parsed = pd.to_datetime(given, format=fmt, errors="coerce", utc="%z" in fmt)
        if _YEAR_WEEK.search(fmt):  # no %z (refused): a date rolled into another year is refused
            parsed = parsed.where(parsed.dt.strftime(fmt) == given)
        vals = np.asarray(parsed.dt.tz_localize(None) if "%z" in fmt else parsed).view(np.int64)
        factor = EPOCH_UNITS[parsed.dt.unit]
        ok = np.asarray(parsed.notna(), dtype=bool) & (np.abs(vals) <= NS_MAX // factor)
        ns[rest], valid[rest] = np.where(ok, vals, 0) * factor, ok
    return ns, valid


def _strptime(text: pd.Series, fmt: str) -> pd.Series:
    """Text read with ``fmt``, never rolled over to another day (NaT where it does not match):
    each distinct text read once (logs repeat their times)."""
    ns, valid = instants(pa.array(text.to_numpy(dtype=object), pa.string(), from_pandas=True), fmt)
    out = np.where(valid, ns, np.iinfo(np.int64).min).view("datetime64[ns]")
    return pd.Series(out, index=text.index).dt.tz_localize("UTC" if "%z" in fmt else None)


def instants(text: Any, fmt: str) -> tuple[np.ndarray, np.ndarray]:
    """``(ns, valid)``: the UTC instants of Arrow text read with ``fmt`` (a format with ``%z``),
    as :func:`parse_formatted` reads them; a text that does not match ``fmt`` is not valid.

    >>> import pyarrow as pa
    >>> ns, valid = instants(pa.array(["10/Oct/2026:13:55:36 -0530", "31/Apr/2026:00:00:00 +0000"]),
    ...                      "%d/%b/%Y:%H:%M:%S %z")
    >>> pd.to_datetime(ns[valid], utc=True).strftime("%Y-%m-%d %H:%M:%S").tolist(), valid.tolist()
    (['2026-10-10 19:25:36'], [True, False])
    """
    enc = pc.dictionary_encode(text.combine_chunks() if isinstance(text, pa.ChunkedArray) else text,
                               null_encoding="encode")
    ns, valid = _distinct_ns(enc.dictionary, fmt)
    at = np.asarray(enc.indices, dtype=np.int64)
    return ns[at], valid[at]


def matches_format(text: Any, fmt: str) -> np.ndarray:
    """Which Arrow texts match ``fmt``, with or without its year: one rule for the lines of a
    log (``on_error=``). A format without a year is tried in a leap year, so ``Feb 29`` matches
    here and is refused by :func:`parse_formatted` when its year is not a leap year (a matter of
    ``year=``, not of the line).

    >>> import pyarrow as pa
    >>> matches_format(pa.array(["12.31 23:00:08", "12.31 23:00", "02.29 00:00:00"]),
    ...                "%m.%d %H:%M:%S").tolist()
    [True, False, True]
    """
    if has_year(fmt):
        return instants(text, fmt)[1]
    trimmed = pc.utf8_trim_whitespace(text)
    return instants(pc.binary_join_element_wise(f"{_ORDER_YEAR}", trimmed, " "), f"%Y {fmt}")[1]


def parse_formatted(col: pd.Series, fmt: str, *, year: int | None,
                    tz: Any, lines: bool = False) -> tuple[np.ndarray, str]:
    """The time column read with ``fmt`` (and ``year`` if the format has none) as int64 ns UTC,
    and how it was read (for the "how it was read" block); ``lines``: the events of a text log,
    whose refusals name ``on_error='skip'``.

    >>> t, how = parse_formatted(pd.Series(["Dec 31 23:59:58", "Jan  1 00:00:01"]),
    ...                          "%b %d %H:%M:%S", year=2025, tz="UTC")
    >>> pd.to_datetime(t, utc=True).strftime("%Y-%m-%d %H:%M:%S").tolist()
    ['2025-12-31 23:59:58', '2026-01-01 00:00:01']
    >>> how
    "text as written, format '%b %d %H:%M:%S', year 2025 given (crossed New Year once: 2026 from
    there on), read as local times in UTC (tz= given)"
    """
    text = col.astype("str").str.strip()
    with_year = has_year(fmt)
    if not with_year and year is None:
        raise TimestampError(f"the time format {fmt!r} has no year, so the times do not say "
                             f"which year they are in; give {say('year=YYYY', '--year YYYY')}, "
                             "the year of the first line (a log that crosses New Year goes on in "
                             "the next one).")
    if with_year:
        parsed, said = _strptime(text, fmt), f"text as written, format {fmt!r}"
        if "%y" in fmt.replace("%%", ""):  # the century is strptime's choice: said, not guessed
            said += " (two-digit years: 69-99 as 1969-1999, 00-68 as 2000-2068)"
    else:
        year = int(year or 0)  # given: checked above
        ordered = _strptime(f"{_ORDER_YEAR} " + text, f"%Y {fmt}")
        _refuse_missing(ordered, fmt, lines)
        shift = year_shifts(np.asarray(ordered.array.asi8))
        years = year + shift
        parsed = _strptime(pd.Series(years.astype(str), index=text.index) + " " + text, f"%Y {fmt}")
        bad = parsed.isna().to_numpy()
        if bad.any():
            raise TimestampError(f"times at {row_numbers(bad)} are not dates in their year (such "
                                 "as Feb 29 in a year that is not a leap year); check "
                                 f"{say('year=', '--year')}.")
        said = f"text as written, format {fmt!r}, year {year} given{_new_year_words(shift, year)}"
    _refuse_missing(parsed, fmt, lines)
    if "%z" in fmt:
        return parse_time(parsed, tz="UTC", epoch=None), said + " with UTC offsets"
    return parse_time(parsed, tz=tz, epoch=None), f"{said}, {zone_reading(tz)}"


def year_shifts(pos: np.ndarray) -> np.ndarray:
    """The year of each time relative to the first line's (0, 1, -1, ...) by the New Year rule:
    ``pos`` are the times placed in one year (int64 ns); each is read in the year that puts it
    nearest the latest time read before it. Vectorised between the lines where the rule
    applies (a log crosses New Year rarely); ``NEW_YEAR_GAP`` is the half year.

    >>> day = 86_400 * 10**9
    >>> year_shifts(np.array([364, 365, 0, 365, 1]) * day).tolist()  # Dec 30, 31, Jan 1, Dec 31
    [0, 0, 1, 0, 1]
    """
    gap, n = NEW_YEAR_GAP.value, len(pos)
    shift = np.zeros(n, dtype=np.int64)
    if n == 0:
        return shift
    k, latest, i, chunk = 0, int(pos[0]), 0, 64
    while i < n:
        seg = pos[i:i + chunk]
        # the latest time before each line, if no line of the chunk is read in another year
        before = np.maximum.accumulate(np.concatenate([[latest], seg[:-1]]))
        jump = np.flatnonzero((seg < before - gap) | (seg > before + gap))
        stop = int(jump[0]) if len(jump) else len(seg)
        shift[i:i + stop] = k
        latest = max(latest, int(seg[:stop].max())) if stop else latest
        if not len(jump):
            i, chunk = i + stop, min(chunk * 2, 1 << 20)
            continue
        if seg[stop] < before[stop] - gap:  # the next year: the latest time from now on
            k, latest = k + 1, int(seg[stop])
            shift[i + stop] = k
        else:  # written late: the year before, the latest time stays
            shift[i + stop] = k - 1
        i, chunk = i + stop + 1, 64
    return shift


def _new_year_words(shift: np.ndarray, year: int) -> str:
    """How the New Year rule read the log (empty when it did not apply)."""
    crossed, last = int(np.max(shift)), year + int(np.max(shift))
    late = int(np.count_nonzero(shift < np.maximum.accumulate(shift)))
    words = []
    if crossed:
        times = "once" if crossed == 1 else f"{crossed} times"
        words.append(f"crossed New Year {times}: {last} from there on")
    if late:
        words.append(f"{counted(late, 'line')} written late across New Year (over half a year "
                     "after the latest time before it) read in the year before")
    return f" ({'; '.join(words)})" if words else ""


def _refuse_missing(parsed: pd.Series, fmt: str, lines: bool = False) -> None:
    """Refuse the times that do not match ``fmt`` by row (by line in a text log, where
    ``on_error='skip'`` leaves such lines out)."""
    bad = parsed.isna().to_numpy()
    if bad.any():
        one = int(bad.sum()) == 1  # the number agrees: "the time at line 3 does not match"
        them, those = ("it", "that line") if one else ("them", "those lines")
        fix = say(f", fix {them} or pass on_error='skip' to leave {those} out",
                  f", fix {them}, or pass --on-error skip to leave {those} out (with a "
                  "warning)") if lines else f", or fix {them}"
        times = "the time at" if one else "times at"
        raise TimestampError(f"{times} {row_numbers(bad)} {'does' if one else 'do'} not match "
                             f"the time format {fmt!r}; check "
                             f"{say('time_format=', '--time-format')}{fix}.")
