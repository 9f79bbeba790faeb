"""A log's length (first to last event) is said in one spelling, length_words: all its units
down to the second, truncated (docs/conventions.md, *how time is counted*). Hand-computed."""

from __future__ import annotations

import pandas as pd

import budgetlab as bl


def test_the_replay_summary_says_the_logs_length_as_the_log_is_long():
    from budgetlab.cli.clock_text import summary_notes

    # 2026-01-01 00:00 to 2026-01-03 01:59:59.5: 2 d 1 h 59 min 59.5 s, truncated to the second
    ts = pd.to_datetime(["2026-01-01 00:00:00", "2026-01-03 01:59:59.5"], utc=True,
                        format="ISO8601")
    ev = bl.as_events(ts, [True, True])
    slo = bl.SLO(target=0.9, window="1h")
    notes = " ".join(" ".join(summary_notes(bl.replay_summary(bl.replay(ev, slo), ev),
                                            pd.Timedelta("1h"))).split())
    assert "(first to last event of the log, 2 d 1 h 59 min 59 s)" in notes


def test_the_latency_plot_note_says_the_logs_length_in_all_its_units():
    from budgetlab.cli.latency import one_period_note

    # 2 d 23 h 59 min: two units would say 2 d 23 h, a whole minute shorter than the log
    note = one_period_note("7D", pd.Timedelta("2D23h59min"))
    assert "(the log spans 2 d 23 h 59 min)" in note
