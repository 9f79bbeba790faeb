"""page_verdict's interval in words: three digits, thousands separated, never an exponent."""

from __future__ import annotations

from budgetlab import page_verdict


def test_a_burn_interval_reaching_1000_is_written_out():
    # 1 failure in 1 event at 99.9 %: burn 1 / 0.001 = 1000. Wilson (z = 1.96) for 0 successes of
    # 1: [0, z^2 / (1 + z^2)] = [0, 0.79345]; the burn's interval is (1 - 0.79345) / 0.001 = 206.5
    # .. (1 - 0) / 0.001 = 1000 (it read "207 – 1e+03")
    v = page_verdict(1, 1, target=0.999, threshold=14.4)
    assert v.sentence == ("The page was justified: 1 failure in 1 event: burn 1000.00 (95 % "
                          "interval 207 – 1,000) against the threshold 14.4.")
    # the same window under a page threshold of 500: straddled, withheld
    w = page_verdict(1, 1, target=0.999, threshold=500.0)
    assert w.withheld == ("the burn interval 207 – 1,000 straddles the threshold 500: too few "
                          "events (1) to tell")
