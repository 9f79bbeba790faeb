"""The timeline's lines take the window's value at every instant where the window changes, each
event and each expiry (1 ns after ``ts + window``), also where no status changes. Oracles: a log
worked out by hand, and a brute-force count of the events in ``[c - window, c]`` at every such
instant ``c`` of small random grouped logs, with the seed's formulas (tests/seed_tracker.py)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab import SLO, as_events, replay, status_spans  # noqa: E402
from budgetlab.errors import ConfigError  # noqa: E402
from budgetlab.plotting import plot_timeline  # noqa: E402
from budgetlab.plotting.clock_lines import clock_line  # noqa: E402

T0 = pd.Timestamp("2026-01-01", tz="UTC")
NS = pd.Timedelta(1, unit="ns")
GIDS = ("success_rate", "burn_rate", "budget_remaining")


def at(offset: str) -> pd.Timestamp:
    return T0 + pd.Timedelta(offset)


def brief_log():
    """00:00 ok, 00:10 ok, 00:20 fail, 05:00 ok; target 0.5, window 1 h."""
    ts = T0 + pd.to_timedelta([0, 10, 20, 300], unit="min")
    return as_events(ts, [True, True, False, True]), SLO(target=0.5, window="1h")


def changes(x, y):
    """``[(x, y), ...]`` where a drawn step line changes value (NaN equal to NaN)."""
    x = pd.to_datetime(np.asarray(x)).tz_localize("UTC")
    y = np.asarray(y, dtype=float)
    same = np.r_[False, (y[1:] == y[:-1]) | (np.isnan(y[1:]) & np.isnan(y[:-1]))]
    return [(x[i], y[i]) for i in np.flatnonzero(~same)]


def test_an_expiry_that_changes_no_status_moves_the_success_line():
    # by hand: 00:00 1/1, 00:10 2/2, 00:20 2/3; 01:00 + 1 ns 00:00 leaves: 1 of 2 (0.5);
    # 01:10 + 1 ns 00:10 leaves: 0 of 1 (0.0, exhausted as at 01:00 + 1 ns: no status change);
    # 01:20 + 1 ns the failure leaves: empty (NaN) until 05:00, the observation's end
    ev, slo = brief_log()
    fig = plt.figure()
    ax = plot_timeline(replay(ev, slo), slo=slo, spans=status_spans(ev, slo, steps=True),
                       ax=fig.add_subplot())
    (line,) = [ln for ln in ax.get_lines() if ln.get_gid() == "success_rate"]
    drawn = changes(line.get_xdata(), line.get_ydata())
    hand = [(T0, 100.0), (at("20min"), 200 / 3), (at("1h") + NS, 50.0), (at("70min") + NS, 0.0),
            (at("80min") + NS, np.nan)]
    assert [x for x, _ in drawn] == [x for x, _ in hand]  # to the nanosecond
    np.testing.assert_allclose([y for _, y in drawn], [y for _, y in hand], rtol=1e-12)
    plt.close(fig)
    # the status bands: exhausted over the 0.0 stretch, as over the 0.5 before it
    spans = status_spans(ev, slo)
    row = spans[spans["start"] <= at("70min") + NS].iloc[-1]
    assert str(row["status"]) == "exhausted"


def test_spans_of_one_row_per_status_are_refused():
    ev, slo = brief_log()
    fig = plt.figure()
    with pytest.raises(ConfigError, match="steps=True"):
        plot_timeline(replay(ev, slo), slo=slo, spans=status_spans(ev, slo), ax=fig.add_subplot())
    plt.close(fig)


def random_log(seed: int) -> pd.DataFrame:
    """Two or three groups, events on a 5 s grid (ties, events exactly one window apart)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(25, 45))
    sec = np.sort(rng.integers(0, 80, n)) * 5
    ev = as_events(T0 + pd.to_timedelta(sec, unit="s"), rng.random(n) < 0.7)
    ev["g"] = rng.choice(["a", "b", "c"][: int(rng.integers(2, 4))], n)
    return ev


def seed_figure(total: int, failures: int, target: float, gid: str) -> float:
    """The seed tracker's property of a window (tests/seed_tracker.py); NaN when empty."""
    if total == 0:
        return np.nan
    budget = total * (1 - target)
    if gid == "success_rate":
        return (total - failures) / total
    if gid == "burn_rate":
        return failures / budget if budget else 0.0
    if budget <= 0:
        return 1.0 if failures == 0 else 0.0
    return max(0.0, max(0.0, budget - failures) / budget)


def brute(ts: np.ndarray, bad: np.ndarray, c: int, w: int) -> tuple[int, int]:
    """Events and failures with ``c - w <= ts <= c``, one by one."""
    total = failures = 0
    for t, b in zip(ts.tolist(), bad.tolist(), strict=True):
        if c - w <= t <= c:
            total += 1
            failures += int(b)
    return total, failures


