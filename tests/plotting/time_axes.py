"""What a drawn time axis says, read by hand: its clock-time tick labels against the tick
positions as wall-clock times in a zone (zoneinfo, not matplotlib's formatter)."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo


def clock_labels_in(ticks, tz):
    """The ``HH:MM`` tick labels of an axis, checked against the tick positions read as wall-clock
    times in ``tz`` (by hand, with zoneinfo; not through matplotlib's formatter): their count."""
    import matplotlib.dates as mdates

    zone = ZoneInfo(tz)
    n = 0
    for x, text in ticks:
        if re.fullmatch(r"\d\d:\d\d", text):
            utc = mdates.num2date(x).astimezone(dt.UTC)
            assert text == utc.astimezone(zone).strftime("%H:%M") != utc.strftime("%H:%M")
            n += 1
    return n
