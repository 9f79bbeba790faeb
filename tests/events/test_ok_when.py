"""A metric series read by the user's threshold: ``ok_when="value<50"`` (CLI ``--ok-when``).
Oracles: the NAB fixture counted apart with the ``csv`` module, hand-built values on each side of
the threshold for each operator, and the refusals' words written by hand."""

from __future__ import annotations

import csv
import operator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import ReadSpec, how_read, read_events
from budgetlab.errors import ConfigError, OutcomeError

ELB = Path(__file__).parents[1] / "fixtures" / "nab" / "elb_request_count_8c0756.csv"
SERIES = "each row is one measured interval, not a request: every figure counts rows"
FORMS = ('ok_when= takes COLUMN OP NUMBER (e.g. ok_when="value<300"): OP one of <, <=, >, >= '
         "and a finite NUMBER you choose, spaces allowed around each.")


def _csv_count(path: Path, compare, threshold: float) -> tuple[int, int]:
    """Rows of ``path`` whose value holds ``compare`` against ``threshold``, and the others,
    counted with the csv module on the raw text."""
    with open(path, newline="", encoding="utf-8") as f:
        values = [float(row["value"]) for row in csv.DictReader(f)]
    good = sum(1 for v in values if compare(v, threshold))
    return good, len(values) - good


def frame(values):
    ts = [f"2026-01-01T00:{i:02d}:00Z" for i in range(len(values))]
    return pd.DataFrame({"ts": ts, "value": values})


def test_the_nab_series_read_by_a_threshold_counts_as_the_csv_module_does():
    good, bad = _csv_count(ELB, operator.lt, 50)
    assert good and bad  # the threshold gives both outcomes
    ev = read_events(ELB, time="timestamp", ok_when="value<50")
    assert (int(ev["ok"].sum()), int((~ev["ok"]).sum())) == (good, bad)
    assert ev["bucket"].astype(str).value_counts().to_dict() == {"success": good, "failure": bad}
    how = how_read(ev)
    assert str(how).splitlines()[3] == (
        f"  outcomes: column 'value' < 50 (ok_when=): {good:,} success, {bad:,} failure; "
        f"{SERIES}")
    facts = how.as_dict()
    assert facts["ok_when"] == "value < 50"
    assert facts["outcome_column"] == "value"
    assert [(x["meaning"], x["rows"]) for x in facts["labels"]] == [("success", good),
                                                                   ("failure", bad)]


@pytest.mark.parametrize("op, compare", [("<", operator.lt), ("<=", operator.le),
                                          (">", operator.gt), (">=", operator.ge)])
def test_the_nab_series_and_each_operator_at_a_threshold_some_rows_equal(op, compare):
    # 19 rows of the fixture are exactly 50.0: each operator puts them on its side
    good, bad = _csv_count(ELB, compare, 50)
    ev = read_events(ELB, time="timestamp", ok_when=f"value{op}50")
    assert (int(ev["ok"].sum()), int((~ev["ok"]).sum())) == (good, bad)


@pytest.mark.parametrize("op, want", [("<", [True, False, False]), ("<=", [True, True, False]),
                                      (">", [False, False, True]), (">=", [False, True, True])])
def test_a_value_equal_to_the_threshold_falls_on_the_side_of_its_operator(op, want):
    # 49.5, 50 and 50.5 around 50, as numbers and as text ("50.0" is 50)
    for values in ([49.5, 50.0, 50.5], ["49.5", "50.0", "50.5"], ["49.5", "50", "50.5"]):
        ev = read_events(frame(values), ok_when=f"  value {op}  50 ")
        assert ev["ok"].tolist() == want
        assert ev["bucket"].astype(str).tolist() == ["success" if w else "failure" for w in want]


def test_negative_and_exponent_thresholds_read_as_numbers():
    ev = read_events(frame([-3.0, -1.5, 2e3]), ok_when="value>=-1.5")
    assert ev["ok"].tolist() == [False, True, True]
    ev = read_events(frame([999.0, 1000.0, 1001.0]), ok_when="value<1e3")
    assert ev["ok"].tolist() == [True, False, False]


@pytest.mark.parametrize("text", ["value", "value == 50", "value=50", "value != 50", "value <",
                                  "< 50", "value < fifty", "value < nan", "value < inf",
                                  "value < 1e999", "value < 1_000", "value =< 50",
                                  "value < 50 < 60"])
def test_anything_but_column_operator_number_is_refused_with_the_accepted_forms(text):
    with pytest.raises(ConfigError) as info:
        ReadSpec(ok_when=text)
    assert str(info.value) == f"ok_when= got {text!r}; {FORMS}"


def test_rows_missing_or_not_a_number_are_refused_with_their_count_and_first_row():
    with pytest.raises(OutcomeError) as info:
        read_events(frame(["10", "", "30", "n/a", "high", "20"]), ok_when="value<50")
    assert str(info.value) == (
        "column 'value': 3 rows missing or not a number (2 missing, 1 not a number) at rows 2, 4, "
        "5 (1-based); ok_when= compares numbers and will not call such a row good or bad: drop "
        "those rows or fill them, then read again.")
    with pytest.raises(OutcomeError) as info:
        read_events(frame([10.0, np.nan, 30.0]), ok_when="value<50")
    assert str(info.value).startswith("column 'value': 1 row missing or not a number (1 missing, "
                                      "0 not a number) at row 2 (1-based);")


@pytest.mark.parametrize("other, value", [("ok", "value"), ("outcomes", {"a": "success"}),
                                          ("bucket", "kind"), ("outcome", "status")])
def test_the_other_ways_of_saying_success_are_refused_beside_it_naming_both(other, value):
    with pytest.raises(ConfigError) as info:
        ReadSpec(ok_when="value<50", **{other: value})
    assert str(info.value) == (f"ok_when= and {other}= both say what a success is; ok_when= "
                               "reads it from a number by your threshold: give one of them.")


def test_a_spec_and_the_keyword_read_alike():
    spec = ReadSpec(time="timestamp", ok_when="value <= 50")
    assert spec.ok_when == "value <= 50" and spec.label == "value"
    assert spec.roles["value"] == ("ok_when",)
    a = read_events(ELB, spec)
    b = read_events(ELB, time="timestamp", ok_when="value<=50")
    pd.testing.assert_frame_equal(a, b)


def test_a_missing_metric_column_names_the_option():
    with pytest.raises(Exception, match=r"has no column 'latency' \(the metric column of the "
                                        r"threshold: name the right one with ok_when=\)"):
        read_events(ELB, time="timestamp", ok_when="latency<50")


def test_the_read_info_holds_the_threshold_apart_and_prints_from_it():
    """The threshold's column, operator and number (as written) are facts of the read, not a
    slice of its text: a column whose name holds spaces, an expression without spaces, a number
    in exponent form. Oracle: the values given, written by hand."""
    raw = frame([5.0, 2e3, 999.0]).rename(columns={"value": "p99 latency ms"})
    ev = read_events(raw, ok_when="p99 latency ms>=1e3")
    how = how_read(ev)
    assert tuple(how.threshold[:3]) == ("p99 latency ms", ">=", "1e3")
    assert how.ok_when == "p99 latency ms >= 1e3"
    assert str(how).splitlines()[3] == (
        f"  outcomes: column 'p99 latency ms' >= 1e3 (ok_when=): 1 success, 2 failure; {SERIES}")
    facts = how.as_dict()
    assert facts["threshold"] == {"column": "p99 latency ms", "op": ">=", "number": "1e3"}
    assert facts["ok_when"] == "p99 latency ms >= 1e3"
