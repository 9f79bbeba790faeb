"""The words of the latency figures' x labels: the span a table counts (:func:`span_counted`)
and the time zone of the period starts, with the periods' UTC cut where it shows
(:func:`zone_words`).
"""

from __future__ import annotations

import pandas as pd

from .._util.attrs import attr_span
from .._util.validation import to_timedelta

__all__ = ["span_counted", "zone_words"]


def span_counted(shares: pd.DataFrame, tz: str, *, zone: bool = False) -> str:
    """The x label's words on the span the table counts (``latency_profile``'s or
    ``timeout_tradeoff``'s ``attrs``: the first and the last attempt, in ``tz``, named when
    ``zone``: an axis of timeouts names none), so that a first or last period that the attempts
    only partly cover reads as such; nothing when the attrs do not say it.

    >>> t = pd.DataFrame()
    >>> t.attrs.update(start="2026-01-01T03:41:00+00:00", end="2026-01-03T03:41:30+00:00")
    >>> span_counted(t, "Europe/Berlin")
    '; attempts 2026-01-01 04:41 +01:00 .. 2026-01-03 04:41 +01:00'
    """
    span = attr_span(shares.attrs, tz)
    return (f"; attempts {span}" + (f" {tz}" if zone else "")) if span else ""


def zone_words(tz: str, freq: str | None) -> str:
    """The x label's time zone, and, in another zone than UTC, that the periods are cut in UTC
    (latency_profile floors them there): ``Europe/Berlin; UTC days`` for a period of a day or
    days, ``...; periods cut in UTC`` for one of an hour or more (a zone's offset may move its
    starts off the local hour: 6 h periods start at 01:00, 07:00 in Berlin); a shorter period,
    or none (one over the whole log), the zone alone.

    >>> zone_words("Europe/Berlin", "1D"), zone_words("Europe/Berlin", "6h")
    ('Europe/Berlin; UTC days', 'Europe/Berlin; periods cut in UTC')
    >>> zone_words("UTC", "1D"), zone_words("Europe/Berlin", "30min")
    ('UTC', 'Europe/Berlin')
    """
    if tz == "UTC" or freq is None:
        return tz
    step = to_timedelta(freq, name="freq")
    if step % pd.Timedelta(days=1) == pd.Timedelta(0):
        return f"{tz}; UTC days"
    return f"{tz}; periods cut in UTC" if step >= pd.Timedelta(hours=1) else tz
