"""A column of floats written to text by pandas (``1.0``/``0.0``, ``200.0``) is read as the same
floats are in a DataFrame or Parquet: each value as its whole number. Expected values are written
by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import how_read, read_events
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
    # no --bucket: every meaning is the --ok column's, said once on the outcomes line
    assert "  outcomes: column 'ok' (--ok), true/false values\n" in capsys.readouterr().err


def test_a_value_other_than_1_0_and_0_0_is_refused_as_in_a_dataframe(tmp_path):
    # 1.0 is true, 0.5 no boolean: the row of 0.5 is named, from the CSV as from the DataFrame
    # (the CSV's rows counted after its header, as its message says)
    want = "non-boolean success value at row 2 (1-based{}); use true/false or 1/0."
    frame = pd.DataFrame({"ts": TS, "ok": [1.0, 0.5, 1.0]})
    for source, after in ((_csv(tmp_path, [1.0, 0.5, 1.0]), ", after the header"), (frame, "")):
        with pytest.raises(OutcomeError) as info:
            read_events(source, ok="ok")
        assert str(info.value) == want.format(after)


def test_a_float_metric_series_keeps_its_refusal(tmp_path):
    with pytest.raises(OutcomeError) as info:
        read_events(_csv(tmp_path, [0.25, 0.5, 0.75]), ok="ok")
    assert str(info.value).startswith(METRIC)


def test_each_value_is_read_on_its_own_beside_other_spellings(tmp_path):
    # 0.0 is the number 0 whatever its neighbours: a rule over the whole column made the answer
    # depend on how the input was cut (a Dask partition holding only 1.0/0.0)
    ev = read_events(_csv(tmp_path, ["1", "0.0", "true"]), ok="ok")
    assert ev["ok"].tolist() == [True, False, True]


def test_a_whole_number_other_than_1_and_0_is_not_a_flag(tmp_path):
    with pytest.raises(OutcomeError) as info:
        read_events(_csv(tmp_path, ["1.0", "2.0", "0.0"]), ok="ok")
    assert str(info.value) == "non-boolean success value at row 2 (1-based, after the header); " \
        "use true/false or 1/0."


# one table of floats (an outcome column as pandas holds it), read from a DataFrame, from the CSV
# file pandas writes (1.0, 0.0, 200.0 as text) and from Parquet (doubles)
FLOATS = pd.DataFrame({"ts": [f"2026-01-01T00:0{i}:00Z" for i in range(5)],
                       "v": [1.0, 0.0, 1.0, 1.0, 0.0]})
STATUSES = FLOATS.assign(v=[200.0, 503.0, 200.0, 404.0, 500.0])
SOURCES = ["frame", "csv", "parquet"]


def _source(tmp_path, table, kind):
    if kind == "frame":
        return table
    path = tmp_path / f"log.{kind}"
    table.to_csv(path, index=False) if kind == "csv" else table.to_parquet(path)
    return path


@pytest.mark.parametrize("kind", SOURCES)
@pytest.mark.parametrize("role", ["outcome", "ok"])
def test_a_float_1_0_column_is_read_alike_from_every_source(tmp_path, kind, role):
    ev = read_events(_source(tmp_path, FLOATS, kind), **{role: "v"})
    # by hand: 1.0 1.0 1.0 are successes, 0.0 0.0 failures
    assert ev["ok"].tolist() == [True, False, True, True, False]
    assert ev["bucket"].value_counts().to_dict() == {"success": 3, "failure": 2}


@pytest.mark.parametrize("kind", SOURCES)
def test_float_statuses_take_status_ranges_from_every_source(tmp_path, kind):
    ev = read_events(_source(tmp_path, STATUSES, kind), outcome="v",
                     outcomes={"2xx": "success", "4xx": "skip", "5xx": "server_error"})
    # by hand: 200 200 success, 503 500 server_error, 404 left out
    assert ev["bucket"].astype(str).tolist() == ["success", "server_error", "success",
                                                 "server_error"]
    assert how_read(ev).skipped == (("outcome '404' -> skip", 1),)


def test_a_missing_float_is_named_as_missing(tmp_path):
    with pytest.raises(OutcomeError) as info:
        read_events(_csv(tmp_path, [1.0, None, 0.0]), ok="ok")
    assert str(info.value) == "1 empty success value at row 2 (1-based, after the header); " \
        "fill or drop those rows."
