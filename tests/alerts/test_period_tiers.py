"""One tier name, one tier: Pyrra's preset built for per-group SLOs of different periods.

Pyrra names budgetlab's tiers by severity and long window (its alerts' labels), and its windows
scale with the period, so the builds for two periods meet in one table under names that mean two
tiers. Oracle: Pyrra's ``slo/rules.go`` ``Windows()`` worked by hand (each duration is
``period / n`` rounded to the minute) and Pyrra's own expected rules for a 1-week SLO
(``slo/rules_test.go``, objective ``monitoring-grpc-latency``, pyrra-dev/pyrra commit 1ba95afb:
``severity warning, long 1d, short 1h30m``, ``for 45m``, factor 1).

* 28 d, third tier: long 28 d / 28 = 1 d, short 28 d / 336 = 2 h, for 28 d / 672 = 1 h, x2.
* 7 d, fourth tier: long 7 d / 7 = 1 d, short 7 d / 112 = 1.5 h, for 7 d / 224 = 45 min, x1.

Before the fix both ran, and ``score_alerts`` summed them in its ``*`` row of ``warning_1d`` and
gave each group rows of the other period's tiers, never run on it (0 detected, recall 0).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, PerGroup
from budgetlab.alerts.episodes import alert_episodes, alert_states
from budgetlab.alerts.lowtraffic import low_traffic
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.analyses.incident import incident_report
from budgetlab.cli import main
from budgetlab.errors import ConfigError
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events
from tests.region_slos import region_slos

T0 = pd.Timestamp("2026-01-05", tz="UTC")
MIXED = PerGroup({"ams": SLO(0.99, period="28D"), "fra": SLO(0.99, period="7D")})

COLLISION = (
    "policy='pyrra' is built for each group's SLO period (28 d, 7 d) and its tiers are named by "
    "their windows, which scale with the period, so one name would mean two tiers: warning_1d is "
    "burn 2 over 1d/2h for 1h at 28 d and burn 1 over 1d/1h30m for 45m at 7 d; give the groups' "
    "SLOs one period, pass policy='workbook' (its tier names are the same at every period), or "
    "run the groups of each period apart (e.g. policy=AlertPolicy.pyrra('7D') on those groups "
    "alone).")


def events() -> pd.DataFrame:
    """Two hours, one event a minute per region, every tenth one failed."""
    ts = pd.date_range(T0, periods=120, freq="1min")
    ok = np.arange(120) % 10 != 0
    frames = [as_events(ts, ok).assign(region=r) for r in ("ams", "fra")]
    ev = pd.concat(frames, ignore_index=True).sort_values("ts", kind="stable")
    return ev.reset_index(drop=True)


def bins() -> pd.DataFrame:
    return bin_events(events(), "1min", by=["region"])


@pytest.mark.parametrize("func", [alert_episodes, alert_states, low_traffic])
def test_pyrra_for_two_periods_is_refused_where_one_name_means_two_tiers(func):
    b = bins()
    with pytest.raises(ConfigError) as info:
        func(b, MIXED, "pyrra")
    assert str(info.value) == COLLISION
    # the fixes it names run: the Workbook's role names, page_1h ... at every period
    assert func(b, MIXED, "workbook").attrs["tiers"] == [
        ["page_1h", "page"], ["page_6h", "page"], ["ticket_1d", "ticket"], ["ticket_3d", "ticket"]]
    fra = b[b["region"] == "fra"].reset_index(drop=True)  # the 7 d group alone
    fra.attrs = dict(b.attrs)
    alone = func(fra, 0.99, AlertPolicy.pyrra("7D"))
    assert alone.attrs["tier_windows"]["warning_1d"] == 24 * 3_600 * 10**9


def test_names_that_differ_without_colliding_are_refused_too():
    # 30 d: 30 d / 672 = 1 h 4 min 17 s -> 1h4m, 30 d / 8,064 = 5 min 21 s -> 5m, for 30 d /
    # 20,160 = 2 min 8.6 s -> 2m: the 28 d group would get a row critical_1h4m never run on it
    slos = PerGroup({"ams": SLO(0.99, period="28D"), "fra": SLO(0.99, period="30D")})
    with pytest.raises(ConfigError) as info:
        alert_episodes(bins(), slos, "pyrra")
    assert ("so the groups would get rows of tiers never run on them: critical_1h (burn 14 over "
            "1h/5m for 2m) at 28 d is critical_1h4m (burn 14 over 1h4m/5m for 2m) at 30 d; "
            in str(info.value))
    # one period for every group runs, with that period's names: 7 d / 672 = 15m, / 112 =
    # 1h30m, / 28 = 6h, / 7 = 1d
    slos = PerGroup({"ams": SLO(0.99, period="7D"), "fra": SLO(0.95, period="7D")})
    ep = alert_episodes(bins(), slos, "pyrra")
    hour = 3_600 * 10**9
    assert ep.attrs["tier_windows"] == {"critical_15m": hour // 4, "critical_1h30m": 3 * hour // 2,
                                        "warning_6h": 6 * hour, "warning_1d": 24 * hour}


def test_same_windows_other_burn_is_a_collision():
    # 30 d's first tier and 5 d's second have one name and the same windows: 30 d / 672 =
    # 5 d / 112 = 1h4m, 30 d / 8,064 = 5 d / 1,344 = 5m; x14 for 2m (30 d / 20,160) against
    # x7 for 3m (5 d / 2,688 = 2 min 40.7 s)
    slos = PerGroup({"ams": SLO(0.99, period="30D"), "fra": SLO(0.99, period="5D")})
    with pytest.raises(ConfigError) as info:
        alert_episodes(bins(), slos, "pyrra")
    assert ("one name would mean two tiers: critical_1h4m is burn 14 over 1h4m/5m for 2m at 30 d "
            "and burn 7 over 1h4m/5m for 3m at 5 d;" in str(info.value))


def test_incident_report_refuses_it_too():
    with pytest.raises(ConfigError) as info:
        incident_report(events(), MIXED, T0 + pd.Timedelta("30min"), T0 + pd.Timedelta("90min"),
                        policy="pyrra", by="region", context="10min")
    assert str(info.value) == COLLISION




@pytest.mark.parametrize("command", ["alerts", "incident"])
def test_the_command_line_says_it_in_its_flags(tmp_path, capsys, command):
    ev = events()
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": ev["ok"],
                  "region": ev["region"]}).to_csv(tmp_path / "log.csv", index=False)
    (tmp_path / "inc.csv").write_text("incident_id,start,end\n"
                                      "i1,2026-01-05T00:30:00Z,2026-01-05T01:30:00Z\n")
    (tmp_path / "slos.yaml").write_text(region_slos({"ams": "28d", "fra": "7d"}))
    args = [command, str(tmp_path / "log.csv"), "--ok", "ok", "--by", "region", "--slo",
            str(tmp_path / "slos.yaml"), "--incidents", str(tmp_path / "inc.csv")]
    if command == "incident":
        args += ["--id", "i1", "--context", "10min"]
    assert main([*args, "--policy", "pyrra"]) == 2
    said = " ".join(capsys.readouterr().err.split())  # after the reading's account
    assert said[said.index("budgetlab: error:"):] == (
        "budgetlab: error: --policy pyrra is built for each group's SLO period (28 d, 7 d; the "
        "--slo file's) and its tiers are named by their windows, which scale with the period, so "
        "one name would mean two tiers: warning_1d is burn 2 over 1d/2h for 1h at 28 d and burn 1 "
        "over 1d/1h30m for 45m at 7 d; give an --slo file whose SLOs share one period, or "
        "--policy workbook (its tier names are the same at every period).")
    assert main([*args, "--policy", "workbook"]) == 0
