"""Exported rules evaluated by a real Prometheus over a generated history (issue 33).

The server does not evaluate alerting rules over backfilled history, so the round trip goes:

1. :func:`history` generates per-minute counts of the counters the vendored specs query (seeded),
   and :func:`openmetrics_text` writes them sampled at every minute end, all series from 0;
2. a :class:`~tests.interop.prometheus_server.PrometheusServer` serves them;
   :func:`backfill` evaluates the recording rules the alerts read over the span with
   ``promtool tsdb create-blocks-from rules`` against that server (one evaluation per minute);
3. a second server serves the counters and those blocks; :func:`alert_minutes` reads every
   alerting expression with ``query_range`` at every minute and applies the rule's ``for:`` in
   the test (an alert fires at ``t`` when its condition held at every evaluation of
   ``[t - for, t]``, as Prometheus's pending state does with one evaluation per minute).

**The group's offset.** Prometheus evaluates a rule group at a fixed offset within its
interval, derived from the group's name and file (promtool's backfill too: measured here,
:func:`eval_offset_ns`, by backfilling ``vector(1)`` and reading the block with ``promtool tsdb
dump``). At ``T + offset`` a window ``[T + offset - w, T + offset]`` would miss the counter
sample at ``T - w`` and extrapolate. So every counter is also sampled at ``T + offset`` with its
value at ``T`` (no event is counted then: the next bin's events appear at the next minute end);
the window then holds exactly the bins of ``(T - w, T]``, the reading at the minute ends is
unchanged, and the alert evaluated at ``T + offset`` is the one budgetlab evaluates at ``T``.

Both sides then name the minutes at which each alert fired.
"""

from __future__ import annotations

import json
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from tests.interop.prometheus_server import PrometheusServer

START = pd.Timestamp("2026-02-02 00:00", tz="UTC")
MINUTES = 24 * 60


