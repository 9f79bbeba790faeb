"""What ``replay --plot`` no longer pays for (issue 20, point 4), checked against oracles: the
drawn groups' rates derived from ``total`` and ``failures`` equal a full replay of each group
run on its own, bit for bit (one SLO and per-group SLOs); groups of a categorical key with unused
categories rank as by hand; the axis labels placed once sit where matplotlib's own alignment
puts them."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, PerGroup, as_events, replay  # noqa: E402
from budgetlab.budget.figures import STATUSES  # noqa: E402
from budgetlab.cli.drawn import drawn_groups  # noqa: E402
from budgetlab.cli.replay import PLOT_COLUMNS, replay_states  # noqa: E402
from budgetlab.plotting import plot_timeline  # noqa: E402
from budgetlab.plotting._common import place_axis_labels  # noqa: E402


def events(n=6000, groups=6, seed=5):
    rng = np.random.default_rng(seed)
    ts = pd.Timestamp("2026-03-02", tz="UTC") + pd.to_timedelta(np.sort(rng.uniform(0, 12 * 3600,
                                                                                    n)), unit="s")
    key = rng.integers(0, groups, n)
    # mixed fortunes
    ok = rng.random(n) >= np.array([0.01, 0.3, 0.05, 0.6, 0.02, 0.1][:groups])[key]
    return as_events(ts, ok, groups={"site": pd.Categorical([f"s{k}" for k in key])})


SLOS = {
    "one": SLO(target=0.95, window="1h"),
    "per-group": PerGroup({"s0": 0.99, "s1": 0.9, "s2": 0.97, "s3": 0.5, "s4": 0.995, "s5": 0.95},
                          base=SLO(window="30min")),
}


@pytest.mark.parametrize("name", list(SLOS))
@pytest.mark.parametrize("limit", [3, 8])
def test_drawn_rates_equal_each_group_replayed_on_its_own(name, limit):
    ev, slo = events(), SLOS[name]
    states, tr = replay_states(ev, slo, ["site"], plot=True)
    # no rate column for all rows
    assert {c for c in states.columns if c not in ("ts", "site")} == set(PLOT_COLUMNS)
    groups, n = drawn_groups(states, tr, ["site"], limit=limit)
    assert n == 6 and len(groups) == min(limit, 6)
    for key, part, _ in groups:
        mask = (ev["site"] == key[0]).to_numpy()
        own = slo.slo_for(key) if isinstance(slo, PerGroup) else slo
        oracle = replay(ev[mask].reset_index(drop=True), own)  # the group alone, every column
        assert list(part.columns) == ["ts", "success_rate", "burn_rate", "remaining_fraction",
                                      "status"]
        for col in ("success_rate", "burn_rate", "remaining_fraction"):
            got, want = part[col].to_numpy(), oracle[col].to_numpy()
            assert got.tobytes() == want.tobytes(), (key, col)  # bit for bit
        assert part["ts"].tolist() == oracle["ts"].tolist()
        assert part["status"].astype(str).tolist() == oracle["status"].astype(str).tolist()


def test_unused_categories_are_not_groups_and_ranking_is_by_hand():
    """Five categories, three used: worst status first, then the lowest mean budget left."""
    cats = ["a", "b", "c", "d", "e"]
    t0 = pd.Timestamp("2026-01-01", tz="UTC")
    rows = [("b", "critical", 0.05), ("b", "healthy", 0.9),   # critical, mean 0.475
            ("d", "critical", 0.01), ("d", "healthy", 0.99),  # critical, mean 0.5
            ("e", "warning", 0.3), ("e", "warning", 0.3)]     # warning, mean 0.3
    states = pd.DataFrame({
        "ts": [t0 + pd.Timedelta(minutes=i) for i in range(len(rows))],
        "site": pd.Categorical([r[0] for r in rows], categories=cats),
        "success_rate": 0.9, "burn_rate": 1.0, "remaining_fraction": [r[2] for r in rows],
        "status": pd.Categorical([r[1] for r in rows], categories=list(STATUSES), ordered=True)})
    tr = pd.DataFrame({"ts": states["ts"].iloc[:1], "site": ["e"], "to_status": ["warning"]})
    groups, n = drawn_groups(states, tr, ["site"], limit=2)
    assert n == 3 and [k for k, _, _ in groups] == [("b",), ("d",)]
    groups, n = drawn_groups(states, tr, ["site"], limit=3)  # all of them, in key order
    assert [k for k, _, _ in groups] == [("b",), ("d",), ("e",)]
    assert [p["remaining_fraction"].tolist() for _, p, _ in groups] == [[0.05, 0.9], [0.01, 0.99],
                                                                        [0.3, 0.3]]
    assert [len(t) for _, _, t in groups] == [0, 0, 1]


def label_boxes(fig):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [(a.yaxis.label.get_window_extent(renderer).bounds,
             # an empty one shows nothing
             a.xaxis.label.get_window_extent(renderer).bounds if a.get_xlabel() else None)
            for a in fig.axes if a.get_ylabel()]


@pytest.mark.parametrize("target", [0.95, 0.999])
def test_labels_placed_once_sit_where_matplotlib_aligns_them(target):
    ev = events(n=3000)
    states = replay(ev[(ev["site"] == "s1").to_numpy()].drop(columns="site").reset_index(drop=True),
                    SLO(target=target, window="1h"))
    figs = []
    for place in (False, True):
        fig = plt.figure(figsize=(9, 6))
        ax = fig.add_subplot(2, 1, 1)
        ax2 = fig.add_subplot(2, 1, 2)
        for a in (ax, ax2):
            drawn = plot_timeline(states, ax=a, tz="Europe/Berlin")
            if place:
                place_axis_labels(drawn.panels)
        figs.append(fig)
    auto, placed = (label_boxes(f) for f in figs)
    assert len(auto) == len(placed) == 6  # 2 x 3 panels with a y label
    # the bottom panel of each timeline has an x label
    assert sum(x is not None for _, x in placed) == 2
    for (ya, xa), (yp, xp) in zip(auto, placed, strict=True):
        assert ya == pytest.approx(yp, abs=0.5)  # display pixels
        assert (xa is None and xp is None) or xa == pytest.approx(xp, abs=0.5)
    # fixed: the draw measures nothing for them
    assert not any(a.yaxis._autolabelpos for a in figs[1].axes)
    plt.close("all")


@pytest.mark.parametrize("zone", ["UTC", "Europe/Berlin"])
def test_drawn_rows_keep_times_in_any_zone_and_derive_the_replays_rates(zone):
    """The drawn groups' tables keep the states' times (any zone) and their rows in table order,
    and the rates :func:`with_rates` derives later equal a replay of each group on its own."""
    from budgetlab.cli.drawn import with_rates

    ev = events(n=20_000)
    slo = SLOS["per-group"]
    states, tr = replay_states(ev, slo, ["site"], plot=True)
    states["ts"] = states["ts"].dt.tz_convert(zone)
    got, n = drawn_groups(states, tr, ["site"], limit=3, rates=False)
    assert n == 6 and len(got) == 3
    for key, part, part_tr in got:
        assert str(part["ts"].dtype) == str(states["ts"].dtype)
        mine = (states["site"] == key[0]).to_numpy()
        assert part["ts"].tolist() == states.loc[mine, "ts"].tolist()
        assert part_tr["site"].astype(str).eq(key[0]).all() and len(part_tr) == int(
            (tr["site"] == key[0]).sum()
        )
        oracle = replay(ev[(ev["site"] == key[0]).to_numpy()].reset_index(drop=True),
                        slo.slo_for(key))
        rated = with_rates(part, key)
        for col in ("success_rate", "burn_rate"):
            assert rated[col].to_numpy().tobytes() == oracle[col].to_numpy().tobytes()
