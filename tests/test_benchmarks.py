"""The benchmarks print no ``nan`` and score over a whole budget period.

A case that was not timed (skipped: a binary missing; refused by the library) has no seconds: the
table says "not timed" in words. ``bench_sre`` and ``bench_groups`` score with a 28-day budget
period; ``score_alerts`` withholds ``budget_before_alert_*`` (NaN, ``attrs["budget_note"]``) when
less than a period was read, so their data must span a whole 28 days: by hand, ``build_events``
generates 2026-10-05 .. 2026-11-01 and at the quick size (1 M events, ~0.4 a second) its 1-minute
bins run from 2026-10-05 00:00 to 2026-11-01 23:59 UTC, 28 x 1440 = 40,320 minutes.
"""

from __future__ import annotations

import pandas as pd

from benchmarks.harness import Result
from benchmarks.run import build_events, print_table
from budgetlab import AlertPolicy, alert_episodes, bin_events, score_alerts


def test_a_case_not_timed_prints_words_not_nan(capsys):
    print_table([Result("timed", 1_000, 0.5, "base", 0.25),
                 Result("skipped", 0, float("nan"), target="needs promtool (skipped)")])
    out = capsys.readouterr().out
    assert "nan" not in out.lower()
    skipped = next(line for line in out.splitlines() if line.strip().startswith("skipped"))
    assert "not timed" in skipped
    timed = next(line for line in out.splitlines() if line.strip().startswith("timed"))
    assert "0.500" in timed and "2,000" in timed and "2.00x" in timed


def test_the_sre_benchmarks_read_a_whole_28_day_period():
    events = build_events(1_000_000)
    bins = bin_events(events, "1min", by="group")
    assert bins["bin_start"].min() == pd.Timestamp("2026-10-05 00:00", tz="UTC")
    assert bins["bin_start"].max() == pd.Timestamp("2026-11-01 23:59", tz="UTC")
    assert bins["bin_start"].nunique() == 28 * 1440
    episodes = alert_episodes(bins, 0.95, AlertPolicy.workbook(period="28D"))
    incidents = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                              "start": [pd.Timestamp("2026-10-20", tz="UTC")],
                              "end": [pd.Timestamp("2026-10-20 01:00", tz="UTC")]})
    scores = score_alerts(episodes, incidents, bins=bins, target=0.95, period="28D")
    assert scores.attrs["budget_note"] == ""
