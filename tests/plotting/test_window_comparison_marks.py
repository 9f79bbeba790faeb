"""plot_window_comparison's marks: a legend only for the groups it draws (the others named as
having nothing to draw), markers that stay apart where two groups share a value, and a log axis
that still shows a zero. Tested through the artists (data read back), tables built by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import plot_window_comparison

pytestmark = pytest.mark.usefixtures("close_figures")


def _table(values: dict[str, list[float]], hours: dict[str, list[float]]) -> pd.DataFrame:
    """A compare_windows table by hand: windows 1 h and 6 h, one row per group and window."""
    groups = list(values)
    t = pd.DataFrame({"method": np.repeat(groups, 2), "window": ["1h", "6h"] * len(groups),
                      "min_dwell": pd.Timedelta(0),
                      "transitions_per_day": np.concatenate([values[g] for g in groups]),
                      "share_exhausted": 0.0,
                      "hours": np.concatenate([hours[g] for g in groups])})
    t.attrs["by"] = ["method"]
    return t


def _line(ax, gid):
    (line,) = [ln for ln in ax.lines if ln.get_gid() == gid]
    return line


def test_legend_lists_only_drawn_groups_and_names_the_others():
    # OPTIONS and POST have under 24 h of evaluated time in every row: their rates are withheld,
    # nothing of theirs is drawn; GET and HEAD have 100 h (drawn)
    t = _table({"GET": [0.0, 2.0], "HEAD": [0.0, 2.0], "OPTIONS": [24.0, 24.0],
                "POST": [5.0, 5.0]},
               {"GET": [100.0, 100.0], "HEAD": [100.0, 100.0], "OPTIONS": [1.0, 0.0],
                "POST": [3.0, 7.0]})
    ax = plot_window_comparison(t)
    legend = [x.get_text() for x in ax.get_legend().get_texts()]
    # no window withholds every group: no hatched band, so no key for one (words name them)
    assert legend == ["GET", "HEAD", "nothing to draw: OPTIONS, POST"]
    # the drawn values are the table's; the withheld groups have no marks (no artist at all)
    np.testing.assert_array_equal(_line(ax, "transitions_per_day:GET").get_ydata(), [0.0, 2.0])
    np.testing.assert_array_equal(_line(ax, "transitions_per_day:HEAD").get_ydata(), [0.0, 2.0])
    assert sorted(ln.get_gid() for p in (ax, ax.y2_ax) for ln in p.lines) == [
        "share_exhausted:GET", "share_exhausted:HEAD", "transitions_per_day:GET",
        "transitions_per_day:HEAD"]


def test_groups_sharing_a_value_keep_both_markers_in_sight():
    # GET and HEAD hold the same values at both windows: the points coincide
    t = _table({"GET": [1.0, 3.0], "HEAD": [1.0, 3.0]}, {"GET": [50.0] * 2, "HEAD": [50.0] * 2})
    ax = plot_window_comparison(t, y2=None)
    get, head = _line(ax, "transitions_per_day:GET"), _line(ax, "transitions_per_day:HEAD")
    np.testing.assert_array_equal(get.get_ydata(), head.get_ydata())
    # hollow markers of different shapes and sizes: the later one cannot cover the first
    assert get.get_markerfacecolor() == head.get_markerfacecolor() == "none"
    assert get.get_marker() != head.get_marker()
    assert get.get_markersize() > head.get_markersize()
    assert get.get_color() != head.get_color()
    # the legend shows each group's marker
    handles = ax.get_legend().legend_handles
    assert [h.get_marker() for h in handles] == [get.get_marker(), head.get_marker()]


def test_other_groups_count_only_the_drawn_ones():
    # 10 groups drawn plus 2 with nothing to draw: 6 keep their colours (one fewer than the 7
    # distinct ones), "other" counts the 4 drawn grey ones, never the 2 empty ones
    names = [f"g{i}" for i in range(12)]
    t = _table({g: [1.0, 2.0] for g in names},
               {g: ([100.0, 100.0] if i < 10 else [1.0, 1.0]) for i, g in enumerate(names)})
    ax = plot_window_comparison(t, y2=None)
    legend = [x.get_text() for x in ax.get_legend().get_texts()]
    assert legend == [*names[:6], "other (4 groups; fewer failures, then events)",
                      "nothing to draw: g10, g11"]


def test_log_axis_draws_zeros_and_writes_plain_ticks():
    t = _table({"a": [0.0, 240.0], "b": [0.3, 0.0]}, {"a": [100.0] * 2, "b": [100.0] * 2})
    ax = plot_window_comparison(t, y2=None, logy=True)
    # the zeros are drawn (a value on the line, inside the axes' view), not dropped by a log axis
    np.testing.assert_array_equal(_line(ax, "transitions_per_day:a").get_ydata(), [0.0, 240.0])
    np.testing.assert_array_equal(_line(ax, "transitions_per_day:b").get_ydata(), [0.3, 0.0])
    lo, hi = ax.get_ylim()
    assert lo < 0.0 and hi > 240.0
    # linear up to the decade of the smallest value above zero (0.3 -> 0.1), log above it
    assert ax.get_yscale() == "symlog"
    assert ax.yaxis.get_transform().linthresh == pytest.approx(0.1)
    y0 = ax.transData.transform([(0.0, 0.0)])[0, 1]
    box = ax.get_window_extent()
    assert box.y0 < y0 < box.y1
    ax.figure.canvas.draw()
    ticks = [x.get_text() for x in ax.get_yticklabels()]
    assert ticks == ["0", "0.1", "1", "10", "100"]
    assert "log scale above 0.1" in " ".join(ax.get_ylabel().split())


def test_a_window_without_a_row_of_a_series_has_no_mark_and_the_legend_says_why():
    """A table filtered by hand: windows 1 h, 6 h, 24 h (the column's categories), GET's 6 h row
    taken out. GET has marks at 1 h and 24 h only (its line joined them across the 6 h tick,
    reading 3 flaps a day there); the legend says why no mark; with every row there, no words."""
    from budgetlab.plotting.window_comparison import NO_ROW

    t = pd.DataFrame({"method": ["GET", "GET", "HEAD", "HEAD", "HEAD"],
                      "window": pd.Categorical(["1h", "24h", "1h", "6h", "24h"],
                                               categories=["1h", "6h", "24h"]),
                      "min_dwell": pd.Timedelta(0),
                      "transitions_per_day": [4.0, 2.0, 1.0, 8.0, 0.5],
                      "share_exhausted": 0.0, "hours": 100.0})
    t.attrs["by"] = ["method"]
    ax = plot_window_comparison(t, y2=None)
    get, head = _line(ax, "transitions_per_day:GET"), _line(ax, "transitions_per_day:HEAD")
    assert get.get_xdata().tolist() == [0.0, 2.0] and get.get_ydata().tolist() == [4.0, 2.0]
    assert head.get_xdata().tolist() == [0.0, 1.0, 2.0]
    assert head.get_ydata().tolist() == [1.0, 8.0, 0.5]
    assert [x.get_text() for x in ax.get_legend().get_texts()] == ["GET", "HEAD", NO_ROW]
    whole = t[t["method"] == "HEAD"]
    ax = plot_window_comparison(whole, y2=None)
    assert NO_ROW not in [x.get_text() for x in ax.get_legend().get_texts()]


def test_windows_are_categories_marks_never_joined_by_a_line():
    """1 h, 6 h and 24 h are categories, not points on a continuous axis: a line from one to the
    next drew rates between them that no window has. Every series on both panels, and its legend
    entry, is marks only (line style "None")."""
    t = _table({"GET": [1.0, 3.0], "HEAD": [2.0, 0.0]}, {"GET": [50.0] * 2, "HEAD": [50.0] * 2})
    ax = plot_window_comparison(t)
    drawn = [ln for ln in (*ax.lines, *ax.y2_ax.lines) if ":" in str(ln.get_gid())]
    assert len(drawn) == 4 and {ln.get_linestyle() for ln in drawn} == {"None"}
    assert {h.get_linestyle() for h in ax.get_legend().legend_handles} == {"None"}


@pytest.mark.parametrize("size", [(8, 5), (5, 3.5)])
def test_the_x_labels_span_lines_stay_inside_a_plain_figure(size):
    """The x label's second line (the span counted, from attrs) ran off the bottom (and, on a
    small figure, off both sides) of a plain ``plt.subplots()`` figure: both lines lie whole
    inside the figure, below the lower panel."""
    import matplotlib.pyplot as plt

    t = _table({"GET": [3.0, 1.0]}, {"GET": [48.0, 48.0]})
    t.attrs.update(start="2026-10-05T00:00:00+00:00", end="2026-10-10T23:59:00+00:00", tz="UTC")
    fig, ax = plt.subplots(figsize=size)
    plot_window_comparison(t, ax=ax)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    label = ax.y2_ax.xaxis.label
    assert "each window over the time it held traffic" in label.get_text()
    box, frame = label.get_window_extent(r), fig.bbox
    assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0
    assert box.y1 <= ax.y2_ax.get_window_extent(r).y0


@pytest.mark.parametrize("layout", [None, "constrained"])
@pytest.mark.parametrize("size", [(7, 4), (6.4, 4.8)])
def test_labels_fit_their_panels_and_the_span_keeps_its_lines(size, layout):
    """At 7 x 4 inches the top panel's y label (``status changes per day (flapping)`` in two
    lines) was taller than its panel and ran into the lower panel's; the span under the x axis
    was one line a little wider than the figure, so its last word (``warm-up``) wrapped onto a
    line of its own. Drawn boxes: each y label is no taller than its panel, overlaps no other y
    label or tick label and lies inside the figure; each line of the x label is as wide as the
    figure at most (matplotlib has no line to wrap), the span and what is counted in it each on
    a line of their own."""
    import matplotlib.pyplot as plt

    t = _table({"GET": [3.0, 1.0]}, {"GET": [48.0, 48.0]})
    t.attrs.update(start="2015-05-17T10:05:00+00:00", end="2015-05-20T21:05:00+00:00", tz="UTC")
    fig, ax = plt.subplots(figsize=size, layout=layout)
    plot_window_comparison(t, ax=ax)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    labels = [a.yaxis.label.get_window_extent(r) for a in (ax, ax.y2_ax)]
    ticks = [tl.get_window_extent(r) for a in (ax, ax.y2_ax) for tl in a.get_yticklabels()
             if tl.get_text()]
    for a, box in zip((ax, ax.y2_ax), labels, strict=True):
        assert box.height <= a.get_window_extent(r).height
        assert box.x0 >= fig.bbox.x0 and not any(box.overlaps(b) for b in ticks)
    assert not labels[0].overlaps(labels[1])
    label = ax.y2_ax.xaxis.label
    assert label.get_text().splitlines()[1:] == [
        "2015-05-17 10:05 .. 2015-05-20 21:05 UTC:",
        "each window over the time it held traffic, after its warm-up"]
    for line in label.get_text().splitlines():
        alone = fig.text(0, 0, line, fontproperties=label.get_fontproperties())
        assert alone.get_window_extent(r).width <= fig.bbox.width


def test_thousands_of_grey_series_are_one_line_per_panel_holding_the_tables_values():
    """400 groups g000 .. g399 at 1 h and 24 h (each group's 24 h row first), group i with i
    events and i + 0.5 status changes a day at 1 h, i + 0.25 at 24 h; every 5th under 24 h
    evaluated at 1 h (its rate withheld there), g001 at both (nothing to draw). The 6 groups with
    the most events (g394 .. g399) keep their colours and lines; the 393 grey ones with a value
    were drawn as 393 lines per panel (3,061 sitekeys: 6,122 artists, 14 s): now one line per
    panel, gid ``<column>/others``, group after group in the table's order, 1 h then 24 h."""
    n = 400
    i = np.repeat(np.arange(n), 2)
    at_24h = np.tile([True, False], n)
    hours = np.where(~at_24h & (i % 5 == 0), 10.0, 100.0)
    hours[i == 1] = 10.0
    t = pd.DataFrame({"g": [f"g{k:03d}" for k in i],
                      "window": pd.Categorical(np.where(at_24h, "24h", "1h"),
                                               categories=["1h", "24h"]),
                      "min_dwell": pd.Timedelta(0), "events": i + 1, "hours": hours,
                      "transitions_per_day": i + np.where(at_24h, 0.25, 0.5),
                      "share_exhausted": 0.0})
    t.attrs["by"] = ["g"]
    ax = plot_window_comparison(t)
    grey = [k for k in range(394) if k != 1]
    # by hand: x 0 (1 h), 1 (24 h) per group; 1 h withheld for k % 5 == 0
    want_x = [float(x) for _ in grey for x in (0, 1)]
    want_y = [v for k in grey for v in (np.nan if k % 5 == 0 else k + 0.5, k + 0.25)]
    other = _line(ax, "transitions_per_day/others")
    np.testing.assert_array_equal(other.get_xdata(), want_x)
    np.testing.assert_array_equal(other.get_ydata(), want_y)
    np.testing.assert_array_equal(_line(ax.y2_ax, "share_exhausted/others").get_ydata(),
                                  [np.nan if k % 5 == 0 and x == 0 else 0.0
                                   for k in grey for x in (0, 1)])
    assert other.get_linestyle() == "None" and other.get_marker() == "o"
    for panel, col in ((ax, "transitions_per_day"), (ax.y2_ax, "share_exhausted")):
        assert sorted(ln.get_gid() for ln in panel.lines) == sorted(
            [f"{col}:g{k}" for k in range(394, 400)] + [f"{col}/others"])
    np.testing.assert_array_equal(_line(ax, "transitions_per_day:g399").get_ydata(),
                                  [399.5, 399.25])
    legend = [x.get_text() for x in ax.get_legend().get_texts()]
    assert legend == [f"g{k}" for k in range(394, 400)] + [
        "other (393 groups; fewer failures, then events)", "nothing to draw: g001"]
