"""plot_recalibration's distribution line between two quantiles: a step at the lower level (the
bound the table gives), never a straight join that invents a share between the levels; checked
on a Recalibration written by hand, whose distribution and exact shares are known."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.cbook import STEP_LOOKUP_MAP

from budgetlab.analyses.recalibration.tables import Recalibration
from budgetlab.plotting import plot_recalibration


def drawn_y(line, x: float) -> float:
    """The y of the path matplotlib draws for ``line`` (its drawstyle applied to its data) at an
    ``x`` inside one of its segments, never at a vertex: a step's riser has many ys there."""
    xs, ys = STEP_LOOKUP_MAP[line.get_drawstyle()](np.asarray(line.get_xdata(), dtype=float),
                                                    np.asarray(line.get_ydata(), dtype=float))
    assert not np.isin(x, xs), "x on a vertex: ask between two"
    i = int(np.searchsorted(xs, x)) - 1
    assert 0 <= i < len(xs) - 1, "x outside the line"
    return float(ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i]))


#: The rolling success rate of the hand-built case: 0.90 for 5 % of the evaluated time, 0.95 for
#: 15 %, 0.99 for 30 %, 1.0 for 50 %. Its share of time at or below r, F(r): 0 below 0.90, 0.05 on
#: [0.90, 0.95), 0.20 on [0.95, 0.99), 0.50 on [0.99, 1.0), 1 from 1.0.
#: The distribution at the levels 1 %, 10 %, 30 %, 60 % (the smallest r with F(r) >= p):
#: 0.90, 0.95, 0.99, 1.0.
LEVELS = [0.01, 0.10, 0.30, 0.60]
QUANTILES = [0.90, 0.95, 0.99, 1.0]
#: Candidate targets and their exact share of time EXHAUSTED (rolling rate at or below the
#: target): F(target), from the rates above.
TARGETS = [0.92, 0.96, 0.97, 0.995]
SHARES = [0.05, 0.20, 0.20, 0.50]


@pytest.fixture
def by_hand():
    summary = pd.DataFrame({"g": ["a"], "events": [10_000], "p50": [0.99],
                            "recommended_target": [0.9], "recommended_low": [0.9],
                            "recommended_high": [0.9], "current_target": [np.nan]})
    candidates = pd.DataFrame({"g": "a", "target": TARGETS, "share_exhausted": SHARES})
    distribution = pd.DataFrame({"g": "a", "probability": LEVELS, "success_rate": QUANTILES})
    settings = {"by": ["g"], "limit_status": "exhausted", "max_share": 0.01, "window": "1h"}
    return Recalibration(summary=summary, candidates=candidates, distribution=distribution,
                         bootstrap=pd.DataFrame({"g": [], "sample": [], "recommended_target": []}),
                         settings=settings)


def test_between_two_quantiles_the_line_is_the_lower_level(by_hand):
    ax = plot_recalibration(by_hand, ax=plt.figure().gca(), logy=False)
    line = next(ln for ln in ax.lines if ln.get_gid() == "distribution:a")
    # between Q(1 %) = 90 and Q(10 %) = 95 the share is in [1 %, 10 %): the line says 1 %
    # (a straight join said 1 + 9 x 2 / 5 = 4.6 % at 92)
    assert drawn_y(line, 92.0) == pytest.approx(1.0)
    assert drawn_y(line, 97.0) == pytest.approx(10.0)  # between Q(10 %) = 95 and Q(30 %) = 99
    assert drawn_y(line, 99.5) == pytest.approx(30.0)  # between Q(30 %) = 99 and Q(60 %) = 100
    # the table's values, as they are: the drawstyle makes the step
    assert line.get_xdata().tolist() == [90.0, 95.0, 99.0, 100.0]
    assert line.get_ydata().tolist() == [1.0, 10.0, 30.0, 60.0]
    plt.close("all")


