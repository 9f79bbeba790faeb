"""Notebook 05's trade-off counts ``latency_sli`` within the largest of ``thresholds``, whatever
their order, or within ``sli_threshold`` when given (stop 58): it took the last one listed, so
``thresholds="20s,5s"`` read the SLI within 5 s, under a caption saying "the last of
thresholds". Run unchanged on a small log (papermill); figures by hand."""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest

import budgetlab


def _small_log(path: Path) -> None:
    """Two days, an attempt every 10 min (288): attempt i succeeds in 3, 8 or 15 s for i % 4 of
    0, 1, 2, and times out at 30 s for i % 4 == 3 (the timeout in force: no success outlasts
    it). 72 attempts each."""
    lines = ["ts,outcome,duration"]
    for i in range(288):
        outcome, seconds = (("success", (3, 8, 15)[i % 4]) if i % 4 < 3 else ("timeout", 30))
        lines.append(f"2026-01-{1 + i // 144:02d}T{i % 144 // 6:02d}:{i % 6 * 10:02d}:00Z,"
                     f"{outcome},{seconds}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _tradeoff(html_pages):
    """The trade-off table's caption and its rows' cells (the client timeout first)."""
    page = next(h for h in html_pages if "latency_sli: the share" in h)
    caption = html.unescape(re.search(r"<caption>(.*?)</caption>", page, re.S)[1]).strip()
    rows = [[html.unescape(v).strip() for v in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
            for tr in re.findall(r"<tr>(.*?)</tr>", page, re.S)]
    return caption, [r for r in rows if r]


@pytest.mark.slow
def test_the_sli_is_counted_within_the_largest_threshold(tmp_path, monkeypatch):
    """thresholds "20s,5s": the SLI's threshold is 20 s. At a 10 s candidate successes within
    min(20 s, 10 s) count: the 3 s and 8 s ones, 144 of 288 = 0.5 (within 5 s: 72, 0.25); at
    30 s, within 20 s: 3, 8 and 15 s, 216 of 288 = 0.75 (within 5 s: 0.25)."""
    papermill = pytest.importorskip("papermill", reason="papermill runs the notebook")
    package = Path(budgetlab.__file__).resolve().parent
    monkeypatch.setenv("PYTHONPATH", str(package.parent))
    _small_log(tmp_path / "small.csv")
    out = tmp_path / "05.ipynb"
    papermill.execute_notebook(
        str(package / "notebooks" / "05_latency_slo.ipynb"), str(out), kernel_name="python3",
        progress_bar=False, cwd=str(tmp_path),
        parameters={"source": "small.csv", "incidents": None, "by": None,
                    "thresholds": "20s,5s", "client_timeout": None, "timeouts": "10s,30s",
                    "tz": "UTC"})
    outputs = [o for c in nbformat.read(out, as_version=4).cells for o in c.get("outputs", [])]
    assert not [f"{o.ename}: {o.evalue}" for o in outputs if o.output_type == "error"]
    caption, rows = _tradeoff([o["data"]["text/html"] for o in outputs
                               if "text/html" in o.get("data", {})])
    assert [(r[0], r[-1]) for r in rows] == [("10 s", "0.5000"), ("30 s", "0.7500")]
    assert caption.startswith("latency_sli: the share of attempts that succeeded within 20 s "
                              "(the largest of thresholds)")
