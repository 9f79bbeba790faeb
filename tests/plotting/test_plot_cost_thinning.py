"""The vectorised extreme_rows (issue 20, point 4) against the per-piece loop it replaced, kept
here as the oracle: the same rows for ties, NaN (alone and in whole pieces), infinities, signed
zeros and pieces that do not start at row 0."""

from __future__ import annotations

import numpy as np
import pytest

from budgetlab.plotting import thin_minmax
from budgetlab.plotting._common import extreme_rows, gap_breaks, piece_starts


def loop_extreme_rows(y, starts):
    """The previous implementation: a loop over the pieces, first/argmin/argmax/last of each."""
    y = np.asarray(y, dtype=float)
    n = len(y)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.r_[starts[1:], n]
    nan = np.isnan(y)
    out = []
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        seg = y[s:e]
        valid = np.flatnonzero(~nan[s:e])
        if len(valid):
            lo, hi = s + int(valid[np.argmin(seg[valid])]), s + int(valid[np.argmax(seg[valid])])
        else:
            lo = hi = s
        out += [s, lo, hi, e - 1]
    return np.unique(np.array(out, dtype=np.int64))


def test_hand_made_pieces():
    y = np.array([2.0, 1.0, 1.0, 5.0, 5.0, np.nan, np.nan, -0.0, 0.0, np.inf])
    # [0..4]: first 0, min row 1 (the first 1.0), max row 3 (the first 5.0), last 4;
    # [5..6]: NaN only, first and last; [7..9]: min row 7 (-0.0 == 0.0, the first), max row 9
    starts = np.array([0, 5, 7])
    assert extreme_rows(y, starts).tolist() == [0, 1, 3, 4, 5, 6, 7, 9]
    assert extreme_rows(y, starts).tolist() == loop_extreme_rows(y, starts).tolist()


@pytest.mark.parametrize("seed", range(12))
def test_equals_the_loop_on_random_series(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    y = np.round(rng.normal(size=n), int(rng.integers(0, 3)))  # rounded: many ties
    if seed % 3 == 0:
        y[rng.random(n) < 0.2] = np.nan
    if seed % 4 == 1:
        y[rng.integers(0, n, 3)] = rng.choice([np.inf, -np.inf], 3)
    if seed % 5 == 2 and n > 20:
        y[5:15] = np.nan  # a whole piece of NaN below
    k = int(rng.integers(1, min(n, 400) + 1))
    starts = np.unique(np.r_[0, rng.integers(0, n, k)]).astype(np.int64)
    if seed % 5 == 2 and n > 20:
        starts = np.unique(np.r_[starts[(starts < 5) | (starts >= 15)], 5, 15])
    assert extreme_rows(y, starts).tolist() == loop_extreme_rows(y, starts).tolist()
    if len(starts) > 1:  # rows before the first piece belong to none
        first = int(starts[1])
        oracle = loop_extreme_rows(y[first:], starts[1:] - first) + first
        assert extreme_rows(y, starts[1:]).tolist() == oracle.tolist()


def test_thin_minmax_on_a_replay_sized_series_equals_the_loop():
    rng = np.random.default_rng(7)
    n = 200_000
    t = np.cumsum(rng.exponential(1e9, n)).astype(np.int64)
    t[n // 2:] += 3_600_000_000_000  # an hour's gap: a break
    y = np.cumsum(rng.normal(size=n))
    brk = gap_breaks(t, 600_000_000_000)
    starts = piece_starts(t, 5000 // 4, brk)
    assert (
        thin_minmax(t, y, max_points=5000, breaks=brk).tolist()
        == loop_extreme_rows(y, starts).tolist()
    )
