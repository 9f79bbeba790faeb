"""The compiled kernels (numba), defined at module level so that numba's on-disk cache finds them
again in the next process (a kernel defined inside a function and calling another one holds it in
a closure cell, whose pickle differs in every process: the cache would never hit).

Imported by :func:`budgetlab.windows._compiled.compiled_or` only when numba is importable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["previous_in_group", "status_runs", "window_counts", "window_counts_one", "window_counts_sorted"]


def _jit(fn: F) -> F:
    """``numba.njit(cache=True, nogil=True)``; without the cache when numba finds no writable
    place for it (``NUMBA_CACHE_DIR``, the package's ``__pycache__``, the user's cache folder, as
    for a read-only install run by a user without a writable home): compiled in every process
    then, instead of failing."""
    try:
        return cast(F, numba.njit(cache=True, nogil=True)(fn))
    except RuntimeError:  # numba: "cannot cache function ...: no locator available for file ..."
        return cast(F, numba.njit(nogil=True)(fn))


@_jit
def window_counts_one(t: Any, bad: Any, window_ns: int) -> Any:
    """:func:`window_counts` of one group: the window's oldest event is a row index."""
    n = t.shape[0]
    total = np.empty(n, np.int64)
    failures = np.empty(n, np.int64)
    h = 0
    fl = 0
    floor = np.iinfo(np.int64).min + window_ns
    for i in range(n):
        fl += bad[i]
        ti = t[i]
        cut = ti - window_ns if ti >= floor else np.iinfo(np.int64).min  # no int64 wrap-around
        while t[h] < cut:
            fl -= bad[h]
            h += 1
        total[i] = i + 1 - h
        failures[i] = fl
    return total, failures


@_jit
def window_counts_sorted(t: Any, bad: Any, codes: Any, ngroups: int, window_ns: int) -> Any:
    """:func:`window_counts` of rows in time order (all groups together, as a replay's table is):
    the cut-off ``t - window`` does not depend on the group, so one head over all rows removes
    each row from its own group's counts when it leaves the window (no list of each group's
    rows)."""
    n = t.shape[0]
    total = np.empty(n, np.int64)
    failures = np.empty(n, np.int64)
    cnt = np.zeros(ngroups, np.int64)
    fl = np.zeros(ngroups, np.int64)
    h = 0
    floor = np.iinfo(np.int64).min + window_ns
    for i in range(n):
        g = codes[i]
        cnt[g] += 1
        fl[g] += bad[i]
        ti = t[i]
        cut = ti - window_ns if ti >= floor else np.iinfo(np.int64).min  # no int64 wrap-around
        while t[h] < cut:  # stops at i at the latest: t[i] >= cut
            gh = codes[h]
            cnt[gh] -= 1
            fl[gh] -= bad[h]
            h += 1
        total[i] = cnt[g]
        failures[i] = fl[g]
    return total, failures


@_jit
def window_counts(t: Any, bad: Any, codes: Any, ngroups: int, window_ns: int) -> Any:
    """Per event: events and failures of its group in ``[t - window, t]`` up to itself.

    The cut-off is that of ``trailing.window_starts`` (``t - window``, clamped at the int64
    floor, left edge closed), written again here because numba cannot call it. Rows in time
    order go to :func:`window_counts_sorted`; others (sorted by group, then time, as
    ``trailing_counts`` gives them) follow each group's rows through a list of next rows."""
    if ngroups == 1:  # codes are not read
        return window_counts_one(t, bad, window_ns)
    n = t.shape[0]
    in_time_order = True
    for i in range(1, n):
        if t[i] < t[i - 1]:
            in_time_order = False
            break
    if in_time_order:
        return window_counts_sorted(t, bad, codes, ngroups, window_ns)
    total = np.empty(n, np.int64)
    failures = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)  # next event of the same group
    last = np.full(ngroups, -1, np.int64)
    head = np.zeros(ngroups, np.int64)  # oldest event still in the group's window
    cnt = np.zeros(ngroups, np.int64)
    fl = np.zeros(ngroups, np.int64)
    floor = np.iinfo(np.int64).min + window_ns
    for i in range(n):
        g = codes[i]
        if last[g] >= 0:
            nxt[last[g]] = i
        else:
            head[g] = i
        last[g] = i
        cnt[g] += 1
        fl[g] += bad[i]
        ti = t[i]
        cut = ti - window_ns if ti >= floor else np.iinfo(np.int64).min  # no int64 wrap-around
        h = head[g]
        while t[h] < cut:
            cnt[g] -= 1
            fl[g] -= bad[h]
            h = nxt[h]
        head[g] = h
        total[i] = cnt[g]
        failures[i] = fl[g]
    return total, failures


