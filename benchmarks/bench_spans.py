"""The window's clock (issue 28, point 7): ``status_spans`` against ``replay_transitions`` on the
same events, 20 groups (``python -m benchmarks --only spans``).

Both read every event's trailing window; the spans also walk every expiry (twice the instants)
and keep only the status changes. Baseline, timed interleaved in the same run:
``replay_transitions(events, slo, by="group")``. Target: <= 1.5x.
"""

from __future__ import annotations

import pandas as pd

from benchmarks.harness import Result, peak_memory, time_pair


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import SLO, replay_transitions, status_spans

    results = []
    for window in ("1h", "24h"):
        slo = SLO(target=0.95, window=window)

        def spans(slo: SLO = slo) -> None:
            status_spans(events, slo, by="group")

        def baseline(slo: SLO = slo) -> None:
            replay_transitions(events, slo, by="group")

        t, b = time_pair(spans, baseline, repeat=repeat)
        mem = peak_memory(spans)
        n_spans = len(status_spans(events, slo, by="group"))
        results.append(Result(f"status_spans, {window}, 20 groups", len(events), t,
                              f"replay_transitions, {window}, 20 groups", b, mem,
                              "<= 1.5x baseline",
                              t <= 1.5 * b, extra={"spans": n_spans}))
    return results
