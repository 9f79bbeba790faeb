"""Backtest case: 30 days at 1-minute steps for 20 label values, read from a real Prometheus server
(``read_prometheus``: 2 count queries + 2 gap queries, 5 chunks each) and scored (workbook tiers,
episodes + score_alerts). Target: a few seconds (< 10 s). Baseline, same run: one query_range of
the raw counters summed per label (what fetching the data costs without the per-bin form).

Setup (not timed): 1.7 M OpenMetrics samples, one text per day, -> ``promtool tsdb create-blocks-from openmetrics``
-> ``prometheus`` on 127.0.0.1. Skipped (reported) when the binaries are missing.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from benchmarks.harness import Result, time_pair

GROUPS = 20
DAYS = 30
START = pd.Timestamp("2026-10-05", tz="UTC")


def _openmetrics() -> list[str]:
    """One OpenMetrics text per day (promtool reads its input once per 2-hour block)."""
    minutes = DAYS * 1440
    rng = np.random.default_rng(20261129)
    t0 = START.value // 10**9
    times = (t0 + 60 * np.arange(minutes + 1)).astype(str)
    cums = {}
    traffic = [rng.poisson(40, minutes) for _ in range(GROUPS)]
    for family in ("bench_requests", "bench_errors"):
        for g in range(GROUPS):
            n = traffic[g]
            if family == "bench_requests":
                per = n
            else:
                per = rng.binomial(n, 0.0005)
                lo = int(rng.integers(0, minutes - 60))
                per[lo:lo + 30] = n[lo:lo + 30] // 2  # one half-outage per group
            cums[family, g] = np.concatenate([[0], np.cumsum(per)]).astype(str)
    texts = []
    for day in range(DAYS):
        sl = slice(day * 1440, (day + 1) * 1440 + (1 if day == DAYS - 1 else 0))
        parts = []
        for family in ("bench_requests", "bench_errors"):
            parts.append(f"# TYPE {family} counter")
            for g in range(GROUPS):
                prefix = f'{family}_total{{group="g{g:02d}"}} '
                line = np.char.add(np.char.add(np.char.add(prefix, cums[family, g][sl]), " "), times[sl])
                parts.append("\n".join(line.tolist()))
        parts.append("# EOF\n")
        texts.append("\n".join(parts))
    return texts


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import AlertPolicy, alert_episodes, read_prometheus, score_alerts
    from budgetlab.interop.prometheus_http import PrometheusClient
    from budgetlab.interop.promql import bin_count_query, gap_query, parse_count_query
    from tests.interop.prometheus_server import PrometheusServer, prometheus_binaries

    name = f"backtest: Prometheus {DAYS} d x 1 min x {GROUPS} groups, fetch + workbook + score"
    if prometheus_binaries() is None:
        return [Result(name, 0, float("nan"), "", None, None, "needs prometheus+promtool (skipped)", None)]
    end = START + pd.Timedelta(days=DAYS)
    policy = AlertPolicy.workbook("30D")
    incidents = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"], "start": [START + pd.Timedelta("10D")],
                              "end": [START + pd.Timedelta("10D 1h")]})
    t_setup = time.perf_counter()
    with PrometheusServer(_openmetrics(), ready_timeout=300) as url:
        setup = time.perf_counter() - t_setup
        n_bins = DAYS * 1440
        client = PrometheusClient(url, timeout=120)

        def fetch() -> pd.DataFrame:
            return read_prometheus(url, total="bench_requests_total", errors="bench_errors_total", start=START,
                                   end=end, by="group", timeout=120)

        def backtest() -> None:
            bins = fetch()
            ep = alert_episodes(bins, 0.999, policy)
            score_alerts(ep, incidents, bins=bins, target=0.999, period="30D")

        def baseline() -> None:
            client.query_range('sum by (group) (bench_requests_total)', START.value + 60 * 10**9, n_bins,
                               60 * 10**9, what="baseline")

        t, b = time_pair(backtest, baseline, repeat=max(1, min(repeat, 3)))
        # where the time goes (one run each)
        q = parse_count_query("bench_requests_total", "total")
        t0 = time.perf_counter()
        client.query_range(bin_count_query(q, "1m", ["group"]), START.value + 60 * 10**9, n_bins, 60 * 10**9,
                           what="total")
        t_count = time.perf_counter() - t0
        t0 = time.perf_counter()
        client.query_range(gap_query(q.selectors[0], "1m", 60 * 10**9, ["group"]), START.value + 60 * 10**9, n_bins,
                           60 * 10**9, what="gaps")
        t_gap = time.perf_counter() - t0
        t0 = time.perf_counter()
        bins = fetch()
        t_fetch = time.perf_counter() - t0
        t0 = time.perf_counter()
        ep = alert_episodes(bins, 0.999, policy)
        score_alerts(ep, incidents, bins=bins, target=0.999, period="30D")
        t_score = time.perf_counter() - t0
    size = GROUPS * n_bins
    return [Result(name, size, t, "query_range of the raw counters, sum by group", b, None, "< 10 s", t < 10.0,
                   {"setup_s": setup, "one_count_query_s": t_count, "one_gap_query_s": t_gap,
                    "read_prometheus_s": t_fetch, "episodes_and_score_s": t_score, "episodes": len(ep)})]
