"""AlertPolicy / AlertTier: validation, equality and presets against their published sources."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from budgetlab._util.validation import duration_label
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.tier import AlertTier
from budgetlab.errors import ConfigError


def table(policy):
    return [(t.name, t.severity, duration_label(t.long_window),
             duration_label(t.short_window) if t.short_window is not None else None,
             t.burn, duration_label(t.for_) if t.for_.value else "0") for t in policy.tiers]


def test_workbook_tiers():
    # Google SRE Workbook ch. 5, table "Recommended parameters for an SLO-based alerting
    # configuration" (99.9 %, 30 d): page 1 h / 5 m x14.4 (2 %), page 6 h / 30 m x6 (5 %),
    # ticket 3 d / 6 h x1 (10 %); DESIGN.md adds ticket 24 h / 2 h x3 (10 %).
    assert table(AlertPolicy.workbook()) == [
        ("page_1h", "page", "1h", "5m", 14.4, "0"),
        ("page_6h", "page", "6h", "30m", 6.0, "0"),
        ("ticket_1d", "ticket", "1d", "2h", 3.0, "0"),
        ("ticket_3d", "ticket", "3d", "6h", 1.0, "0"),
    ]
    fr = [round(t.budget_fraction("30D"), 6) for t in AlertPolicy.workbook().tiers]
    assert fr == [0.02, 0.05, 0.10, 0.10]
    assert AlertPolicy.workbook().period == pd.Timedelta("30D")


def test_sloth_presets():
    # slok/sloth internal/alert/windows/google-30d.yaml and google-28d.yaml: errorBudgetPercent
    # 2 / 5 / 10 / 10 on 1h-5m, 6h-30m, 1d-2h, 3d-6h; factor = percent / 100 * period / long window.
    assert table(AlertPolicy.sloth("30D")) == [
        ("page_quick", "page", "1h", "5m", 14.4, "0"),
        ("page_slow", "page", "6h", "30m", 6.0, "0"),
        ("ticket_quick", "ticket", "1d", "2h", 3.0, "0"),
        ("ticket_slow", "ticket", "3d", "6h", 1.0, "0"),
    ]
    burns = [t.burn for t in AlertPolicy.sloth("28D").tiers]
    assert burns == pytest.approx([13.44, 5.6, 2.8, 0.93333333], abs=1e-8)
    with pytest.raises(ConfigError):
        AlertPolicy.sloth("7D")


def test_pyrra_presets():
    # pyrra-dev/pyrra slo/rules.go Windows(): comments give the 28 d table
    # (1h/5m for 2m x14, 6h/30m for 15m x7, 1d/2h for 1h x2, 4d/6h for 3h x1).
    assert table(AlertPolicy.pyrra("28D")) == [
        ("critical_1h", "critical", "1h", "5m", 14.0, "2m"),
        ("critical_6h", "critical", "6h", "30m", 7.0, "15m"),
        ("warning_1d", "warning", "1d", "2h", 2.0, "1h"),
        ("warning_4d", "warning", "4d", "6h", 1.0, "3h"),
    ]
    # 30 d: each duration is 30d / n (Go integer division) rounded to the minute, computed by hand:
    # 2592000 s / 672 = 3857.1 s -> 64 m; / 8064 = 321.4 s -> 5 m; / 20160 = 128.6 s -> 2 m;
    # / 112 = 23142.9 s -> 386 m; / 1344 = 1928.6 s -> 32 m; / 2688 = 964.3 s -> 16 m;
    # / 28 = 92571.4 s -> 1543 m; / 336 = 7714.3 s -> 129 m; / 7 = 370285.7 s -> 6171 m; / 224 ->
    # 193 m.
    minutes = [(t.long_window // pd.Timedelta("1min"), t.short_window // pd.Timedelta("1min"),
                t.for_ // pd.Timedelta("1min")) for t in AlertPolicy.pyrra("30D").tiers]
    assert minutes == [(64, 5, 2), (386, 32, 16), (1543, 129, 64), (6171, 386, 193)]


def test_from_budget_fractions_and_single_window():
    p = AlertPolicy.from_budget_fractions([(0.02, "1h"), (0.05, "6h"), (0.1, "1D", "ticket")],
                                          period="28D")
    assert [t.burn for t in p.tiers] == pytest.approx([13.44, 5.6, 2.8])
    assert [t.short_window for t in p.tiers] == [pd.Timedelta("5min"), pd.Timedelta("30min"),
                                                 pd.Timedelta("2h")]
    assert [t.severity for t in p.tiers] == ["page", "page", "ticket"]
    s = AlertPolicy.single_window("24h", 0.5)
    assert s.tiers[0].short_window is None and s.tiers[0].windows == (pd.Timedelta("24h"),)
    assert (
        AlertPolicy.workbook("30D").tiers == AlertPolicy.from_budget_fractions(period="30D").tiers
    )
    assert AlertPolicy.workbook().windows[0] == pd.Timedelta("5min")


def test_equality_hash_frozen_and_round_trip():
    a = AlertPolicy.workbook()
    b = AlertPolicy(tuple(dataclasses.replace(t) for t in a.tiers), period="30D", name="workbook")
    assert a == b and hash(a) == hash(b)
    assert a != AlertPolicy.workbook("28D")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.period = pd.Timedelta("7D")  # type: ignore[misc]
    rebuilt = AlertPolicy([dataclasses.asdict(t) for t in a.tiers], period=a.period, name=a.name)
    assert rebuilt == a
    from_tuples = AlertPolicy([("p", "page", "1h", "5min", 14.4)])
    assert from_tuples.tiers[0] == AlertTier("p", "page", pd.Timedelta("1h"), pd.Timedelta("5min"),
                                             14.4)


def test_validation():
    with pytest.raises(ConfigError):
        AlertTier("p", "page", "5min", "1h", 14.4)  # short longer than long
    with pytest.raises(ConfigError):
        AlertTier("p", "page", "1h", "5min", 0)
    with pytest.raises(ConfigError):
        AlertTier("p", "page", "1h", "5min", float("inf"))
    with pytest.raises(ConfigError):
        AlertTier("", "page", "1h")
    with pytest.raises(ConfigError):
        AlertTier("p", "page", "1h", for_="-1min")
    with pytest.raises(ConfigError):
        AlertPolicy(())
    with pytest.raises(ConfigError):
        AlertPolicy([("p", "page", "1h"), ("p", "ticket", "6h")])
    with pytest.raises(ConfigError):
        AlertPolicy.from_budget_fractions([(1.5, "1h")])
    with pytest.raises(ConfigError):
        AlertPolicy.workbook().tier("nope")


@pytest.mark.parametrize("divisor", [0, 2.5, True])
def test_short_divisor_must_be_a_whole_number_of_at_least_one(divisor):
    with pytest.raises(ConfigError, match=r"short_divisor must be a whole number >= 1"):
        AlertPolicy.from_budget_fractions([(0.02, "1h")], short_divisor=divisor)


def test_short_divisor_none_makes_single_window_tiers():
    # the workbook's 2 % in 1 h at 30 d: burn 0.02 x 720 h / 1 h = 14.4, no short window
    tier, = AlertPolicy.from_budget_fractions([(0.02, "1h")], short_divisor=None).tiers
    assert (tier.short_window, tier.burn) == (None, 14.4)


def test_presets_bundle():
    pres = AlertPolicy.presets("30D")
    assert list(pres) == ["workbook", "sloth", "pyrra", "single_window_1h"]
    assert all(isinstance(p, AlertPolicy) for p in pres.values())


# ------------------------------------------------------------------------------------------------
# presets keep their meaning (issue 16): the period is the SRE budget period, factors are kept


def test_workbook_at_another_period_keeps_its_factors_and_scales_its_windows():
    # Pyrra's rule: factors 14.4 / 6 / 3 / 1 kept, windows x period / 30 d rounded to the minute.
    # By hand at 28 d: 1 h x 28/30 = 56 min, 5 min -> 4 min 40 s -> 5 min; 6 h -> 5 h 36 min,
    # 30 min -> 28 min; 1 d -> 22 h 24 min, 2 h -> 1 h 52 min; 3 d -> 67 h 12 min, 6 h -> 5 h 36
    # min.
    p = AlertPolicy.workbook("28D")
    assert table(p) == [
        ("page_1h", "page", "56m", "5m", 14.4, "0"),
        ("page_6h", "page", "5h36m", "28m", 6.0, "0"),
        ("ticket_1d", "ticket", "22h24m", "1h52m", 3.0, "0"),
        ("ticket_3d", "ticket", "2d19h12m", "5h36m", 1.0, "0"),
    ]
    assert p.period == pd.Timedelta("28D")
    # no preset makes a page tier below burn 1 at any period
    for period in ("3D", "7D", "28D", "30D", "90D"):
        assert min(t.burn for t in AlertPolicy.workbook(period).tiers if t.severity == "page") >= 1


def test_workbook_on_a_one_day_slo_refuses_instead_of_factors_below_one():
    # the old behaviour: period=24h gave burns 0.48 / 0.2 / 0.1 / 0.033 (a page at half the
    # allowed pace) and a 3-day ticket window on a 1-day SLO
    with pytest.raises(ConfigError,
                       match=r"period='1d' is too short.*SLO\.period.*from_budget_fractions"):
        AlertPolicy.workbook("24h")


def test_workbook_at_30_days_is_unchanged():
    assert (
        AlertPolicy.workbook("30D")
        == AlertPolicy.workbook()
        == AlertPolicy.from_budget_fractions(name="workbook")
    )


def test_as_policy_builds_presets_for_the_slo_period():
    from budgetlab import SLO
    from budgetlab.alerts.policy import as_policy

    slo = SLO(target=0.95, window="24h")  # the tracker window is 24 h, the budget period 30 d
    assert as_policy("workbook", period=slo.period) == AlertPolicy.workbook()
    assert [t.burn for t in as_policy("workbook", period="28D").tiers] == [14.4, 6.0, 3.0, 1.0]
    assert as_policy("pyrra", period="28D") == AlertPolicy.pyrra("28D")
    # an explicit policy keeps its own period
    explicit = AlertPolicy.from_budget_fractions(period="28D")
    assert as_policy(explicit, period="30D") is explicit
    with pytest.raises(ConfigError, match="preset name"):
        as_policy("nope")


# ------------------------------------------------------------------------------------------------
# can a tier fire at an error ratio (issue 16)


def test_detection_time_is_nat_when_the_tier_cannot_fire():
    tier = AlertPolicy.workbook().tier("page_1h")
    # 0.5 % errors on a 99.9 % SLO: burn 5 < 14.4, alert_episodes never fires (the old answer: 2 h
    # 52 m)
    assert not tier.can_fire(0.999, 0.005)
    assert tier.detection_time(0.999, 0.005) is pd.NaT
    # 2 % errors: burn 20 > 14.4; closed form 0.001 / 0.02 x 60 min x 14.4 = 43.2 min
    assert tier.can_fire(0.999, 0.02)
    assert tier.detection_time(0.999, 0.02) == pd.Timedelta(minutes=43.2)
    # strict >: an error ratio exactly at burn x (1 - target) never fires (0.5 x (1 - 0.5) = 0.25)
    half = AlertTier("t", "page", "1h", None, 0.5)
    assert not half.can_fire(0.5, 0.25) and half.detection_time(0.5, 0.25) is pd.NaT
    assert half.can_fire(0.5, 0.26)
    # a tier needing more than every request failing (14.4 x 10 % > 100 %) can never fire
    assert not tier.can_fire(0.9, 1.0)


def test_can_fire_agrees_with_alert_episodes():
    import numpy as np

    from budgetlab.alerts.episodes import alert_episodes
    from budgetlab.events.schema import as_events
    from budgetlab.windows.binning import bin_events

    # a constant error ratio r: 1000 requests a minute, r x 1000 failing, for 3 hours
    tier = AlertTier("p", "page", "1h", "5min", 14.4)
    for r in (0.005, 0.0144, 0.015, 0.02):
        n_bad = int(round(r * 1000))
        ts = np.repeat(pd.date_range("2026-01-01", periods=180, freq="1min").to_numpy(), 1000)
        ok = np.tile(np.arange(1000) >= n_bad, 180)
        bins = bin_events(as_events(ts, ok), "1min")
        fired = len(alert_episodes(bins, 0.999, AlertPolicy((tier,)))) > 0
        assert fired == tier.can_fire(0.999, n_bad / 1000), r
