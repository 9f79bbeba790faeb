"""A declared column the file does not have: the refusal names the option that declared it, in the
words of the caller (``time=`` from the API, ``--time`` on the command line), so the fix is
written in the message (issue 29, point 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import SchemaError


@pytest.fixture()
def metric_csv(tmp_path):
    path = tmp_path / "metric.csv"
    path.write_text("timestamp,value\n2026-01-01T00:00:00Z,1\n2026-01-01T00:01:00Z,0\n")
    return path


@pytest.mark.parametrize("kw, expected", [
    ({}, "metric.csv has no column 'ts' (the time column: name the right one with time=). "
         "Columns present: 'timestamp', 'value'."),
    # a time column and numbers: a metric series, so the threshold to read it by is named too
    ({"time": "timestamp"},
     "metric.csv has no column 'outcome' (the outcome-label column: name the right one with "
     "outcome=, or give a true/false success column with ok=). Its other column, 'value', holds "
     "numbers: read a metric series by a threshold you choose, ok_when=\"value<THRESHOLD\" (or "
     "<=, >, >=; the threshold is yours: budgetlab never proposes one). Columns present: "
     "'timestamp', 'value'."),
    ({"time": "timestamp", "ok": "success"},
     "metric.csv has no column 'success' (the true/false success column: name the right one with "
     "ok=). Columns present: 'timestamp', 'value'."),
    ({"time": "timestamp", "ok": "value", "by": "region"},
     "metric.csv has no column 'region' (declared in by=: give the name the file uses). Columns "
     "present: 'timestamp', 'value' only (the time column and the true/false success column)."),
])
def test_api_names_the_keyword(metric_csv, kw, expected):
    with pytest.raises(SchemaError) as info:
        read_events(metric_csv, **kw)
    assert str(info.value) == expected


def test_dataframe_source_names_the_keyword_too():
    import pandas as pd

    frame = pd.DataFrame({"when": ["2026-01-01T00:00:00Z"], "outcome": ["success"]})
    with pytest.raises(SchemaError, match=r"no column 'ts' \(the time column: name the right one "
                                          r"with time=\)"):
        read_events(frame)


@pytest.mark.parametrize("argv, expected", [
    ([], "has no column 'ts' (the time column: name the right one with --time)."),
    (["--time", "timestamp"],
     "has no column 'outcome' (the outcome-label column: name the right one with --outcome, or "
     "give a true/false success column with --ok). Its other column, 'value', holds numbers: "
     "read a metric series by a threshold you choose, --ok-when 'value<THRESHOLD' (or <=, >, >=; "
     "the threshold is yours: budgetlab never proposes one). Columns present"),
    (["--time", "timestamp", "--ok", "value", "--by", "region"],
     "has no column 'region' (declared in --by: give the name the file uses)."),
])
def test_cli_names_the_flag(metric_csv, argv, expected, capsys):
    assert main(["replay", str(metric_csv), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert "=" not in err.split("has no column")[1].split("Columns present")[0].replace(
        "<=, >, >=", ""), err


NAB = Path(__file__).parents[1] / "fixtures" / "nab" / "elb_request_count_8c0756.csv"


def test_a_nab_metric_series_is_told_the_threshold_on_its_value_column(capsys):
    # NAB's layout, timestamp,value (request counts written 94.0): no outcome column, the one
    # column besides the time holds numbers
    assert main(["replay", str(NAB), "--time", "timestamp"]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: elb_request_count_8c0756.csv has no column 'outcome' (the "
        "outcome-label column: name the right one with --outcome, or give a true/false success "
        "column with --ok). Its other column, 'value', holds numbers: read a metric series by a "
        "threshold you choose, --ok-when 'value<THRESHOLD' (or <=, >, >=; the threshold is yours: "
        "budgetlab never proposes one). Columns present: 'timestamp', 'value'.\n")


def test_several_number_columns_are_named_and_the_first_proposed(tmp_path):
    path = tmp_path / "host.csv"
    path.write_text("ts,cpu,mem\n2026-01-01T00:00:00Z,0.5,12\n2026-01-01T00:01:00Z,,13\n")
    with pytest.raises(SchemaError) as info:
        read_events(path)
    assert str(info.value) == (
        "host.csv has no column 'outcome' (the outcome-label column: name the right one with "
        "outcome=, or give a true/false success column with ok=). Its other columns, 'cpu', "
        "'mem', hold numbers: read a metric series by a threshold you choose on one of them, "
        "ok_when=\"cpu<THRESHOLD\" (or <=, >, >=; the threshold is yours: budgetlab never "
        "proposes one). Columns present: 'ts', 'cpu', 'mem'.")


@pytest.mark.parametrize("text", [
    # a column of words beside the numbers: not a metric series
    "ts,value,host\n2026-01-01T00:00:00Z,1.5,web1\n",
    # a column that holds a word in a later row of the sample
    "ts,value\n2026-01-01T00:00:00Z,1.5\n2026-01-01T00:01:00Z,down\n",
])
def test_a_file_with_words_besides_the_time_keeps_the_words(tmp_path, text):
    path = tmp_path / "log.csv"
    path.write_text(text)
    columns = text.split("\n")[0].split(",")
    with pytest.raises(SchemaError) as info:
        read_events(path)
    assert str(info.value) == (
        "log.csv has no column 'outcome' (the outcome-label column: name the right one with "
        "outcome=, or give a true/false success column with ok=). Columns present: "
        + ", ".join(f"'{c}'" for c in columns) + ".")


def test_a_dataframe_and_parquet_are_judged_by_their_types(tmp_path):
    import pandas as pd

    frame = pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "value": [45.8]})
    frame.to_parquet(tmp_path / "m.parquet")
    for source in (frame, tmp_path / "m.parquet"):
        with pytest.raises(SchemaError, match=r"Its other column, 'value', holds numbers: .*"
                                              r'ok_when="value<THRESHOLD"'):
            read_events(source)
    # text that holds numbers is no number type: words unchanged
    with pytest.raises(SchemaError) as info:
        read_events(frame.astype({"value": str}))
    assert "metric series" not in str(info.value)
