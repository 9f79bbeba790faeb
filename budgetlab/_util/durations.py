"""Durations as users write them: window lengths, periods and thresholds parsed exactly
(:func:`to_timedelta`), and said back (:func:`duration_label`, :func:`window_words`); a measured
duration said as a measured figure (:func:`measured_duration`)."""

from __future__ import annotations

import decimal
import re
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError
from .burns import three_digits
from .one_duration import check_one_duration, pandas_units
from .units import DAY_NS, HOUR_NS, MINUTE_NS, SECOND_NS
from .words import DURATION_SCALES, prose_duration

__all__ = ["MAX_DURATION", "to_timedelta", "to_ns", "exact_ns", "duration_label", "duration_cell",
           "window_words", "measured_duration", "measured_interval", "duration_scale"]

#: The longest duration budgetlab accepts (10 years: beyond any window, period or history).
MAX_DURATION = pd.Timedelta(days=3660)
_WEEKS = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(?:w|wk|wks|week|weeks)", re.IGNORECASE)
_BARE_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_DECIMAL_UNIT = re.compile(r"([0-9]*\.[0-9]+)\s*([A-Za-z]+)")
_CALENDAR = re.compile(r"[0-9.]+\s*(M|mo|mon|month|months|y|yr|yrs|year|years|Y)", re.IGNORECASE)
#: A value each duration option commonly takes: the example its refusal gives (``gap='30min'``,
#: on the command line ``--gap 30min``), where one example for every option ('24h') would offer
#: a day for a bin width or a latency threshold.
_EXAMPLES = {"window": "24h", "period": "30D", "history": "28D", "warmup": "24h", "gap": "30min",
             "min_dwell": "5min", "grace": "1h", "context": "6h", "freq": "1min",
             "plot_freq": "1h", "slow_above": "10s", "threshold": "10s", "thresholds": "10s",
             "timeouts": "30s", "client_timeout": "30s"}


def _parse_text_duration(text: str, name: str, value: Any) -> pd.Timedelta:
    if not text or not any(ch.isdigit() for ch in text):  # pandas reads a bare "D"/"h" as 1
        raise ValueError
    check_one_duration(text, name, value)
    if _BARE_NUMBER.fullmatch(text) and float(text) != 0:  # pandas reads "300" as 300 ns
        raise ConfigError(f"{name}={value!r} has no unit; write one: '{text}s' (seconds), "
                          f"'{text}min', '{text}h' or '{text}D'.")
    weeks = _WEEKS.fullmatch(text)
    if weeks:  # pandas 3 deprecates "w": read weeks here, as 7 days each
        return pd.Timedelta(days=7 * float(weeks.group(1)))
    calendar = _CALENDAR.fullmatch(text)
    if calendar and calendar.group(1) != "m":  # "m" is minutes
        raise ConfigError(f"{name}={value!r}: months and years have no fixed length; give days, "
                          "e.g. '30D' or '365D'.")
    text = re.sub(r"(?<=\d)\s*d(?![a-z])", "D", text)  # "7d" means days; pandas 3 deprecates d
    # spellings pandas deprecates ("1H") written as it asks, so it does not warn (no filter:
    # catch_warnings is process-wide, not thread-safe, and durations are read in Dask partitions)
    text = pandas_units(text)
    decimal_unit = _DECIMAL_UNIT.fullmatch(text)
    if decimal_unit:  # pandas goes through a float: "0.00013s" read 129,999 ns
        unit_ns = pd.Timedelta(f"1{decimal_unit.group(2)}").value
        return pd.Timedelta(exact_ns(decimal_unit.group(1), unit_ns), unit="ns")
    return pd.Timedelta(text)


