"""A per-group ``--target`` that names no group of the log (stop 59): the refusal of the groups
left without an SLO also names the target's groups that none of them is (a misspelt group
applied to nothing said nothing), in every command that takes per-group targets; a name beside
targets for every group stays a warning, stated in the SLO line. Hand-written messages."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.errors import ConfigError


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"], "g": ["a", "b"],
                  "outcome": ["success", "timeout"]}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("command", [
    ["replay"], ["recalibrate"], ["compare-windows"], ["buckets"],
    ["incident", "--start", "2026-01-01T00:00:00Z", "--end", "2026-01-01T00:01:00Z"],
])
def test_a_target_for_no_group_of_the_log_is_named_in_the_refusal(command, log, capsys):
    assert main([command[0], str(log), *command[1:], "--by", "g", "--target", "x=0.9"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "budgetlab: error: no SLO for the groups a, b (--target names x, none of them); add them "
        "to the per-group SLOs or give each its GROUP=TARGET in --target.")



def test_a_file_binding_names_them_in_its_words(tmp_path):
    """SLOs bound from an OpenSLO file's labels (a binding, in API words): the label value that
    is no group of the events is named too."""
    from budgetlab.interop.openslo import load_slos

    path = tmp_path / "slos.yaml"
    path.write_text("apiVersion: openslo/v1\nkind: SLO\nmetadata: {name: x-avail, labels: "
                    "{g: x}}\nspec: {service: web, indicatorRef: ok, budgetingMethod: "
                    "Occurrences,\n  timeWindow: [{duration: 1d, isRolling: true}], objectives: "
                    "[{target: 0.9}]}\n")
    with pytest.raises(ConfigError) as err:
        load_slos(path, by="g").resolve(pd.DataFrame({"g": ["a", "b"]}))
    assert str(err.value) == ("no SLO for the groups a, b (the per-group SLOs name x, none of "
                              "them); add them to the per-group SLOs or give PerGroup(..., "
                              "default=SLO(...)).")
