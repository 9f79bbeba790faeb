"""styled_table shows a notebook's table as the sentences say its figures (stop 57: notebooks 01
and 02 showed ``0 days 00:17:00`` and ``share_exhausted 0.1411`` beside ``target 97.5 %``).
Expected cells by hand."""

from __future__ import annotations

import pandas as pd

from budgetlab.analyses.table_style import styled_table


def _cells(styler) -> list[list[str]]:
    text = styler.hide(axis="index").to_string(delimiter="|")
    return [line.split("|") for line in text.splitlines()]


def test_targets_shares_and_durations_in_their_units():
    t = pd.DataFrame({"window": ["1h", "1d"], "target": [0.975, 0.99],
                      "share_exhausted": [0.1411, 0.0], "recall": [2 / 3, 0.99999],
                      "detection_median": pd.to_timedelta(["17min", "23h42min10s"]),
                      "min_dwell": pd.to_timedelta(["0s", "1h"]), "hours": [275.9556, 1.0]})
    got = _cells(styled_table(t, targets=["target"], shares=["share_exhausted", "recall"],
                              durations=["detection_median", "min_dwell"]))
    assert got == [["window", "target", "share_exhausted", "recall", "detection_median",
                    "min_dwell", "hours"],
                   ["1h", "97.5 %", "14.11 %", "66.67 %", "17 min", "0 s", "275.9556"],
                   # 0.99999 never reads 100.00 %; 23 h 42 min 10 s truncated to two units
                   ["1d", "99 %", "0.00 %", "99.999 %", "23 h 42 min", "1 h", "1.0000"]]


def test_missing_figures_and_absent_columns():
    t = pd.DataFrame({"policy": ["a"], "precision": [float("nan")],
                      "detection_median": [pd.NaT]})
    got = _cells(styled_table(t, shares=["precision", "recall"],  # no recall column: passed over
                              durations=["detection_median", "recovery_median"], na_rep="none"))
    assert got == [["policy", "precision", "detection_median"], ["a", "none", "none"]]
