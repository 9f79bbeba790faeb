"""Loading: files or DataFrames -> the canonical event table (:mod:`budgetlab.events.schema`).

Only declared columns are read, and they pass the personal-data guard (:mod:`budgetlab.privacy`)
before anything else is done with their values; :mod:`.files` reads the files, :mod:`.times` the
times Arrow did not read, :mod:`.outcomes` the labels. Group keys are read here, in one spelling
(:func:`group_key`).
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Sequence
from os import PathLike
from typing import Any

import numpy as np
import pandas as pd

from .._util.percent import measured_percent
from .._util.validation import duration_label
from .._util.words import counted
from ..errors import BudgetlabWarning, ConfigError, InputError
from ..privacy import guard_personal_data, hash_values, shown
from ._messages import ROWS, number_dtypes, row_numbers
from .files import ISO_TIME, FileSpec, check_scalars, expand_sources, is_path_like, read_files
from .how_read import HowRead, LabelReading, after_reading_note, skip_reasons
from .lines import NOT_IN_FORMAT, read_lines
from .outcomes import OutcomeReading, bucket_with_ok, classify_outcomes
from .presets import PRESETS
from .schema import SUCCESS, bucket_dtype, check_header, code_counts, sort_by_time
from .spec import ReadSpec
from .spelling import INVISIBLE_WORDS, one_spelling
from .threshold import DURATION, apply_slow, duration_notes, parse_durations, read_threshold
from .timeformat import parse_formatted
from .times import describe_time, parse_time
from .vocabulary import parse_ok

__all__ = ["read_events", "read_table", "one_spelling", "reading_time", "ID_LIKE_SHARE",
           "ID_LIKE_MIN_ROWS", "CLOCK_SKEW", "READING_TIME"]

#: A group key with more distinct values than this share of the rows (and at least
#: :data:`ID_LIKE_MIN_ROWS` rows) looks like an id: most groups would hold one or two events.
ID_LIKE_SHARE = 0.5
ID_LIKE_MIN_ROWS = 1000
#: How far past the time of reading the last event may lie before the reading says so: the clock
#: that stamped a log and the one reading it may differ a little, and a log written just now may
#: end a few minutes ahead.
CLOCK_SKEW = pd.Timedelta(hours=1)
#: The environment variable that sets the time of reading (:func:`reading_time`).
READING_TIME = "BUDGETLAB_READING_TIME"


def read_events(source: str | PathLike[str] | Sequence[str | PathLike[str]] | pd.DataFrame,
                spec: ReadSpec | None = None, **overrides: Any) -> pd.DataFrame:
    """Load an outcome log into the canonical event table.

    Parameters
    ----------
    source : path, list of paths, glob, folder, or DataFrame
        A CSV/TSV, Parquet or JSON Lines file (``.gz`` for text formats), several of them (a list,
        a glob such as ``"logs/*.csv"``, or a folder: its files sorted by name), or a pandas
        DataFrame. Several files are read as one table with one schema (the same declared columns
        with the same kind of values in each; times may differ in form: each file's are read by
        its own rule, but naive times beside instants are refused); a bad row is named by its
        file and row there.
        Files are opened read-only; a DataFrame is never modified. With ``pattern``/``preset``:
        text logs of any extension (``.log``, ``.txt``, compressed ...), one event per matching
        line.
    spec : ReadSpec, optional
        How to read: the options, each documented in :class:`~budgetlab.events.spec.ReadSpec`
        (``time``, ``outcome``, ``ok``, ``ok_when``, ``bucket``, ``by``, ``session``, ``keep``,
        ``tz``, ``epoch``, ``outcomes``, ``pii``, ``salt``, ``hash_session``, ``format``,
        ``encoding``, ``duration``, ``duration_unit``, ``slow_above``, ``pattern``, ``preset``,
        ``time_format``, ``year``, ``strict``, ``on_error``, ``not_personal``).
    **overrides
        Any of those fields as keywords: ``read_events(path, by="region")``, or beside ``spec``
        (``read_events(path, spec, tz="UTC")``).

    Returns
    -------
    DataFrame
        ``ts`` (datetime64[ns, UTC]), ``ok`` (bool), ``bucket`` (ordered categorical: ``success``
        then the failure buckets present), the ``by`` keys (categoricals), ``session_id``
        (string) if declared, then ``keep`` columns, then ``duration`` (timedelta64[ns]) if
        declared; sorted stably by ``ts`` (equal times keep input order: file order, then row
        order), with a fresh RangeIndex. Skipped rows are not in it. ``attrs["how_read"]`` is the
        plain dict of a :class:`~budgetlab.events.how_read.HowRead` (``as_dict()``; the object
        back: :func:`budgetlab.how_read`): rows read and skipped (by reason), how the
        time column was read and its span, each label -> meaning with its count, and a note for
        each reading decision.

    Warns
    -----
    BudgetlabWarning
        A ``by`` key that looks like an id: more distinct values than half the rows, with at
        least 1,000 rows (a ratio, not a count: 50,000 sitekeys over millions of events do not
        warn).

    Raises
    ------
    ConfigError
        Invalid options (unknown ``pii``, a missing ``salt``, an unknown ``tz``, an ``encoding``
        that is not a text encoding such as ``hex`` ...).
    FileFormatError, SchemaError, TimestampError, OutcomeError, InputError, PersonalDataError
        Bad input; every message says what to fix and never contains a data value: rows are
        named by number (1-based data rows in input order).

    Examples
    --------
    >>> raw = pd.DataFrame({"ts": ["2026-11-29T03:47:00+01:00", "2026-11-29T02:00:00Z"],
    ...                     "outcome": ["timeout", "success"], "region": ["fra", "ams"]})
    >>> ev = read_events(raw, by="region")
    >>> ev
                             ts     ok   bucket region
    0 2026-11-29 02:00:00+00:00   True  success    ams
    1 2026-11-29 02:47:00+00:00  False  timeout    fra
    >>> from budgetlab import how_read  # the HowRead back from attrs["how_read"], a plain dict
    >>> print(how_read(ev))
    how it was read: the DataFrame (2 rows)
      rows: 2 read, 2 kept, 0 skipped
      time: column 'ts', text with UTC offsets (each row its own instant); 2026-11-29T02:00:00Z ..
      2026-11-29T02:47:00Z (UTC)
      outcomes: column 'outcome', built-in vocabulary
        'success'  -> success  1
        'timeout'  -> timeout  1
    >>> read_events(raw.assign(region=["a@b.org", "ams"]), by="region")
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: column 'region' looks like personal data (1 row like an
    e-mail address (1 distinct value)); personal data must not enter the budget log. Do not declare
    it, or pass pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.
    """
    if spec is not None and not isinstance(spec, ReadSpec):
        raise ConfigError(f"spec= takes a budgetlab.ReadSpec, got {type(spec).__name__}.")
    return read_table(source, (spec if spec is not None else ReadSpec()).replace(**overrides))


def read_table(source: Any, spec: ReadSpec, *, warn: bool = True) -> pd.DataFrame:
    """:func:`read_events` of ``source`` by ``spec``; ``warn=False``: without its warnings (a
    column dropped for personal data, a key that looks like an id), for a pass whose table is not
    the user's (the Dask reader's first pass, on worker threads: a process-wide warnings filter
    does not hold across threads, so the pass is told not to warn)."""
    labels = [c for c in (spec.label if spec.reads_labels else None, spec.bucket)
              if c is not None]
    # what the file layer notes for messages holds for this read only; the options that
    # declared each column name the fix when a column is missing
    token = ROWS.set({"roles": spec.roles})
    try:
        raw, files, notes, bad_lines = _raw_table(source, spec, [*labels, *spec.by])
        check_scalars(raw, spec.columns)
        # personal data: refused before anything else is done with the values, but the group
        # keys are spelled first (checked, one spelling): one key is one hash
        keys = [k for k in spec.by if set(spec.roles[k]) <= {"by", "keep"}]
        guarded = [*spec.by, *spec.keep,
                   *([spec.session] if spec.session and not spec.hash_session else [])]
        # a by= key that pii='drop' would drop is refused (by the Dask driver after its scan)
        raw = guard_personal_data(_spelled_keys(raw, keys), guarded, pii=spec.pii,
                                  salt=spec.salt, required=labels, by_name=spec.named_personal,
                                  warn=warn, keys=spec.by if warn else ())
        t, time_text = _time_of(raw, spec)
        outcome = _outcome_reading(raw, spec, require_success=is_path_like(source))
        outcome, n_slow, latency, durations = _latency_of(raw, spec, outcome)
        # a view of what was read from files; a copy of a caller's DataFrame (theirs to change)
        ts = pd.DatetimeIndex(t, dtype="datetime64[ns, UTC]",
                              copy=isinstance(source, pd.DataFrame)).array
        frame = _canonical(raw, spec, {"ts": ts, "ok": outcome.ok, "bucket": outcome.bucket},
                           durations, keys, warn=warn)
    finally:
        ROWS.reset(token)
    if outcome.skip.any():  # rows whose label maps to skip are left out
        if outcome.skip.all():
            raise InputError(f"every {'line' if spec.pattern else 'row'} maps to skip; nothing "
                             "is left to analyse: check outcomes=.")
        frame, t = frame[~outcome.skip].reset_index(drop=True), t[~outcome.skip]
        used = frame["bucket"].cat.remove_unused_categories().cat.categories  # success first
        frame["bucket"] = frame["bucket"].cat.set_categories(
            bucket_dtype(set(used) - {SUCCESS}).categories)
    frame, first, last = sort_by_time(frame, t)
    late, read_at, late_note = _after_reading(t, last, spec)
    frame.attrs["how_read"] = HowRead(
        files=tuple(files), rows_read=len(raw) + bad_lines, rows_kept=len(frame),
        skipped=skip_reasons(outcome.labels) + (((NOT_IN_FORMAT, bad_lines),) if bad_lines else ()),
        time_column=spec.time, time_reading=time_text,
        first=first, last=last, outcome_column=spec.label, vocabulary=outcome.vocabulary,
        labels=outcome.labels, slow_rows=n_slow,
        notes=(*notes, *latency, *outcome.notes, *late_note),
        slow_above=None if spec.slow_ns is None else
        duration_label(pd.Timedelta(spec.slow_ns, unit="ns")),
        threshold=spec.threshold, rows_after_reading=late, reading_time=read_at).as_dict()
    return frame


def reading_time() -> pd.Timestamp:
    """The time of reading: now, in UTC, or the instant the environment variable
    :data:`READING_TIME` names (ISO-8601; naive is UTC), for a run to reproduce and for tests.
    """
    pinned = os.environ.get(READING_TIME)
    if not pinned:
        return pd.Timestamp.now(tz="UTC")
    try:
        at = pd.Timestamp(pinned)
    except ValueError:
        raise ConfigError(f"{READING_TIME}={pinned!r} is not an ISO-8601 instant (e.g. "
                          "2026-12-06T07:00:00Z); unset it to read at the time of the "
                          "run.") from None
    return at.tz_localize("UTC") if at.tzinfo is None else at.tz_convert("UTC")


def _after_reading(t: np.ndarray, last: str | None, spec: ReadSpec,
                   ) -> tuple[int, str | None, tuple[str, ...]]:
    """Rows stamped later than the time of reading (:func:`reading_time`) by more than
    :data:`CLOCK_SKEW`, the time of reading and the note that says so
    (:func:`~.how_read.after_reading_note`); nothing when the last event is not that late.
    Compared as time - skew: a time of reading at the end of time fits."""
    now = reading_time()
    if last is None or pd.Timestamp(last) - CLOCK_SKEW <= now:
        return 0, None, ()
    late = int(np.count_nonzero(t - CLOCK_SKEW.value > now.value))
    return late, *after_reading_note(late, now, pd.Timestamp(last), CLOCK_SKEW, year=spec.year)


def _canonical(raw: pd.DataFrame, spec: ReadSpec, out: dict[str, Any],
               durations: np.ndarray | None, spelled: Sequence[str], *,
               warn: bool) -> pd.DataFrame:
    """``out`` (``ts``, ``ok``, ``bucket``) and the declared keys (one spelling; ``spelled``:
    already; ``warn``: whether a key that looks like an id warns), session id, kept columns and
    durations that the guard left, as one table."""
    for k in (k for k in spec.by if k in raw.columns):
        out[k] = raw[k].array if k in spelled else group_key(raw[k], k)
        if warn:
            _warn_id_like(k, out[k])
    if spec.session and spec.session in raw.columns:
        sid = raw[spec.session]
        out["session_id"] = hash_values(sid, spec.salt or "").astype("string") \
            if spec.hash_session else sid.astype("string").array
    out.update({k: raw[k].array for k in spec.keep if k in raw.columns and k not in out})
    if durations is not None:
        out[DURATION] = pd.to_timedelta(durations, unit="ns").as_unit("ns").array
    return pd.DataFrame(out, copy=False)


def _raw_table(source: Any, spec: ReadSpec, dict_columns: list[str],
               ) -> tuple[pd.DataFrame, list[tuple[str, int]], list[str], int]:
    """The declared columns of ``source`` (files or a DataFrame, never modified), fresh index, the
    ``(name, rows)`` of each file, the reading decisions (``how_read.notes``) and the lines of a
    line log skipped as not in the format. A text file's time column may come as instants unless
    it is also kept or a key (then as written), or read with ``time_format``."""
    if isinstance(source, pd.DataFrame):
        if spec.pattern is not None:
            raise ConfigError("pattern= reads the lines of text files; a DataFrame already has "
                              "columns.")
        check_header(list(source.columns), spec.columns, "the DataFrame",
                     numbers=lambda: number_dtypes(source))
        if len(source) == 0:
            raise InputError("the DataFrame has no rows; nothing to analyse.")
        raw = source[spec.columns].reset_index(drop=True)
        raw.attrs = {}  # the caller's attrs say nothing of how budgetlab read it
        return raw, [("the DataFrame", len(source))], [], 0
    if is_path_like(source):
        paths = expand_sources(source)
        if spec.pattern is not None:
            return read_lines(paths, spec)
        time = spec.time if spec.time_format is None and \
            spec.time not in (*spec.by, *spec.keep) else None
        return (*read_files(paths, FileSpec(tuple(spec.columns), tuple(dict_columns), spec.format,
                                            spec.encoding, time if spec.epoch is None else None,
                                            time, spec.tz, spec.epoch)), 0)
    if type(source).__module__.startswith("dask"):
        raise InputError("source is a dask DataFrame; use budgetlab.dask.read_events (import "
                         "budgetlab.dask as bd).")
    raise InputError("source must be a file path, a list of paths, a glob, a folder or a pandas "
                     f"DataFrame, got {type(source).__name__}.")


def _time_of(raw: pd.DataFrame, spec: ReadSpec) -> tuple[np.ndarray, str]:
    """The time column as int64 ns UTC and how it was read (for ``how_read``)."""
    col, tz = raw[spec.time], spec.tz
    reading = raw.attrs.get(ISO_TIME)  # instants already (read by Arrow, several files, lines)
    if reading and isinstance(col.dtype, pd.DatetimeTZDtype) and col.dtype.unit == "ns":
        return np.asarray(col.array.asi8), reading
    if spec.time_format is not None:
        return parse_formatted(col, spec.time_format, year=spec.year, tz=tz,
                               lines=spec.pattern is not None)
    return parse_time(col, tz=tz, epoch=spec.epoch), \
        reading or describe_time(col, tz=tz, epoch=spec.epoch)


def _outcome_reading(raw: pd.DataFrame, spec: ReadSpec, *,
                     require_success: bool) -> OutcomeReading:
    """Outcome labels through :func:`classify_outcomes`, or a success column (and its failure
    kinds), or a metric column compared with the ``ok_when`` threshold."""
    threshold = spec.threshold
    if threshold is not None:  # a metric series read by the user's threshold
        ok = read_threshold(raw[threshold.column], threshold)
    elif spec.ok is None:
        reading = classify_outcomes(raw[spec.label], spec.outcomes,
                                    require_success=require_success)
        if spec.preset is not None and spec.outcomes == dict(PRESETS[spec.preset].outcomes):
            # the preset's own meanings, not a mapping the caller gave
            reading = dataclasses.replace(reading, vocabulary=f"the {spec.preset} preset's mapping")
        return reading
    else:
        ok = parse_ok(raw[spec.ok])
    bucket = bucket_with_ok(None if spec.bucket is None else raw[spec.bucket], ok)
    counts = np.bincount(bucket.codes[bucket.codes >= 0], minlength=len(bucket.categories))
    # without bucket=, every row's meaning comes from the ok= column alone
    rows = tuple(LabelReading(str(b), str(b), "bucket= column" if spec.bucket is not None
                              and b != "success" else "ok_when=" if threshold else "ok= column",
                              int(n))
                 for b, n in zip(bucket.categories, counts, strict=True) if n)
    return OutcomeReading(ok, bucket, np.zeros(len(ok), dtype=bool), rows,
                          "ok_when=" if threshold else "true/false")


def _latency_of(raw: pd.DataFrame, spec: ReadSpec, outcome: OutcomeReading,
                ) -> tuple[OutcomeReading, int, tuple[str, ...], np.ndarray | None]:
    """With ``duration``: slow successes as failures in the ``slow`` bucket (with
    ``slow_above``), the slow rows, the note on the durations and the durations (ns)."""
    if spec.duration is None:
        return outcome, 0, (), None
    durations = parse_durations(raw[spec.duration], spec.duration_unit)
    note = duration_notes(spec.duration, raw[spec.duration], durations, spec.duration_unit)
    if spec.slow_ns is None:
        return outcome, 0, note, durations
    ok, bucket, n_slow = apply_slow(outcome.ok, outcome.bucket, durations, spec.slow_ns)
    return dataclasses.replace(outcome, ok=ok, bucket=bucket), n_slow, note, durations


# --------------------------------------------------------------------------------------------
# group keys: one spelling
# --------------------------------------------------------------------------------------------
def group_key(col: pd.Series, name: str) -> pd.Categorical:
    """A declared group key as a categorical in one spelling (:func:`one_spelling`: only used
    categories, sorted; values with invisible characters refused). A categorical column (labels
    and keys are read as Arrow dictionaries) keeps its small codes: only its categories are
    spelled and sorted, the rows are remapped through a lookup table."""
    cat = col.array if isinstance(col.dtype, pd.CategoricalDtype) else pd.Categorical(col)
    codes = np.asarray(cat.codes)  # small codes; -1: missing
    names, invisible = one_spelling(pd.Index(cat.categories.astype(str)))  # distinct values
    if invisible.any():
        hidden = invisible[np.maximum(codes, 0)] & (codes >= 0)
        if hidden.any():
            raise InputError(f"group key {shown(name)} holds {INVISIBLE_WORDS} at "
                             f"{row_numbers(hidden)} "
                             f"({counted(int(hidden.sum()), 'row')}); they would make groups "
                             "that print alike: remove them from the data.")
    blank = np.asarray(names == "", dtype=bool)
    if len(codes) and (int(codes.min()) < 0 or (blank.any() and bool(blank[codes].any()))):
        missing = (codes < 0) | (blank[np.maximum(codes, 0)] if len(blank) else False)
        raise InputError(f"group key {name!r} is empty or missing at "
                         f"{row_numbers(np.asarray(missing))}; fill or drop those rows.")
    used = code_counts(codes, len(names)) > 0
    cats, inverse = np.unique(np.asarray(names, dtype=object)[used].astype(str),
                              return_inverse=True)
    categories = pd.Index(cats, dtype="str")
    # validate=False below: the codes were checked non-negative, and each used code maps into cats
    if used.all() and np.array_equal(inverse, np.arange(len(names))):
        # as wanted (a copy: the raw column's codes are read-only, the caller may write to it)
        return pd.Categorical.from_codes(codes.copy(), categories=categories, validate=False)
    remap = np.full(len(names), -1, dtype=codes.dtype)
    remap[np.flatnonzero(used)] = inverse
    import pyarrow as pa
    import pyarrow.compute as pc

    remapped = pc.take(pa.array(remap), pa.array(codes))  # NumPy's indexing widens the codes
    return pd.Categorical.from_codes(np.array(remapped.to_numpy(zero_copy_only=True)),
                                     categories=categories, validate=False)


def _spelled_keys(raw: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """``raw`` with the group keys ``keys`` in one spelling (:func:`group_key`), its attrs kept.
    The keys' codes are :func:`group_key`'s own fresh copy, taken as they are: ``assign`` would
    copy every key's codes a second time."""
    if not keys:
        return raw
    spelled = {k: group_key(raw[k], k) for k in keys}
    out = pd.DataFrame({c: spelled[c] if c in spelled else raw[c] for c in raw.columns},
                       copy=False)
    out.attrs = raw.attrs
    return out


def _warn_id_like(name: str, key: pd.Categorical) -> None:
    """Warn when a group key looks like an id (distinct values per row, not a count: 50,000
    sitekeys over millions of events are normal groups)."""
    rows, distinct = len(key), len(key.categories)
    if rows >= ID_LIKE_MIN_ROWS and distinct > ID_LIKE_SHARE * rows:
        warnings.warn(BudgetlabWarning(
            f"group key {shown(name)} has {distinct:,} distinct values over {rows:,} rows "
            f"({measured_percent(distinct / rows, 0)}): it looks like an id, not a group, and "
            "each group would hold one or two events; drop it from by= or "
            "group by a coarser key."), stacklevel=5)
