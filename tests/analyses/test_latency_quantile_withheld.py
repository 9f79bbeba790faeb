"""A quantile the sample cannot bound is withheld (stop 57): Brookmeyer–Crowley's upper limit is
undefined when the lower pointwise limit of ``F`` never reaches ``q``, and where the curve
reaches 0 Greenwood gives no interval, so the largest success never bounds a quantile from above
(one attempt printed "p99 0.21 s (95 % interval 0.21 s .. 0.21 s)"). Every figure by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from budgetlab.analyses.latency_profile import latency_profile
from budgetlab.analyses.survival import kaplan_meier, km_quantile
from tests.latency_rows import events

Z = 1.959963984540054  # the 97.5 % normal quantile


def test_one_success_bounds_no_quantile_from_above():
    assert km_quantile(kaplan_meier([0.21], [True]), 0.99) == (0.21, 0.21, None)


def test_the_largest_success_is_no_upper_end_by_hand():
    """Uncensored 1 .. 10, q = .9: F = k / 10, se = sqrt(F (1 - F) / 10). Value 9. Lower end: the
    first t with F + z se >= .9: t = 6 (.6 + 1.96 * .1549 = .9036; t = 5: .5 + .310 = .810).
    Upper end: at 9, .9 - 1.96 * .0949 = .714 < .9; at 10 the curve reaches 0, no interval:
    none (it read 10, the largest success)."""
    assert 0.6 + Z * math.sqrt(0.24 / 10) >= 0.9 > 0.5 + Z * math.sqrt(0.25 / 10)
    assert 0.9 - Z * math.sqrt(0.09 / 10) < 0.9
    km = kaplan_meier(np.arange(1.0, 11.0), np.ones(10, dtype=bool))
    assert km_quantile(km, 0.9) == (9.0, 6.0, None)


def test_attempts_to_bound_by_hand():
    """The smallest n of successes alone with 1 - 1/n - z sqrt((n - 1) / n^3) >= q."""
    from budgetlab.analyses.survival import attempts_to_bound  # new in stop 57

    def lower(n):
        return 1 - 1 / n - Z * math.sqrt((n - 1) / n**3)

    assert lower(6) >= 0.5 > lower(5)  # .535 and .449
    assert lower(30) >= 0.9 > lower(29)  # .9024 and .8991
    assert lower(296) >= 0.99 > lower(295)
    assert (attempts_to_bound(0.5), attempts_to_bound(0.9), attempts_to_bound(0.99)) == (6, 30,
                                                                                         296)


def test_the_strangers_sitekeys():
    """Sitekey a: one 210 ms success, no timeout row: every quantile withheld, its lower end
    210 ms kept. Sitekey b: 0.3 s and 0.9 s successes, a 5 s timeout: F = 1/3, 2/3,
    se = sqrt(S^2 (1/6)) = .272 at 0.3 s and sqrt(S^2 (1/6 + 1/2)) = .272 at 0.9 s; the median
    0.9 s, its lower end 0.3 s (1/3 + .533 >= .5), its upper end above the 5 s timeout (2/3 -
    .533 < .5): bounded, nothing withheld."""
    ev = events([("a", "success", 0.21), ("b", "success", 0.3), ("b", "success", 0.9),
                 ("b", "timeout", 5.0)])
    p = latency_profile(ev, thresholds=["250ms"], by="g", freq=None, quantiles=[0.5, 0.99])
    q = p.quantiles.set_index(["g", "quantile"])
    a99 = q.loc[("a", 0.99)]
    assert pd.isna(a99["value"]) and pd.isna(a99["ci_high"])
    assert a99["ci_low"] == pd.Timedelta("210ms")
    assert not a99["above_timeout"] and not a99["ci_high_above_timeout"]
    assert a99["note"] == (
        "p99 withheld: 1 attempt cannot bound it from above (the lower 95 % limit of the curve "
        "never reaches 99 % before it ends at the longest duration, 210 ms: no timeout in force "
        "in this group (no 'timeout' row that no success outlasts); Brookmeyer-Crowley); even "
        "successes alone need at least 296 attempts")
    assert pd.isna(q.loc[("a", 0.5), "value"])
    b50 = q.loc[("b", 0.5)]
    assert (b50["value"], b50["ci_low"]) == (pd.Timedelta("0.9s"), pd.Timedelta("0.3s"))
    assert pd.isna(b50["ci_high"]) and b50["ci_high_above_timeout"] and b50["note"] == ""


def test_28_successes_bound_the_median_not_p90():
    """28 successes at 0.1 .. 2.8 s: F = k / 28. Median 1.4 s; lower end 1.0 s (10/28 + 1.96 *
    .0906 = .535; 9/28 + .173 = .494); upper end 1.9 s (19/28 - .173 = .506; 18/28 - .178 =
    .465). p90 needs 30 attempts: at 2.7 s, 27/28 - 1.96 * .0351 = .896 < .9, and 2.8 s ends the
    curve: withheld (it read 2.6 s .. 2.8 s, the largest)."""
    ev = events([("s", "success", k / 10) for k in range(1, 29)])
    p = latency_profile(ev, thresholds=["1s"], freq=None, quantiles=[0.5, 0.9])
    q = p.quantiles.set_index("quantile")
    assert [q.loc[0.5, c] for c in ("value", "ci_low", "ci_high")] == [
        pd.Timedelta("1.4s"), pd.Timedelta("1s"), pd.Timedelta("1.9s")]
    assert q.loc[0.5, "note"] == ""
    assert 27 / 28 - Z * math.sqrt(27 / 28 * 1 / 28 / 28) < 0.9
    assert pd.isna(q.loc[0.9, "value"]) and pd.isna(q.loc[0.9, "ci_high"])
    assert q.loc[0.9, "note"].endswith("even successes alone need at least 30 attempts")


@pytest.mark.parametrize("given", [[0.5, 0.5], [0.9, 0.5, 0.9]])
def test_quantiles_are_merged_and_sorted_as_thresholds(given):
    ev = events([("s", "success", k / 10) for k in range(1, 29)])
    p = latency_profile(ev, thresholds=["1s", "1s"], freq=None, quantiles=given)
    assert p.quantiles["quantile"].tolist() == sorted(set(given))
    assert p.shares["threshold"].tolist() == [pd.Timedelta("1s")]


def test_a_group_whose_timeouts_all_ended_early_is_not_said_to_have_no_timeout_row():
    """Successes of 1, 2 and 3 s and one 0.5 s timeout (a connect timeout: shorter than a
    success, so not the timeout in force): no timeout in force, the 0.5 s row read at its own
    duration. p99 of 4 attempts is withheld; its reason must not say the group has no 'timeout'
    row (it has one), but that none is in force (a stranger's pass read "no 'timeout' row in this
    group's attempts" under a header naming the group's early timeout)."""
    p = latency_profile(events([("a", "success", 1), ("a", "timeout", 0.5),
                                ("a", "success", 2), ("a", "success", 3)]),
                        thresholds=["5s"], by="g", freq=None, quantiles=[0.99])
    assert pd.isna(p.censoring["timeout"].iloc[0])
    note = p.quantiles["note"].iloc[0]
    assert note.startswith("p99 withheld: 4 attempts cannot bound it from above")
    assert "no timeout in force in this group (no 'timeout' row that no success outlasts)" in note
    assert "no 'timeout' row in this group's attempts" not in note
