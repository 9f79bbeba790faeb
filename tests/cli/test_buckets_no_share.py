"""``buckets``: a group without failures has no share of its failures (0 of 0): the cell is
empty in --out and blank on the terminal, the line under the table says why; never 0. Hand-made
log: groups a and b, 300 events each one a minute, a with 2 timeouts, b with none; target 0.9
(300 events hold 30 expected failures: neither group is thin)."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main


def test_a_group_without_failures_has_an_empty_share(tmp_path, capsys):
    ts = pd.date_range("2026-01-01", periods=300, freq="1min", tz="UTC")
    text = ts.strftime("%Y-%m-%dT%H:%M:%SZ")
    rows = ([(t, "a", "timeout" if i in (5, 6) else "success") for i, t in enumerate(text)]
            + [(t, "b", "success") for t in text])
    log = tmp_path / "log.csv"
    pd.DataFrame(rows, columns=["ts", "g", "outcome"]).to_csv(log, index=False)
    out = tmp_path / "b.csv"
    assert main(["buckets", str(log), "--by", "g", "--target", "0.9", "--out", str(out)]) == 0
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert table["share_of_failures"].tolist() == ["1.0", ""]  # a: 2 of 2; b: 0 of 0, no share
    assert table["failures"].tolist() == ["2", "0"]  # the counts stay
    printed = capsys.readouterr().out
    row_b = next(ln for ln in printed.splitlines() if ln.startswith("b timeout"))
    # events, failures, then failure_rate 0.00 %: no share between them
    assert row_b.split()[2:5] == ["300", "0", "0.00"]
    assert ("share_of_failures left blank for 1 group without failures (0 of 0 failures is no "
            "share; an empty cell in --out)") in " ".join(printed.split())
