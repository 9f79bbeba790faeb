"""``score_alerts`` takes the budget period of the policy it is given, as ``compare_policies``
does (api54); an SLO period other than the policy's is refused unless ``period=`` says which. A
misspelt preset name is said back with the name it is closest to.

Oracle, by hand: hourly bins over 8 days, 10 events each, target 95 %; hour 100 holds 4 failures.
A one-window policy (1 h, burn 1, period 7 d) fires at the end of hour 100 (burn 4 / (10 x 0.05)
= 8 > 1): 4 failures before the alert, of a 7 d budget of 0.05 x 10 events x 168 h = 84 failures:
4 / 84 = 4.7619 %. With the 30 d default the 8-day span is too short for a budget share (NaN).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import ConfigError

START = pd.Timestamp("2026-01-01", tz="UTC")


def _bins():
    n = 8 * 24
    bad = np.zeros(n, dtype=np.int64)
    bad[100] = 4
    return pd.DataFrame({"bin_start": pd.date_range(START, periods=n, freq="1h"),
                         "total": np.full(n, 10, dtype=np.int64), "bad": bad})


def _incidents():
    return pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                         "start": [START + pd.Timedelta(hours=100)],
                         "end": [START + pd.Timedelta(hours=101)]})


POLICY = bl.AlertPolicy.single_window("1h", 1.0, period="7D")


def test_score_alerts_uses_the_policys_period():
    bins = _bins()
    ep = bl.alert_episodes(bins, 0.95, POLICY, freq="1h")
    sc = bl.score_alerts(ep, _incidents(), bins=bins, target=0.95, policy=POLICY, freq="1h",
                         filling="count")
    row = sc[sc["tier"] != "*"].iloc[0]
    # it was NaN: "the bins span 8 d, less than the 30 d budget period"
    assert row["budget_before_alert_median"] == pytest.approx(100 * 4 / 84, rel=1e-12)
    assert sc.attrs["budget_note"] == ""
    cp = bl.compare_policies(bins, 0.95, {"one": POLICY}, _incidents(), freq="1h",
                             filling="count")
    assert cp.loc[0, "budget_before_alert_median"] == pytest.approx(100 * 4 / 84, rel=1e-12)


def test_period_given_is_the_period_named():
    # period= names the budget: 30 d from 8 d of bins is withheld, 7 d is the policy's
    bins = _bins()
    ep = bl.alert_episodes(bins, 0.95, POLICY, freq="1h")
    sc = bl.score_alerts(ep, _incidents(), bins=bins, target=0.95, policy=POLICY, period="168h",
                         freq="1h", filling="count")
    assert sc.loc[0, "budget_before_alert_median"] == pytest.approx(100 * 4 / 84, rel=1e-12)
    sc = bl.score_alerts(ep, _incidents(), bins=bins, target=0.95, policy=POLICY, period="30D",
                         freq="1h", filling="count")
    assert np.isnan(sc.loc[0, "budget_before_alert_median"])
    assert "less than the 30 d budget period" in sc.attrs["budget_note"]


def test_a_misspelt_preset_is_said_back_with_the_close_match():
    bins = _bins()
    with pytest.raises(ConfigError, match=r"^policy='workbok' is not a preset name; did you mean "
                                          r"'workbook'\? Give one of 'workbook', 'sloth', "):
        bl.alert_episodes(bins, 0.999, "workbok", freq="1h")
    with pytest.raises(ConfigError, match=r"^policy='fast' is not a preset name\. Give one of"):
        bl.alert_episodes(bins, 0.999, "fast", freq="1h")


def test_an_slo_period_other_than_the_policys_is_refused_unless_period_says_which():
    bins = _bins()
    slo = bl.SLO(target=0.95, period="30D")
    ep = bl.alert_episodes(bins, slo, POLICY, freq="1h")
    with pytest.raises(ConfigError, match=r"^the target's budget period \(30 d\) differs from the "
                                          r"period of policy= \(7 d\); pass period='7D' to score "
                                          r"against the policy's, or leave out policy="):
        bl.score_alerts(ep, _incidents(), bins=bins, target=slo, policy=POLICY, freq="1h")
    # period= says which, as compare_policies does for each policy
    sc = bl.score_alerts(ep, _incidents(), bins=bins, target=slo, policy=POLICY, period="7D",
                         freq="1h", filling="count")
    assert sc.loc[0, "budget_before_alert_median"] == pytest.approx(100 * 4 / 84, rel=1e-12)
    cp = bl.compare_policies(bins, slo, {"one": POLICY}, _incidents(), freq="1h",
                             filling="count")
    assert cp.loc[0, "budget_before_alert_median"] == pytest.approx(100 * 4 / 84, rel=1e-12)
