"""The four notebooks, unchanged, on a log with a group that never fails (issue 16).

Such a group had a Wilson upper bound of 0.9999999999999999 below its observed 100 %, and notebook
01 crashed on it ("'yerr' must not contain negative values"). Each notebook is run through its
parameters cell with papermill on a three-day log in which every reCAPTCHA v2 attempt succeeds (the
type notebook 04 replays by default), and must finish without an error or a warning, with its
verdicts carrying their evidence.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from budgetlab import synth

papermill = pytest.importorskip("papermill", reason="papermill (a test extra) runs the notebooks")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def never_failing_log(tmp_path_factory):
    events, _ = synth.generate("2026-03-02", 3, seed=11, rate=0.3, session_ids=False)
    never = (events["captcha_type"] == "recaptcha_v2").to_numpy()
    outcome = events["bucket"].astype(str).to_numpy().copy()
    outcome[never] = "success"
    path = tmp_path_factory.mktemp("log") / "outcomes.csv"
    frame = events.assign(ts=events["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), outcome=outcome)
    frame[["ts", "outcome", "captcha_type", "region"]].to_csv(path, index=False)
    return path, int(never.sum())


@pytest.mark.slow
@pytest.mark.parametrize("name", [p.name for p in NOTEBOOKS])
def test_notebook_runs_on_a_log_with_a_group_that_never_fails(name, never_failing_log, tmp_path, monkeypatch):
    path, n_never = never_failing_log
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / name
    papermill.execute_notebook(str(ROOT / "notebooks" / name), str(out), kernel_name="python3", progress_bar=False,
                               parameters={"source": str(path), "incidents_source": None}, cwd=str(tmp_path))
    nb = nbformat.read(out, as_version=4)
    texts, stderr = [], []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            assert o.output_type != "error", f"{name}: {o.get('ename')}: {o.get('evalue')}"
            if o.output_type == "stream":
                texts.append(o.text)
                if o.name == "stderr":
                    stderr.append(o.text)
            elif "text/markdown" in o.get("data", {}):
                texts.append(o.data["text/markdown"])
    joined = "\n".join(texts)
    assert not [w for w in stderr if "Warning" in w], stderr
    if name.startswith("01"):
        # the group that never fails: 100 % observed, its interval reaching exactly 100 %
        assert f"**recaptcha_v2**: 100.00 % of {n_never:,} attempts succeeded" in joined
        assert "– 100.00 %" in joined
        # three days of history: every verdict says it is provisional
        assert "provisional: 3.0 days of history" in joined
    if name.startswith("03"):
        assert "**recaptcha_v2** (target 95.0 %): 100.00 % with timeouts, 100.00 % without" in joined
        assert "timeout failures alone caused" in joined or "No verdict on the pages caused by timeout" in joined
    if name.startswith("04"):
        # no failures in scope: nothing justifies waking anyone, and the reason carries the figures
        assert "**Waking the team was not justified**" in joined
        assert "0 failures in" in joined
