"""Success rates per local day: each day's rate with its Wilson interval
(:func:`daily_success`), and how far the full days spread against the interval of the whole
history (:func:`daily_spread`), a group too thin for its target withheld in words (the package's
rule: :func:`~budgetlab.analyses.recalibration.rules.too_few_events`). Re-exported by
:mod:`budgetlab.analyses.history`, the notebooks' history tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.ratios import ratio
from .._util.validation import as_list, check_fraction, check_tz, require_columns
from ..events.schema import ROLE_COLUMNS
from .recalibration.rules import too_few_events
from .recalibration.wilson import wilson_interval

__all__ = ["daily_success", "daily_spread"]


def daily_success(events: pd.DataFrame, *, by: str | Sequence[str] | None = None,
                  tz: str | None = None,
                  confidence: float = 0.95) -> pd.DataFrame:
    """Success rate per group and local day, with the Wilson interval of each day.

    Parameters
    ----------
    events : DataFrame
        Canonical events (``ts``, ``ok`` and the ``by`` columns).
    by : str or list of str, optional
        Group keys.
    tz : str, optional
        Time zone whose midnight starts a day (default UTC).
    confidence : float
        Level of the intervals (default 0.95).

    Returns
    -------
    DataFrame
        One row per group and day with events: group keys (str), ``day`` (local midnight,
        tz-aware), ``total``, ``good``, ``success_rate``, ``ci_low``, ``ci_high`` and
        ``full_day`` (the day holds at least half the group's median daily traffic: the first
        and last days of a log are usually partial).

    Examples
    --------
    >>> ts = pd.to_datetime(["2026-01-01 10:00", "2026-01-01 23:30", "2026-01-02 00:30"], utc=True)
    >>> ev = pd.DataFrame({"ts": ts, "ok": [True, False, True]})
    >>> daily_success(ev, tz="Europe/Berlin")[["day", "total", "good", "success_rate"]]
                             day  total  good  success_rate
    0  2026-01-01 00:00:00+01:00      1     1           1.0
    1  2026-01-02 00:00:00+01:00      2     1           0.5
    """
    keys = as_list(by)
    require_columns(events, ["ts", "ok", *keys], what="events", roles=ROLE_COLUMNS)
    tz = check_tz(tz)
    frame = pd.DataFrame({k: events[k].astype(str).to_numpy() for k in keys})
    frame["day"] = events["ts"].dt.tz_convert(tz).dt.normalize().to_numpy()
    frame["ok"] = events["ok"].to_numpy(dtype=bool)
    daily = frame.groupby([*keys, "day"], sort=True)["ok"].agg(total="size",
                                                               good="sum").reset_index()
    daily["good"] = daily["good"].astype(np.int64)
    daily["total"] = daily["total"].astype(np.int64)
    daily["success_rate"] = daily["good"] / daily["total"]
    daily["ci_low"], daily["ci_high"] = wilson_interval(daily["good"].to_numpy(),
                                                        daily["total"].to_numpy(),
                                                        confidence)
    median = (
        daily.groupby(keys, sort=False)["total"].transform("median")
        if keys
        else daily["total"].median()
    )
    daily["full_day"] = daily["total"] >= 0.5 * median
    return daily


def daily_spread(daily: pd.DataFrame, *, target: Any = None,
                 confidence: float = 0.95) -> pd.DataFrame:
    """Per group: the success rate of the whole history with its Wilson interval, against how
    far the full days' rates spread (the uncertainty a target must live with).

    Parameters
    ----------
    daily : DataFrame
        Output of :func:`daily_success`.
    target : float or DataFrame, optional
        The target the spread is read against: one for every group, or a table of group keys
        and ``target`` (:func:`target_table`). A group whose events hold fewer than 10 expected
        failures under it (the package's thin rule,
        :func:`~budgetlab.analyses.recalibration.rules.too_few_events`) has its day figures
        withheld (NaN) and ``note`` says why; without a target (``None``), or for a group the
        table leaves out, the rule counts at the lowest usual target, 50 %, and says so.
    confidence : float
        Level of the whole-history interval.

    Returns
    -------
    DataFrame
        One row per group: group keys, ``total``, ``good``, ``success_rate``, ``ci_low``,
        ``ci_high``, ``interval_width`` (``ci_high - ci_low``), ``full_days``, ``day_min``,
        ``day_max`` (lowest and highest full-day rate), ``spread`` (``day_max - day_min``),
        ``spread_ratio`` (``spread / interval_width``) and ``note`` (why a group's
        ``full_days`` ... ``spread_ratio`` are withheld: too few events; else empty). Its
        counts, ``success_rate`` and interval stay: ratios of counts, honest at any count.

    Examples
    --------
    >>> daily = pd.DataFrame({"day": pd.to_datetime(["2026-01-01", "2026-01-02"], utc=True),
    ...     "total": [100, 100], "good": [90, 98], "full_day": [True, True]})
    >>> s = daily_spread(daily)
    >>> s[["success_rate", "day_min", "day_max", "spread"]].round(3)
       success_rate  day_min  day_max  spread
    0          0.94      0.9     0.98    0.08
    """
    require_columns(daily, ["day", "total", "good", "full_day"], what="daily")
    keys = [c for c in daily.columns if c not in ("day", "total", "good", "success_rate", "ci_low",
                                                  "ci_high",
                                                   "full_day")]
    rate = daily["good"] / daily["total"]
    full = daily.assign(_rate=rate.where(daily["full_day"].astype(bool)),
                        full_days=daily["full_day"].astype(np.int64))
    # without keys, one group of every row (its key column dropped)
    out = full.groupby(keys or np.zeros(len(full), dtype=np.int64), sort=False).agg(
        total=("total", "sum"), good=("good", "sum"), full_days=("full_days", "sum"),
        day_min=("_rate", "min"), day_max=("_rate", "max")).reset_index(drop=not keys)
    out["success_rate"] = out["good"] / out["total"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["good"].to_numpy(), out["total"].to_numpy(),
                                                    confidence)
    out["interval_width"] = out["ci_high"] - out["ci_low"]
    out["spread"] = out["day_max"] - out["day_min"]
    out["spread_ratio"] = ratio(out["spread"], out["interval_width"])
    out["note"] = [too_few_events(int(n), float(t), span="the group") for n, t in zip(
        out["total"].tolist(), _spread_targets(out, keys, target).tolist(), strict=True)]
    thin = (out["note"] != "").to_numpy()
    out["full_days"] = out["full_days"].astype("Int64")
    out.loc[thin, ["full_days", "day_min", "day_max", "spread", "spread_ratio"]] = pd.NA
    cols = [*keys, "total", "good", "success_rate", "ci_low", "ci_high", "interval_width",
            "full_days", "day_min",
            "day_max", "spread", "spread_ratio", "note"]
    return out[cols]


def _spread_targets(out: pd.DataFrame, keys: list[str], target: Any) -> np.ndarray:
    """:func:`daily_spread`'s ``target`` per row of ``out`` (NaN: none given)."""
    if target is None:
        return np.full(len(out), np.nan)
    if not isinstance(target, pd.DataFrame):
        return np.full(len(out), check_fraction("target", target))
    require_columns(target, [*keys, "target"], what="target")
    table = target.astype({k: str for k in keys})
    merged = out[keys].merge(table[[*keys, "target"]], on=keys, how="left") if keys else table
    return np.resize(merged["target"].to_numpy(dtype=np.float64), len(out))
