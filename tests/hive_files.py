"""A hand-made hive of three Parquet files (hive/date=DAY/part.parquet), for the tests of how
files that share a name are named."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

DAYS = ["2026-01-01", "2026-01-02", "2026-01-03"]
#: hand-written: each day's folder and the file's name, the rows of each file
WANT = [{"name": f"date={d}/part.parquet", "rows": 2} for d in DAYS]


def hand_hive(root: Path) -> Path:
    """Three days of two rows, each in hive/date=DAY/part.parquet."""
    for day in DAYS:
        folder = root / "hive" / f"date={day}"
        folder.mkdir(parents=True)
        pd.DataFrame({"ts": [f"{day}T00:00:00Z", f"{day}T01:00:00Z"],
                      "outcome": ["success", "timeout"]}).to_parquet(folder / "part.parquet")
    return root / "hive"
