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

__all__ = ["time_text", "attr_time", "attr_span"]


def time_text(value: Any) -> str:
    """A time as ISO-8601 text with its offset (nanoseconds kept when there are any)."""
    return pd.Timestamp(value).isoformat()


def attr_time(attrs: Mapping[Any, Any], key: str) -> pd.Timestamp | None:
    """The time ``attrs[key]`` (:func:`time_text`) as a UTC Timestamp, or ``None`` when absent
    (a time without offset, set by hand, stays as it is)."""
    value = attrs.get(key)
    if value is None:
        return None
    ts = pd.Timestamp(value)
    return ts if ts.tzinfo is None else ts.tz_convert("UTC")



def attr_span(attrs: Mapping[Any, Any], tz: str) -> str:
    """``attrs["start"] .. attrs["end"]`` in ``tz``, to the minute (the span a table counts, as a
    figure's label says it); ``""`` when the attrs do not hold both (a table made otherwise).

    >>> attr_span({"start": "2026-01-01T03:41:00+00:00", "end": "2026-01-03T03:41:30+00:00"},
    ...           "Europe/Berlin")
    '2026-01-01 04:41 .. 2026-01-03 04:41'
    """
    start, end = attr_time(attrs, "start"), attr_time(attrs, "end")
    if start is None or end is None:
        return ""
    first, last = (t.tz_convert(tz) if t.tzinfo is not None else t for t in (start, end))
    return f"{first:%Y-%m-%d %H:%M} .. {last:%Y-%m-%d %H:%M}"
