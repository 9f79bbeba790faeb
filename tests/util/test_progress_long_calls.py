"""Bars on the multi-second calls found on 5 M events and 3,061 sitekeys: replay_summary (by
stage) and latency_profile (over groups x periods), on a terminal from their thresholds only;
the results unchanged."""

from __future__ import annotations

import io
import sys

import pandas as pd

from budgetlab import SLO, as_events, latency_profile, replay, replay_summary
from budgetlab.budget import summary as summary_module

latency_module = sys.modules["budgetlab.analyses.latency_profile"]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def events():
    ts = pd.date_range("2026-01-01", periods=48, freq="h", tz="UTC")
    ev = as_events(ts, [i % 5 != 0 for i in range(48)], groups={"k": ["a", "b"] * 24})
    return ev.assign(duration=pd.to_timedelta([1 + i % 7 for i in range(48)], unit="s"))


def test_replay_summary_shows_a_bar_by_stage_from_the_threshold(monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    ev = events()
    states = replay(ev, SLO(target=0.9, window="1h"), by="k")
    quiet = replay_summary(states, ev)
    err = FakeTerminal()
    monkeypatch.setattr("sys.stderr", err)
    assert replay_summary(states, ev).equals(quiet)
    assert err.getvalue() == ""  # 48 events: under PROGRESS_EVENTS, no bar
    monkeypatch.setattr(summary_module, "PROGRESS_EVENTS", 10)
    pd.testing.assert_frame_equal(replay_summary(states, ev), quiet)
    assert "replay summary" in err.getvalue() and "/3" in err.getvalue()


def test_latency_profile_shows_a_bar_over_its_curves_from_the_threshold(monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    ev = events()
    quiet = latency_profile(ev, thresholds=["3s"], by="k", client_timeout="30s")
    err = FakeTerminal()
    monkeypatch.setattr("sys.stderr", err)
    latency_profile(ev, thresholds=["3s"], by="k", client_timeout="30s")
    assert err.getvalue() == ""  # 4 curves: no bar
    monkeypatch.setattr(latency_module, "PROGRESS_CURVES", 2)
    loud = latency_profile(ev, thresholds=["3s"], by="k", client_timeout="30s")
    pd.testing.assert_frame_equal(loud.quantiles, quiet.quantiles)
    # 2 groups x 2 days
    assert "quantiles per group and period" in err.getvalue() and "/4" in err.getvalue()