def exact_ns(number: str, unit_ns: int) -> int:
    """A decimal number of a unit, in whole nanoseconds, read as written (not through a float),
    rounded half to even below a nanosecond.

    >>> exact_ns("0.00013", 10**9), exact_ns("0.00012345", 10**9), exact_ns("1.5", 60 * 10**9)
    (130000, 123450, 90000000000)
    """
    ns = decimal.Decimal(number) * unit_ns
    return int(ns.to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def to_timedelta(value: Any, *, name: str = "window", allow_zero: bool = False) -> pd.Timedelta:
    """Parse a window length: an offset string (``"90min"``, ``"24h"``, ``"7D"``, ``"2w"``) or a
    :class:`pandas.Timedelta`/:class:`datetime.timedelta`; at most :data:`MAX_DURATION` (10
    years). A number is refused, as it names no unit (``0`` aside: zero in any unit).

    >>> to_timedelta("24h")
    Timedelta('1 days 00:00:00')
    >>> to_timedelta(28, name="history")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: history=28 has no unit; write one: '28s' (seconds), '28min',
    '28h' or '28D'.
    >>> to_timedelta("7d") == to_timedelta("7D") == to_timedelta("7 days") == to_timedelta("1w")
    True
    >>> to_timedelta("100000D")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: window='100000D' is out of range; give a duration from 1ns to 3660
    days (10 years).

    Text without a unit is refused (pandas reads ``"300"`` as 300 ns; zero is zero in any unit),
    and a decimal is read as written, not through a float (``"0.00013s"`` is 130,000 ns):

    >>> to_timedelta("300")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: window='300' has no unit; write one: '300s' (seconds), '300min',
    '300h' or '300D'.
    >>> to_timedelta("0.00013s").value
    130000

    Text is one duration: pandas adds up the parts of ``"1h,6h"`` (7 h) or ``"1,5h"`` (15 h);
    here they are refused. A compound duration, its units from the largest down, is one.

    >>> to_timedelta("1h,6h")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: window='1h,6h' is several durations separated by commas; give
    one, e.g. window='1h'.
    >>> to_timedelta("1h30min") == to_timedelta("1 h 30 min") == to_timedelta("90min")
    True
    """
    if isinstance(value, bool):
        raise ConfigError(f"{name}={value!r} is not a duration; give e.g. '24h', '90min', '7D' or "
                          "'30s'.")
    try:
        if isinstance(value, (int, float, np.integer, np.floating)):
            if not np.isfinite(value):
                raise ValueError
            if value != 0:  # zero is zero in any unit; any other number could be any unit
                shown = str(value) if isinstance(value, (int, np.integer)) else repr(float(value))
                raise ConfigError(f"{name}={shown} has no unit; write one: '{shown}s' "
                                  f"(seconds), '{shown}min', '{shown}h' or '{shown}D'.")
            td = pd.Timedelta(0)
        elif isinstance(value, str):
            td = _parse_text_duration(value.strip(), name, value)
        else:
            td = pd.Timedelta(value)
    except ConfigError:
        raise
    except (OverflowError, pd.errors.OutOfBoundsTimedelta):
        raise ConfigError(f"{name}={value!r} is out of range; give a duration from 1ns to 3660 "
                          "days (10 years).") from None
    except (ValueError, TypeError):
        raise ConfigError(
            f"{name}={value!r} is not a duration; give e.g. '24h', '90min', '7D' or '30s'."
        ) from None
    if pd.isna(td):
        raise ConfigError(f"{name} is NaT; {_wanted(name, allow_zero)}.")
    if td < pd.Timedelta(0) or (td == pd.Timedelta(0) and not allow_zero):
        raise ConfigError(f"{name}={value!r} is {'negative' if td < pd.Timedelta(0) else 'zero'}; "
                          f"{_wanted(name, allow_zero)}.")
    if td > MAX_DURATION:
        raise ConfigError(f"{name}={value!r} is out of range; give a duration from 1ns to 3660 "
                          "days (10 years).")
    return pd.Timedelta(td).as_unit("ns")


def _wanted(name: str, allow_zero: bool) -> str:
    """What option ``name`` takes, with an example of its own (said as its flag on the command
    line: ``give a positive duration, e.g. --gap 30min``).

    >>> _wanted("gap", True), _wanted("timeWindow", False)
    ("give zero or a positive duration, e.g. gap='30min'", "give a positive duration, e.g. '24h'")
    """
    example = _EXAMPLES.get(name)
    return (f"give {'zero or ' if allow_zero else ''}a positive duration, e.g. "
            + (f"{name}={example!r}" if example else "'24h'"))


def to_ns(value: Any, *, name: str = "window", allow_zero: bool = False) -> int:
    """A duration in integer nanoseconds (see :func:`to_timedelta`)."""
    return int(to_timedelta(value, name=name, allow_zero=allow_zero).value)


def duration_label(value: Any) -> str:
    """A compact Prometheus-style label for a duration (``5m``, ``1h``, ``1d12h``, ``30s``).

    >>> duration_label("90min"), duration_label("3D"), duration_label("10s")
    ('1h30m', '3d', '10s')
    """
    ns = to_ns(value, name="duration", allow_zero=True)
    if ns == 0:
        return "0s"
    parts = []
    for unit, size in (("d", DAY_NS), ("h", HOUR_NS), ("m", MINUTE_NS), ("s", SECOND_NS),
                       ("ms", 10**6)):
        count, ns = divmod(ns, size)
        if count:
            parts.append(f"{count}{unit}")
    if ns:
        parts.append(f"{ns}ns")
    return "".join(parts)


def duration_cell(value: Any) -> str:
    """A duration as a table's CSV cell holds it: :func:`duration_label`'s form, that of the
    ``window`` column (``24m``, ``1h30m``, ``1d``, ``10s``, ``0s``; ``m`` is minutes), exact to
    the nanosecond, a ``-`` before a negative one; empty for NaT. A part below the second is
    written as decimals of the seconds, never rounded (``4m45.418664s``; before, the label's
    ``4m45s418ms664000ns``); under a second, whole milliseconds stay ``500ms``.
    :func:`to_timedelta` reads a non-negative one back (as budgetlab's readers of its tables do).

    >>> [duration_cell(pd.Timedelta(x)) for x in ("24min", "1D", "10s", "0s", "-90min")]
    ['24m', '1d', '10s', '0s', '-1h30m']
    >>> [duration_cell(pd.Timedelta(x)) for x in ("285.418664s", "500ms", "1.5s", "1ns")]
    ['4m45.418664s', '500ms', '1.5s', '0.000000001s']
    >>> duration_cell(pd.NaT), to_timedelta(duration_cell(pd.Timedelta("1D7h5min3ms")))
    ('', Timedelta('1 days 07:05:00.003000'))
    """
    td = pd.Timedelta(value)
    if pd.isna(td):
        return ""
    ns = abs(int(td.value))
    whole, below = divmod(ns, SECOND_NS)
    sign = "-" if td.value < 0 else ""
    if not below or (not whole and below % 10**6 == 0):
        return sign + duration_label(pd.Timedelta(ns, unit="ns"))
    mins, secs = divmod(whole, 60)
    head = duration_label(pd.Timedelta(mins, unit="min")) if mins else ""
    return f"{sign}{head}{secs}.{f'{below:09d}'.rstrip('0')}s"


def window_words(window: Any) -> str:
    """A window as text and figures spell it, one way everywhere: a rolling window's length in
    prose (:func:`~budgetlab._util.words.prose_duration`, so the label ``1d`` of
    :func:`budgetlab.compare_windows` reads ``24 h``, as in the headers), a calendar window as
    given (``calendar:day``). Tables keep the compact :func:`duration_label` as their API.

    >>> [window_words(w) for w in ("1d", "5m", "calendar:day")]
    ['24 h', '5 min', 'calendar:day']
    """
    try:
        return prose_duration(to_timedelta(window, name="window"))
    except ConfigError:
        return str(window)


def measured_duration(value: Any, *, significant: int = 3, like: Any = None) -> str:
    """A measured duration (a latency quantile, a mean, the waiting a shorter timeout saves) as
    every measured figure is said, to three significant digits
    (:func:`~budgetlab._util.burns.three_digits`), in the unit
    :func:`~budgetlab._util.words.given_duration` says a duration of that size in: seconds from a
    second up, else ``ms``, ``us`` or ``ns``. Never pandas' ``0 days 00:00:16.093320198``; the
    unit is chosen after the rounding (999.6 ms is ``1 s``, not ``1,000 ms``); ``n/a`` for NaT.

    >>> [measured_duration(x) for x in ("16.093320198s", "59.982s", "1.311s", "440ms", "0s")]
    ['16.1 s', '60 s', '1.31 s', '440 ms', '0 s']
    >>> [measured_duration(x) for x in ("384902260ns", "999.6ms", "1234.5s", "12us", pd.NaT)]
    ['385 ms', '1 s', '1,234 s', '12 us', 'n/a']

    A column of one quantity is said in one unit, that of its largest value, given as ``like``
    (:func:`duration_scale`); other ``significant`` digits tell an estimate from its interval's
    bounds (:func:`measured_interval`).

    >>> [measured_duration(x, like="2.54s") for x in ("832ms", "0s", "2.54s")]
    ['0.832 s', '0 s', '2.54 s']
    """
    td = pd.Timedelta(value)
    if pd.isna(td):
        return "n/a"
    size, unit = duration_scale(td if like is None else like, significant=significant)
    return f"{three_digits(td.value / size, significant=significant)} {unit}"


def duration_scale(value: Any, *, significant: int = 3) -> tuple[int, str]:
    """The nanoseconds and name of the unit :func:`measured_duration` says ``value`` in, chosen
    after rounding to ``significant`` digits; seconds for zero or NaT. The unit of a figure's axis
    that shows the durations a text says in it.

    >>> duration_scale("999.6ms"), duration_scale("440ms"), duration_scale(pd.NaT)
    ((1000000000, 's'), (1000000, 'ms'), (1000000000, 's'))
    """
    td = pd.Timedelta(value)
    near = 0.0 if pd.isna(td) else abs(float(f"{float(td.value):.{significant}g}"))
    return next(((size, unit) for size, unit in DURATION_SCALES if near >= size),
                (SECOND_NS, "s"))  # zero in seconds, as duration_words says it


#: The most significant digits :func:`measured_interval` says an estimate and its bounds to.
MOST_INTERVAL_DIGITS = 4


def measured_interval(value: Any, low: Any, high: Any, *,
                      like: Any = None) -> tuple[str, str, str]:
    """An estimate and its interval's bounds as :func:`measured_duration` says them, in the unit
    of the largest (or of ``like``: a table's) and all to one number of significant digits:
    three, or more (at most :data:`MOST_INTERVAL_DIGITS`) where three say a bound as the estimate
    though their values differ (a p50 of 14.568 s in 14.514 .. 14.634 s read ``14.6 s (interval
    14.5 s .. 14.6 s)``). The three share one number of decimals, the most any of them says at
    those digits (trailing zeros dropped), each rounded from its own value (``17.0 s .. 17.4 s``,
    never ``17 s .. 17.4 s``). NaT is ``n/a``.

    >>> measured_interval("14.568s", "14.514s", "14.634s")
    ('14.57 s', '14.51 s', '14.63 s')
    >>> measured_interval("9.24s", "9.19s", "9.31s"), measured_interval("5s", "5s", pd.NaT)
    (('9.24 s', '9.19 s', '9.31 s'), ('5 s', '5 s', 'n/a'))
    >>> measured_interval("17.1s", "17.02s", "17.4s"), measured_interval("998ms", "990ms", "1.02s")
    (('17.1 s', '17.0 s', '17.4 s'), ('0.998 s', '0.990 s', '1.020 s'))
    """
    points = [pd.Timedelta(x) for x in (value, low, high)]
    if like is None:  # one unit for the three
        like = max((p for p in points if pd.notna(p)), default=pd.NaT)
    for significant in range(3, MOST_INTERVAL_DIGITS + 1):
        said = [measured_duration(x, significant=significant, like=like) for x in points]
        if all(text != said[0] or bound == points[0]
               for text, bound in zip(said[1:], points[1:], strict=True)):
            break
    size, unit = duration_scale(like, significant=significant)
    # the decimals each says at those digits (trailing zeros dropped), the most for all three
    decimals = max(len(text.split(" ")[0].partition(".")[2]) for text in said)
    shown = [("n/a" if pd.isna(p) else f"{p.value / size + 0.0:,.{decimals}f} {unit}")
             for p in points]
    return shown[0], shown[1], shown[2]
