"""Without a recommendation on all of the history, the incidents pulled nothing down (stop 58).

Notebook 01 read "turnstile : the labelled incidents pull the recommendation down (n/a on all of
the history, 97.6 % outside them)": a figure that does not exist, printed as "n/a" in a sentence,
and a claim (pulled down) with nothing to pull.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.analyses.choices import suggest_targets
from budgetlab.analyses.recalibration import Recalibration

EMPTY = pd.DataFrame()


def _rec(recommended: float) -> Recalibration:
    """One group by hand: 10,000 events, 100 failures (93 % allows 700), EXHAUSTED 5 % of the
    time under 93 %, the limit 5 %: all of the history affords 93 %."""
    summary = pd.DataFrame({"g": ["t"], "events": 10_000, "failures": 100,
                            "recommended_target": [recommended],
                            "recommendation_note": ["no candidate qualifies"]})
    cand = pd.DataFrame({"g": ["t"], "target": [0.93], "share_exhausted": [0.05]})
    return Recalibration(summary=summary, candidates=cand, distribution=EMPTY, bootstrap=EMPTY,
                         settings={"by": ["g"], "max_share": 0.05, "limit_status": "exhausted"})


def test_no_recommendation_on_the_whole_history_is_said_in_words():
    s = suggest_targets(_rec(np.nan), _rec(0.93)).iloc[0]
    assert s["suggested_target"] == 0.93
    reason = s["reason"]
    assert "n/a" not in reason and "pull" not in reason
    assert reason.startswith("no target meets the rule on all of the history; outside the "
                             "labelled incidents 93 % does, and all of the history affords 93 %")
