"""A group's withheld quantiles are said in one note (stop 58): ``withheld_note`` names them
together, each with the attempts even successes alone would need, and the quantile table states
where each curve ends (``longest``). Every figure by hand."""

from __future__ import annotations

import math

import pandas as pd

from budgetlab.analyses.latency_profile import latency_profile, withheld_note
from tests.latency_rows import events

Z = 1.959963984540054  # the 97.5 % normal quantile


def test_28_successes_withhold_p90_and_p99_in_one_note():
    """28 successes at 0.1 .. 2.8 s, no timeout row: the curve ends at 2.8 s, the longest. The
    median is bounded (1.4 s, 1 s .. 1.9 s: tests/analyses/test_latency_quantile_withheld.py);
    at 2.7 s the lower limit is 27/28 - 1.96 * .0351 = .896 < .9, and 2.8 s ends the curve, so
    p90 and p99 are withheld. Successes alone need 30 attempts for p90 and 296 for p99 (the
    smallest n with 1 - 1/n - z sqrt((n - 1) / n^3) >= q)."""
    def lower(n):
        return 1 - 1 / n - Z * math.sqrt((n - 1) / n**3)

    assert lower(30) >= 0.9 > lower(29) and lower(296) >= 0.99 > lower(295)
    assert 27 / 28 - Z * math.sqrt(27 / 28 * 1 / 28 / 28) < 0.9
    p = latency_profile(events([("s", "success", k / 10) for k in range(1, 29)]),
                        thresholds=["1s"], freq=None, quantiles=[0.5, 0.9, 0.99])
    assert p.quantiles["longest"].tolist() == [pd.Timedelta("2.8s")] * 3
    assert withheld_note(p.quantiles) == (
        "p90, p99 withheld: 28 attempts cannot bound them from above (the lower 95 % limit of "
        "the curve never reaches 90 % or 99 % before it ends at the longest duration, 2.8 s: no "
        "timeout in force in this group (no 'timeout' row that no success outlasts); "
        "Brookmeyer-Crowley); even successes alone need at least 30 attempts for p90, 296 for "
        "p99")


def test_one_withheld_quantile_reads_as_its_row_note_and_none_as_nothing():
    """One 210 ms success, p99 only: the note of its row; sitekey b (0.3 s and 0.9 s successes,
    a 5 s timeout that the curve reaches): nothing withheld, no note."""
    p = latency_profile(events([("a", "success", 0.21), ("b", "success", 0.3),
                                ("b", "success", 0.9), ("b", "timeout", 5.0)]),
                        thresholds=["250ms"], by="g", freq=None, quantiles=[0.99])
    q = p.quantiles.set_index("g")
    assert q.loc["a", "longest"] == pd.Timedelta("210ms")
    assert q.loc["b", "longest"] == pd.Timedelta("5s")  # the timeout row, at the timeout
    a = p.quantiles[p.quantiles["g"] == "a"]
    assert withheld_note(a) == (
        "p99 withheld: 1 attempt cannot bound it from above (the lower 95 % limit of the curve "
        "never reaches 99 % before it ends at the longest duration, 210 ms: no timeout in force "
        "in this group (no 'timeout' row that no success outlasts); Brookmeyer-Crowley); even "
        "successes alone need at least 296 attempts")
    assert withheld_note(p.quantiles[p.quantiles["g"] == "b"]) == ""
