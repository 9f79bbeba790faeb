"""Test-only oracle: budgetlab/budget/burn.py as of commit 1989377 (the dense SRE path), docstrings
removed, imports made absolute. Never edit: it is what the sparse path must equal."""
# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations
from collections.abc import Sequence
from typing import Any, Unpack
import numpy as np
import pandas as pd
from budgetlab._util.validation import to_timedelta, utc_from_ns
from budgetlab.errors import ConfigError, InputError
from budgetlab.slo import SLO, as_per_group
from tests.alerts.oracle_bins import (
    BinGrid,
    BinsLike,
    ReadBinsOptions,
    duration_label,
    read_bins,
    window_bins,
)
__all__ = ['DEFAULT_WINDOWS', 'burn_rates', 'group_slos', 'split_groups', 'target_array',
           'error_budgets', 'rolling_sum', 'ratio']
DEFAULT_WINDOWS = ('5min', '30min', '1h', '6h', '1D', '3D')

def _check_target_value(value: Any, what: str='target') -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ConfigError(f'{what} must be a number in (0, 1) such as 0.999, or an SLO.')
    v = float(value)
    if not (np.isfinite(v) and 0 < v < 1):
        raise ConfigError(f'{what}={value!r} must lie strictly between 0 and 1 (e.g. 0.999).')
    return v

def group_slos(target: Any, grid: BinGrid) -> list[SLO] | None:
    per_group = as_per_group(target)
    if per_group is None:
        return None
    if not grid.by:
        raise ConfigError('per-group SLOs need grouped bins; bin the events with by=... (CLI --by) '
                          'naming the columns the SLOs are keyed by.')
    return per_group.resolve(grid.keys[list(grid.by)])

def split_groups(values: Sequence[Any]) -> list[tuple[Any, np.ndarray]]:
    seen: dict[Any, list[int]] = {}
    for i, v in enumerate(values):
        seen.setdefault(v, []).append(i)
    return [(v, np.asarray(p, dtype=np.int64)) for v, p in seen.items()]

def target_array(target: Any, grid: BinGrid) -> np.ndarray:
    if isinstance(target, np.ndarray) and target.shape == (grid.n_groups,
                                                           ) and (target.dtype.kind == 'f'):
        return np.array([_check_target_value(v) for v in target.tolist()], dtype=float)
    slos = group_slos(target, grid)
    if slos is not None:
        return np.array([s.target for s in slos], dtype=float)
    if hasattr(target, 'target') and (not isinstance(target, pd.DataFrame)):
        return np.full(grid.n_groups, _check_target_value(target.target))
    if isinstance(target, pd.DataFrame):
        if 'target' not in target.columns:
            raise ConfigError("a target table needs a 'target' column and group-key columns (e.g. "
                              "captcha_type).")
        on = [c for c in target.columns if c != 'target']
        unknown = [c for c in on if c not in grid.by]
        if unknown or not on:
            raise ConfigError("target table columns must be group keys of the bins "
                              f"({', '.join(map(repr, grid.by)) or 'none'}) plus 'target'.")
        vals = [_check_target_value(v, 'target table value') for v in target['target'].tolist()]
        left = grid.keys[on].astype(str).reset_index(drop=True)
        right = target[on].astype(str).reset_index(drop=True)
        right['_t'] = vals
        if right.duplicated(on).any():
            raise ConfigError('the target table lists a group twice; give one target per group.')
        merged = left.merge(right, on=on, how='left', sort=False)
        if merged['_t'].isna().any():
            raise ConfigError('the target table has no target for some groups of the bins; add '
                              'rows for them.')
        return merged['_t'].to_numpy(dtype=float)
    return np.full(grid.n_groups, _check_target_value(target))

def error_budgets(target: Any, grid: BinGrid) -> np.ndarray:
    return np.asarray(1 - target_array(target, grid), dtype=float)

def rolling_sum(x: np.ndarray, k: int) -> np.ndarray:
    n = x.shape[1]
    c = np.zeros((x.shape[0], n + 1), dtype=np.float64 if x.dtype.kind == 'f' else np.int64)
    np.cumsum(x, axis=1, out=c[:, 1:])
    hi = np.arange(1, n + 1)
    lo = np.maximum(hi - int(k), 0)
    return c[:, hi] - c[:, lo]

def ratio(bad: np.ndarray, total: np.ndarray) -> np.ndarray:
    out = np.zeros(np.shape(bad), dtype=float)
    np.divide(bad, total, out=out, where=np.asarray(total) > 0)
    return out

def _windows(windows: Any) -> list[Any]:
    if isinstance(windows, (str, pd.Timedelta)) or not isinstance(windows, Sequence):
        windows = [windows]
    out = list(windows)
    if not out:
        raise ConfigError("windows is empty; give e.g. windows=('5min', '1h').")
    return out

def burn_rates(bins: BinsLike, target: Any, windows: Sequence[Any] | Any=DEFAULT_WINDOWS,
               **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    grid = read_bins(bins, **options)
    budget = error_budgets(target, grid)
    wins = _windows(windows)
    ks = [window_bins(w, grid.freq_ns) for w in wins]
    labels = [duration_label(to_timedelta(w)) for w in wins]
    if len(set(labels)) != len(labels):
        raise ConfigError('windows lists the same window twice.')
    g, n, nw = (grid.n_groups, grid.n_bins, len(wins))
    if g * n * nw > 200000000:
        raise InputError('the burn-rate table would exceed 200 million rows; use fewer windows or '
                         'a coarser freq.')
    tot = np.empty((g, n, nw), dtype=np.int64)
    bad = np.empty((g, n, nw), dtype=np.int64)
    for j, k in enumerate(ks):
        tot[:, :, j] = rolling_sum(grid.total, k)
        bad[:, :, j] = rolling_sum(grid.bad, k)
    er = ratio(bad, tot)
    burn = er / budget[:, None, None]
    complete = np.broadcast_to(np.arange(n)[:, None] + 1 >= np.array(ks)[None, :], (g, n, nw))
    out = grid.long_keys(n * nw)
    out['bin_end'] = utc_from_ns(np.tile(np.repeat(grid.bin_end_ns, nw), g))
    out['window'] = pd.Categorical(np.tile(np.array(labels, dtype=object), g * n),
                                   categories=labels, ordered=True)
    out['total'] = tot.ravel()
    out['bad'] = bad.ravel()
    out['error_ratio'] = er.ravel()
    out['burn_rate'] = burn.ravel()
    out['no_traffic'] = (tot == 0).ravel()
    out['complete'] = np.ascontiguousarray(complete).ravel()
    return out