@_jit
def previous_in_group(values: Any, codes: Any, ngroups: int, initial: int) -> Any:
    """Per row: the value of the previous row of its group (``initial`` for a group's first)."""
    n = values.shape[0]
    prev = np.empty(n, values.dtype)
    last = np.full(ngroups, initial, values.dtype)
    for i in range(n):
        g = codes[i]
        prev[i] = last[g]
        last[g] = values[i]
    return prev


@_jit
def _seed_code(total: int, failures: int, eb: float, warning: float, critical: float) -> int:
    """The seed's status code of one non-empty window: ``budget/figures.py`` (remaining_fraction,
    status_codes), restated because numba cannot call it; the oracle tests hold the two equal."""
    budget_total = float(total) * eb
    rf = budget_total - failures
    if rf < 0.0:
        rf = 0.0
    rf = rf / budget_total
    if rf < 0.0:
        rf = 0.0
    if rf <= 0:
        return 3
    if rf < critical:
        return 2
    if rf < warning:
        return 1
    return 0


@_jit
def status_runs(t: Any, bad: Any, codes: Any, ngroups: int, window_ns: int, eb: float, warning: float,
                critical: float, min_events: int) -> Any:
    """The window's clock of every group, one pass over rows in time order: each group's arrivals
    (``t``) and expiries (``t + window + 1 ns``) merged, expiries first at the same instant, the
    status evaluated once per instant after all of them (``min_events`` hold from healthy at the
    start of each traffic stretch; 4 = empty window). Returns, for every change of a group's
    status, in time order: group, instant, new status, window total and failures, and the first
    event time of the traffic stretch."""
    n = t.shape[0]
    out = np.empty((64, 6), np.int64)  # rows: group, instant, status, total, failures, stretch start
    m = 0
    cnt = np.zeros(ngroups, np.int64)
    fl = np.zeros(ngroups, np.int64)
    cur = np.full(ngroups, 4, np.int64)
    first = np.zeros(ngroups, np.int64)
    mark = np.full(ngroups, -1, np.int64)
    touched = np.empty(ngroups, np.int64)
    top = np.iinfo(np.int64).max
    last_expiring = top - window_ns - 1  # later events never leave a representable window
    i = 0
    x = 0
    step = 0
    while i < n or (x < n and t[x] <= last_expiring):
        now = t[i] if i < n else top
        if x < n and t[x] <= last_expiring and t[x] + window_ns + 1 < now:
            now = t[x] + window_ns + 1
        k = 0
        while x < n and t[x] <= last_expiring and t[x] + window_ns + 1 == now:
            g = codes[x]
            cnt[g] -= 1
            fl[g] -= bad[x]
            k = _touch(g, step, mark, touched, k)
            x += 1
        while i < n and t[i] == now:
            g = codes[i]
            if cur[g] == 4:
                first[g] = now
            cnt[g] += 1
            fl[g] += bad[i]
            k = _touch(g, step, mark, touched, k)
            i += 1
        for j in range(k):
            g = touched[j]
            if cnt[g] == 0:
                new = 4
            elif cnt[g] < min_events:
                new = cur[g] if cur[g] != 4 else 0
            else:
                new = _seed_code(cnt[g], fl[g], eb, warning, critical)
            if new != cur[g]:
                if m == out.shape[0]:
                    grown = np.empty((2 * m, 6), np.int64)
                    grown[:m] = out
                    out = grown
                out[m, 0], out[m, 1], out[m, 2], out[m, 3], out[m, 4], out[m, 5] = g, now, new, cnt[g], fl[g], first[g]
                m += 1
                cur[g] = new
        step += 1
    return (out[:m, 0].copy(), out[:m, 1].copy(), out[:m, 2].astype(np.int8), out[:m, 3].copy(), out[:m, 4].copy(),
            out[:m, 5].copy())


@_jit
def _touch(g: int, step: int, mark: Any, touched: Any, k: int) -> int:
    """Lists group ``g`` once among the groups changed at this instant; the new count."""
    if mark[g] != step:
        mark[g] = step
        touched[k] = g
        k += 1
    return k