def drawn_at(x: np.ndarray, y: np.ndarray, c: int) -> float:
    """The value a steps-post line holds at instant ``c``."""
    return float(y[np.searchsorted(x.view(np.int64), c, side="right") - 1])


SEVERITY = {"healthy": 0, "warning": 1, "critical": 2, "exhausted": 3}


@pytest.mark.parametrize("seed", [3, 11, 29])
@pytest.mark.parametrize(("window", "target", "min_events"),
                         [("30s", 0.8, 0), ("60s", 0.6, 0), ("45s", 0.9, 3)])
@pytest.mark.parametrize("tail", [False, True])
def test_the_lines_equal_a_brute_force_count_at_every_event_and_expiry(seed, window, target,
                                                                        min_events, tail):
    ev = random_log(seed)
    slo = SLO(target=target, window=window, min_events=min_events)
    w = slo.window_ns
    ts_all = ev["ts"].array.asi8
    lo, hi = int(ts_all[0]), int(ts_all[-1]) + (3 * w if tail else 0)
    steps = status_spans(ev, slo, by="g", steps=True, end=pd.Timestamp(hi, tz="UTC"))
    spans = status_spans(ev, slo, by="g", end=pd.Timestamp(hi, tz="UTC"))  # the compiled clock
    checked = 0
    for g in sorted(ev["g"].unique()):
        mine = ev["g"].to_numpy() == g
        ts, bad = ts_all[mine], ~ev["ok"].to_numpy(dtype=bool)[mine]
        cands = np.unique(np.r_[lo, ts, ts + w + 1])
        cands = cands[(cands >= lo) & (cands < hi)]
        grp = steps[steps["g"] == g].reset_index(drop=True)
        lines = {gid: clock_line(grp, gid, columns=10**6, max_points=10**9) for gid in GIDS}
        band = spans[spans["g"] == g]
        for c in cands.tolist():
            # a blip (an event at c while one at c - window leaves 1 ns later): the value before
            blip = c in set(ts.tolist()) and (c - w) in set(ts.tolist())
            total, failures = brute(ts, bad, c - 1 if blip else c, w)
            for gid in GIDS:
                x, y = lines[gid]
                got = drawn_at(x, y, c)
                want = seed_figure(total, failures, target, gid)
                assert got == pytest.approx(want, rel=1e-12, nan_ok=True), (g, c, gid)
            checked += 1
            if min_events or blip:
                continue
            # the bands (the compiled clock's spans) agree with the budget line there
            row = band[band["start"].array.asi8 <= c].iloc[-1]
            rem = drawn_at(*lines["budget_remaining"], c)
            status = str(row["status"])
            if status == "no_traffic":
                assert np.isnan(rem)
                continue
            seed = (3 if rem <= 0 else 2 if rem < slo.critical else 1 if rem < slo.warning else 0)
            assert SEVERITY[status] == seed, (g, c, status, rem)
    assert checked > 40  # the premise: many instants, expiries among them


def test_thinned_lines_are_each_column_s_time_weighted_mean_in_a_bounded_count():
    # 20,000 events over 20 days with a 1 h window: ~40,000 steps, thinned to 100 columns. Each
    # column's value is the exact line's integral over the column divided by its width (no
    # gap: an event every 86 s on average), brute-forced here step by step (until 0.6 the
    # extremes of each column were drawn, a briefly bad log read as bad throughout)
    rng = np.random.default_rng(7)
    ts = T0 + pd.to_timedelta(np.sort(rng.integers(0, 20 * 86_400, 20_000)), unit="s")
    ev = as_events(ts, rng.random(20_000) < 0.95)
    steps = status_spans(ev, SLO(target=0.9, window="1h"), steps=True)
    assert len(steps) > 30_000  # the premise: many more steps than columns
    for gid in GIDS:
        full_x, full_y = clock_line(steps, gid, columns=10**6, max_points=10**9)
        fx = full_x.view(np.int64).astype(float)
        assert not np.isnan(full_y[:-1]).any()  # the premise: no gap to break at
        x, y = clock_line(steps, gid, columns=100, max_points=400)
        assert len(x) == 100 + 1  # each column's left edge, and the end
        lo, hi = fx[0], fx[-1]
        edges = lo + (hi - lo) * np.arange(101) / 100
        expected = []
        for a, b in zip(edges[:-1], edges[1:], strict=True):
            left, right = np.clip(fx[:-1], a, b), np.clip(fx[1:], a, b)
            expected.append(float(np.sum(full_y[:-1] * (right - left)) / (b - a)))
        assert y[:-1] == pytest.approx(expected, rel=1e-9, abs=1e-12)
