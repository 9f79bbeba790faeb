"""What a plot must keep in view: legends inside the figure (the replay timeline with several
groups, a legend too wide for its columns), a line at 100 % below the top spine, and an alert
panel that says when nothing fired (checked through the artists)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.lines import Line2D

from budgetlab import SLO, as_events, replay
from budgetlab.cli import main
from budgetlab.plotting import plot_alerts, plot_timeline
from budgetlab.plotting.legends import legend_right

T0 = pd.Timestamp("2026-03-02", tz="UTC")


@pytest.fixture
def drawn(monkeypatch):
    """The legends' and the figure's boxes of every figure the command line encodes."""
    import budgetlab._util.figures as bfiles

    real = bfiles.figure_bytes
    seen: list[tuple[list, object]] = []

    def keep(fig, path, **kw):
        fig.canvas.draw()
        boxes = [a.get_legend().get_window_extent() for a in fig.axes if a.get_legend()]
        seen.append((boxes, fig.bbox.frozen()))
        return real(fig, path, **kw)

    monkeypatch.setattr(bfiles, "figure_bytes", keep)
    return seen


def inside(box, fig_box):
    return (fig_box.x0 <= box.x0 and box.x1 <= fig_box.x1 and fig_box.y0 <= box.y0
            and box.y1 <= fig_box.y1)


def test_replay_timeline_legends_fit_with_several_groups(tmp_path, drawn):
    rng = np.random.default_rng(5)
    n = 4000
    ts = T0 + pd.to_timedelta(np.sort(rng.uniform(0, 12 * 3600, n)), unit="s")
    key = rng.choice(["a_rather_long_group_name", "b", "c"], n)
    fail = rng.random(n) < np.where(key == "b", 0.2, 0.03)
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                  "outcome": np.where(fail, "timeout", "success"), "key": key}).to_csv(path,
                                                                                    index=False)
    assert main(["replay", str(path), "--window", "1h", "--by", "key", "--plot",
                 str(tmp_path / "t.png")]) == 0
    ((boxes, fig_box),) = drawn
    assert len(boxes) == 3  # the first group's three panels; their legends serve all
    assert all(inside(b, fig_box) for b in boxes)


def columns(legend):
    """The legend's columns as drawn: the distinct left edges of its texts."""
    return len({round(t.get_window_extent().x0) for t in legend.get_texts()})


def test_a_legend_too_wide_for_its_columns_takes_fewer():
    fig = plt.figure(figsize=(6, 3))
    ax = fig.add_axes((0.1, 0.1, 0.65, 0.8))
    handles = [Line2D([], [], label=f"legend entry {i}") for i in range(6)]
    legend_right(ax, handles, ncols=2)  # two columns need about 2 inches, 1.4 are left
    fig.canvas.draw()
    legend = ax.get_legend()
    assert columns(legend) == 1 and inside(legend.get_window_extent(), fig.bbox)
    short = [Line2D([], [], label=f"e{i}") for i in range(4)]
    legend_right(ax, short, ncols=2)  # these fit in two columns: kept as asked
    fig.canvas.draw()
    legend = ax.get_legend()
    assert columns(legend) == 2 and inside(legend.get_window_extent(), fig.bbox)
    plt.close(fig)


def test_a_success_rate_at_100_percent_stays_below_the_top_spine():
    ts = T0 + pd.to_timedelta(np.arange(300), unit="min")
    st = replay(as_events(ts, np.ones(300, dtype=bool)), SLO(target=0.999, window="1h"))
    fig = plt.figure(figsize=(11, 6))
    ax = plot_timeline(st, ax=fig.add_subplot())
    lo, hi = ax.get_ylim()
    # data at 100 %, target 99.9 %: 8 % of the 0.1 points each side, 0.008 / 0.116 = 6.9 % of
    # the axis above the line
    assert hi == pytest.approx(100.008) and (hi - 100) / (hi - lo) > 0.065
    lo, hi = ax.budget_ax.get_ylim()
    assert (hi - 100) / (hi - lo) > 0.05  # the budget at 100 % too
    plt.close(fig)


def test_plot_alerts_says_when_no_alert_fired():
    empty = pd.DataFrame({"tier": pd.Categorical([], categories=["page_1h"]),
                          "severity": pd.Series([], dtype=str),
                          "start": pd.Series([], dtype="datetime64[ns, UTC]"),
                          "end": pd.Series([], dtype="datetime64[ns, UTC]")})
    ax = plot_alerts(empty, ax=plt.figure().add_subplot())
    assert [t.get_text() for t in ax.texts] == ["no alert fired"] and ax.get_legend() is None
    incidents = pd.DataFrame({"start": [T0], "end": [T0 + pd.Timedelta("1h")]})
    ax = plot_alerts(empty, incidents=incidents, ax=plt.figure().add_subplot())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["incident"]
    fired = pd.DataFrame({"tier": ["page_1h"], "severity": ["page"], "start": [T0],
                          "end": [T0 + pd.Timedelta("10min")]})
    ax = plot_alerts(fired, ax=plt.figure().add_subplot())
    assert len(ax.texts) == 0 and [t.get_text() for t in ax.get_legend().get_texts()] == ["page"]
    plt.close("all")
