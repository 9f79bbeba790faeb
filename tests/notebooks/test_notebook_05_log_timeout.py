"""Notebook 05 on a user's log (stop 58): it ran the analyses with the demo's ``client_timeout
"60s"`` whatever the log showed (a log whose timeouts last 10 s read "60 s client_timeout") and
weighed 20-60 s candidates above the log's timeout. Now ``client_timeout=None`` reads the timeout
from the log as ``budgetlab latency`` does, and ``timeouts="auto"`` weighs a third, a half, three
quarters and all of it. The small log of the SLI-threshold test; figures by hand."""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest

import budgetlab
from tests.notebooks.test_notebook_05_sli_threshold import _small_log, _tradeoff

NOTEBOOK = Path(budgetlab.__file__).resolve().parent / "notebooks" / "05_latency_slo.ipynb"


def test_the_text_says_no_threshold_it_cannot_know():
    """ "30 s here" was the demo's largest threshold, said of every log."""
    text = " ".join(" ".join(c.source.split()) for c in nbformat.read(NOTEBOOK, as_version=4).cells
                    if c.cell_type == "markdown")
    assert "30 s here" not in text
    parameters = nbformat.read(NOTEBOOK, as_version=4).cells[2].source
    assert "\nclient_timeout = None\n" in parameters and '\ntimeouts = "auto"\n' in parameters


@pytest.mark.slow
def test_the_timeout_is_read_from_the_log_and_no_candidate_lies_above_it(tmp_path, monkeypatch):
    """The small log: successes of 3, 8 and 15 s, timeouts at 30 s (72 attempts each of 288):
    the timeout in force is 30 s; candidates 10, 15, 22.5 and 30 s. At 10 s the 15 s successes
    are cut: 72 lost, 144 timed out, availability 144 / 288 = 0.5, the SLI within min(30 s, 10 s)
    0.5; at 15 s and above nothing more is lost (a success of 15 s is not cut at 15 s): 72 timed
    out, 216 / 288 = 0.75."""
    papermill = pytest.importorskip("papermill", reason="papermill runs the notebook")
    monkeypatch.setenv("PYTHONPATH", str(NOTEBOOK.parents[2]))
    _small_log(tmp_path / "small.csv")
    out = tmp_path / "05.ipynb"
    papermill.execute_notebook(
        str(NOTEBOOK), str(out), kernel_name="python3", progress_bar=False, cwd=str(tmp_path),
        parameters={"source": "small.csv", "incidents": None, "by": None, "tz": "UTC"})
    outputs = [o for c in nbformat.read(out, as_version=4).cells for o in c.get("outputs", [])]
    assert not [f"{o.ename}: {o.evalue}" for o in outputs if o.output_type == "error"]
    pages = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    censoring = next(p for p in pages if "timeout_source" in p)
    cells = [html.unescape(v).strip() for v in re.findall(r"<td[^>]*>(.*?)</td>", censoring)]
    assert cells == ["30 s", "the smallest duration of the group's timeouts"]
    quantiles = next(p for p in pages if "time to success in" in p)
    assert "longest" in quantiles and "days" not in quantiles  # never "0 days 00:00:30"
    _, rows = _tradeoff(pages)
    # client_timeout, attempts, timed_out, successes_lost, ..., availability, latency_sli
    assert [(r[0], r[2], r[3], r[-2], r[-1]) for r in rows] == [
        ("10 s", "144", "72", "0.5000", "0.5000"), ("15 s", "72", "0", "0.7500", "0.7500"),
        ("22.5 s", "72", "0", "0.7500", "0.7500"), ("30 s", "72", "0", "0.7500", "0.7500")]
