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
from budgetlab.plotting import STATUS_COLORS, plot_alerts, plot_buckets, plot_timeline

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
    bucket = rng.choice(["success", "timeout", "solve_error"], n, p=[1 - p_fail, p_fail / 2, p_fail / 2])
    groups = {"region": rng.choice(regions, n)} if regions else None
    return as_events(ts, bucket == "success", bucket, groups=groups)


def num(times):
    """matplotlib date numbers of UTC times."""
    return mdates.date2num(pd.to_datetime(pd.Series(times), utc=True).dt.tz_localize(None).to_numpy())


def by_gid(artists, gid):
    return [a for a in artists if a.get_gid() == gid]


# ------------------------------------------------------------------------------------------------
# plot_timeline


def test_timeline_lines_hold_the_replay_values():
    ev = events()
    slo = SLO(target=0.9, window="30min")
    st = replay(ev, slo)
    ax = plot_timeline(st)  # slo from states.attrs
    assert ax is plt.gca()
    (success,) = by_gid(ax.get_lines(), "success_rate")
    np.testing.assert_allclose(success.get_ydata(), st["success_rate"].to_numpy() * 100)
    np.testing.assert_allclose(num(success.get_xdata()), num(st["ts"]))
    (target,) = by_gid(ax.get_lines(), "target")
    assert target.get_ydata()[0] == pytest.approx(90.0)
    (burn,) = by_gid(ax.burn_ax.get_lines(), "burn_rate")
    np.testing.assert_allclose(burn.get_ydata(), st["burn_rate"].to_numpy())
    (budget,) = by_gid(ax.budget_ax.get_lines(), "budget_remaining")
    np.testing.assert_allclose(budget.get_ydata(), st["remaining_fraction"].to_numpy() * 100)
    assert ax.get_ylabel() == "success rate in window (%)"
    assert ax.burn_ax.get_ylabel() == "burn rate (1 = allowed pace)"
    assert ax.budget_ax.get_ylabel() == "budget remaining in window (%)"
    assert ax.get_xlabel() == "time (UTC)"


def test_timeline_thins_to_max_points_keeping_the_last():
    st = replay(events(n=1000), SLO(target=0.9, window="30min"))
    ax = plot_timeline(st, max_points=100, budget=False)
    (success,) = by_gid(ax.get_lines(), "success_rate")
    assert len(success.get_ydata()) <= 101
    assert success.get_ydata()[-1] == pytest.approx(st["success_rate"].iloc[-1] * 100)
    assert ax.budget_ax is None


def status_runs_loop(st):
    """(status, start, end) runs by a plain loop: a run lasts until the next change, the last
    one until the last event."""
    runs = []
    ts = st["ts"].tolist()
    status = st["status"].astype(str).tolist()
    start = 0
    for i in range(1, len(status) + 1):
        if i == len(status) or status[i] != status[start]:
            runs.append((status[start], ts[start], ts[i] if i < len(status) else ts[-1]))
            start = i
    return runs


def test_timeline_status_bands_cover_each_run():
    st = replay(events(p_fail=0.15), SLO(target=0.9, window="20min"))
    ax = plot_timeline(st)
    expected = status_runs_loop(st)
    assert len({s for s, _, _ in expected}) >= 2
    for status in ("healthy", "warning", "critical", "exhausted"):
        want = [(num([s])[0], num([e])[0]) for name, s, e in expected if name == status]
        coll = by_gid(ax.collections, f"status_{status}")
        if not want:
            assert coll == []
            continue
        (c,) = coll
        got = [(p.vertices[:, 0].min(), p.vertices[:, 0].max()) for p in c.get_paths()]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
        y = np.concatenate([p.vertices[:, 1] for p in c.get_paths()])
        assert y.min() == 0 and y.max() == 1  # full height (axes coordinates)
        assert np.allclose(c.get_facecolor()[0][:3], mpl_rgb(STATUS_COLORS[status]))


def mpl_rgb(color):
    from matplotlib.colors import to_rgb

    return to_rgb(color)


