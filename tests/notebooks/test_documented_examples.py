"""The metric-series example each notebook's first cell documents (``budgetlab notebooks ... -p
source=metric.csv -p read="--time timestamp --ok-when 'value<50'" ...``), run as written, the
command line cut into words as a shell cuts it, from a folder holding ``metric.csv``: the
NAB-like series of tests/conftest.py (864 rows every 5 minutes from 2026-03-02 00:00 UTC; every
10th row, 87 in all, reads 60, a failure under ``value<50``). 03 kept ``by="captcha_type"`` and
stopped on the missing column; 01 and 02 too; 04's example kept its ``scope_column`` and
``breakdown_by``. Their tables say rates and targets in one unit, percent (03's hourly table too).

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


def _run_documented(name: str, metric_series: Path, tmp_path: Path, monkeypatch,
                    *more: str) -> str:
    """The documented command (``more`` words added) run in ``tmp_path`` (``metric.csv`` there):
    its HTML page."""
    from budgetlab.cli import main

    words = [*_documented(name), *more]
    assert words[:3] == ["budgetlab", "notebooks", "--html"], words
    folder = words[3]  # the folder the page names (each documented run its own)
    (tmp_path / "metric.csv").write_bytes(metric_series.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(words[1:]) == 0
    return (tmp_path / folder / name.replace(".ipynb", ".html")).read_text(encoding="utf-8")


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


def _percent(x: float) -> str:
    """A rate as the notebooks' tables write it: two decimals, a space before ``%``."""
    return f"{x * 100:.2f} %"


@pytest.mark.slow
def test_notebook_02_runs_its_metric_series_example_as_documented(metric_series, tmp_path,
                                                                  monkeypatch):
    """One tracker over everything (``by=None``), under ``target`` 95 % (the per-group ``targets``
    said not applied). A failure every 10th row, every 50 minutes, so any 1 h window (at most 13
    rows) holds 1 failure or more: burn >= 1 / (13 x 0.05) = 1.54; a 6 h one (at most 73 rows)
    7 or more: >= 1.92; a 24 h one (at most 289) 28 or more: >= 1.94. Each is EXHAUSTED all of
    its evaluated time, from the end of the 1-day warm-up (03-03 00:00 UTC) to the last row
    (03-04 23:55): 47 h 55 min = 47.9167 h, and changes status 0 times. The stop was
    ``metric.csv has no column 'captcha_type'``."""
    words = _documented("02_window_length.ipynb")
    assert "by=None" in words
    page = _run_documented("02_window_length.ipynb", metric_series, tmp_path, monkeypatch)
    assert ("864 events from Mon 2026-03-02 01:00 to Thu 2026-03-05 00:55 (Europe/Berlin): "
            "3.0 days") in page
    assert ("<code>by = None</code>: one tracker, under <code>target</code>; <code>targets</code> "
            "not applied.") in page
    assert re.search(r">log</th>\s*<th[^>]*>target</th>", page)  # the targets: one group
    assert ["0", "all events", "95 %"] in _table(page, "target")  # as given, in percent
    rows = _table(page, "share_exhausted")
    header = rows[0]
    got = {r[1]: dict(zip(header, r, strict=True)) for r in rows[1:]
           if r[2] == "0 s"}  # min_dwell 0, in words
    hours = f"{47 + 55 / 60:.4f}"
    assert hours == "47.9167"
    for window in ("1h", "6h", "1d"):
        assert {k: got[window][k] for k in ("transitions_per_day", "hours", "hours_exhausted",
                                             "share_exhausted")} == {
            "transitions_per_day": "0.0000", "hours": hours, "hours_exhausted": hours,
            "share_exhausted": "100.0 %"}, window


