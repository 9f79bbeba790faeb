"""``--target`` out of (0, 1) is refused echoing the value as typed (it said "--target 95.0"),
with the fraction of a percentage in (1, 100). Hand-written expected messages."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"], "g": ["a", "b"],
                  "outcome": ["success", "timeout"]}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize(("typed", "said"), [
    ("95", "--target 95 must lie in (0, 1); if 95 is a percentage, use a fraction: --target "
           "0.95."),
    ("99.50", "--target 99.50 must lie in (0, 1); if 99.50 is a percentage, use a fraction: "
              "--target 0.995."),
    ("100", "--target 100 must lie in (0, 1)."),
    ("0", "--target 0 must lie in (0, 1)."),
])
def test_a_target_out_of_range_is_echoed_as_typed(log, typed, said, capsys):
    assert main(["replay", str(log), "--target", typed]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"budgetlab: error: {said}"


def test_a_group_target_out_of_range_is_echoed_as_typed(log, capsys):
    assert main(["replay", str(log), "--by", "g", "--target", "a=0.9,b=95"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "budgetlab: error: --target b=95 must lie in (0, 1); if 95 is a percentage, use a "
        "fraction: --target b=0.95.")
