"""The timeline reduced to its pixel columns (issue 30, point 3), checked through the artists:
beyond a few points per pixel column, each line is its time-weighted mean in every column over a
band of its lowest and highest value there (a brute-force loop over the columns is the oracle),
the status strip keeps the worst status of each column and the bands every column holding any
no traffic (a one-second EXHAUSTED or no-traffic span stays visible among thousands of spans),
the transition rug keeps a tick per column; and what is drawn does not grow with the events."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, as_events, replay, transitions  # noqa: E402
from budgetlab.plotting import plot_timeline  # noqa: E402
from budgetlab.plotting._pixels import pixel_columns  # noqa: E402
from tests.plotting.hand_spans import with_figures  # noqa: E402

T0 = pd.Timestamp("2026-03-02", tz="UTC")
DAY_NS = 86_400 * 10**9


def run(n, seed=1, days=2):
    rng = np.random.default_rng(seed)
    ts = T0 + pd.to_timedelta(np.sort(rng.uniform(0, days * 86_400, n)), unit="s")
    # calm and stormy stretches
    ok = rng.random(n) >= np.where(np.arange(n) % 5000 < 2500, 0.02, 0.2)
    slo = SLO(target=0.95, window="10min")
    return replay(as_events(ts, ok), slo), slo


def draw(states, slo, **kw):
    fig = plt.figure(figsize=(5, 4), dpi=100)
    ax = plot_timeline(states, slo=slo, ax=fig.add_subplot(), **kw)
    return fig, ax


def bands(panel):
    """``{gid: [(x0, x1), ...]}`` of the status bands (matplotlib days)."""
    out = {}
    for c in panel.collections:
        gid = str(c.get_gid())
        if gid.startswith("status_"):
            out[gid] = [(p.vertices[:, 0].min(), p.vertices[:, 0].max()) for p in c.get_paths()]
    return out


def strips(panel):
    """``{gid: [(x0, x1), ...]}`` of the status strip's bars (matplotlib days)."""
    out = {}
    for c in panel.collections:
        gid = str(c.get_gid())
        if gid.endswith("_strip"):
            out[gid] = [(p.vertices[:, 0].min(), p.vertices[:, 0].max()) for p in c.get_paths()]
    return out


def _column_steps(band, lo, hi):
    """The y of the band's horizontal edges running from ``lo`` to ``hi`` (ns): one column's
    lowest and highest value."""
    epoch = mdates.date2num(np.datetime64(0, "ns"))
    out = []
    for path in band.get_paths():
        v = path.vertices
        x = (v[:, 0] - epoch) * 86_400e9  # date numbers -> ns (to ~1 us)
        same = v[:-1, 1] == v[1:, 1]
        span = (np.abs(np.minimum(x[:-1], x[1:]) - lo) < 1e4) & (
            np.abs(np.maximum(x[:-1], x[1:]) - hi) < 1e4)
        out += v[:-1, 1][same & span].tolist()
    return out


def test_each_line_is_its_mean_over_the_min_and_max_of_every_pixel_column():
    """Each column draws its rows' time-weighted mean over a band of their lowest and highest
    value (a brute-force loop over the columns is the oracle)."""
    states, slo = run(200_000)
    fig, ax = draw(states, slo)
    columns = pixel_columns(ax.panels[-1])
    t = states["ts"].array.asi8
    y = states["success_rate"].to_numpy() * 100
    line = next(ln for ln in ax.get_lines() if ln.get_gid() == "success_rate")
    (band,) = [c for c in ax.collections if c.get_gid() == "success_range"]
    x_drawn = np.asarray(line.get_xdata()).astype("datetime64[ns]").view(np.int64)
    y_drawn = np.asarray(line.get_ydata(), dtype=float)
    assert len(y_drawn) <= 4 * columns + 8  # a few points per pixel column, not 200,000
    width = (t[-1] - t[0]) / columns
    for k in range(0, columns, 7):  # the oracle: each column's extremes, by a loop over its rows
        lo, hi = t[0] + int(np.ceil(k * width)), t[0] + int(np.ceil((k + 1) * width))
        rows = np.flatnonzero((t >= lo) & (t < hi))
        if len(rows) < 2:
            continue
        # each row's value held to the next row (the row before the column's first holds from lo)
        held = np.r_[rows[0] - 1, rows] if rows[0] > 0 else rows
        start = np.maximum(t[held], lo)
        stop = np.minimum(t[np.minimum(held + 1, len(t) - 1)], hi)
        mean = np.sum(y[held] * (stop - start)) / np.sum(stop - start)
        assert y_drawn[np.searchsorted(x_drawn, lo, side="right") - 1] == pytest.approx(mean)
        steps = _column_steps(band, lo, hi)
        assert min(steps) == pytest.approx(y[held].min())
        assert max(steps) == pytest.approx(y[held].max())
    plt.close(fig)


