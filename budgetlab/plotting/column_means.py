"""A step function reduced to pixel columns: its time-weighted mean, lowest and highest value
per column, broken over its gaps of a column or more (:func:`line_envelope`). The one reduction
of a line with more steps than columns: the timeline's lines
(:mod:`~budgetlab.plotting.line_envelope`, which draws the range as a band under the mean) and
:func:`~budgetlab.plotting.clock_lines.clock_line`. A mean keeps the area under the line (a dip
weighs as long as it lasted), where a column's extremes drew a line briefly bad as bad throughout.
"""

from __future__ import annotations

import numpy as np

from ._pixels import column_envelope, column_of

__all__ = ["line_envelope"]


def line_envelope(x_ns: np.ndarray, y: np.ndarray, columns: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(at, mean, low, high)`` to draw as steps (``at`` naive UTC ``datetime64[ns]``; each
    value held until the next ``at``) of the step function worth ``y[i]`` over ``[x[i],
    x[i+1])`` reduced to the ``columns`` of ``[x[0], x[-1]]``
    (:func:`~budgetlab.plotting._pixels.column_envelope`): at each column's edge its mean, lowest
    and highest value; NaN from the start to the end of each stretch without a value (NaN in
    ``y``) lasting a column or more, so that the line and its band break there.

    >>> at, mean, low, high = line_envelope(np.array([0, 2, 4, 19, 20]),
    ...                                     np.array([1.0, 0.0, np.nan, 1.0, 1.0]), 2)
    >>> at.view(np.int64).tolist(), mean.tolist()
    ([0, 4, 10, 19, 20], [0.5, nan, nan, 1.0, 1.0])
    >>> low.tolist()[:2], high.tolist()[:2]
    ([0.0, nan], [1.0, nan])
    """
    x, v = np.asarray(x_ns, dtype=np.int64), np.asarray(y, dtype=float)
    edges, mean, low, high = column_envelope(x, v, columns)
    lo, hi = int(x[0]), int(x[-1])
    gap_start, gap_end = _gaps(x, v, (hi - lo) / columns)
    inside = np.searchsorted(gap_start, edges, side="right") - 1  # -1: before every gap
    in_gap = edges < np.r_[gap_end, lo][inside]
    after = column_of(gap_end, lo, hi, columns)  # the column each gap ends in
    at = np.r_[edges, gap_start, gap_end]
    order = np.argsort(at, kind="stable")  # an edge, then a gap starting there (NaN from there)
    out = []
    for per_column in (mean, low, high):
        at_edges = np.where(in_gap, np.nan, np.r_[per_column, per_column[-1:]])
        out.append(np.r_[at_edges, np.full(len(gap_start), np.nan), per_column[after]][order])
    return (at[order].view("datetime64[ns]"), *out)  # type: ignore[return-value]


def _gaps(x: np.ndarray, v: np.ndarray, width: float) -> tuple[np.ndarray, np.ndarray]:
    """``(start, end)`` of the stretches without a value (NaN ``v[i]`` over ``[x[i], x[i+1])``,
    consecutive ones joined) lasting ``width`` or more.

    >>> [a.tolist() for a in _gaps(np.array([0, 1, 2, 5, 6]), np.array([1, np.nan, np.nan, 1, 1]),
    ...                            3)]
    [[1], [5]]
    """
    edge = np.diff(np.r_[0, (~np.isfinite(v[:-1])).astype(np.int8), 0])
    start, end = x[np.flatnonzero(edge == 1)], x[np.flatnonzero(edge == -1)]
    keep = (end - start) >= width
    return start[keep], end[keep]
