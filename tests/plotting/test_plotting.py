"""plot_timeline, plot_buckets, plot_alerts: tested through the artists' data, never pixels.

Each test computes the expected values with the pure functions (or plain pandas) and checks that
the drawn artists hold them.
"""

from __future__ import annotations

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import (
    SLO,
    AlertPolicy,
    AlertTier,
    alert_episodes,
    as_events,
    bin_events,
    bucket_burn_over_time,
    replay,
    transitions,
)
from budgetlab.errors import ConfigError, InputError, SchemaError
from budgetlab.plotting import (
    STATUS_COLORS,
    STATUS_HATCHES,
    gap_threshold,
    plot_alerts,
    plot_buckets,
    plot_timeline,
)
from budgetlab.plotting._common import gap_breaks

pytestmark = pytest.mark.filterwarnings("ignore::budgetlab.errors.PartialWindowWarning")

T0 = pd.Timestamp("2026-03-02", tz="UTC")


@pytest.fixture(autouse=True)
def _no_show_and_close(monkeypatch):
    def boom(*a, **k):  # a plot function must never call plt.show()
        raise AssertionError("plt.show() was called")

    monkeypatch.setattr(plt, "show", boom)
    yield
    plt.close("all")


def events(n=600, seed=1, p_fail=0.08, regions=None):
    rng = np.random.default_rng(seed)
    ts = T0 + pd.to_timedelta(np.sort(rng.uniform(0, 6 * 3600, n)), unit="s")
    bucket = rng.choice(["success", "timeout", "solve_error"], n, p=[1 - p_fail, p_fail / 2,
                                                                     p_fail / 2])
    groups = {"region": rng.choice(regions, n)} if regions else None
    return as_events(ts, bucket == "success", bucket, groups=groups)


def num(times):
    """matplotlib date numbers of UTC times."""
    return mdates.date2num(pd.to_datetime(pd.Series(times),
                                          utc=True).dt.tz_localize(None).to_numpy())


def by_gid(artists, gid):
    return [a for a in artists if a.get_gid() == gid]


def mpl_rgb(color):
    from matplotlib.colors import to_rgb

    return to_rgb(color)


# ------------------------------------------------------------------------------------------------
# plot_timeline: stacked panels, step lines with gaps, thinning, limits, bands, colours


def gap_events(seed=1):
    """60 events a minute apart, 5 silent hours, 60 more: one gap, after row 59."""
    rng = np.random.default_rng(seed)
    minutes = np.r_[np.arange(60), 360 + np.arange(60)]
    ts = T0 + pd.to_timedelta(minutes, unit="min")
    return as_events(ts, rng.random(120) > 0.1)


def with_gap(values, after):
    """The values with a NaN inserted after row ``after`` (hand-built oracle of a gap)."""
    return np.insert(np.asarray(values, dtype=float), after + 1, np.nan)


def test_timeline_draws_steps_with_a_break_where_no_events_came():
    ev = gap_events()
    slo = SLO(target=0.9, window="30min")
    st = replay(ev, slo)
    ax = plot_timeline(st)  # slo from states.attrs
    assert ax is plt.gca()
    # gap rule: median spacing 1 min x 20 = 20 min (2 % of the 7 h span is 8.4 min): the
    # 5-hour silence after row 59 breaks every line, nothing else does
    for panel, gid, column, scale in [(ax, "success_rate", "success_rate", 100), (ax.burn_ax,
                                                                                  "burn_rate",
                                                                                  "burn_rate", 1),
                                      (ax.budget_ax, "budget_remaining", "remaining_fraction",
                                       100)]:
        (line,) = by_gid(panel.get_lines(), gid)
        assert line.get_drawstyle() == "steps-post"
        np.testing.assert_allclose(line.get_ydata(), with_gap(st[column].to_numpy() * scale, 59))
        want_x = num(st["ts"])
        np.testing.assert_allclose(num(line.get_xdata()), np.insert(want_x, 60, want_x[59]))
    (target,) = by_gid(ax.get_lines(), "target")
    assert target.get_ydata()[0] == pytest.approx(90.0)
    assert ax.panels == [ax, ax.burn_ax, ax.budget_ax]
    assert ax.get_ylabel() == "success\nrate (%)"
    assert ax.burn_ax.get_ylabel() == "burn\nrate (×)"
    assert ax.budget_ax.get_ylabel() == "budget\nleft (%)"
    assert ax.budget_ax.get_xlabel() == "time (UTC)"
    # one time axis: the panels share x, stacked top-down without overlapping
    assert ax.burn_ax.get_shared_x_axes().joined(ax, ax.burn_ax) and ax.get_shared_x_axes().joined(
        ax, ax.budget_ax
    )
    boxes = [p.get_position() for p in ax.panels]
    assert boxes[0].y0 > boxes[1].y1 and boxes[1].y0 > boxes[2].y1


