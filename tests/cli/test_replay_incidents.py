"""``budgetlab replay --incidents FILE`` (issue 16 follow-up): the incidents are listed after the
summary and drawn on the timeline (only in the panels their scope covers); the file is an input
of the run (never overwritten, even with --force) and is recorded in the run record; a malformed
file is refused in one line before the log is read.

Oracles: the rows of the hand-written incidents file, reformatted by hand; the incident spans as
matplotlib date numbers of the hand-written times; hashlib over the file's bytes.
"""

from __future__ import annotations

import hashlib
import json

import matplotlib.dates as mdates
import pandas as pd
import pytest

from budgetlab.cli import main

INCIDENTS = (
    "incident_id,kind,start,end,scope,severity\n"
    "I1,outage,2026-01-01T02:00:00Z,2026-01-01T03:30:00Z,kind=a,high\n"
    "I2,slow_solve,2026-01-01T05:15:00+01:00,2026-01-01T06:00:00+01:00,,low\n"
)


@pytest.fixture
def files(tmp_path):
    """A two-group log (one event a minute per group over 8 hours, group a failing 02:00-03:30)
    and the incidents file above."""
    ts = pd.date_range("2026-01-01", periods=8 * 60, freq="min", tz="UTC")
    fail = (ts >= pd.Timestamp("2026-01-01 02:00",
                               tz="UTC")) & (ts < pd.Timestamp("2026-01-01 03:30", tz="UTC"))
    a = pd.DataFrame({"ts": ts, "kind": "a",
                      "outcome": ["timeout" if f else "success" for f in fail]})
    b = pd.DataFrame({"ts": ts, "kind": "b", "outcome": "success"})
    log = tmp_path / "log.csv"
    pd.concat([a, b]).sort_values("ts", kind="stable").assign(ts=lambda d: d["ts"].dt.strftime(
        "%Y-%m-%dT%H:%M:%SZ")).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text(INCIDENTS)
    return log, inc


def replay_argv(log, inc, *more):
    return ["replay", str(log), "--window", "1h", "--by", "kind", "--incidents", str(inc), *more]


def test_the_incident_rows_are_printed_after_the_summary(files, capsys):
    log, inc = files
    assert main(replay_argv(*files)) == 0
    out = capsys.readouterr().out
    # the heading names the file as typed, filled to 100 columns (a path stays whole)
    # (a long path on a line of its own: under xdist the temporary folder's name is longer)
    heading = f"Incidents (2 in {inc}; times UTC)"
    assert out.index("Summary") < out.index("Incidents (2") < out.index("Transitions")
    block = out.split("Incidents (")[1].split("\n\n")[0].splitlines()
    first = next(i for i, ln in enumerate(block) if ln.split()[:1] == ["incident_id"])
    assert ("Incidents (" + " ".join(block[:first])).split() == heading.split()
    section = block[first:]
    # by hand: id, kind, start, end (UTC, to the minute; I2 was written at +01:00), scope ('*' when
    # empty)
    assert [ln.split() for ln in section] == [
        ["incident_id", "kind", "start", "end", "scope"],
        ["I1", "outage", "2026-01-01", "02:00", "2026-01-01", "03:30", "kind=a"],
        ["I2", "slow_solve", "2026-01-01", "04:15", "2026-01-01", "05:00", "*"],
    ]
    assert "severity" not in out and "note:" not in out  # both lie in the log's span
    assert main(["replay", str(log), "--window", "1h", "--by", "kind"]) == 0
    assert "Incidents" not in capsys.readouterr().out  # nothing without the option


def test_incidents_outside_the_logs_span_are_noted(files, tmp_path, capsys):
    log, _ = files
    late = tmp_path / "late.csv"
    late.write_text("incident_id,start,end\nL1,2026-02-01T00:00:00Z,2026-02-01T01:00:00Z\n")
    assert main(replay_argv(log, late)) == 0
    out = capsys.readouterr().out
    assert ("note: the one incident lies outside the log's span (2026-01-01 00:00 .. 2026-01-01 "
            "07:59 UTC)") in out  # it said "1 of 1 incident"


