"""Scale-out on Dask: the same analyses on histories that do not fit one machine.

``budgetlab.dask`` offers the names of the pandas API for :class:`dask.dataframe.DataFrame`
inputs, with the same arguments and the same results (tested equal to the pandas path on a
``distributed.LocalCluster``):

=====================  ===========================================  ==============================
function               runs on the workers                          returns
=====================  ===========================================  ==============================
:func:`read_events`    :func:`budgetlab.read_events` per partition  lazy Dask events (canonical)
:func:`bin_events`     :func:`budgetlab.windows.bins.bin_events` per        pandas bins table (small)
                       partition, partial counts summed in a tree
:func:`replay`         shuffle by group, sort by time, the pandas   lazy Dask states
                       :func:`budgetlab.replay` kernel per group
:func:`transitions`    :func:`budgetlab.transitions` per partition  pandas transitions table
=====================  ===========================================  ==============================

The top-level ``budgetlab`` functions stay pandas-only. Needs the optional extra
``pip install 'budgetlab[dask]'``. Import it as ``import budgetlab.scaleout as bd``; the scheduler is
whatever Dask uses (a ``distributed.Client`` when one exists, else Dask's local threads).

**Order.** Each partition of a Dask event table is sorted stably by ``ts`` (equal times keep file
order), partitions keep file/path order, and the index restarts at 0 in every partition. For a
hive layout by date (``date=YYYY-MM-DD/part.parquet``) that is the pandas order, partition by
partition. :func:`replay` does not depend on it: it tags each event with ``event_id`` (partition
number x 2**40 + row in the partition, so sorting by it restores the event table's order), and
sorts each group by ``(ts, event_id)``: exactly the per-group order of the pandas path, ties
included.

**Limit.** :func:`replay` puts every group (every group-key combination; the whole table when
``by`` is None) in one partition: a group must fit in one worker's memory, about 90-100 bytes
per event while it is replayed (measured: 19 B of input and a 74 B peak in the kernel, which
leaves 76 B of states), on top of a worker's fixed ~370 MB.
Use finer group keys, or fewer concurrent tasks and more memory per worker, for a bigger group.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

try:
    import dask.dataframe as dd
    from dask.base import compute
    from dask.delayed import delayed
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "budgetlab.dask needs Dask: install the optional extra with pip install 'budgetlab[dask]'."
    ) from exc

from ._util.validation import as_list, check_argument, require_columns, to_ns
from .budget.tracker_replay import REPLAY_COLUMNS, STATUS_DTYPE
from .budget.tracker_replay import replay as _pd_replay
from .budget.tracker_replay import transitions as _pd_transitions
from .errors import BudgetlabError, ConfigError, FileFormatError, InputError, SchemaError
from .events.pii import hash_values
from .events.read import read_events as _pd_read_events
from .events.schema import SUCCESS, bucket_dtype, ts_ns
from .slo import SLO
from .windows.bins import bin_events as _pd_bin_events
from .windows.bins import duration_label, exclusion_intervals
from .windows.groups import group_order

__all__ = ["read_events", "bin_events", "replay", "transitions", "EVENT_ID", "ROW_BITS"]

#: Index name of :func:`replay`'s states: the event's position in the events frame.
EVENT_ID = "event_id"
#: ``event_id = partition number << ROW_BITS | row within the partition``.
ROW_BITS = 40
_PII_MODES = ("error", "drop", "hash")
_SCRATCH_TIME = "__budgetlab_scratch_time__"


# --------------------------------------------------------------------------------------------
# shared checks
# --------------------------------------------------------------------------------------------
def _require_dask_frame(obj: Any, what: str, pandas_name: str) -> dd.DataFrame:
    if isinstance(obj, dd.DataFrame):
        return obj
    if isinstance(obj, pd.DataFrame):
        raise InputError(
            f"{what} is a pandas DataFrame; use {pandas_name}() for pandas, or convert with "
            "dask.dataframe.from_pandas(...) to use budgetlab.dask."
        )
    raise InputError(f"{what} must be a dask DataFrame from budgetlab.dask.read_events(), got {type(obj).__name__}.")


def _partition_error(exc: BudgetlabError, number: int | None) -> BudgetlabError:
    """The same error class, with the partition that raised it (row numbers count within it)."""
    where = "a partition" if number is None else f"partition {number}"
    return type(exc)(f"{where} of the Dask frame (rows counted within it): {exc}")


def _number(partition_info: Mapping[str, Any] | None) -> int:
    if partition_info is None:  # dask always passes it; a plain call is partition 0
        return 0
    return int(partition_info["number"])


def _check_events(events: Any, by: str | Sequence[str] | None, pandas_name: str) -> list[str]:
    """Schema checks on the Dask frame's metadata (no computation)."""
    frame = _require_dask_frame(events, "events", pandas_name)
    keys = as_list(by)
    require_columns(pd.DataFrame(columns=list(frame.columns)), ["ts", "ok", *keys])
    dtypes = frame.dtypes
    ts = dtypes["ts"]
    if not (isinstance(ts, pd.DatetimeTZDtype) and str(ts.tz) == "UTC"):
        raise SchemaError(
            "events['ts'] must be a UTC datetime column (datetime64[ns, UTC]); load the data with "
            "budgetlab.dask.read_events()."
        )
    if dtypes["ok"] != np.dtype(bool):
        raise SchemaError("events['ok'] must be a bool column; load the data with budgetlab.dask.read_events().")
    for col in [*keys, *(["bucket"] if "bucket" in frame.columns else [])]:
        dtype = dtypes[col]
        if isinstance(dtype, pd.CategoricalDtype) and not frame[col].cat.known:
            raise SchemaError(
                f"events[{col!r}] is a categorical with unknown categories, so partitions may disagree; "
                f"load the data with budgetlab.dask.read_events() or call events.categorize(columns=[{col!r}])."
            )
    if "bucket" in frame.columns and not isinstance(dtypes["bucket"], pd.CategoricalDtype):
        raise SchemaError(
            "events['bucket'] must be a categorical (every partition needs the same buckets); load the "
            "data with budgetlab.dask.read_events()."
        )
    return keys


