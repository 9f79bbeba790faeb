"""The outage of ``outage_log`` (tests/conftest.py) as 1-minute bins, built by hand for the
scoring and backtest tests."""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Where the bins start: 2026-01-05 00:00 UTC.
T0 = pd.Timestamp("2026-01-05", tz="UTC")


def outage_bins(minutes: int = 180) -> pd.DataFrame:
    """1-minute bins from :data:`T0` over ``minutes`` (3 h: 00:00 .. 03:00), 10 events a minute;
    every event of the minutes 100..109 (01:40 .. 01:50) failed."""
    k = np.arange(minutes)
    bad = np.where((k >= 100) & (k < 110), 10, 0)
    out = pd.DataFrame({"bin_start": T0 + pd.to_timedelta(k, unit="min"), "total": 10,
                        "good": 10 - bad, "bad": bad})
    out.attrs.update({"freq": "1min", "by": []})
    return out
