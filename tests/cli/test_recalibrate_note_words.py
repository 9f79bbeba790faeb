"""recalibrate's notes in its ``--out`` table name the command's flags, as its printed lines do;
the API's table keeps the keywords (expected words written by hand)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import read_events
from budgetlab.analyses.recalibration import recalibrate
from budgetlab.cli import main


def test_the_out_table_names_flags_and_the_api_table_keywords(tmp_path, capsys):
    # three days, one event a minute, every 20th a timeout
    ts = pd.date_range("2026-11-01", periods=3 * 1440, freq="1min", tz="UTC")
    outcome = np.where(np.arange(len(ts)) % 20 == 0, "timeout", "success")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcome}).to_csv(
        log, index=False)
    out = tmp_path / "rec.csv"
    assert main(["recalibrate", str(log), "--window", "6h", "--n-boot", "0", "--out",
                 str(out)]) == 0
    capsys.readouterr()
    reason = pd.read_csv(out)["verdict_reason"].iloc[0]
    assert reason.startswith("no current target given (--target or --slo); the rule's target ")
    assert reason.endswith(" (no bootstrap, --n-boot 0: the verdict rests on this point)")
    api = recalibrate(read_events(log), window="6h", n_boot=0).summary["verdict_reason"].iloc[0]
    assert api.startswith("no current target given (target= or slo=); the rule's target ")
    assert api.endswith(" (no bootstrap, n_boot=0: the verdict rests on this point)")
