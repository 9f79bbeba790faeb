"""Durations in prose, in one set of units (``d``, ``h``, ``min``, ``s``): a given length (a
window, a period) exactly by :func:`prose_duration` (``24 h``, ``3.5 h``, ``3601 s``), a
threshold or timeout as written by :func:`given_duration` (``12.345 s``, ``40 ms``), an elapsed
time (detection, episode, dwell) by :func:`duration_words` in its two largest units, truncated
(``6 h 10 min``), a log's length (first to last event) by :func:`length_words` in all its units
down to the second, truncated (``1 d 11 h 59 min 56 s``), or by :func:`hours_words` and
:func:`days_words` from hours or days held as a float; a time there is some of, but under a
second, by :func:`some_hours_words` (never ``0 s``).
:mod:`budgetlab._util.words` re-exports them with the rest of a message's words.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DURATION_SCALES", "UNDER_A_SECOND", "days_words", "duration_words", "given_duration",
           "hours_words", "length_words", "prose_duration", "some_hours_words"]


def prose_duration(value: Any) -> str:
    """A given duration (a window, a period, a bin) for prose, exactly as long as it is: in the
    largest unit that holds it a whole number of times (``d`` from two days up, ``h``, ``min``),
    in half hours above two hours (``3.5 h``); from two hours up a whole number of minutes that
    neither holds is said in its parts (``16 h 48 min``, with its days from two days up:
    ``30 d 1 h 1 min``), never ``1008 min``; else in seconds with every digit
    (:func:`given_duration`): ``3,601 s``, never ``1.00 h``. One day is ``24 h`` and ``1 d 6 h`` is
    ``30 h``; an elapsed time, rounded to its two largest units, is :func:`duration_words`'.

    >>> [prose_duration(x) for x in ("30D", "24h", "210min", "90min", "45s")]
    ['30 d', '24 h', '3.5 h', '90 min', '45 s']
    >>> [prose_duration(x) for x in ("1008min", "386min", "30D61min", "2D31min", "121min")]
    ['16 h 48 min', '6 h 26 min', '30 d 1 h 1 min', '2 d 31 min', '2 h 1 min']
    >>> [prose_duration(x) for x in ("3600s", "3601s", "1D6h", "0.5s", "7201.5s", "100000.5h")]
    ... # doctest: -NUMBER
    ['1 h', '3,601 s', '30 h', '500 ms', '7,201.5 s', '100,000.5 h']
    """
    import pandas as pd

    td = pd.Timedelta(value)
    if pd.isna(td):
        raise ValueError("prose_duration needs a duration, not NaT")
    ns, minute, hour, day = td.value, 60 * 10**9, 3600 * 10**9, 86400 * 10**9
    if ns >= 2 * day and ns % day == 0:
        return f"{ns // day:,} d"
    if ns >= hour and (ns % hour == 0 or ns % (hour // 2) == 0 and ns > 2 * hour):
        return f"{ns // hour:,}{'.5' if ns % hour else ''} h"
    if ns >= 2 * hour and ns % minute == 0:  # in its parts, never "1008 min"
        d, rest = divmod(ns, day) if ns >= 2 * day else (0, ns)
        parts = zip((d, rest // hour, rest % hour // minute), ("d", "h", "min"), strict=True)
        return " ".join(f"{n:,} {unit}" for n, unit in parts if n)
    if ns >= minute and ns % minute == 0:
        return f"{ns // minute} min"
    return given_duration(td)


def given_duration(value: Any, *, grouped: bool = True) -> str:
    """A given duration (a latency threshold, a client timeout) as written: in the largest of
    ``s``, ``ms``, ``us``, ``ns`` that is not more than it, with every digit of its whole
    nanoseconds and none added, where four significant digits would say a threshold of 12.345 s
    is ``12.35 s`` and seconds alone would say a 40 ms threshold is ``0.04 s``; thousands
    separated as every count in words (``10,000 s``), none with ``grouped=False`` (a value
    to pass back, such as ``client_timeout='10000 s'``).

    >>> [given_duration(x) for x in ("12345ms", "60s", "40ms", "1.5ms", "500us", "1h", "7ns")]
    ... # doctest: -NUMBER
    ['12.345 s', '60 s', '40 ms', '1.5 ms', '500 us', '3,600 s', '7 ns']
    >>> given_duration("10000s"), given_duration("10000s", grouped=False)  # doctest: -NUMBER
    ('10,000 s', '10000 s')
    """
    import decimal

    import pandas as pd

    ns = pd.Timedelta(value).value
    size, unit = next(((size, unit) for size, unit in DURATION_SCALES if abs(ns) >= size),
                      (1, "ns"))
    return f"{format((decimal.Decimal(ns) / size).normalize(), ',f' if grouped else 'f')} {unit}"


#: The units :func:`given_duration` (and :func:`~budgetlab._util.durations.measured_duration`)
#: says a duration in, largest first, with their nanoseconds.
DURATION_SCALES = ((10**9, "s"), (10**6, "ms"), (10**3, "us"), (1, "ns"))


def duration_words(value: Any, *, days: bool = True) -> str:
    """An elapsed duration in its two largest units: ``6 h 10 min``, ``2 d 2 h``, ``45 min``,
    ``20 s``. It truncates, never rounds: what lies past the second unit is dropped (``6 h 10 min
    59 s`` is ``6 h 10 min``, ``2 d 23 h 59 min`` is ``2 d 23 h``, ``20.7 s`` is ``20 s``), so the
    words never say more time than elapsed. A given window or period is not elapsed time: it is
    said exactly, by :func:`prose_duration`, whose units these are. With ``days=False`` hours past
    a day stay hours (``50 h``, for a line whose figures beside it count hours). A negative
    duration (a signed figure such as an alert's reset time, which is negative when the alert
    stopped before the incident ended) is its sign, then its magnitude's words.

    >>> [duration_words(x) for x in ("6h10min", "50h", "45min", "316s", "90s", "20.7s", "0s")]
    ['6 h 10 min', '2 d 2 h', '45 min', '5 min 16 s', '1 min 30 s', '20 s', '0 s']
    >>> [duration_words(x) for x in ("6h10min59s", "2D23h59min")]
    ['6 h 10 min', '2 d 23 h']
    >>> duration_words("106524s", days=False)  # 29.59 h
    '29 h 35 min'
    >>> [duration_words(x) for x in ("-90min", "-20.7s", "-0.5s")]
    ['-1 h 30 min', '-20 s', '0 s']

    Days and hours of four digits or more have their thousands separated, as counts are:

    >>> duration_words("1234D5h"), duration_words("4293911451s", days=False)
    ('1,234 d 5 h', '1,192,753 h 10 min')
    """
    import pandas as pd

    secs = int(pd.Timedelta(value).total_seconds())  # truncated toward 0: -20.7 s is -20 s
    sign, secs = ("-" if secs < 0 else ""), abs(secs)
    d, rest = divmod(secs, 86400) if days else (0, secs)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    if d:
        return sign + (f"{d:,} d {h} h" if h else f"{d:,} d")
    if h:
        return sign + (f"{h:,} h {m} min" if m else f"{h:,} h")
    if m:
        return sign + (f"{m} min {s} s" if s else f"{m} min")
    return sign + f"{s} s"


def length_words(span: Any) -> str:
    """A log's length (its first to its last event), the one spelling of it wherever it is said
    (``the log is ... long``, ``longer than the data (...)``): in all its units down to the
    second, truncated, so that it never reads longer than the log, nor as long as a window that
    the log falls short of (``2 d 23 h 59 min``, where :func:`duration_words`' two units say
    ``2 d 23 h`` and a rounding would say ``3 d``); under a second, as :func:`duration_words`.

    >>> [length_words(x) for x in ("2D23h59min", "3D", "2D23h59min59.9s", "90s", "35h59min56s")]
    ['2 d 23 h 59 min', '3 d', '2 d 23 h 59 min 59 s', '1 min 30 s', '1 d 11 h 59 min 56 s']
    """
    import pandas as pd

    td = pd.Timedelta(span)
    secs = int(td.total_seconds())
    if secs < 1:
        return duration_words(td)
    parts = zip((secs // 86400, secs % 86400 // 3600, secs % 3600 // 60, secs % 60),
                ("d", "h", "min", "s"), strict=True)
    return " ".join(f"{n:,} {unit}" for n, unit in parts if n)


def hours_words(hours: float) -> str:
    """Hours held as a float (the ``hours_*`` columns of a replay summary: ns / 3.6e12) in
    :func:`duration_words`' spelling, hours past a day kept as hours (for a line beside figures
    that count hours). The float is read back to the nearest millisecond first: 65 min as hours,
    times 3.6e12, falls 1 ns short of 65 min, which whole-second truncation would read as
    ``1 h 4 min``.

    >>> hours_words(65 * 60e9 / 3.6e12), hours_words(718.8333333333334), hours_words(0.0)
    ('1 h 5 min', '718 h 50 min', '0 s')
    >>> hours_words(1186505 + 11 / 60), hours_words(1000.0)
    ('1,186,505 h 11 min', '1,000 h')
    """
    import pandas as pd

    return duration_words(pd.Timedelta(hours=hours).round("ms"), days=False)


#: A time there is some of (evaluated, held, silent), but less than a second: :func:`hours_words`
#: would truncate it to ``0 s``, which reads as none.
UNDER_A_SECOND = "under a second"


def some_hours_words(hours: float) -> str:
    """Hours of a time there is some of (more than none: evaluated, held, silent) in
    :func:`hours_words`' spelling, and :data:`UNDER_A_SECOND` for less than a second (never
    ``0 s``, which would say there was none). One phrase for every such time.

    >>> some_hours_words(1.35), some_hours_words(0.2 / 3600), some_hours_words(1 / 3600)
    ('1 h 21 min', 'under a second', '1 s')
    """
    return hours_words(hours) if hours * 3600 >= 1 else UNDER_A_SECOND


def days_words(days: float) -> str:
    """Days held as a float (a history's length: ns / 8.64e13) in :func:`duration_words`'
    spelling, read back to the nearest millisecond first (as :func:`hours_words`).

    >>> days_words(7.0), days_words(2.9993), days_words(0.5)
    ('7 d', '2 d 23 h', '12 h')
    """
    import pandas as pd

    return duration_words(pd.Timedelta(days=days).round("ms"))
