"""``choose_policy`` takes :func:`policy_summary`'s table (a row per policy, named by its
index); given :func:`budgetlab.compare_policies`' scores themselves (a row per policy and tier)
it raised ``KeyError: '0'``. Since stop 58 it refuses them with a ConfigError naming
``policy_summary``, as ``verdicts_table`` names what to pass.

Oracle: the scores table's shape as compare_policies documents it (its ``policy`` and ``tier``
columns); the sentence written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.analyses.choices import choose_policy, policy_summary
from budgetlab.errors import ConfigError


@pytest.fixture(scope="module")
def scores():
    ts = pd.date_range("2026-01-01", periods=3 * 1440, freq="1min", tz="UTC")
    ok = [not (600 <= i < 660 or 2000 <= i < 2060) for i in range(len(ts))]
    bins = bl.bin_events(bl.as_events(ts, ok), "1min")
    inc = pd.DataFrame({"incident_id": ["A", "B"],
                        "start": ts[[600, 2000]], "end": ts[[660, 2060]]})
    return bl.compare_policies(bins, 0.99, {"short": bl.AlertPolicy.single_window("5min"),
                                            "long": bl.AlertPolicy.single_window("1h")},
                               incidents=inc)


def test_the_scores_themselves_are_refused_naming_policy_summary(scores):
    with pytest.raises(ConfigError, match=r"pass policy_summary\(scores\)"):
        choose_policy(scores)


def test_the_summary_of_the_same_scores_is_judged(scores):
    verdict = choose_policy(policy_summary(scores))
    assert verdict.subject in {"short", "long"}
