"""`budgetlab buckets` on logs a stranger brings: one failure bucket, or none at all.

Oracles: the counts by construction of the hand-made logs."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main


def write_log(path, outcomes):
    ts = pd.date_range("2026-01-01", periods=len(outcomes), freq="5min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcomes}).to_csv(
        path, index=False)


def test_a_log_without_failures_says_so_and_draws_nothing(tmp_path, capsys):
    log, out, plot = tmp_path / "ok.csv", tmp_path / "b.csv", tmp_path / "b.png"
    write_log(log, ["success"] * 300)
    # it printed an empty pandas frame ("Empty DataFrame / Columns: [...]"), then --plot failed
    # with the API's words ("make it with budgetlab.bucket_burn_over_time()"), exit 2
    assert main(["buckets", str(log), "--window", "1h", "--out", str(out), "--plot",
                 str(plot)]) == 0
    printed = capsys.readouterr()
    assert "ok.csv: 300 events, no failures: no failure bucket to break down" in printed.out
    assert "Empty DataFrame" not in printed.out and "budgetlab." not in printed.err
    assert len(pd.read_csv(out)) == 0 and not plot.exists()
    assert "no plot written to" in printed.err and "without failures no bucket burns" in printed.err


def test_one_bucket_is_named_in_the_singular(tmp_path, capsys):
    log = tmp_path / "one.csv"
    write_log(log, ["success"] * 8 + ["timeout"] * 2)
    assert main(["buckets", str(log), "--window", "1h"]) == 0
    assert ("one.csv: 10 events, 2 failures in the bucket timeout (named from the data)"
            in capsys.readouterr().out)
