"""The incident summary withholds its burn over the incident by the rule that withholds its share
of the error budget: when the incident's events hold fewer than 10 expected failures under the
target (``too_few_events``, the buckets' rule), both are withheld in one clause with that reason.
It printed the burn on any evidence ("1 failure in 229 events (burn 4.37 over the incident)").
Every figure is worked out by hand in the comments."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def report(step_s: int, failing: range, target: float):
    """Events every ``step_s`` seconds over 00:00 .. 02:00, those of index ``failing`` failed; the
    incident is 01:00 .. 02:00, a 1 h tracker and one 1 h tier out of reach (burn 50)."""
    n = 7200 // step_s
    ev = as_events([T0 + pd.Timedelta(seconds=i * step_s) for i in range(n)],
                   [i not in failing for i in range(n)])
    return incident_report(ev, SLO(target=target, window="1h"), T0 + pd.Timedelta(hours=1),
                           T0 + pd.Timedelta(hours=2), context="0s",
                           policy=AlertPolicy.single_window("1h", 50.0))


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_burn_is_withheld_with_the_share_under_10_expected_failures_only():
    # an event a minute; the incident holds the 60 of 01:00 .. 01:59, those of 01:10 .. 01:17 (8)
    # failed; under 90 % its 60 events hold 60 x 0.1 = 6 expected failures, under 10, and 8 of
    # them decide nothing (P(X >= 8 | 60, 0.1) = 0.25): the burn (8 / 6 = 1.33) and the share
    # are withheld, once, with that reason
    said = flat(report(60, range(70, 78), 0.9).summary)
    assert ("Over its 1 h the incident saw 8 failures in 60 events; its burn over the incident "
            "and its share of a 30 d error budget are withheld (the incident's 60 events hold 6 "
            "expected failures under the target: too few for a verdict, one needs at least 10)."
            ) in said
    assert "burn 1.33 over the incident" not in said  # the old words
    # 30 of them failed (01:10 .. 01:39): P(X >= 30 | 60, 0.1) ~ 6e-15, at most 0.1 %: the
    # failures decide a miss, so the burn 30 / 6 = 5 is said, with why
    said = flat(report(60, range(70, 100), 0.9).summary)
    assert "Over its 1 h the incident saw 30 failures in 60 events (burn 5 over the incident)" \
        in said
    assert ("too few for a verdict, but the failures decide it: missed: 30 of 60 events failed "
            "(50.00 %); even with 60 events, a service at 90 % would fail this often with "
            "probability < 0.1 %") in said
    # an event every 36 s: the incident holds 100 events (01:00 .. 01:59:24), under 90 % 10
    # expected failures, the rule's least; 25 of them failed (indices 100 .. 124): burn 25 / 10 =
    # 2.5, said; the share is withheld only for the replayed span's 2 h of traffic (under a day)
    said = flat(report(36, range(100, 125), 0.9).summary)
    assert "Over its 1 h the incident saw 25 failures in 100 events (burn 2.5 over the incident)" \
        in said
    assert "its burn over the incident and" not in said
    assert "its share of a 30 d error budget is withheld, too thin to go by" in said
