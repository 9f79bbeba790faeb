"""Per-group SLOs (issue 16) in the alerting SRE model: alert_episodes, alert_states, low_traffic,
score_alerts.

Oracle: each group run alone (``BinGrid.select``) with its own SLO, the tables put together in
group order, compared exactly; and, for preset policies, the preset built explicitly for the
group's period (``AlertPolicy.workbook(period)``) with the bare target.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, PerGroup
from budgetlab.alerts.episodes import alert_episodes, alert_states
from budgetlab.alerts.lowtraffic import low_traffic
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import score_alerts
from budgetlab.errors import ConfigError
from budgetlab.windows.bins import read_bins

T0 = pd.Timestamp("2026-01-05", tz="UTC")
GROUPS = ["ams", "fra", "lhr"]


def make_grid(two_keys=False):
    """Four days of 1-minute bins; each group has a different outage."""
    n = 4 * 24 * 60
    rng = np.random.default_rng(3)
    frames = []
    keys = (
        [(g, k) for g in GROUPS for k in ("image", "turnstile")]
        if two_keys
        else [(g,) for g in GROUPS]
    )
    for i, key in enumerate(keys):
        total = rng.poisson(20 + 10 * i, n).astype(np.int64)
        bad = rng.binomial(total, 0.002)
        lo = 600 + 900 * i
        bad[lo:lo + 40 + 20 * i] = rng.binomial(total[lo:lo + 40 + 20 * i], 0.3 + 0.1 * i)
        f = pd.DataFrame({"bin_start": pd.date_range(T0, periods=n, freq="1min"), "total": total,
                          "bad": bad})
        f["good"] = f["total"] - f["bad"]
        f.insert(0, "region", key[0])
        if two_keys:
            f.insert(1, "captcha_type", key[1])
        frames.append(f)
    out = pd.concat(frames, ignore_index=True)
    out["region"] = pd.Categorical(out["region"])
    if two_keys:
        out["captcha_type"] = pd.Categorical(out["captcha_type"])
    out.attrs["freq"] = "1min"
    return read_bins(out)


# targets, windows, thresholds, min_events and periods differ; groups 0 and 2 share the 7 d period
SLOS = PerGroup({"ams": SLO(0.99, period="7D"), "fra": SLO(0.995, window="1h", warning=0.3,
                                                           period="30D"),
                 "lhr": SLO(0.98, min_events=10, critical=0.05, period="7D")})


def key_of(grid, g):
    key = tuple(str(grid.keys.iloc[g][k]) for k in grid.by)
    return key if len(key) > 1 else key[0]


def separate(func, grid, slos, policy, **kw):
    return pd.concat([func(grid.select([g]), slos.slo_for(key_of(grid, g)), policy, **kw)
                      for g in range(grid.n_groups)], ignore_index=True)


def explicit(func, grid, slos, **kw):
    """The Workbook preset built for each group's own period, with the bare target."""
    return pd.concat([func(grid.select([g]), slos.slo_for(key_of(grid, g)).target,
                           AlertPolicy.workbook(slos.slo_for(key_of(grid, g)).period), **kw)
                      for g in range(grid.n_groups)], ignore_index=True)


def plain(frame):
    out = frame.copy()
    out.attrs = {}
    return out


@pytest.mark.parametrize("func", [alert_episodes, alert_states, low_traffic])
def test_preset_policy_with_per_group_periods_equals_each_group_alone(func):
    grid = make_grid()
    got = func(grid, SLOS, "workbook")
    want = separate(func, grid, SLOS, "workbook")
    pd.testing.assert_frame_equal(plain(got), plain(want), check_exact=True)
    pd.testing.assert_frame_equal(plain(got), plain(explicit(func, grid, SLOS)), check_exact=True)
    # 30 d for every group
    one_period = func(grid, {"ams": 0.99, "fra": 0.995, "lhr": 0.98}, "workbook")
    assert not plain(one_period).equals(plain(got))
    if func is alert_episodes:
        assert len(got) >= 3 and set(got["region"]) == set(GROUPS)
        assert got.attrs["tiers"] == [[t.name, t.severity] for t in AlertPolicy.workbook().tiers]


@pytest.mark.parametrize("func", [alert_episodes, alert_states, low_traffic])
def test_an_alert_policy_object_is_used_as_given_for_every_group(func):
    grid = make_grid()
    pol = AlertPolicy.workbook("7D")
    got = func(grid, SLOS, pol)
    want = pd.concat([func(grid.select([g]), SLOS.slo_for(key_of(grid, g)).target, pol)
                      for g in range(grid.n_groups)], ignore_index=True)
    pd.testing.assert_frame_equal(plain(got), plain(want), check_exact=True)


