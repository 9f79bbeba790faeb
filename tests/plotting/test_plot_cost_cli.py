"""What ``replay --plot`` no longer pays for (issue 20, point 4; issue 30, point 3), checked
against oracles: the drawn groups' success rate, burn rate and budget remaining derived from
``total`` and ``failures`` equal a full replay of each group run on its own, bit for bit (one
SLO and per-group SLOs), and the seed's streaming tracker; groups of a categorical key with
unused categories rank as by hand; the axis labels placed once sit where matplotlib's own
alignment puts them."""

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
from budgetlab.cli.replay import RUN_COLUMNS, replay_states  # noqa: E402
from budgetlab.plotting import place_axis_labels, plot_timeline  # noqa: E402


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
    states, tr = replay_states(ev, slo, ["site"])
    # no rate and no budget column for all rows
    assert {c for c in states.columns if c not in ("ts", "site")} == set(RUN_COLUMNS) == {
        "total", "failures", "status"}
    groups, n = drawn_groups(states, tr, ["site"], limit=limit, ok=ev["ok"].to_numpy())
    assert n == 6 and len(groups) == min(limit, 6)
    for key, part, _, rows in groups:
        mask = (ev["site"] == key[0]).to_numpy()
        assert rows.tolist() == np.flatnonzero(mask).tolist()  # the group's events
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
    """Five categories, three used: the most failures first, then the most events."""
    cats = ["a", "b", "c", "d", "e"]
    t0 = pd.Timestamp("2026-01-01", tz="UTC")
    rows = [("b", False, 0.05), ("b", True, 0.9),                 # 1 failure of 2
            ("d", True, 0.01), ("d", False, 0.99), ("d", True, 0.5),  # 1 failure of 3
            ("e", True, 0.3), ("e", True, 0.3)]                   # no failure
    states = pd.DataFrame({
        "ts": [t0 + pd.Timedelta(minutes=i) for i in range(len(rows))],
        "site": pd.Categorical([r[0] for r in rows], categories=cats),
        "success_rate": 0.9, "burn_rate": 1.0, "remaining_fraction": [r[2] for r in rows],
        "status": pd.Categorical(["healthy"] * len(rows), categories=list(STATUSES),
                                 ordered=True)})
    ok = np.array([r[1] for r in rows])
    tr = pd.DataFrame({"ts": states["ts"].iloc[:1], "site": ["e"], "to_status": ["warning"]})
    groups, n = drawn_groups(states, tr, ["site"], limit=1, ok=ok)
    assert n == 3 and [g.key for g in groups] == [("d",)]  # a tie on failures: d has more events
    groups, n = drawn_groups(states, tr, ["site"], limit=2, ok=ok)
    assert [g.key for g in groups] == [("d",), ("b",)]
    groups, n = drawn_groups(states, tr, ["site"], limit=3, ok=ok)  # all of them, in key order
    assert [g.key for g in groups] == [("b",), ("d",), ("e",)]
    assert [g.table["remaining_fraction"].tolist() for g in groups] == [[0.05, 0.9],
                                                                        [0.01, 0.99, 0.5],
                                                                        [0.3, 0.3]]
    assert [g.rows.tolist() for g in groups] == [[0, 1], [2, 3, 4], [5, 6]]
    assert [len(g.transitions) for g in groups] == [0, 0, 1]


