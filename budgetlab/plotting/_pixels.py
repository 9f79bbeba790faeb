"""Series reduced to the pixel columns of a panel: what a time plot draws of millions of rows.

A panel ``w`` pixels wide shows at most ``w`` columns of time. Beyond that many rows, the status
bands become the status held longest in each column (its time, not its
worst instant: a column holding a minute of exhausted in an hour reads healthy) while the strip
along the top marks the worst status of each column (so a one-pixel exhausted stretch stays
visible), with a no-traffic overlay on
every column that holds any no traffic (so a span one pixel wide, or less, stays visible; with
fewer bands than columns, a shorter silence is drawn one column wide); each of the timeline's
lines is drawn as its time-weighted mean per column over the range it spans there
(:func:`column_envelope`; its extremes alone, as :func:`~budgetlab.plotting.thin_minmax` keeps
them for other plots, draw a block wherever a line swings within each column); line
breaks closer together than a column are merged (a break opening a gap of a column or more is
always kept); the transition rug keeps one tick per column, coloured by the worst new status. What
is drawn is then bounded by the columns, whatever the number of events.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ..budget.figures import STATUSES

__all__ = ["pixel_columns", "column_of", "worst_per_column", "column_runs", "merge_breaks",
           "rug_ticks", "span_bands", "status_codes", "status_runs", "quiet_column_wide",
           "column_wide", "longest_per_column", "column_envelope", "strip_bands"]


def pixel_columns(ax: Axes) -> int:
    """The width of ``ax`` in pixels at the larger of the figure's and the saving resolution
    (``savefig.dpi``), at least 1: the time columns a line or band can show."""
    import matplotlib as mpl

    fig = ax.get_figure(root=True)
    dpi = float(fig.dpi)  # type: ignore[union-attr]
    saved = mpl.rcParams["savefig.dpi"]
    scale = max(1.0, float(saved) / dpi) if saved != "figure" else 1.0
    width = ax.get_position().width * fig.get_figwidth() * dpi  # type: ignore[union-attr]
    return max(1, int(np.ceil(width * scale)))


def column_of(t_ns: np.ndarray, lo: int, hi: int, columns: int) -> np.ndarray:
    """The column (``0 .. columns - 1``) of each time of ``t_ns`` in ``[lo, hi]`` cut into
    ``columns`` equal columns.

    >>> column_of(np.array([0, 4, 5, 9, 10]), 0, 10, 2).tolist()
    [0, 0, 1, 1, 1]
    """
    col = np.floor((np.asarray(t_ns, dtype=np.int64) - lo) / _width(lo, hi, columns))
    return np.clip(col.astype(np.int64), 0, columns - 1)


def _width(lo: int, hi: int, columns: int) -> float:
    """The width (ns) of each of ``columns`` equal columns of ``[lo, hi]``."""
    return max(float(hi - lo), 1.0) / columns


def _edges(lo: int, hi: int, columns: int) -> np.ndarray:
    """The ``columns + 1`` edges (ns) of the columns of ``[lo, hi]``, rounded up; the last at
    ``hi`` at least (as every reduction here cuts them).

    >>> _edges(0, 10, 4).tolist()
    [0, 3, 5, 8, 10]
    """
    edges = lo + np.ceil(np.arange(columns + 1) * _width(lo, hi, columns)).astype(np.int64)
    edges[-1] = max(edges[-1], hi)
    return np.asarray(edges, dtype=np.int64)


def status_codes(names: np.ndarray) -> np.ndarray:
    """Each status name's rank in :data:`~budgetlab.budget.figures.STATUSES` (healthy 0 ..
    exhausted 3), ``-1`` for another name (``no_traffic``).

    >>> status_codes(np.array(["critical", "no_traffic", "healthy"])).tolist()
    [2, -1, 0]
    """
    return np.asarray(pd.Index(STATUSES).get_indexer(pd.Index(names, dtype=str)), dtype=np.int64)


def worst_per_column(start: np.ndarray, end: np.ndarray, code: np.ndarray, lo: int, hi: int,
                     columns: int
                     ) -> np.ndarray:
    """The highest ``code`` of the spans ``[start, end)`` (sorted, not overlapping) that touch each
    column of ``[lo, hi]``, ``-1`` where none does. A column holds the spans that start in it
    and the one running at its left edge: one reduction over the spans, one search per column.

    >>> worst_per_column(np.array([0, 3, 4]), np.array([3, 4, 10]), np.array([0, 3, 1]), 0, 10,
    ...                  5).tolist()
    [0, 3, 1, 1, 1]
    """
    return _per_column(start, end, np.asarray(code, dtype=np.int64), lo, hi, columns,
                       np.maximum, -1)


def _per_column(start: np.ndarray, end: np.ndarray, value: np.ndarray, lo: int, hi: int,
                columns: int, ufunc: np.ufunc, empty: float) -> np.ndarray:
    """``ufunc`` (``np.maximum``, ``np.fmin``, ...) of the ``value`` of the spans ``[start,
    end)`` (sorted, not overlapping) that touch each column of ``[lo, hi]``, ``empty`` where
    none does."""
    start, end = np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)
    out = np.full(columns, empty, dtype=value.dtype)
    if len(start) == 0:
        return out
    ufunc.at(out, column_of(start, lo, hi, columns), value)  # the spans starting in a column
    edges = _edges(lo, hi, columns)[:-1]
    # the last span starting at or before the edge
    running = np.searchsorted(start, edges, side="right") - 1
    on = running >= 0
    on[on] = end[running[on]] > edges[on]
    out[on] = ufunc(out[on], value[running[on]])
    return out


def _integral(start: np.ndarray, end: np.ndarray, weight: np.ndarray,
              at: np.ndarray) -> np.ndarray:
    """The integral from ``-inf`` to each time of ``at`` of the step function worth ``weight``
    over each span ``[start, end)`` (sorted, not overlapping) and 0 elsewhere.

    >>> _integral(np.array([0, 5]), np.array([2, 6]), np.array([1.0, 10.0]),
    ...           np.array([-1, 1, 4, 6])).tolist()
    [0.0, 1.0, 2.0, 12.0]
    """
    length = (end - start).astype(float)
    cum = np.r_[0.0, np.cumsum(weight * length)]
    i = np.searchsorted(start, at, side="right") - 1
    inside = np.clip(at - start[np.maximum(i, 0)], 0, length[np.maximum(i, 0)])
    return np.where(i >= 0, cum[np.maximum(i, 0)] + weight[np.maximum(i, 0)] * inside, 0.0)


def longest_per_column(start: np.ndarray, end: np.ndarray, code: np.ndarray, lo: int, hi: int,
                       columns: int) -> np.ndarray:
    """The ``code`` (0 .. 3) held longest in each column of ``[lo, hi]`` by the spans ``[start,
    end)`` (sorted, not overlapping; equal times: the higher code), ``-1`` where none holds any
    time: what the column mostly was, where :func:`worst_per_column` says the worst it touched.

    >>> longest_per_column(np.array([0, 4, 5]), np.array([4, 5, 10]), np.array([0, 3, 1]), 0, 10,
    ...                    2).tolist()
    [0, 1]
    """
    start, end = np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)
    code = np.asarray(code, dtype=np.int64)
    if len(start) == 0:
        return np.full(columns, -1, dtype=np.int64)
    edges = _edges(lo, hi, columns)
    held = np.stack([np.diff(_integral(start, end, (code == c).astype(float), edges))
                     for c in range(len(STATUSES))])
    longest = len(STATUSES) - 1 - np.argmax(held[::-1], axis=0)  # a tie: the worse
    return np.where(held.max(axis=0) > 0, longest, -1).astype(np.int64)


def column_envelope(x_ns: np.ndarray, y: np.ndarray, columns: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(edges, mean, low, high)`` of the step function worth ``y[i]`` over ``[x[i], x[i+1])``
    (``x_ns`` sorted; NaN: no value there; the last point ends it) over the ``columns`` of
    ``[x[0], x[-1]]``: the ``columns + 1`` edges, and per column the time-weighted mean of the
    values (over the time holding one) and the lowest and highest value it touches; NaN in a
    column without any value.

    >>> e, m, lo, hi = column_envelope(np.array([0, 1, 4, 8]), np.array([1.0, 0.0, np.nan, 1.0]),
    ...                                2)
    >>> e.tolist(), m.tolist(), lo.tolist(), hi.tolist()
    ([0, 4, 8], [0.25, nan], [0.0, nan], [1.0, nan])
    """
    x, v = np.asarray(x_ns, dtype=np.int64), np.asarray(y, dtype=float)
    lo, hi = int(x[0]), int(x[-1])
    edges = _edges(lo, hi, columns)
    start, end, value = x[:-1], x[1:], v[:-1]
    has = np.isfinite(value)
    timed = np.diff(_integral(start, end, has.astype(float), edges))
    area = np.diff(_integral(start, end, np.where(has, value, 0.0), edges))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(timed > 0, area / timed, np.nan)
    low = _per_column(start, end, value, lo, hi, columns, np.fmin, np.nan)
    high = _per_column(start, end, value, lo, hi, columns, np.fmax, np.nan)
    return edges, mean, low, high


