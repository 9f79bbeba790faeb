"""Stop 60 re-check: notebook 02's window figure said "other (4 groups; fewer failures, then
events)" for 4 grey series of 2 groups (each at dwell 0 and 1 h). The legend counts groups, and
the series apart when a group is several series."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")


def _table() -> pd.DataFrame:
    """Groups g0 .. g4 (events 5000 .. 1000, most first), windows 1 h and 6 h, dwell 0 and 1 h:
    10 series (a group at a dwell time each), every row 300 h (none thin)."""
    groups = [f"g{i}" for i in range(5)]
    rows = [{"g": g, "window": w, "min_dwell": pd.Timedelta(d), "events": 5000 - 1000 * i,
             "hours": 300.0, "transitions_per_day": 1.0 + i, "share_exhausted": 0.0}
            for i, g in enumerate(groups) for d in ("0min", "1h") for w in ("1h", "6h")]
    t = pd.DataFrame(rows)
    t.attrs["by"] = ["g"]
    return t


def test_other_counts_the_groups_of_its_series():
    ax = plot_window_comparison(_table(), y2=None)
    legend = [x.get_text() for x in ax.get_legend().get_texts()]
    # by hand: 6 series keep colours (one fewer than the 7 colours, 10 series drawn): g0, g1,
    # g2 at both dwell times; grey: g3 and g4 at both, 4 series of 2 groups
    assert legend[:6] == [f"g{i} · dwell {d}" for i in range(3) for d in ("0", "1 h")]
    assert legend[6:] == ["other (2 groups, 4 series; fewer failures, then events)"]
    grey = [ln for ln in ax.lines if str(ln.get_gid()).endswith("/others")]
    assert len(grey) == 1 and np.count_nonzero(np.isfinite(grey[0].get_ydata())) == 8