def test_outside_keeps_only_the_rows_the_steps_do_not_hold():
    """With the steps' observation ``[00:01, 00:05)``, each drawn group's table holds its rows
    before 00:01 or from 00:05 on (by hand: b's row at 00:00, none of d's, e's two at 00:05 and
    00:06); ``rows`` still lists all its events (its steps are made from them)."""
    t0 = pd.Timestamp("2026-01-01", tz="UTC")
    states = pd.DataFrame({
        "ts": [t0 + pd.Timedelta(minutes=i) for i in range(7)],
        "site": pd.Categorical(list("bbddd") + ["e", "e"]),
        "total": 1, "failures": 0,
        "status": pd.Categorical(["healthy"] * 7, categories=list(STATUSES), ordered=True)})
    states.attrs["slo"] = SLO(target=0.9, window="1h")
    tr = pd.DataFrame({"ts": states["ts"].iloc[:0], "site": [], "to_status": []})
    groups, n = drawn_groups(states, tr, ["site"], limit=3, rates=False, ok=np.ones(7, bool),
                             outside=(t0 + pd.Timedelta("1min"), t0 + pd.Timedelta("5min")))
    assert n == 3 and [g.key for g in groups] == [("b",), ("d",), ("e",)]
    assert [g.table["ts"].tolist() for g in groups] == [
        [t0], [], [t0 + pd.Timedelta("5min"), t0 + pd.Timedelta("6min")]]
    assert [g.rows.tolist() for g in groups] == [[0, 1], [2, 3, 4], [5, 6]]


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
    states, tr = replay_states(ev, slo, ["site"])
    states["ts"] = states["ts"].dt.tz_convert(zone)
    got, n = drawn_groups(states, tr, ["site"], limit=3, rates=False, ok=ev["ok"].to_numpy())
    assert n == 6 and len(got) == 3
    for key, part, part_tr, _ in got:
        assert str(part["ts"].dtype) == str(states["ts"].dtype)
        mine = (states["site"] == key[0]).to_numpy()
        assert part["ts"].tolist() == states.loc[mine, "ts"].tolist()
        assert part_tr["site"].astype(str).eq(key[0]).all() and len(part_tr) == int(
            (tr["site"] == key[0]).sum()
        )
        oracle = replay(ev[(ev["site"] == key[0]).to_numpy()].reset_index(drop=True),
                        slo.slo_for(key))
        rated = with_rates(part, key)
        for col in ("success_rate", "burn_rate", "remaining_fraction"):
            assert rated[col].to_numpy().tobytes() == oracle[col].to_numpy().tobytes()


def test_drawn_figures_equal_the_seed_tracker_per_group():
    """Oracle: the seed's streaming tracker (tests/seed_tracker.py) run over each drawn group's
    events alone gives the drawn rows' success rate, burn rate and budget remaining, bit for bit
    (per-group SLOs; events on exact window edges, ties and a long gap)."""
    from tests.test_replay_oracle import seed_replay

    minutes = [0, 0, 1, 3, 5, 5, 6, 8, 10, 11, 11, 40, 41, 45, 46, 50, 51, 55]
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(minutes, unit="min")
    group = list("abcabcabcaabcabcab")
    ok = [True, False, True, True, False, True, False, True, False, True, True, False, True,
          False, False, False, True, True]
    ev = as_events(ts, ok, groups={"g": group})
    slo = PerGroup({"a": SLO(0.9, window="5min"), "b": SLO(0.8, window="10min"),
                    "c": SLO(0.5, window="3min")})
    states, tr = replay_states(ev, slo, ["g"])
    groups, n = drawn_groups(states, tr, ["g"], limit=2, ok=ev["ok"].to_numpy())
    # failures b 4, a 2 of 7 events, c 2 of 5: b, then a (more events)
    assert n == 3 and [g.key for g in groups] == [("b",), ("a",)]
    for key, part, _, rows in groups:
        mask = (ev["g"] == key[0]).to_numpy()
        assert rows.tolist() == np.flatnonzero(mask).tolist()
        want, _ = seed_replay(ev["ts"].array.asi8[mask], ev["ok"].to_numpy()[mask],
                              slo.slo_for(key))
        for col in ("success_rate", "burn_rate", "remaining_fraction"):
            got = part[col].to_numpy(dtype=float)
            assert got.tobytes() == want[col].to_numpy(dtype=float).tobytes(), (key, col)
        assert part["status"].astype(str).tolist() == want["status"].tolist()