# --------------------------------------------------------------------------------------------
# read_events
# --------------------------------------------------------------------------------------------
def _read_parquet(source: Any, filters: Any) -> tuple[dd.DataFrame, str]:
    paths = list(source) if isinstance(source, (list, tuple)) else [source]
    for p in paths:
        if not isinstance(p, (str, PathLike)):
            raise InputError(
                "source must be a Parquet path (file, directory or glob), a list of them, or a dask "
                f"DataFrame, got {type(p).__name__}."
            )
    name = Path(paths[0]).name if len(paths) == 1 else f"{len(paths)} Parquet paths"
    for p in paths:
        text = str(p)
        if any(ch in text for ch in "*?[") or "://" in text:
            continue  # a glob or a remote URL: Dask resolves it
        path = Path(text)
        if not path.exists():
            raise FileFormatError(f"{path}: no such file or directory; check the path.")
        if path.is_file() and path.suffix.lower() not in (".parquet", ".pq", ".parq"):
            raise FileFormatError(
                f"{path.name}: budgetlab.dask.read_events reads Parquet (a file, a directory or a glob); "
                "for CSV or JSON build the frame with dask.dataframe.read_csv(..., dtype=str) and pass it."
            )
    try:
        import pyarrow as pa

        frame = dd.read_parquet([str(p) for p in paths] if len(paths) > 1 else str(paths[0]), filters=filters)
    except (pa.ArrowException, OSError, ValueError, IndexError) as exc:
        raise FileFormatError(
            f"{name}: no readable Parquet data ({type(exc).__name__}); check the path, that it holds "
            ".parquet files, and the filters."
        ) from None
    return frame, name


@dataclass(frozen=True)
class _LoadPlan:
    """What every partition of :func:`read_events` needs: the loader arguments and the global dtypes."""

    kwargs: dict[str, Any]
    bucket: pd.CategoricalDtype
    key_dtypes: dict[str, pd.CategoricalDtype]
    hash_columns: tuple[str, ...]
    hashed_in: tuple[frozenset[str], ...]
    salt: str | None
    meta: pd.DataFrame | None


def _profile_partition(
    raw: pd.DataFrame,
    partition_info: Mapping[str, Any] | None = None,
    *,
    kwargs: dict[str, Any],
    guarded: list[str],
    scan_pii: bool,
) -> pd.DataFrame:
    """First pass: bucket labels, group-key categories, personal-data columns, one sample row.

    Runs :func:`budgetlab.read_events` on the label, key (and, for ``pii`` drop/hash, guarded)
    columns with a constant scratch time, so the same parsing and checks decide everything.
    """
    number = _number(partition_info)
    info: dict[str, Any] = {"rows": len(raw), "bucket": [], "keys": {}, "flagged": [], "sample": None}
    if len(raw) == 0:
        return pd.DataFrame({"number": [number], "info": [info]})
    keys = list(kwargs["by"])
    cols = [c for c in (kwargs["outcome"], kwargs["ok"], kwargs["bucket"]) if c]
    needed = list(dict.fromkeys([*cols, *keys, *(guarded if scan_pii else [])]))
    scratch = raw[needed].assign(**{_SCRATCH_TIME: np.zeros(len(raw), dtype=np.int64)})
    extra = [c for c in guarded if c not in keys] if scan_pii else []
    session = kwargs["session"] if kwargs["session"] in extra else None
    keep = [c for c in extra if c != session]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # pii="drop" warns; we look at what is gone
            frame = _pd_read_events(
                scratch, time=_SCRATCH_TIME, epoch="s", outcome=kwargs["outcome"], ok=kwargs["ok"],
                bucket=kwargs["bucket"], by=keys, session=session, keep=keep, outcomes=kwargs["outcomes"],
                pii="drop" if scan_pii else "error",
            )
    except BudgetlabError as exc:
        raise _partition_error(exc, number) from None
    present = set(frame.columns)
    info["bucket"] = [str(c) for c in frame["bucket"].cat.categories]
    info["keys"] = {k: list(frame[k].cat.categories) for k in keys if k in present}
    renamed = {session: "session_id"} if session else {}
    info["flagged"] = [c for c in (guarded if scan_pii else []) if renamed.get(c, c) not in present]
    info["sample"] = raw.iloc[:1]
    return pd.DataFrame({"number": [number], "info": [info]})


