"""Notebook 02 groups by two keys as the command line does (``by="captcha_type,region"``, the
``--by`` syntax, or a list), refuses per-group ``targets`` beside them in words that name the
cause, and says the warning on incident scopes once, not once per policy.

The hand log: 2 captcha types x 2 regions, one event every 10 minutes per group for 3 days
(432 per group, 1,728 in all), every one a success except the 6 events of (image, fra) in
2026-10-02 10:00..10:50 UTC; one incident over that hour scoped captcha_type=image."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pandas as pd
import pytest

import budgetlab
from budgetlab.analyses.history import target_table
from budgetlab.errors import ConfigError

ROOT = Path(budgetlab.__file__).resolve().parents[1]
NOTEBOOK = ROOT / "budgetlab" / "notebooks" / "02_window_length.ipynb"
PAIRS = [("image", "ams"), ("image", "fra"), ("turnstile", "ams"), ("turnstile", "fra")]
SCOPE_WARNING = "incident scopes name captcha_type, not a by= key"


def _log(folder: Path) -> None:
    ts = pd.date_range("2026-10-01", periods=432, freq="10min", tz="UTC")
    rows = []
    for captcha_type, region in PAIRS:
        bad = (ts >= "2026-10-02 10:00Z") & (ts < "2026-10-02 11:00Z") \
            & (captcha_type == "image") & (region == "fra")
        rows.append(pd.DataFrame({"ts": ts, "outcome": ["failed" if b else "success" for b in bad],
                                  "captcha_type": captcha_type, "region": region}))
    pd.concat(rows).to_csv(folder / "hand.csv", index=False)
    pd.DataFrame({"incident_id": ["I1"], "kind": ["outage"], "start": ["2026-10-02T10:00:00Z"],
                  "end": ["2026-10-02T11:00:00Z"], "scope": ["captcha_type=image"]}
                 ).to_csv(folder / "inc.csv", index=False)


def _run(folder: Path, name: str, **parameters) -> nbformat.NotebookNode:
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("print(repr(per_group.to_dict('list')))"))
    nbformat.write(nb, folder / f"{name}_in.ipynb")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", str(ROOT))
        papermill.execute_notebook(str(folder / f"{name}_in.ipynb"), str(folder / f"{name}.ipynb"),
                                   kernel_name="python3", progress_bar=False, cwd=str(folder),
                                   parameters={"source": "hand.csv", "incidents": "inc.csv",
                                               **parameters})
    return nbformat.read(folder / f"{name}.ipynb", as_version=4)


def _said(nb: nbformat.NotebookNode) -> str:
    return "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.get("outputs", []) if o.get("output_type") == "stream")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nb02keys")
    _log(folder)
    return folder


@pytest.mark.parametrize("by", ["captcha_type,region", ["captcha_type", "region"]],
                         ids=["comma", "list"])
def test_two_keys_as_the_command_line_takes_them(folder, by):
    nb = _run(folder, "two" if isinstance(by, str) else "list", by=by, targets=None, target=0.9)
    last = nb.cells[-1].outputs[0]["text"]
    assert eval(last) == {"captcha_type": [p[0] for p in PAIRS], "region": [p[1] for p in PAIRS],
                          "target": [0.9] * 4}


def test_by_one_key_says_the_scope_warning_once_where_it_is_met(folder):
    # the policy scores (5 policies) and the policy figure (5 charts) each meet the scope that
    # names no by= key: each cell says it once (it said it 5 times in each)
    nb = _run(folder, "region", by="region", targets=None)
    counts = [_said(nbformat.v4.new_notebook(cells=[c])).count(SCOPE_WARNING) for c in nb.cells]
    assert sorted(c for c in counts if c) == [1, 1]


def test_targets_beside_two_keys_name_their_cause():
    ev = pd.DataFrame({"captcha_type": ["image", "turnstile"], "region": ["ams", "fra"]})
    with pytest.raises(ConfigError) as err:
        target_table(ev, by=["captcha_type", "region"], overrides="image=0.9", name="targets")
    message = str(err.value)
    assert "targets=None" in message and "a table of targets per group needs" not in message
    # without targets, one row per pair that occurs (2 of the 4), each at the target
    table = target_table(ev, by=["captcha_type", "region"], target=0.95, name="targets")
    assert table.to_dict("list") == {"captcha_type": ["image", "turnstile"],
                                     "region": ["ams", "fra"], "target": [0.95, 0.95]}
