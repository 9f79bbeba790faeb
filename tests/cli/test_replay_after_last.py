"""A group that stops sending before the log ends: ``replay`` counts the time after its window
empties as no traffic, and says so, as it says the time before a late group's first event (stop
59). Hand-counted log: group a has an event every 30 min from 00:00 to 20:00, group b from 00:00
to 08:00, group c from 10:00 to 12:00; window 1 h, so the observation is 00:00 .. 20:00. b's
window holds its last event through 09:00 and is empty from then to 20:00 (11 h, after its last
event); c's is empty before 10:00 (10 h) and from 13:00 (7 h). No gap between two events of a
group is longer than the window: no silence.

Before, b's 11 h of no traffic stood beside "Silences longer than the window (1 h): none" without
a word."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, as_events, replay, replay_summary
from budgetlab.cli import main

NS = 1 / 3.6e12  # one nanosecond in hours


def _log() -> pd.DataFrame:
    def every(svc: str, a: str, b: str) -> pd.DataFrame:
        ts = pd.date_range(f"2026-01-01 {a}", f"2026-01-01 {b}", freq="30min", tz="UTC")
        return pd.DataFrame({"ts": ts, "svc": svc})

    frame = pd.concat([every("a", "00:00", "20:00"), every("b", "00:00", "08:00"),
                       every("c", "10:00", "12:00")])
    return frame.sort_values("ts", kind="stable").reset_index(drop=True)


def test_the_summary_counts_the_time_after_a_group_s_last_event():
    frame = _log()
    events = as_events(frame["ts"], [True] * len(frame), groups={"svc": frame["svc"].to_numpy()})
    s = replay_summary(replay(events, SLO(target=0.95, window="1h"), by="svc"), events)
    s = s.set_index("svc")
    # the window holds an event through ts + 1 h: empty 1 ns later
    assert s.loc["b", "after_last_hours"] == pytest.approx(11.0 - NS, abs=1e-9)
    assert s.loc["b", "hours_no_traffic"] == pytest.approx(11.0, abs=1e-9)
    assert s.loc["b", "silences"] == 0 and s.loc["b", "silent_hours"] == 0.0
    assert s.loc["c", "after_last_hours"] == pytest.approx(7.0, abs=1e-9)
    assert s.loc["c", "before_first_hours"] == pytest.approx(10.0, abs=1e-9)
    assert s.loc["c", "hours_no_traffic"] == pytest.approx(17.0, abs=1e-9)
    assert s.loc["a", "after_last_hours"] == 0.0


def test_replay_says_the_time_after_a_group_s_last_event(tmp_path, capsys):
    frame = _log()
    frame["ts"] = frame["ts"].map(lambda t: t.isoformat())
    frame["outcome"] = "ok"
    path = tmp_path / "gone.csv"
    frame.to_csv(path, index=False)
    assert main(["replay", str(path), "--by", "svc", "--window", "1h"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Silences longer than the window (1 h): none." in text
    # from the last event to the log's last (20:00): b 08:00, 12 h; c 12:00, 8 h; of it no
    # traffic from the window emptying (figures above)
    assert ("After their last event (to the log's last event): svc=b 12 h (11 h of it no "
            "traffic, from its window emptying; not among the silences), svc=c 8 h (7 h of it no "
            "traffic, from its window emptying; not among the silences).") in text
    assert "Before their first event (counted as no traffic, no silence): svc=c 10 h." in text
