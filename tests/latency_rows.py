"""Canonical events with durations from ``(group, outcome, seconds)`` rows, a minute apart: the
small hand-built logs of the latency tests (tests/analyses/test_latency_*.py)."""

from __future__ import annotations

import pandas as pd


def events(rows):
    """Canonical events from ``(group, outcome, seconds)`` rows, a minute apart."""
    return pd.DataFrame({
        "ts": pd.date_range("2026-10-05", periods=len(rows), freq="1min", tz="UTC").as_unit("ns"),
        "g": [g for g, _, _ in rows],
        "ok": [o == "success" for _, o, _ in rows],
        "bucket": pd.Categorical([o for _, o, _ in rows]),
        "duration": pd.to_timedelta([s for _, _, s in rows], unit="s")})
