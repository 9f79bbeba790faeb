"""What the notebooks take and say: docs/notebooks.md lists each notebook's parameters, as its
parameters cell has them; 03 runs without a split (``split_by=None``); 05's parameter comments
say what the docs say; 02 says that its policy scores count pages only."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "budgetlab" / "notebooks"


def _parameters_cell(name: str) -> str:
    nb = nbformat.read(FOLDER / name, as_version=4)
    return next(c.source for c in nb.cells if "parameters" in c.metadata.get("tags", []))


def _parameters(name: str) -> dict[str, object]:
    tree = ast.parse(_parameters_cell(name))
    return {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}


def _docs_table() -> dict[str, list[str]]:
    """docs/notebooks.md's table "| notebook | parameters |": each notebook's names in order."""
    lines = (ROOT / "docs" / "notebooks.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| notebook | parameters |")
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        notebook, names = (cell.strip() for cell in line.strip("|").split("|"))
        # a name is a backticked identifier; `None` in a remark is not one
        rows[notebook.strip("`")] = [n for n in re.findall(r"`([a-z_]+)`", names)]
    return rows


def test_the_docs_list_every_notebooks_parameters_in_its_order():
    """The docs said every notebook takes ``target`` and ``log_format``; 05 took neither (it now
    takes ``target``; an access log has no durations, so ``log_format`` stays out of 05)."""
    table = _docs_table()
    assert sorted(table) == sorted(p.name for p in FOLDER.glob("*.ipynb"))
    for name, listed in table.items():
        assert listed == list(_parameters(name)), name


def test_notebook_05_takes_the_current_target_and_uses_it():
    """05 had ``bl.SLO(target=0.99, ...)`` in a code cell: ``-p target=...`` was refused."""
    assert _parameters("05_latency_slo.ipynb")["target"] == 0.95  # as in 01 to 04
    nb = nbformat.read(FOLDER / "05_latency_slo.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "bl.SLO(target=target, window=window)" in code
    assert "target=0." not in code.replace(_parameters_cell("05_latency_slo.ipynb"), "")


def test_notebook_05_offers_no_metric_series_for_the_timeouts():
    """docs/latency.md: a metric series of durations is refused for latency, so the comment of
    ``timeouts`` may not offer one as a log without a client timeout."""
    cell = _parameters_cell("05_latency_slo.ipynb")
    assert "metric series" not in cell
    assert "# shows no client timeout: no timeout rows, client_timeout None)" in cell


def test_notebook_02_says_its_scores_count_pages_only():
    """The table gave ``recall 0`` to the workbook while its 3-day ticket tier fired during two
    incidents: the markdown defined recall without saying that only pages count."""
    nb = nbformat.read(FOLDER / "02_window_length.ipynb", as_version=4)
    text = " ".join(" ".join(c.source.split()) for c in nb.cells)
    assert "**recall** = incidents a page detected / incidents" in text
    assert "Only the tiers that page count (severity `page`, Pyrra's `critical`)" in text
    assert '.set_caption("pages only: tickets neither detect nor page")' in text


def _small_log(path: Path) -> None:
    """Two days, one attempt every 10 min per captcha type: type a times out at every 7th
    attempt, b at every 11th, and both fail to solve at attempts 3, 53, ..., 253 (written after
    the timeouts, so it replaces attempt 203's timeout for a and 253's for b). By hand: a has 42
    multiples of 7 in 0 .. 287, 41 timeouts left; b 27 multiples of 11, 26 left."""
    lines = ["ts,outcome,captcha_type"]
    for group, every in (("a", 7), ("b", 11)):
        for i in range(288):
            outcome = ("solve_error" if i in (3, 53, 103, 153, 203, 253) else
                       "timeout" if i % every == 0 else "success")
            lines.append(f"2026-01-{1 + i // 144:02d}T{i % 144 // 6:02d}:{i % 6 * 10:02d}:00Z,"
                         f"{outcome},{group}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_notebook_03_runs_without_a_split(tmp_path, monkeypatch):
    """``split_by=None`` stopped in cell 5 with "by=['method', None]: each group key is ...",
    naming ``by``; it now means no split: one row per group."""
    papermill = pytest.importorskip("papermill", reason="papermill runs the notebook")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    _small_log(tmp_path / "small.csv")
    out = tmp_path / "03.ipynb"
    papermill.execute_notebook(
        str(FOLDER / "03_timeout_vs_solve.ipynb"), str(out), kernel_name="python3",
        progress_bar=False, cwd=str(tmp_path),
        parameters={"source": "small.csv", "incidents": None, "split_by": None, "tz": "UTC"})
    outputs = [o for c in nbformat.read(out, as_version=4).cells for o in c.get("outputs", [])]
    assert not [f"{o.ename}: {o.evalue}" for o in outputs if o.output_type == "error"]
    pages = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    shown = next(h for h in pages if "sli_without" in h)
    header = [html.unescape(v).strip() for v in re.findall(r"<th[^>]*>(.*?)</th>", shown, re.S)]
    assert "region" not in header and "captcha_type" in header
    rows = [[html.unescape(v).strip() for v in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
            for tr in re.findall(r"<tr>(.*?)</tr>", shown, re.S)]
    # captcha type, events, timeouts
    assert [r[:3] for r in rows if r] == [["a", "288", "41"], ["b", "288", "26"]]
