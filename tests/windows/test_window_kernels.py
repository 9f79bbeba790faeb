"""The compiled window-count kernels against a brute-force oracle: per row, the rows of its group
up to itself (table order) whose time is at least ``t - window`` (clamped at the int64 floor).
Rows in time order take the one-head pass (``window_counts_sorted``), rows sorted by group then
time the list of next rows; both, and the numpy twin, must give the oracle's integers."""

from __future__ import annotations

import numpy as np
import pytest

from budgetlab.windows.trailing import _numpy_window_counts

kernels = pytest.importorskip("budgetlab.windows.kernels._events",
                              reason="numba (a dependency) is not importable")


def brute(t, bad, codes, window_ns):
    n = len(t)
    total = np.zeros(n, np.int64)
    failures = np.zeros(n, np.int64)
    floor = np.iinfo(np.int64).min + window_ns
    for i in range(n):
        cut = t[i] - window_ns if t[i] >= floor else np.iinfo(np.int64).min
        mine = (codes[: i + 1] == codes[i]) & (t[: i + 1] >= cut)
        total[i] = mine.sum()
        failures[i] = bad[: i + 1][mine].sum()
    return total, failures


def case(seed, n, ngroups, order, near_floor=False):
    rng = np.random.default_rng(seed)
    t = np.sort(rng.integers(0, 50, n)).astype(np.int64) * 10  # many equal times
    if near_floor:
        t = t + np.iinfo(np.int64).min
    codes = rng.integers(0, ngroups, n).astype(np.int8)
    bad = (rng.random(n) < 0.3).astype(np.uint8)
    if order == "by group":  # as trailing_counts hands them over: group, then time
        o = np.lexsort((t, codes))
        t, codes, bad = t[o], codes[o], bad[o]
    return t, bad, codes


@pytest.mark.parametrize("order", ["time", "by group"])
@pytest.mark.parametrize("ngroups", [2, 7])
@pytest.mark.parametrize("window_ns", [0, 30, 120, 10**6])
@pytest.mark.parametrize("seed", range(4))
def test_window_counts_equal_the_brute_force_oracle(order, ngroups, window_ns, seed):
    t, bad, codes = case(seed, 300, ngroups, order, near_floor=seed == 3)
    want = brute(t, bad, codes, window_ns)
    got = kernels.window_counts(t, bad, codes, ngroups, window_ns)
    twin = _numpy_window_counts(t, bad, codes, ngroups, window_ns)
    for g, w, z in zip(got, want, twin, strict=True):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(z, w)
    if order == "time":  # the one-head pass itself
        for g, w in zip(kernels.window_counts_sorted(t, bad, codes, ngroups, window_ns), want,
                        strict=True):
            np.testing.assert_array_equal(g, w)
