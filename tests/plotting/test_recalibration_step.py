"""plot_recalibration's distribution line: through the distribution's levels and the candidates'
exact shares, a step at the left point's share between two of them (the bound the tables give),
never a straight join that invents a share between them, and never under a candidate's own dot
(stop 55: on a real access log the levels alone drew 2 % under dots at 2.4 %); checked on a
Recalibration written by hand, whose distribution and exact shares are known, and on runs."""

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


def right_of(line, x: float) -> float:
    """The y the line holds just right of ``x`` (a vertex: the top of its riser)."""
    return drawn_y(line, x + 1e-7)


def test_between_two_known_points_the_line_is_the_left_ones_share(by_hand):
    ax = plot_recalibration(by_hand, ax=plt.figure().gca(), logy=False)
    line = next(ln for ln in ax.lines if ln.get_gid() == "distribution:a")
    # the points the tables give, merged by target (by hand): the levels' (90, 1), (95, 10),
    # (99, 30), (100, 60) and the candidates' exact (92, 5), (96, 20), (97, 20), (99.5, 50)
    assert line.get_xdata().tolist() == [90.0, 92.0, 95.0, 96.0, 97.0, 99.0, 99.5, 100.0]
    assert line.get_ydata().tolist() == pytest.approx([1, 5, 10, 20, 20, 30, 50, 60])
    # between Q(1 %) = 90 and the candidate at 92 the share is in [1 %, 5 %): the line says 1 %
    # (a straight join said 1 + 4 x 1 / 2 = 3 % at 91)
    assert drawn_y(line, 91.0) == pytest.approx(1.0)
    # past a candidate the line holds its exact share, not the lower level: at 93 the share is
    # F(0.93) = 5 % (the levels alone said 1 %, under the candidate's own dot)
    assert drawn_y(line, 93.0) == pytest.approx(5.0)
    assert drawn_y(line, 98.0) == pytest.approx(20.0)  # F(0.98) = 20 % (the levels: 10 %)
    assert drawn_y(line, 99.7) == pytest.approx(50.0)  # F(0.997) = 50 % (the levels: 30 %)
    plt.close("all")


def test_each_candidate_dot_lies_on_the_line(by_hand):
    ax = plot_recalibration(by_hand, ax=plt.figure().gca(), logy=False)
    line = next(ln for ln in ax.lines if ln.get_gid() == "distribution:a")
    dots = next(ln for ln in ax.lines if ln.get_gid() == "candidates:a")
    assert dots.get_ydata().tolist() == pytest.approx([5.0, 20.0, 20.0, 50.0])
    for x, y in zip(dots.get_xdata(), dots.get_ydata(), strict=True):
        assert right_of(line, x) == pytest.approx(y)
    plt.close("all")


@pytest.mark.parametrize("limit", ["warning", "critical", "exhausted"])
def test_on_a_run_every_dot_is_on_the_line_and_the_line_a_lower_bound(limit):
    """The invariants on recalibrate's own tables, at every limit status: each candidate's exact
    share sits on the line (on its riser where its target is one of the levels'); the line never
    falls; and it never says more than the exact share at a target between its points, taken
    from a second run whose candidates are a fine grid of such targets."""
    from budgetlab import recalibrate, synth
    from budgetlab.budget.figures import STATUSES

    events, _ = synth.generate("2026-10-05", 4, seed=5, rate=0.2, session_ids=False, incidents=[
        {"kind": "outage", "start": "2026-10-07T10:00Z", "end": "2026-10-07T10:30Z",
         "scope": "*", "severity": 1.0}])
    r = recalibrate(events, by="captcha_type", window="6h", n_boot=0, limit_status=limit)
    grid = np.round(np.arange(0.5, 0.9995, 0.0007), 6)
    fine = recalibrate(events, by="captcha_type", window="6h", n_boot=0, limit_status=limit,
                       candidates=grid.tolist())
    levels = STATUSES[STATUSES.index(limit):]
    ax = plot_recalibration(r, ax=plt.figure().gca(), logy=False)
    on_line = bounded = 0
    for g in r.summary["captcha_type"]:
        line = next(ln for ln in ax.lines if ln.get_gid() == f"distribution:{g}")
        dots = next(ln for ln in ax.lines if ln.get_gid() == f"candidates:{g}")
        assert (np.diff(np.asarray(line.get_ydata())) >= 0).all()
        x0, x1 = line.get_xdata()[0], line.get_xdata()[-1]
        for x, y in zip(dots.get_xdata(), dots.get_ydata(), strict=True):
            if x0 <= x < x1:
                assert right_of(line, x) == pytest.approx(y, abs=1e-9)
                on_line += 1
        rows = fine.candidates[fine.candidates["captcha_type"] == g]
        exact = rows[[f"share_{s}" for s in levels]].sum(axis=1).to_numpy() * 100
        for x, y in zip(rows["target"].to_numpy() * 100, exact, strict=True):
            if x0 < x < x1 and not np.isin(x, line.get_xdata()):
                assert drawn_y(line, x) <= y + 1e-9
                bounded += 1
    assert on_line >= 10 and bounded >= 100, (on_line, bounded)
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
