"""Series reduced to the pixel columns of a panel: what a time plot draws of millions of rows.

A panel ``w`` pixels wide shows at most ``w`` columns of time. Beyond that many rows, the lines keep
the first, last, lowest and highest row of each column (:func:`~budgetlab.plotting.thin_minmax`),
and here: the status bands become the worst status of each column, with a no-traffic overlay on
every column that holds any no traffic (so a span one pixel wide, or less, stays visible; with
fewer bands than columns, a shorter silence is drawn one column wide); line
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
           "rug_ticks", "span_bands", "status_codes", "status_runs", "quiet_column_wide"]


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
    ``hi`` at least."""
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
    start, end = np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)
    code = np.asarray(code, dtype=np.int64)
    worst = np.full(columns, -1, dtype=np.int64)
    if len(start) == 0:
        return worst
    np.maximum.at(worst, column_of(start, lo, hi, columns), code)  # the spans starting in a column
    edges = _edges(lo, hi, columns)[:-1]
    # the last span starting at or before the edge
    running = np.searchsorted(start, edges, side="right") - 1
    on = running >= 0
    on[on] = end[running[on]] > edges[on]
    worst[on] = np.maximum(worst[on], code[running[on]])
    return worst


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
    ``[start, end)``) reduced to the ``columns`` of ``[lo, hi]``: runs of the worst of the four
    statuses of each column, then, apart, runs of the columns holding any ``no_traffic``.

    >>> n, s, e = span_bands(np.array(["healthy", "no_traffic", "exhausted", "healthy"]),
    ...                      np.array([0, 4, 5, 6]), np.array([4, 5, 6, 10]), 0, 10, 2)
    >>> n.tolist(), s.tolist(), e.tolist()
    (['healthy', 'exhausted', 'no_traffic'], [0, 5, 0], [5, 10, 5])
    """
    quiet = names == "no_traffic"
    code = status_codes(names)
    worst = worst_per_column(start[~quiet], end[~quiet], code[~quiet], lo, hi, columns)
    empty = worst_per_column(start[quiet], end[quiet], np.zeros(int(quiet.sum()), dtype=np.int64),
                             lo, hi, columns)
    (w, ws, we), (_, qs, qe) = column_runs(worst, lo, hi), column_runs(empty, lo, hi)
    out = np.r_[np.asarray(STATUSES, dtype=object)[w], np.full(len(qs), "no_traffic", dtype=object)]
    return out.astype(str), np.r_[ws, qs], np.r_[we, qe]


def quiet_column_wide(names: np.ndarray, start: np.ndarray, end: np.ndarray, lo: int, hi: int,
                      columns: int) -> tuple[np.ndarray, np.ndarray]:
    """``(start, end)`` of the bands with each ``no_traffic`` band shorter than one column of
    ``[lo, hi]`` widened to one column (from its start, or up to ``hi`` near the end): a silence
    of any length keeps a pixel column, as the worst status of a column does.

    >>> s, e = quiet_column_wide(np.array(["healthy", "no_traffic", "healthy"]),
    ...                          np.array([0, 50, 51]), np.array([50, 51, 100]), 0, 100, 10)
    >>> s.tolist(), e.tolist()
    ([0, 50, 51], [50, 60, 100])
    """
    start, end = np.array(start, dtype=np.int64), np.array(end, dtype=np.int64)
    width = int(np.ceil(_width(lo, hi, columns)))
    short = (np.asarray(names) == "no_traffic") & (end - start < width)
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
