"""A success column of floats written to text by pandas (``1.0``/``0.0``) is read as true/false
when every value is one of the two, and only then. Expected values are written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import OutcomeError

TS = ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", "2026-01-01T00:02:00Z"]
METRIC = ("none of the 3 rows of the success column is a boolean (true/false or 1/0): this looks "
          "like a metric series.")


def _csv(tmp_path, ok):
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": TS, "ok": ok}).to_csv(path, index=False)
    return path


def test_pandas_floats_1_0_and_0_0_are_true_and_false(tmp_path, capsys):
    path = _csv(tmp_path, [1.0, 0.0, 1.0])
    assert path.read_text().splitlines()[1:] == [f"{TS[0]},1.0", f"{TS[1]},0.0", f"{TS[2]},1.0"]
    ev = read_events(path, ok="ok")
    assert ev["ok"].tolist() == [True, False, True]
    assert ev["bucket"].astype(str).tolist() == ["success", "failure", "success"]
    assert main(["replay", str(path), "--ok", "ok", "--window", "1h"]) == 0
    assert "  outcomes: column 'ok', true/false values\n" in capsys.readouterr().err


def test_a_value_other_than_1_0_and_0_0_keeps_the_refusal(tmp_path):
    with pytest.raises(OutcomeError) as info:
        read_events(_csv(tmp_path, [1.0, 0.5, 1.0]), ok="ok")
    assert str(info.value).startswith(METRIC)


def test_floats_mixed_with_other_spellings_are_not_read_as_flags(tmp_path):
    with pytest.raises(OutcomeError) as info:
        read_events(_csv(tmp_path, ["1", "0.0", "true"]), ok="ok")
    assert str(info.value) == "non-boolean success value(s) at row 2 (1-based); use true/false " \
        "or 1/0."


def test_a_missing_float_is_named_as_missing(tmp_path):
    with pytest.raises(OutcomeError) as info:
        read_events(_csv(tmp_path, [1.0, None, 0.0]), ok="ok")
    assert str(info.value) == "1 empty success value(s) at row 2 (1-based); fill or drop those " \
        "rows."