def test_timeline_gap_can_be_set():
    st = replay(gap_events(), SLO(target=0.9, window="30min"))
    ax = plot_timeline(st, gap="10h")  # longer than the silence: no break
    (line,) = by_gid(ax.get_lines(), "success_rate")
    assert not np.isnan(line.get_ydata()).any() and len(line.get_ydata()) == len(st)


def test_timeline_default_gap_is_at_most_the_window():
    """Events each minute 00:00..00:09, then 00:24..00:33: the 15 min silence is shorter than the
    spacing rule's 20 min (20 x the 1 min median) but longer than the 10 min window, which held no
    event from 00:19 on: the line breaks there (it was drawn across, as if the status held)."""
    t = pd.to_datetime([f"2026-01-01 00:{m:02d}" for m in [*range(10), *range(24, 34)]], utc=True)
    st = replay(as_events(t, [True] * 20), SLO(target=0.9, window="10min"))
    (line,) = by_gid(plot_timeline(st).get_lines(), "success_rate")
    assert np.flatnonzero(np.isnan(line.get_ydata())).tolist() == [10]  # after the 10th event
    plt.close("all")


def test_timeline_reduces_each_line_to_its_mean_and_range():
    """Beyond ``max_points`` events each line is its time-weighted mean per column over a band of
    its range (thin_minmax's extremes drew a block from the lowest to the highest value): the
    line keeps the area under the events' step function and the band its extremes."""
    ev = events(n=20_000, p_fail=0.1)
    st = replay(ev, SLO(target=0.9, window="30min"))
    ax = plot_timeline(st, max_points=400)
    t = st["ts"].array.asi8
    assert len(gap_breaks(t, gap_threshold(t))) == 0  # 20,000 events in 6 h: no gap to break at
    for panel, gid, band_gid, column, scale in [
        (ax, "success_rate", "success_range", "success_rate", 100),
        (ax.burn_ax, "burn_rate", "burn_range", "burn_rate", 1),
        (ax.budget_ax, "budget_remaining", "budget_range", "remaining_fraction", 100),
    ]:
        y = st[column].to_numpy() * scale
        (line,) = by_gid(panel.get_lines(), gid)
        x, drawn = num(line.get_xdata()), np.asarray(line.get_ydata(), dtype=float)
        assert len(drawn) <= 100 + 1  # 400 // 4 columns and the end
        assert (x[0], x[-1]) == (pytest.approx(num(st["ts"].iloc[[0]])[0]),
                                 pytest.approx(num(st["ts"].iloc[[-1]])[0]))
        # the time-weighted mean of the events' steps (each value held to the next event)
        want = float(np.sum(y[:-1] * np.diff(t)) / (t[-1] - t[0]))
        got = float(np.sum(drawn[:-1] * np.diff(x)) / (x[-1] - x[0]))
        assert got == pytest.approx(want, rel=1e-6)
        (band,) = by_gid(panel.collections, band_gid)
        ys = np.concatenate([p.vertices[:, 1] for p in band.get_paths()])
        assert (ys.min(), ys.max()) == (pytest.approx(y[:-1].min()), pytest.approx(y[:-1].max()))
        lo, hi = panel.get_ylim()
        assert lo < ys.min() and ys.max() < hi  # the y range holds the band


def test_timeline_y_ranges_follow_the_data():
    ts = T0 + pd.to_timedelta(np.arange(300), unit="min")
    # always 100 %
    st = replay(as_events(ts, np.ones(300, dtype=bool)), SLO(target=0.95, window="1h"))
    ax = plot_timeline(st)
    lo, hi = ax.get_ylim()
    # data 100 %, target 95 %: span 5 points padded by 8 % each side -> 94.6 .. 100.4
    assert (lo, hi) == pytest.approx((94.6, 100.4))
    lo, hi = ax.burn_ax.get_ylim()
    # burn 0, the 1x line: 0 .. 1 padded by 8 % each side, so the line at 0 lies above the
    # bottom spine (a reader tells "no failure" from "not drawn")
    assert (lo, hi) == pytest.approx((-0.08, 1.08))
    (burn,) = by_gid(ax.burn_ax.get_lines(), "burn_rate")
    assert np.nanmax(np.abs(burn.get_ydata())) == 0
    lo, hi = ax.budget_ax.get_ylim()
    assert (lo, hi) == pytest.approx((-6.0, 106.0))  # 0 .. 100 % padded by 6 %
    plt.close("all")
    bad = replay(events(p_fail=0.3), SLO(target=0.9, window="30min"))
    ax = plot_timeline(bad)
    sr = bad["success_rate"].to_numpy() * 100
    lo, hi = ax.get_ylim()
    span = max(sr.max(), 90) - min(sr.min(), 90)
    assert (lo, hi) == pytest.approx((min(sr.min(), 90) - 0.08 * span, max(sr.max(),
                                                                           90) + 0.08 * span))


