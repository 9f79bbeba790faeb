"""Stop 57: a missing group key named to a function (``bin_events(events, by="regoin")``) is
suggested a column as the reader suggests one (one rule, ``_util.validation.close_names``): only
a column that could be a key (never ``ts``, ``ok`` or ``bucket``), from difflib's ratio 0.6. The
API suggested any column from 0.5: ``by="keys"`` got 'sitekey', ``by="okay"`` got 'ok'; the
Dask reader ``by="outcomes"`` got 'outcome'.

Oracle: difflib's ratio 2*M/T worked by hand (M matched characters, T both lengths):
'regoin'/'region' 2*5/12 = 0.83 (suggested), 'keys'/'sitekey' 2*3/11 = 0.545 (under 0.6),
'okay'/'ok' 2*2/6 = 0.67 and 'bucket_ids'/'bucket' 2*6/16 = 0.75 (role columns: never)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import SchemaError

CSV = ("ts,outcome,region,sitekey\n"
       "2026-10-05T00:00:00Z,success,fra,k1\n"
       "2026-10-05T00:01:00Z,timeout,ams,k1\n")
PRESENT = "Columns present: 'ts', 'ok', 'bucket', 'region', 'sitekey'."


@pytest.fixture()
def path(tmp_path):
    p = tmp_path / "log.csv"
    p.write_text(CSV)
    return p


def _api(path, by: str) -> str:
    events = bl.read_events(path, keep=["region", "sitekey"])
    assert list(events.columns) == ["ts", "ok", "bucket", "region", "sitekey"]
    with pytest.raises(SchemaError) as info:
        bl.bin_events(events, by=by)
    return str(info.value)


def _hint(text: str) -> str | None:
    found = re.search(r"Did you mean (.*?)\?", text)
    return found.group(1) if found else None


@pytest.mark.parametrize("by", ["keys", "okay", "bucket_ids", "tsx"])
def test_a_far_name_or_a_role_column_is_not_suggested(path, by):
    assert _api(path, by) == f"events has no column {by!r}. {PRESENT}"


def test_the_api_and_the_readers_suggest_alike(path, tmp_path):
    # the function, the reader and the Dask reader (which suggested 'outcome' for 'outcomes',
    # 2*7/15 = 0.93: the outcome column is never a key)
    import budgetlab.dask as bd

    parquet = tmp_path / "log.parquet"
    pd.read_csv(path, dtype=str).to_parquet(parquet)
    said = {}
    for by in ("regoin", "keys", "sitekeys", "okay", "outcomes"):
        hints = [_hint(_api(path, by))]
        for read, source in ((bl.read_events, path), (bd.read_events, parquet)):
            with pytest.raises(SchemaError) as info:
                read(source, by=by)
            hints.append(_hint(str(info.value)))
        said[by] = hints
    assert said == {"regoin": ["'region'"] * 3, "keys": [None] * 3,
                    "sitekeys": ["'sitekey'"] * 3, "okay": [None] * 3, "outcomes": [None] * 3}

