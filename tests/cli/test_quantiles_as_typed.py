"""``budgetlab latency --quantiles``: a refusal echoes each quantile as typed (``50``, never
``50.0``, and no Python quotes), and a list of no quantile or with an empty item is refused in
one line naming the flag, exit 2, before the log is read (stop 62's stranger: ``--quantiles ,``
ran with no quantile; ``--quantiles 50`` was echoed as 50.0)."""

from __future__ import annotations

import pytest

from budgetlab.cli import main


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    path.write_text("ts,outcome,took\n2026-10-05T00:00:00Z,success,210\n"
                    "2026-10-05T00:01:00Z,timeout,5000\n")
    return path


@pytest.mark.parametrize(("quantiles", "words"), [
    # 50 read as a percentage: 50 / 100 = 0.5 (by hand)
    ("50", "--quantiles 50 must lie in (0, 1); if 50 is a percentage, use a fraction: "
           "--quantiles 0.5."),
    ("0.5,1", "--quantiles 1 must lie in (0, 1)."),
    (",", "--quantiles , names no quantile; give fractions such as --quantiles 0.5,0.9,0.99."),
    (" , ", "--quantiles , names no quantile; give fractions such as --quantiles 0.5,0.9,0.99."),
    ("0.5,,0.9", "--quantiles 0.5,,0.9 has an empty item (two commas in a row, or one at an "
                 "end); give fractions such as --quantiles 0.5,0.9,0.99."),
    ("0.5,0.9,", "--quantiles 0.5,0.9, has an empty item (two commas in a row, or one at an "
                 "end); give fractions such as --quantiles 0.5,0.9,0.99."),
    ("0.5,half", "--quantiles 0.5,half: half is not a number; give fractions such as "
                 "--quantiles 0.5,0.9,0.99."),
])
def test_quantiles_are_refused_as_typed(quantiles, words, log, capsys):
    assert main(["latency", str(log), "--duration", "took", "--duration-unit", "ms",
                 "--thresholds", "1s", "--quantiles", quantiles]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert printed.err == f"budgetlab: error: {words}\n"  # one line, before any reading block
    assert "'" not in printed.err