def many_spans(n_spans, lone_status):
    """Spans of alternating healthy and warning minutes, one of them replaced by a one-second
    ``lone_status`` span at 1/3 of the way: ``(spans, its time)``."""
    start = T0 + pd.to_timedelta(np.arange(n_spans), unit="min")
    status = np.where(np.arange(n_spans) % 2 == 0, "healthy", "warning").astype(object)
    i = n_spans // 3
    start = start.insert(i + 1, start[i] + pd.Timedelta("30s")).insert(
        i + 2, start[i] + pd.Timedelta("31s")
    )
    status = np.insert(status, i + 1, [lone_status, status[i]])
    end = start[1:].append(pd.DatetimeIndex([start[-1] + pd.Timedelta("1min")]))
    spans = with_figures(pd.DataFrame({"start": start, "end": end, "status": status}))
    return spans, start[i + 1] + pd.Timedelta("0.5s")


@pytest.mark.parametrize("lone_status", ["exhausted", "no_traffic"])
def test_a_one_second_span_among_thousands_stays_visible(lone_status):
    spans, when = many_spans(6000, lone_status)
    ts = pd.DatetimeIndex(pd.date_range(T0, spans["end"].iloc[-1], periods=40_000))
    slo = SLO(target=0.95, window="10min")
    states = replay(as_events(ts, np.arange(len(ts)) % 9 != 0), slo)
    fig, ax = draw(states, slo, spans=spans)
    bottom = ax.panels[-1]
    drawn = bands(bottom)
    columns = pixel_columns(bottom)
    assert sum(len(v) for v in drawn.values()) <= 2 * columns  # runs of columns, not 6,000 bars
    x = mdates.date2num(when.tz_localize(None).to_datetime64())
    # the one second is there: exhausted, the worst of its column, in the strip along the top
    # (the band under it is the status its column held longest: a second is not what the column
    # mostly was); no traffic in its rules
    marks = strips(bottom) if lone_status == "exhausted" else drawn
    assert any(x0 <= x <= x1 for x0, x1 in marks[f"{lone_status}_strip"
                                                 if lone_status == "exhausted"
                                                 else f"status_{lone_status}"])
    if lone_status == "exhausted":  # no milder mark in the strip over it
        assert not any(x0 < x < x1 for g in ("warning_strip",) for x0, x1 in marks.get(g, []))
    else:  # the column's status band stays under the hatching
        assert any(x0 <= x <= x1 for g in ("status_healthy", "status_warning") for x0,
                   x1 in drawn.get(g, []))
    plt.close(fig)


def test_few_spans_are_drawn_exactly():
    spans, _ = many_spans(40, "exhausted")
    ts = pd.DatetimeIndex(pd.date_range(T0, spans["end"].iloc[-1], periods=500))
    slo = SLO(target=0.95, window="10min")
    fig, ax = draw(replay(as_events(ts, np.ones(len(ts), dtype=bool)), slo), slo, spans=spans)
    drawn = bands(ax.panels[-1])
    assert sum(len(v) for v in drawn.values()) == len(spans)  # one bar per span
    plt.close(fig)


