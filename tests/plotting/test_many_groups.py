"""Issue 28, point 8: a chart with more groups than distinct colours shows the top groups (by
evidence) and "other"; no legend is cut at the figure's edge. Tested through the artists: the
legend's texts and colours against the groups chosen by hand from the tables' own counts, the
"other" layer of the bucket stack against the sum of the other groups' layers computed by hand,
and the legend's drawn box inside the figure."""

from __future__ import annotations

from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab.plotting import (
    plot_buckets,
    plot_daily_success,
    plot_hourly_profile,
    plot_recalibration,
    plot_window_comparison,
)
from budgetlab.plotting._common import GROUP_COLORS, OTHER_COLOR, group_colors, other_label

N = 12  # more groups than the 7 distinct colours
# by hand: g0, g2, .., g10 the most, then g11
EVENTS = [10 * (i + 1) if i % 2 else 1000 - i for i in range(N)]
# the 6 with the most events, in the groups' order: g0 g2 g4 g6 g8 g10 (about 1000 each); g11
# (120 events) is the most of the others
TOP = ["g0", "g2", "g4", "g6", "g8", "g10"]


pytestmark = pytest.mark.usefixtures("close_figures")


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def legend_colors(ax):
    return [h.get_color() for h in ax.get_legend().legend_handles]


def daily_table(names):
    rows = []
    for name, n in zip(names, EVENTS, strict=True):
        for d in ("2026-01-01", "2026-01-02"):
            rows.append({"group": name, "day": pd.Timestamp(d, tz="UTC"), "total": n, "good": n - 1,
                         "success_rate": (n - 1) / n, "ci_low": 0.5, "ci_high": 1.0,
                         "full_day": True})
    out = pd.DataFrame(rows)
    out["group"] = out["group"].astype("category")
    return out


def test_daily_success_shows_the_top_groups_by_events_and_other():
    ax = plot_daily_success(daily_table([f"g{i}" for i in range(N)]))
    assert legend_texts(ax) == [*TOP, f"other ({N - len(TOP)} groups)"]
    # colours in the sorted order of the names (as text, g10 before g2), the legend in the groups'
    assert legend_colors(ax) == [*(GROUP_COLORS[sorted(TOP).index(n)] for n in TOP), OTHER_COLOR]
    # every group is still drawn: the others in grey
    for i in range(N):
        (pts,) = [ln for ln in ax.lines if ln.get_gid() == f"days:g{i}"]
        assert (pts.get_color() == OTHER_COLOR) == (f"g{i}" not in TOP)


def test_few_groups_keep_their_own_colours_and_no_other():
    ax = plot_daily_success(
        daily_table([f"g{i}" for i in range(N)]).query("group in ['g0', 'g1', 'g2']")
    )
    assert legend_texts(ax) == ["g0", "g1", "g2"]


def test_hourly_profile_shows_the_top_groups_and_other():
    rows = [{"group": f"g{i}", "hour": h, "total": n, "bucket_failures": 1, "other_failures": 1,
             "bucket_rate": 1 / n, "other_rate": 1 / n} for i, n in enumerate(EVENTS) for h in (3,
                                                                                                4)]
    prof = pd.DataFrame(rows)
    prof.attrs["bucket"] = "timeout"
    ax = plot_hourly_profile(prof)
    other = f"other ({N - len(TOP)} groups)"
    want = [x for g in TOP for x in (f"{g}: timeout", f"{g}: other failures")]
    # attempts at hours 3 and 4 only: the 22 other hours are shaded, keyed last
    assert legend_texts(ax) == [*want, f"{other}: timeout", f"{other}: other failures",
                                "grey: no attempts at that hour"]


