"""The drawing helpers of budgetlab.plotting._common: gap rule, pixel-column thinning, step lines
and the status bands, against hand-computed values and plain-loop oracles."""

from __future__ import annotations

import math

import numpy as np
import pytest

from budgetlab.plotting import gap_threshold, thin_minmax
from budgetlab.plotting._common import extreme_rows, gap_breaks, piece_starts, step_line
from budgetlab.plotting._pixels import status_runs


def test_gap_threshold_is_the_larger_of_spacing_and_span_share():
    t = np.array([0, 10, 20, 30, 40], dtype=np.int64)  # median spacing 10 -> 200; span 40 -> 0.2
    assert gap_threshold(t) == 200
    t = np.array([0, 1, 2, 3, 100_000], dtype=np.int64)  # median 1 -> 20; 2 % of 100,000 = 2,000
    assert gap_threshold(t) == 2_000
    assert gap_threshold(t, share=0.005) == 500
    assert gap_threshold(np.array([5], dtype=np.int64)) == 1
    # 1,000 x median 1 > 0.5 % of the span
    assert gap_threshold(t, factor=1000, share=0.005) == 1000


def test_gap_breaks_are_the_rows_before_a_long_silence():
    t = np.array([0, 1, 2, 50, 51, 200], dtype=np.int64)
    assert gap_breaks(t, 10).tolist() == [2, 4]
    assert gap_breaks(t, 48).tolist() == [4]  # 2 -> 50 is 48: not more than 48
    assert gap_breaks(t, 1000).tolist() == []


def test_piece_starts_cut_equal_time_columns_and_after_breaks():
    t = np.array([0, 1, 4, 5, 6, 9, 10], dtype=np.int64)  # span 10, 2 columns: [0, 5), [5, 10]
    assert piece_starts(t, 2, np.array([], dtype=np.int64)).tolist() == [0, 3]
    assert piece_starts(t, 2, np.array([1])).tolist() == [0, 2, 3]  # cut after row 1 too
    # 5 columns of width 2: rows at 0,1 | 4,5 (col 2) | 6 (col 3) | 9,10 (col 4); col 1 empty
    assert piece_starts(t, 5, np.array([], dtype=np.int64)).tolist() == [0, 2, 4, 5]
    assert piece_starts(
        np.array([7, 7, 7], dtype=np.int64), 4, np.array([], dtype=np.int64)
    ).tolist() == [0]


def test_extreme_rows_keep_first_last_min_max_of_each_piece():
    y = np.array([3.0, 1.0, 1.0, 9.0, 2.0, 5.0, 4.0, 8.0, 0.0, 6.0])
    # pieces [0..4] and [5..9]: first 0, min 1 (first of the two 1.0), max 3, last 4; first 5,
    # max 7, min 8, last 9
    assert extreme_rows(y, np.array([0, 5])).tolist() == [0, 1, 3, 4, 5, 7, 8, 9]
    y_nan = np.array([np.nan, 2.0, np.nan, 7.0, np.nan, np.nan])
    # piece [0..3]: min row 1, max row 3 (NaN ignored); piece [4..5]: NaN only, first and last
    assert extreme_rows(y_nan, np.array([0, 4])).tolist() == [0, 1, 3, 4, 5]


