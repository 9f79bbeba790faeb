"""The "ok" verdict's reason says the window's burn as the bound it is: 9 hours in 10 the window
burns *at most* the burn at the rolling rate's 10th percentile (the burn's 90th percentile),
never that it "still burns" that much 9 hours in 10 (stop 58: turnstile's "9 hours in 10 the 24 h
window still burns 0.686 of its budget" was its burn's p90, exceeded 1 hour in 10 only).

Oracle: the rule of docs/recalibrate.md, (1 - p10) / (1 - target), by hand beside each case."""

from __future__ import annotations

import pytest

from budgetlab.analyses.recalibration.verdict import verdict


@pytest.mark.parametrize(("current", "p10", "lo", "hi", "burn"), [
    # 0.97 with the rolling rate's p10 at 0.9794: (1 - 0.9794) / 0.03 = 0.686..., three digits
    (0.97, 0.9794, 0.975, 0.978, "0.687"),
    # 0.9 with p10 0.93: (1 - 0.93) / 0.1 = 0.7, above loose_burn 0.25: not too loose
    (0.9, 0.93, 0.93, 0.935, "0.7"),
])
def test_ok_reason_says_the_burn_as_an_upper_bound(current, p10, lo, hi, burn) -> None:
    word, reason, action = verdict(current, 0.0, p10, lo, lo, hi, max_share=0.01,
                                   limit_status="critical", loose_burn=0.25, window="24 h window")
    assert (word, action) == ("ok", f"keep {current}")
    assert reason.endswith(f"but 9 hours in 10 the 24 h window burns at most {burn} of its "
                           f"budget (limit: loose_burn 0.25): keep {current}")
    assert "still burns" not in reason
