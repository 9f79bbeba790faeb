"""A recommendation the evidence capped is named as the evidence's ceiling, never as the rule's
target: the rule alone gives more (the note says how much), so "the rule's target 0.996" beside
"the rule alone gives 0.9999" named one of the two wrongly. Figures worked out by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd

import budgetlab as bl


def test_a_capped_recommendation_is_the_evidences_ceiling():
    # 3 days at one attempt a minute, none failed; after the 24 h warm-up 2 x 1,440 = 2,880
    # events are evaluated. No target is ever exhausted, so the rule alone takes the top of the
    # range, 0.9999. 10 expected failures need 1 - 10 / 2,880 = 0.99653 or below: the grid's
    # 0.001 steps between 0.995 and 0.999 stop at 0.996, the evidence's ceiling
    ts = pd.date_range("2026-01-01", periods=3 * 1440, freq="60s", tz="UTC")
    r = bl.recalibrate(bl.as_events(ts, np.ones(len(ts), dtype=bool)), target=0.99,
                       window="24h", n_boot=0)
    row = r.summary.iloc[0]
    assert (row["events"], row["recommended_target"], row["recommended_capped"]) == (
        2880, 0.996, True)
    assert row["recommendation_note"].startswith(
        "the rule alone gives 0.9999, but above 0.99653 the 2,880 events of the evaluated span "
        "hold fewer than 10 expected failures: it stops at 0.996")
    assert row["verdict_reason"].endswith(
        "the evidence's ceiling 0.996 (no bootstrap, n_boot=0: the verdict rests on this point) "
        "lies above 0.99: tighten to 0.996")
    assert "the rule's target" not in row["verdict_reason"]
    line = repr(r).splitlines()[1]
    assert line.startswith("  all events: tighten to 0.996 (capped: as high as 2,880 events can "
                           "judge) (the evidence's ceiling 0.996, no bootstrap, n_boot=0); the "
                           "rule alone gives 0.9999")
