"""Figures of hundreds of groups (a stranger's 3,061 sitekeys; 400 synthetic groups here): the
recalibration figure keeps most of its height for the axes, its y label inside the axes' height
and the figure, and draws the grey groups as one artist per kind, whose vertices are the tables'
own; the window comparison's note on the groups not drawn lies over no mark. Measured on the
drawn figure (``get_window_extent`` after ``fig.canvas.draw()``)."""

from __future__ import annotations

from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import plot_recalibration, plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")

N = 400


def many_groups(n: int = N) -> SimpleNamespace:
    """``n`` groups, each with a curve of 3 levels (1 %, 50 %, 100 % from 80 % up), 2 candidates
    left of the levels, at 70 % and 75 % (one below the log floor, one at 0.5 %), a
    recommendation capped in every 10th group, a current target of 95 %, and the evidence of
    every 5th withheld (no p50)."""
    names = [f"sitekey-{i:04d}" for i in range(n)]
    k = np.arange(n)
    summary = pd.DataFrame({
        "key": names, "events": 1000 + k, "p50": np.where(k % 5 == 4, np.nan, 0.97),
        "recommended_target": 0.90 + 0.0002 * k, "recommended_low": 0.89,
        "recommended_high": 0.91, "recommended_capped": k % 10 == 0, "current_target": 0.95})
    cand = pd.DataFrame({"key": np.repeat(names, 2), "target": np.tile([0.7, 0.75], n),
                         "share_exhausted": np.tile([1e-9, 0.005], n)})
    rate = 0.8 + 0.0004 * np.repeat(k, 3) + np.tile([0.0, 0.05, 0.1], n)
    dist = pd.DataFrame({"key": np.repeat(names, 3), "target": rate, "success_rate": rate,
                         "probability": np.tile([0.01, 0.5, 1.0], n)})
    return SimpleNamespace(summary=summary, candidates=cand, distribution=dist,
                           settings={"by": ["key"], "limit_status": "exhausted",
                                     "max_share": 0.01, "window": "1h", "n_boot": 0})


def drawn(ax):
    fig = ax.figure
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def test_many_groups_leave_the_axes_most_of_the_height_and_the_y_label_whole():
    """The legend was one column of 12 entries (one entry of 80 characters set its width) over
    60 % of the figure, the axes a sixth of it, the y label longer than the axes and cut at the
    figure's edge. On a default figure, saved plainly: the axes keep two fifths of the height
    at least (half of it in the stranger's figure: longer names take 2 columns here), the
    legend's box is above them and inside the figure, in columns, and the y label is no taller
    than the axes and inside the figure."""
    fig = plt.figure()  # 6.4 x 4.8 in, no layout engine: a plain savefig
    ax = plot_recalibration(many_groups(), ax=fig.gca())
    r = drawn(ax)
    axes, legend, label = (ax.get_window_extent(r), ax.get_legend().get_window_extent(r),
                           ax.yaxis.label.get_window_extent(r))
    assert axes.height > 0.38 * fig.bbox.height
    assert legend.y0 >= axes.y1 and legend.y1 <= fig.bbox.y1
    assert ax.get_legend()._ncols >= 2
    assert label.height <= axes.height
    assert label.x0 >= fig.bbox.x0 and label.y0 >= fig.bbox.y0 and label.y1 <= fig.bbox.y1


def test_the_grey_groups_are_one_artist_per_kind_holding_the_tables_values():
    """Every grey group's step line in one collection (its vertices the table's levels, held
    to the next target), their candidates in one line, their recommended and current targets
    as vertical lines: a handful of artists, not a few per group."""
    result = many_groups()
    ax = plot_recalibration(result, ax=plt.figure().gca())
    assert len(ax.lines) + len(ax.collections) + len(ax.patches) < 60
    (curves,) = [c for c in ax.collections if c.get_gid() == "distribution/others"]
    shown = result.summary["p50"].notna().to_numpy()
    coloured = {str(ln.get_gid()).split(":")[1] for ln in ax.lines
                if str(ln.get_gid()).startswith("distribution:")}
    grey = [g for g, s in zip(result.summary["key"], shown, strict=True)
            if s and g not in coloured]
    assert len(coloured) == 6 and len(curves.get_segments()) == len(grey)
    d = result.distribution.set_index("key")
    for g, seg in zip(grey, curves.get_segments(), strict=True):
        x, y = d.loc[g, "target"].to_numpy() * 100, d.loc[g, "probability"].to_numpy() * 100
        # the candidates' points first (70 %: 1e-9, drawn on the 1e-4 % floor; 75 %: 0.5 %),
        # then the levels; steps-post by hand, each y held to the next x
        want = [(70, 1e-4), (75, 1e-4), (75, 0.5), (x[0], 0.5), (x[0], y[0]), (x[1], y[0]),
                (x[1], y[1]), (x[2], y[1]), (x[2], y[2])]
        np.testing.assert_allclose(seg, want)
    (rec,) = [c for c in ax.collections if c.get_gid() == "recommended/others"]
    rows = result.summary.set_index("key").loc[grey]
    np.testing.assert_allclose([s[0][0] for s in rec.get_segments()],
                               rows["recommended_target"].to_numpy() * 100)
    dots = next(ln for ln in ax.lines if ln.get_gid() == "candidates/others")
    np.testing.assert_allclose(dots.get_ydata(), [0.5] * len(grey))  # 0.005; 1e-9: below
    floor = next(ln for ln in ax.lines if ln.get_gid() == "below_floor/others")
    assert floor.get_ydata().tolist() == [1e-4] * len(grey)


def test_the_window_comparison_note_on_thin_groups_covers_no_mark():
    """400 groups at 1 h and 24 h, every third with under 24 h evaluated at 1 h: their marks
    are not drawn there, the others' are. The words on them ("k of n not drawn") sat in the
    panel over the grey marks; now their box overlaps no drawn mark in either panel."""
    n = N
    names = [f"g{i:03d}" for i in range(n)]
    thin = np.tile([True, False], n) & (np.repeat(np.arange(n), 2) % 3 == 0)
    table = pd.DataFrame({
        "g": np.repeat(names, 2), "window": pd.Categorical(np.tile(["1h", "24h"], n)),
        "min_dwell": pd.Timedelta(0), "events": np.repeat(np.arange(n) + 100, 2),
        "hours": np.where(thin, 10.0, 600.0),
        "transitions_per_day": np.linspace(0, 50, 2 * n),
        "share_exhausted": np.linspace(0, 0.6, 2 * n)})
    table.attrs["by"] = ["g"]
    fig = plt.figure()
    ax = plot_window_comparison(table, ax=fig.gca())
    r = drawn(ax)
    (note,) = [t for p in (ax, ax.y2_ax) for t in p.texts
               if str(t.get_gid()).startswith("thin_label")]
    box = note.get_window_extent(r)
    assert " ".join(note.get_text().split()) == (
        "not drawn (too thin for a verdict: under 24 h evaluated, no event in it, or under 10 "
        "expected failures): 134 of 400 at 1 h")
    for panel in (ax, ax.y2_ax):
        for line in panel.lines:
            xy = line.get_transform().transform(
                np.column_stack([line.get_xdata(), line.get_ydata()]).astype(float))
            xy = xy[np.isfinite(xy).all(axis=1)]
            inside = ((xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1)
                      & (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1))
            assert not inside.any(), line.get_gid()
    assert box.y0 >= fig.bbox.y0 and box.x1 <= fig.bbox.x1
