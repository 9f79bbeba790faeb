"""Non-empty bin cells of events in one pass (numba; the numpy path otherwise).

:func:`event_cells` counts events per ``(group, bin)`` cell and returns the non-empty cells in
group then bin order: events in time order need two passes and no sort; otherwise a counting sort
by group (groups whose events are not in time order are then sorted by numpy, stably).
The compiled path is ``_cells.cells`` (it chooses, outside the compiled code, so that a log in time
order compiles the in-order passes only, and numba's sort is never compiled); the numpy twin is one
stable argsort. Both give identical
results (integer counts); :func:`~budgetlab.windows.kernels.compiled_or` chooses.
"""

from __future__ import annotations

import numpy as np

from .choice import compiled_or

__all__ = ["event_cells"]


def _numpy_cells(group: np.ndarray, t: np.ndarray, first_bin: int, freq_ns: int, keep: np.ndarray,
                 fail: np.ndarray, code: np.ndarray, n_groups: int, n_cat: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """numpy twin of the compiled ``cells`` (same arguments, same integers): one stable argsort."""
    group, t, fail, code = group[keep], t[keep], fail[keep], code[keep]
    b = (t - first_bin) // freq_ns
    n_bins = int(b.max(initial=0)) + 1
    flat = group * n_bins + b
    order = np.argsort(flat, kind="stable")
    fs = flat[order]
    new = np.ones(len(fs), dtype=bool)
    new[1:] = fs[1:] != fs[:-1]
    first = np.flatnonzero(new)
    cell = np.cumsum(new) - 1
    n_cells = len(first)
    total = np.diff(np.append(first, len(fs))).astype(np.int64)
    bad = np.bincount(cell[fail[order]], minlength=n_cells).astype(np.int64)
    per_code = np.bincount(cell * n_cat + code[order], minlength=n_cells * n_cat).astype(np.int64)
    return fs[first] // n_bins, fs[first] % n_bins, total, bad, per_code.reshape(n_cells, n_cat)


def event_cells(group: np.ndarray, t: np.ndarray, fail: np.ndarray, code: np.ndarray, n_groups: int,
                n_cat: int, *,
                first_bin: int = 0, freq_ns: int = 1, keep: np.ndarray | None = None,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Non-empty cells of the events (``keep``: those only): ``(group, bin, total, bad, per_code)``,
    sorted by group then bin, where an event's bin is ``(t - first_bin) // freq_ns``;
    ``per_code[c, k]`` counts the events of cell ``c`` with ``code == k``.

    >>> [a.tolist() for a in event_cells(np.array([1, 0, 1, 1]), np.array([3, 0, 3, 1]),
    ...                                  np.array([True, False, False, True]),
    ...                                  np.array([1, 0, 0, 1]), 2, 2)]
    [[0, 1, 1], [0, 1, 3], [1, 1, 2], [0, 1, 1], [[1, 0], [0, 1], [1, 1]]]
    """
    group = np.ascontiguousarray(group, dtype=np.int64)
    t = np.ascontiguousarray(t, dtype=np.int64)
    fail = np.ascontiguousarray(fail, dtype=np.bool_)
    code = np.ascontiguousarray(code, dtype=np.int64)
    mask = (np.ones(len(t), dtype=np.bool_) if keep is None
            else np.ascontiguousarray(keep, dtype=np.bool_))
    kernel = compiled_or("cells", _numpy_cells)
    return kernel(group, t, int(first_bin), int(freq_ns), mask, fail, code, int(n_groups),
                  int(n_cat))
