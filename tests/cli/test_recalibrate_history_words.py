"""``budgetlab recalibrate`` says when ``--history`` leaves the start of the log out (NAB's
machine temperature: 79 days, of which the default 28 d were evaluated, said nowhere)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def _log(path) -> str:
    # one attempt a minute for 3 days from 2026-01-01 00:00 UTC, every 50th a timeout; the last
    # at 2026-01-03 23:59
    ts = pd.date_range("2026-01-01", periods=3 * 1440, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(np.arange(len(ts)) % 50 == 0, "timeout", "success")}
                 ).to_csv(path, index=False)
    return str(path)


def test_a_history_shorter_than_the_log_is_said(tmp_path, capsys):
    log = _log(tmp_path / "log.csv")
    # --history 1D back from the last event: 2026-01-02 23:59 .. 2026-01-03 23:59
    assert main(["recalibrate", log, "--window", "1h", "--history", "1D", "--n-boot", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("evaluated span: 2026-01-02 23:59 .. 2026-01-03 23:59 UTC (--history: the last 24 h "
            "of the log, which begins 2026-01-01 00:00; no figure counts its earlier events), per "
            "group only") in out


def test_a_log_within_the_history_says_nothing_of_it(tmp_path, capsys):
    log = _log(tmp_path / "log.csv")
    # the default 28 d cover the log: the span starts after the first 1 h window (warm-up)
    assert main(["recalibrate", log, "--window", "1h", "--n-boot", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "evaluated span: 2026-01-01 01:00 .. 2026-01-03 23:59 UTC, per group only" in out
    assert "--history" not in out
