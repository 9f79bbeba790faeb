"""A bad ``--incidents`` file is refused before the log is read (a sitekey-scale log took 2 s to
read before compare-windows named a missing incidents file): the log here has no time column, so a
command that read the log first would complain about the log, not about the incidents."""

from __future__ import annotations

import pytest

from budgetlab.cli import main

MISSING = ("budgetlab: error: 'missing_incidents.csv': no such file; give the incidents as a CSV "
           "file (incident_id,start,end[,scope,kind]).\n")


@pytest.mark.parametrize("command", [
    ["replay", "log.csv"],
    ["compare-windows", "log.csv", "--windows", "1h,24h"],
    ["alerts", "log.csv"],
    ["incident", "log.csv"],
])
def test_a_missing_incidents_file_is_refused_before_the_log(command, tmp_path, monkeypatch,
                                                             capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.csv").write_text("when,result\n2026-01-05T01:00:00Z,success\n")
    assert main([*command, "--incidents", "missing_incidents.csv"]) == 2
    assert capsys.readouterr().err == MISSING


def test_the_log_alone_is_refused_for_its_columns(tmp_path, monkeypatch, capsys):
    """The check above would prove nothing with a log that reads: this one cannot."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.csv").write_text("when,result\n2026-01-05T01:00:00Z,success\n")
    assert main(["replay", "log.csv"]) == 2
    assert "no column 'ts'" in capsys.readouterr().err


def test_incident_takes_the_file_or_start_and_end_not_both(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.csv").write_text("ts,outcome\n2026-01-05T01:00:00Z,success\n")
    (tmp_path / "inc.csv").write_text("incident_id,start,end\nA,2026-01-05T01:00Z,"
                                      "2026-01-05T02:00Z\n")
    assert main(["incident", "log.csv", "--incidents", "inc.csv", "--start",
                 "2026-01-05T01:00Z"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "budgetlab: error: give the incident either as --start/--end or as --incidents FILE, "
        "not both.")


def test_plot_of_several_incidents_is_refused_before_the_log(tmp_path, monkeypatch, capsys):
    """``--plot`` draws one incident: a file of two without ``--id`` is refused before the log is
    read (this log has no time column: read first, it would be refused for that)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.csv").write_text("when,result\n2026-01-05T01:00:00Z,success\n")
    (tmp_path / "inc.csv").write_text("incident_id,start,end\nA,2026-01-05T01:00Z,2026-01-05T02:00Z"
                                      "\nB,2026-01-05T03:00Z,2026-01-05T04:00Z\n")
    assert main(["incident", "log.csv", "--incidents", "inc.csv", "--plot", "inc.png"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "budgetlab: error: --plot draws one incident and inc.csv holds 2; pick one with --id.")
    assert not (tmp_path / "inc.png").exists()


def test_an_unknown_id_is_refused_before_the_log(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.csv").write_text("when,result\n2026-01-05T01:00:00Z,success\n")
    (tmp_path / "inc.csv").write_text("incident_id,start,end\nA,2026-01-05T01:00Z,"
                                      "2026-01-05T02:00Z\n")
    assert main(["incident", "log.csv", "--incidents", "inc.csv", "--id", "Z"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "budgetlab: error: --id: no incident with this id in inc.csv; see its incident_id column.")