def _load_partition(raw: pd.DataFrame, partition_info: Mapping[str, Any] | None = None, *,
                    plan: _LoadPlan) -> pd.DataFrame:
    """One partition through :func:`budgetlab.read_events`, then the global dtypes."""
    number = _number(partition_info)
    if len(raw) == 0 and plan.meta is not None:
        return plan.meta.copy()
    try:
        frame = _pd_read_events(raw, **plan.kwargs)
        for col in plan.hash_columns:  # flagged in some partition: hashed in all, like pandas
            if col not in plan.hashed_in[number]:
                frame[col] = hash_values(frame[col], plan.salt if plan.salt is not None else "")
    except BudgetlabError as exc:
        raise _partition_error(exc, number) from None
    frame["bucket"] = frame["bucket"].cat.set_categories(list(plan.bucket.categories))
    for k, dtype in plan.key_dtypes.items():
        if k in frame.columns and isinstance(frame[k].dtype, pd.CategoricalDtype):
            frame[k] = frame[k].cat.set_categories(list(dtype.categories))
    if plan.meta is not None:
        for col, dtype in zip(list(plan.meta.columns), list(plan.meta.dtypes), strict=True):
            if frame[col].dtype != dtype:
                try:
                    frame[col] = frame[col].astype(dtype)
                except (TypeError, ValueError):
                    raise SchemaError(
                        f"column {col!r} has different types in different partitions of the Dask frame; "
                        "cast it to one type in the source."
                    ) from None
    return frame


def _union(lists: Sequence[Sequence[Any]], *, sort: bool) -> list[Any]:
    seen: dict[Any, None] = {}
    for values in lists:
        for v in values:
            seen.setdefault(v, None)
    return sorted(seen) if sort else list(seen)


