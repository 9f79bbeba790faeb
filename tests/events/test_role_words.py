"""Columns that must be their own (the time, the outcome or success column, the failure kind, the
session; and the duration apart from all of them): the refusal names the options that share a
column and every option whose column it may not share, in the API's words or the command's
flags (the command line has no session flag). Expected texts are written by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetlab import ReadSpec
from budgetlab.cli import main
from budgetlab.errors import ConfigError

NAB = Path(__file__).parent.parent / "fixtures" / "nab" / "elb_request_count_8c0756.csv"


@pytest.mark.parametrize(("kwargs", "want"), [
    ({"ok": "value", "duration": "value"},
     "duration='value' is also the column of ok=; the duration needs a column of its own, not "
     "that of time=, ok=, bucket= or session=."),
    ({"time": "t", "duration": "t"},
     "duration='t' is also the column of time=; the duration needs a column of its own, not "
     "that of time=, outcome=, bucket= or session=."),
    ({"session": "s", "duration": "s"},
     "duration='s' is also the column of session=; the duration needs a column of its own, not "
     "that of time=, outcome=, bucket= or session=."),
    ({"ok": "v", "bucket": "v"}, "ok= and bucket= name the same column 'v'; each needs a column of "
     "its own."),
    # only the options that clash are named: not bucket= or session=, which were not given
    ({"time": "timestamp", "ok_when": "timestamp<5"},
     "time= and ok_when= name the same column 'timestamp'; each needs a column of its own."),
    ({"time": "a", "ok": "a", "bucket": "b", "session": "b"},
     "time= and ok= name the same column 'a'; bucket= and session= name the same column 'b'; "
     "each needs a column of its own."),
    ({"time": "a", "ok": "a", "bucket": "a"},
     "time=, ok= and bucket= name the same column 'a'; each needs a column of its own."),
])
def test_the_api_names_the_shared_column_and_every_role(kwargs, want):
    with pytest.raises(ConfigError) as info:
        ReadSpec(**kwargs)
    assert str(info.value) == want


def test_the_outcome_column_is_no_role_beside_a_success_column():
    # with ok= the outcome column is not read: the duration may carry its name
    assert ReadSpec(ok="v", duration="outcome").duration == "outcome"


@pytest.mark.parametrize(("argv", "want"), [
    (["--ok", "value", "--duration", "value"],
     "--duration value is also the column of --ok; the duration needs a column of its own, not "
     "that of --time, --ok or --bucket."),
    (["--duration", "timestamp"],
     "--duration timestamp is also the column of --time; the duration needs a column of its "
     "own, not that of --time, --outcome or --bucket."),
    (["--outcome", "timestamp"], "--time and --outcome name the same column 'timestamp'; each "
     "needs a column of its own."),
])
def test_the_command_line_names_its_flags(tmp_path, capsys, argv, want):
    log = tmp_path / "log.csv"
    log.write_text("timestamp,value\n2026-01-01T00:00:00Z,1\n")
    assert main(["replay", str(log), "--time", "timestamp", *argv]) == 2
    assert capsys.readouterr().err == f"budgetlab: error: {want}\n"


def test_a_metric_series_whose_threshold_reads_the_time_column_names_those_two_flags(capsys):
    """The stranger's NAB run (``--time timestamp --ok-when 'timestamp<5'``), on the vendored NAB
    series (its columns are timestamp,value): the refusal names --time and --ok-when, never
    --bucket, which was not given."""
    argv = ["replay", str(NAB), "--time", "timestamp", "--ok-when", "timestamp<5"]
    assert main(argv) == 2
    assert capsys.readouterr().err == ("budgetlab: error: --time and --ok-when name the same "
                                       "column 'timestamp'; each needs a column of its own.\n")
