"""Issue 14, points 1-3: outcome labels are normalised and read through a documented vocabulary;
a label budgetlab cannot classify is refused with the exact fix; ``skip`` leaves rows out on
purpose; HTTP status ranges map web and API logs. Expected values are written out by hand."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from budgetlab import OutcomeError, how_read, read_events
from budgetlab.errors import ConfigError, InputError
from budgetlab.events._messages import personal_mask
from budgetlab.events.outcomes import classify_outcomes
from budgetlab.events.vocabulary import DEFAULT_OUTCOMES, normalize_label


def frame(labels):
    return pd.DataFrame(
        {
            "ts": [f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}Z" for i in range(len(labels))],
            "outcome": labels,
        }
    )


# point 1: normalisation and the vocabulary ----------------------------------------------------
@pytest.mark.parametrize("label", ["succeeded", "Succeed", "successful", "completed", "DONE",
                                   "okay", "\u2713",
                                   "success\u200b", "\ufeffSuccess ",
                                   "\uff33\uff35\uff23\uff23\uff25\uff33\uff33",
                                   "ok\u00ad", " Passed\t"])
def test_success_words_of_the_vocabulary(label):
    # each label once next to a failure: rate 1/2, never 0 %
    ev = read_events(frame([label, "failed"]))
    assert ev["ok"].tolist() == [True, False]
    assert ev["bucket"].astype(str).tolist() == ["success", "failure"]


@pytest.mark.parametrize("label, bucket", [("Timed out", "timeout"), ("time-out", None),
                                           ("TIMEOUT\u200b", "timeout"),
                                           ("error", "failure"), ("Failed", "failure"), ("\u2717",
                                                                                         "failure"),
                                           ("deadline_exceeded", "timeout"), ("solve_error",
                                                                              "solve_error")])
def test_failure_words_of_the_vocabulary(label, bucket):
    if bucket is None:  # "time_out" is not in the vocabulary: refused, never guessed
        with pytest.raises(OutcomeError, match="unknown outcome label"):
            read_events(frame(["ok", label]))
        return
    ev = read_events(frame(["ok", label]))
    assert ev["bucket"].astype(str).tolist() == ["success", bucket]


def test_normalisation_is_nfkc_casefold_and_drops_format_characters():
    assert normalize_label("Suc\u200bcess") == "success"
    assert normalize_label("\u0130") == "i\u0307"  # casefold, not lower-casing by locale
    assert normalize_label("  in - progress ") == "in_progress"


def test_no_vocabulary_entry_maps_an_unknown_word():
    # the list of labels that used to become 0 % success: all now known or refused
    for label in ["\u0443\u0441\u043f\u0435\u0445", "weird", "ack", "finished_ok"]:
        with pytest.raises(OutcomeError) as info:
            read_events(frame(["success", label, label]))
        text = str(info.value)
        assert "unknown outcome label" in text and "(2)" in text
        # the API names keyword arguments (the command line its flags:
        # tests/cli/test_replay_own_log.py)
        assert "outcomes={'success': 'success'," in text and "--outcomes" not in text
        assert "\n" not in text


def test_the_fix_in_the_message_works_when_its_question_marks_are_filled():
    labels = ["Succeeded", "weird", "weird", "pending"]
    with pytest.raises(OutcomeError) as info:
        read_events(frame(labels))
    text = str(info.value)
    api = re.search(r"outcomes=(\{.*?\})", text).group(1)
    assert api == "{'succeeded': 'success', 'weird': '?', 'pending': '?'}"
    with pytest.raises(ConfigError, match="other than '\\?'"):
        read_events(frame(labels), outcomes=eval(api))  # noqa: S307 - the literal from the message
    filled = api.replace("'weird': '?'", "'weird': 'weird_kind'").replace("'pending': '?'",
                                                                          "'pending': 'skip'")
    ev = read_events(frame(labels), outcomes=eval(filled))  # noqa: S307
    assert ev["bucket"].astype(str).tolist() == ["success", "weird_kind", "weird_kind"]


def test_labels_that_look_personal_are_counted_not_shown():
    # read_events refuses such an outcome column before (the personal-data guard); the label
    # function itself still never shows them
    with pytest.raises(OutcomeError) as info:
        classify_outcomes(pd.Series(["ok", "anna@example.org", "weird"]))
    text = str(info.value)
    assert "'weird' (1)" in text and "anna" not in text
    assert "1 label hidden as possible personal data" in text
    assert "outcomes={'ok': 'success', 'weird': '?'}" in text
    r = classify_outcomes(pd.Series(["ok", "anna@example.org"]), {"ok": "success",
                                                                  "anna@example.org": "x"})
    assert [(x.label, x.rows) for x in r.labels] == [("ok", 1), (None, 1)]


def test_counted_labels_read_as_the_rows_they_stand_for():
    # 'weird' x2 and 'odd' x1 among 8 rows, given as distinct values with their rows; the
    # expected texts are those of the same labels row by row (written by hand)
    values, counts = pd.Series(["success", "weird", "odd"]), np.array([5, 2, 1])
    with pytest.raises(OutcomeError) as info:
        classify_outcomes(values, counts=counts)
    assert str(info.value).startswith("2 unknown outcome labels (the built-in vocabulary does not "
                                      "know them, and budgetlab gives no label a meaning it "
                                      "cannot know): 'weird' (2), 'odd' (1). ")
    r = classify_outcomes(values, {"success": "success", "weird": "crash", "odd": "skip"},
                          counts=counts)
    assert [(x.label, x.meaning, x.rows) for x in r.labels] == [
        ("success", "success", 5), ("weird", "crash", 2), ("odd", "skip", 1)]
    assert r.ok.tolist() == [True, False, False] and r.skip.tolist() == [False, False, True]
    # spellings of one label add up; empty labels are counted, not named by row
    r = classify_outcomes(pd.Series(["OK", "ok ", "timeout"]), counts=np.array([1, 2, 4]))
    assert [(x.label, x.rows) for x in r.labels] == [("ok", 3), ("timeout", 4)]
    with pytest.raises(OutcomeError, match=r"^3 empty or missing outcome labels; fill or drop"):
        classify_outcomes(pd.Series(["success", ""]), counts=np.array([1, 3]))
    # true/false values: the rows of each
    r = classify_outcomes(pd.Series([True, False]), counts=np.array([6, 2]))
    assert [(x.label, x.rows) for x in r.labels] == [("true", 6), ("false", 2)]


def test_no_built_in_word_looks_like_personal_data():
    # the reading block shows built-in words without scanning them (outcomes._hidden): the
    # scan itself must agree that none of them is personal
    words = list(DEFAULT_OUTCOMES)
    assert not personal_mask(words).any()


def test_a_file_without_any_success_is_refused_under_the_vocabulary_only(tmp_path):
    path = tmp_path / "log.csv"
    frame(["failed", "timeout", "failed"]).to_csv(path, index=False)
    with pytest.raises(OutcomeError, match="no outcome label is a success"):
        read_events(path)
    with pytest.raises(OutcomeError, match="no row of the outcome column is a success"):
        classify_outcomes(pd.Series([0, 0, 0]))
    ev = read_events(path, outcomes={"failed": "failure", "timeout": "timeout"})
    assert ev["ok"].tolist() == [False, False, False]  # an explicit mapping may say so
    # a DataFrame may be one slice of a larger log (a Dask partition): read, and the block says it
    ev = read_events(frame(["failed", "timeout"]))
    assert [x.meaning for x in how_read(ev).labels] == ["failure", "timeout"]


def test_vocabulary_is_documented_on_the_own_log_page():
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "own-log.md").read_text(encoding="utf-8")
    for word, meaning in DEFAULT_OUTCOMES.items():
        if word.isascii():
            assert f"`{word}`" in page, word
        assert f"`{meaning}`" in page


# point 2: skip ----------------------------------------------------------------------------------
def test_skip_leaves_rows_out_and_counts_them():
    labels = ["done", "pending", "failed", "done", "Running", "pending"]
    ev = read_events(frame(labels), outcomes={"done": "success", "failed": "failure",
                                              "pending": "skip",
                                              "running": "SKIP"})
    assert len(ev) == 3 and ev["ok"].tolist() == [True, False, True]
    how = how_read(ev)
    assert how.rows_read == 6 and how.rows_kept == 3
    assert dict(how.skipped) == {"outcome 'pending' -> skip": 2, "outcome 'running' -> skip": 1}
    assert list(ev["bucket"].cat.categories) == ["success", "failure"]


def test_non_final_looking_states_are_named_but_the_suggestion_is_always_a_question():
    # issue 29 point 4: the suggestion never guesses a meaning; the hint leaves the choice to the
    # user
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["succeeded", "queued", "processing", "failed"]))
    text = str(info.value)
    assert "'queued': '?'" in text and "'processing': '?'" in text and "'skip'" not in text
    assert "look like states that are not final" in text and "map them to skip" in text


def test_accepted_is_never_proposed_as_skip():
    # for an SSH log 'Accepted' is the success: pasting a guessed skip would give 0 % success
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["Accepted", "Failed", "Accepted"]), outcomes=None)
    text = str(info.value)
    assert ("'accepted': "
            "'?'") in text and ("'failed': "
                                          "'failure'") in text and "'accepted': 'skip'" not in text


def test_everything_skipped_is_refused():
    with pytest.raises(InputError, match="every row maps to skip"):
        read_events(frame(["pending", "pending"]), outcomes={"pending": "skip"})


# point 3: status ranges -------------------------------------------------------------------------
def test_status_ranges_with_exact_codes_winning():
    codes = pd.DataFrame({"ts": [f"2026-01-01T00:00:0{i}Z" for i in range(7)],
                          "status": [200, 204, 301, 404, 429, 503, 500]})
    table = {"2xx": "success", "3xx": "success", "4xx": "skip", "429": "rate_limited",
             "50x": "server_error",
             "5xx": "other_5xx"}
    ev = read_events(codes, outcome="status", outcomes=table)
    # 404 skipped; 429 exact; 503 and 500 by 50x (which wins over 5xx)
    assert ev["bucket"].astype(str).tolist() == ["success", "success", "success", "rate_limited",
                                                 "server_error",
                                                 "server_error"]
    rules = {x.label: x.rule for x in how_read(ev).labels}
    assert rules == {"200": "2xx", "204": "2xx", "301": "3xx", "404": "4xx", "429": "429",
                     "503": "50x", "500": "50x"}


def test_status_codes_as_text_and_an_uncovered_code():
    codes = frame(["200", "200", "302", "502"])
    with pytest.raises(OutcomeError) as info:
        read_events(codes, outcomes={"2xx": "success", "5xx": "server_error"})
    assert "'302' (1)" in str(info.value) and ("{'2xx': 'success', '5xx': 'server_error', '302': "
                                               "'?'}") in str(info.value)
    with pytest.raises(OutcomeError, match="numeric codes.*'2xx': 'success'"):
        read_events(codes)


def test_classify_reports_every_label_once_with_its_count():
    r = classify_outcomes(pd.Series(["OK", "ok ", "Ok\u200b", "failed"]))
    assert [(x.label, x.meaning, x.rows) for x in r.labels] == [("ok", "success", 3), ("failed",
                                                                                       "failure",
                                                                                       1)]


def test_measured_values_are_refused_as_a_metric_series_not_as_codes():
    # the NAB CPU series read with its value column as the outcome: numbers with decimals are no
    # status codes, so the fix is not an --outcomes range mapping but an outcome column
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["13.334", "14.012", "13.334", "200"]))
    assert str(info.value) == (
        "outcome labels are measured values, not outcomes: '13.334' (2), '14.012' (1), '200' (1) "
        "(numbers with decimals). A metric series (one measured value per time, such as CPU use "
        "or a latency) is not an outcome log: budgetlab reads one row per attempt with its "
        "result, a success or a kind of failure. Name the outcome column with outcome= (or a "
        "true/false success column with ok=); a metric series has to be turned into outcomes "
        "first, good or bad by a threshold you choose: read it with "
        'ok_when="outcome<THRESHOLD" (or <=, >, >=; the threshold is yours: budgetlab never '
        "proposes one), or give a true/false column with ok=.")
    # whole numbers stay status codes, with the range mapping to pass
    with pytest.raises(OutcomeError, match="numeric codes"):
        read_events(frame(["200", "503", "200.0"]))
