"""Refusals of what a reading cannot know, each naming what is wrong and where: epoch numbers of
two units whatever --epoch says, files that disagree on their times (epoch numbers in one, dates
in another), a JSON Lines file named .csv (recognised by its content), and a --pattern with
Python's named backreference ``(?P=name)``, which RE2 has not."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import FileFormatError, TimestampError

MIX = "ts,outcome\n1792800000,ok\n1792800060000,ok\n1792800120,failed\n1792800180,ok\n"


def _refusal(capsys, argv):
    assert main(["replay", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    return err


@pytest.mark.parametrize("epoch", ["s", "ms", "us", "ns"])
def test_seconds_and_milliseconds_mixed_are_refused_whatever_the_unit(tmp_path, capsys, epoch):
    # rows 1, 3, 4 are seconds (1.79e9, below 1e11), row 2 milliseconds (1.79e12): as seconds row
    # 2 is 56,000 years on, past what a datetime holds, which was said before the mix
    log = tmp_path / "mix.csv"
    log.write_text(MIX)
    err = _refusal(capsys, [str(log), "--epoch", epoch])
    assert "the epoch numbers mix units (magnitudes 1000x apart): 3 look like seconds " \
           "(rows 1, 3, 4" in err
    assert "1 looks like milliseconds (row 2" in err
    assert "pandas" not in err
    with pytest.raises(TimestampError, match="mix units"):
        read_events(log, epoch=epoch)


def test_a_time_past_the_datetime_range_is_said_without_pandas_on_the_command_line(tmp_path,
                                                                                    capsys):
    log = tmp_path / "far.csv"
    log.write_text("ts,outcome\n1500-01-01T00:00:00Z,ok\n2026-01-01T00:00:00Z,ok\n")
    err = _refusal(capsys, [str(log)])
    assert "outside the dates budgetlab can hold (1677-09-21 .. 2262-04-11) at row 1" in err
    assert "pandas" not in err


@pytest.mark.parametrize("iso_first", [True, False])
def test_files_with_epochs_and_dates_are_named_as_disagreeing(tmp_path, capsys, iso_first):
    folder = tmp_path / "mixt"
    folder.mkdir()
    iso, num = "ts,outcome\n2026-01-01T00:00:00Z,ok\n", "ts,outcome\n1767225660,ok\n"
    (folder / "a.csv").write_text(iso if iso_first else num)
    (folder / "b.csv").write_text(num if iso_first else iso)
    err = _refusal(capsys, [str(folder)])
    first, second = ("dates", "plain numbers (epoch times)")[::1 if iso_first else -1]
    assert f"the files disagree on their times: column 'ts' holds {first} in a.csv but " \
           f"{second} in b.csv" in err
    # following the fix with --epoch: the dates' file and row are named (as before)
    err = _refusal(capsys, [str(folder), "--epoch", "s"])
    assert f"unparseable epoch timestamp at row 1 of {'a' if iso_first else 'b'}.csv" in err


def test_a_json_lines_file_named_csv_is_recognised_by_its_content(tmp_path, capsys):
    log = tmp_path / "jl.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["ok"], "city": ["A"]}).to_json(
        log, orient="records", lines=True)
    err = _refusal(capsys, [str(log)])
    assert err.endswith("jl.csv: is a JSON Lines file, not CSV; name it .jsonl or pass "
                        "--format jsonl.")
    with pytest.raises(FileFormatError, match="is a JSON Lines file, not CSV"):
        read_events(log)
    assert main(["replay", str(log), "--format", "jsonl", "--out",
                 str(tmp_path / "o.csv")]) == 0  # the fix it names reads it


@pytest.mark.parametrize("backref", ["(?P=outcome)", r"\k'outcome'", r"\g{1}"])
def test_every_backreference_spelling_gets_the_backreference_refusal(tmp_path, capsys, backref):
    log = tmp_path / "p.log"
    log.write_text("2026-01-01T00:00:00Z okok\n")
    err = _refusal(capsys, [str(log), "--pattern", rf"^(?P<ts>\S+) (?P<outcome>ok){backref}"])
    assert "uses lookaround or a backreference" in err and "RE2" in err