def test_each_candidate_dot_lies_on_or_above_the_line_below_the_next_level(by_hand):
    ax = plot_recalibration(by_hand, ax=plt.figure().gca(), logy=False)
    line = next(ln for ln in ax.lines if ln.get_gid() == "distribution:a")
    dots = next(ln for ln in ax.lines if ln.get_gid() == "candidates:a")
    assert dots.get_ydata().tolist() == pytest.approx([5.0, 20.0, 20.0, 50.0])
    # the bound at each target (by hand, from LEVELS and QUANTILES) and the level after it
    lower, upper = [1.0, 10.0, 10.0, 30.0], [10.0, 30.0, 30.0, 60.0]
    for x, y, lo, hi in zip(dots.get_xdata(), dots.get_ydata(), lower, upper, strict=True):
        assert drawn_y(line, x) == pytest.approx(lo)
        assert lo <= y < hi
    plt.close("all")


def test_on_a_run_every_dot_is_on_or_above_the_step_below_the_next_level():
    """The invariant on recalibrate's own tables: a candidate's exact share of time exhausted
    (the rolling rate at or below its target) against the bound the quantiles give at its x;
    a dot left of the first quantile (under 0.1 % of the time) has no step to compare with."""
    from budgetlab import recalibrate, synth

    events, _ = synth.generate("2026-10-05", 4, seed=5, rate=0.2, session_ids=False, incidents=[
        {"kind": "outage", "start": "2026-10-07T10:00Z", "end": "2026-10-07T10:30Z",
         "scope": "*", "severity": 1.0}])
    r = recalibrate(events, by="captcha_type", window="6h", n_boot=0)
    ax = plot_recalibration(r, ax=plt.figure().gca())
    compared = 0
    for g in r.summary["captcha_type"]:
        line = next(ln for ln in ax.lines if ln.get_gid() == f"distribution:{g}")
        dots = next(ln for ln in ax.lines if ln.get_gid() == f"candidates:{g}")
        qx, levels = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
        for x, y in zip(dots.get_xdata(), dots.get_ydata(), strict=True):
            if x < qx[0] or np.isin(x, qx):
                continue
            if x > qx[-1]:  # past the last quantile: at least the last level, at most 100 %
                assert levels[-1] <= y <= 100.0
            else:
                bound = drawn_y(line, x)
                assert bound <= y < levels[levels > bound][0]
            compared += 1
    assert compared >= 10, compared
    plt.close("all")


