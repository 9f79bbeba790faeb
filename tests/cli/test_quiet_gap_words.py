"""Gaps shorter than the window, said (g63gap). Hand-built log: two groups, a success every 10 min
from 2026-03-02 00:00 to 2026-03-12 00:00 UTC, except
  a: nothing between 2026-03-10 04:00 and 14:00 (a 10 h gap between two events),
  b: nothing between 2026-03-09 04:00 and 2026-03-10 10:00 (a 30 h gap).
No other gap reaches an hour (10 min apart).

Under a 24 h window a's 10 h gap is no silence (docs/conventions.md: a silence is a gap longer than
the window): the window still holds a's 04:00 event through the gap, its 10 h count at the status
held, none as no traffic. b's 30 h is a silence: the window empties 24 h (and 1 ns) after 04:00
and stands empty 6 h less 1 ns (the silence line, unchanged). Under 7 d both gaps are shorter
than the window, both after the 7 d warm-up (it ends 2026-03-09 00:00): 10 h + 30 h of status
time in them. Under 1 h both are silences: a's window empties after 1 h (and 1 ns), 9 h of no
traffic; b's 29 h; no quiet gap.

Before, replay said only "Silences longer than the window (24 h): ..." and compare-windows nothing
about the 10 h and 40 h, and their tables had no column for them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

T0 = pd.Timestamp("2026-03-02", tz="UTC")
H = 3.6e12  # ns an hour


def _write(path) -> str:
    t = T0 + pd.to_timedelta(np.arange(10 * 144 + 1) * 10, unit="min")
    a = t[(t <= "2026-03-10 04:00Z") | (t >= "2026-03-10 14:00Z")]
    b = t[(t <= "2026-03-09 04:00Z") | (t >= "2026-03-10 10:00Z")]
    frame = pd.concat([pd.DataFrame({"ts": a, "g": "a"}), pd.DataFrame({"ts": b, "g": "b"})])
    frame = frame.sort_values("ts", kind="stable")
    frame["ts"] = frame["ts"].map(lambda x: x.strftime("%Y-%m-%dT%H:%M:%SZ"))
    frame["outcome"] = "ok"
    frame.to_csv(path, index=False)
    return str(path)


def _said(capsys) -> str:
    return " ".join(capsys.readouterr().out.split())


MEANING = ("the window still held earlier events, so that time counts at the status it held, on "
           "the window's clock, not as no traffic")


def test_replay_says_the_gap_shorter_than_the_window_beside_the_silence(tmp_path, capsys):
    from budgetlab.cli import main

    log = _write(tmp_path / "log.csv")
    assert main(["replay", log, "--by", "g", "--window", "24h", "--target", "0.99"]) == 0
    out = _said(capsys)
    assert ("Silences longer than the window (24 h): 1 in 1 group; the window stood empty for 6 h "
            "after it (g=b): that time counts as no traffic.") in out
    assert ("Gaps shorter than the window (24 h), of 1 h or more: 1 in 1 group, 10 h (g=a, "
            f"2026-03-10 04:00 .. 2026-03-10 14:00 UTC): {MEANING}.") in out
    # on the run's clock: Berlin is UTC+1 in March before the 29th
    assert main(["replay", log, "--by", "g", "--window", "24h", "--target", "0.99",
                 "--tz", "Europe/Berlin"]) == 0
    assert ("10 h (g=a, 2026-03-10 05:00 +01:00 .. 2026-03-10 15:00 +01:00 (Europe/Berlin))"
            in _said(capsys))


def test_replay_summary_counts_the_gaps_by_hand(tmp_path):
    from budgetlab import SLO, read_events, replay, replay_summary

    ev = read_events(_write(tmp_path / "log.csv"), by="g")
    s = replay_summary(replay(ev, SLO(target=0.99, window="24h"), by="g"), ev).set_index("g")
    assert s.loc["a", "quiet_gaps"] == 1 and s.loc["b", "quiet_gaps"] == 0  # b's is a silence
    assert s.loc["a", "quiet_gap_hours"] == s.loc["a", "longest_quiet_gap_hours"] == 10.0
    assert s.loc["a", "longest_quiet_gap_start"] == pd.Timestamp("2026-03-10 04:00Z")
    assert s.loc["a", "hours_no_traffic"] == 0.0  # the 10 h are status time
    assert s.loc["b", "silent_hours"] == pytest.approx(6 - 1 / H, abs=1e-12)


def test_compare_windows_says_the_gaps_per_window_not_under_1h(tmp_path, capsys):
    from budgetlab.cli import main

    log = _write(tmp_path / "log.csv")
    out_csv = tmp_path / "cw.csv"
    assert main(["compare-windows", log, "--by", "g", "--windows", "1h,24h,7d", "--target",
                 "0.99", "--out", str(out_csv)]) == 0
    out = _said(capsys)
    assert (f"Gaps shorter than the window, of 1 h or more (no silence: {MEANING}; "
            "hours_quiet_in_window in --out): 24 h: 1 in 1 group, the longest 10 h (g=a, "
            "2026-03-10 04:00 .. 2026-03-10 14:00 UTC); 10 h of its hours in them 7 d: 2 in 2 "
            "groups, the longest 30 h (g=b, 2026-03-09 04:00 .. 2026-03-10 10:00 UTC); 40 h of its "
            "hours in them") in out
    assert " 1 h: 1 in" not in out  # under 1 h both gaps are silences
    t = pd.read_csv(out_csv).set_index(["window", "g"])
    # 1 h: silences, no traffic from 1 h (and 1 ns) after the last event before the gap
    assert t.loc[("1h", "a"), "hours_no_traffic"] == pytest.approx(9 - 1 / H, abs=1e-9)
    assert t.loc[("1h", "b"), "hours_no_traffic"] == pytest.approx(29 - 1 / H, abs=1e-9)
    assert t.loc[("1h", "a"), "hours_quiet_in_window"] == 0
    assert t.loc[("1d", "a"), "hours_quiet_in_window"] == 10.0
    assert t.loc[("1d", "a"), "hours_no_traffic"] == 0.0
    assert t.loc[("1d", "b"), "hours_quiet_in_window"] == 0  # a silence under 24 h
    assert t.loc[("7d", "a"), "hours_quiet_in_window"] == 10.0
    assert t.loc[("7d", "b"), "hours_quiet_in_window"] == 30.0
    assert t.loc[("7d", "b"), "longest_quiet_gap_hours"] == 30.0
