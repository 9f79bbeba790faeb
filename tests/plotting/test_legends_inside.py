"""Every public ``plot_*`` drawn on a figure of the user's own (``plt.subplots()``, no layout
engine) keeps its legends and titles inside the figure, so a plain ``fig.savefig(path)`` (no
``bbox_inches="tight"``) cuts none of them: the figure makes room beside or above the plot area
(``room_for``). A figure with a layout engine (the command line's) is left to it. Checked on the
drawn boxes against the figure's box and against the room asked for by hand."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.lines import Line2D

import budgetlab as bl
from budgetlab.analyses.history import daily_success, hourly_profile
from budgetlab.plotting import (
    plot_alerts,
    plot_buckets,
    plot_daily_success,
    plot_hourly_profile,
    plot_latency_shares,
    plot_recalibration,
    plot_timeline,
    plot_timeout_tradeoff,
    plot_window_comparison,
)
from budgetlab.plotting.legends import EDGE_MARGIN, legend_above, legend_right

TYPES = {"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.88}


pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def tables():
    """Each plot's table, from two days of synthetic traffic (8,564 events, an outage)."""
    events, incidents = bl.synth.generate(
        "2026-10-05", 2, seed=5, rate=0.05, session_ids=False, client_timeout="60s",
        incidents=[{"kind": "outage", "start": "2026-10-06T10:00Z", "end": "2026-10-06T11:30Z",
                    "scope": "*", "severity": 1.0}])
    rc = events[events["captcha_type"] == "recaptcha_v2"]
    slo = bl.SLO(target=0.93, window="6h")
    return {
        "states": bl.replay(rc, slo), "slo": slo, "incidents": incidents,
        "buckets": bl.bucket_burn_over_time(events, bl.SLO(target=0.95), freq="6h", by="region"),
        "episodes": bl.alert_episodes(bl.bin_events(events, "5min", by="captcha_type"), 0.95,
                                      bl.AlertPolicy.workbook()),
        "recalibration": bl.recalibrate(events, by="captcha_type", window="6h", target=TYPES,
                                        n_boot=20, seed=1),
        "comparison": bl.compare_windows(events, bl.SLO(target=0.9), ["1h", "6h"],
                                         by="captcha_type", target=TYPES, incidents=incidents),
        "daily": daily_success(events, by="captcha_type"),
        "hourly": hourly_profile(events, bucket="timeout", by="region"),
        "shares": bl.latency_profile(events, thresholds=["10s", "20s", "30s"], freq="6h",
                                     by="captcha_type").shares,
        "tradeoff": bl.timeout_tradeoff(events, timeouts=["20s", "30s", "45s", "60s"],
                                        by="captcha_type"),
    }


DRAWINGS = {
    "timeline": lambda t, ax: plot_timeline(t["states"], slo=t["slo"], incidents=t["incidents"],
                                            transitions=bl.transitions(t["states"]), ax=ax),
    "buckets": lambda t, ax: plot_buckets(t["buckets"], by="region", ax=ax),
    "alerts": lambda t, ax: plot_alerts(t["episodes"], incidents=t["incidents"], ax=ax),
    "recalibration": lambda t, ax: plot_recalibration(t["recalibration"], ax=ax),
    "window_comparison": lambda t, ax: plot_window_comparison(t["comparison"], ax=ax),
    "daily_success": lambda t, ax: plot_daily_success(t["daily"], ax=ax),
    "hourly_profile": lambda t, ax: plot_hourly_profile(t["hourly"], ax=ax),
    "latency_shares": lambda t, ax: plot_latency_shares(t["shares"], ax=ax),
    "timeout_tradeoff": lambda t, ax: plot_timeout_tradeoff(t["tradeoff"], ax=ax),
}


def test_every_public_plot_is_drawn_here():
    assert sorted(f"plot_{name}" for name in DRAWINGS) == sorted(
        n for n in bl.plotting.__all__ if n.startswith("plot_"))


def new_axes(place):
    """A figure without a layout engine and where to draw on it (``None``: the current axes)."""
    if place == "by hand":  # where plt.subplots() would put it, placed by hand
        fig = plt.figure()
        return fig, fig.add_axes((0.125, 0.11, 0.775, 0.77))
    fig, ax = plt.subplots()
    return fig, (ax if place == "ax=" else None)


def outside_texts(fig):
    """``(what, box)`` of every legend and title of the drawn figure."""
    fig.canvas.draw()
    out = [("legend", a.get_legend().get_window_extent()) for a in fig.axes if a.get_legend()]
    for a in fig.axes:  # the centre, left and right titles (matplotlib keeps the last two apart)
        out += [(f"title {t.get_text()!r}", t.get_window_extent())
                for t in (a.title, a._left_title, a._right_title) if t.get_text()]
    return out


def inside(box, fig_box):
    return (fig_box.x0 <= box.x0 and box.x1 <= fig_box.x1 and fig_box.y0 <= box.y0
            and box.y1 <= fig_box.y1)


