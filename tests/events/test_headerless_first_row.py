"""Stop 56: a CSV file without a header row never has its first row echoed as column names. A first
line whose names come back as values of their columns (outcome words above outcome words, the same
text), or whose names are no usual column words and have the shape of the rows below, is said to
look like data; when unsure, only names with a usual column word are shown, the others counted."""

from __future__ import annotations

import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import SchemaError

DATA = "the first line looks like data, not column names"


def _refusal(tmp_path, text, **kw):
    path = tmp_path / "nh.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SchemaError) as info:
        read_events(path, **kw)
    return str(info.value)


def test_the_stranger_s_file_is_not_echoed(tmp_path, capsys):
    path = tmp_path / "nh.csv"
    path.write_text("jsmith,success,berlin\nmjones,failed,paris\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == ("budgetlab: error: nh.csv has no column 'ts'. The first line looks like data, "
                   "not column names (3 fields; not shown): does the file have a header row?\n")


@pytest.mark.parametrize("text", [
    # an outcome word above outcome words that are not all true/false
    "jsmith,success,berlin\nmjones,failed,paris\n",
    "jsmith,ok,berlin\nmjones,error,paris\nanna,timeout,rome\n",
    # a name that comes back in its column
    "jsmith,login,berlin\nmjones,login,berlin\n",
    # no usual column word, and a row below with the same shape
    "jsmith,berlin\nmjones,paris\n",
    "Jsmith 7,Berlin\nMjones 12,Paris\n",
])
def test_a_first_row_of_data_is_said_so_and_not_shown(tmp_path, text):
    said = _refusal(tmp_path, text)
    assert DATA in said.lower()
    for name in text.split("\n")[0].split(","):
        assert f"'{name}'" not in said and (len(name) < 3 or name not in said)


@pytest.mark.parametrize("text, shown, hidden", [
    # one row only: nothing below to compare; the known word is shown, the others counted
    ("jsmith,success,berlin\n", ["'success'"], ["jsmith", "berlin"]),
    # a first line naming no declared column, one usual word: the others counted
    ("stamp,result,jsmith\n2026-01-01T00:00:00Z,x,y\n", ["'result'"], ["jsmith", "stamp"]),
    # no usual word and a different shape below
    ("jsmith,Berlin2\nmjones,paris\n", [], ["jsmith", "Berlin2"]),
])
def test_when_unsure_only_usual_column_words_are_shown(tmp_path, text, shown, hidden):
    said = _refusal(tmp_path, text)
    assert "not shown (without a usual column word: the first line may be data)" in said
    assert all(s in said for s in shown) and not any(h in said for h in hidden)


@pytest.mark.parametrize("text, present, rows", [
    ("host,ok,region\nweb,true,fra\ndb,false,ams\n", "'host', 'ok', 'region'",
     "web,true,fra\ndb,false,ams\n"),
    ("when,outcome\n2026-01-01T00:00:00Z,ok\nwhen,outcome\n", "'when', 'outcome'",
     "web,ok\ndb,error\n"),
    ("request_time,statusCode,host\n2026-01-01T00:00:00Z,200,web1\n",
     "'request_time', 'statusCode', 'host'", "GET,ok,web\nPOST,error,db\n"),
])
def test_a_header_of_usual_names_is_shown_whole_and_rows_never(tmp_path, text, present, rows):
    # true/false under "ok" is not data; a header repeated further down is not data either
    assert f"Columns present: {present}." in _refusal(tmp_path, text)
    # a file of such rows without a header (no digit in its first row): nothing of it shown
    said = _refusal(tmp_path, rows)
    assert DATA in said.lower() and "Columns present" not in said
    assert not any(f"'{v}'" in said for v in rows.split("\n")[0].split(","))


def test_a_first_line_naming_a_declared_column_is_a_header_shown_whole(tmp_path):
    # it names the time column the read declares: a header, whose names are column names, not
    # data (the founding example's 'sitekey' has no usual column word of its own)
    said = _refusal(tmp_path, "stamp,verdict\n2026-01-01T00:00:00Z,ok\n", time="stamp")
    assert "Columns present: 'stamp', 'verdict'." in said and "not shown" not in said
    said = _refusal(tmp_path, "ts,outcome,sitekey\n2026-01-01T00:00:00Z,ok,k1\n", by="site")
    assert said.endswith("Columns present: 'sitekey' (and 'ts', 'outcome': the time column and "
                         "the outcome-label column).")
