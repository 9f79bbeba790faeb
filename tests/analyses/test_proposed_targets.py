"""Notebook 01's ``proposed`` with ``by=None`` (one SLO over every event) was dropped without a
word: the default ``"recaptcha_v2:0.93,turnstile:0.97"`` names groups the log does not have, and
a single target had no way in. :func:`proposed_verdicts` judges one target for the whole log and
says why a proposal per group is not judged there.

The log: one event every 5 minutes for 3 days (864), every 10th a failure (rows 0, 10, ...,
860). The 24 h window is evaluated after its first day: rows 288 .. 863, 576 events, 58 of them
failures (290, 300, ..., 860); every full window holds 288 events with 28 or 29 failures, a
success rate of at most 260 / 288 = 90.3 %, below 97 %: EXHAUSTED all of the evaluated time."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import as_events
from budgetlab.analyses.proposed_targets import proposed_verdicts
from budgetlab.errors import ConfigError

N = 864
TS = pd.Timestamp("2026-03-02", tz="UTC") + pd.to_timedelta(range(0, 5 * N, 5), unit="min")
EVENTS = as_events(TS, [i % 10 != 0 for i in range(N)])
OPTIONS = {"window": "24h", "history": "28D", "by": None, "step": 0.005, "max_share": 0.05,
           "show_progress": False}


def test_targets_per_group_are_not_judged_without_by_and_the_words_say_why():
    text = proposed_verdicts(EVENTS, "recaptcha_v2:0.93,turnstile:0.97", current=0.95, **OPTIONS)
    assert text.startswith("`proposed = 'recaptcha_v2:0.93,turnstile:0.97'` names groups")
    assert "with `by = None` there is one SLO over every event" in text
    assert "not judged" in text and "`proposed = 0.97`" in text


@pytest.mark.parametrize("proposed", [0.97, "0.97"])
def test_one_target_is_judged_for_the_whole_log(proposed):
    text = proposed_verdicts(EVENTS, proposed, current=0.95, **OPTIONS)
    assert text.startswith("Proposed target (one SLO over every event):\n\n- ")
    (bullet,) = text.split("\n\n", 1)[1].splitlines()
    assert bullet.startswith("- The proposed target 97 % for all events is too strict")
    assert "576 events, 58 failures" in bullet
    assert "EXHAUSTED or worse 100.0 % of the time under 97 %" in bullet


def test_no_proposal_says_nothing_and_an_unreadable_one_is_refused_by_its_name():
    assert proposed_verdicts(EVENTS, None, current=0.95, **OPTIONS) == ""
    with pytest.raises(ConfigError, match=r"proposed='soon' is neither one target"):
        proposed_verdicts(EVENTS, "soon", current=0.95, **OPTIONS)
    with pytest.raises(ConfigError, match=r"proposed=95 must lie in \(0, 1\)"):
        proposed_verdicts(EVENTS, 95, current=0.95, **OPTIONS)