def test_the_timeline_draws_each_incident_in_the_panels_its_scope_covers(files, tmp_path,
                                                                         monkeypatch, capsys):
    import budgetlab._util.figures as bfiles

    saved = {}
    real = bfiles.figure_bytes  # every plot is encoded through it

    def keep(fig, path, **kw):
        saved["spans"] = [sorted((round(p.get_x(), 9), round(p.get_x() + p.get_width(), 9))
                                 for p in ax.patches if p.get_gid() == "incident")
                          for ax in fig.axes if ax.get_title(loc="left")]
        saved["titles"] = [ax.get_title(loc="left") for ax in fig.axes if ax.get_title(loc="left")]
        return real(fig, path, **kw)

    monkeypatch.setattr(bfiles, "figure_bytes", keep)
    plot = tmp_path / "t.png"
    assert main(replay_argv(*files, "--plot", str(plot))) == 0
    assert plot.stat().st_size > 0

    def num(text):  # matplotlib's date number of a UTC time (the axis is naive UTC)
        return round(float(mdates.date2num(pd.Timestamp(text).tz_convert(None).to_pydatetime())), 9)

    i1 = (num("2026-01-01T02:00:00Z"), num("2026-01-01T03:30:00Z"))
    i2 = (num("2026-01-01T04:15:00Z"), num("2026-01-01T05:00:00Z"))
    assert saved["titles"] == ["kind=a", "kind=b"]
    assert saved["spans"] == [[i1, i2], [i2]]  # I1 is scoped to kind=a; I2 (scope *) is everywhere
    capsys.readouterr()


@pytest.mark.parametrize(("text", "needle"), [
    ("incident_id,start,end\nI1,2026-01-01T02:00:00Z,yesterday\n",
     "column 'end' holds no ISO 8601 time in row 1"),
    ("incident_id,start\nI1,2026-01-01T02:00:00Z\n", "has no column 'end'"),
    ("incident_id,start,end,scope\nI1,2026-01-01T02:00:00Z,2026-01-01T03:00:00Z,kind\n",
     "not of the form key=value"),
    ("", "is empty"),
])
def test_a_malformed_incidents_file_is_refused_in_one_line_before_the_log_is_read(files, text,
                                                                                  needle, capsys):
    log, inc = files
    inc.write_text(text)
    assert main(replay_argv(log, inc)) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("budgetlab: error: "
                                                   "'incidents.csv': ") and needle in err, err
    assert out == "" and "how it was read" not in err


def test_a_missing_incidents_file_is_refused_in_one_line(files, tmp_path, capsys):
    log, _ = files
    assert main(replay_argv(log, tmp_path / "nope.csv")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


@pytest.mark.parametrize("option", ["--out", "--plot"])
def test_the_incidents_file_is_never_an_output_even_with_force(files, tmp_path, option, capsys):
    log, inc = files
    target = inc
    if option == "--plot":  # a plot needs a plot suffix: an incidents table saved as .svg
        target = tmp_path / "inc.svg"
        target.write_text(INCIDENTS)
    before = target.read_bytes()
    for name in (str(target), str(tmp_path / "sub" / ".." / target.name)):
        (tmp_path / "sub").mkdir(exist_ok=True)
        assert main(replay_argv(log, target, option, name, "--force")) == 2
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and "is an input of this run" in err, err
        assert target.read_bytes() == before and out == ""


def test_the_run_record_names_and_hashes_the_incidents_file(files, tmp_path, capsys):
    log, inc = files
    out = tmp_path / "tr.csv"
    assert main(replay_argv(log, inc, "--out", str(out))) == 0
    record = json.loads((tmp_path / "tr.csv.run.json").read_text())
    assert record["parameters"]["incidents"] == "incidents.csv"
    assert record["inputs"][1] == {"name": "incidents.csv", "bytes": len(INCIDENTS.encode()),
                                   "sha256": hashlib.sha256(INCIDENTS.encode()).hexdigest()}
    assert record["inputs"][0]["name"] == "log.csv"
    capsys.readouterr()
