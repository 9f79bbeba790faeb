"""A table output with a suffix budgetlab cannot write is refused before the work (issue 30,
point 2: outputs are checked before anything is read): the log named here does not exist, so a
command that read first would complain about the log, not about ``--out``."""

from __future__ import annotations

import pytest

from budgetlab.cli import main

EXPECTED = ("budgetlab: error: --out: a table is written as .csv or .parquet (the format follows "
            "the suffix); choose one of these suffixes.\n")


@pytest.mark.parametrize("command", [
    ["demo"],
    ["replay", "missing.csv"],
    ["recalibrate", "missing.csv"],
    ["compare-windows", "missing.csv", "--windows", "1h,24h"],
    ["buckets", "missing.csv"],
    ["latency", "missing.csv", "--duration", "ms", "--thresholds", "1s"],
    ["alerts", "missing.csv", "--incidents", "missing_incidents.csv"],
    ["incident", "missing.csv", "--start", "2026-01-05T01:00Z", "--end", "2026-01-05T02:00Z"],
])
@pytest.mark.parametrize("name", ["al_out", "scores.txt", "table.CSV.bak"])
def test_a_table_named_without_csv_or_parquet_is_refused_first(command, name, tmp_path,
                                                               monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--out", name]) == 2
    assert capsys.readouterr().err == EXPECTED
    assert not any(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("name", ["t.csv", "t.parquet", "T.CSV"])
def test_csv_and_parquet_pass_the_check(name, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "missing.csv", "--out", name]) == 2
    err = capsys.readouterr().err
    assert "--out" not in err and "missing.csv" in err  # past the output check, to the log
