"""``read_events`` on Dask: every partition through :func:`budgetlab.read_events`, with the
categories and the personal-data verdict shared by all partitions, and how it was read
(:mod:`._how_read`) from the first pass (:mod:`._first_pass`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import Any

import dask.dataframe as dd
import pandas as pd

from .._util.validation import require_columns
from .._util.words import say
from ..errors import BudgetlabError, InputError, SchemaError
from ..events.files import is_path_like
from ..events.outcomes import OutcomeReading
from ..events.read import read_events as pandas_read_events
from ..events.read import reading_time
from ..events.schema import SUCCESS, bucket_dtype
from ..events.spec import ReadSpec
from ..privacy import hash_values
from ..privacy.refusals import warn_dropped
from ._first_pass import profile
from ._how_read import dask_how_read, late_after
from ._keys import dropped_findings, key_dtypes, refuse_personal, union
from ._labels import classify_counts, skipped_parts
from ._partitions import partition_error, partition_number
from ._sources import files_read, files_with_rows, raw_frame, spec_of

__all__ = ["read_events"]


@dataclass(frozen=True)
class _LoadPlan:
    """What every partition of :func:`read_events` needs: the loader arguments and the global
    dtypes."""

    spec: ReadSpec
    bucket: pd.CategoricalDtype
    key_dtypes: dict[str, pd.CategoricalDtype]
    hash_columns: tuple[str, ...]
    hashed_in: tuple[frozenset[str], ...]
    salt: str | None
    meta: pd.DataFrame | None
    #: partitions whose every label maps to skip: no rows, as in one file's table
    skipped: frozenset[int] = frozenset()


def _load_partition(raw: pd.DataFrame, partition_info: Mapping[str, Any] | None = None, *,
                    plan: _LoadPlan) -> pd.DataFrame:
    """One partition through :func:`budgetlab.read_events`, then the global dtypes."""
    number = partition_number(partition_info)
    if plan.meta is not None and (len(raw) == 0 or number in plan.skipped):
        return plan.meta.copy()
    try:
        frame = pandas_read_events(raw, plan.spec)
        for col in plan.hash_columns:  # flagged in some partition: hashed in all, like pandas
            if col not in plan.hashed_in[number]:
                frame[col] = hash_values(frame[col], plan.salt if plan.salt is not None else "")
    except BudgetlabError as exc:
        raise partition_error(exc, number) from None
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
                        f"column {col!r} has different types in different partitions of the Dask "
                        "frame; cast it to one type in the source.") from None
    return frame


def _label_buckets(infos: list[dict[str, Any]], spec: ReadSpec, *, require_success: bool,
                   ) -> tuple[list[str], frozenset[int], OutcomeReading]:
    """The failure buckets of the outcome labels of every partition, classified once as
    :func:`budgetlab.read_events` classifies one file's (:func:`~._labels.classify_counts`): a
    refusal (unknown or numeric labels; from Parquet paths, no success in any partition) lists
    the labels of the whole input, in the order met, partition after partition, with their
    rows. Also the partitions whose every row maps to skip (loaded as no rows); when that is
    every row of the input, refused as one file would be. Also the labels' reading."""
    parts = [i.get("labels") for i in infos]
    reading = classify_counts([p for p in parts if p is not None], spec.outcomes,
                              require_success=require_success)
    skipped = skipped_parts(parts, reading)
    if all(n in skipped for n, i in enumerate(infos) if i["rows"]):
        raise InputError("every row maps to skip; nothing is left to analyse: check "
                         + say("outcomes=", "--outcomes") + ".")
    return [str(c) for c in reading.bucket.categories], skipped, reading


