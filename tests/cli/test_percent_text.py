"""A near-perfect success rate on the command line: 1 failure in 30,000 events is not 100.00 %.

Oracle by hand: 29,999 / 30,000 = 0.9999666...; in percent 99.99666..., which two decimals round
to 100.00 (what `budgetlab replay` printed before); one more decimal gives 99.997.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def test_replay_summary_never_prints_a_failed_log_as_100_percent(tmp_path, capsys):
    n = 30_000
    ts = pd.date_range("2026-01-01", periods=n, freq="10s", tz="UTC")
    outcome = np.where(np.arange(n) == 12_345, "timeout", "success")
    log = tmp_path / "near_perfect.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcome}).to_csv(
        log, index=False)
    assert main(["replay", str(log), "--window", "1h", "--target", "0.99"]) == 0
    out = capsys.readouterr().out
    table = out.split("Summary")[1].split("Time counts")[0]
    row = next(ln for ln in table.splitlines() if ln.strip().startswith("30,000"))
    assert row.split()[1:3] == ["99.997", "%"], row
    assert "100.00 %" not in row
