"""PerGroup.resolve names every group without an SLO in one error, the noun and pronoun in the
number of groups (it wrote "the group(s) ams; add them"). Expected texts written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import PerGroup
from budgetlab._util.words import cli_words
from budgetlab.errors import ConfigError


def _refusal(regions: list[str], *, cli: bool = False) -> str:
    slos = PerGroup({"fra": 0.9})
    keys = pd.DataFrame({"region": regions})
    with pytest.raises(ConfigError) as info:
        if cli:
            with cli_words():
                slos.resolve(keys)
        else:
            slos.resolve(keys)
    return str(info.value)


def test_one_group_without_an_slo():
    assert _refusal(["fra", "ams"]) == ("no SLO for the group ams; add it to the per-group SLOs or "
                                        "give PerGroup(..., default=SLO(...)).")
    assert _refusal(["fra", "ams"], cli=True) == ("no SLO for the group ams; add it to the "
                                                  "per-group SLOs or give it its GROUP=TARGET in "
                                                  "--target.")


def test_several_groups_without_an_slo():
    assert _refusal(["ams", "fra", "par"]) == ("no SLO for the groups ams, par; add them to the "
                                               "per-group SLOs or give "
                                               "PerGroup(..., default=SLO(...)).")
    assert _refusal(["ams", "par"], cli=True) == ("no SLO for the groups ams, par; add them to the "
                                                  "per-group SLOs or give each its GROUP=TARGET in "
                                                  "--target.")
    many = [f"g{i:02d}" for i in range(12)]
    assert _refusal(many).startswith("no SLO for the groups g00, g01, g02, g03, g04, g05, g06, "
                                     "g07, g08, g09 and 2 more; add them to ")
