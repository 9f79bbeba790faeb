"""Stop 59: files read together whose epoch numbers each hold one unit, but not the same one
(seconds in one file, milliseconds in another), are refused as files that disagree, each named
with what its numbers look like, and the fix (read them apart, or convert), not as one file's
rows out of range. Oracles: the files written below (1792800000 s is day 20750 of the epoch,
2026-10-24T00:00:00Z, 10 digits; 1792800060000 ms is a minute later, 13 digits)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import TimestampError


def _files(tmp_path):
    (tmp_path / "a.csv").write_text("ts,outcome\n1792800000,success\n1792800030,timeout\n",
                                    encoding="utf-8")
    (tmp_path / "b.csv").write_text("ts,outcome\n1792800060000,success\n1792800090000,success\n"
                                    "1792800120000,timeout\n", encoding="utf-8")
    return [tmp_path / "a.csv", tmp_path / "b.csv"]


@pytest.mark.parametrize("epoch", ["s", "ms"])
def test_files_of_seconds_and_milliseconds_are_named_as_disagreeing(tmp_path, epoch):
    with pytest.raises(TimestampError) as err:
        read_events(_files(tmp_path), epoch=epoch)
    assert str(err.value) == (
        "the files disagree on their times: column 'ts' holds epoch numbers of 10 digits (like "
        "seconds) in a.csv but of 13 digits (like milliseconds) in b.csv; "
        f"epoch={epoch!r} reads only one of them: read the files separately, each with its own "
        "epoch=, or convert their times to one unit first.")
    # the fix: each file with its own unit; files of one unit still read together
    a, b = _files(tmp_path)
    start = pd.Timestamp("2026-10-24T00:00:00Z")
    got = pd.concat([read_events(a, epoch="s"), read_events(b, epoch="ms")])["ts"].tolist()
    assert got == [start + pd.Timedelta(seconds=s) for s in (0, 30, 60, 90, 120)]
    (tmp_path / "c.csv").write_text("ts,outcome\n1792800060,success\n", encoding="utf-8")
    got = read_events([a, tmp_path / "c.csv"], epoch="s")["ts"].tolist()
    assert got == [start + pd.Timedelta(seconds=s) for s in (0, 30, 60)]


def test_the_command_line_names_its_own_flag(tmp_path, capsys):
    a, b = _files(tmp_path)
    assert main(["replay", str(b), str(a), "--epoch", "s"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.endswith(
        "the files disagree on their times: column 'ts' holds epoch numbers of 13 digits (like "
        "milliseconds) in b.csv but of 10 digits (like seconds) in a.csv; --epoch s reads only "
        "one of them: read the files separately, each with its own --epoch, or convert their "
        "times to one unit first.")
