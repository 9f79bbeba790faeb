"""``recalibrate --candidates-out FILE`` writes the candidates' table that docs/recalibrate.md and
``budgetlab demo``'s closing line promise (before, the command wrote only the recommendations)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

#: The columns of ``Recalibration.candidates`` (its docstring's Returns), the group key first.
COLUMNS = ("kind,target,is_current,is_recommended,share_healthy,share_warning,share_critical,"
           "share_exhausted,hours_exhausted,transitions_per_day,pages_per_day")


@pytest.fixture
def log(tmp_path):
    """One event a minute for two days, every one a success, in the group ``=g`` (a name a
    spreadsheet would run as a formula)."""
    ts = pd.date_range("2026-03-02", periods=2 * 24 * 60, freq="1min", tz="UTC")
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": True, "kind": "=g"}).to_csv(
        path, index=False)
    return path


def test_candidates_out_writes_the_candidates_table(log, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cand = tmp_path / "cand.csv"
    assert main(["recalibrate", str(log), "--ok", "ok", "--by", "kind", "--target", "0.95",
                 "--window", "1h", "--n-boot", "0", "--candidates-out", "cand.csv"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    table = pd.read_csv(cand)
    assert last == (f"wrote {len(table)} candidate rows (the candidates' table) to cand.csv")
    assert cand.read_text().splitlines()[0] == COLUMNS
    # no failure at all: every candidate keeps the whole budget, HEALTHY all the time, no page
    assert set(table["kind"]) == {"'=g"}  # neutralised as every CSV output
    assert (table["share_healthy"] == 1.0).all() and (table["share_exhausted"] == 0.0).all()
    assert (table["pages_per_day"] == 0.0).all()
    assert table.loc[table["is_current"], "target"].tolist() == [0.95]


def test_candidates_out_is_an_output(log, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cand.csv").write_text("mine\n")
    args = ["recalibrate", str(log), "--ok", "ok", "--by", "kind", "--window", "1h"]
    assert main([*args, "--candidates-out", "cand.csv"]) == 2
    assert capsys.readouterr().err.strip() == (
        "budgetlab: error: --candidates-out: 'cand.csv' exists already; pass --force to "
        "overwrite it.")
    assert (tmp_path / "cand.csv").read_text() == "mine\n"
    assert main([*args, "--force"]) == 2
    assert capsys.readouterr().err.strip() == (
        "budgetlab: error: --force would do nothing: it lets --out, --plot or --candidates-out "
        "replace an existing file, and this run writes no file; leave it out.")