def test_timeline_transitions_lines_when_few_rug_when_many():
    slo = SLO(target=0.9, window="20min")
    st = replay(events(p_fail=0.12), slo)
    tr = transitions(st)
    few = tr.head(5)
    ax = plot_timeline(st, transitions=few)
    (lc,) = by_gid(ax.collections, "transitions")
    segs = lc.get_segments()
    np.testing.assert_allclose([s[0][0] for s in segs], num(few["ts"]))
    assert all(s[0][1] == 0 and s[1][1] == 1 for s in segs)  # full height
    colors = lc.get_colors()
    assert np.allclose(colors[0][:3], mpl_rgb(STATUS_COLORS[str(few["to_status"].iloc[0])]))
    plt.close("all")
    many = pd.concat([tr] * (61 // max(len(tr), 1) + 1), ignore_index=True).head(61)
    ax = plot_timeline(st, transitions=many)
    (lc,) = by_gid(ax.collections, "transitions")
    segs = lc.get_segments()
    assert len(segs) == 61
    assert all(s[1][1] <= 0.05 for s in segs)  # a rug of short ticks at the bottom
    assert any("61 status changes (rug)" == t.get_text() for t in ax.get_legend().get_texts())


def test_timeline_incidents_time_zone_and_legend_outside():
    st = replay(events(), SLO(target=0.9, window="30min"))
    inc = pd.DataFrame({"incident_id": ["X"], "start": [T0 + pd.Timedelta("1h")], "end": [T0 + pd.Timedelta("2h")]})
    ax = plot_timeline(st, incidents=inc, tz="Europe/Berlin")
    (span,) = by_gid(ax.patches, "incident")  # a Rectangle in data x, axes y
    np.testing.assert_allclose([span.get_x(), span.get_x() + span.get_width()], num([inc["start"][0], inc["end"][0]]))
    assert ax.get_xlabel() == "time (Europe/Berlin)"
    # tick labels in local time: 01:00 UTC is 02:00 in Berlin (CET, UTC+1)
    fmt = ax.xaxis.get_major_formatter()
    assert fmt.format_data_short(num([T0 + pd.Timedelta("1h")])[0]) == "2026-03-02 02:00:00"
    # the legend sits right of the outermost y axis: it covers neither data nor axis labels
    ax.set_title("a title", loc="left")
    fig = ax.figure
    fig.canvas.draw()
    leg = ax.get_legend().get_window_extent()
    assert leg.x0 >= ax.budget_ax.get_tightbbox().x1 - 1e-6
    assert leg.x0 >= ax.get_window_extent().x1
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"incident", "healthy", "exhausted", "burn rate", "budget remaining (%)"} <= set(labels)


def test_timeline_signature_is_backwards_compatible_and_checks_input():
    ev = events(regions=["fra", "ams"])
    slo = SLO(target=0.9, window="30min")
    st = replay(ev, slo, by="region")
    fig, ax0 = plt.subplots()
    one = st[st["region"] == "fra"]
    ax = plot_timeline(one, slo=slo, incidents=None, transitions=transitions(one), ax=ax0, max_points=5000)
    assert ax is ax0
    with pytest.raises(InputError, match="region"):
        plot_timeline(st, ax=ax0)
    with pytest.raises(SchemaError):
        plot_timeline(one.drop(columns="burn_rate"), ax=ax0)
    with pytest.raises(ConfigError, match="time zone"):
        plot_timeline(one, ax=ax0, tz="Nowhere/Town")
    with pytest.raises(ConfigError, match="max_points"):
        plot_timeline(one, ax=ax0, max_points=1)


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
        np.testing.assert_allclose(data.edges[:-1], num(n.index))
        assert data.edges[1] - data.edges[0] == pytest.approx(1 / 24)
    # the stack's top is the total burn rate of each hour
    total = f.groupby("hour")["ok"].apply(lambda s: (~s).sum()).to_numpy() / (n.to_numpy() * 0.05)
    np.testing.assert_allclose(layers[-1].get_data().values, total, rtol=1e-12)
    assert ax.get_ylabel() == "burn rate (1 = allowed pace)" and ax.get_xlabel() == "time (UTC)"
    ax.figure.canvas.draw()
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1


def test_buckets_by_group_layers_add_up_over_groups():
    ev = events(n=3000, p_fail=0.1, regions=["fra", "ams"])
    slo = SLO(target=0.9)
    ot = bucket_burn_over_time(ev, slo, freq="2h", by="region")
    ax = plot_buckets(ot, by="region", tz="Europe/Berlin")
    layers = by_gid(ax.patches, "bucket")
    assert [p.get_label() for p in layers] == ["timeout · ams", "timeout · fra", "solve_error · ams", "solve_error · fra"]
    f = ev.assign(b=ev["ts"].dt.floor("2h"))
    n = f.groupby("b").size()
    for p in layers:
        bucket, region = p.get_label().split(" · ")
        sel = f[(f["bucket"] == bucket) & (f["region"] == region)].groupby("b").size().reindex(n.index, fill_value=0)
        d = p.get_data()
        np.testing.assert_allclose(d.values - d.baseline, sel.to_numpy() / (n.to_numpy() * (1 - 0.9)), rtol=1e-9)
    # summed over groups without by=: the same total
    plt.close("all")
    ax2 = plot_buckets(ot)
    np.testing.assert_allclose(by_gid(ax2.patches, "bucket")[-1].get_data().values, layers[-1].get_data().values)
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
    pol = AlertPolicy((AlertTier("fast", "page", "5min", None, 5.0), AlertTier("never", "ticket", "1h", None, 50.0)))
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
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fast (page)", "never (ticket)", "incidents"]
    np.testing.assert_allclose(ax.get_xlim(), num([ep.attrs["grid_start"], ep.attrs["grid_end"]]))
    assert ax.get_xlabel() == "time (UTC)"


def test_alerts_grouped_rows():
    ts = pd.date_range("2026-01-01", periods=3 * 60, freq="1min", tz="UTC")
    region = np.where(np.arange(len(ts)) % 2 == 0, "fra", "ams")
    ok = [not (60 <= i < 90 and region[i] == "fra") for i in range(len(ts))]
    ev = as_events(ts, ok, groups={"region": region})
    ep = alert_episodes(bin_events(ev, "1min", by="region"), 0.9, AlertPolicy.single_window("10min", 3.0))
    fig, ax0 = plt.subplots()
    ax = plot_alerts(ep, ax=ax0)
    assert ax is ax0
    assert [c.get_label() for c in ax.containers] == ["fra · page_10m"]  # groups with episodes
    assert len(ax.containers[0].patches) == len(ep)
