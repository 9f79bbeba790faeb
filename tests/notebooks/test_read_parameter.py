"""A notebook reads any log the command line reads: its ``read`` parameter takes the reading flags
as the command line writes them (budgetlab.cli.read_flags.read_source). Notebook 01 runs on a
NAB-like metric series (``timestamp,value``, tests/conftest.py), read by a threshold of the
user's; the counts are those of the file, by construction."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "budgetlab" / "notebooks" / "01_recalibrate_slo.ipynb"


def _run(tmp_path: Path, monkeypatch, **parameters) -> list:
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / NOTEBOOK.name
    try:
        papermill.execute_notebook(str(NOTEBOOK), str(out), kernel_name="python3",
                                   progress_bar=False, cwd=str(tmp_path), parameters=parameters)
    except papermill.PapermillExecutionError:
        pass  # the outputs say what was raised
    return [o for cell in nbformat.read(out, as_version=4).cells for o in cell.get("outputs", [])]


@pytest.mark.slow
def test_notebook_01_reads_a_metric_series_by_its_read_parameter(metric_series, tmp_path,
                                                                 monkeypatch):
    """The series of tests/conftest.py: 864 rows every 5 minutes from 2026-03-02 00:00 UTC, 87
    of them at or above 50."""
    outputs = _run(tmp_path, monkeypatch, source=str(metric_series), incidents=None, by=None,
                   n_boot=0, read="--time timestamp --ok-when 'value<50'")
    assert not [o for o in outputs if o.output_type == "error"]
    text = "\n".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    # how it was read, in the flags' words; then the span in Europe/Berlin (CET, UTC+1 in March)
    assert "how it was read: latency.csv (864 rows)" in text
    assert "outcomes: column 'value' < 50 (--ok-when): 777 success, 87 failure" in text
    assert ("864 events from Mon 2026-03-02 01:00 to Thu 2026-03-05 00:55 (Europe/Berlin): "
            "3.0 days") in text
    buckets = next(o.data["text/plain"] for o in outputs
                   if "bucket" in o.get("data", {}).get("text/plain", ""))
    assert re.search(r"events\s+777\s+87\b", buckets), buckets  # success, then failure


@pytest.mark.slow
def test_a_notebook_refusal_names_the_flag_and_the_read_parameter(metric_series, tmp_path,
                                                                  monkeypatch):
    """Without ``read``, the refusal used to say "time=", which a notebook cannot take."""
    outputs = _run(tmp_path, monkeypatch, source=str(metric_series), incidents=None, by=None)
    errors = [o for o in outputs if o.output_type == "error"]
    assert [e.ename for e in errors] == ["SchemaError"]
    assert errors[0].evalue == (
        "latency.csv has no column 'ts' (the time column: name the right one with --time). "
        "Columns present: 'timestamp', 'value'. (A notebook takes --time in its parameter read, "
        "as the command line writes it.)")
