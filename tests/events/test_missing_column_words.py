"""A declared column the file does not have: the refusal names the option that declared it, in the
words of the caller (``time=`` from the API, ``--time`` on the command line), so the fix is
written in the message (issue 29, point 7)."""

from __future__ import annotations

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
    ({"time": "timestamp"},
     "metric.csv has no column 'outcome' (the outcome-label column: name the right one with "
     "outcome=, or give a true/false success column with ok=). Columns present: 'timestamp', "
     "'value'."),
    ({"time": "timestamp", "ok": "success"},
     "metric.csv has no column 'success' (the true/false success column: name the right one with "
     "ok=). Columns present: 'timestamp', 'value'."),
    ({"time": "timestamp", "ok": "value", "by": "region"},
     "metric.csv has no column 'region' (declared in by=: give the name the file uses). Columns "
     "present: 'timestamp', 'value'."),
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
     "give a true/false success column with --ok)."),
    (["--time", "timestamp", "--ok", "value", "--by", "region"],
     "has no column 'region' (declared in --by: give the name the file uses)."),
])
def test_cli_names_the_flag(metric_csv, argv, expected, capsys):
    assert main(["replay", str(metric_csv), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert "=" not in err.split("has no column")[1].split("Columns present")[0], err
