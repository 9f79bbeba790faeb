"""Test-only oracle: budgetlab/windows/bins.py as of commit 1989377 (the dense SRE path), docstrings
removed, imports made absolute. Never edit its logic: it is what the sparse path must equal. Its
refusals' words follow the current ones (Stop 58: the ok/bucket disagreement, asserted alike in
tests/windows/test_read_bins_oracle.py)."""
# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations
import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias, Unpack
import numpy as np
import pandas as pd
from budgetlab._util.memory import check_memory
from budgetlab._util.validation import (
    duration_label,
    to_ns,
    to_timedelta,
    utc_from_ns,
    utc_timestamp,
)
from budgetlab.errors import ConfigError, InputError, OutcomeError, SchemaError
from budgetlab.events.schema import SOLVE_ERROR, SUCCESS, bucket_dtype, check_events, ts_ns
from budgetlab.windows.exclusions import ExcludeOptions, Exclusions, exclusion_intervals
from budgetlab.windows.groups import group_key_codes
__all__ = ['COUNT_COLUMNS', 'BinGrid', 'grid_span', 'check_grid_cells', 'BinsLike',
           'ReadBinsOptions', 'Exclusions', 'ExcludeOptions', 'bin_events', 'read_bins', 'bin_keys',
           'window_bins', 'duration_label', 'exclusion_intervals']
COUNT_COLUMNS = ('total', 'good', 'bad')
_CELL_COLUMNS = 12

class ReadBinsOptions(ExcludeOptions, total=False):
    freq: Any

def _bucket_codes(events: pd.DataFrame, ok: np.ndarray) -> tuple[np.ndarray, list[str]]:
    if 'bucket' in events.columns:
        col = events['bucket']
        if isinstance(col.dtype, pd.CategoricalDtype):
            labels = [str(c) for c in col.cat.categories]
            dtype = bucket_dtype(labels)
            cat = col.cat.set_categories(list(dtype.categories))
        else:
            cat = col.astype(str).astype(bucket_dtype(pd.unique(col.astype(str))))
        if cat.isna().any():
            raise OutcomeError("events['bucket'] has missing values; every event needs a bucket "
                               "(success, timeout, ...).")
        codes = cat.cat.codes.to_numpy().astype(np.int64)
        categories = [str(c) for c in cat.cat.categories]
    else:
        categories = list(bucket_dtype().categories)
        codes = np.where(ok, categories.index(SUCCESS),
                         categories.index(SOLVE_ERROR)).astype(np.int64)
    success_code = categories.index(SUCCESS)
    if bool(np.any(ok & (codes != success_code))):
        raise OutcomeError("events' 'ok' and 'bucket' disagree: successful rows (ok=True) have a "
                           "failure bucket; fix the outcome mapping.")
    if bool(np.any(~ok & (codes == success_code))):
        raise OutcomeError("events' 'ok' and 'bucket' disagree: failed rows (ok=False) have the "
                           "bucket 'success'; fix the outcome mapping.")
    return (codes, categories)

def _check_bucket_names(excluded: Sequence[str], categories: Sequence[str]) -> None:
    failure_names = [c for c in categories if c != SUCCESS]
    for b in excluded:
        if b not in failure_names:
            close = difflib.get_close_matches(b, failure_names, n=2, cutoff=0.5)
            hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ''
            raise ConfigError(f"exclude_buckets names unknown failure bucket {b!r}.{hint} Failure "
                              f"buckets: {', '.join(map(repr, failure_names))}.")

def _event_span(t: np.ndarray, start: Any, end: Any, freq_ns: int, n_groups: int,
                columns: int=_CELL_COLUMNS) -> tuple[np.ndarray, int, int]:
    keep = np.ones(len(t), dtype=bool)
    lo_ns = int(utc_timestamp(start, name='start').value) if start is not None else None
    hi_ns = int(utc_timestamp(end, name='end').value) if end is not None else None
    if lo_ns is not None and hi_ns is not None and (hi_ns <= lo_ns):
        raise ConfigError('end must be after start.')
    if lo_ns is not None:
        keep &= t >= lo_ns
    if hi_ns is not None:
        keep &= t < hi_ns
    in_span = t[keep]
    t_min, t_max = (int(in_span.min()), int(in_span.max())) if len(in_span) else (None, None)
    first_bin, n_bins = grid_span(lo_ns, hi_ns, t_min, t_max, freq_ns)
    check_grid_cells(n_groups, n_bins, columns=columns)
    return (keep, first_bin, n_bins)

