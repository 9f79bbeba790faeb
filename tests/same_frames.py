"""One assertion for "the Dask twin gives what the pandas function gives": the frames equal
(exactly: ``check_exact=True``) and their ``attrs`` equal (what the table says it was computed
with: ``DataFrame.equals`` and ``assert_frame_equal`` ignore them)."""

from __future__ import annotations

import pandas as pd


def assert_same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """``got`` and ``want`` hold the same rows, columns, dtypes and values, and the same attrs."""
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert got.attrs == want.attrs