def column_runs(values: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(value, start_ns, end_ns)`` of the runs of equal ``values`` over the columns of
    ``[lo, hi]`` (one value per column), the runs of ``-1`` left out.

    >>> [a.tolist() for a in column_runs(np.array([0, 0, -1, 2]), 0, 8)]
    [[0, 2], [0, 6], [4, 8]]
    """
    columns = len(values)
    edges = _edges(lo, hi, columns)
    new = np.r_[True, values[1:] != values[:-1]]
    first = np.flatnonzero(new)
    last = np.r_[first[1:], columns]
    keep = values[first] >= 0
    return values[first][keep], edges[first][keep], edges[last][keep]


def merge_breaks(t_ns: np.ndarray, breaks: np.ndarray, lo: int, hi: int,
                 columns: int) -> np.ndarray:
    """The ``breaks`` (rows after which a line breaks) a panel of ``columns`` can show: every
    break that opens a gap of a column or more, and the first break of each column.

    >>> merge_breaks(np.array([0, 1, 2, 3, 50, 51, 52]), np.array([0, 1, 3, 5]), 0, 99, 3).tolist()
    [0, 3, 5]
    """
    b = np.asarray(breaks, dtype=np.int64)
    if len(b) <= columns:
        return b
    wide = (t_ns[b + 1] - t_ns[b]) >= _width(lo, hi, columns)
    col = column_of(t_ns[b], lo, hi, columns)
    first = np.r_[True, col[1:] != col[:-1]]
    return np.asarray(b[wide | first], dtype=np.int64)


def rug_ticks(t_ns: np.ndarray, names: np.ndarray, columns: int) -> np.ndarray:
    """Rows of the transitions (times ``t_ns``, new status ``names``) a rug keeps: in each column
    of their span, the first of those to the worst new status there; sorted by time.

    >>> rug_ticks(np.array([0, 1, 2, 7]), np.array(["warning", "exhausted", "healthy", "critical"]),
    ...           2).tolist()
    [1, 3]
    """
    t = np.asarray(t_ns, dtype=np.int64)
    if len(t) == 0:
        return np.zeros(0, dtype=np.int64)
    code = status_codes(names)
    col = column_of(t, int(t.min()), int(t.max()), columns)
    order = np.lexsort((t, -code, col))
    first = np.r_[True, col[order][1:] != col[order][:-1]]
    kept: np.ndarray = order[first]
    return np.asarray(kept[np.argsort(t[kept], kind="stable")], dtype=np.int64)


def span_bands(names: np.ndarray, start: np.ndarray, end: np.ndarray, lo: int, hi: int, columns: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(status name, start_ns, end_ns)`` of the status bands of the spans (``names``, sorted
    ``[start, end)``) reduced to the ``columns`` of ``[lo, hi]``: runs of the status held longest
    in each column (of the four: :func:`longest_per_column`), then, apart, runs of the columns
    holding any ``no_traffic``.

    >>> n, s, e = span_bands(np.array(["healthy", "no_traffic", "exhausted", "healthy"]),
    ...                      np.array([0, 4, 5, 6]), np.array([4, 5, 6, 10]), 0, 10, 2)
    >>> n.tolist(), s.tolist(), e.tolist()
    (['healthy', 'no_traffic'], [0, 0], [10, 5])
    """
    quiet = names == "no_traffic"
    code = status_codes(names)
    held = longest_per_column(start[~quiet], end[~quiet], code[~quiet], lo, hi, columns)
    return _with_quiet(held, start[quiet], end[quiet], lo, hi, columns)


def strip_bands(names: np.ndarray, start: np.ndarray, end: np.ndarray, lo: int, hi: int,
                columns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(status name, start_ns, end_ns)`` of the runs of the worst status of each column of
    ``[lo, hi]`` (:func:`worst_per_column`): what the status strip marks, a one-column exhausted
    moment included.

    >>> n, s, e = strip_bands(np.array(["healthy", "no_traffic", "exhausted", "healthy"]),
    ...                       np.array([0, 4, 5, 6]), np.array([4, 5, 6, 10]), 0, 10, 2)
    >>> n.tolist(), s.tolist(), e.tolist()
    (['healthy', 'exhausted'], [0, 5], [5, 10])
    """
    quiet = names == "no_traffic"
    code = status_codes(names)
    w, ws, we = column_runs(worst_per_column(start[~quiet], end[~quiet], code[~quiet], lo, hi,
                                             columns), lo, hi)
    return np.asarray(STATUSES, dtype=object)[w].astype(str), ws, we


def _with_quiet(codes: np.ndarray, quiet_start: np.ndarray, quiet_end: np.ndarray, lo: int,
                hi: int, columns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The runs of the status ``codes`` of the columns, then the runs of the columns touched by
    the no-traffic spans ``[quiet_start, quiet_end)``."""
    empty = worst_per_column(quiet_start, quiet_end, np.zeros(len(quiet_start), dtype=np.int64),
                             lo, hi, columns)
    (w, ws, we), (_, qs, qe) = column_runs(codes, lo, hi), column_runs(empty, lo, hi)
    out = np.r_[np.asarray(STATUSES, dtype=object)[w], np.full(len(qs), "no_traffic", dtype=object)]
    return out.astype(str), np.r_[ws, qs], np.r_[we, qe]


def quiet_column_wide(names: np.ndarray, start: np.ndarray, end: np.ndarray, lo: int, hi: int,
                      columns: int) -> tuple[np.ndarray, np.ndarray]:
    """``(start, end)`` of the bands with each ``no_traffic`` band shorter than one column of
    ``[lo, hi]`` widened to one column (:func:`column_wide`): a silence of any length keeps a
    pixel column, as the worst status of a column does.

    >>> s, e = quiet_column_wide(np.array(["healthy", "no_traffic", "healthy"]),
    ...                          np.array([0, 50, 51]), np.array([50, 51, 100]), 0, 100, 10)
    >>> s.tolist(), e.tolist()
    ([0, 50, 51], [50, 60, 100])
    """
    return column_wide(start, end, lo, hi, columns, np.asarray(names) == "no_traffic")


def column_wide(start: np.ndarray, end: np.ndarray, lo: int, hi: int, columns: int,
                which: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(start, end)`` of the spans with each one (of ``which``, default all) shorter than one
    column of ``[lo, hi]`` widened to one column: from its start, or up to ``hi`` near the end.
    What keeps a silence of the timeline, or an alert episode of a minute, one pixel wide.

    >>> s, e = column_wide(np.array([1, 40, 98]), np.array([2, 60, 99]), 0, 100, 10)
    >>> s.tolist(), e.tolist()
    ([1, 40, 90], [11, 60, 100])
    """
    start, end = np.array(start, dtype=np.int64), np.array(end, dtype=np.int64)
    width = int(np.ceil(_width(lo, hi, columns)))
    short = end - start < width
    if which is not None:
        short &= np.asarray(which, dtype=bool)
    end[short] = np.minimum(start[short] + width, max(hi, lo + width))
    start[short] = np.minimum(start[short], end[short] - width)
    return start, end


def status_runs(t_ns: np.ndarray, code: np.ndarray, starts: np.ndarray, breaks: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(code, start_ns, end_ns)`` of the status bands: the worst status (highest code) of each
    piece starting at ``starts`` (every row when there are few: the exact status), consecutive
    pieces of equal status merged. A band lasts until the next band starts, or until its last
    event when a gap (a row in ``breaks``) or the end follows."""
    n = len(t_ns)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    piece_code = np.maximum.reduceat(code, starts).astype(np.int64)
    piece_last = np.r_[starts[1:] - 1, n - 1]
    at_break = np.isin(piece_last, breaks)
    new = np.r_[True, (piece_code[1:] != piece_code[:-1]) | at_break[:-1]]
    first_piece = np.flatnonzero(new)
    last_piece = np.r_[first_piece[1:] - 1, len(starts) - 1]
    start_ns = t_ns[starts[first_piece]]
    next_ns = np.r_[t_ns[starts[first_piece[1:]]], t_ns[n - 1]]
    own_end = t_ns[piece_last[last_piece]]
    end_ns = np.where(at_break[last_piece] | (last_piece == len(starts) - 1), own_end, next_ns)
    return piece_code[first_piece], start_ns, end_ns