def grid_span(lo_ns: int | None, hi_ns: int | None, t_min: int | None, t_max: int | None,
              freq_ns: int) -> tuple[int, int]:
    if lo_ns is not None:
        first_bin = lo_ns // freq_ns * freq_ns
    elif t_min is not None:
        first_bin = t_min // freq_ns * freq_ns
    else:
        raise InputError('there are no events to bin (empty table, or none inside start/end).')
    if hi_ns is not None:
        last_bin = (hi_ns - 1) // freq_ns * freq_ns
    elif t_max is not None:
        last_bin = t_max // freq_ns * freq_ns
    else:
        raise InputError('there are no events to bin after start; give end= to span an empty grid.')
    if last_bin < first_bin:
        raise InputError('there are no events to bin inside start/end.')
    return (first_bin, (last_bin - first_bin) // freq_ns + 1)

def check_grid_cells(n_groups: int, n_bins: int, *, columns: int=_CELL_COLUMNS,
                     memory_limit: Any=None) -> None:
    check_memory(
        float(n_groups) * float(n_bins) * 8.0 * columns,
        f"the bin grid ({n_groups} group(s) x {n_bins} bin(s))",
        ["use a coarser freq=", "fewer groups (by=)", "a shorter span (start=/end=)"],
        limit=memory_limit,
    )

def bin_events(events: pd.DataFrame, freq: Any='1min', *, by: str | Sequence[str] | None=None,
               start: Any=None, end: Any=None, **exclude: Unpack[ExcludeOptions]) -> pd.DataFrame:
    keys = check_events(events, by)
    freq_ns = to_ns(freq, name='freq')
    exclusions = Exclusions.of(**exclude)
    t = ts_ns(events)
    ok = events['ok'].to_numpy(dtype=bool)
    codes, categories = _bucket_codes(events, ok)
    _check_bucket_names(exclusions.buckets, categories)
    group_code, key_table = group_key_codes(events, keys)
    n_groups = len(key_table)
    keep, first_bin, n_bins = _event_span(t, start, end, freq_ns, n_groups,
                                          columns=7 + 3 * len(categories))
    keep, fail, codes = exclusions.apply_to_events(t, ~ok, codes, keep, categories)
    idx = group_code[keep] * n_bins + (t[keep] - first_bin) // freq_ns
    f_keep = fail[keep]
    size = n_groups * n_bins
    total = np.bincount(idx, minlength=size).astype(np.int64)
    bad = np.bincount(idx[f_keep], minlength=size).astype(np.int64)
    n_cat = len(categories)
    per_bucket = np.bincount(idx[f_keep] * n_cat + codes[keep][f_keep], minlength=size * n_cat)
    per_bucket = per_bucket.astype(np.int64).reshape(size, n_cat)
    grid = BinGrid(keys=key_table, by=keys, start_ns=first_bin, freq_ns=freq_ns,
                   total=total.reshape(n_groups, n_bins), bad=bad.reshape(n_groups, n_bins),
                   exclusions=exclusions)
    per_name = {f'bad_{name}': per_bucket[:, code] for code,
                name in enumerate(categories) if name != SUCCESS and name not in exclusions.buckets}
    return grid.to_table(per_name)

@dataclass(frozen=True)
class BinGrid:
    keys: pd.DataFrame
    by: list[str]
    start_ns: int
    freq_ns: int
    total: np.ndarray
    bad: np.ndarray
    exclusions: Exclusions = field(default_factory=Exclusions)

    @property
    def n_groups(self) -> int:
        return int(self.total.shape[0])

    @property
    def n_bins(self) -> int:
        return int(self.total.shape[1])

    @property
    def bin_start_ns(self) -> np.ndarray:
        return self.start_ns + np.arange(self.n_bins, dtype=np.int64) * self.freq_ns

    @property
    def bin_end_ns(self) -> np.ndarray:
        return self.bin_start_ns + self.freq_ns

    def keys_at(self, groups: np.ndarray) -> pd.DataFrame:
        if not self.by:
            return pd.DataFrame(index=pd.RangeIndex(len(groups)))
        return self.keys.iloc[groups].reset_index(drop=True)

    def long_keys(self, repeat: int) -> pd.DataFrame:
        return self.keys_at(np.repeat(np.arange(self.n_groups), repeat))

    def select(self, groups: Sequence[int] | np.ndarray) -> BinGrid:
        idx = np.asarray(groups, dtype=np.int64)
        return replace(self, keys=self.keys.iloc[idx].reset_index(drop=True), total=self.total[idx],
                       bad=self.bad[idx])

    def regroup(self, by: Sequence[str]) -> BinGrid:
        by = list(by)
        missing = [k for k in by if k not in self.by]
        if missing:
            raise ConfigError(f'by= names {missing} which are not group keys of the bins '
                              f'({self.by}).')
        codes, keys = group_key_codes(self.keys, by)
        total = np.zeros((len(keys), self.n_bins), dtype=np.int64)
        bad = np.zeros((len(keys), self.n_bins), dtype=np.int64)
        np.add.at(total, codes, self.total)
        np.add.at(bad, codes, self.bad)
        return replace(self, keys=keys, by=by, total=total, bad=bad)

    def to_table(self, extra: Mapping[str, np.ndarray] | None=None) -> pd.DataFrame:
        out = self.long_keys(self.n_bins)
        out['bin_start'] = utc_from_ns(np.tile(self.bin_start_ns, self.n_groups))
        out['total'] = self.total.ravel()
        out['good'] = (self.total - self.bad).ravel()
        out['bad'] = self.bad.ravel()
        for name, values in (extra or {}).items():
            out[name] = values
        out.attrs = {'freq': duration_label(pd.Timedelta(self.freq_ns, unit='ns')),
                     'by': list(self.by)}
        return out
BinsLike: TypeAlias = pd.DataFrame | BinGrid

def _count_columns(columns: Iterable[Any]) -> set[str]:
    cols = {str(c) for c in columns}
    return {c for c in cols if c in COUNT_COLUMNS or c == 'bin_start' or c.startswith('bad_')}

def bin_keys(bins: pd.DataFrame) -> list[str]:
    attr = bins.attrs.get('by')
    if isinstance(attr, list) and all((isinstance(k, str) and k in bins.columns for k in attr)):
        return list(attr)
    counts = _count_columns(bins.columns)
    return [str(c) for c in bins.columns if str(c) not in counts]

def _check_table(bins: Any) -> None:
    if not isinstance(bins, pd.DataFrame):
        raise InputError('bins must be a DataFrame from budgetlab.bin_events(), got '
                         f'{type(bins).__name__}.')
    for col in ('bin_start', 'total', 'bad'):
        if col not in bins.columns:
            raise SchemaError(f'bins has no column {col!r}; make the table with '
                              'budgetlab.bin_events().')
    if len(bins) == 0:
        raise InputError('bins is empty; make it with budgetlab.bin_events() from a non-empty '
                         'event table.')

def _bin_offsets(bins: pd.DataFrame, freq: Any) -> tuple[int, int, np.ndarray]:
    bs = bins['bin_start']
    if not isinstance(bs.dtype, pd.DatetimeTZDtype):
        raise SchemaError("bins['bin_start'] must be datetime64[ns, UTC]; make the table with "
                          "budgetlab.bin_events().")
    if bs.isna().any():
        raise InputError("bins['bin_start'] has missing values.")
    b_ns = np.asarray(bs.dt.tz_convert('UTC').dt.as_unit('ns').array.asi8, dtype=np.int64)
    start_ns = int(b_ns.min())
    offsets = b_ns - start_ns
    if freq is not None:
        freq_ns = to_ns(freq, name='freq')
    elif isinstance(bins.attrs.get('freq'), str):
        freq_ns = to_ns(bins.attrs['freq'], name="bins.attrs['freq']")
    else:
        freq_ns = int(np.gcd.reduce(offsets))
        if freq_ns == 0:
            raise ConfigError("bins has a single bin_start; give freq= (e.g. freq='1min').")
    if bool(np.any(offsets % freq_ns)):
        raise InputError("bins['bin_start'] is not on a regular grid of the given freq; pass the "
                         "freq used by bin_events() (freq=...).")
    return (start_ns, freq_ns, offsets)

def _count_column(bins: pd.DataFrame, name: str) -> np.ndarray:
    col = bins[name]
    if (
        not pd.api.types.is_numeric_dtype(col.dtype)
        or pd.api.types.is_bool_dtype(col.dtype)
        or col.isna().any()
    ):
        raise SchemaError(f'bins[{name!r}] must hold whole numbers (int64) without missing values.')
    arr = col.to_numpy()
    if arr.dtype.kind == 'f':
        if not bool(np.all(np.isfinite(arr))) or bool(np.any(arr != np.round(arr))):
            raise SchemaError(f'bins[{name!r}] must hold whole numbers.')
    arr = arr.astype(np.int64)
    if bool(np.any(arr < 0)):
        raise InputError(f'bins[{name!r}] has negative counts.')
    return arr

def _row_counts(bins: pd.DataFrame, buckets: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    total = _count_column(bins, 'total')
    bad = _count_column(bins, 'bad')
    if bool(np.any(bad > total)):
        raise InputError('bins has rows with bad > total.')
    for b in buckets:
        col = f'bad_{b}'
        if col not in bins.columns:
            present = sorted((str(c)[4:] for c in bins.columns if str(c).startswith('bad_')))
            raise ConfigError(f"bins has no column {col!r} to exclude (buckets present: "
                              f"{', '.join(map(repr, present))}); it may have been excluded by "
                              "bin_events() already.")
        sub = _count_column(bins, col)
        if bool(np.any(sub > bad)):
            raise InputError(f"bins[{col!r}] exceeds 'bad' in some rows.")
        total = total - sub
        bad = bad - sub
    return (total, bad)

def _as_read(grid: BinGrid, freq: Any, exclusions: Exclusions) -> BinGrid:
    if exclusions:
        raise ConfigError('bins is a BinGrid, whose exclusions were applied when it was read; give '
                          'exclude_buckets / exclude_windows to read_bins() (or bin_events()) '
                          'once, not again.')
    if freq is not None and to_ns(freq, name='freq') != grid.freq_ns:
        raise ConfigError(f"freq={freq!r} differs from the bin width of the BinGrid "
                          f"({duration_label(pd.Timedelta(grid.freq_ns, unit='ns'))}).")
    return grid

def read_bins(bins: BinsLike, *, freq: Any=None, exclude_buckets: str | Sequence[str] | None=(),
              exclude_windows: Any=None, exclude_mode: str='drop') -> BinGrid:
    exclusions = Exclusions.of(exclude_buckets=exclude_buckets, exclude_windows=exclude_windows,
                               exclude_mode=exclude_mode)
    if isinstance(bins, BinGrid):
        return _as_read(bins, freq, exclusions)
    _check_table(bins)
    by = bin_keys(bins)
    start_ns, freq_ns, offsets = _bin_offsets(bins, freq)
    n_bins = int(offsets.max() // freq_ns) + 1
    codes, keys = group_key_codes(bins, by)
    n_groups = len(keys)
    flat = codes * n_bins + offsets // freq_ns
    if int(np.bincount(flat, minlength=n_groups * n_bins).max()) > 1:
        raise InputError('bins has duplicated (group, bin_start) rows; each group needs one row '
                         'per bin.')
    tot_rows, bad_rows = _row_counts(bins, exclusions.buckets)
    total = np.zeros(n_groups * n_bins, dtype=np.int64)
    bad = np.zeros(n_groups * n_bins, dtype=np.int64)
    total[flat] = tot_rows
    bad[flat] = bad_rows
    grid_total, grid_bad = (total.reshape(n_groups, n_bins), bad.reshape(n_groups, n_bins))
    # bin-level window exclusion: a bin is excluded when its start lies in a window
    inside = exclusions.inside(start_ns + np.arange(n_bins, dtype=np.int64) * freq_ns)
    if exclusions.mode == "drop":
        grid_total[:, inside] = 0
    grid_bad[:, inside] = 0
    return BinGrid(keys=keys, by=by, start_ns=start_ns, freq_ns=freq_ns, total=grid_total,
                   bad=grid_bad, exclusions=exclusions)

def window_bins(window: Any, freq_ns: int, *, name: str='window') -> int:
    ns = to_ns(window, name=name)
    if ns % freq_ns:
        raise ConfigError(f"{name}={duration_label(to_timedelta(window, name=name))} is not a "
                          "whole number of bins of "
                          f"{duration_label(pd.Timedelta(freq_ns, unit='ns'))}; bin the events "
                          "with a freq that divides it.")
    return ns // freq_ns
