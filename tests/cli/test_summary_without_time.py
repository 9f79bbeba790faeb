"""A log observed for no time (one event: its first and last events at one instant): a status's
share of no time is 0/0, so no share is shown (blank cells, NaN in ``replay_summary`` and empty
in ``--summary-out``) and the words say no time was observed instead of a warm-up "up to 0 s"."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import SLO, read_events, replay, replay_summary
from budgetlab.cli import main

STATUSES = ("healthy", "warning", "critical", "exhausted", "no_traffic")


def test_shares_of_no_time_are_not_numbers(tmp_path):
    log = tmp_path / "one.csv"
    log.write_text("ts,outcome\n2026-01-01T00:00:00Z,ok\n")
    events = read_events(log)
    row = replay_summary(replay(events, SLO(target=0.95, window="24h")), events).iloc[0]
    assert all(row[f"hours_{s}"] == 0 for s in STATUSES)
    assert all(np.isnan(row[f"share_{s}"]) for s in STATUSES)


def test_the_printed_summary_leaves_the_shares_blank_and_says_why(tmp_path, capsys):
    log = tmp_path / "one.csv"
    log.write_text("ts,outcome\n2026-01-01T00:00:00Z,ok\n")
    out = tmp_path / "one_sum.csv"
    assert main(["replay", str(log), "--summary-out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "(0 %)" not in text and "up to 0 s" not in text
    assert "No time was observed: the log's first and last events are at one instant" in \
        " ".join(text.split())
    written = pd.read_csv(out)
    assert written[[f"share_{s}" for s in STATUSES]].isna().all().all()


def test_a_warm_up_cut_short_by_the_log_says_the_window(tmp_path, capsys):
    # 2 events 1 h apart under a 24 h window: all of the hour is warm-up, healthy (100 %)
    log = tmp_path / "two.csv"
    log.write_text("ts,outcome\n2026-01-01T00:00:00Z,ok\n2026-01-01T01:00:00Z,ok\n")
    assert main(["replay", str(log)]) == 0
    text = capsys.readouterr().out
    assert "60.0 min (100 %)" in text
    assert "(up to 1 h per group, the log ending before the 24 h window filled)" in \
        " ".join(text.split())
