"""A metric series read as an outcome log is refused as one, in words: every row not a boolean
(``ok=``), whole-number counts that are no status codes (``outcome=``). Expected texts are written
by hand; the NAB figures are counted apart (tests/fixtures/nab/README.md)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from budgetlab import how_read, read_events
from budgetlab.cli import main
from budgetlab.errors import OutcomeError, SchemaError

ELB = Path(__file__).parents[1] / "fixtures" / "nab" / "elb_request_count_8c0756.csv"
METRIC_SERIES = ("A metric series (one measured value per time, such as CPU use or a latency) is "
                 "not an outcome log: budgetlab reads one row per attempt with its result, a "
                 "success or a kind of failure")
#: the fix names what a wheel user can reach (the reader's ok_when= and ok=), not a docs page that
#: the wheel does not ship, on the column being read; the threshold is left to the user


def turn(column, cli=False):
    how = f"--ok-when '{column}<THRESHOLD'" if cli else f'ok_when="{column}<THRESHOLD"'
    return ("a metric series has to be turned into outcomes first, good or bad by a threshold you "
            f"choose: read it with {how} (or <=, >, >=; the threshold is yours: budgetlab never "
            f"proposes one), or give a true/false column with {'--ok' if cli else 'ok='}.")


TURN, TURN_CLI = turn("outcome"), turn("value", cli=True)
IF_COUNTS = f" If they are counts or measurements instead, {TURN}"
APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"


def frame(values, column="outcome"):
    ts = [f"2026-01-01T{i // 60:02d}:{i % 60:02d}:00Z" for i in range(len(values))]
    return pd.DataFrame({"ts": ts, column: values})


def test_a_success_column_without_one_boolean_is_called_a_metric_series():
    with pytest.raises(OutcomeError) as info:
        read_events(frame([13.3, 14.0, 2.5], "ok"), ok="ok")
    assert str(info.value) == (
        "none of the 3 rows of the success column is a boolean (true/false or 1/0): this looks "
        f"like a metric series. {METRIC_SERIES}; {turn('ok')}")


def test_text_without_one_boolean_is_asked_whether_it_holds_labels():
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["done", "crashed"], "ok"), ok="ok")
    assert str(info.value) == (
        "none of the 2 rows of the success column is a boolean (true/false or 1/0): if it holds "
        "outcome labels (success, timeout, ...), name it with outcome= instead of ok=.")


def test_some_booleans_keep_the_row_numbers():
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["true", "7", "false"], "ok"), ok="ok")
    assert str(info.value) == "non-boolean success value at row 2 (1-based); use true/false " \
        "or 1/0."


def test_hand_made_counts_are_a_metric_series_not_status_codes():
    # 61 distinct counts 100..160: all in the HTTP range, but more distinct values than a column
    # of codes has (60)
    counts = [str(100 + k) for k in range(61)]
    with pytest.raises(OutcomeError) as info:
        read_events(frame(counts))
    text = str(info.value)
    assert text.startswith("outcome labels are measured values, not outcomes: '100' (1), ")
    assert ("and 41 more (61 distinct whole numbers from 100 to 160: counts or measurements; a "
            f"column of codes has at most 60). {METRIC_SERIES}.") in text
    assert "2xx" not in text


def test_few_codes_outside_the_http_range_get_no_status_hint():
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["0", "2", "127", "2"]))
    assert str(info.value) == (
        "outcome labels look like numeric codes, not HTTP statuses (100 to 599): '2' (2), "
        "'127' (1); say what each means: outcomes={'2': '?', '127': '?'}; replace each ? by "
        f"success, a failure bucket name, or skip.{IF_COUNTS}")


def test_http_statuses_keep_the_range_hint():
    with pytest.raises(OutcomeError, match=r"numeric codes: '200' \(2\), '503' \(1\); say which "
                                           r"are successes with outcomes= \(status ranges"):
        read_events(frame(["200", "503", "200"]))


def test_nab_request_counts_read_as_outcomes_are_a_metric_series(capsys):
    # tests/fixtures/nab/README.md: 4,032 rows, 269 distinct whole numbers from 1 to 656
    argv = ["replay", str(ELB), "--time", "timestamp"]
    assert main([*argv, "--outcome", "value"]) == 2
    err = capsys.readouterr().err
    # the file writes floats (94.0, 1.0): each is its whole number, as in a DataFrame; the 15 rows
    # of 1.0 are the vocabulary's 1 (a success), the other 268 numbers (2 to 656) are unknown
    assert "outcome labels are measured values, not outcomes: '94' (19), " in err
    assert ("(268 distinct whole numbers from 2 to 656: counts or measurements; a column of codes "
            f"has at most 60). {METRIC_SERIES}. Name the outcome column with --outcome") in err
    assert "2xx" not in err
    assert main([*argv, "--ok", "value"]) == 2
    err = capsys.readouterr().err
    # 4,032 - 15 rows of 1.0 (true) are not booleans: most of the column, so a metric series,
    # not a success column with a few bad rows
    assert err.strip() == (
        "budgetlab: error: 4,017 of the 4,032 rows of the success column are not booleans "
        f"(true/false or 1/0): this looks like a metric series. {METRIC_SERIES}; "
        + TURN_CLI)


def test_a_success_column_with_a_few_bad_rows_names_them():
    # 2 of 5 rows are not booleans: fewer than half, so the rows are named, not the column
    frame = pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=5, freq="min", tz="UTC"),
                          "ok": [1.0, 0.0, 7.0, 1.0, 3.0]})
    with pytest.raises(OutcomeError) as err:
        read_events(frame, ok="ok")
    assert str(err.value) == ("non-boolean success values at rows 3, 5 (1-based); use "
                              "true/false or 1/0.")


COUNTS_FIX = f"replace each ? by success, a failure bucket name, or skip.{IF_COUNTS}"


def test_a_few_hundred_counts_in_the_http_range_are_not_called_statuses(tmp_path, capsys):
    # 300 rows of request counts 120, 250, 480 (100 rows each): 3 distinct whole numbers from 100
    # to 599, but none is a status a server sends, so no status hint and no "codes" assertion
    frame([120, 250, 480] * 100).to_csv(tmp_path / "counts.csv", index=False)
    frame([120, 250, 480] * 100).to_parquet(tmp_path / "counts.parquet")
    want = ("outcome labels are whole numbers from 100 to 599 but not HTTP statuses: '120' (100), "
            "'250' (100), '480' (100); if they are codes, say what each means: "
            "outcomes={'120': '?', '250': '?', '480': '?'}; " + COUNTS_FIX)
    for name in ("counts.csv", "counts.parquet"):
        with pytest.raises(OutcomeError) as info:
            read_events(tmp_path / name)
        assert str(info.value) == want
    assert main(["replay", str(tmp_path / "counts.csv")]) == 2
    assert capsys.readouterr().err.strip() == (
        "budgetlab: error: outcome labels are whole numbers from 100 to 599 but not HTTP "
        "statuses: '120' (100), '250' (100), '480' (100); if they are codes, say what each "
        "means: --outcomes 120=?,250=?,480=?; replace each ? by success, a failure bucket name, "
        f"or skip. If they are counts or measurements instead, {turn('outcome', cli=True)}")


def test_one_number_that_is_no_status_is_named():
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["200", "404", "120", "200"]))
    assert str(info.value) == (
        "outcome labels are whole numbers from 100 to 599 but not all HTTP statuses ('120' is "
        "not): '200' (2), '404' (1), '120' (1); if they are codes, say what each means: "
        "outcomes={'200': '?', '404': '?', '120': '?'}; " + COUNTS_FIX)


def test_statuses_get_the_range_hint_and_the_words_for_counts():
    # 499 is nginx's own status (client closed the request), not IANA's
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["200", "499", "200"]))
    assert str(info.value) == (
        "outcome labels look like numeric codes: '200' (2), '499' (1); say which are successes "
        "with outcomes= (status ranges allowed: {'2xx': 'success', '3xx': 'success', '4xx': "
        f"'client_error', '5xx': 'server_error'}}, or '4xx': 'skip' to leave client errors out)."
        f"{IF_COUNTS}")


def test_mapped_numbers_are_stated_as_statuses_only_when_they_are(tmp_path):
    for values, note in (([200, 503, 200], "whole numbers, read as labels (HTTP statuses)"),
                         ([120, 480, 120], "whole numbers, read as labels")):
        frame(values).to_parquet(tmp_path / "log.parquet")
        ev = read_events(tmp_path / "log.parquet",
                         outcomes={str(values[0]): "success", str(values[1]): "failure"})
        assert how_read(ev).notes == (f"column 'outcome': {note}",)


def test_more_than_a_thousand_labels_end_as_the_other_metric_series_refusals(tmp_path, capsys):
    # 1,234 distinct CPU readings (0.05 % apart), one row each: more distinct labels than an
    # outcome column has (1,000), refused before any label is read
    values = [f"{k * 0.05:.2f}" for k in range(1234)]
    with pytest.raises(OutcomeError) as info:
        read_events(frame(values))
    assert str(info.value) == (
        "the outcome column has 1,234 distinct labels (more than 1,000): it does not look like "
        f"an outcome column. {METRIC_SERIES}. Name the outcome column with outcome= (or a "
        f"true/false success column with ok=); {TURN}")
    frame(values, "value").to_csv(tmp_path / "cpu.csv", index=False)
    assert main(["replay", str(tmp_path / "cpu.csv"), "--outcome", "value"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: the outcome column has 1,234 distinct labels (more than 1,000): it "
        f"does not look like an outcome column. {METRIC_SERIES}. Name the outcome column with "
        f"--outcome (or a true/false success column with --ok); {TURN_CLI}\n")


def test_status_counts_are_written_as_every_count_is_and_the_counts_fix_reads_as_a_sentence():
    # the Elastic sample's statuses, read by a pattern with no mapping: the README's hand counts
    # (200: 9126, 304: 445, ...) with a thousands separator, as the "how it was read" block
    # writes them; the last sentence says what to do with counts, not "instead: A metric ..."
    pattern = r'^\S+ \S+ \S+ \[(?P<ts>[^\]]+)\] "[^"]*" (?P<outcome>\d{3}) '
    with pytest.raises(OutcomeError) as info:
        read_events(APACHE, pattern=pattern, time_format="%d/%b/%Y:%H:%M:%S %z")
    text = str(info.value)
    assert "'200' (9,126), '404' (213), '304' (445)" in text
    assert text.endswith(IF_COUNTS)


def test_a_metric_series_of_durations_is_told_it_is_no_log_of_attempts(tmp_path, capsys):
    # NAB's ec2 request latency shape: timestamp,value (a latency per 5 min). Its one number
    # column is the duration column: --ok-when on it cannot share it with --duration, so the
    # refusal says what a latency SLO needs, and what the series can be read as instead
    path = tmp_path / "ec2.csv"
    pd.DataFrame({"timestamp": ["2014-03-07 03:41:00", "2014-03-07 03:46:00"],
                  "value": [45.868, 47.606]}).to_csv(path, index=False)
    said = ("Its other column, 'value', is the {flag} column: a latency SLO needs an outcome per "
            "attempt, and a metric series of durations (one value per interval, such as an "
            "average) is not a log of attempts. To judge the series itself by a threshold you "
            "choose, read it without {flag}: {how} (or <=, >, >=; the threshold is yours: "
            "budgetlab never proposes one).")
    with pytest.raises(SchemaError, match="no column 'outcome'") as caught:
        read_events(path, time="timestamp", duration="value", duration_unit="ms")
    assert said.format(flag="duration=", how='ok_when="value<THRESHOLD"') in str(caught.value)
    assert main(["latency", str(path), "--time", "timestamp", "--duration", "value",
                 "--duration-unit", "ms", "--thresholds", "50ms"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert said.format(flag="--duration", how="--ok-when 'value<THRESHOLD'") in err
