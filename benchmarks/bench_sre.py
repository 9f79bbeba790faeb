"""SRE model case: bin 10 M events to 1-minute bins, evaluate and score the four workbook tiers
for 20 groups over 4 weeks. Target: under 2 s in total. Baseline: a pandas groupby count of the
same events per (group, minute), ``groupby([group, ts.dt.floor("1min")], observed=True).agg(...)``
(events and successes per bin) — what binning alone costs with pandas. Scored with the policy's
28-day budget period: the bins cover exactly the 28 days generated (2026-10-05 00:00 .. 11-02 00:00
UTC), a whole period read, so ``budget_before_alert_*`` is computed, not withheld."""

from __future__ import annotations

import pandas as pd

from benchmarks.harness import Result, time_pair


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import AlertPolicy, alert_episodes, bin_events, score_alerts, synth

    policy = AlertPolicy.workbook(period="28D")
    span = events["ts"].iloc[-1] - events["ts"].iloc[0]
    # labelled incidents for scoring: the generator's default incidents over the same span
    _, incidents = synth.generate(events["ts"].iloc[0], span.days + 1, seed=1, rate=0.001)

    def sre() -> None:
        bins = bin_events(events, "1min", by="group")
        episodes = alert_episodes(bins, 0.95, policy)
        score_alerts(episodes, incidents, bins=bins, target=0.95, period="28D")

    def baseline() -> None:
        events.groupby(["group", events["ts"].dt.floor("1min")], observed=True).agg(
            total=("ok", "size"), good=("ok", "sum"))

    t, b = time_pair(sre, baseline, repeat=repeat)
    return [Result("SRE: bin 1min + workbook 4 tiers + score, 20 groups", len(events), t,
                   "pandas groupby([group, minute]).agg", b, None, "< 2 s total", t < 2.0)]