def _profile(rng: np.random.Generator, base: float, bursts: list[tuple[int, int,
                                                                       float]]) -> np.ndarray:
    p = np.full(MINUTES, base) * rng.uniform(0.5, 1.5, MINUTES)
    for lo, hi, q in bursts:  # positions written for 2 days, laid on the span
        p[lo * MINUTES // 2880:hi * MINUTES // 2880] = q
    return p


def history(seed: int = 33) -> list[tuple[str, dict[str, str], np.ndarray]]:
    """``(metric, labels, events per minute)`` of every counter the round-trip specs query, with
    bursts of errors that page and slow burns that ticket for each spec's target."""
    rng = np.random.default_rng(seed)
    out: list[tuple[str, dict[str, str], np.ndarray]] = []

    def split(metric: str, labels: dict[str, str], bad_labels: dict[str, str], ok_labels: dict[str,
                                                                                               str],
              n: np.ndarray, p: np.ndarray) -> None:
        bad = rng.binomial(n, p)
        out.append((metric, {**labels, **ok_labels}, n - bad))
        out.append((metric, {**labels, **bad_labels}, bad))

    # Sloth getting-started (99.9 %) and its v1alpha twin: errors are codes 5xx and 429
    n = rng.poisson(40, MINUTES)
    p = _profile(rng, 0.0004, [(300, 330, 0.05), (900, 1260, 0.004), (2000, 2010, 0.5)])
    bad = rng.binomial(n, p)
    b429 = rng.binomial(bad, 0.3)
    job = {"job": "myservice"}
    out += [("http_request_duration_seconds_count", {**job, "code": "200"}, n - bad),
            ("http_request_duration_seconds_count", {**job, "code": "500"}, bad - b429),
            ("http_request_duration_seconds_count", {**job, "code": "429"}, b429)]
    # OpenSLO v1, budgetlab's captcha workbook (93 %): 2 counters
    n = rng.poisson(30, MINUTES)
    p = _profile(rng, 0.02, [(400, 1000, 0.7), (1500, 2700, 0.12)])
    e = rng.binomial(n, p)
    ct = {"captcha_type": "recaptcha_v2"}
    out += [("captcha_solves_total", ct, n), ("captcha_solve_errors_total", ct, e)]
    # Pyrra prometheus-http (99 %, grouping by handler): codes 200 / 503 per handler
    for h, bursts in (("/api/v1/query", [(600, 640, 0.3), (1800, 2300, 0.03)]),
                      ("/api/v1/query_range", [(100, 200, 0.2)]),
                      ("/metrics", [])):
        split("prometheus_http_requests_total", {"handler": h}, {"code": "503"}, {"code": "200"},
              rng.poisson(25, MINUTES), _profile(rng, 0.002, bursts))
    # Sloth kubernetes-apiserver (99.9 % availability, 99 % latency under 0.4 s)
    split("apiserver_request_total", {}, {"code": "500"}, {"code": "200"}, rng.poisson(50, MINUTES),
          _profile(rng, 0.0003, [(700, 720, 0.4), (1900, 2600, 0.003)]))
    for verb, slow in (("GET", [(1000, 1100, 0.3), (2200, 2800, 0.03)]), ("WATCH", [(0, 2880,
                                                                                     0.5)])):
        n = rng.poisson(35, MINUTES)
        fast = n - rng.binomial(n, _profile(rng, 0.003, slow))
        out += [("apiserver_request_duration_seconds_count", {"verb": verb}, n),
                ("apiserver_request_duration_seconds_bucket", {"le": "0.4", "verb": verb}, fast)]
    return out


def openmetrics_text(series: list[tuple[str, dict[str, str], np.ndarray]],
                     start: pd.Timestamp = START,
                     offset_ns: int = 0) -> str:
    """The counters sampled at every minute end from ``start`` (value 0 at ``start``) and, with
    ``offset_ns``, again that much later (the same value: see the module notes)."""
    t0 = start.value // 10**6
    off = offset_ns // 10**6
    assert offset_ns % 10**6 == 0 and 0 <= off < 60_000
    by_metric: dict[str, list[str]] = {}
    for metric, labels, per_minute in series:
        cum = np.concatenate([[0], np.cumsum(per_minute)])
        lab = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
        sel = f"{metric}{{{lab}}}" if lab else metric
        lines = by_metric.setdefault(metric, [])
        for i, c in enumerate(cum.tolist()):
            t = t0 + 60_000 * i
            lines.append(f"{sel} {int(c)} {t // 1000}.{t % 1000:03d}")
            if off:
                lines.append(f"{sel} {int(c)} {(t + off) // 1000}.{(t + off) % 1000:03d}")
    lines = [line for metric in by_metric for line in by_metric[metric]]
    return "\n".join([*lines, "# EOF"]) + "\n"


def alert_records(rules: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The recording rules the alerting rules read (``slo:sli_error:ratio_rate<w>`` of the
    alert windows), each once."""
    alerts = " ".join(r["expr"] for g in rules["groups"] for r in g["rules"] if "alert" in r)
    out, seen = [], set()
    for g in rules["groups"]:
        for r in g["rules"]:
            key = (r.get("record"), tuple(sorted(r.get("labels", {}).items())))
            if (
                "record" in r
                and f"{r['record']}{{" in alerts
                and "slo:" not in r["expr"]
                and key not in seen
            ):
                seen.add(key)
                out.append(r)
    return out


def _create_blocks(url: str, records: list[dict[str, Any]], start: pd.Timestamp, end: pd.Timestamp,
                   workdir: Path,
                   out: Path) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "records.yaml"  # one path and one group name: one evaluation offset
    path.write_text(yaml.safe_dump({"groups": [{"name": "records", "interval": "1m",
                                                "rules": records}]}))
    proc = subprocess.run(["promtool", "tsdb", "create-blocks-from", "rules",
                           f"--start={start.value // 10**9}",
                           f"--end={end.value // 10**9}", f"--url={url}", "--eval-interval=60s",
                           f"--output-dir={out}",
                           "--quiet", str(path)], capture_output=True, text=True, timeout=600,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError("promtool create-blocks-from rules failed: "
                           f"{(proc.stdout + proc.stderr)[-2000:]}")


def eval_offset_ns(workdir: Path) -> int:
    """The offset within the minute at which promtool's backfill evaluates the group of
    ``workdir/records.yaml`` (see the module notes)."""
    t0 = START.value // 10**9
    with PrometheusServer(f"probe_total 1 {t0}\n# EOF\n") as url:
        _create_blocks(url, [{"record": "probe", "expr": "vector(1)"}], START,
                       START + pd.Timedelta("10min"), workdir,
                       workdir / "probe")
    (workdir / "probe" / "wal").mkdir(exist_ok=True)
    proc = subprocess.run(["promtool", "tsdb", "dump", str(workdir / "probe")], capture_output=True,
                          text=True,
                          timeout=120, check=True)
    first_ms = min(
        int(line.rsplit(" ", 1)[1]) for line in proc.stdout.splitlines() if line.startswith("{")
    )
    return (first_ms - START.value // 10**6) % 60_000 * 10**6


def backfill(url: str, rules: Mapping[str, Any], start: pd.Timestamp, end: pd.Timestamp,
             workdir: Path) -> Path:
    """Evaluate :func:`alert_records` once a minute over ``[start, end]`` against the server at
    ``url`` with ``promtool tsdb create-blocks-from rules``; return the folder of blocks."""
    out = workdir / "blocks"
    _create_blocks(url, alert_records(rules), start, end, workdir, out)
    return out


def query_range(
    url: str, expr: str, start: pd.Timestamp, end: pd.Timestamp
) -> list[tuple[dict[str, str], list[int]]]:
    """``(labels, evaluation times in ns)`` of every series ``expr`` returns, once a minute."""
    params = urllib.parse.urlencode({"query": expr, "start": f"{start.value / 10**9:.3f}",
                                     "end": f"{end.value / 10**9:.3f}", "step": "60"})
    with urllib.request.urlopen(f"{url}/api/v1/query_range?{params}", timeout=120) as resp:
        body = json.load(resp)
    assert body["status"] == "success", body
    # whole milliseconds: float(t) * 1e9 would round in the last bits
    return [(r["metric"], [round(float(t) * 1000) * 10**6 for t,
                           _ in r["values"]]) for r in body["data"]["result"]]


def _with_for(times: list[int], for_ns: int) -> set[int]:
    """Evaluations at which an alert whose condition held at ``times`` (one a minute) fires."""
    fired, run_start, prev = set(), None, None
    for t in sorted(times):
        run_start = t if prev is None or t - prev != 60 * 10**9 else run_start
        prev = t
        if t - run_start >= for_ns:
            fired.add(t)
    return fired


def alert_minutes(url: str, rules: Mapping[str, Any], start: pd.Timestamp, end: pd.Timestamp,
                  offset_ns: int = 0
                  ) -> dict[tuple[str, tuple[tuple[str, str], ...]], set[int]]:
    """Per alert (name and labels: the expression's and the rule's), the minutes ``T`` of
    ``[start, end]`` at whose evaluation ``T + offset_ns`` it fires, ``for:`` applied."""
    out: dict[tuple[str, tuple[tuple[str, str], ...]], set[int]] = {}
    for g in rules["groups"]:
        for r in g["rules"]:
            if "alert" not in r:
                continue
            assert "keep_firing_for" not in r  # the specs of the round trips have no cooldown
            for_ns = pd.Timedelta(r.get("for", "0s")).value
            shift = pd.Timedelta(offset_ns, unit="ns")
            for labels, times in query_range(url, r["expr"], start + shift, end + shift):
                key = (r["alert"], tuple(sorted({**labels, **r.get("labels", {})}.items())))
                out.setdefault(key, set()).update(t - offset_ns for t in _with_for(times, for_ns))
    return out
