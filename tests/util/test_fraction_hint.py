"""A target written as a percentage (``95``) is refused with the fraction to give (``0.95``), in
the API's words and in the command's (expected texts written by hand)."""

import pandas as pd
import pytest

from budgetlab import SLO
from budgetlab.cli import main
from budgetlab.errors import ConfigError


@pytest.mark.parametrize(("value", "hint"), [(95, "target=0.95"), (99.9, "target=0.999"),
                                             (97.5, "target=0.975")])
def test_a_percentage_target_names_the_fraction(value, hint):
    with pytest.raises(ConfigError) as exc:
        SLO(target=value)
    assert str(exc.value) == (f"target={value} must lie in (0, 1); if {value} is a percentage, "
                              f"use a fraction: {hint}.")


@pytest.mark.parametrize("value", [1, 100, 101, 1.5e3, -95, float("nan")])
def test_no_fraction_hint_where_no_percentage_gives_an_allowed_target(value):
    # 1: 1 % or 100 %?; 100: 1.0 is not a target; 101, 1500, -95: no percentage at all
    with pytest.raises(ConfigError) as exc:
        SLO(target=value)
    assert "use a fraction" not in str(exc.value)


def test_a_closed_end_allows_the_hint_at_100():
    with pytest.raises(ConfigError) as exc:
        SLO(target=0.95, warning=100)
    assert str(exc.value) == ("warning=100 must lie in [0, 1]; if 100 is a percentage, use a "
                              "fraction: warning=1.0.")


def test_the_command_names_the_fraction_with_its_flag(tmp_path, capsys):
    log = tmp_path / "log.csv"
    log.write_text("ts,outcome\n2026-01-05T00:00:00Z,success\n2026-01-05T00:01:00Z,timeout\n")
    assert main(["replay", str(log), "--target", "95"]) == 2
    err = capsys.readouterr().err
    # the value as typed (it echoed the parsed 95.0)
    assert ("--target 95 must lie in (0, 1); if 95 is a percentage, use a fraction: --target "
            "0.95.") in err


def test_the_other_target_checks_of_the_api_give_the_hint_too():
    # burn_rates(target=...) and target_table(target=...) check their target with the same check
    from budgetlab import read_events
    from budgetlab.analyses.history import target_table
    from budgetlab.budget.burn import burn_rates
    from budgetlab.windows.binning import bin_events

    want = "target=95 must lie in (0, 1); if 95 is a percentage, use a fraction: target=0.95."
    with pytest.raises(ConfigError) as exc:
        target_table(pd.DataFrame({"region": ["fra"]}), by="region", target=95)
    assert str(exc.value) == want
    with pytest.raises(ConfigError) as exc:
        burn_rates(bin_events(read_events(pd.DataFrame({
            "ts": ["2026-01-05T00:00:00Z"], "outcome": ["success"]}))), 95)
    assert str(exc.value) == want
