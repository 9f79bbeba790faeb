"""Thin groups said on the terminal: ``recalibrate --by`` counts the groups without a
recommendation by reason (an SRE's 19,000 of 20,000 sitekeys got none, and only the PNG footer
said it), and ``replay --by`` counts the groups whose final status, and the transitions, were read
from windows too thin for a verdict (one-event flips to EXHAUSTED, said nowhere).

Oracles: hand-made logs whose counts and statuses are worked out by hand below."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def _write(path, rows):
    pd.DataFrame(rows, columns=["ts", "g", "ok"]).assign(
        ts=lambda d: d["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")).sort_values(
        "ts", kind="stable").to_csv(path, index=False)
    return str(path)


def _said(text: str) -> str:
    return " ".join(text.split())


def test_recalibrate_counts_the_groups_without_a_recommendation(tmp_path, capsys):
    # window 1 h. "big": a success every minute for 2 days (2,880 events, one stretch: 47 h of
    # evaluated time after its 1 h warm-up, a recommendation). "few": events at 00:00, 00:40,
    # 01:20, 02:00, 02:40 (gaps under the window: one stretch; 00:00 and 00:40 in its warm-up):
    # 3 evaluated events, fewer than the 20 that hold 10 expected failures at 50 %. "warm": events
    # at 00:00 and 00:10, both in the warm-up: 0 evaluated events.
    rows = [(T0 + pd.Timedelta(minutes=m), "big", True) for m in range(2 * 24 * 60)]
    rows += [(T0 + pd.Timedelta(minutes=m), "few", True) for m in (0, 40, 80, 120, 160)]
    rows += [(T0 + pd.Timedelta(minutes=m), "warm", True) for m in (0, 10)]
    log = _write(tmp_path / "log.csv", rows)
    # --max-share 0.05: under 1 % the window's rule withholds big's recommendation (g63recal):
    # one failure in its 60-event window puts it at 98.33 %, EXHAUSTED under its capped 0.996
    # (1 - 10 / 2,820), for up to 1 h of its 47 h (2.1 % > 1 %)
    assert main(["recalibrate", log, "--ok", "ok", "--by", "g", "--window", "1h",
                 "--n-boot", "0", "--max-share", "0.05"]) == 0
    out = _said(capsys.readouterr().out)
    assert ("no recommendation for 2 of 3 groups: "
            "1 group: fewer than 20 events in the evaluated span (at 50 %, the lowest usual "
            "target, under 10 expected failures) "
            "1 group: 0 events in the evaluated span (all of the group's events fell within a "
            "warm-up, or before the span) "
            "each group's reason: the verdict_reason column of --out") in out


def _replay_log(tmp_path):
    # target 95 %, window 24 h: a window needs 200 events for 10 expected failures.
    # a: one failure. Final status EXHAUSTED on a window of 1 event; 1 transition
    #    (healthy -> exhausted at 1 event).
    # b: a failure, then 99 successes, a second apart: budget n x (1 - 0.95), one failure;
    #    EXHAUSTED to n = 19 (at 20 the budget is 20 x 0.05000000000000004 = 1.0000000000000009
    #    in floats, above the one failure: 9e-16 left), CRITICAL at 20-22 (remaining < 0.1),
    #    WARNING at 23-39 (< 0.5), HEALTHY from 40: 4 transitions, at 1, 20, 23 and 40 events;
    #    final HEALTHY on a window of 100 events.
    # c: 250 successes, then 50 failures: WARNING at 257 events (7 failures: 0.455 left),
    #    CRITICAL at 262 (12: 0.084), EXHAUSTED at 264 (14: -0.061): 3 transitions, every one on
    #    a window of 200 or more; final EXHAUSTED on 300 events.
    # Thin: a and b end on fewer than 200 events (1 of them EXHAUSTED, on a single event); 5 of
    # the 8 transitions (a's and b's) on fewer than 200.
    s = pd.Timedelta(seconds=1)
    rows = [(T0, "a", False)]
    rows += [(T0 + i * s, "b", i != 0) for i in range(100)]
    rows += [(T0 + i * s, "c", i < 250) for i in range(300)]
    return _write(tmp_path / "log.csv", rows)


def test_replay_counts_the_statuses_read_from_thin_windows(tmp_path, capsys):
    log, tr = _replay_log(tmp_path), tmp_path / "tr.csv"
    assert main(["replay", log, "--ok", "ok", "--by", "g", "--target", "0.95", "--window", "24h",
                 "--out", str(tr)]) == 0
    out = _said(capsys.readouterr().out)
    assert ("thin windows: 2 of 3 groups end on a status read from a window of fewer than 200 "
            "events (under 95 % it holds fewer than 10 expected failures: too few for a "
            "verdict), 1 of them EXHAUSTED, 1 on a single event; 5 of the 8 transitions "
            "came from such windows. The statuses are the seed tracker's, unchanged; "
            "--min-events 200 holds a group's status until its window holds that many.") in out
    # said, never changed: the transitions as worked out by hand
    got = pd.read_csv(tr)
    assert got.groupby("g")["total_events"].agg(list).to_dict() == {
        "a": [1], "b": [1, 20, 23, 40], "c": [257, 262, 264]}


def test_replay_says_nothing_when_min_events_holds_the_thin_windows(tmp_path, capsys):
    # --min-events 200: a's and b's windows never hold 200 events (held at HEALTHY); c's
    # transitions are on 257 events and more: no status rests on a thin window
    assert main(["replay", _replay_log(tmp_path), "--ok", "ok", "--by", "g", "--target", "0.95",
                 "--window", "24h", "--min-events", "200"]) == 0
    assert "thin windows" not in capsys.readouterr().out


def test_replay_counts_every_thin_end_on_a_single_event(tmp_path, capsys):
    # the log of _replay_log and "d": one success (HEALTHY, no transition, on a window of 1
    # event) and "e": one success (the same). Thin ends: a (1 event, EXHAUSTED), b (100), d (1),
    # e (1): 4 of 5 groups, 1 EXHAUSTED, 3 on a single event (a, d, e: of any status); the
    # transitions as before, 5 of the 8 (every one of them, whether listed or not).
    log = pd.read_csv(_replay_log(tmp_path))
    log = pd.concat([log, pd.DataFrame({"ts": ["2026-01-01T00:00:05Z"] * 2, "g": ["d", "e"],
                                        "ok": [True, True]})]).sort_values("ts", kind="stable")
    log.to_csv(tmp_path / "log5.csv", index=False)
    assert main(["replay", str(tmp_path / "log5.csv"), "--ok", "ok", "--by", "g", "--target",
                 "0.95", "--window", "24h"]) == 0
    out = _said(capsys.readouterr().out)
    assert ("thin windows: 4 of 5 groups end on a status read from a window of fewer than 200 "
            "events (under 95 % it holds fewer than 10 expected failures: too few for a "
            "verdict), 1 of them EXHAUSTED, 3 on a single event; 5 of the 8 transitions came "
            "from such windows.") in out


def test_replay_says_the_one_transition(tmp_path, capsys):
    # one group, one failure: EXHAUSTED on 1 event, its only transition on that window
    log = _write(tmp_path / "log.csv", [(T0, "a", False)])
    assert main(["replay", log, "--ok", "ok", "--by", "g", "--target", "0.95", "--window",
                 "24h"]) == 0
    out = _said(capsys.readouterr().out)
    assert ("1 of them EXHAUSTED, 1 on a single event; the one transition came from such a "
            "window.") in out


def test_per_group_targets_name_the_flag_and_each_groups_count(tmp_path, capsys):
    # per-group targets from --target (no --slo file): the advice names --min-events, never an
    # --slo file, with each target's count by hand: 10 expected failures need 10 / (1 - t)
    # events: a 0.95 -> 200, b 0.9 -> 100, c 0.98 -> 500
    assert main(["replay", _replay_log(tmp_path), "--ok", "ok", "--by", "g", "--target",
                 "a=0.95,b=0.9,c=0.98", "--window", "24h"]) == 0
    out = _said(capsys.readouterr().out)
    assert "--slo file" not in out
    assert ("--min-events N holds a group's status until its window holds N events (the counts "
            "each target needs: a 200, b 100, c 500).") in out


def test_the_table_separates_the_thousands_of_transitions(tmp_path, capsys, wide_terminal):
    # two failures, two successes, ... a minute apart under a 2-minute window: the status flips
    # at most events, well over 1,000 transitions (their number is --out's rows); the table's
    # cell spells it as the heading and the events column do, its thousands separated (s63tz)
    rows = [(T0 + pd.Timedelta(minutes=i), "a", i % 4 < 2) for i in range(4000)]
    log, tr = _write(tmp_path / "log.csv", rows), tmp_path / "tr.csv"
    assert main(["replay", log, "--ok", "ok", "--by", "g", "--target", "0.5", "--window", "2min",
                 "--out", str(tr)]) == 0
    out = capsys.readouterr().out
    n = len(pd.read_csv(tr))
    assert n >= 1000 and f" {n:,} " in out and f" {n} " not in out
