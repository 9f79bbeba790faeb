"""The command line's reading flags where there is no command line (budgetlab.cli.read_flags):
``read_options`` parses them with the commands' own parser into the ReadSpec written out by hand
here; ``read_source`` reads a notebook's ``source`` with them, and its refusals name the flags and
the ``read`` parameter. Counts are checked against logs written here or counted by hand (grep,
awk) in the fixtures."""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli.read_flags import read_options, read_source, source_incidents
from budgetlab.errors import BudgetlabWarning, ConfigError, DatasetError, SchemaError
from budgetlab.events.spec import ReadSpec

ROOT = Path(__file__).resolve().parents[2]
SSH = ROOT / "tests" / "fixtures" / "loghub" / "openssh_300.log"
ACCESS = ROOT / "tests" / "fixtures" / "elastic_apache" / "apache_logs"


@pytest.mark.parametrize(("text", "want"), [
    (None, ReadSpec()),
    ("", ReadSpec()),
    ("--time timestamp --ok-when 'value<50'", ReadSpec(time="timestamp", ok_when="value<50")),
    ("--preset sshd --year 2026", ReadSpec(preset="sshd", year=2026)),
    # a backslash is kept as written, quoted or not: the regular expression reads the same
    (r"--pattern '^(?P<ts>\S+ \S+) (?P<outcome>\w+)' --time-format '%Y-%m-%d %H:%M:%S'",
     ReadSpec(pattern=r"^(?P<ts>\S+ \S+) (?P<outcome>\w+)", time_format="%Y-%m-%d %H:%M:%S")),
    (r"--pattern ^(?P<ts>\S+)\s(?P<outcome>\w+)",
     ReadSpec(pattern=r"^(?P<ts>\S+)\s(?P<outcome>\w+)")),
    ('--outcomes "done=success,pending=skip" --tz Europe/Berlin',
     ReadSpec(outcomes={"done": "success", "pending": "skip"}, tz="Europe/Berlin")),
    ("--preset sshd --year 2026 --strict", ReadSpec(preset="sshd", year=2026, on_error="raise")),
    ("--ok done --bucket kind --epoch ms --format csv --encoding latin-1",
     ReadSpec(ok="done", bucket="kind", epoch="ms", format="csv", encoding="latin-1")),
    ("--time=t --duration took --duration-unit ms --slow-above 2s",
     ReadSpec(time="t", duration="took", duration_unit="ms", slow_above="2s")),
])
def test_read_options_are_the_command_lines(text, want):
    assert read_options(text) == want


@pytest.mark.parametrize(("text", "named"), [
    ("--window 1h", "--window is not a reading flag"),
    ("--by region", "--by is not a reading flag"),
    ("--time ts --plot=x.png", "--plot is not a reading flag"),
    ("--out x", "--out is not a reading flag"),  # no abbreviation of --outcome(s)
    ("--tim ts", "--tim is not a reading flag"),
    ("-h", "-h is not a reading flag"),
    ("--time-format %b %d", "'%d' follows no flag"),
    ("--time-format '%b %d", "no closing quotation"),
    ("--epoch x", "argument --epoch: invalid choice: 'x'"),
    ("--time", "argument --time: expected one argument"),
])
def test_a_flag_that_is_not_a_reading_flag_is_refused_by_name(text, named):
    with pytest.raises(ConfigError, match="^read: ") as err:
        read_options(text)
    assert named in str(err.value)


def test_refusals_of_the_options_name_flags_not_keywords():
    with pytest.raises(ConfigError) as err:
        read_options("--ok-when value<50 --outcomes a=success")
    assert str(err.value).startswith("--ok-when and --outcomes both say what a success is")
    with pytest.raises(ConfigError, match="^--format access: an access log is read by"):
        read_options("--format access")


def test_a_metric_series_is_read_by_the_flags_in_read(metric_series, capsys):
    """The series of tests/conftest.py: 864 rows, 87 of them at or above 50."""
    events = read_source(str(metric_series), "--time timestamp --ok-when 'value<50'")
    assert len(events) == 864 and int(events["ok"].sum()) == 864 - 87
    assert str(events["ts"].iloc[-1]) == "2026-03-04 23:55:00+00:00"
    shown = capsys.readouterr().out
    # the "how it was read" block, in the words of the flags
    assert shown.startswith("how it was read: latency.csv (864 rows)")
    assert "outcomes: column 'value' < 50 (--ok-when): 777 success, 87 failure" in shown


