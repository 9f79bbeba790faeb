"""Budget burn attributed to each failure bucket per time bin (and group): the over-time view of
:func:`~budgetlab.analyses.failure_buckets.bucket_breakdown`, under the conventions written down
in :mod:`budgetlab.analyses.failure_buckets` (a bucket's burn rate has the group's denominator, so
the buckets of a bin add up to its burn rate)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.ratios import ratio
from .._util.validation import as_list
from ..errors import InputError
from ..events.schema import SUCCESS, check_events
from ..slo import SLO, as_slo
from ..windows.binning import bin_events, bucket_codes
from .failure_buckets import bucket_rows

__all__ = ["bucket_burn_over_time"]


def bucket_burn_over_time(
    events: pd.DataFrame,
    slo: SLO,
    *,
    freq: Any = "1h",
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Budget burn attributed to each failure bucket, per time bin (and group).

    Parameters
    ----------
    events : DataFrame
        Canonical event table.
    slo : SLO
        Its ``target`` sets the budget.
    freq : duration
        Bin width (bins aligned on the Unix epoch, as :func:`budgetlab.bin_events`).
    by : str or list of str, optional
        Group keys (default: one series).

    Returns
    -------
    DataFrame
        One row per group, bin and failure bucket, in that order: group keys, ``bin_start``
        (datetime64[ns, UTC]; the bin is ``[bin_start, bin_start + freq)``), ``bucket``,
        ``events`` (all events of the group in the bin), ``failures`` (of the bucket),
        ``burn_rate`` (failures / (events × (1 − target)); 0 in an empty bin; the buckets of a bin
        add up to its burn rate), ``budget_spent`` (failures / ((1 − target) × the group's events
        over the whole table): the share of the span's error budget this bucket spent in this
        bin; summed over bins it is the bucket's ``burn_rate`` in :func:`bucket_breakdown`).
        ``attrs`` holds ``freq``, ``by``, ``target``, and ``start`` and ``end``: the span whose
        budget ``budget_spent`` shares (the table's first and last event, as
        :func:`bucket_breakdown`).

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ts = pd.to_datetime(["2026-01-01 00:10", "2026-01-01 00:20", "2026-01-01 01:30"])
    >>> ev = as_events(ts, [False, True, False], ["timeout", "success", "solve_error"])
    >>> t = bucket_burn_over_time(ev, SLO(target=0.5), freq="1h")
    >>> t[["bin_start", "bucket", "events", "failures", "burn_rate"]]
                      bin_start       bucket  events  failures  burn_rate
    0 2026-01-01 00:00:00+00:00      timeout       2         1        1.0
    1 2026-01-01 00:00:00+00:00  solve_error       2         0        0.0
    2 2026-01-01 01:00:00+00:00      timeout       1         0        0.0
    3 2026-01-01 01:00:00+00:00  solve_error       1         1        2.0
    >>> t["budget_spent"].round(4).tolist()  # 1 failure / (0.5 x 3 events in the table)
    [0.6667, 0.0, 0.0, 0.6667]
    """
    slo = as_slo(slo, "bucket_burn_over_time")
    keys = as_list(by)
    check_events(events, keys)
    if len(events) == 0:
        raise InputError("events is empty; there is nothing to bin.")
    _, names = bucket_codes(events)
    fail_names = [b for b in names if b != SUCCESS]
    # one row per group and bin (the table's contract): the full grid, sorted by group then
    # bin_start
    bins = bin_events(events, freq, by=keys, dense=True)
    n_bins = int(bins["bin_start"].nunique())
    n_groups = len(bins) // n_bins
    total = bins["total"].to_numpy(dtype=np.int64).reshape(n_groups, n_bins)
    k = len(fail_names)
    # (groups, bins, buckets); bins rows are sorted by group, then bin_start
    # a log with no failure bucket at all (every label a success) has no row
    fails = np.stack([bins[f"bad_{b}"].to_numpy(dtype=np.int64).reshape(n_groups, n_bins)
                      for b in fail_names], axis=2) if k else np.zeros((n_groups, n_bins, 0),
                                                                       dtype=np.int64)
    eb = slo.error_budget
    out = bucket_rows(bins[keys], len(bins), fail_names)
    out.insert(len(keys), "bin_start", pd.DatetimeIndex(bins["bin_start"]).as_unit("ns").repeat(k))
    out["events"] = np.repeat(total.ravel(), k)
    out["failures"] = fails.ravel()
    out["burn_rate"] = ratio(fails, (total * eb)[:, :, None], 0.0).ravel()
    # every group has events
    out["budget_spent"] = (fails / (total.sum(axis=1) * eb)[:, None, None]).ravel()
    out.attrs.update({"freq": bins.attrs.get("freq"), "by": list(keys), "target": slo.target,
                      **span_attrs(events["ts"])})
    return out
