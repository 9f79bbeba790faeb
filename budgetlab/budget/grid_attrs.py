"""What a table computed on the bin grid keeps in ``attrs`` (the SRE model's :func:`burn_rates`,
:func:`period_budget`, and the alert tables): the SLO it was computed with, the group keys, the
bin width and the span it counts, the bin edges (``grid_start`` .. ``grid_end``, the end
excluded; tables over events say ``start`` .. ``end``, first and last event).

The SRE model reads a target and a period only, so a bare target stands for
``SLO(target=target)`` (whose period, 30 days, is the one a bare target takes) and per-group
targets of a target table for a :class:`~budgetlab.PerGroup` of those targets: given back, either
computes the same table. :func:`budgetlab.table_slo` rebuilds it from ``attrs["slo"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import grid_span_attrs
from .._util.durations import duration_label
from ..slo import SLO, PerGroup, as_per_group, key_text
from ..windows.bingrid import BinGrid
from .targets import target_array

__all__ = ["grid_attrs", "target_slo"]


def target_slo(target: Any, grid: BinGrid) -> SLO | PerGroup:
    """The SLO that ``target`` (as the SRE model's functions take it) stands for on ``grid``: an
    SLO as given, per-group SLOs as a :class:`~budgetlab.PerGroup`, a number as
    ``SLO(target=number)``, per-group targets (a target table, one float per group) as
    ``SLO(target=...)`` when they are one, else a ``PerGroup`` whose ``default`` is the most
    frequent target and which names the groups of the others (small ``attrs``).

    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> from budgetlab.windows.bins import read_bins
    >>> ev = as_events(["2026-01-01"] * 3, [True] * 3, groups={"t": ["a", "b", "c"]})
    >>> grid = read_bins(bin_events(ev, "1min", by="t"))
    >>> target_slo(0.99, grid) == SLO(target=0.99)
    True
    >>> per = target_slo(pd.DataFrame({"t": ["a", "b", "c"], "target": [0.9, 0.99, 0.99]}), grid)
    >>> list(per.table), per.slo_for("a").target, per.slo_for("c").target
    ([('a',)], 0.9, 0.99)
    """
    if isinstance(target, SLO):
        return target
    per = as_per_group(target)  # a PerGroup or a mapping, else None
    if per is not None:
        return per
    targets = target_array(target, grid)
    values, counts = np.unique(targets, return_counts=True)
    common = float(values[int(np.argmax(counts))])
    if len(values) == 1 or not grid.by:
        return SLO(target=common)
    keys = grid.keys[list(grid.by)].itertuples(index=False, name=None)
    return PerGroup({key_text(k): float(t) for k, t in zip(keys, targets, strict=True)
                     if t != common}, default=common)


def grid_attrs(grid: BinGrid, target: Any) -> dict[Any, Any]:
    """``slo`` (:func:`target_slo` as its plain dict), ``by``, ``freq`` (the bin width), the
    bin edges ``grid_start`` / ``grid_end`` (:func:`~budgetlab._util.attrs.grid_span_attrs`) and,
    when the counts leave something out, ``exclude_buckets`` / ``exclude_windows`` /
    ``exclude_mode`` (:meth:`~budgetlab.windows.bingrid.BinGrid.exclusion_attrs`: those of the
    bins table, then those given to the function)."""
    return {"slo": target_slo(target, grid).as_dict(), "by": list(grid.by),
            "freq": duration_label(pd.Timedelta(grid.freq_ns, unit="ns")),
            **grid_span_attrs(grid.start_ns, grid.start_ns + grid.n_bins * grid.freq_ns),
            **grid.exclusion_attrs()}
