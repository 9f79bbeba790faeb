"""Which hours of day an hourly profile can speak for: the one rule of the table and the plot of
:func:`~budgetlab.analyses.history.hourly_profile` (notebook 03's "Over the day").

An hour of day holds the attempts of every day of the log at that local hour. Under
:data:`MIN_HOUR_ATTEMPTS` of them its shares are too thin to read: the table says ``too few``
(with none at all, a log silent every night at that hour, ``no attempts``: the hour keeps its
column), the plot draws a hollow point off the line, or, without an attempt, nothing, and shades
the hour grey when no group had one (:func:`silent_hours`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.percent import measured_percent
from .._util.validation import require_columns

__all__ = ["MIN_HOUR_ATTEMPTS", "TOO_FEW", "NO_ATTEMPTS", "hour_rate_table", "silent_hours"]

#: Fewest attempts at an hour of day (all days together) for its shares to be read: under 20,
#: one attempt more or less moves a share by more than 5 points.
MIN_HOUR_ATTEMPTS = 20
#: What the table says of an hour with fewer attempts than :data:`MIN_HOUR_ATTEMPTS` (one at least).
TOO_FEW = "too few"
#: What the table says of an hour without any attempt (of the group, all days together).
NO_ATTEMPTS = "no attempts"

_KNOWN = ("hour", "total", "bucket_failures", "other_failures", "bucket_rate", "other_rate")


def silent_hours(profile: pd.DataFrame) -> np.ndarray:
    """The hours of day (0-23) at which no group of ``profile`` had an attempt.

    >>> silent_hours(pd.DataFrame({"hour": range(2, 24), "total": 5})).tolist()
    [0, 1]
    """
    require_columns(profile, ["hour", "total"], what="profile")
    return np.setdiff1d(np.arange(24), profile.loc[profile["total"] > 0, "hour"].to_numpy())


def hour_rate_table(profile: pd.DataFrame, column: str = "bucket_rate") -> pd.DataFrame:
    """The profile's ``column`` (a share) per group and hour of day, in percent: one row per
    group (``"all"`` without groups; a label joins the group keys with ``" · "``), one column per
    hour 0-23, every hour there also when no group had an attempt then. A cell reads the share
    (:func:`~budgetlab._util.percent.measured_percent`), ``too few`` under
    :data:`MIN_HOUR_ATTEMPTS` attempts, or ``no attempts`` without any (a share of nothing).

    >>> p = pd.DataFrame({"hour": [3, 14], "total": [25, 1], "bucket_failures": [5, 1],
    ...     "other_failures": [2, 0], "bucket_rate": [0.2, 1.0], "other_rate": [0.08, 0.0]})
    >>> t = hour_rate_table(p)
    >>> t.loc["all", [2, 3, 14]].tolist()
    ['no attempts', '20.00 %', 'too few']
    >>> t.shape
    (1, 24)
    """
    require_columns(profile, ["hour", "total", column], what="profile")
    keys = [c for c in profile.columns if c not in _KNOWN]
    label = (profile[keys].astype(str).agg(" · ".join, axis=1) if keys
             else pd.Series("all", index=profile.index))
    hours = pd.RangeIndex(24, name="hour")
    rows = {}
    for name in pd.unique(label):
        d = profile[(label == name).to_numpy()].set_index("hour").reindex(hours)
        total = d["total"].fillna(0).to_numpy()
        rows[str(name)] = [measured_percent(v) if n >= MIN_HOUR_ATTEMPTS else
                           TOO_FEW if n > 0 else NO_ATTEMPTS
                           for n, v in zip(total, d[column].to_numpy(dtype=float), strict=True)]
    out = pd.DataFrame.from_dict(rows, orient="index", columns=hours)
    out.index.name = " · ".join(keys) if keys else None
    return out
