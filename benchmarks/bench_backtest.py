"""Backtest case: 30 days at 1-minute steps for 20 label values, read from a real Prometheus server
(``read_prometheus``: 2 count queries + 2 scrape-gap queries, 5 chunks each, all in flight
together) and scored (workbook tiers, episodes + score_alerts, budget period 30 d: the bins
cover exactly the 30 days read, ``[START, START + 30 d)``, a whole period, so
``budget_before_alert_*`` is computed, not withheld). Target: a few seconds (<= 5 s).
Baseline, same run: one query_range of the raw counters summed per label (what fetching the data
costs without the per-bin form).

Where the time goes: the server's CPU seconds (``/proc``) and budgetlab's (``process_time``)
during one read, and one count query and one gap query timed alone. On a machine shared with
other work, the CPU seconds hold better than the wall time.

Setup (not timed): 1.7 M OpenMetrics samples, one text per day, -> ``promtool tsdb
create-blocks-from openmetrics``
(360 two-hour blocks) -> ``prometheus`` on 127.0.0.1, which compacts them into a few large blocks
(as a server that has held 30 days has them) before the timing starts (waited for, up to 6
minutes; measured on 360 blocks while the compactor runs, a read takes about twice as long).
Skipped (reported) when the binaries are missing.
"""

from __future__ import annotations

import re
import time
import urllib.request

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
                line = np.char.add(np.char.add(np.char.add(prefix, cums[family, g][sl]), " "),
                                   times[sl])
                parts.append("\n".join(line.tolist()))
        parts.append("# EOF\n")
        texts.append("\n".join(parts))
    return texts


def _blocks_loaded(url: str) -> tuple[int, int]:
    """``(blocks loaded, compactions done)`` from the server's own /metrics."""
    with urllib.request.urlopen(url + "/metrics", timeout=30) as resp:
        text = resp.read().decode()
    found = {}
    for name in ("prometheus_tsdb_blocks_loaded", "prometheus_tsdb_compactions_total"):
        m = re.search(rf"^{name} (\S+)$", text, flags=re.M)
        found[name] = int(float(m.group(1))) if m else -1
    return found["prometheus_tsdb_blocks_loaded"], found["prometheus_tsdb_compactions_total"]


def _wait_for_compaction(url: str, limit: float = 360.0) -> int:
    """Wait until the compactor has run and the block count held for 70 s (it runs every minute)."""
    deadline = time.monotonic() + limit
    last, since = _blocks_loaded(url), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(5)
        now = _blocks_loaded(url)
        if now != last:
            last, since = now, time.monotonic()
        elif now[1] > 0 and time.monotonic() - since >= 70:
            break
    return last[0]


def case(events: pd.DataFrame, repeat: int) -> list[Result]:
    from budgetlab import AlertPolicy, alert_episodes, read_prometheus, score_alerts
    from budgetlab.interop.prometheus_http import PrometheusClient
    from budgetlab.interop.promql import bin_count_query, gap_query, parse_count_query
    from tests.interop.prometheus_server import PrometheusServer, prometheus_binaries

    name = f"backtest: Prometheus {DAYS} d x 1 min x {GROUPS} groups, fetch + workbook + score"
    if prometheus_binaries() is None:
        return [Result(name, 0, float("nan"), "", None, None, "needs prometheus+promtool (skipped)",
                       None)]
    end = START + pd.Timedelta(days=DAYS)
    policy = AlertPolicy.workbook("30D")
    incidents = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                              "start": [START + pd.Timedelta("10D")],
                              "end": [START + pd.Timedelta("10D 1h")]})
    t_setup = time.perf_counter()
    server = PrometheusServer(_openmetrics(), ready_timeout=300)
    with server as url:
        blocks = _wait_for_compaction(url)
        setup = time.perf_counter() - t_setup
        n_bins = DAYS * 1440
        client = PrometheusClient(url, timeout=120)

        def fetch() -> pd.DataFrame:
            return read_prometheus(url, total="bench_requests_total", errors="bench_errors_total",
                                   start=START,
                                   end=end, by="group", timeout=120)

        def backtest() -> None:
            bins = fetch()
            ep = alert_episodes(bins, 0.999, policy)
            score_alerts(ep, incidents, bins=bins, target=0.999, period="30D")

        def baseline() -> None:
            client.query_range('sum by (group) (bench_requests_total)', START.value + 60 * 10**9,
                               n_bins,
                               60 * 10**9, what="baseline")

        t, b = time_pair(backtest, baseline, repeat=max(1, min(repeat, 3)))
        # where the time goes (one run each): one count query and one gap query of the forms sent
        # (one series per group here: no sums, no appear/disappear parts) and of the general forms
        q = parse_count_query("bench_requests_total", "total")
        one: dict[str, float] = {}
        for label, single in (("", True), ("general_", False)):
            for kind, query in (("count", bin_count_query(q, "1m", ["group"], single=single)),
                                ("gap", gap_query(q.selectors[0], "1m", 60 * 10**9, ["group"],
                                                  single=single))):
                t0 = time.perf_counter()
                client.query_range(query, START.value + 60 * 10**9, n_bins, 60 * 10**9, what=kind)
                one[f"{label}one_{kind}_query_s"] = time.perf_counter() - t0
        t0, c0, s0 = time.perf_counter(), time.process_time(), server.cpu_seconds()
        bins = fetch()
        t_fetch, c_fetch, s1 = (
            time.perf_counter() - t0,
            time.process_time() - c0,
            server.cpu_seconds(),
        )
        t0 = time.perf_counter()
        ep = alert_episodes(bins, 0.999, policy)
        score_alerts(ep, incidents, bins=bins, target=0.999, period="30D")
        t_score = time.perf_counter() - t0
    size = GROUPS * n_bins
    # the server's CPU seconds only where /proc shows them (left out, not NaN, elsewhere)
    server_cpu = {} if s0 is None or s1 is None else {"read_server_cpu_s": s1 - s0}
    return [Result(name, size, t, "query_range of the raw counters, sum by group", b, None,
                   "<= 5 s", t <= 5.0,
                   {"setup_s": setup, "blocks": blocks, **one, "read_prometheus_s": t_fetch,
                    **server_cpu, "read_budgetlab_cpu_s": c_fetch,
                    "episodes_and_score_s": t_score,
                    "episodes": len(ep)})]
