"""budgetlab latency says the durations it reads from the data to at most four significant digits
(docs/latency.md), never every digit of their nanoseconds, and a bound it advises giving back
rounded up, so that the advice works.

Hand-made log, one group of 40 successes a minute apart: 39 of 0.1234567 s + 0.05 s * i
(i = 0 .. 38: 0.1234567 .. 2.0234567 s) and one of 3.707315 s, the longest. 40 attempts cannot
bound p99 (296 needed), so its note says where the curve ends: the longest, 3.707315 s, to four
digits 3.707 s. Its lower bound is said alone, to three digits (there is no estimate to tell it
from). The log's longest success, 3.707315 s, against --client-timeout 3s: the longest to four
digits 3.707 s, the bound to give rounded up: 3.708 s (3.707 s would still be shorter).
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from budgetlab.cli import main

DURATIONS = [0.1234567 + 0.05 * i for i in range(39)] + [3.707315]


@pytest.fixture()
def log(tmp_path):
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": [f"2026-01-01T00:{m:02d}:00Z" for m in range(40)],
                  "outcome": "success", "s": [round(d, 7) for d in DURATIONS]}).to_csv(
        path, index=False)
    return str(path)


def test_the_longest_duration_to_four_digits(log, capsys):
    assert main(["latency", log, "--duration", "s", "--duration-unit", "s", "--thresholds",
                 "1s"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "before it ends at the longest duration, 3.707 s:" in text
    low = re.search(r"p99 time to success: withheld \(95 % interval from ([0-9.]+) s", text)
    assert low is not None
    assert len(low.group(1).lstrip("0.").replace(".", "")) <= 3, low.group(1)


def test_the_bound_to_give_is_rounded_up(log, capsys):
    assert main(["latency", log, "--duration", "s", "--duration-unit", "s", "--thresholds",
                 "1s", "--client-timeout", "3s"]) == 2
    err = capsys.readouterr().err
    assert ("--client-timeout 3s is shorter than 1 success of the log (the longest 3.707 s)"
            in err)
    assert "give --client-timeout of at least 3.708 s," in err
