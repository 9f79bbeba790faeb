"""event_cells (the non-empty cells of bin_events) equals a plain dictionary count, in time order
and not, with a keep mask, on both paths (compiled and BUDGETLAB_KERNEL=numpy)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from budgetlab.windows import event_cells


def _oracle(group, t, fail, code, n_cat, first_bin, freq_ns, keep):
    cells = defaultdict(lambda: [0, 0, [0] * n_cat])
    for i in range(len(t)):
        if keep[i]:
            c = cells[(int(group[i]), (int(t[i]) - first_bin) // freq_ns)]
            c[0] += 1
            c[1] += bool(fail[i])
            c[2][int(code[i])] += 1
    keys = sorted(cells)
    return ([k[0] for k in keys], [k[1] for k in keys], [cells[k][0] for k in keys],
            [cells[k][1] for k in keys],
            [cells[k][2] for k in keys])


@pytest.mark.parametrize("kernel", ["numpy", "compiled"])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("in_time_order", [True, False])
def test_cells_equal_a_dictionary_count(monkeypatch, kernel, seed, in_time_order):
    monkeypatch.setenv("BUDGETLAB_KERNEL", "numpy" if kernel == "numpy" else "")
    rng = np.random.default_rng(seed)
    n, n_groups, n_cat = 3000, 7, 3
    t = rng.integers(1_000, 50_000, n)
    if in_time_order:
        t = np.sort(t)
    group = rng.integers(0, n_groups, n)
    code = rng.integers(0, n_cat, n)
    fail = code > 0
    keep = rng.random(n) > 0.1
    got = event_cells(group, t, fail, code, n_groups, n_cat, first_bin=1_000 - 37, freq_ns=250,
                      keep=keep)
    want = _oracle(group, t, fail, code, n_cat, 1_000 - 37, 250, keep)
    assert [a.tolist() for a in got] == [list(w) for w in want]
