"""The metric-series example each notebook's first cell documents (``budgetlab notebooks ... -p
source=metric.csv -p read="--time timestamp --ok-when 'value<50'" ...``), run as written, the
command line cut into words as a shell cuts it, from a folder holding ``metric.csv``: the
NAB-like series of tests/conftest.py (864 rows every 5 minutes from 2026-03-02 00:00 UTC; every
10th row, 87 in all, reads 60, a failure under ``value<50``). 03 kept ``by="captcha_type"`` and
stopped on the missing column; 01 too. Their tables say rates and targets in one unit, percent.

And a notebook's refusal of a group parameter names that parameter (03's ``split_by``), not the
keyword ``by`` of the function the notebook calls."""

from __future__ import annotations

import html
import math
import re
import shlex
from pathlib import Path

import nbformat
import pytest

import budgetlab

#: the checkout of the budgetlab imported here (tests/conftest.py puts this one first): its
#: notebooks, and the kernel's PYTHONPATH
ROOT = Path(budgetlab.__file__).resolve().parents[1]
FOLDER = ROOT / "budgetlab" / "notebooks"


def _documented(name: str) -> list[str]:
    """The notebook's documented command for a metric series, cut into words."""
    nb = nbformat.read(FOLDER / name, as_version=4)
    lines = [line for cell in nb.cells if cell.cell_type == "markdown"
             for line in cell.source.splitlines() if "-p source=metric.csv" in line]
    assert len(lines) == 1, lines
    return shlex.split(lines[0])


def _run_documented(name: str, metric_series: Path, tmp_path: Path, monkeypatch) -> str:
    """The documented command run in ``tmp_path`` (``metric.csv`` there): its HTML page."""
    from budgetlab.cli import main

    words = _documented(name)
    assert words[:2] == ["budgetlab", "notebooks"] and "reports/" in words
    (tmp_path / "metric.csv").write_bytes(metric_series.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(words[1:]) == 0
    return (tmp_path / "reports" / name.replace(".ipynb", ".html")).read_text(encoding="utf-8")


def _table(page: str, header: str) -> list[list[str]]:
    """The rows (header row first) of the page's first table with a column ``header``."""
    table = next(t for t in re.findall(r"<table.*?</table>", page, re.S)
                 if f">{header}</th>" in t)
    return [[html.unescape(c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr, re.S)]
            for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S)]


def _wilson(good: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95 % Wilson interval of ``good`` in ``n``, by its textbook formula."""
    p = good / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@pytest.mark.slow
def test_notebook_03_runs_its_metric_series_example_as_documented(metric_series, tmp_path,
                                                                  monkeypatch):
    """One SLO over everything (``by=None``), unsplit: 864 attempts, 87 failures, none of them a
    timeout; 777 / 864 = 89.93 % with and without the timeouts, under the target 95 %: the
    target is missed even without them."""
    words = _documented("03_timeout_vs_solve.ipynb")
    assert "by=None" in words and "split_by=None" in words
    page = _run_documented("03_timeout_vs_solve.ipynb", metric_series, tmp_path, monkeypatch)
    assert ("864 events from Mon 2026-03-02 01:00 to Thu 2026-03-05 00:55 (Europe/Berlin): "
            "3.0 days") in page
    assert "No <code>timeout</code> failures in this log" in page
    rows = _table(page, "success_rate_without")
    assert rows[0][1:5] == ["log", "target", "success_rate", "success_rate_without"]
    assert [r[1:6] for r in rows[1:]] == [
        ["all events", "95 %", "89.93 %", "89.93 %", "misses_without"]]
    assert "success rates and targets in percent" in page


@pytest.mark.slow
def test_notebook_01_runs_its_metric_series_example_with_its_summary_in_percent(
        metric_series, tmp_path, monkeypatch):
    """The summary showed ``success_rate`` 0.8993 beside the target 95 %. Evaluated after the
    first 24 h window (rows 288 .. 863): 576 rows, 58 of them failures (rows 290, 300, ...,
    860), 518 / 576 = 89.93 %, the Wilson interval 87.20 % .. 92.13 %."""
    assert "by=None" in _documented("01_recalibrate_slo.ipynb")
    page = _run_documented("01_recalibrate_slo.ipynb", metric_series, tmp_path, monkeypatch)
    rows = _table(page, "suggested_target")
    assert rows[0][1:5] == ["success_rate", "ci_low", "ci_high", "current_target"]
    low, high = _wilson(518, 576)
    assert [r[1:6] for r in rows[1:]] == [
        [f"{518 / 576:.2%}".replace("%", " %"), f"{low:.2%}".replace("%", " %"),
         f"{high:.2%}".replace("%", " %"), "95 %", "too_strict"]]
    assert rows[1][1:4] == ["89.93 %", "87.20 %", "92.13 %"]
    assert "success rates (with their interval) and targets in percent" in page


@pytest.mark.slow
def test_notebook_03_names_split_by_in_its_refusal_of_a_split(metric_series, tmp_path,
                                                              monkeypatch):
    """``split_by="region,host"`` was refused as ``by=['captcha_type', 'region,host']: ...``."""
    papermill = pytest.importorskip("papermill", reason="papermill runs the notebook")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / "03.ipynb"
    with pytest.raises(papermill.PapermillExecutionError):
        papermill.execute_notebook(
            str(FOLDER / "03_timeout_vs_solve.ipynb"), str(out), kernel_name="python3",
            progress_bar=False, cwd=str(tmp_path),
            parameters={"source": str(metric_series), "incidents": None,
                        "split_by": "region,host",
                        "read": "--time timestamp --ok-when 'value<50'"})
    errors = [o for c in nbformat.read(out, as_version=4).cells for o in c.get("outputs", [])
              if o.output_type == "error"]
    assert [(e.ename, e.evalue) for e in errors] == [(
        "ConfigError", "split_by='region,host': a group key is the name of one column of the "
                       "log; give split_by a column name, or None.")]
