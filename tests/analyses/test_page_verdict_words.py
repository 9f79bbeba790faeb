"""page_verdict's burn and its interval in words: three significant digits, a whole number never
rounded into zeros, thousands separated, never an exponent, no trailing zeros."""

from __future__ import annotations

from budgetlab import page_verdict


def test_a_burn_interval_reaching_1000_is_written_out():
    # 1 failure in 1 event at 99.9 %: burn 1 / 0.001 = 1000. Wilson (z = 1.96) for 0 successes of
    # 1: [0, z^2 / (1 + z^2)] = [0, 0.79345]; the burn's interval is (1 - 0.79345) / 0.001 = 206.5
    # .. (1 - 0) / 0.001 = 1000 (it read "207 – 1e+03", and the burn "1000.00")
    v = page_verdict(1, 1, target=0.999, threshold=14.4)
    assert v.sentence == ("The page was justified: 1 failure in 1 event: burn 1,000 (95 % "
                          "interval 207 – 1,000) against the threshold 14.4.")
    # the same window under a page threshold of 500: straddled, withheld
    w = page_verdict(1, 1, target=0.999, threshold=500.0)
    assert w.withheld == ("the burn interval 207 – 1,000 straddles the threshold 500: too few "
                          "events (1) to tell")


def test_a_small_burn_is_not_rounded_to_zero():
    # 1 failure in 100,000 events at 95 %: burn 1 / (100,000 x 0.05) = 0.0002 (it read "burn
    # 0.00"). Wilson (z = 1.959964) for the failure ratio p = 0.00001, n = 100,000: centre
    # (p + z^2 / 2n) / (1 + z^2 / n) = 2.9207e-5, half-width z sqrt(p(1-p)/n + z^2/4n^2) /
    # (1 + z^2 / n) = 2.7441e-5: 1.765e-6 .. 5.665e-5, a burn of 3.53e-5 .. 0.001133 (x 20),
    # three significant digits: 0.0000353 .. 0.00113
    v = page_verdict(1, 100_000, target=0.95, threshold=14.4)
    assert v.sentence == ("The page was not justified: 1 failure in 100,000 events: burn 0.0002 "
                          "(95 % interval 0.0000353 – 0.00113) against the threshold 14.4.")


def test_the_interval_ends_share_one_precision():
    # the night incident's page (docs/verdicts.md): 602 failures in 11,878 events at 95 %, burn
    # 602 / (11,878 x 0.05) = 1.0136. Wilson (z = 1.959964) for p = 0.0506819, n = 11,878:
    # centre 0.0508272, half-width 0.0039467: 0.0468805 .. 0.0547739, a burn of 0.93761 ..
    # 1.09548 (x 20): both ends to three significant digits, the zero kept (it read "0.938 –
    # 1.1", one end to three digits, the other to two)
    v = page_verdict(602, 11_878, target=0.95, threshold=0.9)
    assert v.sentence == ("The page was justified: 602 failures in 11,878 events: burn 1.01 "
                          "(95 % interval 0.938 – 1.10) against the threshold 0.9.")
