"""Group keys read from a file that Arrow reads in several blocks, each with its own dictionary
(keys first seen in a different order in each block): the canonical table's categories are the
sorted distinct values and the group codes are pandas' own, ``factorize(sort=True)`` and
``groupby(..., sort=True).ngroup()`` of the keys as plain strings (the oracle), never the
first-seen order."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pcsv
import pytest

from budgetlab import read_events
from budgetlab.windows.groups import group_codes, group_key_codes

ROWS = 90_000  # about 4 MB of text: several of Arrow's 1 MiB blocks
BY = ["captcha_type", "region"]


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    # three parts, each seeing the keys first in another order: turnstile, recaptcha_v2 / image,
    # turnstile / recaptcha_v2, image; regions fra / ams, fra / fra, ams
    third = ROWS // 3
    captcha = np.concatenate([np.array(["turnstile", "recaptcha_v2"])[np.arange(third) % 2],
                              np.array(["image", "turnstile"])[np.arange(third) % 2],
                              np.array(["recaptcha_v2", "image"])[np.arange(third) % 2]])
    region = np.concatenate([np.array(["fra", "ams"])[np.arange(third) % 3 // 2],
                             np.full(third, "fra"),
                             np.array(["fra", "ams"])[np.arange(third) % 2]])
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.arange(ROWS), unit="s")
    raw = pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        "outcome": np.where(np.arange(ROWS) % 7 == 0, "timeout", "success"),
                        "captcha_type": captcha, "region": region})
    path = tmp_path_factory.mktemp("chunks") / "events.csv"
    raw.to_csv(path, index=False)
    return path, raw


def test_the_premise_arrow_reads_blocks_whose_dictionaries_differ(log):
    path, _ = log
    table = pcsv.read_csv(path, read_options=pcsv.ReadOptions(block_size=1 << 20),
                          convert_options=pcsv.ConvertOptions(column_types={
                              k: pa.dictionary(pa.int32(), pa.string()) for k in BY}))
    for k in BY:
        orders = {tuple(c.dictionary.to_pylist()) for c in table.column(k).chunks}
        assert table.column(k).num_chunks > 1 and len(orders) > 1, (k, orders)


def test_categories_and_codes_are_pandas_sorted_factorize(log):
    path, raw = log
    events = read_events(path, by=BY)  # times increase: the table keeps the file's row order
    for k in BY:
        codes, uniques = pd.factorize(raw[k], sort=True)
        assert list(events[k].cat.categories) == list(uniques)
        np.testing.assert_array_equal(events[k].cat.codes.to_numpy(), codes)
        # first-seen order would differ: the oracle is not the reader's own order
        assert list(pd.factorize(raw[k], sort=False)[1]) != list(uniques)


def test_group_codes_are_pandas_sorted_groupby_codes(log):
    path, raw = log
    events = read_events(path, by=BY)
    oracle = raw.groupby(BY, sort=True).ngroup().to_numpy()
    assert not np.array_equal(oracle, raw.groupby(BY, sort=False).ngroup().to_numpy())
    np.testing.assert_array_equal(group_codes(events, BY), oracle)
    codes, keys = group_key_codes(events, BY)
    np.testing.assert_array_equal(codes, oracle)
    expected = raw[BY].drop_duplicates().sort_values(BY).reset_index(drop=True)
    pd.testing.assert_frame_equal(keys.astype(str), expected)
    for k in BY:  # one key, the codes of its categories as they are (dense=False)
        np.testing.assert_array_equal(group_codes(events, [k], dense=False),
                                      raw.groupby(k, sort=True).ngroup().to_numpy())
