"""Stop 60: the score table cut ``reset_median`` 1h58m30s (as ``scores.csv`` holds it) to
``1 h 58 min`` while ``12 min 30 s`` kept its seconds: two units only. A median is printed down
to its seconds now. Oracle: the stranger's hand figures (two resets of 1 h 58 min and 1 h 59 min:
median 1 h 58 min 30 s), spelt by hand."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli.score_text import print_score_notes


def test_a_median_keeps_its_seconds(capsys):
    rows = pd.DataFrame({"tier": ["page_1h"], "severity": ["page"], "episodes": [2],
                         "precision": [1.0], "incidents": [2], "detected": [2], "recall": [1.0],
                         "detection_median": [pd.Timedelta("12min30s")],
                         "reset_median": [(pd.Timedelta("1h58min") + pd.Timedelta("1h59min")) / 2],
                         "alerts_per_day": [1.0], "observed_days": [2.0], "episodes_filling": [0],
                         "incidents_filling": [0]})
    episodes = pd.DataFrame({"tier": ["page_1h"] * 2})
    episodes.attrs.update(grid_start="2026-01-05T00:00:00+00:00",
                          grid_end="2026-01-07T00:00:00+00:00")
    print_score_notes(rows, episodes, 2, [], what="span")
    text = " ".join(capsys.readouterr().out.split())
    assert "12 min 30 s" in text
    assert "1 h 58 min 30 s" in text
