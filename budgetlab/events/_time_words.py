"""The words about times that cannot be read as the log meant them: numeric dates whose
day/month order the text does not tell (:func:`numeric_date_words`, with the ``time_format=`` of
each order), ISO-8601 dates with a 12-hour clock (:func:`twelve_hour_words`, with the
``time_format=`` that reads them), syslog's month-name times without a year
(:func:`syslog_words`, with the ``time_format=`` and the ``year=`` that read them), and naive
local times that a DST change leaves without one instant each (none in a gap, two in a repeated
hour: :func:`dst_words`, kind by kind). Like every refusal's words, they never show a value of
the file: the example date is always 1 February 2026, and a DST change is named by its span of
wall time, a fact of the zone. Files that disagree, epoch numbers in one and dates in another,
or epoch numbers of units 1000x apart, are refused by name
(:func:`refuse_epochs_beside_dates`, :func:`refuse_epoch_units_apart`).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

from .._util.words import say
from ..errors import TimestampError
from ._messages import row_numbers

__all__ = ["numeric_date_words", "twelve_hour_words", "syslog_words", "dst_words",
           "refuse_epochs_beside_dates", "refuse_epoch_units_apart"]

#: A date written in numbers only (``01.02.2026``): day and month in an order the text does not
#: tell, one separator, a year of four or two digits, then the rest (a time, if any)
_NUMERIC_DATE = re.compile(r"\A([0-9]{1,2})([./-])([0-9]{1,2})\2([0-9]{4}|[0-9]{2})"
                           r"((?:[ T].*)?)\Z")
#: the time after such a date, as a strptime format reads it: separator, hours and minutes,
#: seconds, a fraction (after a point or a comma), AM/PM (a 12-hour clock), a zone (``Z`` or an
#: offset)
_CLOCK = re.compile(r"([ T])[0-9]{1,2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)?"
                    r"(?:(\s*)([AaPp][Mm]))?(\s*)(Z|[+-][0-9]{2}:?[0-9]{2})?")
#: an ISO-8601 date, then the rest (a time, if any)
_ISO_DATE = re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}(.*)\Z")
#: syslog's date, a month's name (abbreviated: %b, or in full: %B) and its day (``Dec  1``: padded
#: with a space), without a year, then the rest (the time)
_SYSLOG_DATE = re.compile(r"(?i)\A(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|(january|"
                          r"february|march|april|may|june|july|august|september|october|"
                          r"november|december)) +[0-9]{1,2}( .*)\Z")


def _clock_format(rest: str) -> str | None:
    """The strptime directives of the time after a date (``' %H:%M'``, ``' %I:%M %p'``), ``''``
    without one, ``None`` when it is in no form :data:`_CLOCK` knows."""
    if not rest:
        return ""
    m = _CLOCK.fullmatch(rest)
    if m is None:
        return None
    return (m.group(1) + ("%I" if m.group(5) else "%H") + ":%M" + (":%S" if m.group(2) else "")
            + (m.group(3)[0] + "%f" if m.group(3) else "")
            + (m.group(4) + "%p" if m.group(5) else "")
            + (m.group(6) + "%z" if m.group(7) else ""))


def twelve_hour_words(texts: pd.Series) -> str | None:
    """Why ISO-8601 dates with a 12-hour clock (``2026-03-01 10:00 PM +0100``) are not read
    without being told, and the ``time_format=`` that reads them, in their own form (separators,
    seconds, offset); ``None`` unless every one of ``texts`` is such a time. Several forms are
    named by the first's, to be written as one. No value of the file is shown.

    >>> print(twelve_hour_words(pd.Series(["2026-03-01 10:00 PM +0100"])))
    ... # doctest: +NORMALIZE_WHITESPACE
    these times have an ISO-8601 date but a 12-hour clock (AM/PM), which ISO-8601 does not
    have: give time_format='%Y-%m-%d %I:%M %p %z'
    """
    rests = texts.astype(str).str.extract(_ISO_DATE.pattern, expand=False)
    if rests.isna().any():
        return None
    formats = {_clock_format(rest) for rest in rests.unique()}
    if None in formats or not all("%p" in f for f in formats if f is not None):
        return None
    first = _clock_format(str(rests.iloc[0]))
    several = "" if len(formats) == 1 else (
        f" (the first time's form: the times are written in {len(formats)} forms, write them "
        "in one)")
    return ("these times have an ISO-8601 date but a 12-hour clock (AM/PM), which ISO-8601 "
            f"does not have: give time_format={'%Y-%m-%d' + str(first)!r}{several}")


def syslog_words(texts: pd.Series) -> str | None:
    """Why syslog's times (``Dec 31 23:59:58``, ``Dec  1 00:00:01.5``: a month's name and a day,
    no year) are not read without being told, and the ``time_format=`` and ``year=`` that read
    them, in their own form (the month abbreviated or in full, seconds, a fraction); ``None``
    unless every one of ``texts`` is such a time. Several forms are named by the first's, to be
    written as one. No value of the file is shown.

    >>> print(syslog_words(pd.Series(["Dec 31 23:59:58", "Jan  1 00:00:01"])))
    ... # doctest: +NORMALIZE_WHITESPACE
    these times have a month and a day but no year (syslog's form): give time_format='%b %d
    %H:%M:%S' and year=YYYY, the year of the first line (a format without a year needs it; a
    log that crosses New Year goes on in the next one)
    """
    found = texts.astype(str).str.extract(_SYSLOG_DATE.pattern, expand=True)
    if found[2].isna().any():
        return None
    # each row's form: the month's directive and its time's shape (digits as 0: a few distinct)
    shapes = (found[0].isna().map({False: "%b", True: "%B"}) + " %d"
              + found[2].str.replace("[0-9]", "0", regex=True))
    clocks = {shape: _clock_format(shape[5:]) for shape in shapes.unique()}
    if any(not clock for clock in clocks.values()):  # no time, or a time in another form
        return None
    forms = {shape: shape[:5] + str(clock) for shape, clock in clocks.items()}
    first, n_forms = forms[shapes.iloc[0]], len(set(forms.values()))
    several = "" if n_forms == 1 else (
        f" (the first time's form: the times are written in {n_forms} forms, write them "
        "in one)")
    return (f"these times have a month and a day but no year (syslog's form): give "
            f"time_format={first!r} and {say('year=YYYY', '--year YYYY')}, the year of the first "
            "line (a format without a year needs it; a log that crosses New Year goes on in the "
            f"next one){several}")


def numeric_date_words(texts: pd.Series) -> str | None:
    """Why times whose dates are numbers only cannot be read, and the ``time_format=`` that reads
    them: the orders (day first, month first) every such date of ``texts`` allows, the format of
    each for the file's own form (its separator, year and time), and no value of the file (the
    example date is always the 1st of February 2026); ``None`` when none is such a date.

    >>> print(numeric_date_words(pd.Series(["01.02.2026 10:00", "02.02.2026 10:00"])))
    ... # doctest: +NORMALIZE_WHITESPACE
    a date such as 01.02.2026 reads day first (1 February) or month first (2 January), and
    budgetlab does not guess which: give time_format='%d.%m.%Y %H:%M' (day first) or
    time_format='%m.%d.%Y %H:%M' (month first)
    >>> print(numeric_date_words(pd.Series(["13/02/26", "01/02/26"])))
    ... # doctest: +NORMALIZE_WHITESPACE
    these dates read day first only (a first number above 12 is no month), and budgetlab does
    not take the order from some rows: give time_format='%d/%m/%y' (day first)
    """
    found = texts.astype(str).str.extract(_NUMERIC_DATE.pattern).dropna(subset=[0])
    if found.empty:
        return None
    first, second = found[0].astype(int), found[2].astype(int)
    day_first = bool(((first <= 31) & (second <= 12)).all())
    month_first = bool(((first <= 12) & (second <= 31)).all())
    sep, year, rest = found.iloc[0][1], found.iloc[0][3], found.iloc[0][4]
    clock = _clock_format(str(rest))
    y = "%Y" if len(year) == 4 else "%y"

    orders = [o for o, fits in (("%d %m", day_first), ("%m %d", month_first)) if fits]
    if not orders:  # 31.13.2026: no order reads them, no format to give
        return None
    dates = [sep.join(o.split()) + sep + y for o in orders]
    named = ["(day first)" if o == "%d %m" else "(month first)" for o in orders]
    if clock is not None:
        give = " or ".join(f"time_format={d + clock!r} {n}" for d, n in zip(dates, named,
                                                                           strict=True))
    else:  # a time in a form of its own: the date's part, the user writes the rest
        give = ("time_format= with the date as " + " or ".join(
            f"{d!r} {n}" for d, n in zip(dates, named, strict=True))
                + ", then the time's own directives (e.g. %H:%M:%S)")
    if len(orders) == 2:
        example = sep.join(("01", "02", "2026" if y == "%Y" else "26"))
        return (f"a date such as {example} reads day first (1 February) or month first "
                f"(2 January), and budgetlab does not guess which: give {give}")
    return (f"these dates read {'day' if day_first else 'month'} first only (a "
            f"{'first' if day_first else 'second'} number above 12 is no month), and budgetlab "
            f"does not take the order from some rows: give {give}")


def dst_words(wall: pd.Series, bad: np.ndarray, tz: Any) -> str:
    """Why the naive times ``wall[bad]`` have no instant in ``tz``, kind by kind (ambiguous: a
    wall time the clocks go back over; nonexistent: one they skip), with the rows and the span of
    wall time the change covers (a fact of the zone, not a value of the file), and the fix.

    >>> wall = pd.Series(pd.to_datetime(["2026-03-29 02:30", "2026-10-25 02:10"]))
    >>> print(dst_words(wall, np.array([True, True]), "Europe/Berlin"))
    ... # doctest: +NORMALIZE_WHITESPACE
    naive local times in tz='Europe/Berlin' that a DST change leaves without one instant each:
    nonexistent at row 1 (1-based): 2026-03-29 02:00-03:00 does not exist in Europe/Berlin (no
    instant; is the log in another zone? check tz=); ambiguous at row 2 (1-based): 2026-10-25
    02:00-03:00 happens twice in Europe/Berlin (two instants each); log times with UTC offsets
    (e.g. 2026-10-25T02:30:00+01:00) or in UTC.
    """
    # with every ambiguous time read as standard time, only the nonexistent ones are left NaT
    gap = bad & wall.dt.tz_localize(tz, ambiguous=np.zeros(len(wall), dtype=bool),
                                    nonexistent="NaT").isna().to_numpy()
    kinds: list[tuple[int, str]] = []
    for kind, rows, what in (("ambiguous", bad & ~gap, "happens twice"),
                             ("nonexistent", gap, "does not exist")):
        if rows.any():
            # the minutes around the first such time that have no single instant: the change
            at = wall.iloc[int(np.flatnonzero(rows)[0])].floor("min")
            grid = pd.date_range(at - pd.Timedelta(hours=3), at + pd.Timedelta(hours=3), freq="min")
            lost, mid = grid.tz_localize(tz, ambiguous="NaT", nonexistent="NaT").isna(), 180
            start = grid[mid - int(np.argmin(lost[mid::-1])) + 1]
            end = grid[mid + int(np.argmin(lost[mid:]))]
            span = f"{start:%Y-%m-%d %H:%M}-{end:%H:%M}" + ("" if end.date() == start.date()
                                                            else f" on {end:%Y-%m-%d}")
            hint = (" (no instant; is the log in another zone? check tz=)"
                    if kind == "nonexistent" else " (two instants each)")
            kinds.append((int(np.flatnonzero(rows)[0]),
                          f"{kind} at {row_numbers(rows)}: {span} {what} in {tz}{hint}"))
    return (f"naive local times in tz={tz!r} that a DST change leaves without one instant each: "
            + "; ".join(text for _, text in sorted(kinds))
            + "; log times with UTC offsets (e.g. 2026-10-25T02:30:00+01:00) or in UTC.")


def _time_kind(col: pd.Series, iso: bool) -> str:
    """What one file's time column holds: ``text`` (dates: text, or text its reader parsed as
    ISO-8601, ``iso``), ``numbers`` (epoch numbers, or text whose first value is a plain number)
    or ``typed`` (datetimes of a typed file, instants beside either)."""
    dtype = col.dtype.categories.dtype if isinstance(col.dtype, pd.CategoricalDtype) else col.dtype
    if iso:
        return "text"
    if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
        return "numbers"
    first = col.first_valid_index()
    if not pd.api.types.is_string_dtype(dtype) or first is None:
        return "typed"
    plain = re.fullmatch(r"\s*[+-]?[0-9]+(?:[.][0-9]*)?\s*", str(col[first]))
    return "text" if plain is None else "numbers"


def refuse_epochs_beside_dates(cols: list[pd.Series], names: list[str], iso: list[bool],
                               column: str) -> None:
    """Refuse files whose time columns (``cols``, of the files ``names``; ``iso``: the reader
    parsed it as ISO-8601 text) hold epoch numbers in one and dates in another: one of them is
    misread whatever ``epoch=`` says, so the files are named, not a unit asked for."""
    kinds = [_time_kind(c, i) for c, i in zip(cols, iso, strict=True)]
    if "numbers" not in kinds or "text" not in kinds:
        return
    words = {"text": "dates", "numbers": "plain numbers (epoch times)"}
    first = next(i for i, k in enumerate(kinds) if k != "typed")
    other = kinds.index("numbers" if kinds[first] == "text" else "text")
    raise TimestampError(
        f"the files disagree on their times: column {column!r} holds {words[kinds[first]]} in "
        f"{names[first]} but {words[kinds[other]]} in {names[other]}; write every file's times "
        "one way (ISO-8601 like 2026-11-29T03:47:00Z, or epoch numbers in one unit with "
        + say("epoch=", "--epoch") + ").")


def refuse_epoch_units_apart(looks: list[tuple[str, int] | None], names: list[str], column: str,
                             epoch: str | None, unit_names: dict[str, str]) -> None:
    """Refuse files whose epoch numbers each look like one unit, but not the same one (seconds
    in one file, milliseconds in another): one unit reads only some of them, whatever ``epoch``
    says, so the files are named with what each looks like, not a row out of range. ``looks``:
    each file's unit and median digits (:func:`~budgetlab.events.epochs.epoch_look`).

    >>> refuse_epoch_units_apart([("s", 10), ("ms", 13)], ["a.csv", "b.csv"], "ts", "s",
    ...                          {"s": "seconds", "ms": "milliseconds"})
    Traceback (most recent call last):
    ...
    budgetlab.errors.TimestampError: the files disagree on their times: column 'ts' holds epoch
    numbers of 10 digits (like seconds) in a.csv but of 13 digits (like milliseconds) in b.csv;
    epoch='s' reads only one of them: read the files separately, each with its own epoch=, or
    convert their times to one unit first.
    """
    known = [(n, look) for n, look in zip(names, looks, strict=True) if look is not None]
    other = next((i for i, (_, look) in enumerate(known) if look[0] != known[0][1][0]), None)
    if other is None:
        return
    (first, (unit, digits)), (second, (unit2, digits2)) = known[0], known[other]
    given = say(f"epoch={epoch!r}", f"--epoch {epoch}") if epoch else say("one epoch=",
                                                                           "one --epoch")
    raise TimestampError(
        f"the files disagree on their times: column {column!r} holds epoch numbers of {digits} "
        f"digits (like {unit_names[unit]}) in {first} but of {digits2} digits (like "
        f"{unit_names[unit2]}) in {second}; {given} reads only one of them: read the files "
        f"separately, each with its own {say('epoch=', '--epoch')}, or convert their times to "
        "one unit first.")
