"""Stop 60: the compare-windows figure's note on the rows not drawn ran to the figure's right
edge and broke "at 24" from "h" ("19,000 of 20,000 at 24" / "h; ..."). A figure keeps its unit
on its line at every figure width."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from budgetlab.plotting import plot_window_comparison

WINDOWS = ["1h", "6h", "1d", "7d"]


def _table() -> pd.DataFrame:
    """Groups g0 .. g4 under 1 h, 6 h, 24 h and 7 d; g1 .. g4 with 2 h of evaluated time at
    every window (thin: not drawn), g0 with 300 h."""
    g = [f"g{i}" for i in range(5)]
    t = pd.DataFrame({"g": np.tile(g, 4), "window": np.repeat(WINDOWS, 5),
                      "min_dwell": pd.Timedelta(0), "events": 500,
                      "hours": np.tile([300.0, 2.0, 2.0, 2.0, 2.0], 4),
                      "transitions_per_day": 1.0, "share_exhausted": 0.1})
    t.attrs["by"] = ["g"]
    return t


def test_the_thin_note_never_breaks_a_figure_from_its_unit():
    # by hand: at each window 4 of the 5 groups are thin, named as "4 of 5 at <window>"
    broken = re.compile(r"\d\n(h|d|min)\b")
    widths = np.arange(3.0, 9.01, 0.5)
    for width in widths:
        fig = plt.figure(figsize=(width, 4))
        ax = plot_window_comparison(_table(), ax=fig.gca())
        (note,) = [t for t in ax.y2_ax.texts if t.get_gid() == "thin_label"]
        assert " ".join(note.get_text().split()) == (
            "not drawn (too thin for a verdict: under 24 h evaluated, no event in it, or under "
            "10 expected failures): 4 of 5 at 1 h; 4 of 5 at 6 h; 4 of 5 at 24 h; 4 of 5 at 7 d")
        fig.canvas.draw()
        wrapped = note._get_wrapped_text()
        assert "\n" in wrapped or width > 8  # wrapped on the narrow figures
        assert not broken.search(wrapped), (width, wrapped)
        plt.close(fig)
