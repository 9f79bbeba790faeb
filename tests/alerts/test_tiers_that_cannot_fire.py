"""Tiers that can never fire at the target (burn x (1 - target) >= 1, an error ratio being at most
1) are named, with their thresholds, wherever they were silent: the replays' and scores' attrs,
``alerts``' output and ``export prometheus`` (stranger's report, stop 55, item 2)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, BudgetlabWarning, PerGroup, alert_episodes, score_alerts
from budgetlab.cli import main
from budgetlab.events.schema import as_events
from budgetlab.interop.prometheus import prometheus_rules
from budgetlab.windows.binning import bin_events

START = pd.Timestamp("2026-01-05", tz="UTC")
METRICS = {"total_metric": "t_total", "errors_metric": "e_total"}


def _bins(ok_a, ok_b=None) -> pd.DataFrame:
    """One event a minute for 3 h, in one group (``a``) or two (``a`` and ``b``)."""
    ts = START + pd.to_timedelta(np.arange(180) * 60 + 30, unit="s")
    if ok_b is None:
        return bin_events(as_events(ts, ok_a), "1min")
    ev = as_events(np.concatenate([ts, ts]), np.concatenate([ok_a, ok_b]),
                   groups={"g": np.repeat(["a", "b"], 180)})
    return bin_events(ev, "1min", by=["g"])


def test_the_threshold_of_one_or_more_is_the_line_the_replay_never_crosses():
    from budgetlab.alerts.reach import can_never_fire  # new in stop 55

    # every event fails: error ratio 1 in every window; a tier fires iff 1 > burn x (1 - target)
    bins = _bins(np.zeros(180, dtype=bool))
    # by hand: 10 x (1 - 0.9) = 0.9999999999999998 in doubles (< 1: fires), 20 x (1 - 0.95) =
    # 1.0000000000000009 (>= 1: never), 14.4 x (1 - 0.93) = 1.008, 6 x (1 - 0.93) = 0.42
    for burn, target, never in ((10, 0.9, False), (20, 0.95, True), (14.4, 0.93, True),
                                (6, 0.93, False)):
        pol = AlertPolicy.single_window("5min", burn=burn)
        assert can_never_fire(pol.tiers[0], target) is never
        assert alert_episodes(bins, target, pol).empty is never


def test_episodes_and_scores_name_the_tier_and_its_threshold():
    bins = _bins(np.arange(180) % 2 == 0)  # half the events fail
    ep = alert_episodes(bins, 0.93, "workbook")
    # by hand: 14.4 x 0.07 = 1.008 >= 1; 6 x 0.07 = 0.42, 3 x 0.07 = 0.21, 1 x 0.07 < 1
    want = ("page_1h can never fire at target 0.93: it needs an error ratio above 14.4 x "
            "(1 - 0.93) = 1.008, and an error ratio is at most 1 (every event failing); its "
            "recall is no verdict on the tier.")
    assert ep.attrs["cannot_fire_note"] == want
    inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"], "start": [START],
                        "end": [START + pd.Timedelta("3h")]})
    assert score_alerts(ep, inc, bins=bins, target=0.93).attrs["cannot_fire_note"] == want
    assert alert_episodes(bins, 0.95, "workbook").attrs["cannot_fire_note"] == ""


def test_per_group_targets_name_the_groups():
    bins = _bins(np.ones(180, dtype=bool), np.ones(180, dtype=bool))
    slo = PerGroup({"a": SLO(0.8), "b": SLO(0.99)})
    note = alert_episodes(bins, slo, "workbook").attrs["cannot_fire_note"]
    # by hand at 0.8: 14.4 x 0.2 = 2.88 and 6 x 0.2 = 1.2 (3 x 0.2 = 0.6 can fire); 0.99: none
    assert note == ("page_1h and page_6h can never fire at target 0.8 (the group 'a'): they need "
                    "an error ratio above 14.4 x (1 - 0.8) = 2.88 and 6 x (1 - 0.8) = 1.2, and an "
                    "error ratio is at most 1 (every event failing); their recall is no verdict "
                    "on those tiers.")


def test_groups_of_two_keys_are_named_as_pairs():
    # stop 59 item 1: the note listed "2 of 4 groups: 'a', 'x', 'a', 'y'", four names for two
    ts = START + pd.to_timedelta(np.arange(180) * 60 + 30, unit="s")
    ev = as_events(np.tile(ts, 4), np.ones(720, dtype=bool),
                   groups={"g": np.repeat(["a", "a", "b", "b"], 180),
                           "r": np.repeat(["x", "y", "x", "y"], 180)})
    bins = bin_events(ev, "1min", by=["g", "r"])
    targets = pd.DataFrame({"g": ["a", "b"], "target": [0.93, 0.99]})
    note = alert_episodes(bins, targets, "workbook").attrs["cannot_fire_note"]
    # by hand: 14.4 x 0.07 = 1.008 at 0.93 (the two groups of g=a); 14.4 x 0.01 = 0.144 at 0.99
    assert note.startswith("page_1h can never fire at target 0.93 (2 of 4 groups: ('a', 'x'), "
                           "('a', 'y')): it needs an error ratio above 14.4 x (1 - 0.93) = 1.008")


def test_alerts_prints_the_note_before_the_never_fired_rows(tmp_path, capsys):
    ts = START + pd.to_timedelta(np.arange(180) * 60 + 30, unit="s")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts, "outcome": np.where(np.arange(180) % 2 == 0, "success",
                                                "solve_error")}).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end,scope\ni1,2026-01-05T00:00:00Z,2026-01-05T03:00:00Z,*\n")
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.93",
                 "--policy", "workbook"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("page_1h can never fire at target 0.93: it needs an error ratio above 14.4 x "
            "(1 - 0.93) = 1.008") in out
    assert out.index("can never fire") < out.index("never fired")


def test_prometheus_rules_warn_and_write_the_rule(tmp_path, capsys):
    with pytest.warns(BudgetlabWarning) as caught:
        rules = prometheus_rules(SLO(0.89, "30D"), "workbook", name="solve", **METRICS)
    # by hand: 14.4 x 0.11 = 1.584 (page_6h: 6 x 0.11 = 0.66 can fire)
    assert str(caught[0].message) == (
        "SLO 'solve': page_1h can never fire at target 0.89: it needs an error ratio above "
        "14.4 x (1 - 0.89) = 1.584, and an error ratio is at most 1 (every event failing); the "
        "rules are written all the same.")
    assert any("> (14.4 * (1 - 0.89))" in r.get("expr", "") for r in rules["groups"][0]["rules"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prometheus_rules(SLO(0.95, "30D"), "workbook", name="solve", **METRICS)  # none at 95 %
    out = tmp_path / "r.yaml"
    assert main(["export", "prometheus", "--target", "0.89", "--policy", "workbook",
                 "--total-metric", "t_total", "--errors-metric", "e_total", str(out)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "warning: SLO 'slo': page_1h can never fire at target 0.89" in err
    assert "> (14.4 * (1 - 0.89))" in out.read_text()
