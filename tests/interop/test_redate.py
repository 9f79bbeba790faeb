"""Policies moved to another budget period (``--period``): each tier keeps its budget fraction,
``burn = fraction x period / long window`` (SRE Workbook ch. 5), and a re-dating that would put a
tier below burn 1 (no alert: it fires while the budget is being kept) is refused. Figures by
hand."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from budgetlab import SLO, ConfigError
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.tier import AlertTier
from budgetlab.cli import main
from budgetlab.cli.backtest_slos import at_period
from budgetlab.interop.openslo import SLODocument, ratio_indicator, write_openslo
from budgetlab.interop.redate import redate_policy
from budgetlab.interop.sli_queries import read_slo_spec
from tests.interop.test_sloth_pyrra_specs import _alert_tiers

SLOTH = Path(__file__).parents[1] / "fixtures" / "sloth" / "getting-started.yml"

# Sloth's 30 d tiers at 7 d, each keeping its fraction: 2 % in 1 h -> 0.02 x 7 x 24 = 3.36,
# 5 % in 6 h -> 0.05 x 7 x 4 = 1.4 (both alerts), 10 % in 1 d -> 0.1 x 7 = 0.7 and 10 % in 3 d
# -> 0.1 x 7 / 3 = 0.233 (both below 1). Every tier >= 1 needs period >= 3 d / 10 % = 30 d.
SEVEN_DAYS = ("--period 7d would put tier ticket_quick at burn 0.7 and tier ticket_slow at burn "
              "0.233 (each tier keeping its share of the budget: burn = share x period / long "
              "window); a tier below burn 1 fires while the service is on track to keep its "
              "budget, so it is no alert: give --policy with tiers made for 7 d (e.g. --policy "
              "workbook or --policy pyrra) or --period 30d or longer.\n")


@pytest.mark.parametrize("command", [["export", "prometheus", "--slo", str(SLOTH)],
                                     ["export", "openslo", "--from", str(SLOTH)]])
def test_export_at_7d_refuses_the_tiers_below_burn_1(tmp_path, capsys, command):
    assert main([*command, "--period", "7d", str(tmp_path / "out.yaml")]) == 2
    assert capsys.readouterr().err == "budgetlab: error: " + SEVEN_DAYS
    assert not (tmp_path / "out.yaml").exists()


def test_the_fixes_offered_work(tmp_path, capsys):
    # --policy workbook at 7 d: the Workbook's factors 14.4, 6, 3, 1 kept, windows x 7 / 30
    out = tmp_path / "w.yaml"
    assert main(["export", "prometheus", "--slo", str(SLOTH), "--period", "7d", "--policy",
                 "workbook", str(out)]) == 0
    assert _alert_tiers(out) == [("page_1h", 14.4, "14m", "1m"), ("page_6h", 6.0, "1h24m", "7m"),
                                 ("ticket_1d", 3.0, "5h36m", "28m"),
                                 ("ticket_3d", 1.0, "16h48m", "1h24m")]
    # --period 30d, the longer period named: the file's own 30 d tiers (10 % in 3 d is burn 1)
    assert main(["export", "prometheus", "--slo", str(SLOTH), "--period", "30d",
                 str(tmp_path / "s.yaml")]) == 0
    assert [b for _, b, *_ in _alert_tiers(tmp_path / "s.yaml")] == [14.4, 6.0, 3.0, 1.0]


def test_backtest_at_7d_refuses_before_the_server(tmp_path, capsys):
    # nothing listens on port 9 of the loopback: the refusal comes before any request
    assert main(["backtest", "--prometheus", "http://127.0.0.1:9", "--slo", str(SLOTH),
                 "--start", "2026-01-05", "--end", "2026-01-07", "--period", "7d"]) == 2
    assert capsys.readouterr().err == "budgetlab: error: " + SEVEN_DAYS


def test_api_names_keywords():
    with pytest.raises(ConfigError) as info:
        redate_policy(AlertPolicy.sloth("30D"), "7D")
    said = str(info.value)
    assert said.startswith("period='7d' would put tier ticket_quick at burn 0.7 and tier "
                           "ticket_slow at burn 0.233 ")
    assert said.endswith("give a policy made for 7 d (e.g. AlertPolicy.workbook('7d')) or "
                         "period='30d' or longer.")


def test_burn_1_is_an_alert_and_sloth_s_own_28d_table_is_kept():
    # a tier fires above its burn, strictly: burn 1 fires only above the period's pace.
    # Sloth's 28 d tiers at 30 d: 10 % in 3 d is 0.1 x 30 / 3 = 1 exactly
    assert [t.burn for t in redate_policy(AlertPolicy.sloth("28D"), "30D").tiers] == \
        [14.4, 6.0, 3.0, 1.0]
    # at 28 d, 10 % in 3 d is 0.1 x 28 / 3 = 0.933: Sloth's own google-28d.yaml, kept as Sloth does
    assert redate_policy(AlertPolicy.sloth("30D"), "28D").tiers[3].burn == \
        pytest.approx(0.1 * 28 / 3, abs=1e-9)
    # the same tier alone is not Sloth's table: refused; 3 d / 10 % = 30 d is long enough
    alone = AlertPolicy.from_budget_fractions([(0.1, "3D")], period="30D")
    with pytest.raises(ConfigError, match=r"tier ticket_3d at burn 0\.933 .* period='30d' or "):
        redate_policy(alone, "28D")


def _two_periods(path: Path) -> Path:
    """An SLO of 30 d with a policy at its period (2 % in 1 h: 14.4) and one annotated
    ``budgetlab/period: 28d`` (2.8 over 1 d: 10 % of 28 d)."""
    fast = AlertPolicy.from_budget_fractions([(0.02, "1h")], period="30D", name="fast")
    own = AlertPolicy((AlertTier("slow28", "ticket", "1D", "2h", 2.8),), period="28D", name="own")
    doc = SLODocument("api", SLO(0.99, "30D"), alert_policies=(fast, own),
                      indicator=ratio_indicator("req_total", "err_total"))
    write_openslo([doc], path)
    return path


def test_backtest_re_dates_each_policy_from_its_own_period(tmp_path):
    # at 60 d: the SLO's policy keeps 2 % in 1 h, 0.02 x 60 x 24 = 28.8; the policy with its
    # own 28 d period is kept as written (2.8), as export does. Merged under the SLO's 30 d and
    # re-dated from there it read 2.8 x 60 / 30 = 5.6 (and 2.8 over 1 d "9.333 % of the budget")
    (spec,) = read_slo_spec(_two_periods(tmp_path / "slo.yaml"))
    moved = at_period(spec, "60D")
    assert [(t.name, t.burn) for t in moved.policy.tiers] == [("page_1h", 28.8), ("slow28", 2.8)]
    assert moved.policy.period.days == 60  # the budget backtest scores against: the SLO's
    assert [n for n in moved.notes if n.startswith("the alerts at")] == [
        "the alerts at 60 d: the file's tiers, each keeping its share of the budget (burn = "
        "share x period / long window, as Sloth's own 28 d and 30 d windows do): page_1h 28.8 "
        "over 1h/5m (2 % of the budget)"]
    # --policy replaces the spec's policies: none re-dated, none said
    assert at_period(spec, "7D", own_policy=False).policy is None


def test_export_and_backtest_agree_on_a_policy_with_its_own_period(tmp_path, capsys):
    spec = _two_periods(tmp_path / "slo.yaml")
    out = tmp_path / "r.yaml"
    assert main(["export", "prometheus", "--slo", str(spec), "--period", "60d", str(out)]) == 0
    assert [(n, b) for n, b, *_ in _alert_tiers(out)] == [("page_1h", 28.8), ("slow28", 2.8)]


PYRRA_1W = Path(__file__).parents[1] / "fixtures" / "pyrra" / "pyrra-filesystem-errors.yaml"


def test_a_pyrra_objective_re_dated_follows_pyrras_rule(tmp_path):
    # Pyrra's Windows() (pyrra-dev/pyrra slo/rules.go): factors 14, 7, 2, 1 at any window, each
    # window window / n rounded to the minute. Its 30 d table, as published in Pyrra's window-
    # scaling check: 1h4m/5m, 6h26m/32m, 1d1h43m/2h9m, 4d6h51m/6h26m; by hand 2,592,000 s / 672
    # = 3857 s -> 64 min, / 8064 = 321 s -> 5 min, / 112 -> 386 min, / 1344 -> 32 min, / 28 ->
    # 1543 min, / 336 -> 129 min, / 7 -> 6171 min, / 112 -> 386 min. Re-dated from its 1 w by
    # budget fractions it kept the 15m/1m windows of 1 w and read burns 14 x 30 / 7 = 60, 30, ...
    (spec,) = read_slo_spec(PYRRA_1W)
    assert spec.slo.period.days == 7
    moved = at_period(spec, "30D")
    assert [(t.name, t.burn, *(int(w / pd.Timedelta("1min")) for w in t.windows))
            for t in moved.policy.tiers] == [
        ("critical_1h4m", 14.0, 64, 5), ("critical_6h26m", 7.0, 386, 32),
        ("warning_1d1h43m", 2.0, 1543, 129), ("warning_4d6h51m", 1.0, 6171, 386)]
    # the note says which rule made them: 14 over 64 min of a 43,200 min budget is 2.074 %
    (note,) = [n for n in moved.notes if n.startswith("the alerts at")]
    assert note.startswith("the alerts at 30 d: Pyrra's tiers as Pyrra builds them for this "
                           "window (factors 14, 7, 2, 1 kept, each window the 28 d one x period "
                           "/ 28 d, rounded to the minute): critical_1h4m 14 over 1h4m/5m "
                           "(2.074 % of the budget)")
    # export writes the same tiers: Pyrra's own 28 d table at 28 d (1h/5m, 6h/30m, 1d/2h, 4d/6h)
    out = tmp_path / "r.yaml"
    assert main(["export", "prometheus", "--slo", str(PYRRA_1W), "--period", "28d",
                 str(out)]) == 0
    assert [b for _, b, *_ in _alert_tiers(out)] == [14.0, 7.0, 2.0, 1.0]
    assert [(long_, short) for *_, long_, short in _alert_tiers(out)] == [
        ("1h", "5m"), ("6h", "30m"), ("1d", "2h"), ("4d", "6h")]
