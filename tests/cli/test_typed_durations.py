"""A duration the user typed is echoed as typed: ``--window 90s`` stays ``90s`` in the run record
beside ``--out`` (its SLO said ``1m30s``) and in ``export openslo``'s refusal (it said
``--window 1m30s``); expected texts written by hand."""

from __future__ import annotations

import json

import pytest

from budgetlab.cli import main

LOG = ("ts,outcome\n2026-11-01T00:00:00Z,success\n2026-11-01T00:01:00Z,timeout\n"
       "2026-11-01T00:02:00Z,success\n2026-11-01T00:05:00Z,success\n")


@pytest.mark.parametrize("typed", ["90s", "1.5min", "90000ms"])
def test_the_run_record_keeps_the_window_as_typed(typed, tmp_path, capsys):
    (tmp_path / "log.csv").write_text(LOG)
    out = tmp_path / "tr.csv"
    assert main(["replay", str(tmp_path / "log.csv"), "--window", typed, "--out", str(out)]) == 0
    capsys.readouterr()
    record = json.loads((tmp_path / "tr.csv.run.json").read_text())
    assert record["parameters"]["window"] == typed
    assert record["slo"]["window"] == typed


def test_without_a_typed_window_the_record_keeps_the_compact_label(tmp_path, capsys):
    # the default window, 24 h, typed by no one: the table's label
    (tmp_path / "log.csv").write_text(LOG)
    out = tmp_path / "tr.csv"
    assert main(["replay", str(tmp_path / "log.csv"), "--out", str(out)]) == 0
    capsys.readouterr()
    record = json.loads((tmp_path / "tr.csv.run.json").read_text())
    assert record["parameters"]["window"] is None and record["slo"]["window"] == "1d"


@pytest.mark.parametrize("flag, typed", [("--window", "90s"), ("--period", "90s"),
                                         ("--window", "1.5min")])
def test_export_openslo_refuses_seconds_in_the_words_typed(flag, typed, tmp_path, capsys):
    assert main(["export", "openslo", "--target", "0.9", flag, typed,
                 str(tmp_path / "o.yaml")]) == 2
    assert capsys.readouterr().err == (
        f"budgetlab: error: argument {flag}: {typed} is not a whole number of minutes; OpenSLO "
        "durations have no seconds (see 'budgetlab export openslo --help')\n")
    assert not (tmp_path / "o.yaml").exists()


def test_export_openslo_takes_whole_minutes_given_in_seconds(tmp_path, capsys):
    # 120 s is 2 minutes: written as OpenSLO's 2m
    assert main(["export", "openslo", "--target", "0.9", "--window", "120s",
                 str(tmp_path / "o.yaml")]) == 0
    capsys.readouterr()
    assert "budgetlab/window: 2m" in (tmp_path / "o.yaml").read_text()