def test_the_rug_keeps_one_tick_per_column_with_its_worst_new_status():
    states, slo = run(200_000)
    tr = transitions(states)
    fig, ax = draw(states, slo, transitions=tr)
    bottom = ax.panels[-1]
    columns = pixel_columns(bottom)
    assert len(tr) > columns  # the case: more changes than pixel columns
    (rug,) = [c for c in bottom.collections if c.get_gid() == "transitions"]
    assert len(rug.get_segments()) <= columns
    x = np.array([seg[0][0] for seg in rug.get_segments()])
    # exhausted's colour
    black = np.array([tuple(c) == (0.0, 0.0, 0.0, 1.0) for c in rug.get_colors()])
    t_ex = mdates.date2num(tr.loc[tr["to_status"] == "exhausted",
                                  "ts"].dt.tz_localize(None).to_numpy())
    assert len(t_ex)
    lo, hi = mdates.date2num(tr["ts"].iloc[[0, -1]].dt.tz_localize(None).to_numpy())
    width = (hi - lo) / columns
    for when in t_ex:  # every column with a change to exhausted shows a black tick
        k = min(int((when - lo) // width), columns - 1)
        here = (x >= lo + k * width - 1e-9) & (x < lo + (k + 1) * width + 1e-9)
        assert black[here].any()
    plt.close(fig)


def test_what_is_drawn_does_not_grow_with_the_events():
    sizes = []
    for n in (50_000, 400_000):
        states, slo = run(n, days=2)
        fig, ax = draw(states, slo, transitions=transitions(states))
        sizes.append(sum(len(ln.get_xdata()) for p in ax.panels for ln in p.get_lines())
                     + sum(len(c.get_paths()) + len(getattr(c, "get_segments",
                                                            list)()) for p in ax.panels
                           for c in p.collections))
        columns = pixel_columns(ax.panels[-1])
        plt.close(fig)
    assert max(sizes) <= 20 * columns  # bounded by the pixel columns, whatever the events
    assert sizes[1] <= 1.5 * sizes[0]


def test_a_plain_figure_is_thinned_once_to_the_columns_left_beside_the_legends(monkeypatch):
    """On a figure without a layout engine the legends' room is made before the lines are
    thinned: the events are thinned once (one pass of the timeline's thinning), to the pixel
    columns of the narrowed panels (each column holds at most its first, last, lowest and highest
    event: the oracle, counted column by column), and one ``savefig`` draws the figure once."""
    import budgetlab.plotting.timeline as timeline

    passes = []
    thin = timeline._line_points
    monkeypatch.setattr(timeline, "_line_points", lambda *a, **k: passes.append(1) or thin(*a, **k))
    states, slo = run(200_000)
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)  # the axes 0.775 x 6 inches wide
    plot_timeline(states, slo=slo, ax=ax, transitions=transitions(states))
    columns = pixel_columns(ax.panels[-1])
    assert columns < 0.775 * 6 * 100 - 50  # the premise: the panels narrowed for the legends
    draws = []
    fig.canvas.mpl_connect("draw_event", lambda event: draws.append(event))
    fig.savefig(io.BytesIO(), format="png")
    assert (len(passes), len(draws)) == (1, 1)
    t = states["ts"].array.asi8
    edges = t[0] + np.ceil(np.arange(columns + 1) * ((t[-1] - t[0]) / columns)).astype(np.int64)
    edges[-1] = t[-1] + 1
    for gid in ("success_rate", "burn_rate", "budget_remaining"):
        (line,) = [ln for p in ax.panels for ln in p.get_lines() if ln.get_gid() == gid]
        x = np.asarray(line.get_xdata()).astype("datetime64[ns]").view(np.int64)
        per_column = np.histogram(x, bins=edges)[0]
        assert per_column.max() <= 4 and per_column.sum() == len(x)
    plt.close(fig)
