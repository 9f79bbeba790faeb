"""The reprs of LatencyProfile and LatencyRecalibration: one line per table, its size and columns
(the dataclass default printed every table, 3,800 characters for a 3-group run)."""

from __future__ import annotations

import pandas as pd

from budgetlab import LatencyProfile, LatencyRecalibration


def test_latency_results_list_their_tables():
    shares = pd.DataFrame({"captcha_type": ["a", "b"], "threshold": pd.to_timedelta(["10s", "10s"]),
                           "share": [0.5, 0.25]})
    wide = pd.DataFrame({f"c{i}": [i] for i in range(10)})
    profile = LatencyProfile(shares=shares, quantiles=wide, censoring=shares.iloc[:1])
    assert repr(profile) == ("LatencyProfile, its tables:\n"
                             "  .shares: 2 rows (captcha_type, threshold, share)\n"
                             "  .quantiles: 1 row (c0, c1, c2, c3, c4, c5, c6, c7, ... 2 more)\n"
                             "  .censoring: 1 row (captcha_type, threshold, share)")
    empty = pd.DataFrame({"target": []})
    recal = LatencyRecalibration(table=empty, summary=shares, frontier=empty)
    assert repr(recal) == ("LatencyRecalibration, its tables:\n"
                           "  .table: 0 rows (target)\n"
                           "  .summary: 2 rows (captcha_type, threshold, share)\n"
                           "  .frontier: 0 rows (target)")