def test_per_group_targets_change_the_episodes():
    grid = make_grid()
    pol = AlertPolicy.single_window("30min", burn=2.0)
    strict = alert_episodes(grid, {"ams": 0.999, "fra": 0.999, "lhr": 0.999}, pol)
    # fra: burn 2 needs > 100 % errors
    loose = alert_episodes(grid, {"ams": 0.999, "fra": 0.5, "lhr": 0.999}, pol)
    assert (strict["region"] == "fra").any() and not (loose["region"] == "fra").any()
    pd.testing.assert_frame_equal(plain(strict[strict["region"] != "fra"]).reset_index(drop=True),
                                  plain(loose), check_exact=True)


def test_tuple_keys_default_and_missing_groups():
    grid = make_grid(two_keys=True)
    slos = PerGroup({("fra", "image"): SLO(0.995, period="7D"), ("lhr", "turnstile"): 0.98},
                    default=0.99)
    for func in (alert_episodes, alert_states, low_traffic):
        pd.testing.assert_frame_equal(
            plain(func(grid, slos, "workbook")),
            plain(separate(func, grid, slos, "workbook")),
            check_exact=True,
        )
    with pytest.raises(ConfigError, match=r"\(ams, image\)"):
        alert_episodes(grid, {("fra", "image"): 0.995}, "workbook")


def incidents_of(grid):
    rows = []
    for i, g in enumerate(GROUPS):
        lo = T0 + pd.Timedelta(minutes=600 + 900 * i)
        rows.append({"incident_id": f"i{i}", "scope": f"region={g}", "start": lo,
                     "end": lo + pd.Timedelta(minutes=40 + 20 * i)})
    return pd.DataFrame(rows)


# SLOS' targets with budget periods around the 4 d span: fra's 30 d is longer (its budget figures
# withheld), ams' 1 d and lhr's 2 d fit in it
SHORT = PerGroup({"ams": SLO(0.99, period="1D"), "fra": SLO(0.995, period="30D"),
                  "lhr": SLO(0.98, period="2D")})


def test_score_alerts_uses_each_groups_target_and_period():
    grid = make_grid()
    inc = incidents_of(grid)
    ep = alert_episodes(grid, SLOS, "workbook")
    # no policy=: its 30 d would be every group's period (refused: the SLOs' differ); the
    # episodes' attrs name the tiers and hold their longest windows, the 30 d workbook's
    got = score_alerts(ep, inc, bins=grid, target=SHORT)
    for g, region in enumerate(GROUPS):
        slo = SHORT.slo_for(region)
        sub = grid.select([g])
        ep_g = alert_episodes(sub, SLOS.slo_for(region), "workbook")
        alone = score_alerts(ep_g, inc, bins=sub, target=slo.target, period=slo.period,
                             policy=AlertPolicy.workbook())
        mine = got[got["region"] == region].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, alone[alone["region"] == region].reset_index(drop=True),
                                      check_exact=True)
    # every incident scored (with filling='apart' those begun in a tier's first 3 d are apart)
    got = score_alerts(ep, inc, bins=grid, target=SHORT, filling="count")
    given = got["region"].isin(["ams", "lhr"])
    assert got.loc[given, "budget_before_alert_max"].notna().all()
    # fra's 30 d period is longer than the 4 d read, and so is the "*" rows' (fra is in them)
    assert got.loc[~given, "budget_before_alert_max"].isna().all()
    assert got.attrs["budget_note"].startswith("budget_before_alert withheld for 1 of the 3 "
                                               "groups: the bins span 4 d, less than the 30 d")
    # the budget period is the SLO's: a 1 d budget is 2 times the share of a 2 d one
    two = score_alerts(ep, inc, bins=grid, target=SHORT, period="2D",
                       policy=AlertPolicy.workbook(), filling="count")
    ams = (got["region"] == "ams") & (got["tier"] == "*") & (got["severity"] == "*")
    ratio = (
        got.loc[ams, "budget_before_alert_max"].item()
        / two.loc[ams, "budget_before_alert_max"].item()
    )
    assert ratio == pytest.approx(2)


def test_score_alerts_reads_the_period_of_one_slo():
    grid = make_grid()
    inc = incidents_of(grid)
    ep = alert_episodes(grid, 0.99, "workbook")
    a = score_alerts(ep, inc, bins=grid, target=SLO(0.99, period="7D"))
    b = score_alerts(ep, inc, bins=grid, target=0.99, period="7D")
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    c = score_alerts(ep, inc, bins=grid, target=0.99)
    d = score_alerts(ep, inc, bins=grid, target=0.99, period="30D")
    pd.testing.assert_frame_equal(c, d, check_exact=True)