def loop_thin(t, y, max_points, breaks):
    """Oracle: walk the rows, open a new piece at each new time column or after a break, keep
    first/last/argmin/argmax of each piece (plain Python)."""
    n = len(t)
    if n <= max_points:
        return list(range(n))
    cols = max(1, max_points // 4)
    span = t[-1] - t[0]
    keep, piece = set(), []

    def close(p):
        if p:
            vals = [(y[i], i) for i in p]
            keep.update({p[0], p[-1], min(vals)[1], max(vals, key=lambda v: (v[0], -v[1]))[1]})

    prev_col = None
    for i in range(n):
        # column k starts at t0 + k * span / cols, rounded up to the nanosecond
        col = sum(1 for k in range(1, cols) if t[i] >= t[0] + math.ceil(k * (span / cols)))
        if piece and (col != prev_col or (i - 1) in breaks):
            close(piece)
            piece = []
        piece.append(i)
        prev_col = col
    close(piece)
    return sorted(keep)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_thin_minmax_equals_the_loop_oracle(seed):
    rng = np.random.default_rng(seed)
    t = np.cumsum(rng.integers(1, 1000, 3000)).astype(np.int64)
    t[1500:] += 2_000_000  # one long silence
    y = np.round(rng.normal(size=3000), 1)  # ties: the first row of a tie is kept
    brk = gap_breaks(t, gap_threshold(t))
    assert brk.tolist() == [1499]
    got = thin_minmax(t, y, max_points=200, breaks=brk)
    assert got.tolist() == loop_thin(t, y, 200, set(brk.tolist()))
    assert len(got) <= 200 + 4 * len(brk)
    assert got[0] == 0 and got[-1] == len(t) - 1 and {1499, 1500} <= set(got.tolist())
    assert y[got].min() == y.min() and y[got].max() == y.max()  # extremes kept
    assert thin_minmax(t, y, max_points=5000).tolist() == list(range(3000))  # few: all rows


def test_step_line_inserts_a_nan_after_each_break_at_the_same_time():
    t = np.array([0, 10, 20, 500, 510], dtype=np.int64)
    y = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    x, v = step_line(t, y, np.array([0, 2, 3, 4]), np.array([2]))
    assert x.dtype == np.dtype("datetime64[ns]")
    assert x.view(np.int64).tolist() == [0, 20, 20, 500, 510]
    np.testing.assert_array_equal(v, [1.0, 3.0, np.nan, 4.0, 5.0])
    # a break row that was thinned away adds no NaN (its piece ends there, so it is always kept
    # by thin_minmax; step_line only inserts after kept rows)
    x, v = step_line(t, y, np.array([0, 3]), np.array([2]))
    assert x.view(np.int64).tolist() == [0, 500] and not np.isnan(v).any()


def loop_runs(t, code, breaks):
    """Oracle: exact status runs; a run ends at the next run's first event, or at its own last
    event when a gap or the end follows."""
    runs = []
    start = 0
    for i in range(1, len(t) + 1):
        if i == len(t) or code[i] != code[start] or (i - 1) in breaks:
            end = t[i] if i < len(t) and (i - 1) not in breaks else t[i - 1]
            runs.append((code[start], t[start], end))
            start = i
    return runs


def test_status_runs_exact_split_at_gaps():
    t = np.array([0, 1, 2, 3, 100, 101, 102], dtype=np.int64)
    code = np.array([0, 0, 1, 1, 1, 2, 0], dtype=np.int8)
    brk = np.array([3])
    c, s, e = status_runs(t, code, np.arange(len(t)), brk)
    assert list(zip(c.tolist(), s.tolist(), e.tolist(), strict=True)) == [
        (0, 0, 2),
        (1, 2, 3),
        (1, 100, 101),
        (2, 101, 102),
        (0, 102, 102),
    ]
    assert list(zip(c.tolist(), s.tolist(), e.tolist(), strict=True)) == loop_runs(t, code, {3})


def test_status_runs_coarse_show_the_worst_status_of_each_piece():
    t = np.arange(8, dtype=np.int64) * 10
    code = np.array([0, 1, 0, 0, 0, 0, 3, 0], dtype=np.int8)
    # pieces of two rows: worst 1, 0, 0, 3 -> runs (1: 0..20), (0: 20..60), (3: 60..70 end)
    c, s, e = status_runs(t, code, np.array([0, 2, 4, 6]), np.array([], dtype=np.int64))
    assert list(zip(c.tolist(), s.tolist(), e.tolist(), strict=True)) == [(1, 0, 20), (0, 20, 60),
                                                                          (3, 60, 70)]
