"""Cases found by the review of issue 15's readers, each checked against what the standard tools
read (gzip/bzip2/xz as their command-line tools read them) or against the text written."""

from __future__ import annotations

import bz2
import gzip
import lzma

import pytest

from budgetlab import how_read, read_events
from budgetlab.errors import BudgetlabError, SchemaError


def test_cr_only_utf16_keeps_characters_whose_code_holds_a_cr_byte(tmp_path):
    # 'č' is U+010D: in UTF-16LE the bytes 0D 01; a byte-level CR -> LF turned it into 'Ċ'
    text = "ts,outcome,region\r1700000000,ok,Plzeň\r1700000030,error,čast\r"
    p = tmp_path / "u16.csv"
    p.write_bytes(text.encode("utf-16"))
    ev = read_events(p, epoch="s", by="region", encoding="utf-16", outcomes={"ok": "success",
                                                                             "error": "error"})
    assert ev["region"].astype(str).tolist() == ["Plzeň", "čast"]
    assert "line endings: CR only" in str(how_read(ev))


@pytest.mark.parametrize("kind", ["gzip", "bz2", "xz"])
def test_a_second_stream_starting_at_a_read_boundary_is_read(tmp_path, monkeypatch, kind):
    # the reader takes the compressed file in blocks; when the first stream ends exactly at a
    # block's end the next block starts a new stream (it was refused as "truncated or corrupt")
    from budgetlab.events import _compressed as _input

    compress = {"gzip": lambda b: gzip.compress(b, mtime=0), "bz2": bz2.compress,
                "xz": lzma.compress}[kind]
    decompress = {"gzip": gzip.decompress, "bz2": bz2.decompress, "xz": lzma.decompress}[kind]
    first = compress(b"ts,outcome\n" + b"".join(b"%d,ok\n" % (1700000000 + i) for i in range(500)))
    data = first + compress(b"1800000000,error\n")
    # the block boundary falls where the first stream ends
    monkeypatch.setattr(_input, "_IN", len(first))
    p = tmp_path / f"edge.csv.{kind}"
    p.write_bytes(data)
    want = decompress(data).decode().count("\n") - 1  # rows, as the standard library reads the file
    ev = read_events(p, epoch="s", outcomes={"ok": "success", "error": "error"})
    assert len(ev) == want == 501
    assert not ev["ok"].iloc[-1]


def test_nul_padding_after_a_gzip_member_is_ignored_as_gzip_does(tmp_path):
    body = b"ts,outcome\n1700000000,ok\n1700000030,error\n"
    data = gzip.compress(body, mtime=0) + b"\0" * 100
    assert gzip.decompress(data) == body  # the standard library (and gzip -dc) read it
    p = tmp_path / "pad.csv.gz"
    p.write_bytes(data)
    ev = read_events(p, epoch="s", outcomes={"ok": "success", "error": "error"})
    assert len(ev) == 2 and ev["ok"].tolist() == [True, False]


def test_a_missing_column_is_named_only_when_it_is_not_personal(tmp_path):
    p = tmp_path / "log.csv"
    p.write_text("ts,outcome\n2026-11-29T00:00:00Z,success\n")
    # refused as a personal column name, before the lookup
    with pytest.raises(BudgetlabError) as info:
        read_events(p, by="иван@почта.рф")
    assert "иван" not in str(info.value) and "personal data" in str(info.value)
    with pytest.raises(SchemaError, match="'region'"):
        read_events(p, by="region")


def test_a_declared_column_name_that_looks_personal_is_refused_without_showing_it(tmp_path):
    from budgetlab.errors import PersonalDataError

    p = tmp_path / "log.csv"
    p.write_text("ts,outcome,иван@почта.рф\n2026-11-29T00:00:00Z,success,fra\n")
    with pytest.raises(PersonalDataError) as info:
        read_events(p, by="иван@почта.рф")
    assert "иван" not in str(info.value) and "declared column names" in str(info.value)
