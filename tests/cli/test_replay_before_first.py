"""A group whose first event comes after the log's first event: ``replay`` counts the time
before it as no traffic, and says so (it is no silence, so "Silences: none" alone contradicted
the no-traffic column). Hand-counted log: group a has an event every 30 min from 00:00 to 20:00,
group b from 10:00 to 12:00 and from 15:00 to 20:00; window 1 h, so the observation is 00:00 ..
20:00 (20 h) and b's window is empty before 10:00 (10 h, before its first event) and from
13:00 to 15:00 (2 h, a silence: the gap 12:00 .. 15:00 minus the window)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, as_events, replay, replay_summary
from budgetlab.cli import main


def _log() -> pd.DataFrame:
    a = pd.date_range("2026-01-01 00:00", "2026-01-01 20:00", freq="30min", tz="UTC")
    b = pd.date_range("2026-01-01 10:00", "2026-01-01 12:00", freq="30min", tz="UTC").append(
        pd.date_range("2026-01-01 15:00", "2026-01-01 20:00", freq="30min", tz="UTC"))
    frame = pd.concat([pd.DataFrame({"ts": a, "svc": "a"}), pd.DataFrame({"ts": b, "svc": "b"})])
    return frame.sort_values("ts", kind="stable").reset_index(drop=True)


def test_the_summary_counts_the_time_before_a_group_s_first_event():
    frame = _log()
    events = as_events(frame["ts"], [True] * len(frame), groups={"svc": frame["svc"].to_numpy()})
    s = replay_summary(replay(events, SLO(target=0.95, window="1h"), by="svc"), events)
    s = s.set_index("svc")
    assert s.loc["b", "before_first_hours"] == pytest.approx(10.0)
    assert s.loc["b", "hours_no_traffic"] == pytest.approx(12.0)  # 10 h before, 2 h silent
    assert s.loc["b", "silent_hours"] == pytest.approx(2.0)
    assert s.loc["a", "before_first_hours"] == 0.0


def test_replay_says_the_time_before_a_group_s_first_event(tmp_path, capsys):
    frame = _log()
    frame["ts"] = frame["ts"].map(lambda t: t.isoformat())
    frame["outcome"] = "ok"
    path = tmp_path / "late.csv"
    frame.to_csv(path, index=False)
    assert main(["replay", str(path), "--by", "svc", "--window", "1h"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Silences longer than the window (1 h): 1 in 1 group" in text
    assert "Before their first event (counted as no traffic, no silence): svc=b 10 h." in text
    assert "svc=a" not in text.split("Before their first event")[1].split(".")[0]

