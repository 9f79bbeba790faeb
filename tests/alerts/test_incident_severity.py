"""``severity`` is a number whichever reader reads an incidents file (0.61: text from a path)."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl

HEAD = "incident_id,kind,start,end,scope,severity\n"


def _write(tmp_path, rows: str):
    path = tmp_path / "incidents.csv"
    path.write_text(HEAD + rows)
    return path


def test_every_reader_gives_severity_as_the_number_written(tmp_path):
    # a hand file as python -m budgetlab.datasets --preset demo --out writes it, and a second row
    path = _write(tmp_path, "D1,gradual_degradation,2026-10-07T23:30:00Z,2026-10-08T03:30:00Z,"
                            "captcha_type=recaptcha_v2,0.14\n"
                            "D2,outage,2026-10-08T05:00:00Z,2026-10-08T05:10:00Z,*, 1\n")
    tables = [bl.read_incidents(path), bl.datasets.load(str(path), kind="incidents"),
              bl.datasets.load("demo_incidents")]
    for table in tables:
        assert str(table["severity"].dtype) == "float64"
    # hand figures: the values written, and arithmetic on them (0.14 * 2, never '0.140.14')
    assert tables[0]["severity"].tolist() == [0.14, 1.0]
    assert tables[1]["severity"].tolist() == [0.14, 1.0]
    assert (tables[0]["severity"] * 2).tolist() == [0.28, 2.0]
    assert tables[2]["severity"].tolist() == [0.14]  # the shipped file's D1


def test_an_empty_cell_among_numbers_is_no_number(tmp_path):
    path = _write(tmp_path, "a,outage,2026-10-08T05:00:00Z,2026-10-08T05:10:00Z,*,0.5\n"
                            "b,outage,2026-10-08T06:00:00Z,2026-10-08T06:10:00Z,*,\n")
    sev = bl.read_incidents(path)["severity"]
    assert str(sev.dtype) == "float64"
    assert sev.iloc[0] == 0.5 and pd.isna(sev.iloc[1])


@pytest.mark.parametrize("cell", ["SEV1", "nan", "inf"])
def test_a_word_keeps_every_cell_as_written(tmp_path, cell):
    # a label column (high, SEV1) is a label: never half read as numbers, never refused
    path = _write(tmp_path, "a,outage,2026-10-08T05:00:00Z,2026-10-08T05:10:00Z,*,0.5\n"
                            f"b,outage,2026-10-08T06:00:00Z,2026-10-08T06:10:00Z,*,{cell}\n")
    for read in (bl.read_incidents, lambda p: bl.datasets.load(str(p), kind="incidents")):
        assert read(path)["severity"].tolist() == ["0.5", cell]


def test_a_file_without_severity_reads_as_before(tmp_path):
    path = tmp_path / "incidents.csv"
    path.write_text("incident_id,start,end\ni1,2026-01-05T10:00:00Z,2026-01-05T11:00:00Z\n")
    table = bl.read_incidents(path)
    assert "severity" not in table.columns
    assert table["end"].tolist() == [pd.Timestamp("2026-01-05T11:00:00Z")]
