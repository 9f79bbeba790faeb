"""Refusals of the command line that no test read before (a coverage pass listed them): each is
one line on stderr naming the command's own flags, exit 2, no traceback, and says what to fix.

Oracle: the words are written here by hand from what each flag means (its --help); where the
words were changed with these tests (backtest's --policy named twice, --start after the default
--end; an access log beside an event table), the old words said less: not which name was
repeated, "--end" when no --end was given, not which input was which kind.

backtest's refusals come before the server is asked: the client is replaced by one that fails the
test when it is made (and the URL is a closed port besides)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

SERVER = ["backtest", "--prometheus", "http://127.0.0.1:9"]
COUNTERS = ["--total", "t", "--errors", "e", "--target", "0.99"]


@pytest.fixture
def no_server(monkeypatch):
    """A client that fails the test when made: a refusal must come before any request."""
    from budgetlab.interop import prometheus_http

    def asked(*_a, **_k):
        pytest.fail("the server was asked before the refusal")

    monkeypatch.setattr(prometheus_http.PrometheusClient, "__init__", asked)


def _refused(argv, capsys):
    """The one line ``argv`` is refused with (exit 2, nothing on stdout, no traceback)."""
    assert main(argv) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert "Traceback" not in printed.err
    lines = printed.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("budgetlab: error: "), printed.err
    return lines[0].removeprefix("budgetlab: error: ")


@pytest.mark.parametrize(("argv", "words"), [
    ([*COUNTERS, "--policy", "workbook", "--start", "2026-01-02", "--end", "2026-01-01"],
     "--end must be after --start."),
    ([*COUNTERS, "--policy", "workbook", "--start", "2026-01-02", "--end", "2026-01-02"],
     "--end must be after --start."),
    # no --end given: its default (now) is named, not "--end must be after"
    ([*COUNTERS, "--policy", "workbook", "--start", "2200-01-01"],
     "--start is not before the default --end (now, floored to a --freq bin); give an earlier "
     "--start, or an --end after it."),
    ([*COUNTERS, "--policy", "workbook", "--header", "no colon here"],
     "--header takes 'Name: value' (e.g. 'Authorization: Bearer ...')."),
    ([*COUNTERS, "--policy", "workbook", "--header", ": a value without a name"],
     "--header takes 'Name: value' (e.g. 'Authorization: Bearer ...')."),
    (["--histogram", "h", "--slow-above", "1s"],
     "give --target (e.g. --target 0.99) with --histogram."),
    (["--total", "t", "--errors", "e"], "give --target (e.g. --target 0.999) with --total."),
    ([*COUNTERS, "--policy", "workbook,sloth,workbook"],
     "--policy lists workbook twice; give each policy once."),
    ([*COUNTERS, "--policy", "pyrra, pyrra"], "--policy lists pyrra twice; give each policy once."),
])
def test_backtest_refuses_before_the_server_is_asked(argv, words, no_server, capsys):
    assert _refused([*SERVER, *argv], capsys) == words


@pytest.fixture
def log(tmp_path):
    """An event table: one success a minute for 3 h from 2026-01-05 00:00 UTC."""
    path = tmp_path / "log.csv"
    ts = pd.date_range("2026-01-05", periods=180, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": "success",
                  "duration": 0.5}).to_csv(path, index=False)
    return path


@pytest.fixture
def incidents(tmp_path):
    path = tmp_path / "incidents.csv"
    path.write_text("incident_id,start,end\ni1,2026-01-05T01:00:00Z,2026-01-05T01:10:00Z\n")
    return path


def test_alerts_refuses_a_policy_named_twice(log, incidents, capsys):
    words = _refused(["alerts", str(log), "--incidents", str(incidents), "--target", "0.9",
                      "--policy", "workbook, workbook"], capsys)
    assert words == "--policy lists a policy twice; give each once."


@pytest.mark.parametrize("end", ["2026-01-05T01:00:00Z", "2026-01-05T02:00:00Z"])
def test_incident_refuses_an_end_not_after_its_start(log, end, capsys):
    words = _refused(["incident", str(log), "--target", "0.9", "--start",
                      "2026-01-05T02:00:00Z", "--end", end], capsys)
    assert words == "--end must be after --start (the incident is [--start, --end))."


@pytest.mark.parametrize(("argv", "words"), [
    (["openslo", "OUT", "--from", "a.yaml", "--from-recalibration", "b.csv"],
     "give at most one of --from and --from-recalibration."),
    (["openslo", "OUT", "--target", "0.99", "--total-metric", "t"],
     "give both --total-metric and --errors-metric for the SLI, or neither."),
    (["openslo", "OUT", "--target", "0.99", "--errors-metric", "e"],
     "give both --total-metric and --errors-metric for the SLI, or neither."),
    (["prometheus", "OUT", "--target", "0.99", "--total-metric", "t"],
     "give both --total-metric and --errors-metric for the SLI, or neither."),
])
def test_export_refuses_half_a_pair_and_two_sources(argv, words, tmp_path, capsys):
    out = tmp_path / "out.yaml"
    argv = [str(out) if a == "OUT" else a for a in argv]
    assert _refused(["export", *argv], capsys) == words
    assert not out.exists()


@pytest.mark.parametrize(("argv", "words"), [
    (["--thresholds", ","], "--thresholds names no threshold; give e.g. --thresholds 10s,20s,30s."),
    (["--thresholds", " , "],
     "--thresholds names no threshold; give e.g. --thresholds 10s,20s,30s."),
    (["--thresholds", "1s", "--quantiles", "abc"],
     "--quantiles abc: abc is not a number; give fractions such as --quantiles 0.5,0.9,0.99."),
    (["--thresholds", "1s", "--quantiles", "0.5,x"],
     "--quantiles 0.5,x: x is not a number; give fractions such as --quantiles 0.5,0.9,0.99."),
])
def test_latency_refuses_empty_thresholds_and_words_for_quantiles(argv, words, log, capsys):
    assert _refused(["latency", str(log), "--duration", "duration", *argv], capsys) == words


@pytest.mark.parametrize("windows", [",", " , "])
def test_compare_windows_refuses_a_list_of_no_window(windows, log, capsys):
    words = _refused(["compare-windows", str(log), "--target", "0.9", "--windows", windows],
                     capsys)
    assert words == "--windows names no window; give e.g. --windows 1h,24h."


def test_an_access_log_beside_an_event_table_is_refused_by_name(log, tmp_path, capsys):
    access = tmp_path / "access.log"
    access.write_text('192.0.2.1 - - [05/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 12 "-" '
                      '"ua"\n')
    words = _refused(["replay", str(access), str(log), "--target", "0.9"], capsys)
    assert words == ("the inputs mix access logs ('access.log') and event tables ('log.csv'); "
                     "give one kind per run.")


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf"])
def test_notebooks_refuses_a_timeout_not_above_zero(timeout, tmp_path, capsys):
    html = tmp_path / "html"
    words = _refused(["notebooks", "--html", str(html), "--timeout", timeout], capsys)
    assert words == (f"--timeout {timeout} must be a finite number of seconds > 0 (the longest "
                     "one cell may run), e.g. --timeout 600.")
    assert not html.exists()


def test_notebooks_reads_timeout_before_looking_for_papermill(tmp_path, capsys, monkeypatch):
    """A bad --timeout is said as such, not as a missing tool (the tools' check comes after)."""
    from budgetlab.cli import notebooks
    from budgetlab.errors import ConfigError

    def missing():
        raise ConfigError("budgetlab notebooks needs papermill and nbconvert (papermill is "
                          "missing)")

    monkeypatch.setattr(notebooks, "_tools", missing)
    words = _refused(["notebooks", "--html", str(tmp_path / "html"), "--timeout", "inf"], capsys)
    assert words.startswith("--timeout inf must be a finite number of seconds > 0")