def read_events(
    source: str | PathLike[str] | Sequence[str | PathLike[str]] | dd.DataFrame,
    spec: ReadSpec | None = None,
    *,
    filters: Any = None,
    **options: Any,
) -> dd.DataFrame:
    """Load partitioned outcome logs into a Dask canonical event table.

    Same arguments and checks as :func:`budgetlab.read_events`, applied to every partition on
    the workers. A first (eager) pass reads the label and group-key columns to fix the
    categories every partition shares, and which group-key, kept and session columns hold
    personal data anywhere: refused there (``pii="error"``, counted over every partition, in the
    pandas reader's words), or dropped/hashed in every partition, as pandas would. Files
    without rows beside others are skipped and said, as :func:`budgetlab.read_events` does. The
    outcome labels of every partition are classified at once: unknown labels are refused with
    those of the whole input, in the order met, with their rows, and from Parquet paths so is an
    outcome column in which no row of any partition is a success, in the words of
    :func:`budgetlab.read_events` for files (a partition alone may hold failures only; so may a
    Dask DataFrame, a slice of a log, as a pandas one may).

    Parameters
    ----------
    source : path, list of paths, or dask DataFrame
        A Parquet file, a folder of Parquet files (hive partitions such as
        ``date=2026-10-05/`` become columns that ``by=`` may name), a glob, or a list of files
        and globs (messages count them: ``2 files have no rows``); or a Dask DataFrame of raw
        columns (e.g. from ``dask.dataframe.read_csv(..., dtype=str)``).
    spec : ReadSpec, optional
        The same options object :func:`budgetlab.read_events` takes (keywords override its fields).
    **options
        Fields of :class:`~budgetlab.events.spec.ReadSpec` overriding ``spec``'s (``time``,
        ``outcome``, ``ok``, ``bucket``, ``by``, ``session``, ``keep``, ``tz``, ``epoch``,
        ``outcomes``, ``pii``, ``salt``, ``hash_session``, ``not_personal``, ``time_format``
        (with the year in it: a ``year=`` runs from line to line over the whole log, which
        partitions read apart cannot do, and is refused), and ``ok_when``,
        a metric series read by your threshold in every partition as
        :func:`budgetlab.read_events` reads it; the fields for text files and request durations
        (``duration``, ``duration_unit``, ``slow_above``: not read here) are refused
        (``InputError``, whatever the value, before the spec's own checks of them), and
        ``on_error`` other than ``"count"`` and the deprecated ``strict=True`` (which warns,
        ``FutureWarning``) as :func:`budgetlab.read_events` refuses them on a table: they go
        with ``pattern=``).
    filters : list, optional
        Passed to :func:`dask.dataframe.read_parquet` (e.g. ``[("date", ">=", "2026-10-12")]``).
        A file with rows none of which they keep is skipped and said (``b.parquet: no rows kept
        by filters=, skipped``); input they leave without rows is refused (``InputError``).

    Returns
    -------
    dask DataFrame
        The canonical columns of :func:`budgetlab.read_events` (``ts``, ``ok``, ``bucket``, the
        ``by`` keys as categoricals with the same known categories in every partition,
        ``session_id``, ``keep``). Each partition is sorted stably by ``ts``; partitions keep file
        order; the index restarts at 0 per partition. Errors name the partition they come from.
        ``attrs["how_read"]`` (on the object returned) is the plain dict of a
        :class:`~budgetlab.events.how_read.HowRead` (:func:`budgetlab.how_read`), with the files
        and counts :func:`budgetlab.read_events` states for the same data, from the first pass (the
        notes
        of budgetlab's file layer, which Dask's Parquet reader does not go through, are left out).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> raw = pd.DataFrame({"ts": ["2026-11-29T02:00:00Z", "2026-11-29T01:00:00Z",
    ...                            "2026-11-30T02:00:00Z"],
    ...                     "outcome": ["success", "timeout", "success"],
    ...                     "region": ["fra", "fra", "ams"]})
    >>> ev = read_events(dd.from_pandas(raw, npartitions=2, sort=False), by="region")
    >>> ev.compute()
                             ts     ok   bucket region
    0 2026-11-29 01:00:00+00:00  False  timeout    fra
    1 2026-11-29 02:00:00+00:00   True  success    fra
    0 2026-11-30 02:00:00+00:00   True  success    ams
    >>> list(ev["region"].dtype.categories)
    ['ams', 'fra']
    >>> from budgetlab import how_read  # the HowRead back from attrs["how_read"], a plain dict
    >>> print(how_read(ev))
    how it was read: the Dask DataFrame (3 rows)
      rows: 3 read, 3 kept, 0 skipped
      time: column 'ts', text with UTC offsets (each row its own instant); 2026-11-29T01:00:00Z ..
      2026-11-30T02:00:00Z (UTC)
      outcomes: column 'outcome', built-in vocabulary
        'success'  -> success  2
        'timeout'  -> timeout  1
    """
    spec = spec_of(spec, options)
    keys, keep, pii, session, salt = list(spec.by), list(spec.keep), spec.pii, spec.session, \
        spec.salt
    raw_all, name = raw_frame(source, filters)
    columns = [c for c in spec.columns if c != spec.duration]
    if len(set(map(str, raw_all.columns))) != len(raw_all.columns):
        raise SchemaError(f"{name}: duplicate column names; rename them so each is unique.")
    many = isinstance(source, (list, tuple)) and len(source) > 1  # "2 files have"
    require_columns(pd.DataFrame(columns=list(raw_all.columns)), columns, what=name,
                    roles=[c for c in columns if c not in keys and c not in keep], plural=many)
    raw = raw_all[columns]
    guarded = list(dict.fromkeys([*keys, *([session] if session and not spec.hash_session else []),
                                  *[k for k in keep if k not in keys]]))

    # first pass: categories, personal-data columns, a sample row, the facts of how it was read
    # (one small result per partition)
    now = reading_time()
    infos = profile(raw_all, name, spec, guarded, scan_pii=bool(guarded),
                    late_after=late_after(now), files=is_path_like(source), meta=raw._meta)
    # input without rows refused; files without rows beside others skipped, with a note
    files, file_notes = files_with_rows(files_read(raw_all, filters) if is_path_like(source)
                                        else None, filters, infos, name, many)
    flagged = set(union([i["flagged"] for i in infos], sort=False))
    # pii="error": refused over every partition, as the pandas reader's guard, before the labels
    # (and a by= key pii="drop" would drop)
    refuse_personal(infos, spec, flagged, name if is_path_like(source) else None)
    # a DataFrame may be a slice of a log that holds no success: budgetlab.read_events' rule
    buckets, skipped, reading = _label_buckets(infos, spec, require_success=is_path_like(source)) \
        if spec.reads_labels else (union([i["bucket"] for i in infos], sort=False), frozenset(),
                                   None)
    bucket_type = bucket_dtype(set(buckets) - {SUCCESS})

    load_spec = spec
    hash_columns: tuple[str, ...] = ()
    hashed_in: tuple[frozenset[str], ...] = ()
    if flagged and pii == "drop":
        for col in sorted(flagged):  # in the pandas reader's words, over every partition
            warn_dropped(col, dropped_findings(infos, col), stacklevel=2)
        load_spec = spec.replace(by=[k for k in keys if k not in flagged],
                                 keep=[k for k in keep if k not in flagged],
                                 not_personal=[k for k in spec.not_personal if k not in flagged],
                                 session=None if session in flagged else session,
                                 hash_session=spec.hash_session and session not in flagged)
    elif flagged and pii == "hash":
        hash_columns = tuple("session_id" if c == session else c for c in guarded if c in flagged)
        renamed = {session: "session_id"} if session else {}
        hashed_in = tuple(frozenset(renamed.get(c, c) for c in i["flagged"]) for i in infos)

    if (flagged and pii == "hash") or (session and spec.hash_session):
        # needs a salt
        hash_values(pd.Series(["x"], dtype="string"), salt if salt is not None else "")
    # a hashed key's categories: its values spelled in every partition, then hashed
    dtypes = key_dtypes(infos, keys, flagged, raw._meta,
                        (salt or "") if pii == "hash" else None)
    # the metadata: one real row through the same loader (hashing every hash column, for dtypes)
    number = next(n for n, i in enumerate(infos) if i["rows"] and n not in skipped)
    plan = _LoadPlan(spec=load_spec, bucket=bucket_type, key_dtypes=dtypes,
                     hash_columns=hash_columns,
                     hashed_in=tuple(frozenset() for _ in infos), salt=salt, meta=None)
    meta = _load_partition(infos[number]["sample"], {"number": number}, plan=plan).iloc[:0]
    plan = dataclasses.replace(plan, hashed_in=hashed_in, meta=meta, skipped=skipped)
    loaded: dd.DataFrame = raw.map_partitions(_load_partition, plan=plan, meta=meta)
    # as on a pandas table (a Dask frame has no attrs of its own; the object returned keeps them)
    object.__setattr__(loaded, "attrs", {"how_read": dask_how_read(
        infos, spec, name, reading, now, files, file_notes).as_dict()})
    return loaded
