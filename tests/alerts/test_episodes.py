"""alert_episodes / alert_states against a slow Prometheus-style rule evaluator (the oracle)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab.alerts.episodes import alert_episodes, alert_states
from budgetlab.alerts.firing import firing_runs
from budgetlab.alerts.lowtraffic import low_traffic
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.tier import AlertTier
from budgetlab.errors import ConfigError
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events

T0 = pd.Timestamp("2026-01-01", tz="UTC")
MIN = pd.Timedelta("1min")


def make_bins(total, bad, groups=None):
    """Bins table from per-bin counts; ``total``/``bad`` are lists (one per group) of lists."""
    frames = []
    for g, (tot, bd) in enumerate(zip(total, bad, strict=True)):
        n = len(tot)
        f = pd.DataFrame(
            {
                "bin_start": pd.date_range(T0, periods=n, freq=MIN),
                "total": np.asarray(tot, dtype=np.int64),
                "bad": np.asarray(bd, dtype=np.int64),
            }
        )
        f["good"] = f["total"] - f["bad"]
        if groups is not None:
            f.insert(0, "region", groups[g])
        frames.append(f)
    out = pd.concat(frames, ignore_index=True)
    if groups is not None:
        out["region"] = pd.Categorical(out["region"])
    out.attrs["freq"] = "1min"
    return out


def prometheus_rule(cond_at, times, step, for_, keep_firing_for):
    """Prometheus's alerting-rule state machine, one evaluation at a time (rules/alerting.go:
    pending until ``t - activeAt >= for``; a firing alert with ``keep_firing_for`` stays firing
    while ``t - keepFiringSince < keep_firing_for``)."""
    state, active_at, fired_at, keep_since = "inactive", None, None, None
    episodes = []
    for i, t in enumerate(times):
        if cond_at(i):
            keep_since = None
            if state == "inactive":
                state, active_at = "pending", t
            if state == "pending" and t - active_at >= for_:
                state, fired_at = "firing", t
        elif state == "firing":
            if keep_firing_for > pd.Timedelta(0):
                if keep_since is None:
                    keep_since = t
                if t - keep_since < keep_firing_for:
                    continue
            episodes.append((fired_at, t, False))
            state = "inactive"
        else:
            state = "inactive"
    if state == "firing":
        episodes.append((fired_at, times[-1] + step, True))
    return episodes


def oracle_episodes(total, bad, target, tier):
    """Per-group episodes from plain Python sums over the bins (no cumulative sums)."""
    out = []
    n = len(total)
    times = [T0 + (i + 1) * MIN for i in range(n)]
    thr = tier.burn * (1 - target)

    def ratio(i, window):
        k = int(window / MIN)
        lo = max(0, i - k + 1)
        tot = sum(total[lo:i + 1])
        return (sum(bad[lo:i + 1]) / tot) if tot else 0.0

    def cond(i):
        ok = ratio(i, tier.long_window) > thr
        if tier.short_window is not None:
            ok = ok and ratio(i, tier.short_window) > thr
        return ok

    for s, e, ongoing in prometheus_rule(cond, times, MIN, tier.for_, tier.cooldown):
        out.append((s, e, ongoing))
    return out


tiers_strategy = st.builds(
    lambda long_k, short_k, burn, for_s, cool_s: AlertTier(
        "t", "page", long_k * MIN, (min(short_k, long_k) * MIN) if short_k else None, burn,
        for_=pd.Timedelta(seconds=for_s), cooldown=pd.Timedelta(seconds=cool_s)),
    st.integers(1, 8), st.sampled_from([0, 1, 2, 3]), st.sampled_from([0.5, 1.0, 2.0, 3.5]),
    st.sampled_from([0, 60, 90, 180]), st.sampled_from([0, 60, 150, 300]),
)


@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=50),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=50),
    tiers_strategy,
)
def test_episodes_match_prometheus_oracle(a, b, tier):
    n = min(len(a), len(b))
    groups = []
    for rows in (a[:n], b[:n]):
        tot = [x for x, _ in rows]
        bd = [min(x, y) for x, y in rows]
        groups.append((tot, bd))
    bins = make_bins([g[0] for g in groups], [g[1] for g in groups], groups=["ams", "fra"])
    target = 0.75
    ep = alert_episodes(bins, target, AlertPolicy((tier,)))
    for region, (tot, bd) in zip(["ams", "fra"], groups, strict=True):
        got = ep[ep["region"] == region]
        want = oracle_episodes(tot, bd, target, tier)
        assert list(zip(got["start"], got["end"], got["ongoing"], strict=True)) == want


@given(st.lists(st.booleans(), min_size=1, max_size=60), st.integers(0, 4), st.integers(0, 4))
def test_firing_runs_matches_state_machine(cond, k_for, k_cool):
    times = [T0 + i * MIN for i in range(len(cond))]
    want = prometheus_rule(lambda i: cond[i], times, MIN, k_for * MIN, k_cool * MIN)
    first, stop, ongoing = firing_runs(np.array(cond, dtype=bool), k_for, k_cool)
    got = [(times[f], times[s - 1] + MIN, bool(o)) for f, s, o in zip(first, stop, ongoing,
                                                                      strict=True)]
    assert got == want


def test_for_and_cooldown_hand_case():
    # burn over a 1-bin window; target 0.5 -> threshold ratio > burn * 0.5 = 0.5 at burn 1
    bad = [0, 1, 1, 1, 0, 1, 0, 0, 0, 0]
    bins = make_bins([[1] * 10], [bad])
    plain = alert_episodes(bins, 0.5, AlertPolicy.single_window("1min", 1.0))
    assert [(s - T0, e - T0) for s, e in zip(plain["start"], plain["end"],
                                             strict=True)] == [(2 * MIN, 5 * MIN), (6 * MIN,
                                                                                    7 * MIN)]
    with_for = alert_episodes(bins, 0.5, AlertPolicy.single_window("1min", 1.0, for_="2min"))
    # true at evaluations 00:02, 00:03, 00:04 -> fires at 00:04 (= 00:02 + for), resolves 00:05
    assert [(s - T0, e - T0) for s, e in zip(with_for["start"], with_for["end"],
                                             strict=True)] == [(4 * MIN, 5 * MIN)]
    cool = alert_episodes(bins, 0.5, AlertPolicy.single_window("1min", 1.0, cooldown="1min"))
    # the one-evaluation gap at 00:05 is bridged; after 00:06 it keeps firing one more evaluation
    assert [(s - T0, e - T0) for s, e in zip(cool["start"], cool["end"], strict=True)] == [
        (2 * MIN, 8 * MIN)
    ]
    assert cool["duration"].tolist() == [6 * MIN]


def test_ongoing_episode_and_states_agree_with_episodes():
    bins = make_bins([[1] * 6], [[0, 0, 0, 1, 1, 1]])
    pol = AlertPolicy.single_window("2min", 1.0)
    ep = alert_episodes(bins, 0.5, pol)
    assert ep["ongoing"].tolist() == [True]
    assert ep["end"].iloc[0] == T0 + 7 * MIN  # one step after the last evaluation
    stt = alert_states(bins, 0.5, pol)
    firing_times = stt.loc[stt["firing"], "bin_end"].tolist()
    assert firing_times == [T0 + 5 * MIN, T0 + 6 * MIN]
    assert stt["burn_long"].tolist() == pytest.approx([0, 0, 0, 1, 2, 2])


def test_multiwindow_needs_both_windows():
    # a burst that ended: long window still high, short window clean -> no alert
    bad = [0] * 10 + [5] * 5 + [0] * 10
    bins = make_bins([[5] * 25], [bad])
    tier = AlertTier("p", "page", "10min", "2min", 1.0)
    st_ = alert_states(bins, 0.9, AlertPolicy((tier,)))
    long_only = st_["burn_long"] > 1.0
    both = long_only & (st_["burn_short"] > 1.0)
    assert (st_["condition"] == both).all()
    assert bool((long_only & ~st_["condition"]).any())  # the short window resets the alert early


def test_empty_result_has_the_columns():
    bins = make_bins([[10] * 5], [[0] * 5])
    ep = alert_episodes(bins, 0.99, AlertPolicy.workbook())
    assert ep.empty
    assert ep.columns.tolist() == ["tier", "severity", "start", "end", "duration", "ongoing"]
    assert str(ep["start"].dtype) == "datetime64[ns, UTC]"


def test_timeout_exclusion_changes_the_alerts():
    # an hour of mobile-network timeouts: pages without exclusion, silent with exclude_buckets
    ts = pd.date_range(T0, periods=6 * 60 * 6, freq="10s")
    in_burst = (ts >= T0 + pd.Timedelta("3h")) & (ts < T0 + pd.Timedelta("4h"))
    bucket = np.where(in_burst & (np.arange(len(ts)) % 2 == 0), "timeout", "success")
    ev = as_events(ts, bucket == "success", bucket)
    bins = bin_events(ev, "1min")
    pol = AlertPolicy.workbook()
    assert len(alert_episodes(bins, 0.99, pol)) > 0
    assert alert_episodes(bins, 0.99, pol, exclude_buckets="timeout").empty
    # a maintenance window over the burst, counted as good
    w = [(T0 + pd.Timedelta("3h"), T0 + pd.Timedelta("4h"))]
    assert alert_episodes(bins, 0.99, pol, exclude_windows=w, exclude_mode="good").empty
    assert alert_episodes(bin_events(ev, "1min", exclude_windows=w), 0.99, pol).empty


def test_policy_errors():
    bins = make_bins([[1] * 3], [[0] * 3])
    with pytest.raises(ConfigError):
        alert_episodes(bins, 0.99, "no_such_preset")
    with pytest.raises(ConfigError, match="90 s window of the single_window policy's page_1m30s"):
        alert_episodes(bins, 0.99, AlertPolicy.single_window("90s"))


def test_bins_that_do_not_divide_a_policy_window_name_its_tier_and_a_freq_that_does():
    """It said "window=56m is not a whole number of bins of 5m": a keyword the caller never
    passed, and no width that fits. Workbook on a 28-day period (its tiers scaled by 28/30):
    page_1h's windows are 56 min and 5 min; the others 5 h 36 min / 28 min, 22 h 24 min /
    1 h 52 min, 2 d 19 h 12 min / 5 h 36 min. In minutes their greatest common divisor is
    gcd(56, 5, 336, 28, 1344, 112, 4032) = 1: 1-minute bins fit every window."""
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    ev = as_events(ts, [True] * 120)
    pol = AlertPolicy.workbook("28D")
    want = ("bins of 5 min do not divide the 56 min window of the workbook policy's page_1h tier "
            "(its windows are whole numbers of bins); bin the events with a freq that divides "
            "every window, e.g. bin_events(events, '1m').")
    for call in (alert_episodes, alert_states, low_traffic):
        with pytest.raises(ConfigError) as err:
            call(bin_events(ev, "5min"), 0.99, pol)
        assert str(err.value) == want
    assert alert_episodes(bin_events(ev, "1m"), 0.99, pol).empty  # the fix, pasted


def test_low_traffic_quiet_and_busy_groups():
    # ams: 1 request per minute; fra: 100 per minute (4 days, 1-minute bins)
    n = 4 * 24 * 60
    bins = make_bins([[1] * n, [100] * n], [[0] * n, [0] * n], groups=["ams", "fra"])
    lt = low_traffic(bins, 0.999, AlertPolicy.workbook())
    page = lt[lt["tier"] == "page_1h"].set_index(lt.loc[lt["tier"] == "page_1h",
                                                        "region"].astype(str))
    assert page.loc["ams", "events_typical_long"] == 60 and page.loc["fra",
                                                                     "events_typical_long"] == 6000
    assert page.loc["ams", "one_failure_burn_typical_long"] == pytest.approx(1 / (60 * 0.001))
    assert bool(page.loc["ams", "one_failure_fires_quietest"]) and not bool(
        page.loc["fra", "one_failure_fires_quietest"]
    )
    # failures needed: > 14.4 * 0.001 * n in both windows; fra: 1h = 6000 -> 87, 5m = 500 -> 8 -> 87
    assert page.loc["fra", "min_failures_typical"] == 87
    assert page.loc["ams", "min_failures_typical"] == 1
