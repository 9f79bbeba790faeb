"""Stop 60 re-check: the compare-windows figure's note said "not drawn (too thin for a verdict
...): ... 3 of 5 at 7 d", thin15 among them, of the whole figure, yet the detection panel drew
thin15's detection mark there (0 min): a detection time is no figure a thin row withholds (the
CLI prints it too). The note now names the panel whose marks it leaves out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")

WHY = "too thin for a verdict: under 24 h evaluated, no event in it, or under 10 expected failures"


def _table(**more) -> pd.DataFrame:
    """Groups big (5000 events, 300 h) and thin (15 events, 0.3 expected failures at 98 %: too
    thin for a verdict) under 24 h and 7 d; each detected its incident (big in 20 and 30 min,
    thin in 0 min)."""
    t = pd.DataFrame({"g": ["big", "thin"] * 2, "window": ["1d", "1d", "7d", "7d"],
                      "min_dwell": pd.Timedelta(0), "events": [5000, 15] * 2,
                      "expected_failures": [100.0, 0.3] * 2, "hours": 300.0,
                      "transitions_per_day": [2.0, 9.0, 0.5, 3.0], "share_exhausted": 0.1,
                      "incidents": 1, "detected": 1, "missed": 0, "unseen": 0,
                      "detection_median": pd.to_timedelta(["20min", "0min", "30min", "0min"]),
                      **more})
    t.attrs["by"] = ["g"]
    return t


def _note(ax) -> str:
    (note,) = [t for t in ax.y2_ax.texts if t.get_gid() == "thin_label"]
    return " ".join(note.get_text().split())


def test_the_note_names_the_panel_a_thin_row_is_not_drawn_in():
    ax = plot_window_comparison(_table())
    upper = {str(ln.get_gid()): np.asarray(ln.get_ydata(), dtype=float) for ln in ax.lines}
    lower = {str(ln.get_gid()): np.asarray(ln.get_ydata(), dtype=float) for ln in ax.y2_ax.lines}
    # by hand: thin's rates (9 and 3 a day) are withheld; its detections (0 min) are drawn, so
    # the note says of the top panel alone that thin is not drawn
    assert np.isnan(upper.get("transitions_per_day:thin", np.array([np.nan, np.nan]))).all()
    np.testing.assert_array_equal(lower["detection_median:thin"], [0.0, 0.0])
    assert _note(ax) == (f"status changes per day (flapping), not drawn ({WHY}): thin at 24 h; "
                         "thin at 7 d")


def test_the_note_names_no_panel_when_both_leave_the_row_out():
    # share_exhausted below: a figure thin rows withhold in both panels, one note for both
    ax = plot_window_comparison(_table(), y2="share_exhausted")
    assert _note(ax) == f"not drawn ({WHY}): thin at 24 h; thin at 7 d"