def test_recalibration_shows_the_top_groups_and_other():
    names = [f"g{i}" for i in range(N)]
    summary = pd.DataFrame({"group": names, "events": EVENTS, "recommended_target": 0.9,
                            "recommended_low": 0.89,
                            "recommended_high": 0.91, "current_target": 0.95})
    cand = pd.DataFrame({"group": np.repeat(names, 2), "target": np.tile([0.9, 0.95], N),
                         "share_exhausted": 0.0})
    dist = pd.DataFrame({"group": np.repeat(names, 2), "success_rate": np.tile([0.9, 0.99], N),
                         "probability": np.tile([0.1, 1.0], N)})
    result = SimpleNamespace(summary=summary, candidates=cand, distribution=dist,
                             settings={"by": ["group"], "limit_status": "exhausted",
                                       "max_share": 0.01})
    ax = plot_recalibration(result)
    texts = [" ".join(t.split()) for t in legend_texts(ax)]  # long entries are wrapped
    # no failures column: the groups with the most events (the rule's second key)
    assert texts[: len(TOP) + 1] == [*TOP, f"other ({N - len(TOP)} groups; fewer failures, "
                                           "then events)"]
    shaded = {p.get_gid() for p in ax.patches if str(p.get_gid()).startswith("interval:")}
    assert shaded == {f"interval:{g}" for g in TOP}  # grey groups: no stacked shading


def test_window_comparison_shows_the_top_groups_and_other():
    names = [f"g{i}" for i in range(N)]
    table = pd.DataFrame({"group": np.repeat(names, 2), "window": np.tile(["1h", "6h"], N),
                          "min_dwell": pd.Timedelta(0), "transitions_per_day": 1.0,
                          "events": np.repeat(EVENTS, 2)})
    table.attrs["by"] = ["group"]
    ax = plot_window_comparison(table, y2=None)
    assert legend_texts(ax) == [*TOP, f"other ({N - len(TOP)} groups; fewer failures, then "
                                      "events)"]


def test_bucket_stack_keeps_the_groups_that_burn_most_and_adds_up_the_others():
    t = pd.date_range("2026-01-01", periods=2, freq="1h", tz="UTC")
    # one bucket, 10 events per group and bin
    burns = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0, "e": 0.5, "f": 0.25}
    over = pd.DataFrame([{"bin_start": ts, "bucket": "timeout", "region": g, "events": 10,
                          "burn_rate": b}
                         for ts in t for g, b in burns.items()])
    over.attrs["freq"] = "1h"
    ax = plot_buckets(over, by="region")
    labels = [p.get_label() for p in ax.patches if p.get_gid() == "bucket"]
    assert sorted(labels) == sorted(["timeout · a", "timeout · b", "timeout · c",
                                     "timeout · other (3 groups)"])
    (other,) = [p for p in ax.patches if p.get_label() == "timeout · other (3 groups)"]
    data = other.get_data()
    # by hand: (1.0 + 0.5 + 0.25) x 10 events over the bin's 60 events
    assert np.allclose(data.values - data.baseline, (1.0 + 0.5 + 0.25) * 10 / 60)


def test_no_legend_is_cut_at_the_figure_edge():
    """Long group names (40 characters): the legend above the plot takes fewer columns, and the
    drawn legend lies inside the figure as the CLI saves it (constrained layout, 11 x 6 in)."""
    names = [f"sitekey-{i:02d}-" + "x" * 28 for i in range(N)]
    fig, ax = plt.subplots(figsize=(11, 6), layout="constrained")
    plot_daily_success(daily_table(names), ax=ax)
    fig.canvas.draw()
    box = ax.get_legend().get_window_extent()
    assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.width and box.y1 <= fig.bbox.height
    assert len(legend_texts(ax)) == len(TOP) + 1


@pytest.mark.parametrize(("others", "text"), [
    (0, ""), (1, "other (1 group)"), (2, "other (2 groups)"), (1000, "other (1,000 groups)"),
])
def test_the_other_entry_counts_its_groups_in_words(others, text):
    colors = {"kept": GROUP_COLORS[0], **{f"o{i}": None for i in range(others)}}
    assert other_label(colors) == text


def test_eight_groups_leave_two_in_other():
    # 7 colours: with 8 groups the 6 with the most weight keep theirs, 2 go to "other"
    colors = group_colors([f"g{i}" for i in range(8)], weights=[8, 7, 6, 5, 4, 3, 2, 1])
    assert [n for n, c in colors.items() if c is None] == ["g6", "g7"]
    assert other_label(colors) == "other (2 groups)"
