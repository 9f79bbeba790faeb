"""The compiled alert-replay kernel (numba): every tier's firing runs over each group's non-empty
bins (see ``budgetlab.alerts.episodes``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._jit import copy_columns, jit

__all__ = ["condition_runs", "tier_runs"]


@jit
def condition_runs(bins: Any, ct: Any, cb: Any, nb: Any, c_n: int, n: int, th: float, kl: int,
                   ks: int,
                   rs_out: Any, re_out: Any) -> int:
    """True runs ``[rs_out[i], re_out[i]]`` of one tier's condition over one group's cells
    (``bins`` with a sentinel at ``c_n``, cumulative ``ct``/``cb``, next failing cell ``nb``);
    returns their number. A window sum changes only at a non-empty bin ``b`` or at ``b + k``
    (where it leaves a window of ``k`` bins): the condition is evaluated at those change points
    only and holds between them. With a threshold ``>= 0`` a window without failures cannot
    fire: from there the walk jumps to the next cell with failures."""
    empty_fires = 0.0 > th  # an empty window has ratio 0.0
    ks_on = ks > 0
    r_n = 0
    in_run = False
    p0 = 0  # cells with bin <= j
    p1 = 0  # cells with bin + kl <= j
    p2 = 0  # cells with bin + ks <= j (ks == 0: stays 0)
    j = 0
    while j < n:
        # bins are distinct: at a change point each pointer moves by one at most
        p0 += bins[p0] <= j
        p1 += bins[p1] + kl <= j
        tot = ct[p0] - ct[p1]
        c = empty_fires
        if tot > 0:
            c = (cb[p0] - cb[p1]) / tot > th
        if ks_on:
            p2 += bins[p2] + ks <= j
            if c:
                tot = ct[p0] - ct[p2]
                c = empty_fires
                if tot > 0:
                    c = (cb[p0] - cb[p2]) / tot > th
        if c and not in_run:
            in_run = True
            rs_out[r_n] = j
        elif not c and in_run:
            in_run = False
            re_out[r_n] = j - 1
            r_n += 1
        if not c and th >= 0.0 and cb[p0] == cb[p2 if ks_on else p1]:
            # no failure in the (short) window: false until the next failing cell enters it
            q = nb[p0]
            if q >= c_n:
                break
            j = bins[q]
            p0 = q
            while bins[p1] + kl < j:
                p1 += 1
            while ks_on and bins[p2] + ks < j:
                p2 += 1
            continue
        j = min(bins[p0], bins[p1] + kl, n)  # the next change point (sentinel: past every one)
        if ks_on:
            j = min(j, bins[p2] + ks)
    if in_run:
        re_out[r_n] = n - 1
        r_n += 1
    return r_n


@jit
def _clusters(rs: Any, re: Any, r_n: int, fs: int, cs: int, n: int, g: int, t: int, out: Any,
              m: int) -> int:
    """Writes the firing runs of one tier's true runs ``[rs[i], re[i]]`` (group ``g``, tier
    ``t``) into ``out`` from row ``m`` on; returns the new row count. True runs closer than
    ``cs + 1`` merge into a cluster, which fires from its first run of ``fs + 1`` evaluations
    (at its start ``+ fs``) to its last true index ``+ cs``."""
    i = 0
    while i < r_n:  # one cluster of runs per turn
        k = i
        while k + 1 < r_n and rs[k + 1] - re[k] - 1 <= cs:
            k += 1
        q = i
        while q <= k and re[q] - rs[q] + 1 < fs + 1:
            q += 1
        if q <= k:
            out[0, m] = g
            out[1, m] = t
            out[2, m] = rs[q] + fs
            out[3, m] = min(re[k] + cs, n - 1) + 1
            m += 1
        i = k + 1
    return m


@jit
def tier_runs(cell_bin: Any, cell_total: Any, cell_bad: Any, offsets: Any, n: int, thr: Any,
              k_long: Any,
              k_short: Any, for_steps: Any, cool_steps: Any) -> Any:
    """Firing runs of every tier of every group: ``(group, tier, first, stop, ongoing)``.

    Cells of group ``g`` (sorted bins, non-empty): ``offsets[g]:offsets[g + 1]``; ``n``: bins
    of the grid; ``thr``: ``(groups, tiers)`` float64 (``burn * (1 - target)``); per tier the
    long and short window in bins (short 0: none), ``for_`` and ``cooldown`` in evaluations
    (:func:`_clusters`). A run is ongoing when it still fires at the last bin (``stop == n``)."""
    g_n = offsets.shape[0] - 1
    out = np.empty((4, 1024), np.int64)  # group, tier, first, stop
    m: Any = np.int64(0)  # not the literal 0: the helpers would be compiled twice
    width = 1
    for g in range(g_n):
        width = max(width, offsets[g + 1] - offsets[g] + 1)
    ct = np.zeros(width, np.int64)
    cb = np.zeros(width, np.int64)
    nb = np.zeros(width, np.int64)  # nb[i]: the first cell >= i with failures (c_n: none)
    bins = np.empty(width, np.int64)
    rs = np.empty(3 * width + 2, np.int64)
    re = np.empty(3 * width + 2, np.int64)
    for g in range(g_n):
        a = offsets[g]
        c_n = offsets[g + 1] - a
        for i in range(c_n):  # written out, as copy_columns (no shape-mismatch message)
            bins[i] = cell_bin[a + i]
        bins[c_n] = 2 * n + 2  # sentinel: past every change point, even plus a window
        for i in range(c_n):
            ct[i + 1] = ct[i] + cell_total[a + i]
            cb[i + 1] = cb[i] + cell_bad[a + i]
        nb[c_n] = c_n
        for i in range(c_n - 1, -1, -1):
            nb[i] = i if cell_bad[a + i] > 0 else nb[i + 1]
        for t in range(k_long.shape[0]):
            r_n = condition_runs(bins, ct, cb, nb, c_n, n, thr[g, t], k_long[t], k_short[t], rs, re)
            if m + r_n > out.shape[1]:
                grown = np.empty((4, max(2 * out.shape[1], m + r_n)), np.int64)
                copy_columns(out, grown, m)
                out = grown
            m = _clusters(rs, re, r_n, for_steps[t], cool_steps[t], n, g, t, out, m)
    return out[0, :m], out[1, :m], out[2, :m], out[3, :m], out[3, :m] == n
