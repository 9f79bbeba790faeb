"""The latency shares figure in another zone than UTC says its periods are UTC days (or periods
cut in UTC): latency_profile floors them in UTC, so in Berlin (UTC+1 in January) a day's period
starts at 01:00 local, which "period start (Europe/Berlin)" alone read as a local day.

Hand-made: attempts at 2026-01-01 23:30 UTC (Berlin 2026-01-02 00:30) and 2026-01-02 06:00 UTC
(Berlin 07:00): both on Berlin's 2026-01-02, but in two UTC days, so two periods, starting at
2026-01-01 00:00 and 2026-01-02 00:00 UTC.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

import budgetlab as bl
from budgetlab.plotting import plot_latency_shares


def _events() -> pd.DataFrame:
    ts = pd.to_datetime(["2026-01-01 23:30", "2026-01-02 06:00"], utc=True)
    return pd.DataFrame({"ts": ts.as_unit("ns"), "ok": [True, True],
                         "bucket": pd.Categorical(["success", "success"]),
                         "duration": pd.to_timedelta([2, 8], unit="s").as_unit("ns")})


def test_the_label_says_the_days_are_utc_days():
    shares = bl.latency_profile(_events(), thresholds=["5s"]).shares
    starts = pd.to_datetime(["2026-01-01", "2026-01-02"], utc=True)
    assert sorted(pd.DatetimeIndex(shares["period"]).tz_convert("UTC")) == list(starts)
    ax = plot_latency_shares(shares, ax=plt.figure().gca(), tz="Europe/Berlin")
    assert ax.get_xlabel().startswith("period start (Europe/Berlin; UTC days); attempts ")
    ax = plot_latency_shares(bl.latency_profile(_events(), thresholds=["5s"], freq="6h").shares,
                             ax=plt.figure().gca(), tz="Europe/Berlin")
    assert ax.get_xlabel().startswith("period start (Europe/Berlin; periods cut in UTC); ")
    plt.close("all")