def test_a_share_below_the_log_floor_is_drawn_on_the_floor_and_keyed():
    """A lone failure inside a warm-up leaves 1 ns at EXHAUSTED in 26,000 s of evaluated time:
    a share of 1e-9 / 26,000 = 3.8e-14 (3.8e-12 %), which made the log axis span 14 decades.
    The axis is floored at 0.0001 % (1e-6 of the time): the candidates at 0.0001 % and above are
    drawn where they are, the one below on the floor with its own marker, keyed "below
    0.0001%"; a share of 0 is not drawn on a log scale (as before); the table keeps 3.8e-14."""
    from budgetlab.plotting.analyses import LOG_FLOOR_PERCENT

    tiny = 1e-9 / 26_000
    shares = [0.0, tiny, 1e-6, 0.02, 0.5]  # 0, 3.8e-12 %, exactly the floor, 2 %, 50 %
    summary = pd.DataFrame({"g": ["a"], "events": [10_000], "p50": [0.99],
                            "recommended_target": [0.95], "recommended_low": [np.nan],
                            "recommended_high": [np.nan], "current_target": [np.nan]})
    candidates = pd.DataFrame({"g": "a", "target": [0.5, 0.9, 0.93, 0.95, 0.99],
                               "share_exhausted": shares})
    distribution = pd.DataFrame({"g": "a", "probability": LEVELS, "success_rate": QUANTILES})
    rec = Recalibration(summary=summary, candidates=candidates, distribution=distribution,
                        bootstrap=pd.DataFrame({"g": [], "sample": [], "recommended_target": []}),
                        settings={"by": ["g"], "limit_status": "exhausted", "max_share": 0.01,
                                  "window": "1h"})
    ax = plot_recalibration(rec, ax=plt.figure().gca())
    assert LOG_FLOOR_PERCENT == 1e-4
    assert ax.get_ylim()[0] == pytest.approx(1e-4)  # the floor: 10^-4 %, not 10^-12
    dots = next(ln for ln in ax.lines if ln.get_gid() == "candidates:a")
    floor = next(ln for ln in ax.lines if ln.get_gid() == "below_floor:a")
    # drawn where they are: the zero (dropped by the log scale), the floor itself, 2 %, 50 %
    assert dots.get_xdata().tolist() == pytest.approx([50.0, 93.0, 95.0, 99.0])
    assert dots.get_ydata().tolist() == pytest.approx([0.0, 1e-4, 2.0, 50.0])
    # the one below the floor: at 90 %, drawn on the floor, whole (not clipped by the axes)
    assert floor.get_xdata().tolist() == pytest.approx([90.0])
    assert floor.get_ydata().tolist() == [1e-4]
    assert floor.get_marker() == "v" and floor.get_linestyle() == "None"
    assert not floor.get_clip_on()
    keys = [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()]
    assert "time exhausted+ under 0.0001%, on the floor" in keys
    # the table keeps the exact share
    assert rec.candidates["share_exhausted"].iloc[1] == tiny
    plt.close("all")
    # nothing below the floor: no floor marker and no key for it; linear scale: no floor at all
    rec.candidates["share_exhausted"] = [0.0, 1e-6, 1e-6, 0.02, 0.5]
    ax = plot_recalibration(rec, ax=plt.figure().gca())
    assert not any(str(ln.get_gid()).startswith("below_floor") for ln in ax.lines)
    assert not any("0.0001%" in t.get_text() for t in ax.get_legend().get_texts())
    rec.candidates["share_exhausted"] = shares
    ax = plot_recalibration(rec, ax=plt.figure().gca(), logy=False)
    dots = next(ln for ln in ax.lines if ln.get_gid() == "candidates:a")
    assert dots.get_ydata().tolist() == pytest.approx([s * 100 for s in shares])
    assert not any(str(ln.get_gid()).startswith("below_floor") for ln in ax.lines)
    plt.close("all")


@pytest.mark.parametrize("layout", ["constrained", None])
def test_the_note_on_groups_left_out_sits_under_the_plot_area_inside_the_figure(layout):
    """The note naming the withheld groups covered the candidates drawn on the axis floor
    (bottom left of the plot area) when many groups were left out: it sits below the plot area
    and its x label now, whole inside the figure, on a constrained and on a plain figure."""
    from budgetlab import recalibrate

    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.arange(288) * 10, unit="min")
    a = pd.DataFrame({"ts": ts, "ok": np.arange(288) % 7 != 0, "g": "a"})
    lone = pd.DataFrame({"ts": pd.Timestamp("2026-01-01 12:00:30", tz="UTC")
                         + pd.to_timedelta(np.arange(25), unit="min"),
                         "ok": False, "g": [f"l{i:02d}" for i in range(25)]})
    ev = pd.concat([a, lone]).sort_values("ts", kind="stable").reset_index(drop=True)
    ev["ts"] = ev["ts"].astype("datetime64[ns, UTC]")
    ev["g"] = ev["g"].astype("category")
    fig, ax = plt.subplots(figsize=(6, 4), layout=layout)
    plot_recalibration(recalibrate(ev, by="g", window="1h", n_boot=0), ax=ax)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    note = next(t for t in ax.texts if t.get_gid() == "left_out")
    box, frame = note.get_window_extent(r), fig.bbox
    assert box.x0 >= frame.x0 and box.x1 <= frame.x1 and box.y0 >= frame.y0
    assert box.y1 <= ax.xaxis.label.get_window_extent(r).y0  # under the x label
    assert box.y1 < ax.get_window_extent(r).y0  # so never over the plot area's floor
    plt.close(fig)
