"""What budgetlab keeps on a table's ``attrs``: JSON values only, so that pandas' own
``DataFrame.to_parquet`` (which stores ``json.dumps(df.attrs)``) saves every table it returns.

The rule, for every value set on ``attrs``: str, int, float, bool, ``None`` and lists and dicts
(with str keys) of them, never a tuple (JSON gives a list back). Times are ISO-8601 text with
their offset (:func:`time_text`, read back by :func:`attr_time`); durations are budgetlab's
compact duration text (``1h30m``, :func:`~budgetlab._util.durations.duration_label`, read back
by :func:`~budgetlab._util.durations.to_timedelta`); an SLO is its plain dict
(:meth:`~budgetlab.SLO.as_dict`, :func:`budgetlab.table_slo` rebuilds it); how an input was read
is :meth:`~budgetlab.events.how_read.HowRead.as_dict` (:func:`budgetlab.how_read` rebuilds it).

>>> text = time_text(pd.Timestamp("2026-01-01 03:41:00.5", tz="UTC"))
>>> text
'2026-01-01T03:41:00.500000+00:00'
>>> attr_time({"start": text}, "start")
Timestamp('2026-01-01 03:41:00.500000+0000', tz='UTC')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

__all__ = ["time_text", "attr_time", "attr_span", "clock_text", "clock_at", "clock_span",
           "MINUTE", "span_attrs", "grid_span_attrs"]

#: A time to the minute, as the commands print it.
MINUTE = "%Y-%m-%d %H:%M"


def time_text(value: Any) -> str:
    """A time as ISO-8601 text with its offset (nanoseconds kept when there are any)."""
    return pd.Timestamp(value).isoformat()


def span_attrs(ts: pd.Series) -> dict[str, str | None]:
    """``{"start": first event, "end": last event}`` (ISO-8601 text with the UTC offset, both
    included; ``None`` without events): the span a table over events counts, under the keys
    :func:`budgetlab.status_spans` uses.

    >>> span_attrs(pd.Series(pd.to_datetime(["2026-01-02", "2026-01-01"], utc=True)))["start"]
    '2026-01-01T00:00:00+00:00'
    """
    if not len(ts):
        return {"start": None, "end": None}
    return {"start": time_text(ts.min()), "end": time_text(ts.max())}


def grid_span_attrs(start_ns: int, end_ns: int) -> dict[str, str]:
    """``{"grid_start": the first bin's start, "grid_end": the last bin's end}`` (ISO-8601 text
    with the UTC offset; ``grid_end`` excluded): the span a table over bins counts, the bin
    edges, under the keys :func:`budgetlab.alert_episodes` uses (``start``/``end`` are events).

    >>> grid_span_attrs(0, 60 * 10**9)["grid_end"]
    '1970-01-01T00:01:00+00:00'
    """
    return {"grid_start": time_text(pd.Timestamp(start_ns, unit="ns", tz="UTC")),
            "grid_end": time_text(pd.Timestamp(end_ns, unit="ns", tz="UTC"))}


def attr_time(attrs: Mapping[Any, Any], key: str) -> pd.Timestamp | None:
    """The time ``attrs[key]`` (:func:`time_text`) as a UTC Timestamp, or ``None`` when absent
    (a time without offset, set by hand, stays as it is)."""
    value = attrs.get(key)
    if value is None:
        return None
    ts = pd.Timestamp(value)
    return ts if ts.tzinfo is None else ts.tz_convert("UTC")


def clock_text(times: pd.Series, tz: str, fmt: str) -> pd.Series:
    """``times`` (UTC) as text: in UTC, or on the clock of ``tz`` with the UTC offset after them
    (``2026-10-25 02:30 +01:00``: the repeated hour of a fall-back reads twice, told apart).

    >>> t = pd.Series(pd.to_datetime(["2026-10-25 00:30", "2026-10-25 01:30"], utc=True))
    >>> clock_text(t, "Europe/Berlin", "%Y-%m-%d %H:%M").tolist()
    ['2026-10-25 02:30 +02:00', '2026-10-25 02:30 +01:00']
    """
    if tz == "UTC":
        text: pd.Series = times.dt.strftime(fmt)
    else:  # %z writes +0100
        text = times.dt.tz_convert(tz).dt.strftime(f"{fmt} %z").str.replace(
            r"(\d\d)$", r":\1", regex=True)
    return text


def clock_at(time: Any, tz: str, fmt: str = MINUTE, *, say_utc: bool = True) -> str:
    """One instant as a line of words says it, by the rule of :func:`clock_text`: in UTC, named
    so after it (``say_utc``; without it, as :func:`clock_text` writes it), or on the clock of
    ``tz`` with its UTC offset, which tells the instant alone.

    >>> t = pd.Timestamp("2026-10-25 01:30", tz="UTC")
    >>> clock_at(t, "UTC"), clock_at(t, "UTC", say_utc=False)
    ('2026-10-25 01:30 UTC', '2026-10-25 01:30')
    >>> clock_at(t, "Europe/Berlin", "%H:%M:%S")
    '02:30:00 +01:00'
    """
    text = str(clock_text(pd.Series(pd.to_datetime([time], utc=True)), tz, fmt).iloc[0])
    return f"{text} UTC" if say_utc and tz == "UTC" else text


def clock_span(first: Any, last: Any, tz: str, fmt: str = MINUTE) -> str:
    """``first .. last`` as a line of words says a span, by the rule of :func:`clock_text`: in
    UTC, named so once after it; on the clock of ``tz``, each end with its UTC offset and the
    zone named after them.

    >>> a, b = pd.to_datetime(["2026-10-24 00:00", "2026-10-26 23:59"], utc=True)
    >>> clock_span(a, b, "UTC")
    '2026-10-24 00:00 .. 2026-10-26 23:59 UTC'
    >>> clock_span(a, b, "Europe/Berlin")
    '2026-10-24 02:00 +02:00 .. 2026-10-27 00:59 +01:00 (Europe/Berlin)'
    """
    ends = clock_text(pd.Series(pd.to_datetime([first, last], utc=True)), tz, fmt)
    return f"{ends.iloc[0]} .. {ends.iloc[1]} " + ("UTC" if tz == "UTC" else f"({tz})")


def attr_span(attrs: Mapping[Any, Any], tz: str) -> str:
    """``attrs["start"] .. attrs["end"]`` in ``tz``, to the minute (the span a table counts, as a
    figure's label says it), each with its UTC offset unless ``tz`` is UTC (:func:`clock_text`);
    ``""`` when the attrs do not hold both (a table made otherwise).

    >>> attr_span({"start": "2026-01-01T03:41:00+00:00", "end": "2026-01-03T03:41:30+00:00"},
    ...           "Europe/Berlin")
    '2026-01-01 04:41 +01:00 .. 2026-01-03 04:41 +01:00'
    """
    start, end = attr_time(attrs, "start"), attr_time(attrs, "end")
    if start is None or end is None:
        return ""
    if start.tzinfo is None or end.tzinfo is None:  # set by hand without offset: as it is
        return f"{start:%Y-%m-%d %H:%M} .. {end:%Y-%m-%d %H:%M}"
    first, last = clock_text(pd.Series([start, end]), tz, "%Y-%m-%d %H:%M")
    return f"{first} .. {last}"
