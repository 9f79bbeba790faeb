"""plot_window_comparison says why a detection or recovery time is missing (NaT: a gap in its
line) at its window: none detected, unseen (no traffic), no incident, none recovered. Tables
built by hand; the reasons are written out in each test from the rows' counts."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.plotting import plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")


def table(**incident_columns) -> pd.DataFrame:
    """A compare_windows table by hand: GET and POST, windows 1 h, 6 h and 24 h (rows GET 1 h,
    6 h, 24 h, then POST's), 100 evaluated hours each, plus ``incident_columns``."""
    t = pd.DataFrame({"method": ["GET"] * 3 + ["POST"] * 3, "window": ["1h", "6h", "24h"] * 2,
                      "min_dwell": pd.Timedelta(0), "hours": 100.0,
                      "transitions_per_day": [6.0, 2.0, 0.5, 4.0, 1.0, 0.2],
                      "share_exhausted": 0.0, **incident_columns})
    t.attrs["by"] = ["method"]
    return t


def said(ax) -> dict[str, str]:
    """The words of each no_time mark on both panels, by gid, whitespace made single."""
    return {str(t.get_gid()): " ".join(t.get_text().split())
            for p in (ax, ax.y2_ax) for t in p.texts
            if str(t.get_gid()).startswith("no_time:")}


def minutes(*values):
    return pd.to_timedelta([None if v is None else f"{v}min" for v in values])


def test_each_missing_detection_median_says_why_naming_the_series():
    t = table(incidents=[2, 2, 2, 0, 2, 2], detected=[2, 0, 2, 0, 0, 1],
              missed=[0, 2, 0, 0, 0, 1], unseen=[0, 0, 0, 0, 2, 0],
              detection_median=minutes(5, None, 30, None, None, 40))
    ax = plot_window_comparison(t)
    # by hand: GET 6 h detected none of 2 (2 missed); POST 1 h had no incident; POST 6 h: both
    # incidents unseen (no traffic). 24 h: both have a median, nothing to say
    assert said(ax) == {"no_time:detection_median:1h": "POST: no incident",
                        "no_time:detection_median:6h":
                            "GET: none detected POST: unseen (no traffic)"}
    # the gaps stay gaps: no point drawn where the words are
    (get,) = [ln for ln in ax.y2_ax.lines if ln.get_gid() == "detection_median:GET"]
    assert pd.isna(get.get_ydata()[1])


def test_words_alone_when_every_series_lacks_the_time():
    t = table(incidents=[2] * 6, detected=[2, 0, 2, 2, 0, 2], missed=[0, 2, 0, 0, 2, 0],
              detection_median=minutes(5, None, 30, 3, None, 40))
    assert said(plot_window_comparison(t)) == {"no_time:detection_median:6h": "none detected"}


def test_without_the_counts_a_missing_detection_reads_none_detected():
    # the table's own NaT rule ("NaT if none detected"), no incidents/detected/missed columns
    t = table(detection_median=minutes(5, 7, None, 3, 4, 6))
    assert said(plot_window_comparison(t)) == {
        "no_time:detection_median:24h": "GET: none detected"}


def test_recovery_time_missing_because_none_recovered():
    # GET 1 h: 2 detected, neither recovered when the log ends; POST 1 h: none detected
    t = table(incidents=[2] * 6, detected=[2, 2, 2, 0, 2, 2], missed=[0, 0, 0, 2, 0, 0],
              recovery_median=minutes(None, 10, 20, None, 30, 40))
    ax = plot_window_comparison(t, y2="recovery_median")
    # in the order of REASONS: none detected first
    assert said(ax) == {"no_time:recovery_median:1h": "POST: none detected GET: none recovered"}


def test_nothing_said_when_every_time_is_there_or_the_column_is_not_a_time():
    t = table(incidents=[2] * 6, detected=[2] * 6, missed=[0] * 6,
              detection_median=minutes(5, 6, 7, 8, 9, 10))
    assert said(plot_window_comparison(t)) == {}
    # share_exhausted below: not a detection or recovery time, nothing to say
    t = table(detection_median=minutes(None, None, None, None, None, None))
    assert said(plot_window_comparison(t, y2="share_exhausted")) == {}
