"""A bad value of a duration, share or table-output flag is refused before the log is read
(cli/value_flags.py), one line, exit 2, nothing on stdout: before stop 58 ``alerts --grace abc``
and ``recalibrate --max-share 2`` read the whole log first, and ``replay --summary-out rec.json``
printed the whole replay before refusing the name; ``recalibrate --candidates-out cand.txt``
printed the whole recalibration, then refused the name without its flag.

Oracles: the sentences written by hand; "before the log is read" shown with a log that does not
exist (its refusal would come first were the log read first) and, for ``replay``, by an empty
stdout."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main


@pytest.fixture
def log(tmp_path):
    ts = pd.date_range("2026-03-02", periods=30, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": "success"}).to_csv(tmp_path / "log.csv", index=False)
    (tmp_path / "inc.csv").write_text("incident_id,start,end\n"
                                      "A,2026-03-02T00:02:00Z,2026-03-02T00:04:00Z\n")
    return tmp_path


CASES = {
    "alerts --grace": (["alerts", "{missing}", "--incidents", "{inc}", "--grace", "abc"],
                       "--grace abc is not a duration; give e.g. '24h', '90min', '7D' or '30s'."),
    "recalibrate --max-share": (["recalibrate", "{missing}", "--max-share", "2"],
                                "--max-share 2 must lie in (0, 1]; if 2 is a percentage, use a "
                                "fraction: --max-share 0.02."),
    # a number flag is echoed as typed (stop 60: "--warning 5.0", "--max-share 2.0" before)
    "replay --warning": (["replay", "{missing}", "--warning", "5"],
                         "--warning 5 must lie in [0, 1]; if 5 is a percentage, use a fraction: "
                         "--warning 0.05."),
    "replay --summary-out": (["replay", "{missing}", "--summary-out", "rec.json"],
                             "--summary-out rec.json must end in .csv or .parquet."),
    "incident --tiers-out": (["incident", "{missing}", "--incidents", "{inc}", "--id", "A",
                              "--tiers-out", "t.txt"],
                             "--tiers-out t.txt must end in .csv or .parquet."),
    # before, refused after the whole run, by the file alone: "'cand.txt': output must end in
    # .csv or .parquet."
    "recalibrate --candidates-out": (["recalibrate", "{missing}", "--candidates-out", "cand.txt"],
                                     "--candidates-out cand.txt must end in .csv or .parquet."),
    "incident --context": (["incident", "{missing}", "--incidents", "{inc}", "--id", "A",
                            "--context", "6"],
                           "--context 6 has no unit; write one: '6s' (seconds), '6min', '6h' or "
                           "'6D'."),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_value_is_refused_before_the_log_is_read(case, log, monkeypatch, capsys):
    monkeypatch.chdir(log)
    argv, said = CASES[case]
    argv = [a.format(missing=str(log / "absent.csv"), inc=str(log / "inc.csv")) for a in argv]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"budgetlab: error: {said}\n"


def test_replay_prints_nothing_before_refusing_its_summary_name(log, monkeypatch, capsys):
    monkeypatch.chdir(log)
    assert main(["replay", "log.csv", "--summary-out", "rec.json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "budgetlab: error: --summary-out rec.json must end in .csv or .parquet.\n"


def test_recalibrate_prints_nothing_before_refusing_its_candidates_name(log, monkeypatch,
                                                                      capsys):
    monkeypatch.chdir(log)
    assert main(["recalibrate", "log.csv", "--candidates-out", "cand.txt"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "budgetlab: error: --candidates-out cand.txt must end in .csv or .parquet.\n"


def test_good_values_still_run(log, monkeypatch, capsys):
    monkeypatch.chdir(log)
    assert main(["replay", "log.csv", "--summary-out", "rec.csv"]) == 0
    assert (log / "rec.csv").is_file()