def test_a_refusal_names_the_flag_and_the_read_parameter(metric_series):
    with pytest.raises(SchemaError) as err:
        read_source(str(metric_series))
    assert str(err.value) == (
        "latency.csv has no column 'ts' (the time column: name the right one with --time). "
        "Columns present: 'timestamp', 'value'. (A notebook takes --time in its parameter read, "
        "as the command line writes it.)")
    with pytest.raises(SchemaError) as err:
        read_source(str(metric_series), "--time timestamp")
    said = str(err.value)
    assert "--ok-when 'value<THRESHOLD'" in said and "ok_when=" not in said
    assert said.endswith("(A notebook takes --outcome, --ok and --ok-when in its parameter read, "
                         "as the command line writes them.)")


def test_a_flag_given_as_a_notebook_parameter_is_named_as_that_parameter(metric_series):
    """Notebook 05 takes the duration column as its own parameter ``duration``: a refusal of it
    says so, never to write ``--duration`` in ``read`` (where it would be refused as given
    twice)."""
    with pytest.raises(SchemaError) as err:
        read_source(str(metric_series), "--time timestamp --ok-when 'value<50'",
                    duration="request_time", duration_unit="s")
    said = str(err.value)
    assert said.startswith("latency.csv has no column 'request_time'")
    assert said.endswith("(This notebook takes --duration as its parameter duration.)")
    assert "in its parameter read" not in said


def test_a_missing_group_column_names_the_notebooks_group_parameters(metric_series):
    """A group key the log lacks is one of the notebook's group parameters (``by``,
    ``split_by``): the refusal says so, never "declared in by" (a parameter's name as a word)."""
    with pytest.raises(SchemaError) as err:
        read_source(str(metric_series), "--time timestamp --ok-when 'value<50'", by="region")
    assert str(err.value) == (
        "latency.csv has no column 'region' (declared in the notebook's group parameters: give "
        "the name the file uses). Columns present: 'timestamp', 'value' only (the time column and "
        "the metric column of the threshold).")


def test_a_refused_group_key_names_the_notebook_parameter_that_gave_it(metric_series):
    """Notebook 03 reads ``by`` and ``split_by`` (04: ``scope_column``, ``breakdown_by``) as its
    group keys: given as a dict of its parameters, a refusal names the parameter its user set,
    where it said ``by=['captcha_type', 'region,host']`` whatever parameter gave the key."""
    read = "--time timestamp --ok-when 'value<50'"
    with pytest.raises(ConfigError) as err:
        read_source(str(metric_series), read, by={"by": "captcha_type", "split_by": "region,host"})
    assert str(err.value) == ("split_by='region,host': a group key is the name of one column of "
                              "the log; give split_by a column name, or None.")
    with pytest.raises(ConfigError) as err:
        read_source(str(metric_series), read, by={"scope_column": None, "breakdown_by": ""})
    assert str(err.value) == ("breakdown_by='': a group key is the name of one column of the "
                              "log; give breakdown_by a column name, or None.")
    # a column the log lacks: declared in the one parameter given, or in those given
    with pytest.raises(SchemaError) as err:
        read_source(str(metric_series), read, by={"by": None, "split_by": "region"})
    assert str(err.value) == (
        "latency.csv has no column 'region' (declared in the notebook's parameter split_by: give "
        "the name the file uses). Columns present: 'timestamp', 'value' only (the time column and "
        "the metric column of the threshold).")
    # captcha_type is by's alone (split_by gave region): only by is named
    with pytest.raises(SchemaError, match=r"^latency\.csv has no column 'captcha_type' \(declared "
                                          "in the notebook's parameter by: "):
        read_source(str(metric_series), read, by={"by": "captcha_type", "split_by": "region"})
    with pytest.raises(SchemaError) as err:  # a shipped dataset's refusal, too
        read_source("demo", by={"by": None, "split_by": "regoin"})
    assert str(err.value) == ("the notebook's parameter split_by: dataset 'demo' has no group "
                              "column 'regoin'; its group columns are captcha_type, region, "
                              "sitekey.")


