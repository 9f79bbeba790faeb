"""Reading an incidents CSV (budgetlab.alerts.incidents_file.read_incidents): the table the old
``backtest --incidents`` reader gave, one-line errors with 1-based row numbers, no personal value
in any message, and the file registered as an input of the run."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab._util.files import check_output
from budgetlab.alerts.incidents_file import read_incidents
from budgetlab.errors import (
    ConfigError,
    FileFormatError,
    InputError,
    PersonalDataError,
    SchemaError,
    TimestampError,
)
from tests.adversarial.harness import Case, run_case

GOOD = (
    "incident_id,start,end,scope,kind\n"
    "fra-outage,2026-01-06T06:00:00Z,2026-01-06T06:20:00Z,region=fra,outage\n"
    "global,2026-01-06T08:00:00+02:00,2026-01-06 07:30,,\n"
)


pytestmark = pytest.mark.usefixtures("fresh_run")


def test_the_table_times_in_utc_and_scopes(tmp_path):
    path = tmp_path / "inc.csv"
    path.write_text(GOOD)
    table = read_incidents(path)
    assert table.columns.tolist() == ["incident_id", "start", "end", "scope", "kind"]
    # 08:00+02:00 is 06:00 UTC; a naive time is UTC
    assert table["start"].tolist() == [pd.Timestamp("2026-01-06 06:00", tz="UTC")] * 2
    assert table["end"].tolist() == [pd.Timestamp("2026-01-06 06:20", tz="UTC"),
                                     pd.Timestamp("2026-01-06 07:30", tz="UTC")]
    assert str(table["start"].dtype) == "datetime64[ns, UTC]"
    assert table["scope"].tolist() == ["region=fra", "*"]  # empty scope: everything
    assert table["kind"].tolist() == ["outage", ""]


def test_scope_and_kind_are_optional_and_a_bom_is_fine(tmp_path):
    path = tmp_path / "inc.csv"
    path.write_bytes(
        "\ufeffincident_id,start,end\ni1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z\n".encode()
    )
    table = read_incidents(str(path))
    assert table.columns.tolist() == ["incident_id", "start", "end", "scope"]
    assert table["scope"].tolist() == ["*"]


def test_the_file_is_an_input_of_the_run(tmp_path):
    path = tmp_path / "inc.csv"
    path.write_text(GOOD)
    read_incidents(path)
    with pytest.raises(ConfigError, match="is an input"):
        check_output(path, force=True)


@pytest.mark.parametrize(
    ("text", "error", "needle"),
    [
        ("", FileFormatError, "is empty"),
        (
            "id,start,end\ni1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z\n",
            SchemaError,
            "no column 'incident_id'",
        ),
        ("incident_id,start\ni1,2026-01-06T06:00:00Z\n", SchemaError, "no column 'end'"),
        (
            "incident_id,start,end\ni1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z\ni2,yesterday,2026-01-06T07:00:00Z\n"
            "i3,2026-13-45T06:00:00Z,2026-01-06T07:00:00Z\n",
            TimestampError,
            "'start' holds no ISO 8601 time in rows 2, 3",
        ),
        (
            "incident_id,start,end\ni1,2026-01-06T06:00:00Z,\n",
            TimestampError,
            "'end' is empty in row 1",
        ),
        (
            "incident_id,start,end,scope\ni1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z,fra\n",
            InputError,
            "not of the form key=value[&key=value] in row 1",
        ),
        (
            'incident_id,start,end\n"i1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z\n',
            FileFormatError,
            "cannot be read as CSV",
        ),
    ],
)
def test_bad_files_give_one_line_naming_the_rows(tmp_path, text, error, needle):
    path = tmp_path / "inc.csv"
    path.write_text(text)
    with pytest.raises(error) as info:
        read_incidents(path)
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_many_bad_rows_are_named_a_few_then_counted_with_thousands_separated(tmp_path):
    """1,239 rows with an empty end: the first 5 named, "and 1,234 more" (the package's number
    style), never "and 1234 more"."""
    path = tmp_path / "inc.csv"
    path.write_text("incident_id,start,end\n"
                    + "".join(f"i{i},2026-01-06T06:00:00Z,\n" for i in range(1239)))
    with pytest.raises(TimestampError) as info:
        read_incidents(path)
    assert "column 'end' is empty in rows 1, 2, 3, 4, 5 and 1,234 more; " in str(info.value)


def test_missing_folder_and_non_utf8_files(tmp_path):
    with pytest.raises(FileFormatError, match="no such file"):
        read_incidents(tmp_path / "missing.csv")
    with pytest.raises(FileFormatError, match="is a folder"):
        read_incidents(tmp_path)
    (tmp_path / "latin.csv").write_bytes(
        "incident_id,start,end\ncaf\xe9,2026-01-06,2026-01-07\n".encode("latin-1")
    )
    with pytest.raises(FileFormatError, match="not UTF-8"):
        read_incidents(tmp_path / "latin.csv")


PERSONAL = [
    ("scope-email", "i1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z,user=ivan@example.org,outage\n",
     "ivan@example.org"),
    ("scope-ip",
     "i1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z,client=203.0.113.7&region=fra,outage\n",
     "203.0.113.7"),
    ("id-phone", "+7 495 123-45-67,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z,,outage\n",
     "123-45-67"),
    ("kind-email", "i1,2026-01-06T06:00:00Z,2026-01-06T07:00:00Z,,ops@example.com\n",
     "ops@example.com"),
    ("bad-time-beside-email", "i1,not a time,2026-01-06T07:00:00Z,user=ivan@example.org,outage\n",
     "ivan@example.org"),
]


@pytest.mark.parametrize(("cid", "row", "value"), PERSONAL, ids=[p[0] for p in PERSONAL])
def test_personal_values_are_counted_never_shown(tmp_path, capsys, monkeypatch, cid, row, value):
    content = ("incident_id,start,end,scope,kind\n" + row).encode()
    case = Case(cid, files={"inc.csv": content}, api=lambda d: read_incidents(d / "inc.csv"),
                needles=(), forbidden=(value, value.split("@")[0]))
    run_case(case, tmp_path, capsys, monkeypatch)
    if not cid.startswith("bad-time"):
        # one personal value among the column's: "the one value" or "1 of the N values" (a
        # scope's: "scope value", its keys not counted among them)
        with pytest.raises(PersonalDataError, match="(the one (scope )?value|1 of the [0-9] "
                                                    "(scope )?values) looks like personal data"):
            read_incidents(tmp_path / "case" / "inc.csv")


def test_a_personal_file_name_is_not_shown(tmp_path):
    with pytest.raises(FileFormatError) as info:
        read_incidents(tmp_path / "ivan@example.org.csv")
    assert "ivan" not in str(info.value)


def test_incidents_with_naive_times_are_counted(tmp_path):
    """A row counts when its start or its end has no offset (read as UTC): the second row's end
    ``2026-01-06 07:30``, the third row's date alone and its ``.000000`` time; ``T1030+0200``
    (basic form) and ``Z`` name theirs."""
    p = tmp_path / "incidents.csv"
    p.write_text(GOOD + "c,2026-01-07,2026-01-07 03:31:00.000000\n"
                 "d,20260108T1030+0200,2026-01-08T11:00Z\n")
    table = read_incidents(p)
    assert table.attrs["naive_times"] == 2
    assert table["start"].iloc[2] == pd.Timestamp("2026-01-07", tz="UTC")
    p.write_text(GOOD.splitlines()[0] + "\n" + GOOD.splitlines()[1] + "\n")
    assert read_incidents(p).attrs["naive_times"] == 0


def test_a_json_file_of_windows_is_refused_as_json(tmp_path):
    """NAB's combined_windows.json given as --incidents: it was read as a CSV whose header is
    '{' and refused for a missing incident_id column; it is JSON, and the message says so."""
    p = tmp_path / "combined_windows.json"
    p.write_text('{\n    "realKnownCause/x.csv": [["2014-03-14 03:31:00.000000", '
                 '"2014-03-14 14:41:00.000000"]]\n}\n')
    with pytest.raises(FileFormatError) as info:
        read_incidents(p)
    assert str(info.value) == (
        "'combined_windows.json': holds JSON, not CSV; give the incidents as CSV with a header "
        "line incident_id,start,end[,scope,kind] and one row per incident (a labelled window is "
        "one row).")