@pytest.mark.slow
def test_notebook_04_runs_its_metric_series_example_as_documented(metric_series, tmp_path,
                                                                  monkeypatch):
    """No scope, no breakdown, the log's worst moment: the tracker counts all 864 rows. The first
    1 h window that is full, at 01:00 UTC (02:00 CET), holds rows 0 .. 12 (13 rows, the row at
    the cut-off stays) with the failures of rows 0 and 10: success 11 / 13 = 0.8462, budget
    13 x 0.05 = 0.65, burn 2 / 0.65 = 3.0769, the most two failures 50 minutes apart give in 13
    rows. The example stopped on ``metric.csv has no column 'captcha_type'``."""
    words = _documented("04_incident_replay.ipynb")
    assert {"scope_column=None", "breakdown_by=None", "alert_time=None"} <= set(words)
    page = _run_documented("04_incident_replay.ipynb", metric_series, tmp_path, monkeypatch)
    assert ("864 events from Mon 2026-03-02 01:00 to Thu 2026-03-05 00:55 (Europe/Berlin): "
            "3.0 days") in page
    assert "The tracker counts 864 attempts in the whole log (no scope)." in page
    rows = {r[0]: r[1:] for r in _table(page, "1h window")}
    assert rows["ts"] == ["2026-03-02 02:00 CET"] * 2
    assert rows["total"] == ["13"] * 2 and rows["failures"] == ["2"] * 2
    assert rows["success_rate"] == [f"{11 / 13:.4f}"] * 2 == ["0.8462"] * 2
    assert rows["burn_rate"] == [f"{2 / (13 * 0.05):.4f}"] * 2 == ["3.0769"] * 2
    assert rows["status"] == ["exhausted"] * 2


@pytest.mark.slow
def test_notebook_03_shows_its_hourly_table_in_percent(metric_series, tmp_path, monkeypatch):
    """The hourly table showed fractions (0.0833) under a plot in percent. Taking the series'
    failures as the network's (``network_bucket=failure``): every hour of day holds 3 days x 12
    rows = 36 attempts, and the 87 failures are 3 per hour and 15 more, so 15 hours read
    4 / 36 = 11.11 % and 9 read 3 / 36 = 8.33 %. Local hour 1 (CET) is 00:00 UTC: rows 0 .. 11,
    288 .. 299 and 576 .. 587 hold rows 0, 10, 290 and 580: 11.11 %; local hour 0 (23:00 UTC)
    holds rows 280, 570 and 860: 8.33 %."""
    page = _run_documented("03_timeout_vs_solve.ipynb", metric_series, tmp_path, monkeypatch,
                           "-p", "network_bucket=failure")
    rows = _table(page, "hour")
    assert rows[0] == ["hour", *map(str, range(24))]
    rates = rows[1][1:]
    assert rates[1] == _percent(4 / 36) == "11.11 %" and rates[0] == _percent(3 / 36) == "8.33 %"
    assert sorted(rates) == sorted([_percent(4 / 36)] * 15 + [_percent(3 / 36)] * 9)
    assert ("share of each hour's attempts that failed as failure, in percent (hour of day in "
            "Europe/Berlin, all days together)") in page


@pytest.mark.slow
def test_notebook_01_says_why_it_does_not_judge_targets_per_group_without_by(
        metric_series, tmp_path, monkeypatch):
    """The documented metric-series example runs with ``by=None`` and the default ``proposed``
    (``recaptcha_v2:0.93,turnstile:0.97``): the notebook dropped it without a word. It says now
    that they are not judged, and why; ``-p proposed=0.97`` judges one target for the whole log
    (576 evaluated events, 58 failures: 89.93 %, under 97 % all of the time)."""
    page = html.unescape(_run_documented("01_recalibrate_slo.ipynb", metric_series, tmp_path,
                                         monkeypatch))
    assert ("names groups, but with <code>by = None</code> there is one SLO over every event "
            "and no group to give their targets to: not judged.") in page
    page = html.unescape(_run_documented("01_recalibrate_slo.ipynb", metric_series, tmp_path,
                                         monkeypatch, "-p", "proposed=0.97", "--force"))
    assert "The proposed target 97 % for all events is too strict" in page
    assert "EXHAUSTED or worse 100.0 % of the time under 97 %" in page
