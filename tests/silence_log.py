"""A log with a known silence, for the tests of the history a recommendation counts (Stop 56).

One event every 10 minutes from 2026-03-02 00:00 UTC, 5 s each, every 20th a failure (``k % 20
== 7`` within a stretch of traffic). ``gappy`` sends for 3 days (432 events, the last at
2 d 23 h 50 min), is silent for 10 days, then sends 3 more days from day 13 (the last at
15 d 23 h 50 min, the log's last event); ``steady`` sends all 16 days (2,304 events).

By hand, under a 1 h window (an event leaves it 1 ns after ``ts + 1 h``; each stretch's first
hour is warm-up; the evaluated span ends at the log's last event):

* ``gappy``: evaluated 01:00 .. day 2 23:50 + 1 h + 1 ns (3 d - 10 min + 1 ns) and day 13 01:00
  .. day 15 23:50 (3 d - 70 min): 6 d - 80 min + 1 ns = 142 h 40 min, said "5 d 22 h"; from its
  first evaluated instant (day 0 01:00) to its last (day 15 23:50): 16 d - 70 min, "15 d 22 h".
  426 evaluated events per stretch (k = 6 .. 431), 22 failures in each (k = 7, 27, ..., 427).
* ``steady``: evaluated day 0 01:00 .. day 15 23:50: 16 d - 70 min = 382 h 50 min
  ("15 d 22 h"), all of its span: the same span as ``gappy``'s, 10 d more evaluated time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

START = pd.Timestamp("2026-03-02", tz="UTC")
STEP = pd.Timedelta("10min")
#: Hours of evaluated time and days from the first evaluated instant to the last, by hand.
GAPPY_HOURS = 142 + 40 / 60
GAPPY_SPAN_DAYS = 16 - 70 / 1440
STEADY_HOURS = 382 + 50 / 60


def _stretch(first: pd.Timestamp, n: int) -> tuple[pd.DatetimeIndex, np.ndarray]:
    k = np.arange(n)
    return first + k * STEP, k % 20 != 7


def silence_log(groups: tuple[str, ...] = ("gappy", "steady")) -> pd.DataFrame:
    """The log of the module's docstring: columns ``ts``, ``ok``, ``bucket``, ``duration``,
    ``group`` (only the ``groups`` asked for)."""
    parts = []
    for g in groups:
        pieces = ([_stretch(START, 432), _stretch(START + pd.Timedelta("13D"), 432)]
                  if g == "gappy" else [_stretch(START, 16 * 144)])
        for ts, ok in pieces:
            parts.append(pd.DataFrame({"ts": ts, "ok": ok, "group": g}))
    out = pd.concat(parts, ignore_index=True).sort_values("ts", kind="stable")
    out["bucket"] = pd.Categorical(np.where(out["ok"], "success", "timeout"),
                                   categories=["success", "timeout"], ordered=True)
    out["duration"] = pd.to_timedelta(np.where(out["ok"], 5.0, 30.0), unit="s")
    out["ts"] = out["ts"].astype("datetime64[ns, UTC]")
    out["duration"] = out["duration"].astype("timedelta64[ns]")
    return out.reset_index(drop=True)