def test_a_dict_of_group_parameters_reads_the_keys_of_those_given(metric_series, tmp_path):
    """A parameter at None gives no key: 03's ``by=None, split_by=None`` reads no group column
    (the 864 rows of the series, 87 of them at 60: conftest); the others are read, in the dict's
    order."""
    read = "--time timestamp --ok-when 'value<50'"
    events = read_source(str(metric_series), read, by={"by": None, "split_by": None}, show=False)
    assert list(events.columns) == ["ts", "ok", "bucket"]
    assert len(events) == 864 and int((~events["ok"]).sum()) == 87
    log = tmp_path / "two.csv"
    log.write_text("ts,outcome,host,region,sitekey\n2026-01-01T00:00:00Z,success,h1,eu,k1\n"
                   "2026-01-01T00:01:00Z,timeout,h2,us,k1\n", encoding="utf-8")
    events = read_source(str(log), by={"by": "region", "split_by": None, "more": "host"},
                         show=False)
    assert list(events.columns) == ["ts", "ok", "bucket", "region", "host"]
    assert events["host"].astype(str).tolist() == ["h1", "h2"]


def test_a_warning_of_the_read_names_what_the_notebook_takes(tmp_path):
    """A warning raised inside a notebook's read is reworded as its refusals are: the id-like
    group key is dropped from the notebook's group parameters, never from ``--by`` (a flag the
    notebook has not) nor ``by=``; the API keeps its keyword. Hand-built: 1,200 rows, each its
    own request_id (100 % distinct, above the 50 % of ``ID_LIKE_SHARE``)."""
    ts = pd.date_range("2026-11-29", periods=1200, freq="1min", tz="UTC")
    log = tmp_path / "ids.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success",
                  "request_id": [f"req-{i:05d}" for i in range(1200)]}).to_csv(log, index=False)
    head = ("group key 'request_id' has 1,200 distinct values over 1,200 rows (100 %): it looks "
            "like an id, not a group, and each group would hold one or two events; drop it from ")
    with pytest.warns(BudgetlabWarning) as notebook:
        read_source(str(log), by="request_id", show=False)
    assert [str(w.message) for w in notebook] == [
        head + "the notebook's group parameters or group by a coarser key."]
    assert notebook[0].filename == __file__  # said at the notebook's call, not inside budgetlab
    with warnings.catch_warnings(record=True) as api:
        warnings.simplefilter("always")
        read_events(log, by="request_id")
    assert [str(w.message) for w in api] == [head + "by= or group by a coarser key."]


def test_a_text_log_by_preset_and_year():
    """openssh_300.log: 66 lines of the sshd preset's form (grep -cE 'sshd\\[[0-9]+\\]:
    (Accepted|Failed) \\S+ for'), one of them Accepted; all of them on host LabSZ."""
    events = read_source(str(SSH), "--preset sshd --year 2026", by="host", show=False)
    assert len(events) == 66 and int(events["ok"].sum()) == 1
    assert events["host"].astype(str).unique().tolist() == ["LabSZ"]
    assert str(events["ts"].iloc[0]) == "2026-12-10 09:18:06+00:00"


def test_log_format_and_outcomes_are_the_flags_of_their_own():
    """The Elastic sample access log: 10,000 requests; by status class (awk on field 9) 9,171
    2xx, 609 3xx, 217 4xx (skipped here) and 3 5xx."""
    events = read_source(str(ACCESS), by="method", log_format="access", show=False,
                         outcomes="2xx:success,3xx:success,4xx:skip,5xx:server_error")
    assert len(events) == 9_171 + 609 + 3 and int((~events["ok"]).sum()) == 3
    assert list(events.columns) == ["ts", "ok", "bucket", "method"]
    with pytest.raises(ConfigError, match="^the parameter outcomes and --outcomes in read both"):
        read_source(str(ACCESS), "--outcomes 2xx=success", outcomes="2xx:success")
    with pytest.raises(ConfigError, match="^the parameter log_format and --format in read both"):
        read_source(str(ACCESS), "--format=access", log_format="access")


def test_a_dataset_name_takes_no_reading_flags():
    assert len(read_source("demo", by="captcha_type")) == 207_980  # data/README.md
    with pytest.raises(ConfigError, match="^read applies to a log file, not to the shipped "
                                          "dataset 'demo'"):
        read_source("demo", "--time timestamp")
    with pytest.raises(DatasetError, match="is neither a dataset name"):
        read_source("outcomes_4x")
    with pytest.raises(ConfigError, match=r"^by=\['captcha_type', None\]: each group key"):
        read_source("demo", by=["captcha_type", None])


