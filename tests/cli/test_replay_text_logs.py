"""Issue 29 on the command line: `budgetlab replay` reads a real OpenSSH syslog sample and a real
proxy log directly with --preset / --pattern and --year; success rates against the hand counts of
tests/fixtures/loghub/README.md (grep, independent of budgetlab); one-line refusals in CLI words."""

from __future__ import annotations

import json
import re
from pathlib import Path

from budgetlab.cli import main

LOGHUB = Path(__file__).parents[1] / "fixtures" / "loghub"
SSH = LOGHUB / "openssh_300.log"
PROXY = LOGHUB / "proxifier_300.log"


def rate(printed: str) -> list[str]:
    return re.findall(r"([0-9.]+) %", printed.split("Summary")[1].split("Transitions")[0])


def test_replay_reads_the_openssh_sample_with_the_sshd_preset(capsys):
    assert main(["replay", str(SSH), "--preset", "sshd", "--year", "2015", "--window", "1h"]) == 0
    out, err = capsys.readouterr()
    assert rate(out)[0] == f"{1 / 66 * 100:.2f}"  # hand count: 1 Accepted, 65 Failed -> 1.52
    assert "66 read, 66 kept, 0 skipped" in err and "234 of 300 lines (78.0 %)" in err
    assert "2015-12-10T09:18:06Z .. 2015-12-10T10:55:13Z" in err


def test_replay_reads_the_proxy_log_with_a_pattern_of_ones_own(capsys, tmp_path):
    argv = ["replay", str(PROXY), "--pattern",
            r"^\[(?P<ts>[0-9.]+ [0-9:]+)\] (?P<app>.+?) - \S+ (?P<outcome>close|error)\b",
            "--time-format", "%m.%d %H:%M:%S", "--year", "2016", "--outcomes",
            "close=success,error=failure",
            "--window", "1h", "--by", "app", "--out", str(tmp_path / "t.csv")]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "150 read, 150 kept" in err and "150 of 300 lines (50.0 %)" in err
    record = json.loads((tmp_path / "t.csv.run.json").read_text())
    assert (
        record["parameters"]["year"] == 2016
        and record["parameters"]["time_format"] == "%m.%d %H:%M:%S"
    )
    assert record["how_read"]["rows_kept"] == 150
    # hand count per app (README): QQ.exe 1 of 3, chrome.exe 133 of 133
    assert re.search(r"QQ\.exe\s+3\s+33\.33 %", out) and re.search(r"chrome\.exe\s+133\s+100\.00 %",
                                                                   out)


def test_same_proxy_log_with_the_preset(capsys):
    assert main(["replay", str(PROXY), "--preset", "proxifier", "--year", "2016", "--window",
                 "1h"]) == 0
    out, _ = capsys.readouterr()
    assert rate(out)[0] == f"{148 / 150 * 100:.2f}"  # 98.67


def test_refusals_are_one_line_and_name_the_flags(capsys):
    assert main(["replay", str(SSH), "--preset", "sshd", "--window", "1h"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--year YYYY" in err and "has no year" in err
    assert main(["replay", str(SSH), "--window", "1h"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("unsupported file type "
                                     "'.log'") in err and "--pattern REGEX or --preset" in err
    assert main(["replay", str(SSH), "--pattern",
                 r"(?P<ts>\S+ \S+ \S+) (?P<outcome>\S+)(?=x)"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RE2" in err
