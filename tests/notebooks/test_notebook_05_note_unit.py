"""Notebook 05's note on withheld quantiles says the longest duration in the unit of the quantile
table's ``longest`` column (stop 59): it said "900 ms" for a group whose column read "0.9 s".
The notebook's own cells run in process (the imports cell, then the profile's), on a hand-built
log; the expected words by hand."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import nbformat
import pandas as pd

import budgetlab
from tests.latency_rows import events

NOTEBOOK = Path(budgetlab.__file__).resolve().parent / "notebooks" / "05_latency_slo.ipynb"


def _run_profile_cell(log) -> str:
    """What the profile cell prints (its tables not shown) on ``log``, by ``g``."""
    cells = [c.source for c in nbformat.read(NOTEBOOK, as_version=4).cells
             if c.cell_type == "code"]
    imports = next(c for c in cells if c.lstrip().startswith("%matplotlib"))
    profile = next(c for c in cells if "withheld_note(" in c and "latency_profile(" in c)
    space: dict = {}
    exec(cells[0], space)  # the parameters, then this log's
    space.update(by="g", thresholds="1s", client_timeout=None)
    # the imports cell sets pandas' display precision for the notebook: kept to this test (the
    # doctests run later in the same process print with pandas' default)
    with pd.option_context("display.precision", pd.get_option("display.precision")):
        exec("\n".join(line for line in imports.splitlines() if not line.startswith("%")), space)
        space.update(events=log, display=lambda *a, **k: None)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(profile, space)
    return out.getvalue()


def test_the_note_says_the_longest_duration_as_its_column_does():
    """Group y: one success of 0.9 s and no timeout row: its curve ends at 0.9 s, so every
    quantile is withheld (even successes alone need 296 attempts for p99). Group x: successes of
    0.3 and 2 s, a 5 s timeout: its longest is 5 s, the largest of the column, which is said in
    s; 0.9 s in s is "0.9 s" (the notebook's formatter: measured_duration(like=5 s)), never
    "900 ms"."""
    said = _run_profile_cell(events([("x", "success", 0.3), ("x", "success", 2.0),
                                     ("x", "timeout", 5.0), ("y", "success", 0.9)]))
    notes = [line for line in said.splitlines() if line.startswith("y: ")]
    assert len(notes) == 1, said
    assert "before it ends at the longest duration, 0.9 s: no timeout in force" in notes[0]
    assert "900 ms" not in said
