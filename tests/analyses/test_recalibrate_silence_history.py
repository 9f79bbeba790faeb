"""The history a recommendation counts is the evaluated time, never the calendar span around a
silence (Stop 56): a group with 5 d 22 h of traffic spread over 15 d 22 h got no "provisional"
caveat, its ``history_days`` the span. The log and every figure below are computed by hand in
:mod:`tests.silence_log`."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, recalibrate, target_verdicts
from budgetlab.analyses.latency_recalibration import latency_recalibrate
from budgetlab.cli.export_recalibration import say_provisional
from tests.silence_log import GAPPY_HOURS, GAPPY_SPAN_DAYS, STEADY_HOURS, silence_log

#: The caveat of the silent group, in words: both figures, each named.
GAPPY_HISTORY = ("5 d 22 h of evaluated history (time with traffic after warm-up) in the "
                 "15 d 22 h from the first evaluated instant to the last, less than the 14 d a "
                 "recommendation needs")


@pytest.fixture(scope="module")
def result():
    return recalibrate(silence_log(), by="group", target=0.8, window="1h", n_boot=0)


def test_a_silence_is_no_history_and_the_columns_name_each_span(result):
    s = result.summary.set_index("group")
    gappy, steady = s.loc["gappy"], s.loc["steady"]
    # 852 evaluated events, 44 failures (tests/silence_log.py)
    assert (gappy["events"], gappy["failures"]) == (852, 44)
    assert gappy["hours"] == pytest.approx(GAPPY_HOURS, abs=1e-9)
    # the history is the evaluated time (hours / 24), not the 15 d 22 h around the silence
    assert gappy["history_days"] == pytest.approx(GAPPY_HOURS / 24, abs=1e-9)
    assert gappy["span_days"] == pytest.approx(GAPPY_SPAN_DAYS, abs=1e-9)
    # without a silence the two agree
    assert steady["history_days"] == pytest.approx(STEADY_HOURS / 24, abs=1e-9)
    assert steady["span_days"] == pytest.approx(STEADY_HOURS / 24, abs=1e-9)


def test_the_silent_group_is_provisional_in_words(result):
    s = result.summary.set_index("group")
    assert pd.notna(s.loc["gappy", "recommended_target"])  # a recommendation, so a caveat
    assert s.loc["gappy", "recommendation_note"] == (
        f"provisional: {GAPPY_HISTORY}; re-run with more history")
    assert "provisional" not in s.loc["steady", "recommendation_note"]  # 15 d 22 h evaluated
    v = target_verdicts(result).set_index("group")
    assert v.loc["gappy", "caveat"] == f"provisional: {GAPPY_HISTORY}"
    assert v.loc["steady", "caveat"] == ""
    assert f"(Provisional: {GAPPY_HISTORY}.)" in v.loc["gappy", "sentence"]


def test_an_older_table_is_judged_by_its_hours():
    from budgetlab.analyses.recalibration.evidence import saved_history

    # a table saved before span_days: its history_days was the span (15.95 d), its hours the
    # evaluated time (142 h 40 min: 5 d 22 h): the export still says it is provisional
    old = pd.DataFrame({"group": ["gappy"], "hours": [GAPPY_HOURS],
                        "history_days": [GAPPY_SPAN_DAYS], "recommended_target": [0.83]})
    days, span = saved_history(old)
    assert days.tolist() == pytest.approx([GAPPY_HOURS / 24])
    assert span.tolist() == pytest.approx([GAPPY_SPAN_DAYS])


def test_export_names_the_provisional_target_of_an_older_table(capsys):
    old = pd.DataFrame({"group": ["gappy"], "hours": [GAPPY_HOURS],
                        "history_days": [GAPPY_SPAN_DAYS], "recommended_target": [0.83]})
    say_provisional(old, ["group"])
    said = " ".join(capsys.readouterr().out.split())
    assert said.startswith("written from a provisional recommendation: gappy")
    assert GAPPY_HISTORY in said


def test_latency_recalibrate_counts_the_same_history():
    # every success takes 5 s, every failure is a 30 s timeout: within 10 s the SLI is the
    # outcome, 808 of 852 evaluated events good; 0.5 is supported, a provisional one
    r = latency_recalibrate(silence_log(("gappy",)), slo=SLO(target=0.8, window="1h"),
                            thresholds=["10s"], candidates=[0.5], n_boot=0)
    row = r.summary.iloc[0]
    assert row["supported_target"] == 0.5
    assert r.table["observed_time"].iloc[0] == pd.Timedelta(hours=142, minutes=40, nanoseconds=1)
    assert row["note"] == f"provisional: {GAPPY_HISTORY}; re-run with more history"