def _events(*times: str) -> pd.DataFrame:
    return pd.DataFrame({"ts": pd.to_datetime(list(times), utc=True)})


def test_source_incidents_refuses_labels_of_another_log():
    """Notebook 02's default incidents (the shipped incidents_4w: 2026-10-06 13:20 to the end of
    its data, 2026-11-02, data/README.md) beside the Elastic log's May 2015 were all scored
    "unseen"; now they are refused, with the fix."""
    events = _events("2015-05-17 10:05", "2015-05-20 21:05")
    with pytest.raises(ConfigError) as err:
        source_incidents("incidents_4w", events)
    assert str(err.value) == (
        "incidents='incidents_4w': none of its 7 incidents (2026-10-06 13:20 .. 2026-11-02 00:00 "
        "UTC) overlaps the log (2015-05-17 10:05 .. 2015-05-20 21:05 UTC): they label another "
        "log. Set incidents=None, or give the incidents of this log.")
    with pytest.raises(ConfigError, match=r"^incident_labels='incidents_4w': .* Set "
                                          r"incident_labels=None"):
        source_incidents("incidents_4w", events, name="incident_labels")


# The log's first event at 10:05:30, its last at 21:05:10: scoring bins it by the minute
# (notebook 02: bin_events(events, "1min")), so the span the alerts are scored over runs from
# 10:05:00 to 21:06:00, the end exclusive, as is an incident's end.
_LOG = ("2015-05-17 10:05:30", "2015-05-20 21:05:10")


@pytest.mark.parametrize(("start", "end", "kept"), [
    ("2015-05-17T09:00:00Z", "2015-05-17T10:05:00Z", False),  # ends where the span begins
    ("2015-05-17T09:00:00Z", "2015-05-17T10:05:01Z", True),  # 1 s into its first minute
    ("2015-05-17T10:05:10Z", "2015-05-17T10:05:20Z", True),  # in the first minute, before the
    # first event: scoring counts it (the first bin holds it)
    ("2015-05-20T21:05:59Z", "2015-05-20T22:00:00Z", True),  # begins in the last event's minute
    ("2015-05-20T21:06:00Z", "2015-05-20T22:00:00Z", False),  # begins where the span ends
])
def test_source_incidents_one_overlap_rule_with_scoring(tmp_path, start, end, kept):
    """One rule with the scoring of alerts (alerts.score_inputs.outside_span, end exclusive):
    the notebooks refuse labels exactly when scoring the one-minute bins of the log would leave
    every incident out (attrs["incidents_outside"] counts the one incident)."""
    import budgetlab as bl

    path = tmp_path / "inc.csv"
    path.write_text(f"incident_id,start,end,scope\nB,{start},{end},*\n")
    events = _events(*_LOG)
    if kept:
        assert source_incidents(str(path), events)["incident_id"].tolist() == ["B"]
    else:
        with pytest.raises(ConfigError, match="none of its 1 incident "):
            source_incidents(str(path), events)
    bins = bl.bin_events(bl.events.as_events(events["ts"], [True, True]), "1min")
    policy = bl.AlertPolicy.single_window("1h", 0.9, period="28D")
    scores = bl.score_alerts(bl.alert_episodes(bins, 0.95, policy),
                             bl.datasets.load(str(path), kind="incidents"), bins=bins, target=0.95)
    assert scores.attrs["incidents_outside"] == (0 if kept else 1)


def test_source_incidents_keeps_labels_one_of_which_overlaps(tmp_path):
    """One incident of two overlaps the log: the table is returned whole (the scores say which
    incident lies outside); None stays None."""
    path = tmp_path / "inc.csv"
    path.write_text("incident_id,start,end,scope\n"
                    "A,2015-05-01T00:00:00Z,2015-05-02T00:00:00Z,*\n"
                    "B,2015-05-17T09:00:00Z,2015-05-17T10:06:00Z,*\n")
    got = source_incidents(str(path), _events(*_LOG))
    assert got["incident_id"].tolist() == ["A", "B"]
    with pytest.raises(ConfigError, match="none of its 2 incidents"):
        source_incidents(str(path), _events("2015-05-17 10:06", "2015-05-20 21:05"))
    assert source_incidents(None, _events("2015-05-17 10:05")) is None
