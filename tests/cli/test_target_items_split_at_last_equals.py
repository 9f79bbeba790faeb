"""``--target GROUP=TARGET,...`` splits each item at its last ``=``: a target never holds one,
a group's name may (``=eq``); the item was split at its first and refused with "every item must
be GROUP=TARGET" (stop 55, item 6). The notebooks' ``target_table`` reads its text alike."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.analyses.history import target_table
from budgetlab.cli import main


def test_a_group_named_with_equals_takes_its_target(tmp_path, capsys):
    ts = pd.date_range("2026-03-02", periods=120, freq="1min", tz="UTC")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": np.concatenate([ts, ts]), "svc": np.repeat(["=eq", "alpha beta"], 120),
                  "outcome": "success"}).to_csv(log, index=False)
    assert main(["replay", str(log), "--target", "=eq=0.78,alpha beta=0.93", "--by", "svc",
                 "--window", "1h"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    # as typed: the group "=eq" at 0.78, "alpha beta" at 0.93
    assert "SLO: target =eq 0.78, alpha beta 0.93; window 1 h" in out


def test_target_table_reads_a_group_named_with_equals():
    ev = pd.DataFrame({"svc": ["=eq", "a", "=eq"]})
    got = target_table(ev, by="svc", target=0.9, overrides="=eq=0.78")
    assert dict(zip(got["svc"], got["target"], strict=True)) == {"=eq": 0.78, "a": 0.9}
