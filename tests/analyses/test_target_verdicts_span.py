"""target_verdicts says its counts over the time they are counted over, the evaluated time
(time with traffic after warm-up), as recalibrate does; before, over the span from the first
evaluated instant to the last, gaps included (an access log's HEAD: "5 events, 0 failures over
2 d 23 h" for 5 h of evaluated time). A verdict withheld anyway carries no "Provisional" caveat.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import as_events, recalibrate, target_verdicts


def test_the_counts_are_over_the_evaluated_time():
    # two bursts two days apart, one event a minute for 3 h each (00:00:30 .. 02:59:30); under a
    # 1 h window each burst's first hour is warm-up (00:00:30 .. 01:00:30); the first burst's
    # window holds traffic until 1 h after its last event (03:59:30): 2 h 59 min; the second is
    # evaluated up to the log's last event (02:59:30): 1 h 59 min; 4 h 58 min in all, while the
    # first evaluated instant and the last lie 2 d 1 h 59 min apart. 120 evaluated events a
    # burst (01:00:30 .. 02:59:30), every 20th a failure: 240 events, 12 failures.
    day = pd.Timestamp("2026-11-02 00:00:30", tz="UTC")
    burst = pd.to_timedelta(np.arange(180), "min")
    ts = (day + burst).append(day + pd.Timedelta("2D") + burst)
    ok = np.arange(360) % 20 != 0
    rec = recalibrate(as_events(ts, ok), target=0.9, window="1h", n_boot=0)
    v = target_verdicts(rec).iloc[0]
    assert v["verdict"] == "withheld"  # under 24 h of evaluated time
    assert "(240 events, 12 failures over 4 h 58 min of evaluated time; success" in v["sentence"]
    assert "2 d" not in v["sentence"]
    assert "Provisional" not in v["sentence"]  # withheld anyway: no provisional verdict
