"""Generator case: four weeks at ~10 events/s (~24 M events) must generate in seconds.
Baseline: drawing and sorting the same number of uniform event times with numpy — the least any
generator of that many timestamps must do."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchmarks.harness import Result, time_pair


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import synth

    quick = len(events) < 5_000_000
    rate = 1.0 if quick else 10.0
    n = {}

    def gen() -> None:
        ev, _ = synth.generate("2026-10-05", 28, seed=7, rate=rate, session_ids=False)
        n["events"] = len(ev)

    def baseline() -> None:
        rng = np.random.default_rng(7)
        np.sort(rng.integers(0, 28 * 86400 * 10**9, int(rate * 28 * 86400)))

    t, b = time_pair(gen, baseline, repeat=max(2, repeat // 2))
    return [Result(f"synth.generate 28 days at {rate:g} events/s", n["events"], t,
                   "numpy: draw + sort as many timestamps", b, None, "in seconds (< 10 s)",
                   t < 10.0)]
