"""Notebook 02 as a reader meets it (Stop 57), run on a stranger's log: the rolling-vs-calendar
recovery table says durations in words with the sign as "earlier" or "later" (it printed
``-1 days +21:23:22.231000`` for "2 h 36 min later"), and the policy figure draws every policy the
score table scores (it drew three of five, not the ``seed 24h`` its verdict named)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import budgetlab
from budgetlab import synth

# the notebook of the budgetlab imported, run by that budgetlab
ROOT = Path(budgetlab.__file__).resolve().parents[1]
NOTEBOOK = ROOT / "budgetlab" / "notebooks" / "02_window_length.ipynb"


def words(gap: pd.Timedelta) -> str:
    """The oracle, written apart from budgetlab: the gap's two largest units, truncated, then
    whether the calendar day recovered earlier (a positive gap) or later."""
    secs = int(abs(gap).total_seconds())
    d, h, m, s = secs // 86400, secs % 86400 // 3600, secs % 3600 // 60, secs % 60
    units = [(d, "d"), (h, "h"), (m, "min"), (s, "s")]
    first = next(i for i, (n, _) in enumerate(units) if n or i == 3)
    said = " ".join(f"{n} {u}" for n, u in units[first:first + 2] if n)
    return f"{said} {'earlier' if gap > pd.Timedelta(0) else 'later'}"


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Notebook 02 run on the stranger's log (10 days of it), with a last cell of the test's own
    that prints the figure's chart titles, the scored policies and the recovery pairs' gaps."""
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    tmp_path = tmp_path_factory.mktemp("nb02")
    ev, inc = synth.generate("2026-10-14 09:30", 10, seed=7, rate=0.05)
    ev = ev.rename(columns={"bucket": "outcome"}).drop(columns=["ok", "session_id", "sitekey"])
    ev["outcome"] = ev["outcome"].astype(str)
    ev.to_parquet(tmp_path / "mylog.parquet", index=False)
    inc.to_csv(tmp_path / "inc.csv", index=False)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "print(repr(([t for t in (ax.get_title(loc='left') for ax in fig.axes) if t],"
        " list(scores.index), [str(x) for x in recovery.index],"
        " (recovery['1d'] - recovery['calendar:day']).astype('int64').tolist())))"))
    nbformat.write(nb, tmp_path / "in.ipynb")
    out = tmp_path / "out.ipynb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", str(ROOT))
        papermill.execute_notebook(str(tmp_path / "in.ipynb"), str(out), kernel_name="python3",
                                   progress_bar=False, cwd=str(tmp_path),
                                   parameters={"source": "mylog.parquet", "incidents": "inc.csv"})
    done = nbformat.read(out, as_version=4)
    return done, ast.literal_eval(done.cells[-1].outputs[0]["text"])


@pytest.mark.slow
def test_the_policy_figure_draws_every_scored_policy(ran):
    _, (titles, policies, _, _) = ran
    assert policies == ["workbook", "pyrra", "seed 1h", "seed 1h + hysteresis", "seed 24h"]
    assert titles == [f"policy {p}" for p in policies]  # the verdict's seed 24h among them


@pytest.mark.slow
def test_recovery_gaps_in_words_earlier_or_later(ran):
    done, (_, _, pairs, gaps) = ran
    (table,) = [o["data"]["text/html"] for c in done.cells if c.get("id") == "02-11"
                for o in c.outputs if "text/html" in o.get("data", {})]
    assert "days" not in table and "calendar_day_recovered" in table  # no raw Timedelta
    said = re.findall(r">([^<>]*(?:earlier|later|at the same time))<", table)
    expected = sorted(((pd.Timedelta(g, unit="ns"), p) for g, p in zip(gaps, pairs, strict=True)),
                      key=lambda x: x[0], reverse=True)
    assert len(expected) >= 2
    assert said == [words(g) for g, _ in expected]
    assert any(w.endswith("later") for w in said) and any(w.endswith("earlier") for w in said)