def test_timeline_budget_panel_shows_the_whole_scale_when_the_budget_is_gone_throughout():
    """Every event fails: remaining_fraction is 0 from the first event to the last. The budget
    panel still runs 0 .. 100 % (padded by 6 %: -6 .. 106) as in any other group, not up to just
    above the 50 % warning threshold; the line lies at 0."""
    ts = T0 + pd.to_timedelta(np.arange(120), unit="min")
    st = replay(as_events(ts, np.zeros(120, dtype=bool), ["timeout"] * 120),
                SLO(target=0.95, window="1h"))
    assert (st["remaining_fraction"] == 0).all()
    ax = plot_timeline(st)
    assert ax.budget_ax.get_ylim() == pytest.approx((-6.0, 106.0))
    (line,) = by_gid(ax.budget_ax.get_lines(), "budget_remaining")
    assert np.nanmax(np.abs(line.get_ydata())) == 0


def test_timeline_burn_thresholds_of_a_policy():
    st = replay(events(p_fail=0.12), SLO(target=0.9, window="30min"))
    peak = st["burn_rate"].max()
    pol = AlertPolicy((AlertTier("fast", "page", "5min", None, 1.2 * peak), AlertTier("huge",
                                                                                      "page", "1h",
                                                                                      None, 100.0)))
    ax = plot_timeline(st, policy=pol)
    (shown,) = by_gid(ax.burn_ax.get_lines(), "burn_threshold")
    assert shown.get_ydata()[0] == pytest.approx(1.2 * peak)
    assert ax.burn_ax.get_ylim()[1] >= 1.2 * peak
    labels = [t.get_text() for t in ax.burn_ax.get_legend().get_texts()]
    assert "huge: burn 100 (above the axis)" in labels and (
        by_gid(ax.burn_ax.get_lines(), "burn_one")[0].get_ydata()[0] == 1
    )


def status_runs_loop(st, gap_after):
    """(status, start, end) runs by a plain loop: a run lasts until the next change; a gap or
    the end closes it at its last event."""
    runs = []
    ts = st["ts"].tolist()
    status = st["status"].astype(str).tolist()
    start = 0
    for i in range(1, len(status) + 1):
        if i == len(status) or status[i] != status[start] or (i - 1) in gap_after:
            end = ts[i] if i < len(status) and (i - 1) not in gap_after else ts[i - 1]
            runs.append((status[start], ts[start], end))
            start = i
    return runs


def test_timeline_status_bands_cover_each_run_with_colour_and_hatch():
    st = replay(gap_events(), SLO(target=0.95, window="20min"))
    ax = plot_timeline(st)
    expected = status_runs_loop(st, {59})
    assert len({s for s, _, _ in expected}) >= 2
    bottom = ax.budget_ax
    for status in ("healthy", "warning", "critical", "exhausted"):
        want = [(num([s])[0], num([e])[0]) for name, s, e in expected if name == status]
        coll = by_gid(bottom.collections, f"status_{status}")
        if not want:
            assert coll == []
            continue
        (c,) = coll
        got = [(p.vertices[:, 0].min(), p.vertices[:, 0].max()) for p in c.get_paths()]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
        assert np.allclose(c.get_facecolor()[0][:3], mpl_rgb(STATUS_COLORS[status]))
        assert (c.get_hatch() or "") == STATUS_HATCHES[status]
    # bands on the bottom panel
    assert not [c for c in ax.collections if str(c.get_gid()).startswith("status_")]


