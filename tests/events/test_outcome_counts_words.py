"""The outcome refusals count their labels and rows in the right number (``counted``): "1
unknown outcome label ... does not know it", "2 unknown outcome labels ... them"; written by hand
from the inputs."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.errors import OutcomeError


def _frame(outcomes, **extra):
    return pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=len(outcomes), freq="min",
                                             tz="UTC"), "outcome": outcomes, **extra})


def _refusal(frame, **kw) -> str:
    with pytest.raises(OutcomeError) as err:
        read_events(frame, **kw)
    return str(err.value)


def test_one_unknown_label_is_it_two_are_them():
    one = _refusal(_frame(["success", "weird", "weird"]))
    assert one.startswith("1 unknown outcome label (the built-in vocabulary does not know it, "
                          "and budgetlab gives no label a meaning it cannot know): 'weird' (2). ")
    two = _refusal(_frame(["success", "weird", "odd"]), outcomes={"success": "success"})
    assert two.startswith("2 unknown outcome labels (outcomes= does not list them): ")


def test_truncated_labels_are_counted():
    # 'succ' and 'tim' are prefixes of 'success' and 'timeout': two labels, rows 2 and 3
    text = _refusal(_frame(["success", "succ", "tim"]))
    assert text == ("2 truncated outcome labels (a prefix of a known label such as 'success' or "
                    "'timeout') at rows 2, 3 (1-based); fix or drop each such row, or list every "
                    "label with outcomes=.")
    text = _refusal(_frame(["success", "succ"]))
    assert text.startswith("1 truncated outcome label (a prefix") and "at row 2 (1-based);" in text


def test_a_failure_whose_bucket_says_success_is_counted():
    frame = _frame(["x", "x", "x"], ok=[True, False, False],
                   bucket=["success", "success", "timeout"]).drop(columns="outcome")
    text = _refusal(frame, ok="ok", bucket="bucket")
    assert text == ("1 failure (ok is false) whose bucket says success, at row 2 (1-based); fix "
                    "the ok or the bucket value.")
