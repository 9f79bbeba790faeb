"""The refusal of an outcome column without any success proposes the mapping that reads it: the
false label as ``outcomes=`` reads it (``false`` for a bool column, ``0`` for numbers). It
proposed ``outcomes={'0': 'failure'}`` for a bool column, which pasted was refused as "unknown
outcome label 'false'"."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import OutcomeError


def _log(tmp_path, outcome):
    path = tmp_path / "log.parquet"
    pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=3, freq="min", tz="UTC"),
                  "outcome": outcome}).to_parquet(path)
    return path


@pytest.mark.parametrize("outcome, label", [([False] * 3, "false"), ([0] * 3, "0")])
def test_the_proposed_mapping_reads_the_log(tmp_path, outcome, label):
    path = _log(tmp_path, outcome)
    with pytest.raises(OutcomeError) as err:
        read_events(path)
    assert str(err.value) == (
        f"no row of the outcome column is a success (every value is {label}); check outcome=, or, "
        f"if no attempt succeeded, say so with outcomes={{'{label}': 'failure'}}.")
    events = read_events(path, outcomes={label: "failure"})  # the fix as proposed
    assert events["ok"].tolist() == [False, False, False]


def test_the_command_line_proposes_its_flag(tmp_path, capsys):
    path = _log(tmp_path, [False] * 3)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        "budgetlab: error: no row of the outcome column is a success (every value is false); "
        "check --outcome, or, if no attempt succeeded, say so with --outcomes false=failure.")
    assert main(["replay", str(path), "--outcomes", "false=failure"]) == 0