@pytest.mark.parametrize("place", ["ax=", "current axes", "by hand"])
@pytest.mark.parametrize("name", list(DRAWINGS))
def test_legends_and_titles_lie_inside_a_plain_figure(tables, name, place):
    fig, ax = new_axes(place)
    DRAWINGS[name](tables, ax)
    drawn = outside_texts(fig)
    assert any(what == "legend" for what, _ in drawn)
    assert [what for what, box in drawn if not inside(box, fig.bbox)] == []
    plots = [a.get_window_extent() for a in fig.axes]
    for what, box in drawn:  # beside or above the plot areas, covering no data
        assert not any(box.overlaps(p) for p in plots), what


@pytest.mark.parametrize("name", ["timeline", "window_comparison"])
def test_panels_placed_by_hand_shrink_as_one_block(tables, name):
    """A drawing of stacked panels on axes placed by hand: the panels keep one left and one
    right edge and stay inside the box the axes had."""
    fig, ax = new_axes("by hand")
    DRAWINGS[name](tables, ax)
    fig.canvas.draw()
    boxes = [a.get_position() for a in fig.axes]
    assert len(boxes) > 1
    assert len({round(b.x0, 9) for b in boxes}) == 1 and len({round(b.x1, 9) for b in boxes}) == 1
    assert min(b.y0 for b in boxes) >= 0.11 - 1e-9 and max(b.y1 for b in boxes) <= 0.88 + 1e-9


@pytest.mark.parametrize("name", list(DRAWINGS))
def test_a_layout_engine_figure_is_left_to_its_engine(tables, name):
    """On a constrained-layout figure (the command line's) the plots leave the margins as they
    are: the engine makes the room, and the legends end inside the saved figure."""
    fig, ax = plt.subplots(layout="constrained")
    fresh = plt.figure().subplotpars
    DRAWINGS[name](tables, ax)
    p = fig.subplotpars
    assert (p.left, p.right, p.bottom, p.top) == (fresh.left, fresh.right, fresh.bottom, fresh.top)
    assert [what for what, box in outside_texts(fig) if not inside(box, fig.bbox)] == []


def handles(n, width=30):
    return [Line2D([], [], label=f"entry {i} " + "x" * width) for i in range(n)]


@pytest.mark.parametrize("place", ["ax=", "by hand"])
def test_the_room_made_beside_is_what_the_legend_needs(place):
    """A legend right of the plot area that runs past the figure's edge: the plot area narrows
    until the legend ends at the edge less the margin (1 % of 640 px: at 633.6 px), no more."""
    fig, ax = new_axes(place)
    legend_right(ax, handles(3))
    fig.canvas.draw()
    box = ax.get_legend().get_window_extent()
    assert box.x1 == pytest.approx((1 - EDGE_MARGIN) * 640, abs=0.5)
    # the legend's left edge: 0.1 inch (10 px) right of the plot area, as placed
    assert box.x0 == pytest.approx(ax.get_window_extent().x1 + 10, abs=0.5)


@pytest.mark.parametrize("place", ["ax=", "by hand"])
def test_the_room_made_above_is_what_the_legend_needs(place):
    """A legend above the plot area in four rows (more than the 0.58 inch over a default subplot
    holds): its top ends at the figure's top less the margin (1 % of 480 px: at 475.2 px), and
    the plot area's top comes down as much, its bottom unchanged; the legend's foot is the room of
    a title above the plot area (the 6 point pad and a 12 point line: 20.4 points, 28.3 px)."""
    fig, ax = new_axes(place)
    legend_above(ax, handles(4, width=0), ncols=1)
    fig.canvas.draw()
    box = ax.get_legend().get_window_extent()
    assert box.y1 == pytest.approx((1 - EDGE_MARGIN) * 480, abs=1.0)
    assert ax.get_position().y0 == pytest.approx(0.11)
    assert box.y0 == pytest.approx(ax.get_window_extent().y1 + 20.4 / 72 * 100, abs=0.5)


def test_a_legend_above_takes_fewer_columns_rather_than_run_past_the_right_edge():
    """Four 40-character entries in four columns run past a 6.4 inch figure from the plot's left
    edge (0.8 inch in): the legend takes fewer columns, then the room above for its rows."""
    fig, ax = plt.subplots()
    legend_above(ax, handles(4), ncols=4)
    fig.canvas.draw()
    legend = ax.get_legend()
    assert legend._ncols < 4
    assert inside(legend.get_window_extent(), fig.bbox)


@pytest.mark.parametrize("layout", [None, "constrained"])
@pytest.mark.parametrize("name", list(DRAWINGS))
def test_a_title_set_after_and_a_figure_title_set_before_overlap_no_legend(tables, name, layout):
    """The user's titles: ``fig.suptitle`` before drawing (on a plain figure the room made above
    ends at its foot) and ``ax.set_title`` after (it sits in the room kept for it between the plot
    area and a legend above): no two of the legends and titles overlap, all inside the figure."""
    fig, ax = plt.subplots(layout=layout)
    fig.suptitle("A figure title set before")
    top = DRAWINGS[name](tables, ax)
    top.set_title("An axes title set after")
    drawn = [*outside_texts(fig), ("suptitle", fig._suptitle.get_window_extent())]
    assert [what for what, box in drawn if not inside(box, fig.bbox)] == []
    for i, (what, box) in enumerate(drawn):
        assert [w for w, b in drawn[i + 1:] if box.overlaps(b)] == [], what
