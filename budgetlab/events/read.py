"""Loading: files or DataFrames -> the canonical event table (see :mod:`budgetlab.events.schema`).

Only declared columns are read (``time``, ``outcome`` or ``ok``, ``bucket``, ``by``, ``session``,
``keep``); everything else is never loaded. Declared columns pass the personal-data guard
(:mod:`budgetlab.events.pii`). Input files are opened read-only and never modified.

The steps live next door: :mod:`._formats` reads the declared columns of a file, :mod:`._times`
parses the time column, :mod:`.outcomes` maps labels to ``ok`` and ``bucket``.

Every problem with the input raises a named :class:`~budgetlab.errors.BudgetlabError` whose
message says what to fix and never contains a data value: rows are named by number (1-based,
counting data rows in input order), labels only where the caller must list them (unknown outcome
labels) and only if they do not look like personal data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from .._util.validation import duration_label, utc_from_ns
from ..errors import ConfigError, InputError
from ..privacy import guard_personal_data, hash_values
from ._columns import MISSING_LABELS, group_key, warn_id_like
from ._latency import DURATION, apply_slow, parse_durations
from ._messages import check_header, reading
from ._times import OFFSETS_READING, describe_time, parse_time
from .files import ISO_TIME, FileSpec, check_scalars, expand_sources, is_path_like, read_files
from .lines import read_lines
from .outcomes import (
    DEFAULT_OUTCOMES,
    LabelReading,
    OutcomeReading,
    bucket_with_ok,
    classify_outcomes,
    map_outcomes,
    parse_ok,
)
from .schema import HowRead, skip_reasons, time_span
from .spec import ReadSpec
from .timeformat import parse_formatted

__all__ = ["read_events", "ReadSpec", "ReadOptions", "DEFAULT_OUTCOMES", "MISSING_LABELS",
           "map_outcomes"]


class ReadOptions(TypedDict, total=False):
    """The keywords of :func:`read_events` that say what the columns mean and how to guard them
    (all but ``format`` and ``encoding``, which concern files): what the Dask twin
    :func:`budgetlab.dask.read_events` passes on to every partition. Defaults: those of
    :func:`read_events`."""

    time: str
    outcome: str | None
    ok: str | None
    bucket: str | None
    by: str | Sequence[str]
    session: str | None
    keep: Sequence[str]
    not_personal: Sequence[str]
    tz: str
    epoch: str | None
    outcomes: Mapping[str, str] | None
    pii: str
    salt: str | None
    hash_session: bool


# --------------------------------------------------------------------------------------------
# columns
# --------------------------------------------------------------------------------------------
def _raw_table(source: Any, spec: ReadSpec, dict_columns: list[str],
               ) -> tuple[pd.DataFrame, list[tuple[str, int]], list[str]]:
    """The declared columns of ``source`` (files or a DataFrame, never modified), fresh index, the
    ``(name, rows)`` of each file and the reading decisions (for ``attrs["how_read"].notes``). A
    text file's time column may come as instants (see
    :func:`~budgetlab.events._text.read_csv_text`)
    unless it is also kept or a key (then as written), or read with ``time_format``."""
    columns = spec.columns
    if isinstance(source, pd.DataFrame):
        if spec.pattern is not None:
            raise ConfigError("pattern= reads the lines of text files; a DataFrame already has "
                              "columns.")
        check_header(list(source.columns), columns, "the DataFrame")
        if len(source) == 0:
            raise InputError("the DataFrame has no rows; nothing to analyse.")
        raw = source[columns].reset_index(drop=True)
        # the caller's attrs say nothing of how budgetlab read it (e.g. what the guard may skip)
        raw.attrs = {}
        return raw, [("the DataFrame", len(source))], []
    if is_path_like(source):
        paths = expand_sources(source)
        if spec.pattern is not None:
            return read_lines(paths, spec.pattern, columns, encoding=spec.encoding,
                              strict=spec.strict)
        iso_time = spec.time if spec.epoch is None and spec.time_format is None and \
            spec.time not in (*spec.by, *spec.keep) else None
        return read_files(paths, FileSpec(tuple(columns), tuple(dict_columns), spec.format,
                                          spec.encoding, iso_time))
    if type(source).__module__.startswith("dask"):
        raise InputError("source is a dask DataFrame; use budgetlab.dask.read_events (import "
                         "budgetlab.dask as bd).")
    raise InputError("source must be a file path, a list of paths, a glob, a folder or a pandas "
                     "DataFrame, "
                     f"got {type(source).__name__}.")


# --------------------------------------------------------------------------------------------
# the loader
# --------------------------------------------------------------------------------------------
def read_events(
    source: str | PathLike[str] | Sequence[str | PathLike[str]] | pd.DataFrame,
    spec: ReadSpec | None = None,
    **overrides: Any,
) -> pd.DataFrame:
    r"""Load an outcome log into the canonical event table.

    Parameters
    ----------
    source : path, list of paths, glob, folder, or DataFrame
        A CSV/TSV, Parquet or JSON Lines file (``.gz`` for text formats), several of them (a list,
        a glob such as ``"logs/*.csv"``, or a folder: its files sorted by name), or a pandas
        DataFrame. Several files are read as one table with one schema (the same declared columns
        with the same kind of values in each); a bad row is named by its file and row there.
        Files are opened read-only; a DataFrame is never modified. With ``pattern``/``preset``:
        text logs of any extension (``.log``, ``.txt``, compressed ...), one event per matching
        line.
    spec : ReadSpec, optional
        All the options below in one frozen, validated object
        (:class:`~budgetlab.events.spec.ReadSpec`);
        keyword arguments given beside it override its fields (``read_events(path, spec,
        tz="UTC")``).
    time : str
        Time column: ISO-8601 strings (with offsets, which may differ from row to row: each is an
        exact instant, e.g. +01:00 and +02:00 across a DST change; or all without, then ``tz``
        says the zone; ``GMT+0100``/``UTC-05:00`` after any date style are offsets with the ISO
        sign), datetimes, or epoch numbers (then say the unit with ``epoch=``). Naive and aware
        times mixed, and dates without a day or a year, are refused.
    outcome : str, optional
        Outcome-label column. Labels are normalised (NFKC, zero-width characters removed,
        case-folded, trimmed) and read through the built-in vocabulary :data:`DEFAULT_OUTCOMES`
        (``success``, ``succeeded``, ``completed``, ``done``, ``ok``, ``true``, ``1`` ... ->
        success; ``timeout``, ``timed out`` ... -> ``timeout``; ``failed``, ``error``, ``false``,
        ``0`` ... -> ``failure``), or through ``outcomes``. **A label neither knows is refused**,
        with its count and the exact ``outcomes=`` to pass; so is a column in which no label is
        a success under the built-in vocabulary in a file (a DataFrame may be one slice of a
        larger log, so it is not refused for that). Ignored when ``ok`` is given.
    ok : str, optional
        A boolean success column (true/false, 1/0, yes/no) instead of outcome labels.
    bucket : str, optional
        With ``ok``: the failure-kind column (success rows get ``success``); failures without a
        kind count as ``failure``.
    by : str or list of str
        Group keys to keep (as categoricals), e.g. ``["captcha_type", "region"]``.
    session : str, optional
        Column kept as ``session_id`` (opaque id); ``hash_session=True`` hashes it with ``salt``.
    keep : list of str
        Other columns to keep unchanged (declared, so they pass the personal-data guard).
    tz : str
        Time zone of naive timestamps (default UTC). Output is always UTC.
    epoch : {"s", "ms", "us", "ns"}, optional
        Unit of numeric timestamps, checked against the values: instants before 2000 or from
        2100 on, or magnitudes 1000x apart in one column, are refused with the likely unit named.
    outcomes : mapping, optional
        A complete label mapping: label -> ``"success"``, a failure bucket name, or ``"skip"``
        (those rows are left out and counted). Keys may be HTTP status ranges (``"2xx"``,
        ``"50x"``; an exact code wins). Labels it does not list are refused, with their counts.
    pii : {"error", "drop", "hash"}
        What to do with a declared column that looks like personal data (e-mail, phone, IP,
        card number): refuse the load, drop the column with a warning, or replace it by a keyed
        hash (needs ``salt``). The time, outcome, ok and bucket columns are always refused.
    salt : str, optional
        Secret for ``pii="hash"`` and ``hash_session``.
    hash_session : bool
        Replace ``session_id`` by its keyed hash (16 hex digits) on load.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        File format when the extension does not say it. Compression is recognised by content:
        gzip, bzip2 and xz are decompressed in a stream; a file that expands to more than 1000
        times its compressed size (beyond 16 MiB) is refused as a decompression bomb
        (``BUDGETLAB_MAX_RATIO`` raises the cap), and the decompressed bytes must fit the memory
        budget (``BUDGETLAB_MEMORY_LIMIT``, default half of the physical memory). zstd and lz4 are
        refused with the command that decompresses them.
    encoding : str
        Text encoding of CSV/TSV/JSON Lines files (default UTF-8, a BOM is skipped; UTF-16 text
        is recognised and named). Lines may end in LF, CRLF or CR alone (old Mac files). CR-only
        line
        ends, a compression and Parquet binary columns read as UTF-8 text are stated in
        ``attrs["how_read"].notes``, and so is a numeric outcome column read as labels.
    duration, duration_unit, slow_above : optional
        Latency as part of success: successes whose ``duration`` column is strictly above
        ``slow_above`` (e.g. ``"2s"``) become failures in the ``slow`` bucket. Numeric durations
        need their unit (``duration_unit="ms"``); text such as ``"350ms"`` carries its own.
        A ``duration`` is kept as the optional ``duration`` column (timedelta64[ns]), with or
        without ``slow_above`` (what :func:`budgetlab.latency_profile` reads).
    pattern : str, optional
        Read a line-oriented text log: a regular expression in RE2 syntax (Arrow's
        ``extract_regex``: no lookaround, no backreferences) whose named groups are the columns,
        e.g. ``r"^(?P<ts>\S+ \S+) (?P<outcome>\w+) (?P<region>\w+)"``. Lines that do not match
        are not events: their count and share are stated in the notes; a file where no line
        matches is refused (see :mod:`budgetlab.events.lines`).
    preset : {"sshd", "proxifier"}, optional
        A named pattern with its time format and label meanings
        (:data:`~budgetlab.events.lines.PRESETS`).
    time_format : str, optional
        Read the time column as written with this strptime format (e.g. ``"%b %d %H:%M:%S"``);
        times that do not match it are refused by row.
    year : int, optional
        The year of the first line, for a ``time_format`` without one (required then); a time more
        than half a year earlier than the line before it starts the next year (New Year rule,
        :mod:`budgetlab.events.timeformat`).
    strict : bool
        With ``pattern``: refuse any non-blank line that does not match, instead of counting it.
    not_personal : list of str
        Group keys whose names denote people or accounts (``user``, ``login``, ``account``,
        ``email``, ``customer``, ``client``, ... in English, German, French, Spanish and Russian)
        but that name no person here. Without it such a key is refused even when its values look
        plain, unless ``pii="hash"`` (kept as a keyed hash) or ``pii="drop"``.

    Returns
    -------
    DataFrame
        ``ts`` (datetime64[ns, UTC]), ``ok`` (bool), ``bucket`` (ordered categorical: ``success``
        then the failure buckets present), the ``by`` keys (categoricals), ``session_id``
        (string) if declared, then ``keep`` columns, then ``duration`` (timedelta64[ns]) if
        declared; sorted stably by ``ts`` (equal times keep
        input order: file order, then row order), with a fresh RangeIndex. Skipped rows are not
        in it. ``attrs["how_read"]`` is a :class:`~budgetlab.events.schema.HowRead`: rows read and
        skipped (by reason), how the time column was read and its span, each label -> meaning
        with its count, and a note for each reading decision (see ``encoding``).

    Warns
    -----
    BudgetlabWarning
        A ``by`` key that looks like an id: more distinct values than half the rows, with at least
        1,000 rows (a ratio, not a count: 50,000 sitekeys over millions of events do not warn).

    Raises
    ------
    ConfigError
        Invalid options (unknown ``pii``, a missing ``salt``, an unknown ``tz``, an ``encoding``
        that is not a text encoding such as ``hex`` ...).
    FileFormatError, SchemaError, TimestampError, OutcomeError, InputError, PersonalDataError
        Bad input; every message says what to fix and never contains a data value.

    Examples
    --------
    >>> raw = pd.DataFrame({"ts": ["2026-11-29T03:47:00+01:00", "2026-11-29T02:00:00Z"],
    ...                     "outcome": ["timeout", "success"], "region": ["fra", "ams"]})
    >>> ev = read_events(raw, by="region")
    >>> ev
                             ts     ok   bucket region
    0 2026-11-29 02:00:00+00:00   True  success    ams
    1 2026-11-29 02:47:00+00:00  False  timeout    fra
    >>> print(ev.attrs["how_read"])
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
    budgetlab.errors.PersonalDataError: column 'region' looks like personal data (1 row(s) like an
    e-mail address (1 distinct values)); personal data must not enter the budget log. Do not declare
    it, or pass pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.
    """
    spec = (spec if spec is not None else ReadSpec()).replace(**overrides)
    if not isinstance(spec, ReadSpec):
        raise ConfigError(f"spec= takes a budgetlab.ReadSpec, got {type(spec).__name__}.")
    time, label, ok, bucket, session = spec.time, spec.label, spec.ok, spec.bucket, spec.session
    keys, keep_cols = list(spec.by), list(spec.keep)
    columns, slow_ns = spec.columns, spec.slow_ns
    # outcome labels, failure kinds
    labels = [c for c in (label if ok is None else None, bucket) if c is not None]

    with reading():
        raw, files, notes = _raw_table(source, spec, [*labels, *keys])
        check_scalars(raw, columns)
        # personal data: refused before anything else is done with the values
        guarded = [*keys, *keep_cols, *([session] if session and not spec.hash_session else [])]
        raw = guard_personal_data(raw, guarded, pii=spec.pii, salt=spec.salt, required=labels,
                                  by_name=spec.named_personal)
        keys = [k for k in keys if k in raw.columns]
        keep_cols = [k for k in keep_cols if k in raw.columns]

        t, time_text = _time_of(raw, spec)
        reading_ = _outcome_reading(raw, label, ok, bucket,
                                    dict(spec.outcomes) if spec.outcomes is not None else None,
                                    require_success=is_path_like(source))
        ok_arr, bucket_cat, n_slow, durations = _latency_of(raw, spec, reading_, notes)
        # a view of what was read from files; a copy of a caller's DataFrame (theirs to change)
        out: dict[str, Any] = {"ts": utc_from_ns(t, copy=isinstance(source, pd.DataFrame)).array,
                               "ok": ok_arr,
                               "bucket": bucket_cat}
        for k in keys:
            out[k] = group_key(raw[k], k)
            warn_id_like(k, out[k])
        if session and session in raw.columns:
            sid = raw[session]
            out["session_id"] = (hash_values(sid,
                                             spec.salt or "").astype("string") if spec.hash_session
                                 else sid.astype("string").array)
        for k in keep_cols:
            if k not in out:
                out[k] = raw[k].array
        if durations is not None:
            out[DURATION] = pd.to_timedelta(durations, unit="ns").as_unit("ns").array
        frame = pd.DataFrame(out, copy=False)

    frame, t = _drop_skipped(frame, t, reading_)
    # unsorted input is sorted stably (equal times keep input order), never an error
    if len(t) > 1 and bool((t[1:] < t[:-1]).any()):
        frame = frame.take(np.argsort(t, kind="stable")).reset_index(drop=True)
    first, last = time_span(t)
    frame.attrs["how_read"] = HowRead(
        files=tuple(files), rows_read=len(raw), rows_kept=len(frame),
                                      skipped=skip_reasons(reading_.labels),
        time_column=time, time_reading=time_text, first=first, last=last, outcome_column=label,
        vocabulary=reading_.vocabulary, labels=reading_.labels,
        slow_above=None if slow_ns is None else duration_label(pd.Timedelta(slow_ns, unit="ns")),
                                      slow_rows=n_slow,
        notes=(*notes, *reading_.notes),
    )
    return frame


def _time_of(raw: pd.DataFrame, spec: ReadSpec) -> tuple[np.ndarray, str]:
    """The time column as int64 ns UTC and how it was read (for ``how_read``)."""
    col, tz = raw[spec.time], spec.tz
    if spec.time_format is not None:
        return parse_formatted(col, spec.time_format, year=spec.year, tz=tz)
    t = parse_time(col, tz=tz, epoch=spec.epoch)
    # ISO text with a zone in every row, read as instants by the CSV reader: said as text
    return t, OFFSETS_READING if raw.attrs.get(ISO_TIME) else describe_time(col, tz=tz,
                                                                            epoch=spec.epoch)


def _latency_of(raw: pd.DataFrame, spec: ReadSpec, reading_: OutcomeReading,
                notes: list[str]) -> tuple[np.ndarray, pd.Categorical, int, np.ndarray | None]:
    """``ok``, ``bucket`` and the slow rows after ``slow_above``, and the durations (ns) if declared
    (stated in ``notes``)."""
    if spec.duration is None:
        return reading_.ok, reading_.bucket, 0, None
    durations = parse_durations(raw[spec.duration], spec.duration_unit)
    notes.append(f"durations: column {spec.duration!r}, " + (f"numbers in {spec.duration_unit}"
                 if spec.duration_unit else "text with units") + ", kept as the 'duration' column")
    if spec.slow_ns is None:
        return reading_.ok, reading_.bucket, 0, durations
    return (*apply_slow(reading_.ok, reading_.bucket, durations, spec.slow_ns), durations)


def _outcome_reading(raw: pd.DataFrame, label: str, ok: str | None, bucket: str | None,
                     table: dict[str, str] | None, *, require_success: bool) -> OutcomeReading:
    """Outcome labels through :func:`classify_outcomes`, or a success column (and its failure
    kinds)."""
    if ok is None:
        return classify_outcomes(raw[label], table, require_success=require_success)
    ok_arr = parse_ok(raw[label])
    bucket_cat = bucket_with_ok(None if bucket is None else raw[bucket], ok_arr)
    counts = pd.Series(np.asarray(bucket_cat.astype(str))).value_counts(sort=False)
    rows = tuple(
        LabelReading(
            str(b),
            str(b),
            "ok= column" if str(b) == "success" else "bucket= column",
            int(counts.get(str(b), 0)),
        )
        for b in bucket_cat.categories
        if counts.get(str(b), 0)
    )
    return OutcomeReading(ok_arr, bucket_cat, np.zeros(len(ok_arr), dtype=bool), rows, "true/false")


def _drop_skipped(frame: pd.DataFrame, t: np.ndarray,
                  reading_: OutcomeReading) -> tuple[pd.DataFrame, np.ndarray]:
    """Rows whose label maps to ``skip`` left out (the bucket loses no category it still needs)."""
    if not reading_.skip.any():
        return frame, t
    keep = ~reading_.skip
    if not keep.any():
        raise InputError("every row maps to skip; nothing is left to analyse: check outcomes=.")
    frame = frame[keep].reset_index(drop=True)
    frame["bucket"] = frame["bucket"].cat.remove_unused_categories()
    return frame, t[keep]
