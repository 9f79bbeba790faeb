"""Per-group SLOs (issue 16) for the tracker model and the SRE budget functions.

Oracle everywhere: running each group alone with its own SLO (and, for replay, the literal port
of the seed tracker and the streaming Tracker), then putting the rows together in the layout of
the one-call result. Compared exactly (check_exact=True, floats bit for bit).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, PerGroup, Tracker, as_events, replay, status_spans, transitions
from budgetlab.budget.burn import burn_rates
from budgetlab.budget.period import period_budget
from budgetlab.budget.summary import replay_summary
from budgetlab.budget.tracker import KeyedTracker
from budgetlab.errors import ConfigError, InputError
from budgetlab.windows.binning import bin_events
from budgetlab.windows.bins import read_bins
from tests.test_replay_oracle import FIGURES, seed_replay

T0 = pd.Timestamp("2026-03-01", tz="UTC")


def plain(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    out.attrs = {}
    return out


def sample_events(n=600, seed=7, two_keys=False):
    """Three captcha types (two regions with two_keys), uneven traffic, bursts of failures."""
    rng = np.random.default_rng(seed)
    gaps = rng.choice([0, 1, 5, 30, 60, 600], size=n, p=[0.1, 0.3, 0.3, 0.15, 0.1, 0.05])
    t = T0 + pd.to_timedelta(np.cumsum(gaps), unit="s")
    kind = rng.choice(["recaptcha_v2", "turnstile", "image"], size=n, p=[0.5, 0.3, 0.2])
    bad_p = np.where(kind == "recaptcha_v2", 0.08, np.where(kind == "turnstile", 0.03, 0.15))
    ok = rng.random(n) >= bad_p
    ok[200:230] = False  # a burst for every type
    groups = {"captcha_type": kind}
    if two_keys:
        groups["region"] = rng.choice(["fra", "ams"], size=n)
    return as_events(t, ok, groups=groups)


SLOS = PerGroup({
    "recaptcha_v2": SLO(target=0.93, window="1h", min_events=3),
    "turnstile": SLO(target=0.97, window="30min", warning=0.6, critical=0.2),
    "image": SLO(target=0.9, window="2h", warning=0.4, critical=0.05, min_events=5),
})


def separate_replays(events, slos, by):
    """Each group replayed alone with its own SLO, rows put back in the order of events."""
    parts = []
    for key, sub in events.groupby(by, observed=True, sort=False):
        key = key if len(by) > 1 else key[0]
        parts.append(plain(replay(sub, slos.slo_for(key), by=by)))
    return pd.concat(parts).loc[events.index]


# -- replay, transitions, replay_summary ----------------------------------------------------------
def test_replay_with_per_group_slos_equals_each_group_alone():
    ev = sample_events()
    got = replay(ev, SLOS, by="captcha_type")
    want = separate_replays(ev, SLOS, ["captcha_type"])
    pd.testing.assert_frame_equal(plain(got), want, check_exact=True)
    assert got.attrs["slo"] == SLOS.as_dict() and got.attrs["by"] == ["captcha_type"]
    # not a vacuous oracle: one SLO for every group gives other figures
    assert not plain(replay(ev, SLO(0.93, window="1h"), by="captcha_type")).equals(want)


def test_transitions_of_a_per_group_replay_equal_each_group_alone_in_event_order():
    ev = sample_events()
    tr = transitions(replay(ev, SLOS, by="captcha_type"))
    for key, sub in ev.groupby("captcha_type", observed=True):
        alone = transitions(replay(sub, SLOS.slo_for(key), by="captcha_type"))
        mine = tr[tr["captcha_type"] == key].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, alone, check_exact=True)
    assert len(tr) > 3
    # one table in event order: the order transitions() gives for the separate runs put together
    pd.testing.assert_frame_equal(tr, transitions(separate_replays(ev, SLOS, ["captcha_type"])),
                                  check_exact=True)


def test_replay_matches_the_seed_tracker_per_group_on_a_hand_made_log():
    # two groups, 1-minute spacing; a: 95 % / 5 min, b: 80 % / 3 min with other thresholds
    ts = pd.date_range("2026-01-01", periods=16, freq="min", tz="UTC")
    group = list("abababababababab")
    ok = [True, True, False, True, True, False, True, True, False, True, True, True, False, False,
          True, True]
    ev = as_events(ts, ok, groups={"g": group})
    slos = {"a": SLO(0.95, window="5min"), "b": SLO(0.8, window="3min", warning=0.7, critical=0.3)}
    got = replay(ev, slos, by="g")
    tr = transitions(got)
    for key, slo in slos.items():
        mask = (ev["g"] == key).to_numpy()
        want, fired = seed_replay(ev["ts"].array.asi8[mask], ev["ok"].to_numpy()[mask], slo)
        for col in FIGURES:
            assert (
                got.loc[mask, col].to_numpy(dtype=float).tobytes()
                == want[col].to_numpy(dtype=float).tobytes()
            ), col
        assert got.loc[mask, "status"].astype(str).tolist() == want["status"].tolist()
        assert tr.loc[tr["g"] == key,
                      "to_status"].astype(str).tolist() == [r["status"] for r in fired]


def test_a_mapping_of_bare_targets_is_per_group_slos_with_default_fields():
    ev = sample_events(n=200)
    got = replay(ev, {"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.9}, by="captcha_type")
    base = SLO()  # the fields of a bare target come from PerGroup's base, SLO()
    want = separate_replays(ev, PerGroup({"recaptcha_v2": base.with_(target=0.93),
                                          "turnstile": base.with_(target=0.97),
                                          "image": base.with_(target=0.9)}), ["captcha_type"])
    pd.testing.assert_frame_equal(plain(got), want, check_exact=True)


def test_tuple_keys_for_two_group_keys_and_a_default():
    ev = sample_events(n=300, two_keys=True)
    slos = PerGroup({("turnstile", "fra"): SLO(0.97, window="20min"), ("image", "ams"): 0.9},
                    default=SLO(0.95, window="1h"), base=SLO(window="45min", min_events=2))
    by = ["captcha_type", "region"]
    got = replay(ev, slos, by=by)
    pd.testing.assert_frame_equal(plain(got), separate_replays(ev, slos, by), check_exact=True)
    assert slos.slo_for(("image", "ams")) == SLO(0.9, window="45min", min_events=2)


def test_a_group_without_an_slo_is_an_error_naming_it():
    ev = sample_events(n=100)
    with pytest.raises(ConfigError, match="image") as err:
        replay(ev, {"recaptcha_v2": 0.93, "turnstile": 0.97}, by="captcha_type")
    assert "recaptcha_v2" not in str(err.value)
    with pytest.raises(ConfigError, match="by="):
        replay(ev, {"recaptcha_v2": 0.93}, by=None)


def test_empty_events_with_per_group_slos():
    ev = sample_events(n=50).iloc[:0]
    got = replay(ev, SLOS, by="captcha_type")
    pd.testing.assert_frame_equal(plain(got), plain(replay(ev, SLO(), by="captcha_type")),
                                  check_exact=True)


def test_replay_summary_shows_each_groups_target_and_window():
    ev = sample_events()
    summary = replay_summary(replay(ev, SLOS, by="captcha_type"), ev)
    assert list(summary.columns[:3]) == ["captcha_type", "target", "window"]
    for row in summary.itertuples(index=False):
        slo = SLOS.slo_for(row.captcha_type)
        assert (row.target, row.window) == (slo.target, slo.window)
        sub = ev[ev["captcha_type"] == row.captcha_type]
        # the same observation (the whole input's first to last event), the group's own SLO
        spans = status_spans(sub, slo, by="captcha_type", start=ev["ts"].iloc[0],
                             end=ev["ts"].iloc[-1])
        alone = replay_summary(replay(sub, slo, by="captcha_type"), sub, spans=spans)
        mine = summary[summary["captcha_type"] == row.captcha_type].drop(columns=["target",
                                                                                  "window"])
        pd.testing.assert_frame_equal(mine.reset_index(drop=True), alone, check_exact=True)
    # same window everywhere: only the target is added
    targets = {"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.9}
    same = replay_summary(replay(ev, targets, by="captcha_type"), ev)
    assert "window" not in same.columns
    assert same["target"].tolist() == [targets[k] for k in same["captcha_type"]]


# -- the streaming tracker
# ---------------------------------------------------------------------------
def test_keyed_tracker_equals_replay_per_group_event_by_event():
    ev = sample_events(n=400)
    want = replay(ev, SLOS, by="captcha_type")
    kt = KeyedTracker(SLOS)
    fired = []
    kt.on_status_change("critical", fired.append)
    rows = []
    for t, ok, key in zip(ev["ts"], ev["ok"], ev["captcha_type"], strict=True):
        kt.record(key, bool(ok), ts=t)
        rows.append(kt.tracker(key).state())
    got = pd.DataFrame(rows, index=ev.index)
    for col in FIGURES:
        assert (
            got[col].to_numpy(dtype=float).tobytes() == want[col].to_numpy(dtype=float).tobytes()
        ), col
    assert got["status"].tolist() == want["status"].astype(str).tolist()
    assert got["low_traffic"].tolist() == want["low_traffic"].tolist()
    tr = transitions(want)
    crit = tr[tr["to_status"] == "critical"]
    assert [(r["group"], r["slo_target"]) for r in fired] == [
        (k, SLOS.slo_for(k).target) for k in crit["captcha_type"].astype(str)]
    # each group's tracker is a Tracker with its SLO
    for key in ("recaptcha_v2", "turnstile", "image"):
        assert kt.tracker(key).slo == SLOS.slo_for(key)


def test_keyed_tracker_record_many_equals_record():
    ev = sample_events(n=300)
    a, b = KeyedTracker(SLOS), KeyedTracker(SLOS)
    fa, fb = [], []
    for s in ("warning", "critical", "exhausted", "healthy"):
        a.on_status_change(s, fa.append)
        b.on_status_change(s, fb.append)
    for t, ok, key in zip(ev["ts"], ev["ok"], ev["captcha_type"], strict=True):
        a.record(key, bool(ok), ts=t)
    half = len(ev) // 2
    parts = [b.record_many(ev["captcha_type"].iloc[lo:hi], ev["ok"].iloc[lo:hi],
                           ev["ts"].iloc[lo:hi])
             for lo, hi in ((0, half), (half, len(ev)))]
    key = lambda r: (r["group"], r["total_events"], r["failures"], r["status"])  # noqa: E731
    assert sorted(map(key, fa)) == sorted(map(key, fb))  # record_many fires group by group
    for g in a.groups:
        assert a.tracker(g).state() == b.tracker(g).state()
    got = pd.concat(parts, ignore_index=True)
    want = transitions(replay(ev, SLOS, by="captcha_type"))
    assert got["group"].tolist() == want["captcha_type"].astype(str).tolist()
    assert got["ts"].tolist() == want["ts"].array.asi8.tolist()
    assert got["to_status"].astype(str).tolist() == want["to_status"].astype(str).tolist()


def test_tracker_refuses_per_group_slos_and_points_to_keyed_tracker():
    with pytest.raises(ConfigError, match="KeyedTracker"):
        Tracker({"a": 0.9})  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="KeyedTracker"):
        Tracker(PerGroup({"a": 0.9}))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="one SLO use Tracker"):
        KeyedTracker(SLO())
    kt = KeyedTracker({"a": 0.9})
    with pytest.raises(ConfigError, match="group b"):
        kt.record("b", True, ts=0)


# -- SRE model: burn_rates, period_budget ---------------------------------------------------------
def sre_grid(two_keys=False):
    ev = sample_events(n=3000, seed=11, two_keys=two_keys)
    by = ["captcha_type", "region"] if two_keys else ["captcha_type"]
    return read_bins(bin_events(ev, "1min", by=by))


# the sample spans ~1.5 days: 6 h periods restart inside it, 30 d ones do not
# (groups in key order image, recaptcha_v2, turnstile: the 6 h part holds groups 0 and 2)
SRE_SLOS = PerGroup({"recaptcha_v2": SLO(0.93, period="30D"), "turnstile": SLO(0.97, window="1h",
                                                                               period="6h"),
                     "image": SLO(0.9, warning=0.3, min_events=4, period="6h")})


def separate_sre(func, grid, slos, **kw):
    parts = []
    for g in range(grid.n_groups):
        key = tuple(grid.keys.iloc[g][grid.by])
        parts.append(func(grid.select([g]), slos.slo_for(key if len(key) > 1 else key[0]), **kw))
    return pd.concat(parts, ignore_index=True)


def test_burn_rates_per_group_equal_each_group_alone():
    grid = sre_grid()
    got = burn_rates(grid, SRE_SLOS, windows=["5min", "1h"])
    pd.testing.assert_frame_equal(got, separate_sre(burn_rates, grid, SRE_SLOS, windows=["5min",
                                                                                         "1h"]),
                                  check_exact=True)
    # the per-group form equals a target table with the same targets
    table = pd.DataFrame({"captcha_type": ["recaptcha_v2", "turnstile", "image"], "target": [0.93,
                                                                                             0.97,
                                                                                             0.9]})
    pd.testing.assert_frame_equal(got, burn_rates(grid, table, windows=["5min", "1h"]),
                                  check_exact=True)


def test_period_budget_per_group_periods_equal_each_group_alone():
    grid = sre_grid()
    got = period_budget(grid, SRE_SLOS, burn_window="10min")
    pd.testing.assert_frame_equal(got, separate_sre(period_budget, grid, SRE_SLOS,
                                                    burn_window="10min"),
                                  check_exact=True)
    # each group's period is its SLO's: the same as giving it explicitly, group by group
    for g in range(grid.n_groups):
        key = grid.keys["captcha_type"].iloc[g]
        slo = SRE_SLOS.slo_for(key)
        alone = period_budget(grid.select([g]), slo.target, period=slo.period, burn_window="10min")
        mine = got[got["captcha_type"] == key].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, alone, check_exact=True)
    table = pd.DataFrame({"captcha_type": ["recaptcha_v2", "turnstile", "image"], "target": [0.93,
                                                                                             0.97,
                                                                                             0.9]})
    thirty = period_budget(grid, table, burn_window="10min")  # 30 d for every group
    short = (got["captcha_type"] != "recaptcha_v2").to_numpy()
    assert (got.loc[short, "events"] < thirty.loc[short, "events"]).any()
    assert got.loc[~short, "events"].equals(thirty.loc[~short, "events"])
    # an explicit period applies to every group
    forced = period_budget(grid, SRE_SLOS, period="1D", burn_window="10min")
    pd.testing.assert_frame_equal(forced, period_budget(grid, pd.DataFrame(
        {"captcha_type": ["recaptcha_v2", "turnstile", "image"], "target": [0.93, 0.97, 0.9]}),
                                                        period="1D",
        burn_window="10min"), check_exact=True)


def test_period_budget_reads_the_period_of_one_slo():
    grid = sre_grid()
    pd.testing.assert_frame_equal(period_budget(grid, SLO(0.95, period="7D")),
                                  period_budget(grid, 0.95, period="7D"), check_exact=True)
    pd.testing.assert_frame_equal(period_budget(grid, 0.95), period_budget(grid, 0.95,
                                                                           period="30D"),
                                  check_exact=True)


def test_sre_tuple_keys_bare_targets_default_and_missing_groups():
    grid = sre_grid(two_keys=True)
    slos = PerGroup({("turnstile", "fra"): 0.97, ("image", "ams"): SLO(0.9, period="6h")},
                    default=0.95)
    for func in (burn_rates, period_budget):
        pd.testing.assert_frame_equal(func(grid, slos), separate_sre(func, grid, slos),
                                      check_exact=True)
    with pytest.raises(ConfigError, match=r"\(image, fra\)"):
        burn_rates(grid, {("turnstile", "fra"): 0.97, ("image", "ams"): 0.9})
    with pytest.raises(ConfigError, match="by="):
        burn_rates(read_bins(bin_events(sample_events(n=50), "1min")), {"image": 0.9})


def test_keyed_tracker_record_many_refuses_a_bad_batch_before_recording_any_of_it():
    kt = KeyedTracker({"a": 0.9, "b": 0.9})
    kt.record("b", True, ts=100)
    with pytest.raises(InputError, match="in order"):
        kt.record_many(["a", "b"], [False, True], [200, 50])  # b's 50 s is before its last event
    with pytest.raises(ConfigError, match="group c"):
        kt.record_many(["a", "c"], [False, True], [200, 300])
    # nothing of the refused batches
    assert kt.tracker("b").total == 1 and kt.tracker("a").total == 0


def test_plot_timeline_draws_each_groups_own_target_after_a_per_group_replay():
    import matplotlib.pyplot as plt

    from budgetlab.plotting import plot_timeline

    ev = as_events(pd.date_range("2026-01-01", periods=40, freq="1min", tz="UTC"),
                   [i % 5 != 0 for i in range(40)]).assign(captcha_type=["a", "b"] * 20)
    states = replay(ev, PerGroup({"a": 0.9, "b": 0.97}, base=SLO(window="10min")),
                    by="captcha_type")
    for key, want in (("a", 90.0), ("b", 97.0)):
        plt.close("all")  # plot_timeline draws on the current axes: a figure of its own
        ax = plot_timeline(states[states["captcha_type"] == key])
        (line,) = [ln for ln in ax.get_lines() if ln.get_gid() == "target"]
        assert line.get_ydata()[0] == pytest.approx(want)
        plt.close("all")