def read_events(
    source: str | PathLike[str] | Sequence[str | PathLike[str]] | dd.DataFrame,
    *,
    time: str = "ts",
    outcome: str | None = "outcome",
    ok: str | None = None,
    bucket: str | None = None,
    by: str | Sequence[str] = (),
    session: str | None = None,
    keep: Sequence[str] = (),
    tz: str = "UTC",
    epoch: str | None = None,
    outcomes: Mapping[str, str] | None = None,
    pii: str = "error",
    salt: str | None = None,
    hash_session: bool = False,
    filters: Any = None,
) -> dd.DataFrame:
    """Load partitioned outcome logs into a Dask canonical event table.

    Same arguments and checks as :func:`budgetlab.read_events`, applied to every partition on
    the workers. A first (eager) pass reads the label and group-key columns to fix the
    categories every partition shares (and, for ``pii="drop"``/``"hash"``, which columns hold
    personal data anywhere: those are dropped/hashed in every partition, as pandas would).

    Parameters
    ----------
    source : path, list of paths, or dask DataFrame
        A Parquet file, a directory of Parquet files (hive partitions such as
        ``date=2026-10-05/`` become columns that ``by=`` may name), a glob, or a list of them;
        or a Dask DataFrame of raw columns (e.g. from ``dask.dataframe.read_csv(..., dtype=str)``).
    time, outcome, ok, bucket, by, session, keep, tz, epoch, outcomes, pii, salt, hash_session
        As in :func:`budgetlab.read_events`.
    filters : list, optional
        Passed to :func:`dask.dataframe.read_parquet` (e.g. ``[("date", ">=", "2026-10-12")]``).

    Returns
    -------
    dask DataFrame
        The canonical columns of :func:`budgetlab.read_events` (``ts``, ``ok``, ``bucket``, the
        ``by`` keys as categoricals with the same known categories in every partition,
        ``session_id``, ``keep``). Each partition is sorted stably by ``ts``; partitions keep file
        order; the index restarts at 0 per partition. Errors name the partition they come from.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> raw = pd.DataFrame({"ts": ["2026-11-29T02:00:00Z", "2026-11-29T01:00:00Z",
    ...                            "2026-11-30T02:00:00Z"],
    ...                     "outcome": ["success", "timeout", "success"], "region": ["fra", "fra", "ams"]})
    >>> ev = read_events(dd.from_pandas(raw, npartitions=2, sort=False), by="region")
    >>> ev.compute()
                             ts     ok   bucket region
    0 2026-11-29 01:00:00+00:00  False  timeout    fra
    1 2026-11-29 02:00:00+00:00   True  success    fra
    0 2026-11-30 02:00:00+00:00   True  success    ams
    >>> list(ev["region"].dtype.categories)
    ['ams', 'fra']
    """
    keys = as_list(by)
    check_argument("pii", pii, _PII_MODES)
    if ok is not None:
        outcome = None
    if outcome is None and ok is None:
        raise SchemaError("give outcome='<label column>' or ok='<boolean success column>'.")
    if isinstance(source, dd.DataFrame):
        raw_all, name = source, "the Dask DataFrame"
    elif isinstance(source, pd.DataFrame):
        raise InputError(
            "source is a pandas DataFrame; use budgetlab.read_events() for pandas, or pass "
            "dask.dataframe.from_pandas(source, npartitions=...) here."
        )
    else:
        raw_all, name = _read_parquet(source, filters)
    declared = [time, *([outcome] if outcome else []), *([ok] if ok else []), *([bucket] if bucket else []),
                *keys, *([session] if session else []), *keep]
    columns = list(dict.fromkeys(declared))
    if len(set(map(str, raw_all.columns))) != len(raw_all.columns):
        raise SchemaError(f"{name}: duplicate column names; rename them so each is unique.")
    require_columns(pd.DataFrame(columns=list(raw_all.columns)), columns, what=name)
    raw = raw_all[columns]
    guarded = [*keys, *([session] if session and not hash_session else []), *[k for k in keep if k not in keys]]
    guarded = list(dict.fromkeys(guarded))
    base = {"time": time, "outcome": outcome, "ok": ok, "bucket": bucket, "by": keys, "session": session,
            "keep": list(keep), "tz": tz, "epoch": epoch, "outcomes": outcomes, "salt": salt,
            "hash_session": hash_session}

    # first pass: categories, personal-data columns, a sample row (one small result per partition)
    scan_pii = pii != "error" and bool(guarded)
    profiles = raw.map_partitions(
        _profile_partition, kwargs=base, guarded=guarded, scan_pii=scan_pii,
        meta=pd.DataFrame({"number": pd.Series(dtype=np.int64), "info": pd.Series(dtype=object)}),
        enforce_metadata=False,
    ).compute()
    infos = [i for _, i in sorted(zip(profiles["number"].tolist(), profiles["info"].tolist(), strict=True),
                                  key=lambda pair: pair[0])]
    if sum(int(i["rows"]) for i in infos) == 0:
        raise InputError(f"{name} has no rows; nothing to analyse.")
    labels = _union([i["bucket"] for i in infos], sort=False)
    bucket_type = bucket_dtype(set(labels) - {SUCCESS})
    flagged = set(_union([i["flagged"] for i in infos], sort=False))
    meta_raw = raw._meta
    key_dtypes: dict[str, pd.CategoricalDtype] = {}
    for k in keys:
        if k in flagged:
            continue
        cats = _union([i["keys"].get(k, []) for i in infos],
                      sort=not isinstance(meta_raw[k].dtype, pd.CategoricalDtype))
        ordered = bool(getattr(meta_raw[k].dtype, "ordered", False))
        key_dtypes[k] = pd.CategoricalDtype(cats, ordered=ordered)

    kwargs = dict(base, pii=pii)
    hash_columns: tuple[str, ...] = ()
    hashed_in: tuple[frozenset[str], ...] = ()
    if flagged and pii == "drop":
        for col in sorted(flagged):
            warnings.warn(f"dropped column {col!r}: it looks like personal data.", UserWarning, stacklevel=2)
        kwargs["by"] = [k for k in keys if k not in flagged]
        kwargs["keep"] = [k for k in keep if k not in flagged]
        if session in flagged:
            kwargs["session"] = None
    elif flagged and pii == "hash":
        hash_columns = tuple("session_id" if c == session else c for c in guarded if c in flagged)
        renamed = {session: "session_id"} if session else {}
        hashed_in = tuple(frozenset(renamed.get(c, c) for c in i["flagged"]) for i in infos)

    if (flagged and pii == "hash") or (session and hash_session):
        hash_values(pd.Series(["x"], dtype="string"), salt if salt is not None else "")  # needs a salt
    # the metadata: one real row through the same loader (hashing every hash column, for dtypes)
    number = next(n for n, i in enumerate(infos) if i["rows"])
    plan = _LoadPlan(kwargs=kwargs, bucket=bucket_type, key_dtypes=key_dtypes, hash_columns=hash_columns,
                     hashed_in=tuple(frozenset() for _ in infos), salt=salt, meta=None)
    meta = _load_partition(infos[number]["sample"], {"number": number}, plan=plan).iloc[:0]
    plan = _LoadPlan(kwargs=kwargs, bucket=bucket_type, key_dtypes=key_dtypes, hash_columns=hash_columns,
                     hashed_in=hashed_in, salt=salt, meta=meta)
    loaded: dd.DataFrame = raw.map_partitions(_load_partition, plan=plan, meta=meta)
    return loaded


