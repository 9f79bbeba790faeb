"""A CSV/TSV file that repeats its header in the middle (``cat a.csv b.csv > c.csv``, both with a
header line) is refused in its own words, naming the row and the fix, not with the generic
"unparseable timestamp" of the time column that the repeated header's ``ts`` cell became.

The files are written by hand below; the expected rows are counted by eye (a.csv has two data
rows, so b.csv's header is data row 3 of c.csv) and the messages are written out in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetlab import FileFormatError, read_events
from budgetlab.cli import main

A = "ts,outcome,region\n2026-01-01T00:00:00Z,success,fra\n2026-01-01T00:01:00Z,timeout,ams\n"
B = "ts,outcome,region\n2026-01-01T00:02:00Z,success,fra\n"
REFUSED = ("{name}: row {row} (1-based, after the header) repeats the header: the file looks like "
           "several {kind} files joined, each with its header line; keep only the first header "
           "line, or give the files themselves (several paths, a glob or a folder are read as one "
           "log).")


def _joined(tmp_path: Path, text: str, name: str = "c.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text, row", [
    (A + B, 3),  # zoned ISO times (first read by Arrow as instants)
    (A.replace("T", " ").replace("Z", "") + B.replace("T", " ").replace("Z", ""), 3),  # naive
    ("ts,outcome,region\n1767225600,success,fra\n" + B.replace("2026-01-01T00:02:00Z",
                                                               "1767225720"), 2),  # epochs
])
def test_a_header_repeated_in_the_middle_is_refused_with_its_row(tmp_path, text, row):
    path = _joined(tmp_path, text)
    with pytest.raises(FileFormatError) as caught:
        read_events(path, by="region")
    assert str(caught.value) == REFUSED.format(name="c.csv", row=row, kind="CSV")


def test_a_tsv_and_a_file_without_keys_are_refused_too(tmp_path):
    tsv = _joined(tmp_path, (A + B).replace(",", "\t"), "c.tsv")
    with pytest.raises(FileFormatError) as caught:
        read_events(tsv)
    assert str(caught.value) == REFUSED.format(name="c.tsv", row=3, kind="TSV")
    # ok= (no dictionary column read): the rows of text are compared
    ok = _joined(tmp_path, "ts,ok\n2026-01-01T00:00:00Z,true\nts,ok\n2026-01-01T00:02:00Z,false\n")
    with pytest.raises(FileFormatError) as caught:
        read_events(ok, outcome=None, ok="ok")
    assert str(caught.value) == REFUSED.format(name="c.csv", row=2, kind="CSV")


def test_the_command_line_says_it_in_one_line(tmp_path, capsys):
    path = _joined(tmp_path, A + B)
    assert main(["replay", str(path), "--by", "region"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["budgetlab: error: " + REFUSED.format(name="c.csv", row=3, kind="CSV")]


def test_a_value_equal_to_its_column_name_alone_is_read(tmp_path):
    # only one column holds its name: a row of data, not a header (the region is called region)
    path = _joined(tmp_path, A + "2026-01-01T00:02:00Z,success,region\n")
    events = read_events(path, by="region")
    assert list(events["region"]) == ["fra", "ams", "region"]


@pytest.mark.parametrize("header, by", [
    ("ts,outcome,region", "region"),  # the mark before the time column, read as text
    ("region,ts,outcome", "region"),  # the mark before a dictionary column's name
    ("ts,ok", None),  # no dictionary column: the rows of text are compared
])
def test_files_that_each_start_with_a_byte_order_mark_are_refused_too(tmp_path, capsys, header,
                                                                      by):
    # Windows exports joined with cat: the second file's header keeps its mark, "\ufeffts"
    cells = {"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:02:00Z"], "outcome": ["success"] * 2,
             "region": ["fra"] * 2, "ok": ["true"] * 2}
    names = header.split(",")
    rows = [",".join(cells[n][i] for n in names) for i in range(2)]
    text = "\ufeff" + header + "\n" + rows[0] + "\n\ufeff" + header + "\n" + rows[1] + "\n"
    path = tmp_path / "c.csv"
    path.write_bytes(text.encode("utf-8"))
    options = {"by": by} if by else {"outcome": None, "ok": "ok"}
    with pytest.raises(FileFormatError) as caught:
        read_events(path, **options)
    assert str(caught.value) == REFUSED.format(name="c.csv", row=2, kind="CSV")
    if by:
        assert main(["replay", str(path), "--by", by]) == 2
        assert capsys.readouterr().err.splitlines() == [
            "budgetlab: error: " + REFUSED.format(name="c.csv", row=2, kind="CSV")]
