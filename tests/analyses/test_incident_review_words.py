"""The refusals of ``tracker_at`` and ``incident_span`` name the API's keywords (``at=``,
``start=``, ``end=``) from the API and the notebook's parameters (``alert_time``,
``incident_start``, ``incident_end``) from notebook 04, which passes them as ``names=``. They
mixed the two (the API said "give both incident_start and incident_end", the notebook
"at='foo'"), and a time past pandas' range raised pandas' own OutOfBoundsDatetime."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pandas as pd
import pytest

from budgetlab import SLO, as_events, replay
from budgetlab.analyses.incident_review import incident_span, tracker_at
from budgetlab.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_NAMES = {"at": "alert_time", "start": "incident_start", "end": "incident_end"}


@pytest.fixture(scope="module")
def states():
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    return replay(as_events(ts, [True] * len(ts)), SLO(target=0.9, window="30min"))


def _refusal(call) -> str:
    with pytest.raises(ConfigError) as caught:
        call()
    return str(caught.value)


def test_the_api_names_its_keywords(states):
    assert _refusal(lambda: tracker_at(states, "3000-01-01")) == (
        "at='3000-01-01' is out of range: times run from 1677-09-21 to 2262-04-11; give a time "
        "within them.")
    assert _refusal(lambda: incident_span(states, at="2026-01-01 01:00",
                                          start="2026-01-01 00:30")) == (
        "start= is given but end= is not; give both start= and end= (the span under review), "
        "or neither.")
    assert _refusal(lambda: incident_span(states, at="2026-01-01 01:00",
                                          start="2026-01-01 00:30", end="2026-01-01 00:10")) == (
        "end='2026-01-01 00:10' must come after start='2026-01-01 00:30'; give the span's end "
        "as end=, its start as start=.")


def test_the_notebook_names_its_parameters(states):
    assert _refusal(lambda: tracker_at(states, "foo", names=NOTEBOOK_NAMES)) == (
        "alert_time='foo' is not a time; give e.g. '2026-01-01 00:00' or a Timestamp (a time "
        "without offset is read in UTC).")
    assert _refusal(lambda: tracker_at(states, "3000-01-01", names=NOTEBOOK_NAMES)) == (
        "alert_time='3000-01-01' is out of range: times run from 1677-09-21 to 2262-04-11; give "
        "a time within them.")
    assert _refusal(lambda: incident_span(states, at="2026-01-01 01:00", end="2026-01-01 00:30",
                                          names=NOTEBOOK_NAMES)) == (
        "incident_end is given but incident_start is not; give both incident_start and "
        "incident_end (the span under review), or neither.")
    assert _refusal(lambda: incident_span(states, at="2026-01-01 01:00", start="x", end="y",
                                          names=NOTEBOOK_NAMES)).startswith(
        "incident_start='x' is not a time;")
    assert _refusal(lambda: incident_span(states, at="2026-01-01 01:00",
                                          start="2026-01-01 00:30", end="2026-01-01 00:10",
                                          names=NOTEBOOK_NAMES)) == (
        "incident_end='2026-01-01 00:10' must come after incident_start='2026-01-01 00:30'; "
        "give the span's end as incident_end, its start as incident_start.")


def test_to_zone_convert_each_column_and_keep_a_missing_time():
    from budgetlab.analyses.incident_review import to_zone  # new: imported here alone

    # 02:47 UTC is 03:47 CET (UTC+1 in November); the original is left as it was
    table = pd.DataFrame({"a": pd.to_datetime(["2026-11-05 02:47", None], utc=True),
                          "b": ["2026-07-01 10:00", "2026-07-01 11:00"], "n": [1, 2]})
    local = to_zone(table, ["a", "b"], "Europe/Berlin")
    assert local["a"].iloc[0] == pd.Timestamp("2026-11-05 03:47", tz="Europe/Berlin")
    assert str(local["a"].dt.tz) == "Europe/Berlin" and pd.isna(local["a"].iloc[1])
    assert local["b"].astype(str).tolist() == ["2026-07-01 12:00:00+02:00",
                                               "2026-07-01 13:00:00+02:00"]
    assert table["a"].dt.tz is not None and str(table["a"].dt.tz) == "UTC"
    assert local["n"].tolist() == [1, 2]


@pytest.mark.slow
@pytest.mark.parametrize(("params", "said"), [
    ({"alert_time": "3000-01-01"},
     "alert_time='3000-01-01' is out of range: times run from 1677-09-21 to 2262-04-11"),
    ({"alert_time": "2026-11-05 03:47", "incident_start": "2026-11-05 03:00"},
     "incident_start is given but incident_end is not; give both incident_start and "
     "incident_end"),
])
def test_notebook_04_refuses_in_its_parameters(tmp_path, monkeypatch, params, said):
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / "04.ipynb"
    with pytest.raises(papermill.PapermillExecutionError) as caught:
        papermill.execute_notebook(
            str(ROOT / "budgetlab" / "notebooks" / "04_incident_replay.ipynb"), str(out),
            kernel_name="python3", progress_bar=False, cwd=str(tmp_path), parameters=params)
    assert caught.value.ename == "ConfigError"
    assert said in " ".join(caught.value.evalue.split())
    errors = [o for c in nbformat.read(out, as_version=4).cells for o in c.get("outputs", [])
              if o.output_type == "error"]
    assert len(errors) == 1 and "at=" not in errors[0].evalue
