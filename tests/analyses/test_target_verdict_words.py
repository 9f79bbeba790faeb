"""target_verdicts' sentences: every target in percent, the recommendation read with the verdict
(joined by the verdict's reason where the verdict keeps the current target although the rule's
lies elsewhere), a capped recommendation said capped in the figure legend's words. Checked on a
summary written by hand, whose figures and reasons are worked out below."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from budgetlab import recalibrate, synth, target_verdicts
from budgetlab.analyses.recalibration.tables import Recalibration

NAN = np.nan


def by_hand() -> Recalibration:
    """Three groups over 28 days, current target 95 % (none for HEAD), no bootstrap, limit 1 %:

    * turnstile: EXHAUSTED 0 % of the time under 95 %; the rule's target 96 % lies above it,
      but the rolling rate's 10th percentile 0.965 burns (1 - 0.965) / (1 - 0.95) = 0.7 of the
      budget 9 hours in 10, not under 0.25: ok, keep 95 %, while 96 % is recommended;
    * recaptcha_v2: EXHAUSTED 50 % of the time (over the 1 % limit), the rule's target 92.5 %
      below 95 %: too strict, loosen to 92.5 %;
    * HEAD: 28 events, no failure, no current target: the rule alone gives 99.99 %, but 28 events
      hold 10 expected failures only up to 1 - 10 / 28 = 0.643: capped at the grid's 64 %.
    """
    summary = pd.DataFrame({
        "g": ["turnstile", "recaptcha_v2", "HEAD"],
        "events": [40_000, 60_000, 28], "failures": [900, 4_000, 0],
        "success_rate": [0.9775, 0.9333, 1.0], "ci_low": [0.976, 0.931, 0.88],
        "ci_high": [0.979, 0.935, 1.0], "history_days": [28.0, 28.0, 3.0],
        "hours": [672.0, 672.0, 72.0],
        "p10": [0.965, 0.9, 1.0], "p50": [0.98, 0.935, 1.0], "window": ["1d"] * 3,
        "current_target": [0.95, 0.95, NAN], "current_share_limit": [0.0, 0.5, NAN],
        "verdict": ["ok", "too_strict", None],
        "verdict_reason": ["(recalibrate's words)"] * 3,
        "action": ["keep 0.95", "loosen to 0.925", "use 0.64"],
        "recommended_target": [0.96, 0.925, 0.64], "recommended_low": [NAN] * 3,
        "recommended_high": [NAN] * 3, "recommended_capped": [False, False, True],
        "recommendation_note": [""] * 3})
    settings = {"by": ["g"], "limit_status": "exhausted", "max_share": 0.01, "loose_burn": 0.25,
                "n_boot": 0, "confidence": 0.95}
    empty = pd.DataFrame({"g": []})
    return Recalibration(summary=summary, candidates=empty, distribution=empty,
                         bootstrap=empty, settings=settings)


def test_the_verdict_and_the_recommendation_read_as_one():
    v = target_verdicts(by_hand(), min_days=0).set_index("g")
    kept = v.loc["turnstile"]
    assert kept["verdict"] == "ok"
    assert kept["sentence"].startswith("The current target 95 % for turnstile is about right, "
                                       "so keep 95 %: 40,000 events")
    assert kept["recommendation"] == (
        "Recommended for turnstile: 96 %, from 40,000 events over 28 d of evaluated time; the "
        "verdict keeps the current 95 % all the same: EXHAUSTED or worse 0.00 % of the evaluated "
        "time under 95 % (limit 1 %); the rule's target 96 % (no bootstrap, n_boot=0: the verdict "
        "rests on this point) lies above 95 %, but 9 hours in 10 the 24 h window burns at most 0.7 "
        "of its budget (limit: loose_burn 0.25): keep 95 %.")
    assert kept["recommended_target"] == 0.96  # the figure is the rule's, as the table's


def test_every_target_of_these_sentences_in_percent():
    v = target_verdicts(by_hand(), min_days=0).set_index("g")
    strict = v.loc["recaptcha_v2"]
    # one sentence: the verdict, why, the action, then its evidence (no aside after an aside)
    assert strict["sentence"] == (
        "The current target 95 % for recaptcha_v2 is too strict, the budget burning too fast, so "
        "loosen to 92.5 %: 60,000 events, 4,000 failures over 28 d of evaluated time; success "
        "93.33 % (95 % interval 93.10 % – 93.50 %); EXHAUSTED or worse 50.0 % of the time under "
        "95 % (limit 1 %).")
    # no target as a decimal fraction anywhere in the sentences (0.925, 0.95)
    for text in [*v["sentence"], *v["recommendation"]]:
        assert not re.search(r"\b0\.9\d*\b", text), text
    # a recommendation the verdict follows needs no joining reason
    assert strict["recommendation"] == "Recommended for recaptcha_v2: 92.5 %, from 60,000 events " \
        "over 28 d of evaluated time."


def test_a_capped_recommendation_says_so_in_the_legends_words():
    v = target_verdicts(by_hand(), min_days=0).set_index("g")
    assert v.loc["HEAD", "recommendation"] == (
        "Recommended for HEAD: 64 % (capped: as high as 28 events can judge), from 28 events "
        "over 3 d of evaluated time.")


def test_the_percent_action_is_the_summarys_action_in_percent():
    """On a run: each given verdict's action, as the sentence says it, is recalibrate's action
    with its target x 100 (loosen to 0.93 -> loosen to 93 %)."""
    events, _ = synth.generate("2026-10-05", 6, seed=1, rate=0.05, incidents=None,
                               session_ids=False)
    rec = recalibrate(events, by="captcha_type", target=0.95, window="6h", n_boot=0)
    v = target_verdicts(rec, min_days=0)
    compared = 0
    for (_, s), sentence in zip(rec.summary.iterrows(), v["sentence"], strict=True):
        if s["verdict"] == "withheld":
            continue
        word, number = re.fullmatch(r"(\w+(?: to)?) ([0-9.]+)", s["action"]).groups()
        percent = f"{float(number) * 100:.10g} %"
        assert f", so {word} {percent}:" in sentence, (s["action"], sentence)
        compared += 1
    assert compared >= 2
