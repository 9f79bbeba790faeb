"""The note on rows stamped after the time of reading: a log that ends in the future was read
with a wrong year (a time format without one, ``year=``/``--year``), a wrong zone or by a clock
that is off. budgetlab cannot know which, so it states its reading, it does not refuse: the
count of such rows, the time of reading and the skew allowed, the last time, and the likely fix.
The readers count the rows (:func:`budgetlab.read_events` from its times, the Dask reader from its
partitions' counts); this module words the note.
"""

from __future__ import annotations

import pandas as pd

from .._util.words import counted, prose_duration, say

__all__ = ["after_reading_note"]


def after_reading_note(late: int, now: pd.Timestamp, last: pd.Timestamp, skew: pd.Timedelta, *,
                       year: int | None) -> tuple[str, tuple[str, ...]]:
    """``now`` as an ISO string and the note on the ``late`` rows (counted by the caller) later
    than ``now`` by more than ``skew``, up to ``last`` (the year given for times without one is
    the likely fix, else the zone or the clock).

    >>> at, note = after_reading_note(1, pd.Timestamp("2026-12-06 07:00", tz="UTC"),
    ...                               pd.Timestamp("2026-12-10 06:55", tz="UTC"),
    ...                               pd.Timedelta(hours=1), year=2026)
    >>> at
    '2026-12-06T07:00:00Z'
    >>> print(note[0])
    1 row is after the time of reading (2026-12-06 07:00 UTC, 1 h of clock skew allowed), up to
    2026-12-10 06:55 UTC: check year=
    """
    at, latest = (x.strftime("%Y-%m-%d %H:%M") for x in (now, last))
    fix = say("year=", "--year") if year is not None else \
        say("the time zone (tz=) or the clock that stamped the log",
            "the time zone (--tz) or the clock that stamped the log")
    return now.isoformat().replace("+00:00", "Z"), (
        f"{counted(late, 'row')} {'is' if late == 1 else 'are'} after the time of reading "
        f"({at} UTC, {prose_duration(skew)} of clock skew allowed), up to {latest} UTC: "
        f"check {fix}",)
