"""A group literally named ``other`` and the grey rest ("other (N groups)") in the two figures
that draw the grey groups as one artist: the window comparison and the recalibration figure.
The group's artists are ``<kind>:other``, the grey rest's ``<kind>/others``: in the saved SVG
each id names one element, and each artist holds its own values (tables built by hand)."""

from __future__ import annotations

import io
import re
from collections import Counter
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import plot_recalibration, plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")

#: 10 groups: ``other`` with the most events (it keeps a colour), g1 .. g9 fewer; 7 colours,
#: so the 6 with the most events keep theirs (other, g9 .. g5) and g1 .. g4 are grey.
NAMES = ["other", *(f"g{k}" for k in range(1, 10))]
EVENTS = [1000, *range(1, 10)]


def _svg_ids(ax) -> Counter[str]:
    buf = io.StringIO()
    ax.figure.savefig(buf, format="svg")
    return Counter(re.findall(r'<g id="([^"]+)"', buf.getvalue()))


def _gids(ax) -> list[str]:
    return [str(a.get_gid()) for a in [*ax.lines, *ax.collections]]


def test_a_group_named_other_and_the_grey_rest_have_their_own_ids_in_the_window_comparison():
    # group k (other: 0) has rate 10 k + 1 at 1 h and 10 k + 2 at 6 h, 100 h evaluated each
    k = np.repeat(np.arange(10), 2)
    t = pd.DataFrame({"g": np.repeat(NAMES, 2), "window": pd.Categorical(
        ["1h", "6h"] * 10, categories=["1h", "6h"]), "min_dwell": pd.Timedelta(0),
        "events": np.repeat(EVENTS, 2), "hours": 100.0,
        "transitions_per_day": 10.0 * k + np.tile([1.0, 2.0], 10), "share_exhausted": 0.0})
    t.attrs["by"] = ["g"]
    ax = plot_window_comparison(t, y2=None)
    ids = _svg_ids(ax)
    assert ids["transitions_per_day:other"] == 1 and ids["transitions_per_day/others"] == 1
    assert _gids(ax).count("transitions_per_day:other") == 1
    (own,) = [ln for ln in ax.lines if ln.get_gid() == "transitions_per_day:other"]
    (rest,) = [ln for ln in ax.lines if ln.get_gid() == "transitions_per_day/others"]
    assert own.get_ydata().tolist() == [1.0, 2.0]  # the group named other: k = 0
    assert rest.get_ydata().tolist() == [11.0, 12.0, 21.0, 22.0, 31.0, 32.0, 41.0, 42.0]
    legend = [x.get_text() for x in ax.get_legend().get_texts()]
    assert "other" in legend and "other (4 groups; fewer failures, then events)" in legend


def test_a_group_named_other_and_the_grey_rest_have_their_own_ids_in_the_recalibration():
    # group k: recommended target 90 % + k / 100 (other: 90 %), current 95 %, one level each
    k = np.arange(10)
    summary = pd.DataFrame({"key": NAMES, "events": EVENTS, "p50": 0.97,
                            "recommended_target": 0.90 + k / 1000, "recommended_low": 0.89,
                            "recommended_high": 0.91, "recommended_capped": False,
                            "current_target": 0.95})
    cand = pd.DataFrame({"key": NAMES, "target": 0.8, "share_exhausted": 0.005})
    dist = pd.DataFrame({"key": NAMES, "target": 0.85, "success_rate": 0.85,
                         "probability": 0.5})
    result = SimpleNamespace(summary=summary, candidates=cand, distribution=dist,
                             settings={"by": ["key"], "limit_status": "exhausted",
                                       "max_share": 0.01, "window": "1h", "n_boot": 0})
    ax = plot_recalibration(result, ax=plt.figure().gca())
    ids = _svg_ids(ax)
    for kind in ("distribution", "candidates", "recommended", "current"):
        assert ids[f"{kind}:other"] == 1, kind
        assert ids[f"{kind}/others"] == 1, kind
        assert _gids(ax).count(f"{kind}:other") == 1, kind
    (own,) = [ln for ln in ax.lines if ln.get_gid() == "recommended:other"]
    assert own.get_xdata()[0] == pytest.approx(90.0)
    (rest,) = [c for c in ax.collections if c.get_gid() == "recommended/others"]
    assert [s[0][0] for s in rest.get_segments()] == pytest.approx([90.1, 90.2, 90.3, 90.4])
