"""plot_window_comparison says what each detection or recovery mark is over: how many incidents,
and those counted apart (already at the alert status at start, missed, unseen, unrecovered).

The figure marked a median detection delay with no count (the NAB ec2 series at 24 h: a median of
1 where 1 incident began already CRITICAL and 1 was missed) and wrote only "none detected" where
2 began already at the alert status and 1 was missed.

Hand log (1 h window, target 0.9, one event a minute 00:00 .. 06:59, all successes but
01:00-01:29 and 04:00-04:29, which all fail); the statuses are worked out in
tests/analyses/test_window_already_at_alert.py:

* A, 01:15-01:30: the window holds 00:15 .. 01:14 in the instant before the start, 15 failures
  of 60 events, budget 6: EXHAUSTED, already at the alert status (CRITICAL or worse);
  recovered 54 min after the end.
* B, 04:00-04:30: HEALTHY before it, CRITICAL or worse from 04:05 on: detected in 5 min;
  recovered 54 min after the end.
* C, 06:00-06:10: the last failure (04:29) left the window at 05:29, so from then to the log's
  end (06:59) it holds only successes, HEALTHY: missed (nothing to recover from).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows
from budgetlab.plotting import plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")

DAY = pd.Timestamp("2026-01-01", tz="UTC")
SPANS = {"A": ("1h15min", "1h30min"), "B": ("4h", "4h30min"), "C": ("6h", "6h10min")}


def hand_log() -> pd.DataFrame:
    ts = pd.date_range(DAY, periods=7 * 60, freq="1min")
    minute = np.arange(len(ts))
    fail = ((60 <= minute) & (minute < 90)) | ((240 <= minute) & (minute < 270))
    return as_events(ts, ~fail)


def table(*which: str) -> pd.DataFrame:
    inc = pd.DataFrame({"incident_id": list(which), "scope": ["*"] * len(which),
                        "start": [DAY + pd.Timedelta(SPANS[w][0]) for w in which],
                        "end": [DAY + pd.Timedelta(SPANS[w][1]) for w in which]})
    return compare_windows(hand_log(), SLO(target=0.9), "1h", incidents=inc)


def texts(panel) -> dict[str, str]:
    return {str(t.get_gid()): " ".join(t.get_text().split()) for t in panel.texts}


def test_the_detection_mark_says_how_many_it_is_over_and_those_counted_apart():
    t = table("A", "B", "C")
    assert t[["detected", "already_at_alert", "missed"]].iloc[0].tolist() == [1, 1, 1]
    ax = plot_window_comparison(t)
    # the median of B's 5 min alone: A began already at the alert status, C was missed
    assert texts(ax.y2_ax)["counts:detection_median:1h"] == (
        "median of 1 (1 already CRITICAL or worse at start, 1 missed)")


def test_the_recovery_mark_says_how_many_it_is_over():
    ax = plot_window_comparison(table("A", "B", "C"), y2="recovery_median")
    # A and B recovered (54 min each); C, missed, had nothing to recover from
    assert texts(ax.y2_ax)["counts:recovery_median:1h"] == "median of 2 (1 missed)"


def test_none_detected_says_of_which_incidents():
    t = table("A", "C")
    assert pd.isna(t["detection_median"].iloc[0])
    ax = plot_window_comparison(t)
    said = texts(ax.y2_ax)
    assert said["no_time:detection_median:1h"] == (
        "none detected (1 already CRITICAL or worse at start, 1 missed)")
    assert not any(gid.startswith("counts:") for gid in said)  # no mark, no count by it


def test_a_few_series_are_counted_in_a_note_under_the_figure():
    # two groups with the same log: each row detected 1 (B), already 1 (A), missed 1 (C)
    ev = hand_log()
    both = pd.concat([ev.assign(kind="x"), ev.assign(kind="y")], ignore_index=True)
    both = as_events(both["ts"], both["ok"], groups={"kind": both["kind"].to_numpy()})
    inc = pd.DataFrame({"incident_id": list("ABC"), "scope": ["*"] * 3,
                        "start": [DAY + pd.Timedelta(SPANS[w][0]) for w in "ABC"],
                        "end": [DAY + pd.Timedelta(SPANS[w][1]) for w in "ABC"]})
    t = compare_windows(both, SLO(target=0.9), "1h", incidents=inc, by="kind")
    ax = plot_window_comparison(t)
    words = "median of 1 (1 already CRITICAL or worse at start, 1 missed)"
    # (texts() makes every space one, the figures' non-breaking ones too)
    assert texts(ax.y2_ax)["counts_label"] == (
        f"median detection delay, over: at 1 h x: {words}; at 1 h y: {words}")
