"""A file of epoch numbers beside a file of ISO dates under ``--epoch`` (s63tz): the refusal says
the times are dates and that ``--epoch`` covers every file, not only "unparseable"."""

from __future__ import annotations

import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import TimestampError


def _files(tmp_path):
    ep, iso = tmp_path / "ep.csv", tmp_path / "iso.csv"
    # 2026-10-20T00:00:00Z is 1,792,454,400 s after the epoch (hand: 20,746 days x 86,400)
    ep.write_text("ts,outcome\n1792454400000,success\n1792454460000,timeout\n")
    iso.write_text("ts,outcome\n2026-10-20T00:02:00Z,success\n2026-10-20T00:03:00Z,success\n")
    return str(ep), str(iso)


def test_the_epoch_file_alone_reads_its_instants(tmp_path):
    ev = read_events(_files(tmp_path)[0], epoch="ms")
    assert [str(t) for t in ev["ts"]] == ["2026-10-20 00:00:00+00:00",
                                          "2026-10-20 00:01:00+00:00"]


def test_dates_beside_epoch_numbers_are_refused_saying_why(tmp_path, capsys):
    ep, iso = _files(tmp_path)
    with pytest.raises(TimestampError, match=r"written as dates \(2026-10-20T00:02:00Z\), and "
                                             r"epoch= applies to every file of one read"):
        read_events([ep, iso], epoch="ms")
    assert main(["replay", ep, iso, "--epoch", "ms", "--target", "0.9"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--epoch applies to every file of one read" in err
