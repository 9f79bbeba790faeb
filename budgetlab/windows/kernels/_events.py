"""The compiled event kernels (numba): trailing-window counts, the previous row of a group, the
window's clock. Defined at module level so that numba's on-disk cache finds them again in the next
process (a kernel defined inside a function and calling another one holds it in a closure cell,
whose pickle differs in every process: the cache would never hit).

Imported by :func:`budgetlab.windows.kernels.compiled` only when numba is importable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._jit import copy_columns, jit, jit_inline

__all__ = ["previous_in_group", "status_runs", "window_counts", "window_counts_one",
           "window_counts_sorted"]


@jit
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


@jit
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


@jit
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


@jit
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


@jit
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


@jit
def _thresholds(c: int, eb: float, warning: float, critical: float, thr: Any) -> None:
    """``thr[c]``: the least failures that give a window of ``c`` events status 1, 2 and 3 or worse
    (``c + 1``: never). The seed's status is non-decreasing in the failures for a fixed total (each
    float step of ``_seed_code`` is monotone), so a binary search finds them exactly."""
    for level in range(1, 4):
        lo = 0
        hi = c + 1
        while lo < hi:
            mid = (lo + hi) // 2
            if _seed_code(c, mid, eb, warning, critical) >= level:
                hi = mid
            else:
                lo = mid + 1
        thr[c, level - 1] = lo


@jit_inline
def _status_of(c: int, f: int, previous: int, min_events: int, eb: float, warning: float,
               critical: float,
               thr: Any) -> int:
    """The status of a window of ``c`` events, ``f`` failures: 4 when empty, the ``min_events``
    hold (``previous``, healthy after an empty window), else ``_seed_code`` through the per-total
    thresholds (integer compares, no division)."""
    if c == 0:
        return 4
    if c < min_events:
        return previous if previous != 4 else 0
    if c >= thr.shape[0]:
        return _seed_code(c, f, eb, warning, critical)
    if thr[c, 0] < 0:
        _thresholds(c, eb, warning, critical, thr)
    return int((f >= thr[c, 0]) + (f >= thr[c, 1]) + (f >= thr[c, 2]))


@jit_inline
def _read(g: int, now: int, cnt: Any, fl: Any, cur: Any, first: Any, eb: float, warning: float,
          critical: float, min_events: int, thr: Any, out: Any, m: int, every: bool) -> int:
    """Reads the window of group ``g`` at instant ``now``: a change of its status (``every``:
    any reading) is written as column ``m`` of ``out`` (group, instant, status, total, failures,
    stretch start). Returns the number of rows written."""
    c = cnt[g]
    new = _status_of(c, fl[g], cur[g], min_events, eb, warning, critical, thr)
    if new == cur[g] and not every:
        return m
    out[0, m], out[1, m], out[2, m] = g, now, new
    out[3, m], out[4, m], out[5, m] = c, fl[g], first[g]
    cur[g] = new
    return m + 1


@jit
def _tie(t: Any, bad: Any, codes: Any, window_ns: int, eb: float, warning: float, critical: float,
         min_events: int, cnt: Any, fl: Any, cur: Any, first: Any, touched: Any, thr: Any,
         out: Any, m: int, i: int, x: int, g: int, now: int, every: bool) -> Any:
    """The rest of an instant holding several changes (rows ``x`` and ``i`` on; group ``g``
    changed first): expiries, then arrivals, each group read once after all of them, in the order
    they were first touched (``touched``: one slot per group, scratch). Returns the next arrival
    and expiry rows and the number of rows written."""
    n = t.shape[0]
    top = np.iinfo(np.int64).max
    touched[0] = g
    k = 1
    while True:
        # an expiry at top is none, as in _walk
        if x < n and t[x] < top - window_ns - 1 and t[x] + window_ns + 1 == now:
            h = codes[x]
            cnt[h] -= 1
            fl[h] -= bad[x]
            x += 1
        elif i < n and t[i] == now:
            h = codes[i]
            if cur[h] == 4:
                first[h] = now
            cnt[h] += 1
            fl[h] += bad[i]
            i += 1
        else:
            break
        j = 0
        while j < k and touched[j] != h:  # an instant holds few groups
            j += 1
        if j == k:
            touched[k] = h
            k += 1
    for j in range(k):
        m = _read(touched[j], now, cnt, fl, cur, first, eb, warning, critical, min_events, thr,
                  out, m, every)
    return i, x, m


@jit
def _walk(t: Any, bad: Any, codes: Any, window_ns: int, eb: float, warning: float,
          critical: float, min_events: int, cnt: Any, fl: Any, cur: Any, first: Any,
          touched: Any, thr: Any, out: Any, m: int, pos: Any, every: bool) -> int:
    """:func:`status_runs`' pass from the arrival and expiry rows ``pos`` to the end (``pos`` set
    to ``n, n``), or until ``out`` may lack room for one instant's reads (``pos``: where to
    resume). Returns the number of rows written. The state arrays come one by one and ``out`` is
    never reassigned here: a tuple of arrays, or an array that may grow in the loop, costs
    reference counting at every step (a third of the time or more)."""
    n = t.shape[0]
    top = np.iinfo(np.int64).max
    last_expiring = top - window_ns - 1  # later events never leave a representable window
    i, x = pos[0], pos[1]
    ta = t[i] if i < n else top  # next arrival
    ex = t[x] + window_ns + 1 if x < n and t[x] <= last_expiring else top  # top: none
    room = out.shape[1] - cnt.shape[0]  # an instant writes at most one row per group
    while i < n or ex != top:
        if m >= room:
            pos[0], pos[1] = i, x
            return m
        if ex <= ta and ex != top:
            now = ex
            g = codes[x]
            cnt[g] -= 1
            fl[g] -= bad[x]
            x += 1
            ex = t[x] + window_ns + 1 if x < n and t[x] <= last_expiring else top
        else:
            now = ta
            g = codes[i]
            if cur[g] == 4:  # the window was read empty: a traffic stretch starts
                first[g] = now
            cnt[g] += 1
            fl[g] += bad[i]
            i += 1
            ta = t[i] if i < n else top
        if (ex == now and ex != top) or (ta == now and i < n):  # more changes at this instant
            i, x, m = _tie(t, bad, codes, window_ns, eb, warning, critical, min_events, cnt, fl,
                           cur, first, touched, thr, out, m, i, x, g, now, every)
            ta = t[i] if i < n else top
            ex = t[x] + window_ns + 1 if x < n and t[x] <= last_expiring else top
            continue
        # the usual instant, one change: :func:`_read` written out (inlined, its array arguments
        # would be reference-counted at every step)
        c = cnt[g]
        new = _status_of(c, fl[g], cur[g], min_events, eb, warning, critical, thr)
        if new != cur[g] or every:
            out[0, m], out[1, m], out[2, m] = g, now, new
            out[3, m], out[4, m], out[5, m] = c, fl[g], first[g]
            m += 1
            cur[g] = new
    pos[0], pos[1] = n, n
    return m


@jit
def status_runs(t: Any, bad: Any, codes: Any, ngroups: int, window_ns: int, eb: float,
                warning: float, critical: float, min_events: int, every: bool) -> Any:
    """The window's clock of every group, one pass over rows in time order: each group's arrivals
    (``t``) and expiries (``t + window + 1 ns``) merged, expiries first at the same instant, the
    status evaluated once per instant after all of them (``min_events`` hold from healthy at the
    start of each traffic stretch; 4 = empty window). Returns, for every change of a group's
    status (``every``: for every instant where its window changes, two per event at most), in
    time order: group, instant, new status, window total and failures, and the first event time
    of the traffic stretch."""
    n = t.shape[0]
    # per group: events and failures in the window, status, first event of the traffic stretch
    # and the groups an instant of several changes touched (_tie's scratch)
    state = np.zeros((5, ngroups), np.int64)
    cnt, fl, cur, first, touched = state[0], state[1], state[2], state[3], state[4]
    cur[:] = 4
    thr = np.full((min(n, 1 << 16) + 1, 3), -1, np.int64)
    # one row per column, so that each is returned as it is (every: room for all, no regrowth)
    out = np.empty((6, (2 * n if every else 4096) + 2 * ngroups), np.int64)
    pos = np.zeros(2, np.int64)
    m: Any = np.int64(0)  # not the literal 0: _walk would be compiled for 0, then any int64
    while pos[1] < n:
        m = _walk(t, bad, codes, window_ns, eb, warning, critical, min_events, cnt, fl, cur,
                  first, touched, thr, out, m, pos, every)
        if pos[1] < n:  # out was full: twice the rows, and on
            grown = np.empty((6, 2 * out.shape[1]), np.int64)
            copy_columns(out, grown, m)
            out = grown
    return out[0, :m], out[1, :m], out[2, :m].astype(np.int8), out[3, :m], out[4, :m], out[5, :m]
