"""recalibrate --plot: a recommended target several groups share was one line in the colour of
the group drawn last, while the legend implied one line per group. It is striped in every
sharing group's colour now, and keyed once with the groups it stands for (through the artists:
no pixels); so is a current target several groups share, its stripes dashed, keyed by the
current target's own entry."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import as_events, recalibrate  # noqa: E402
from budgetlab.plotting import plot_recalibration  # noqa: E402


def recal_events():
    # four days, one event a minute per group: a, b and c the very same stream (every 50th
    # event fails), d every 20th; identical streams have identical recommendations
    ts = pd.date_range("2026-01-01", periods=4 * 1440, freq="1min", tz="UTC")
    i = np.arange(len(ts))
    parts = [pd.DataFrame({"ts": ts, "ok": i % every != 0, "g": g})
             for g, every in (("a", 50), ("b", 50), ("c", 50), ("d", 20))]
    table = pd.concat(parts, ignore_index=True).sort_values("ts", kind="stable")
    return as_events(table["ts"], table["ok"], groups={"g": table["g"]})


@pytest.fixture(scope="module")
def recal():
    return recalibrate(recal_events(), by="g", window="1h", n_boot=0, show_progress=False)


def test_a_shared_recommended_target_shows_every_group_s_colour(recal):
    rec = recal.summary.set_index("g")["recommended_target"]
    assert rec["a"] == rec["b"] == rec["c"] != rec["d"]  # the premise, from identical streams
    fig, ax = plt.subplots()
    plot_recalibration(recal, ax=ax)
    lines = {g: next(ln for ln in ax.lines if ln.get_gid() == f"recommended:{g}")
             for g in "abcd"}
    shared = [lines[g] for g in "abc"]
    assert all(list(ln.get_xdata()) == [rec["a"] * 100] * 2 for ln in shared)
    # each drawn in its own colour, dashed on one part in three, offset by its place: together
    # the line shows the three colours in turn (before: three solid lines, the last on top)
    assert len({ln.get_color() for ln in shared}) == 3
    dashes = [ln.get_linestyle() for ln in shared]
    assert all(d == "--" for d in dashes)
    # matplotlib has no public getter: (offset, (on, off)) in points, scaled by the line width
    patterns = [ln._dash_pattern for ln in shared]
    np.testing.assert_allclose(sorted(p[0] for p in patterns), [0.0, 6.0, 12.0])
    np.testing.assert_allclose([p[1] for p in patterns], [[6.0, 12.0]] * 3)
    assert lines["d"].get_linestyle() == "-"  # a target of its own: solid, as before
    # keyed once, naming the three groups
    texts = [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()]
    key = [t for t in texts if "striped" in t]
    assert len(key) == 1 and key[0].endswith("3 groups: a, b, c")
    assert f"recommended {rec['a'] * 100:g}%" in key[0]
    plt.close(fig)


def test_a_shared_current_target_shows_every_group_s_colour():
    # one current target for the four groups: before, four dashed lines one over the other, the
    # last one's colour alone showing
    fig, ax = plt.subplots()
    plot_recalibration(recalibrate(recal_events(), by="g", window="1h", target=0.97, n_boot=0,
                                   show_progress=False), ax=ax)
    current = [next(ln for ln in ax.lines if ln.get_gid() == f"current:{g}") for g in "abcd"]
    assert all(list(ln.get_xdata()) == [97.0, 97.0] for ln in current)
    assert len({ln.get_color() for ln in current}) == 4
    # dashed still (a stripe of 6 points, then a gap of 3): each group's stripe one slot of 9
    # points in a period of 4 x 9 = 36, offset by its place (lw 1.0: points as drawn)
    patterns = [ln._dash_pattern for ln in current]
    np.testing.assert_allclose(sorted(p[0] for p in patterns), [0.0, 9.0, 18.0, 27.0])
    np.testing.assert_allclose([p[1] for p in patterns], [[6.0, 30.0]] * 4)
    # keyed once, by the current target's own entry (the colours are the groups' entries)
    texts = [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()]
    assert [t for t in texts if "current" in t] == ["current target"]
    plt.close(fig)
