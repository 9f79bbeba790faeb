"""Analyses case: recalibrate over 4 weeks x 3 types x 2 regions, and compare_windows over four
windows; each under 5 s without the bootstrap. Data: the shipped 4-week sample (3.0 M events).
Baseline: one 24 h replay of the same events by type and region (what one status pass costs).

Recalibration with its bootstrap (200 samples), in CPU seconds (``time.process_time``, which a
loaded machine disturbs less than wall time), after one warm-up run: 25 groups x 1,000 events
over 4 weeks under 5 s, and the 3.0 M-event sample by type and region under 10 s."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from benchmarks.harness import Result, time_pair


def _cpu_seconds(fn: Callable[[], object]) -> float:
    """CPU seconds of ``fn()`` after one warm-up run (compiled kernels loaded)."""
    fn()
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def _small_groups(n_groups: int = 25, per_group: int = 1_000) -> pd.DataFrame:
    """``n_groups`` sitekeys of ``per_group`` events each, uniform over 4 weeks (seeded)."""
    rng = np.random.default_rng(31)
    start = pd.Timestamp("2026-10-05", tz="UTC").value
    t = np.sort(rng.integers(0, 28 * 86_400 * 10**9, size=(n_groups, per_group)), axis=1) + start
    rate = np.repeat(np.linspace(0.9, 0.999, n_groups), per_group)
    events = pd.DataFrame({
        "ts": pd.to_datetime(t.ravel(), utc=True), "ok": rng.random(t.size) < rate,
        "sitekey": pd.Categorical(np.repeat([f"site{i:02d}" for i in range(n_groups)], per_group))})
    return events.sort_values("ts", kind="stable").reset_index(drop=True)


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import SLO, compare_windows, datasets, recalibrate, replay

    sample = datasets.load("outcomes_4w")
    incidents = datasets.load("incidents_4w")
    by = ["captcha_type", "region"]
    slo = SLO(target=0.95, window="24h")

    def baseline() -> None:
        replay(sample, slo, by=by)

    def rec() -> None:
        recalibrate(sample, by=by, window="24h", history="28D", target=0.95, n_boot=0,
                    show_progress=False)

    def cmp() -> None:
        compare_windows(sample, slo, ("1h", "6h", "24h", "7D"), by=by, incidents=incidents,
                        show_progress=False)

    small = _small_groups()

    def rec_small() -> None:
        recalibrate(small, by="sitekey", target=0.95, n_boot=200, show_progress=False)

    def rec_boot() -> None:
        recalibrate(sample, by=by, window="24h", history="28D", target=0.95, n_boot=200,
                    show_progress=False)

    c1, c2 = _cpu_seconds(rec_small), _cpu_seconds(rec_boot)
    reps = max(2, repeat // 2)
    t1, b1 = time_pair(rec, baseline, repeat=reps)
    t2, b2 = time_pair(cmp, baseline, repeat=reps)
    n = len(sample)
    return [
        Result("recalibrate 28 days, 3 types x 2 regions, no bootstrap", n, t1,
               "replay 24h by type x region", b1,
               None, "< 5 s", t1 < 5.0),
        Result("compare_windows 1h/6h/24h/7D + incidents, 3 x 2 groups", n, t2,
               "replay 24h by type x region", b2,
               None, "< 5 s", t2 < 5.0),
        Result("recalibrate 25 groups x 1,000 events, 200 bootstrap samples (CPU s)", len(small),
               c1,
               target="< 5 s CPU", passed=c1 < 5.0),
        Result("recalibrate 28 days, 3 types x 2 regions, 200 bootstrap samples (CPU s)", n, c2,
               target="< 10 s CPU", passed=c2 < 10.0),
    ]
