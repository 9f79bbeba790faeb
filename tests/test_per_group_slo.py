"""PerGroup, the per-group form of an SLO (issue 16): how keys match groups, what is refused, and
how split_by_slo partitions rows (hand-computed expectations)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, PerGroup
from budgetlab.errors import ConfigError
from budgetlab.slo import as_per_group
from budgetlab.slo_groups import split_by_slo


def test_bare_targets_take_the_other_fields_from_base():
    slos = PerGroup({"recaptcha_v2": 0.93, "turnstile": 0.97}, base=SLO(window="1h", warning=0.4,
                                                                        min_events=5))
    got = slos.slo_for("recaptcha_v2")
    assert got == SLO(target=0.93, window="1h", warning=0.4, min_events=5)


def test_keys_match_group_values_by_text_and_tuples_for_several_keys():
    slos = PerGroup({200: 0.99, ("turnstile", "fra"): SLO(0.97)})
    assert slos.slo_for("200").target == 0.99
    assert slos.slo_for(np.int64(200)).target == 0.99
    assert slos.slo_for(("turnstile", "fra")).target == 0.97
    with pytest.raises(ConfigError, match=r"\(turnstile, ams\)"):
        slos.slo_for(("turnstile", "ams"))


def test_a_group_named_twice_is_refused():
    with pytest.raises(ConfigError, match="twice"):
        PerGroup({200: 0.99, "200": 0.9})


@pytest.mark.parametrize("bad", [{}, [("a", 0.9)], {"a": "0.9"}, {"a": True}, {"a": 1.5}])
def test_bad_mappings_are_refused(bad):
    with pytest.raises(ConfigError):
        PerGroup(bad)


def test_every_missing_group_is_named_in_one_error_unless_a_default_is_given():
    keys = pd.DataFrame({"t": ["a", "b", "c"]})
    with pytest.raises(ConfigError, match="b, c"):
        PerGroup({"a": 0.9}).resolve(keys)
    got = PerGroup({"a": 0.9}, default=SLO(0.99)).resolve(keys)
    assert [s.target for s in got] == [0.9, 0.99, 0.99]


def test_as_per_group_reads_a_mapping_and_leaves_one_slo_alone():
    assert as_per_group(SLO(0.9)) is None
    assert as_per_group(0.9) is None
    pg = as_per_group({"a": 0.9})
    assert isinstance(pg, PerGroup) and pg.slo_for("a").target == 0.9


def test_split_by_slo_groups_rows_by_distinct_slo_in_key_order():
    ev = pd.DataFrame({"t": ["c", "a", "b", "a", "c", None], "r": ["x", "x", "y", "y", "x", "x"]})
    slos = PerGroup({"a": 0.9, "b": SLO(0.99, window="1h"), "c": 0.9, "<NA>": 0.95})
    parts = split_by_slo(ev, slos, ["t"])
    # groups in key order a, b, c, <NA>; a and c share the SLO (same target, base fields)
    assert [(s.target, s.window, p.tolist()) for s, p in parts] == [
        (0.9, pd.Timedelta("24h"), [0, 1, 3, 4]),
        (0.99, pd.Timedelta("1h"), [2]),
        (0.95, pd.Timedelta("24h"), [5]),
    ]
    two = split_by_slo(ev, PerGroup({("a", "x"): 0.9}, default=0.95), ["t", "r"])
    assert [(s.target, p.tolist()) for s, p in two] == [(0.9, [1]), (0.95, [0, 2, 3, 4, 5])]


def test_split_by_slo_needs_group_keys():
    with pytest.raises(ConfigError, match="by="):
        split_by_slo(pd.DataFrame({"t": ["a"]}), PerGroup({"a": 0.9}), [])


def test_an_integer_key_column_with_missing_values_matches_the_mappings_integers():
    """pandas reads an integer column with gaps as float: its groups 1.0 and 2.0 are the
    mapping's 1 and 2, never silently the default (review of issue 16)."""
    from budgetlab import as_events, replay

    n = 60
    code = np.where(np.arange(n) % 7 == 0, np.nan, np.where(np.arange(n) % 2 == 0, 1, 2))
    ev = as_events(pd.date_range("2026-01-01", periods=n, freq="min", tz="UTC"),
                   [i % 5 != 0 for i in range(n)]).assign(code=code)
    got = replay(ev, PerGroup({1: 0.99, 2: 0.9}, default=0.5, base=SLO(window="10min")), by="code")
    ratio = (got["budget_total"] / got["total"]).groupby(got["code"].fillna(-1)).first().round(6)
    assert ratio.to_dict() == {-1.0: 0.5, 1.0: 0.01, 2.0: 0.1}


def test_bucket_breakdown_takes_a_missing_group_key():
    from budgetlab import as_events, bucket_breakdown

    n = 120
    region = np.where(np.arange(n) % 3 == 0, None, np.where(np.arange(n) % 2 == 0, "fra", "ams"))
    ok = np.arange(n) % 4 != 0
    ev = as_events(pd.date_range("2026-01-01", periods=n, freq="min", tz="UTC"), ok,
                   np.where(ok, "success", np.where(np.arange(n) % 8 == 0, "timeout",
                                                    "solve_error")),
                   groups={"region": region})
    table = bucket_breakdown(ev, SLO(0.9, window="30min"), by="region")
    # hand count: failures per region (None is a group of its own)
    fails = pd.Series(~ok).groupby(pd.Series(region).fillna("<NA>")).sum()
    got = table.groupby(table["region"].astype(object).where(table["region"].notna(),
                                                             "<NA>"))["failures"].sum()
    assert got.sort_index().to_dict() == fails.sort_index().to_dict()


@pytest.mark.parametrize("name", ["bucket_burn_over_time", "replay_calendar"])
@pytest.mark.parametrize("slos", [{"a": 0.9, "b": 0.99}, PerGroup({"a": 0.9, "b": 0.99})])
def test_functions_of_one_slo_say_so_to_per_group_slos(name, slos):
    """The two functions PerGroup's docstring names as taking one SLO refuse per-group SLOs in
    those words (they said "slo must be an SLO", as to a typo)."""
    import budgetlab as bl

    ev = bl.as_events(pd.date_range("2026-01-01", periods=4, freq="min"), [True] * 4,
                      groups={"g": ["a", "b", "a", "b"]})
    with pytest.raises(ConfigError, match=rf"^{name}\(\) takes one SLO, not per-group SLOs: call "
                                          "it on each group's events with that group's SLO.$"):
        getattr(bl, name)(ev, slos, by="g")
