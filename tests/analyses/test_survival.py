"""Kaplan–Meier and Brookmeyer–Crowley quantiles: hand-computed cases and a slow loop oracle."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetlab.analyses.survival import kaplan_meier, km_quantile


def loop_km(d, e):
    """The textbook product-limit loop: at each distinct event time t, n = #(d >= t) at risk."""
    out = []
    s, g = 1.0, 0.0
    for t in sorted(set(x for x, ev in zip(d, e, strict=True) if ev)):
        n = sum(1 for x in d if x >= t)
        k = sum(1 for x, ev in zip(d, e, strict=True) if ev and x == t)
        s *= 1 - k / n
        g += k / (n * (n - k)) if n > k else 0.0
        out.append((t, n, k, s, s * s * g if s > 0 else 0.0))
    return out


def test_hand_computed_curve_and_greenwood():
    # t=1: 5 at risk, 1 event, S = 4/5; t=2: 4 at risk (the censored 2 still at risk), S = .8 * 3/4
    # = .6;
    # t=3: 2 at risk, S = .6 * 1/2 = .3. Greenwood: .3**2 * (1/(5*4) + 1/(4*3) + 1/(2*1)) = .057
    km = kaplan_meier([1, 2, 2, 3, 4], [True, True, False, True, False])
    assert km.times.tolist() == [1.0, 2.0, 3.0]
    assert km.at_risk.tolist() == [5, 4, 2]
    assert km.events.tolist() == [1, 1, 1]
    assert km.survival == pytest.approx([0.8, 0.6, 0.3])
    assert km.variance[-1] == pytest.approx(0.09 * (1 / 20 + 1 / 12 + 1 / 2))
    assert km.last == 4.0


def test_uncensored_curve_is_the_empirical_one_and_greenwood_is_binomial():
    d = np.arange(1.0, 11.0)
    km = kaplan_meier(d, np.ones(10, dtype=bool))
    assert km.survival == pytest.approx(1 - np.arange(1, 11) / 10)
    s = km.survival
    assert km.variance == pytest.approx(s * (1 - s) / 10)


def test_censored_quantile_by_hand():
    # times 1..10; 6 and 8 censored. S: .9 .8 .7 .6 .5 (t=5); then t=7: 4 at risk -> .5*3/4 = .375
    # median: first t with F >= .5 is 5. p90 never reached (S(10) = .375 * 0/1... t=9: 2 at risk ->
    # .1875,
    # t=10: 1 at risk -> 0): F(10) = 1 -> p90 = 10
    e = np.ones(10, dtype=bool)
    e[[5, 7]] = False
    km = kaplan_meier(np.arange(1.0, 11.0), e)
    assert km.survival == pytest.approx([0.9, 0.8, 0.7, 0.6, 0.5, 0.375, 0.1875, 0.0])
    assert km_quantile(km, 0.5)[0] == 5.0
    assert km_quantile(km, 0.9)[0] == 10.0


def test_quantile_above_the_censoring_point_is_none():
    # 4 successes at 1..4 s, 6 timeouts at 30 s: F tops out at .4, so the median is "> 30 s"
    d = [1, 2, 3, 4] + [30] * 6
    km = kaplan_meier(d, [True] * 4 + [False] * 6)
    value, low, high = km_quantile(km, 0.5)
    assert value is None and high is None
    # the upper pointwise bound at t=4: .4 + 1.96 * sqrt(.4 * .6 / 10) = .704 >= .5; at t=3: .3 +
    # .284 = .584
    # >= .5; at t=2: .2 + 1.96 * sqrt(.2 * .8 / 10) = .448 < .5: low = 3
    assert low == 3.0


def test_brookmeyer_crowley_interval_by_hand():
    # uncensored 1..10, q = .5: se(t) = sqrt(F(1-F)/10); low = first t with F + 1.96 se >= .5 (t=3:
    # .3 + .284),
    # high = first t with F - 1.96 se >= .5 (t=8: .8 - .248)
    km = kaplan_meier(np.arange(1.0, 11.0), np.ones(10, dtype=bool))
    assert km_quantile(km, 0.5) == (5.0, 3.0, 8.0)
    z = 1.959963984540054
    assert 0.3 + z * math.sqrt(0.21 / 10) >= 0.5 > 0.2 + z * math.sqrt(0.16 / 10)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.booleans()), min_size=1, max_size=40))
def test_matches_the_loop(rows):
    d = [float(x) for x, _ in rows]
    e = [ev for _, ev in rows]
    km = kaplan_meier(d, e)
    want = loop_km(d, e)
    assert km.times.tolist() == [w[0] for w in want]
    assert km.at_risk.tolist() == [w[1] for w in want]
    assert km.events.tolist() == [w[2] for w in want]
    assert km.survival == pytest.approx([w[3] for w in want], abs=1e-12)
    assert km.variance == pytest.approx([w[4] for w in want], abs=1e-12)


def test_empty_input():
    km = kaplan_meier([], [])
    assert len(km.times) == 0
    assert km_quantile(km, 0.5) == (None, None, None)
