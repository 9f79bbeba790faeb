"""Times read as written: a strptime-style format (``time_format=``, CLI ``--time-format``), and
the year of formats that carry none (``year=``, CLI ``--year``).

A format without a year (syslog's ``%b %d %H:%M:%S``, a proxy's ``%m.%d %H:%M:%S``) is refused
unless the year is given; it is the year of the first line. **New Year rule:** when a time is more
than half a year (183 days) earlier than the line before it, the log has crossed New Year and the
year goes up by one from that line on (``Dec 31 23:59:59`` then ``Jan 1 00:00:01``). The rule is
stated in the "how it was read" block each time it applies. Dates that do not exist in their year
(``Feb 29`` in 2015) are refused, never rolled over to another day.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from .._util.words import say
from ..errors import ConfigError, TimestampError
from ._messages import row_numbers
from ._times import parse_time

__all__ = ["check_time_format", "has_year", "parse_formatted", "NEW_YEAR_GAP"]

#: A time this much earlier than the line before it starts the next year (formats without a year).
NEW_YEAR_GAP = pd.Timedelta(days=183)
_YEAR = re.compile(r"%[YyGcxD]")
_ORDER_YEAR = 2000  # a leap year: Feb 29 orders before the year is known


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
            raise ConfigError("year= goes with time_format= (a format without a year, e.g. '%b %d %H:%M:%S').")
        return
    if not isinstance(fmt, str) or "%" not in fmt:
        raise ConfigError("time_format= takes a strptime format such as '%b %d %H:%M:%S' or '%d/%m/%Y %H:%M'.")
    if year is not None:
        if isinstance(year, bool) or not isinstance(year, int) or not 1970 <= year <= 2100:
            raise ConfigError("year= takes the year of the first line as a whole number, e.g. 2026.")
        if has_year(fmt):
            raise ConfigError(f"time_format={fmt!r} carries the year already; leave year= out.")


def _strptime(text: pd.Series, fmt: str) -> pd.Series:
    return pd.to_datetime(text, format=fmt, errors="coerce", utc="%z" in fmt)


def _years(ordered: pd.Series, first: int) -> tuple[np.ndarray, int]:
    """The year of each row under the New Year rule, and how many times the log crossed it."""
    ns = ordered.dt.tz_localize(None).to_numpy().astype("datetime64[ns]").astype(np.int64) \
        if ordered.dt.tz is not None else ordered.to_numpy().astype("datetime64[ns]").astype(np.int64)
    step = np.diff(ns) < -NEW_YEAR_GAP.value
    years = first + np.concatenate([[0], np.cumsum(step)]).astype(np.int64)
    return years, int(step.sum())


def parse_formatted(col: pd.Series, fmt: str, *, year: int | None, tz: Any) -> tuple[np.ndarray, str]:
    """The time column read with ``fmt`` (and ``year`` if the format has none) as int64 ns UTC,
    and how it was read (for the "how it was read" block).

    >>> t, how = parse_formatted(pd.Series(["Dec 31 23:59:58", "Jan  1 00:00:01"]), "%b %d %H:%M:%S",
    ...                          year=2025, tz="UTC")
    >>> pd.to_datetime(t, utc=True).strftime("%Y-%m-%d %H:%M:%S").tolist()
    ['2025-12-31 23:59:58', '2026-01-01 00:00:01']
    >>> how
    "text as written, format '%b %d %H:%M:%S', year 2025 given (crossed New Year once: 2026 from there on), in UTC"
    """
    text = col.astype("str").str.strip()
    with_year = has_year(fmt)
    if not with_year and year is None:
        raise TimestampError(f"the time format {fmt!r} has no year, so the times do not say which year they are in; "
                             f"give {say('year=YYYY', '--year YYYY')}, the year of the first line (a log that crosses New "
                             "Year goes on in the next one).")
    if with_year:
        parsed, said = _strptime(text, fmt), f"text as written, format {fmt!r}"
    else:
        year = int(year or 0)  # given: checked above
        ordered = _strptime(f"{_ORDER_YEAR} " + text, f"%Y {fmt}")
        _refuse_missing(ordered, fmt)
        years, crossed = _years(ordered, year)
        parsed = _strptime(pd.Series(years.astype(str), index=text.index) + " " + text, f"%Y {fmt}")
        bad = parsed.isna().to_numpy()
        if bad.any():
            raise TimestampError(f"times at {row_numbers(bad)} are not dates in their year (such as Feb 29 in a year "
                                 f"that is not a leap year); check {say('year=', '--year')}.")
        said = f"text as written, format {fmt!r}, year {year} given"
        if crossed:
            times = "once" if crossed == 1 else f"{crossed} times"
            said += f" (crossed New Year {times}: {int(years[-1])} from there on)"
    _refuse_missing(parsed, fmt)
    if "%z" in fmt:
        return parse_time(parsed, tz="UTC", epoch=None), said + " with UTC offsets"
    return parse_time(parsed, tz=tz, epoch=None), said + f", in {tz}"


def _refuse_missing(parsed: pd.Series, fmt: str) -> None:
    bad = parsed.isna().to_numpy()
    if bad.any():
        raise TimestampError(f"times at {row_numbers(bad)} do not match the time format {fmt!r}; check "
                             f"{say('time_format=', '--time-format')}, or fix those rows.")
