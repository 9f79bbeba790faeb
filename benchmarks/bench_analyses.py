"""Analyses case: recalibrate over 4 weeks x 3 types x 2 regions, and compare_windows over four
windows; each under 5 s without the bootstrap. Data: the shipped 4-week sample (3.0 M events).
Baseline: one 24 h replay of the same events by type and region (what one status pass costs)."""

from __future__ import annotations

import pandas as pd

from benchmarks.harness import Result, time_pair


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import SLO, compare_windows, datasets, recalibrate, replay

    sample = datasets.load("outcomes_4w")
    incidents = datasets.load("incidents_4w")
    by = ["captcha_type", "region"]
    slo = SLO(target=0.95, window="24h")

    def baseline() -> None:
        replay(sample, slo, by=by)

    def rec() -> None:
        recalibrate(sample, by=by, window="24h", history="28D", target=0.95, n_boot=0, show_progress=False)

    def cmp() -> None:
        compare_windows(sample, slo, ("1h", "6h", "24h", "7D"), by=by, incidents=incidents, show_progress=False)

    reps = max(2, repeat // 2)
    t1, b1 = time_pair(rec, baseline, repeat=reps)
    t2, b2 = time_pair(cmp, baseline, repeat=reps)
    n = len(sample)
    return [
        Result("recalibrate 28 days, 3 types x 2 regions, no bootstrap", n, t1, "replay 24h by type x region", b1,
               None, "< 5 s", t1 < 5.0),
        Result("compare_windows 1h/6h/24h/7D + incidents, 3 x 2 groups", n, t2, "replay 24h by type x region", b2,
               None, "< 5 s", t2 < 5.0),
    ]