# --------------------------------------------------------------------------------------------
# bin_events
# --------------------------------------------------------------------------------------------
@dataclass
class _Partial:
    """Partial bin counts of some partitions: nonzero bins only, plus what fixes the grid."""

    groups: pd.DataFrame | None  # unique key rows seen (before start/end), None when ungrouped
    rows: int  # events seen
    t_min: int | None  # first/last event time inside start/end (ns)
    t_max: int | None
    counts: pd.DataFrame | None  # keys, "bin" (int64 bin number since the epoch), count columns


def _utc_ns(value: Any, name: str) -> int:
    try:
        ts = pd.Timestamp(value)
    except (ValueError, TypeError):
        raise ConfigError(f"{name} is not a timestamp; give e.g. '2026-01-01 00:00' (UTC) or a Timestamp.") from None
    if pd.isna(ts):
        raise ConfigError(f"{name} is missing (NaT); give a timestamp.")
    ts = ts.tz_localize("UTC") if ts.tzinfo is None else ts.tz_convert("UTC")
    return int(ts.as_unit("ns").value)


def _bin_partition(part: pd.DataFrame, partition_info: Mapping[str, Any] | None = None, *, keys: list[str],
                   freq_ns: int, lo: int | None, hi: int | None, options: dict[str, Any]) -> _Partial:
    number = _number(partition_info)
    groups = part[keys].drop_duplicates(ignore_index=True) if keys else None
    if len(part) == 0:
        return _Partial(groups, 0, None, None, None)
    if not part["ts"].is_monotonic_increasing:
        part = part.sort_values("ts", kind="stable")
    t = ts_ns(part)
    inside = np.ones(len(t), dtype=bool)
    if lo is not None:
        inside &= t >= lo
    if hi is not None:
        inside &= t < hi
    t_in = t[inside]
    if len(t_in) == 0:
        return _Partial(groups, len(t), None, None, None)
    t_min, t_max = int(t_in[0]), int(t_in[-1])
    # clamp start/end to this partition: same events kept, grid limited to the partition's span
    start = max(lo, int(t[0])) if lo is not None else None
    end = min(hi, int(t[-1]) + 1) if hi is not None else None
    try:
        b = _pd_bin_events(part, pd.Timedelta(freq_ns, unit="ns"), by=keys, start=None if start is None else pd.Timestamp(start, tz="UTC"),
                             end=None if end is None else pd.Timestamp(end, tz="UTC"), **options)
    except BudgetlabError as exc:
        raise _partition_error(exc, number) from None
    b = b[b["total"].to_numpy() != 0]
    b = b.assign(bin=np.asarray(b["bin_start"].array.asi8, dtype=np.int64) // freq_ns).drop(columns="bin_start")
    return _Partial(groups, len(t), t_min, t_max, b.reset_index(drop=True))


def _merge_partials(parts: list[_Partial], keys: list[str]) -> _Partial:
    groups = None
    if keys:
        groups = pd.concat([p.groups for p in parts if p.groups is not None], ignore_index=True)
        groups = groups.drop_duplicates(ignore_index=True)
    mins = [p.t_min for p in parts if p.t_min is not None]
    maxs = [p.t_max for p in parts if p.t_max is not None]
    frames = [p.counts for p in parts if p.counts is not None and len(p.counts)]
    counts = None
    if frames:
        counts = pd.concat(frames, ignore_index=True)
        if len(frames) > 1:
            counts = counts.groupby([*keys, "bin"], sort=False, observed=True, dropna=False).sum().reset_index()
    return _Partial(groups, sum(p.rows for p in parts), min(mins) if mins else None, max(maxs) if maxs else None,
                    counts)


def bin_events(
    events: dd.DataFrame,
    freq: Any = "1min",
    *,
    by: str | Sequence[str] | None = None,
    exclude_buckets: str | Sequence[str] | None = (),
    exclude_windows: Any = None,
    exclude_mode: str = "drop",
    start: Any = None,
    end: Any = None,
    split_every: int = 8,
) -> pd.DataFrame:
    """Count events per regular time bin (and group) on Dask; the bins table comes back as pandas.

    Each partition is binned on the workers with :func:`budgetlab.windows.bins.bin_events` (bins aligned
    on the Unix epoch, so partial counts add up), only nonzero bins travel, and partials are
    summed in a tree of ``split_every`` at a time. The result equals pandas ``bin_events`` on the
    whole table, empty bins and ``bad_<bucket>`` columns included, so every SRE-model analysis
    (``burn_rates``, ``period_budget``, ``alert_episodes``, ...) runs on it unchanged.

    Parameters
    ----------
    events : dask DataFrame
        From :func:`read_events` (``bucket`` and group keys with known categories).
    freq, by, exclude_buckets, exclude_windows, exclude_mode, start, end
        As in :func:`budgetlab.windows.bins.bin_events`.
    split_every : int
        Partials merged per step of the reduction tree.

    Returns
    -------
    DataFrame
        The bins table (pandas): group keys, ``bin_start``, ``total``, ``good``, ``bad``,
        ``bad_<bucket>``; ``attrs["freq"]`` and ``attrs["by"]`` as in the pandas function.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from budgetlab.events.schema import as_events
    >>> ev = as_events(["2026-01-01 00:00:10", "2026-01-01 00:00:20", "2026-01-01 00:02:05"],
    ...                [True, False, False], ["success", "timeout", "solve_error"])
    >>> b = bin_events(dd.from_pandas(ev, npartitions=2, sort=False), "1min")
    >>> b[["bin_start", "total", "bad", "bad_timeout", "bad_solve_error"]]
                      bin_start  total  bad  bad_timeout  bad_solve_error
    0 2026-01-01 00:00:00+00:00      2    1            1                0
    1 2026-01-01 00:01:00+00:00      0    0            0                0
    2 2026-01-01 00:02:00+00:00      1    1            0                1
    """
    keys = _check_events(events, by, "budgetlab.bin_events")
    freq_ns = to_ns(freq, name="freq")
    options = {"exclude_buckets": exclude_buckets, "exclude_windows": exclude_windows,
               "exclude_mode": exclude_mode}
    check_argument("exclude_mode", exclude_mode, ("drop", "good"))
    exclusion_intervals(exclude_windows)  # bad windows fail here, before any work
    if isinstance(split_every, bool) or not isinstance(split_every, (int, np.integer)) or split_every < 2:
        raise ConfigError(f"split_every={split_every!r} must be a whole number >= 2.")
    lo = _utc_ns(start, "start") if start is not None else None
    hi = _utc_ns(end, "end") if end is not None else None
    if lo is not None and hi is not None and hi <= lo:
        raise ConfigError("end must be after start.")

    columns = ["ts", "ok", *(["bucket"] if "bucket" in events.columns else []), *keys]
    parts = events[list(dict.fromkeys(columns))].to_delayed()
    tasks = [delayed(_bin_partition)(p, {"number": n}, keys=keys, freq_ns=freq_ns, lo=lo, hi=hi,
                                          options=options) for n, p in enumerate(parts)]
    while len(tasks) > 1:
        tasks = [delayed(_merge_partials)(tasks[i:i + split_every], keys)
                 for i in range(0, len(tasks), split_every)]
    total: _Partial = tasks[0].compute()  # one partition's partial is already merged
    # the grid, decided as pandas bin_events decides it
    if lo is None and total.t_min is None:
        raise InputError("there are no events to bin (empty table, or none inside start/end).")
    if hi is None and total.t_max is None:
        raise InputError("there are no events to bin after start; give end= to span an empty grid.")
    first_bin = (lo // freq_ns) * freq_ns if lo is not None else (int(total.t_min) // freq_ns) * freq_ns  # type: ignore[arg-type]
    last_bin = ((hi - 1) // freq_ns) * freq_ns if hi is not None else (int(total.t_max) // freq_ns) * freq_ns  # type: ignore[arg-type]
    if last_bin < first_bin:
        raise InputError("there are no events to bin inside start/end.")
    n_bins = (last_bin - first_bin) // freq_ns + 1

    meta = events._meta
    if "bucket" in events.columns:
        categories = [str(c) for c in bucket_dtype([str(c) for c in meta["bucket"].cat.categories]).categories]
    else:
        categories = [str(c) for c in bucket_dtype().categories]
    excluded = set(as_list(exclude_buckets) if exclude_buckets is not None else [])
    bucket_cols = [f"bad_{c}" for c in categories if c != SUCCESS and c not in excluded]

    if keys:
        assert total.groups is not None
        order = total.groups.groupby(keys, sort=True, observed=True, dropna=False).ngroup().to_numpy()
        key_table = total.groups.iloc[np.argsort(order, kind="stable")].reset_index(drop=True)
    else:
        key_table = pd.DataFrame(index=pd.RangeIndex(1))
    n_groups = len(key_table)
    if n_groups * n_bins > 500_000_000:
        raise ConfigError("the bin grid would exceed 500 million cells; use a coarser freq= or a shorter span.")
    size = n_groups * n_bins
    dense = {c: np.zeros(size, dtype=np.int64) for c in ("total", "bad", *bucket_cols)}
    counts = total.counts
    if counts is not None and len(counts):
        if keys:
            both = pd.concat([key_table[keys], counts[keys]], ignore_index=True)
            codes = both.groupby(keys, sort=True, observed=True, dropna=False).ngroup().to_numpy()[n_groups:]
        else:
            codes = np.zeros(len(counts), dtype=np.int64)
        idx = codes.astype(np.int64) * n_bins + (counts["bin"].to_numpy() - first_bin // freq_ns)
        for c, arr in dense.items():
            arr[idx] = counts[c].to_numpy(dtype=np.int64)
    starts = first_bin + np.arange(n_bins, dtype=np.int64) * freq_ns
    out = key_table.iloc[np.repeat(np.arange(n_groups), n_bins)].reset_index(drop=True) if keys else pd.DataFrame()
    out["bin_start"] = pd.DatetimeIndex(np.tile(starts, n_groups).view("datetime64[ns]")).tz_localize("UTC")
    out["total"] = dense["total"]
    out["good"] = dense["total"] - dense["bad"]
    out["bad"] = dense["bad"]
    for c in bucket_cols:
        out[c] = dense[c]
    out.attrs["freq"] = duration_label(pd.Timedelta(freq_ns, unit="ns"))
    out.attrs["by"] = list(keys)
    return out


# --------------------------------------------------------------------------------------------
# replay and transitions
# --------------------------------------------------------------------------------------------
def _tag_rows(part: pd.DataFrame, partition_info: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Add ``event_id``: partition number << ROW_BITS | row within the partition."""
    number = _number(partition_info)
    if len(part) >= 1 << ROW_BITS:
        raise InputError(f"partition {number} has more than 2**{ROW_BITS} rows; repartition the events.")
    ids = (np.int64(number) << np.int64(ROW_BITS)) + np.arange(len(part), dtype=np.int64)
    return part.assign(**{EVENT_ID: ids})


def _replay_partition(part: pd.DataFrame, slo: SLO, keys: list[str]) -> pd.DataFrame:
    """Every group of this partition in full: sort by (ts, event_id), then the pandas kernel."""
    order = np.lexsort((part[EVENT_ID].to_numpy(), ts_ns(part)))
    part = part.iloc[order]
    part = part.set_index(EVENT_ID)
    states = _pd_replay(part, slo, by=keys or None)
    states.attrs.clear()
    return states


def replay(
    events: dd.DataFrame,
    slo: SLO,
    *,
    by: str | Sequence[str] | None = None,
    npartitions: int | None = None,
    shuffle_method: str | None = None,
) -> dd.DataFrame:
    """Replay the seed's rolling-window tracker over every event, per group, on Dask.

    Events are tagged with ``event_id``, shuffled so that each group lands whole in one
    partition, sorted by ``(ts, event_id)`` and replayed there by the pandas kernel
    (:func:`budgetlab.replay`): the figures are bit-identical to the pandas path.

    Parameters
    ----------
    events : dask DataFrame
        From :func:`read_events`.
    slo : SLO
        Target, window, thresholds and ``min_events``.
    by : str or list of str, optional
        Group keys; each group is replayed by its own tracker. Without ``by`` the whole table
        is one group and goes to one partition.
    npartitions : int, optional
        Partitions after the shuffle (default: as many as ``events`` has).
    shuffle_method : str, optional
        Dask's shuffle method (``"p2p"``, ``"tasks"``, ``"disk"``; default: Dask's choice).

    Returns
    -------
    dask DataFrame
        Lazy states with the columns of :func:`budgetlab.replay` (``ts``, the group keys,
        ``total``, ``successes``, ``failures``, ``success_rate``, ``budget_total``,
        ``budget_remaining``, ``remaining_fraction``, ``burn_rate``, ``status``, ``low_traffic``),
        indexed by ``event_id`` (int64; sorting by it gives the order of ``events``). Each
        partition holds whole groups, rows sorted by ``(ts, event_id)``.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> states = replay(dd.from_pandas(ev, npartitions=3, sort=False), SLO(target=0.95, window="1h"))
    >>> last = states.compute().sort_index().iloc[-1]
    >>> last["budget_total"], last["status"]
    (np.float64(1.0000000000000009), 'critical')
    """
    keys = _check_events(events, by, "budgetlab.replay")
    if not isinstance(slo, SLO):
        raise ConfigError(f"slo must be a budgetlab.SLO, got {type(slo).__name__}; e.g. SLO(target=0.95, window='24h').")
    if npartitions is not None and (isinstance(npartitions, bool) or not isinstance(npartitions, (int, np.integer))
                                    or npartitions < 1):
        raise ConfigError(f"npartitions={npartitions!r} must be a whole number >= 1.")
    if shuffle_method is not None:
        check_argument("shuffle_method", shuffle_method, ("p2p", "tasks", "disk"))
    frame = events[list(dict.fromkeys(["ts", "ok", *keys]))]
    meta_in = frame._meta.assign(**{EVENT_ID: np.zeros(0, dtype=np.int64)})
    tagged = frame.map_partitions(_tag_rows, meta=meta_in)
    if keys:
        tagged = tagged.shuffle(on=keys, npartitions=npartitions or events.npartitions,
                                shuffle_method=shuffle_method)
    else:
        tagged = tagged.repartition(npartitions=1)
    meta = _replay_partition(meta_in, slo, keys)
    states: dd.DataFrame = tagged.map_partitions(_replay_partition, slo, keys, meta=meta, clear_divisions=True)
    return states


def _change_rows(states: pd.DataFrame, keys: list[str]) -> np.ndarray:
    """Positions of the status changes, as :func:`budgetlab.transitions` finds them."""
    code = states["status"].cat.codes.to_numpy()
    order, bounds = group_order(states, keys)
    idx = np.arange(len(code)) if order is None else order
    code_s = code[idx]
    prev = np.empty_like(code_s)
    prev[1:] = code_s[:-1]
    prev[bounds[:-1][bounds[:-1] < len(code_s)]] = 0
    return np.sort(idx[np.flatnonzero(code_s != prev)])


def _transitions_partition(part: pd.DataFrame, keys: list[str]) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    groups = part[keys].drop_duplicates(ignore_index=True) if keys else None
    if len(part) == 0:
        return None, groups
    tr = _pd_transitions(part)
    ids = np.asarray(part.index, dtype=np.int64)[_change_rows(part, keys)]
    if len(ids) != len(tr):  # pragma: no cover - guards against a change in budgetlab.transitions
        raise RuntimeError("budgetlab.dask.transitions is out of step with budgetlab.transitions.")
    return tr.assign(**{EVENT_ID: ids}), groups


def transitions(states: dd.DataFrame) -> pd.DataFrame:
    """The status changes of a Dask replay, as a pandas table equal to :func:`budgetlab.transitions`.

    Runs the pandas function on every partition (each holds whole groups) and merges the
    results in time order (ties in the order of the events).

    Parameters
    ----------
    states : dask DataFrame
        Output of :func:`replay` (not repartitioned: each group must sit in one partition).

    Returns
    -------
    DataFrame
        As :func:`budgetlab.transitions`: ``ts``, the group keys, ``from_status``, ``to_status``,
        ``current_rate``, ``total_events``, ``successes``, ``failures``, ``budget_total``,
        ``budget_remaining``, ``budget_remaining_pct``, ``burn_rate``; a fresh RangeIndex.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> states = replay(dd.from_pandas(ev, npartitions=2, sort=False), SLO(target=0.95, window="1h"))
    >>> transitions(states)[["from_status", "to_status", "burn_rate"]].to_dict("records")
    [{'from_status': 'healthy', 'to_status': 'critical', 'burn_rate': 1.0}]
    """
    frame = _require_dask_frame(states, "states", "budgetlab.transitions")
    if "status" not in frame.columns:
        raise InputError("transitions() takes the dask DataFrame returned by budgetlab.dask.replay().")
    keys = [str(c) for c in frame.columns if c not in REPLAY_COLUMNS]
    parts = frame.to_delayed()  # type: ignore[no-untyped-call]
    results = compute(*[delayed(_transitions_partition)(p, keys) for p in parts])  # type: ignore[no-untyped-call]
    if keys:
        seen = pd.concat([g for _, g in results if g is not None], ignore_index=True)
        if seen.duplicated().any():
            raise InputError(
                "a group spans several partitions of states; pass the states of budgetlab.dask.replay() "
                "without repartitioning or shuffling them."
            )
    found = [t for t, _ in results if t is not None]
    if not found:
        empty = frame._meta.iloc[:0]
        cols: dict[str, Any] = {"ts": empty["ts"].array}
        for k in keys:
            cols[k] = empty[k].array
        cols["from_status"] = pd.Categorical([], dtype=STATUS_DTYPE)
        cols["to_status"] = pd.Categorical([], dtype=STATUS_DTYPE)
        for c in ("current_rate",):
            cols[c] = np.zeros(0, dtype=np.float64)
        for c in ("total_events", "successes", "failures"):
            cols[c] = np.zeros(0, dtype=np.int64)
        for c in ("budget_total", "budget_remaining", "budget_remaining_pct", "burn_rate"):
            cols[c] = np.zeros(0, dtype=np.float64)
        return pd.DataFrame(cols)
    out = pd.concat(found, ignore_index=True)
    order = np.lexsort((out[EVENT_ID].to_numpy(), ts_ns(out)))
    result: pd.DataFrame = out.iloc[order].drop(columns=EVENT_ID).reset_index(drop=True)
    return result
