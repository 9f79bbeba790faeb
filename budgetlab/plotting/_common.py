"""Shared drawing helpers of :mod:`budgetlab.plotting` (time axes, legends, thinning, colours)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ..errors import InputError

#: Colours of the status bands (colour-blind-safe, from Okabe–Ito).
STATUS_COLORS = {"healthy": "#009E73", "warning": "#E69F00", "critical": "#D55E00", "exhausted": "#7F0000"}


def thin_rows(frame: pd.DataFrame, max_points: int) -> pd.DataFrame:
    """Keep at most ``max_points`` rows (every k-th row plus the last) for drawing."""
    if len(frame) <= max_points:
        return frame
    step = int(np.ceil(len(frame) / max_points))
    idx = np.unique(np.r_[np.arange(0, len(frame), step), len(frame) - 1])
    return frame.iloc[idx]


def utc_naive(values: Any) -> np.ndarray:
    """Times as naive UTC ``datetime64[ns]`` (what matplotlib plots; the axis shows ``tz``);
    ``.view(np.int64)`` gives UTC nanoseconds."""
    s = pd.to_datetime(pd.Series(values), utc=True)
    return np.asarray(s.dt.tz_localize(None).dt.as_unit("ns").to_numpy())


def display_names(col: pd.Series) -> list[str]:
    """The values of a column in display order: its categories, else first appearance."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return [str(c) for c in col.cat.categories]
    return list(pd.unique(col.astype(str)))


def time_axis(ax: Axes, tz: str) -> None:
    """Date ticks and labels in ``tz`` (the data stay UTC) and the zone in the x label."""
    locator = mdates.AutoDateLocator(tz=tz)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, tz=tz))  # type: ignore[no-untyped-call]
    ax.set_xlabel(f"time ({tz})")


def legend_above(ax: Axes, handles: list[Any], ncols: int = 4) -> None:
    """A legend just above the plot area, so it never covers data."""
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.01), ncols=ncols,
              fontsize="small", frameon=False, borderaxespad=0.0)


def legend_right(ax: Axes, handles: list[Any], *, x: float = 1.0, inches: float = 0.1) -> None:
    """A one-column legend right of the plot area (``x`` in axes fraction plus ``inches``), so it
    covers no data and leaves the title free."""
    from matplotlib.transforms import ScaledTranslation

    anchor = ax.transAxes + ScaledTranslation(inches, 0, ax.figure.dpi_scale_trans)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(x, 1.0), bbox_transform=anchor,
              fontsize="small", frameon=False, borderaxespad=0.0)


def one_group(frame: pd.DataFrame, known: Sequence[str], what: str) -> None:
    keys = [c for c in frame.columns if c not in known]
    for k in keys:
        if frame[k].nunique(dropna=False) > 1:
            raise InputError(
                f"{what} holds several groups ({k!r} varies); select one group first, e.g. "
                f"states[states[{k!r}] == value]."
            )