def test_status_colours_are_okabe_ito_and_differ_in_lightness():
    okabe_ito = {"#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
                 "#CC79A7"}
    assert set(STATUS_COLORS.values()) <= okabe_ito
    # CIE L* (D65) of each colour, by the textbook formula: a greyscale or colour-blind reader
    # still tells them apart by lightness together with the hatching
    def lightness(hex_color):
        rgb = np.array(mpl_rgb(hex_color))
        lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        y = lin @ [0.2126, 0.7152, 0.0722]
        return 116 * np.cbrt(y) - 16 if y > 0.008856 else 903.3 * y
    light = {s: lightness(c) for s, c in STATUS_COLORS.items()}
    assert (
        light["warning"] > light["healthy"] > light["exhausted"]
        and light["critical"] > light["exhausted"] + 40
    )
    assert len(set(STATUS_HATCHES.values())) == 4


def test_timeline_transitions_lines_when_few_rug_when_many():
    slo = SLO(target=0.9, window="20min")
    st = replay(events(p_fail=0.12), slo)
    tr = transitions(st)
    few = tr.head(5)
    ax = plot_timeline(st, transitions=few)
    for panel in ax.panels:  # dotted lines across every panel
        (lc,) = by_gid(panel.collections, "transitions")
        segs = lc.get_segments()
        np.testing.assert_allclose([s[0][0] for s in segs], num(few["ts"]))
        assert all(s[0][1] == 0 and s[1][1] == 1 for s in segs)
    colors = by_gid(ax.collections, "transitions")[0].get_colors()
    assert np.allclose(colors[0][:3], mpl_rgb(STATUS_COLORS[str(few["to_status"].iloc[0])]))
    plt.close("all")
    many = pd.concat([tr] * (61 // max(len(tr), 1) + 1), ignore_index=True).head(61)
    ax = plot_timeline(st, transitions=many)
    assert not by_gid(ax.collections, "transitions")
    (lc,) = by_gid(ax.budget_ax.collections, "transitions")
    segs = lc.get_segments()
    assert len(segs) == 61
    assert all(s[1][1] <= 0.07 for s in segs)  # a rug of short ticks at the bottom
    assert any("61 status changes at events "
               "(rug)" == t.get_text() for t in ax.budget_ax.get_legend().get_texts())


def test_timeline_incidents_time_zone_and_legends_outside():
    st = replay(events(), SLO(target=0.9, window="30min"))
    inc = pd.DataFrame({"incident_id": ["X"], "start": [T0 + pd.Timedelta("1h")],
                        "end": [T0 + pd.Timedelta("2h")]})
    ax = plot_timeline(st, incidents=inc, tz="Europe/Berlin")
    for panel in ax.panels:
        (span,) = by_gid(panel.patches, "incident")  # a Rectangle in data x, axes y
        np.testing.assert_allclose([span.get_x(), span.get_x() + span.get_width()],
                                   num([inc["start"][0], inc["end"][0]]))
    assert ax.budget_ax.get_xlabel() == "time (Europe/Berlin)"
    # tick labels in local time: 01:00 UTC is 02:00 in Berlin (CET, UTC+1)
    fmt = ax.budget_ax.xaxis.get_major_formatter()
    assert fmt.format_data_short(num([T0 + pd.Timedelta("1h")])[0]) == "2026-03-02 02:00:00"
    # only the bottom panel labels time
    assert not any(t.get_visible() and t.get_text() for t in ax.get_xticklabels())
    ax.set_title("a title", loc="left")
    ax.figure.canvas.draw()
    for panel in ax.panels:  # each legend right of its panel: it covers no data
        assert panel.get_legend().get_window_extent().x0 >= panel.get_window_extent().x1
    labels = [t.get_text() for p in ax.panels for t in p.get_legend().get_texts()]
    assert {"incident", "healthy", "warning (< 50%)", "critical (< 10%)", "exhausted (≤ 0)",
            "burn rate",
            "budget remaining (%)", "target 90%", "1× = the allowed pace"} <= set(labels)


def test_timeline_signature_is_backwards_compatible_and_checks_input():
    ev = events(regions=["fra", "ams"])
    slo = SLO(target=0.9, window="30min")
    st = replay(ev, slo, by="region")
    fig, ax0 = plt.subplots()
    one = st[st["region"] == "fra"]
    ax = plot_timeline(one, slo=slo, incidents=None, transitions=transitions(one), ax=ax0,
                       max_points=5000)
    assert ax is ax0 and len(fig.axes) == 3
    fig2, ax2 = plt.subplots()
    ax = plot_timeline(one, slo=slo, ax=ax2, budget=False)
    assert ax.budget_ax is None and len(fig2.axes) == 2 and ax.burn_ax.get_xlabel() == "time (UTC)"
    with pytest.raises(InputError, match="region"):
        plot_timeline(st, ax=plt.figure().gca())
    with pytest.raises(SchemaError):
        plot_timeline(one.drop(columns="burn_rate"), ax=plt.figure().gca())
    with pytest.raises(ConfigError, match="time zone"):
        plot_timeline(one, ax=plt.figure().gca(), tz="Nowhere/Town")
    with pytest.raises(ConfigError, match="max_points"):
        plot_timeline(one, ax=plt.figure().gca(), max_points=1)


def test_timeline_in_an_axes_placed_by_hand_and_in_a_shared_grid():
    st = replay(events(), SLO(target=0.9, window="30min"))
    fig = plt.figure()
    ax = plot_timeline(st, ax=fig.add_axes((0.1, 0.1, 0.6, 0.8)))
    boxes = [p.get_position() for p in ax.panels]
    # the box the axes had, less the room made below it for the dates and the x label where
    # 0.48 inch holds them but not the figure's 1 % margin (0.6 px here)
    assert boxes[0].y1 == pytest.approx(0.9) and 0.1 <= boxes[2].y0 < 0.1 + 1 / 480
    # the upper axes' time labels are hidden: keep them so
    fig, axes = plt.subplots(2, 1, sharex=True)
    ax = plot_timeline(st, ax=axes[0])
    assert ax.budget_ax.get_xlabel() == "" and not any(t.get_visible() and t.get_text()
                                                      for t in ax.budget_ax.get_xticklabels())


# ------------------------------------------------------------------------------------------------
# plot_buckets


def test_buckets_stack_holds_each_buckets_burn():
    ev = events(n=2000, p_fail=0.1)
    slo = SLO(target=0.95)
    ot = bucket_burn_over_time(ev, slo, freq="1h")
    ax = plot_buckets(ot)
    assert ax is plt.gca()
    layers = by_gid(ax.patches, "bucket")
    assert [p.get_label() for p in layers] == ["timeout", "solve_error"]
    # oracle: plain pandas counts per hour
    f = ev.assign(hour=ev["ts"].dt.floor("1h"))
    n = f.groupby("hour").size()
    bottom = np.zeros(len(n))
    for p, bucket in zip(layers, ["timeout", "solve_error"], strict=True):
        fails = f[f["bucket"] == bucket].groupby("hour").size().reindex(n.index, fill_value=0)
        want = fails.to_numpy() / (n.to_numpy() * (1 - 0.95))
        data = p.get_data()
        np.testing.assert_allclose(data.values - data.baseline, want, rtol=1e-12)
        np.testing.assert_allclose(data.baseline, bottom, atol=1e-12)
        bottom = bottom + want
        # the hours' edges, the first and the last cut to the first and the last event
        np.testing.assert_allclose(data.edges, num([ev["ts"].min(), *n.index[1:],
                                                    ev["ts"].max()]))
    # the stack's top is the total burn rate of each hour
    total = f.groupby("hour")["ok"].apply(lambda s: (~s).sum()).to_numpy() / (n.to_numpy() * 0.05)
    np.testing.assert_allclose(layers[-1].get_data().values, total, rtol=1e-12)
    assert ax.get_ylabel() == "burn rate per 1 h bin\n(1 = allowed pace)"
    assert ax.get_xlabel() == "time (UTC)"
    ax.figure.canvas.draw()
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1


def test_buckets_panel_without_failures_says_so():
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    quiet = as_events(ts, np.ones(120, dtype=bool), ["success"] * 120)
    ax = plot_buckets(bucket_burn_over_time(quiet, SLO(target=0.9), freq="1h"))
    assert [t.get_text() for t in ax.texts if t.get_gid() == "no_failures"] == [
        "no failures in these bins"]
    plt.close("all")
    # one failure in the second hour: a layer of burn 1 / (60 x 0.1) there, and no such text
    ok = np.ones(120, dtype=bool)
    ok[90] = False
    ax = plot_buckets(bucket_burn_over_time(
        as_events(ts, ok, np.where(ok, "success", "timeout")), SLO(target=0.9), freq="1h"))
    data = by_gid(ax.patches, "bucket")[0].get_data()
    np.testing.assert_allclose(data.values - data.baseline, [0.0, 1 / 6])
    assert not [t for t in ax.texts if t.get_gid() == "no_failures"]


def test_buckets_by_group_layers_add_up_over_groups():
    ev = events(n=3000, p_fail=0.1, regions=["fra", "ams"])
    slo = SLO(target=0.9)
    ot = bucket_burn_over_time(ev, slo, freq="2h", by="region")
    ax = plot_buckets(ot, by="region", tz="Europe/Berlin")
    layers = by_gid(ax.patches, "bucket")
    assert [p.get_label() for p in layers] == ["timeout · ams", "timeout · fra",
                                               "solve_error · ams", "solve_error · fra"]
    f = ev.assign(b=ev["ts"].dt.floor("2h"))
    n = f.groupby("b").size()
    for p in layers:
        bucket, region = p.get_label().split(" · ")
        sel = (
            f[(f["bucket"] == bucket) & (f["region"] == region)]
            .groupby("b")
            .size()
            .reindex(n.index, fill_value=0)
        )
        d = p.get_data()
        np.testing.assert_allclose(d.values - d.baseline,
                                   sel.to_numpy() / (n.to_numpy() * (1 - 0.9)), rtol=1e-9)
    # summed over groups without by=: the same total
    plt.close("all")
    ax2 = plot_buckets(ot)
    np.testing.assert_allclose(by_gid(ax2.patches, "bucket")[-1].get_data().values,
                               layers[-1].get_data().values)
    assert ax.get_xlabel() == "time (Europe/Berlin)"


def test_buckets_reference_bands_only_where_the_data_reach():
    ev = events(n=2000, p_fail=0.02)
    ot = bucket_burn_over_time(ev, SLO(target=0.9), freq="1h")  # burn ~0.2
    ax = plot_buckets(ot)
    assert [ln.get_ydata()[0] for ln in by_gid(ax.get_lines(), "band")] == [1.0]
    plt.close("all")
    ot = bucket_burn_over_time(events(n=2000, p_fail=0.4), SLO(target=0.9), freq="1h")  # burn ~4
    ax = plot_buckets(ot)
    assert [ln.get_ydata()[0] for ln in by_gid(ax.get_lines(), "band")] == [1.0, 2.0, 5.0]


def test_buckets_burn_one_line_lies_inside_the_frame():
    """A stack whose top is exactly 1 (by hand: 1 failure in 2 events a bin at 50 %: 1 / (2 x 0.5))
    and a table without failures: the burn-1 line would sit on the frame's top with no margin
    (axes.ymargin 0); the y range leaves room above it."""
    ts = pd.date_range("2026-01-01", periods=8, freq="30min", tz="UTC")
    ok = np.array([True, False] * 4)
    ot = bucket_burn_over_time(as_events(ts, ok, np.where(ok, "success", "timeout")),
                               SLO(target=0.5), freq="1h")
    quiet = bucket_burn_over_time(as_events(ts, np.ones(8, dtype=bool), ["success"] * 8),
                                  SLO(target=0.5), freq="1h")
    with plt.rc_context({"axes.ymargin": 0.0}):
        for table, peak in ((ot, 1.0), (quiet, 0.0)):
            ax = plt.figure().add_subplot()
            plot_buckets(table, ax=ax)
            tops = [p.get_data().values for p in by_gid(ax.patches, "bucket")]
            assert max((float(t.max()) for t in tops), default=0.0) == peak
            assert [ln.get_ydata()[0] for ln in by_gid(ax.get_lines(), "band")] == [1.0]
            lo, hi = ax.get_ylim()
            assert lo < 1.0 < hi and lo == 0.0


def test_buckets_input_checks():
    ot = bucket_burn_over_time(events(), SLO(target=0.9), freq="1h")
    with pytest.raises(SchemaError, match="region"):
        plot_buckets(ot, by="region")
    with pytest.raises(InputError, match="empty"):
        plot_buckets(ot.iloc[0:0])
    one_bin = ot[ot["bin_start"] == ot["bin_start"].iloc[0]].copy()
    one_bin.attrs = {}
    with pytest.raises(ConfigError, match="bin width"):
        plot_buckets(one_bin)


# ------------------------------------------------------------------------------------------------
# plot_alerts


def test_alerts_bars_are_the_episodes_and_every_tier_has_a_row():
    ts = pd.date_range("2026-01-01", periods=6 * 60, freq="1min", tz="UTC")
    ok = [not (60 <= i < 90 or 200 <= i < 215) for i in range(len(ts))]
    b = bin_events(as_events(ts, ok), "1min")
    pol = AlertPolicy((AlertTier("fast", "page", "5min", None, 5.0), AlertTier("never", "ticket",
                                                                               "1h", None, 50.0)))
    ep = alert_episodes(b, 0.9, pol)
    assert len(ep) == 2
    inc = pd.DataFrame({"incident_id": ["A", "B"], "start": ts[[60, 200]], "end": ts[[90, 215]]})
    ax = plot_alerts(ep, incidents=inc, tz="UTC")
    labels = [c.get_label() for c in ax.containers]
    assert labels == ["fast", "never", "incidents"]
    fast, never, incs = ax.containers
    got = sorted((r.get_x(), r.get_x() + r.get_width()) for r in fast.patches)
    want = sorted(zip(num(ep["start"]), num(ep["end"]), strict=True))
    np.testing.assert_allclose(got, want, atol=1e-9)
    assert len(never.patches) == 0  # a row, but it never fired
    np.testing.assert_allclose(sorted(r.get_x() for r in incs.patches), num(inc["start"]))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fast (page)", "never (ticket)",
                                                            "incidents"]
    np.testing.assert_allclose(ax.get_xlim(), num([ep.attrs["grid_start"], ep.attrs["grid_end"]]))
    assert ax.get_xlabel() == "time (UTC)"


def test_overlapping_incidents_get_lanes_of_their_row():
    """Two incidents that overlap were drawn over each other on one row (where the first ended
    could not be seen): each gets a lane of the row, the first free one from the top."""
    ts = pd.date_range("2026-01-01", periods=6 * 60, freq="1min", tz="UTC")
    ep = alert_episodes(bin_events(as_events(ts, np.ones(len(ts), dtype=bool)), "1min"), 0.9,
                        AlertPolicy.single_window("10min", 3.0))
    # A 01:00-03:00, B 02:00-02:30 (inside A), C 03:00-04:00 (A has ended: A's lane again)
    inc = pd.DataFrame({"incident_id": ["A", "B", "C"], "start": ts[[60, 120, 180]],
                        "end": ts[[180, 150, 240]]})
    ax = plot_alerts(ep, incidents=inc, tz="UTC")
    bars = ax.containers[-1].patches
    # the incident row is row 1 (one tier above it), 0.6 high: two lanes of 0.3, centred at
    # 1 - 0.15 and 1 + 0.15 (the y axis is inverted: the first lane on top)
    got = [(round(r.get_y() + r.get_height() / 2, 9), round(r.get_height(), 9)) for r in bars]
    assert got == [(0.85, 0.3), (1.15, 0.3), (0.85, 0.3)]
    np.testing.assert_allclose([r.get_x() + r.get_width() for r in bars], num(inc["end"]))
    names = {t.get_text(): round(t.xy[1], 9) for t in ax.texts if t.get_text() in ("A", "B", "C")}
    assert names == {"A": 0.85, "B": 1.15, "C": 0.85}


def test_a_short_episode_on_a_long_axis_is_drawn_at_least_a_pixel_wide():
    """A 10-minute page on a 14-day axis is a third of a pixel of bar: its edge, in its own
    colour, makes it at least one pixel wide (it was invisible, while the legend said "page")."""
    ts = pd.date_range("2026-01-01", periods=14 * 24 * 12, freq="5min", tz="UTC")
    ok = np.ones(len(ts), dtype=bool)
    ok[2000] = False  # one failure: the 10-minute window holds it for two 5-minute bins
    ep = alert_episodes(bin_events(as_events(ts, ok), "5min"), 0.9,
                        AlertPolicy.single_window("10min", 3.0))
    assert len(ep) == 1 and ep["duration"].iloc[0] == pd.Timedelta("10min")
    fig, ax = plt.subplots(figsize=(8, 3), dpi=100)
    plot_alerts(ep, ax=ax)
    fig.canvas.draw()
    (bar,) = ax.containers[0].patches
    px = bar.get_window_extent().width  # the bar's own width, without its edge (widened to
    # about one pixel column since stop 63's alert_bars: the third of a pixel is not asserted)
    edge_px = bar.get_linewidth() * fig.dpi / 72.0
    assert px + edge_px >= 1.0
    assert bar.get_edgecolor() == bar.get_facecolor()
    plt.close(fig)


def test_alerts_grouped_rows():
    ts = pd.date_range("2026-01-01", periods=3 * 60, freq="1min", tz="UTC")
    region = np.where(np.arange(len(ts)) % 2 == 0, "fra", "ams")
    ok = [not (60 <= i < 90 and region[i] == "fra") for i in range(len(ts))]
    ev = as_events(ts, ok, groups={"region": region})
    bins = bin_events(ev, "1min", by="region")
    ep = alert_episodes(bins, 0.9, AlertPolicy.single_window("10min", 3.0))
    fig, ax0 = plt.subplots()
    ax = plot_alerts(ep, ax=ax0)
    assert ax is ax0
    # the groups with episodes: fra
    assert [c.get_label() for c in ax.containers] == ["fra · page_10m"]
    assert [len(c.patches) for c in ax.containers] == [len(ep)]
    # every evaluated group when told them: ams (no episode) named in the legend, without rows
    ax = plot_alerts(ep, groups=bins[["region"]].drop_duplicates(), ax=plt.subplots()[1])
    assert [c.get_label() for c in ax.containers] == ["fra · page_10m"]
    assert "no alert in 1 group:\nams" in [t.get_text() for t in ax.get_legend().get_texts()]


def filling_patches(ax):
    """(x0, x1, y0, y1) of the filling spans drawn, in date numbers and rows."""
    return sorted((r.get_x(), r.get_x() + r.get_width(), r.get_y(), r.get_y() + r.get_height())
                  for r in ax.patches if r.get_gid() == "filling")


def test_each_tier_row_shows_its_long_window_filling():
    """1 h and 6 h tiers on a 3 h grid (00:00-03:00): the 1 h row is shaded 00:00-01:00, the 6 h
    row 00:00-03:00 (its window never fills: clipped to the axis), the incident row not at all;
    one legend entry names them."""
    ts = pd.date_range("2026-01-01", periods=3 * 60, freq="1min", tz="UTC")
    ok = [not (100 <= i < 130) for i in range(len(ts))]
    pol = AlertPolicy((AlertTier("p1h", "page", "1h", None, 2.0),
                       AlertTier("t6h", "ticket", "6h", None, 1.0)))
    ep = alert_episodes(bin_events(as_events(ts, ok), "1min"), 0.9, pol)
    inc = pd.DataFrame({"start": ts[[100]], "end": ts[[130]]})
    ax = plot_alerts(ep, incidents=inc, tz="UTC")
    t0 = pd.Timestamp("2026-01-01", tz="UTC")
    x0, x1h, x3h = num([t0, t0 + pd.Timedelta("1h"), t0 + pd.Timedelta("3h")])
    # rows: 0 p1h, 1 t6h, 2 incidents; each span 0.9 of its row, centred on it
    np.testing.assert_allclose(filling_patches(ax), [(x0, x1h, -0.45, 0.45),
                                                     (x0, x3h, 0.55, 1.45)])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels.count("long window filling: scored apart") == 1
    assert labels[-1] == "incident"
    # scored with filling="count", the same spans are keyed as scored with the rest
    plt.close("all")
    ax = plot_alerts(ep, incidents=inc, tz="UTC", filling="count")
    assert len(filling_patches(ax)) == 2
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "long window filling: scored apart" not in labels
    assert labels.count("long window filling: scored with the rest") == 1
    with pytest.raises(ConfigError, match="filling='both'"):
        plot_alerts(ep, filling="both")


def test_hand_built_episodes_get_no_filling_span():
    """Without alert_episodes' attrs nothing says when a window filled: nothing extra is drawn."""
    t0 = pd.Timestamp("2026-01-01", tz="UTC")
    ep = pd.DataFrame({"tier": ["page_1h"], "severity": ["page"], "start": [t0],
                       "end": [t0 + pd.Timedelta("10min")]})
    ax = plot_alerts(ep, tz="UTC")
    assert filling_patches(ax) == []
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["page"]
    # grid times without the tiers' windows: nothing either
    ep.attrs.update(grid_start=t0, grid_end=t0 + pd.Timedelta("3h"))
    assert filling_patches(plot_alerts(ep, ax=plt.figure().add_subplot())) == []


def test_timeline_of_a_lone_event_reads_in_clock_times():
    """One event (a group seen once, as OPTIONS in an access log): the axis spans half an hour
    each side and its tick labels are clock times, not raw date numbers."""
    t = pd.Timestamp("2015-05-20T14:05:16Z")
    st = replay(as_events([t], [False]), SLO(target=0.999, window="1h"))
    ax = plot_timeline(st, tz="Europe/Berlin")
    lo, hi = ax.budget_ax.get_xlim()
    np.testing.assert_allclose([lo, hi], num([t - pd.Timedelta("30min"),
                                              t + pd.Timedelta("30min")]))
    ax.figure.canvas.draw()
    labels = [x.get_text() for x in ax.budget_ax.get_xticklabels() if x.get_text()]
    # 15:40, 15:50, ... (Berlin, UTC+2 in May)
    assert labels and all(":" in x for x in labels), labels
    assert "16:00" in labels
    plt.close(ax.figure)
