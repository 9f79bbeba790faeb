"""The note on rows stamped after the time of reading: a log that ends in the future was read
with a wrong year (a time format without one, ``year=``/``--year``), a wrong zone or by a clock
that is off. budgetlab cannot know which, so it states its reading, it does not refuse: the
count of such rows, the time of reading and the skew allowed, the last time, and the likely fix.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.words import counted, prose_duration, say

__all__ = ["after_reading_note", "after_reading_words"]


def after_reading_note(t: np.ndarray, now: pd.Timestamp, last: pd.Timestamp,
                       skew: pd.Timedelta, *, year: int | None,
                       ) -> tuple[int, str, tuple[str, ...]]:
    """The rows of ``t`` (int64 ns UTC) later than ``now`` by more than ``skew``, ``now`` as an
    ISO string, and the note (the year given for times without one is the likely fix, else the
    zone or the clock).

    >>> t = pd.to_datetime(["2026-12-06 06:00", "2026-12-10 06:55"], utc=True).as_unit("ns").asi8
    >>> late, at, note = after_reading_note(
    ...     t, pd.Timestamp("2026-12-06 07:00", tz="UTC"), pd.Timestamp(t[-1], tz="UTC"),
    ...     pd.Timedelta(hours=1), year=2026)
    >>> late, at
    (1, '2026-12-06T07:00:00Z')
    >>> print(note[0])
    1 row is after the time of reading (2026-12-06 07:00 UTC, 1 h of clock skew allowed), up to
    2026-12-10 06:55 UTC: check year=
    """
    late = int(np.count_nonzero(t - skew.value > now.value))
    return late, *after_reading_words(late, now, last, skew, year=year)


def after_reading_words(late: int, now: pd.Timestamp, last: pd.Timestamp, skew: pd.Timedelta, *,
                        year: int | None) -> tuple[str, tuple[str, ...]]:
    """``now`` as an ISO string and the note on ``late`` rows (counted by the caller: the Dask
    reader adds up its partitions' counts) after the time of reading ``now``, up to ``last``."""
    at, latest = (x.strftime("%Y-%m-%d %H:%M") for x in (now, last))
    fix = say("year=", "--year") if year is not None else \
        say("the time zone (tz=) or the clock that stamped the log",
            "the time zone (--tz) or the clock that stamped the log")
    return now.isoformat().replace("+00:00", "Z"), (
        f"{counted(late, 'row')} {'is' if late == 1 else 'are'} after the time of reading "
        f"({at} UTC, {prose_duration(skew)} of clock skew allowed), up to {latest} UTC: "
        f"check {fix}",)
