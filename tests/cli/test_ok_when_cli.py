"""``--ok-when 'COLUMN<NUMBER'`` on the command line: a metric series replayed by the user's
threshold, its reading stated in CLI words, the refusals naming the flags; and the note on rows
after the time of reading (pinned with BUDGETLAB_READING_TIME). Oracles: the NAB fixture
counted apart with the csv module, the loghub README's hand count, words written by hand."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from budgetlab.cli import main

ROOT = Path(__file__).parents[2]
ELB = ROOT / "tests" / "fixtures" / "nab" / "elb_request_count_8c0756.csv"
SSH = ROOT / "tests" / "fixtures" / "loghub" / "openssh_300.log"
SERIES = "each row is one measured interval, not a request: every figure counts rows"


def _below(threshold: float) -> tuple[int, int]:
    with open(ELB, newline="", encoding="utf-8") as f:
        values = [float(row["value"]) for row in csv.DictReader(f)]
    good = sum(1 for v in values if v < threshold)
    return good, len(values) - good


def _refusal(capsys, *argv) -> str:
    """The one-line error of a command that must exit 2."""
    assert main(["replay", *map(str, argv)]) == 2
    return capsys.readouterr().err


def _written(folder: Path, name: str, *lines: str) -> Path:
    path = folder / name
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _one_line(block):
    """The "how it was read" block with each line's continuations (filled to 100 columns, at the
    same indent; never a label row, 4 spaces deep) joined back to it."""
    return re.sub(r"\n  (?=[^ ])(?![a-z]+: )", " ", block)


def test_replay_by_a_threshold_end_to_end():
    good, bad = _below(50)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "budgetlab", "replay", str(ELB), "--time",
                          "timestamp", "--ok-when", "value<50"], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    # the block's long lines are filled to 100 columns: compared as one line
    assert (f"\n  outcomes: column 'value' < 50 (--ok-when): {good:,} success, {bad:,} failure; "
            f"{SERIES}\n") in _one_line(run.stderr)
    assert "ok_when=" not in run.stderr
    assert f"{good + bad:,} events" in run.stdout


@pytest.mark.parametrize("flags, other", [(["--ok", "value"], "--ok"),
                                          (["--outcome", "outcome"], "--outcome"),
                                          (["--outcomes", "a=success"], "--outcomes"),
                                          (["--bucket", "kind"], "--bucket")])
def test_a_second_way_of_saying_success_is_refused_naming_both_flags(capsys, flags, other):
    assert _refusal(capsys, ELB, "--time", "timestamp", "--ok-when", "value<50", *flags) == (
        f"budgetlab: error: --ok-when and {other} both say what a success is; --ok-when reads it "
        "from a number by your threshold: give one of them.\n")


def test_a_bad_expression_is_refused_with_the_accepted_forms_in_cli_words(capsys):
    assert _refusal(capsys, ELB, "--time", "timestamp", "--ok-when", "value==50") == (
        "budgetlab: error: --ok-when got 'value==50'; --ok-when takes COLUMN OP NUMBER (e.g. "
        "--ok-when 'value<300'): OP one of <, <=, >, >= and a finite NUMBER you choose, spaces "
        "allowed around each.\n")


def test_missing_values_are_refused_in_cli_words(tmp_path, capsys):
    path = _written(tmp_path, "cpu.csv", "ts,value", "2026-01-01T00:00:00Z,3.5",
                    "2026-01-01T00:05:00Z,", "2026-01-01T00:10:00Z,4.0")
    assert _refusal(capsys, path, "--ok-when", "value<4") == (
        "budgetlab: error: column 'value': 1 row missing or not a number (1 missing, 0 not a "
        "number) at row 2 (1-based, "
        "after the header); --ok-when compares numbers and will not call such a row "
        "good or bad: drop those rows or fill them, then read again.\n")


def test_the_metric_series_refusal_names_the_flag_on_the_column_and_no_threshold(capsys):
    err = _refusal(capsys, ELB, "--time", "timestamp", "--ok", "value")
    assert err.rstrip().endswith(
        "a metric series has to be turned into outcomes first, good or bad by a threshold you "
        "choose: read it with --ok-when 'value<THRESHOLD' (or <=, >, >=; the threshold is yours: "
        "budgetlab never proposes one), or give a true/false column with --ok.")
    assert "as_events" not in err and "ok_when" not in err


def test_times_after_the_time_of_reading_are_noted_with_the_year_to_check(monkeypatch, capsys):
    monkeypatch.setenv("BUDGETLAB_READING_TIME", "2026-12-06T07:00:00Z")
    assert main(["replay", str(SSH), "--preset", "sshd", "--year", "2026"]) == 0
    err = _one_line(capsys.readouterr().err)
    # 66 events (the README's hand count), all on 10 Dec: every one after the time of reading
    assert ("\n  note: 66 rows are after the time of reading (2026-12-06 07:00 UTC, 1 h of clock "
            "skew allowed), up to 2026-12-10 10:55 UTC: check --year\n") in err
    monkeypatch.setenv("BUDGETLAB_READING_TIME", "2026-12-10T10:00:00Z")
    assert main(["replay", str(SSH), "--preset", "sshd", "--year", "2026"]) == 0
    assert "after the time of reading" not in capsys.readouterr().err


def test_an_access_log_refuses_the_flag_that_would_do_nothing(capsys):
    log = ROOT / "tests" / "fixtures" / "elastic_apache" / "apache_logs"
    assert _refusal(capsys, log, "--ok-when", "status<500") == (
        "budgetlab: error: --ok-when reads a metric series; an access log's outcome is its "
        "status: map the statuses with --outcomes (e.g. 5xx=server_error).\n")


def test_a_text_log_group_read_by_a_threshold(tmp_path, capsys):
    # hand-made: latencies 12.5, 300 and 7 against 100: two good, one bad; the noise line is no
    # event
    path = _written(tmp_path, "lat.log", "2026-01-01T00:00:00Z lat=12.5",
                    "2026-01-01T00:01:00Z lat=300", "noise", "2026-01-01T00:02:00Z lat=7")
    assert main(["replay", str(path), "--pattern", r"^(?P<ts>\S+) lat=(?P<lat>\S+)",
                 "--ok-when", "lat < 100"]) == 0
    assert ("\n  outcomes: column 'lat' < 100 (--ok-when): 2 success, 1 failure; "
            f"{SERIES}\n") in _one_line(capsys.readouterr().err)
