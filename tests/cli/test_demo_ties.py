"""``budgetlab demo`` says the ties of its sample as ``replay`` says them: rows of one
captcha_type sharing a timestamp, the instants they make, and those whose outcomes differ (where
the per-event transitions the demo counts depend on the file's order). Oracle: counted here with
pandas from the packaged sample (budgetlab/datasets/demo.parquet), by (captcha_type, ts)."""

from __future__ import annotations

import contextlib
import io
from importlib import resources

import pandas as pd
import pytest

from budgetlab.cli import main


def test_demo_prints_the_ties_of_its_sample():
    path = resources.files("budgetlab.datasets") / "demo.parquet"
    ev = pd.read_parquet(str(path), columns=["ts", "ok", "captcha_type"])
    # each (captcha_type, ts) with more than one row is an instant of ties; its rows are tied
    per = ev.groupby(["captcha_type", "ts"], observed=True)["ok"].agg(["size", "min", "max"])
    tied = per[per["size"] > 1]
    rows, instants = int(tied["size"].sum()), len(tied)
    differ = tied[tied["min"] != tied["max"]]  # some rows succeeded, some failed
    assert rows > 0 and len(differ) > 1  # the premise: the sample has ties, some mixed
    first = differ.index.get_level_values("ts").min()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", "250")
        assert main(["demo"]) == 0
    text = " ".join(buf.getvalue().split())
    assert (f"Ties: {rows:,} rows share a timestamp with another row of their group "
            f"({instants:,} instants). At {len(differ):,} of them the outcomes differ (first "
            f"{first:%Y-%m-%d %H:%M:%S} UTC)") in text
