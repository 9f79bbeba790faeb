"""Random inputs for the oracle tests of the SRE model (tests/alerts/test_sre_dense_oracle.py and
friends): many small groups, empty groups, gaps, bursts of failures, incidents."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import SLO, PerGroup
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.tier import AlertTier

T0 = pd.Timestamp("2026-03-27", tz="UTC")  # a DST change in Europe two days later


def make_events(n_groups: int, *, seed: int, hours: int = 6, per_group: int = 40,
                two_keys: bool = False) -> pd.DataFrame:
    """Events of ``n_groups`` groups (a few of them without any event in the span: unused categories
    are not groups, so they are left out of the data but gaps and bursts are in)."""
    rng = np.random.default_rng(seed)
    counts = rng.poisson(per_group, n_groups)
    counts[rng.random(n_groups) < 0.05] = 0  # groups with no events at all (absent, not empty)
    counts[rng.random(n_groups) < 0.05] = 1  # single-event groups
    g = np.repeat(np.arange(n_groups), counts)
    n = len(g)
    span = hours * 3600
    # traffic in a few busy stretches per group (gaps in between)
    centre = rng.integers(0, span, n_groups)[g]
    t = np.clip(centre + rng.normal(0, span / 8, n), 0, span - 1).astype(np.int64)
    burst = rng.random(n_groups) < 0.3
    bad_p = np.where(burst[g] & (np.abs(t - centre) < span / 10), 0.6, 0.01)
    ok = rng.random(n) >= bad_p
    bucket = np.where(ok, "success", np.where(rng.random(n) < 0.5, "timeout", "solve_error"))
    order = np.argsort(t, kind="stable")
    ev = pd.DataFrame({
        "ts": T0 + pd.to_timedelta(t[order], unit="s"),
        "ok": ok[order],
        "bucket": pd.Categorical(bucket[order], categories=["success", "timeout", "solve_error"]),
    })
    names = np.array([f"s{i:05d}" for i in range(n_groups)], dtype=object)
    if two_keys:
        ev["region"] = pd.Categorical(np.where(g[order] % 3 == 0, "fra", "ams"))
        ev["sitekey"] = pd.Categorical(names[g[order] // 3 * 3])
    else:
        ev["sitekey"] = pd.Categorical(names[g[order]])
    return ev


def fast_policy(period: str = "1D", **tier_options: object) -> AlertPolicy:
    """Workbook-shaped tiers with windows of minutes (so that a few hours of data fire)."""
    return AlertPolicy([
        AlertTier("page_fast", "page", "10min", "2min", burn=8.0,
                  **tier_options),  # type: ignore[arg-type]
        AlertTier("page_slow", "page", "30min", "5min", burn=4.0,
                  **tier_options),  # type: ignore[arg-type]
        AlertTier("ticket", "ticket", "1h", None, burn=2.0,
                  **tier_options),  # type: ignore[arg-type]
    ], period=period)


def per_group_slos(keys: list[str]) -> PerGroup:
    """Per-group SLOs whose targets and periods differ (two periods) and some with min_events."""
    slos = {}
    for i, k in enumerate(keys):
        slos[k] = SLO([0.9, 0.95, 0.99][i % 3], period=["7D", "30D"][i % 2], min_events=[0,
                                                                                         5][i % 2])
    return PerGroup(slos)


def incidents_for(events: pd.DataFrame, *, seed: int, n: int = 30) -> pd.DataFrame:
    """Incidents over the span: scopes "*", one sitekey, one region, and an unknown sitekey."""
    rng = np.random.default_rng(seed)
    t0, t1 = events["ts"].min(), events["ts"].max()
    span = (t1 - t0).value
    start = t0 + pd.to_timedelta(np.sort(rng.integers(0, span, n)), unit="ns")
    end = start + pd.to_timedelta(rng.integers(60, 3600, n), unit="s")
    keys = [str(k) for k in events["sitekey"].cat.categories]
    scopes = []
    for i in range(n):
        r = i % 4
        scopes.append("*" if r == 0 else f"sitekey={keys[rng.integers(len(keys))]}" if r in (1, 2)
                      else "sitekey=nope" if "region" not in events.columns else "region=fra")
    return pd.DataFrame({"incident_id": [f"i{i}" for i in range(n)], "kind": "outage",
                         "start": start, "end": end,
                         "scope": scopes})
