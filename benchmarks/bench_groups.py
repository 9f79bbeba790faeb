"""SRE model at 20 / 200 / 2,000 / 50,000 groups: bin 1-minute + workbook episodes + score.

The same events (``build_events``: ~N events over 28 days, fixed seed) get a ``group`` key with
``G`` values, assigned per event from a fixed-seed generator (every group spread over the whole
span). Scored with the policy's 28-day budget period: the 1-minute bins cover exactly the 28 days
generated (2026-10-05 00:00 .. 11-02 00:00 UTC, events in the first and the last minute), a whole
period read, so ``budget_before_alert_*`` is computed, not withheld. Baseline, timed interleaved
in the same run: pandas
``events.groupby([group, ts.dt.floor("1min")], observed=True).agg(total=("ok", "size"),
good=("ok", "sum"))``, what counting the bins alone costs with pandas. Peak memory: tracemalloc
over one run.
Targets (issue #20): 20 groups <= 1.0x, 2,000 groups <= 1.5x, <= 2 GiB; (issue #31) 50,000 groups
<= 20 s and <= 2 GiB (the score table built column by column). Peak memory is reported both
as tracemalloc's peak (``peak mem``) and as the peak RSS above the RSS before the call (the events
in memory; ``peak_rss_above_input_mib``), with the CPU seconds of that run (``cpu_s``); a target
in GiB holds for both. Held to one core: ``taskset -c 1 python -m benchmarks --only groups``.
A case the library refuses (a ConfigError: the grid would not fit the memory limit) is reported as
refused, with the reason, instead of timed.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from benchmarks.harness import Result, peak_memory, peak_rss, time_pair

GROUPS = (20, 200, 2_000, 50_000)
_TARGETS = {20: ("<= 1.0x pandas, <= 2 GiB", 1.0), 200: ("", None),
            2_000: ("<= 1.5x pandas, <= 2 GiB", 1.5),
            50_000: ("<= 20 s, <= 2 GiB", None)}


def with_groups(events: pd.DataFrame, groups: int, *, seed: int = 20) -> pd.DataFrame:
    """``events`` with a categorical ``group`` key of ``groups`` values (fixed seed)."""
    codes = np.random.default_rng(seed).integers(0, groups, len(events))
    out = events[["ts", "ok", "bucket"]].copy()
    out["group"] = pd.Categorical.from_codes(codes, categories=[f"g{i:05d}" for i in range(groups)])
    return out


def case(events: pd.DataFrame, repeat: int, groups: tuple[int, ...] = GROUPS) -> list[Result]:
    from budgetlab import AlertPolicy, alert_episodes, bin_events, score_alerts, synth
    from budgetlab.errors import BudgetlabError

    policy = AlertPolicy.workbook(period="28D")
    span = events["ts"].iloc[-1] - events["ts"].iloc[0]
    _, incidents = synth.generate(events["ts"].iloc[0], span.days + 1, seed=1, rate=0.001)
    results = []
    for g in groups:
        ev = with_groups(events, g)
        label = f"SRE: bin 1min + workbook + score, {g:,} groups"
        target, limit = _TARGETS[g]

        def sre(ev: pd.DataFrame = ev) -> None:
            bins = bin_events(ev, "1min", by="group")
            episodes = alert_episodes(bins, 0.95, policy)
            score_alerts(episodes, incidents, bins=bins, target=0.95, period="28D")

        def baseline(ev: pd.DataFrame = ev) -> None:
            ev.groupby(["group", ev["ts"].dt.floor("1min")], observed=True).agg(
                total=("ok", "size"), good=("ok", "sum"))

        try:
            t0 = time.perf_counter()
            sre()  # once: refused cases stop here, slow ones are not repeated
            once = time.perf_counter() - t0
        except BudgetlabError as exc:
            results.append(Result(label, len(ev), float("nan"), target=target, passed=False,
                                  extra={"refused": str(exc)[:120]}))
            continue
        reps = repeat if once < 20 else 1
        t, b = time_pair(sre, baseline, repeat=reps, warmup=0)
        peak = peak_memory(sre)
        rss, _, cpu = peak_rss(sre)  # the OS's view: peak RSS above the input (events in memory)
        ratio = t / b
        passed = (ratio <= limit if limit is not None else t <= 20 if g == 50_000 else None)
        if passed is not None and g in (20, 2_000, 50_000):
            passed = passed and peak <= 2 * 2**30 and (rss is None or rss <= 2 * 2**30)
        extra = {"cpu_s": cpu} | ({} if rss is None else {"peak_rss_above_input_mib": rss / 2**20})
        results.append(Result(label, len(ev), t, "pandas groupby([group, minute]).agg", b, peak,
                              target, passed,
                              extra))
    return results
