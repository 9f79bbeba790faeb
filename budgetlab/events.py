"""Loading: files or DataFrames -> the canonical event table (see :mod:`budgetlab.schema`).

Only declared columns are read (``time``, ``outcome`` or ``ok``, ``bucket``, ``by``, ``session``,
``keep``); everything else is never loaded. Declared string columns pass the personal-data
guard (:mod:`budgetlab.pii`). Input files are opened read-only and never modified.
"""

from __future__ import annotations

import csv
import gzip
import io
import zlib
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._validation import as_list, check_argument, require_columns
from .errors import FileFormatError, InputError, OutcomeError, SchemaError, TimestampError
from .pii import guard_personal_data, hash_values
from .schema import SOLVE_ERROR, SUCCESS, TIMEOUT, bucket_dtype

__all__ = ["read_events", "DEFAULT_OUTCOMES", "map_outcomes"]

#: Default outcome labels (case-insensitive, surrounding blanks ignored). Labels that are neither
#: a success label nor listed here are failures that keep their own label as bucket.
DEFAULT_OUTCOMES: dict[str, str] = {
    "success": SUCCESS, "ok": SUCCESS, "true": SUCCESS, "1": SUCCESS, "solved": SUCCESS, "pass": SUCCESS,
    "passed": SUCCESS,
    "timeout": TIMEOUT, "timed_out": TIMEOUT, "timedout": TIMEOUT, "connection_timeout": TIMEOUT,
    "network_timeout": TIMEOUT,
    "solve_error": SOLVE_ERROR, "error": SOLVE_ERROR, "fail": SOLVE_ERROR, "failure": SOLVE_ERROR,
    "failed": SOLVE_ERROR, "false": SOLVE_ERROR, "0": SOLVE_ERROR,
}
_SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl",
             ".ndjson": "jsonl", ".json": "jsonl"}
_TRUE = {"true", "1", "yes", "y", "t", "ok", "success"}
_FALSE = {"false", "0", "no", "n", "f", "fail", "failure"}
_MAX_ROWS_LISTED = 5


def _rows(mask: np.ndarray) -> str:
    """First offending row numbers (1-based data rows), never the values."""
    idx = np.flatnonzero(mask)[:_MAX_ROWS_LISTED] + 1
    more = int(mask.sum()) - len(idx)
    return ", ".join(map(str, idx.tolist())) + (f" and {more} more" if more > 0 else "")


# --------------------------------------------------------------------------------------------
# files
# --------------------------------------------------------------------------------------------
def _detect_format(path: Path, fmt: str | None) -> tuple[str, bool]:
    suffixes = [s.lower() for s in path.suffixes]
    gz = bool(suffixes) and suffixes[-1] == ".gz"
    if fmt is not None:
        return check_argument("format", fmt, ("csv", "tsv", "parquet", "jsonl")), gz
    ext = suffixes[-2] if gz and len(suffixes) > 1 else (suffixes[-1] if suffixes else "")
    if ext not in _SUFFIXES:
        raise FileFormatError(
            f"{path.name}: unsupported file type {''.join(suffixes) or '(no extension)'!r}; use .csv, .tsv, "
            ".parquet, .jsonl/.ndjson (optionally .gz), or pass format='csv'|'parquet'|'jsonl'."
        )
    return _SUFFIXES[ext], gz


def _read_bytes(path: Path, gz: bool) -> bytes:
    with open(path, "rb") as fh:  # read-only; the input is never touched
        raw = fh.read()
    if gz:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error):
            raise FileFormatError(f"{path.name}: the gzip stream is truncated or corrupt; re-export the file.") from None
    return raw


def _decode(raw: bytes, name: str, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise FileFormatError(
            f"{name}: not valid {encoding} text (byte offset {exc.start}); pass encoding='latin-1' "
            "(or the file's real encoding)."
        ) from None


def _check_header(header: list[str], name: str) -> None:
    seen: dict[str, int] = {}
    for h in header:
        seen[h] = seen.get(h, 0) + 1
    dups = [h for h, n in seen.items() if n > 1]
    if dups:
        raise SchemaError(f"{name}: duplicate column name(s) {', '.join(map(repr, dups))}; rename them so each is unique.")


def _read_file(path: Path, columns: list[str], fmt: str | None, encoding: str) -> pd.DataFrame:
    if not path.exists():
        raise FileFormatError(f"{path}: no such file; check the path.")
    if path.is_dir():
        raise FileFormatError(
            f"{path}: is a directory; give one file (for a directory of Parquet files use "
            "budgetlab.dask.read_events)."
        )
    kind, gz = _detect_format(path, fmt)
    name = path.name
    if kind == "parquet":
        if gz:
            raise FileFormatError(f"{name}: gzip-wrapped Parquet is not supported; Parquet compresses itself.")
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            pf = pq.ParquetFile(path)
            header = list(pf.schema_arrow.names)
            _check_header(header, name)
            require_columns(pd.DataFrame(columns=header), columns, what=name)
            table = pf.read(columns=columns)
        except (pa.ArrowInvalid, pa.ArrowException, OSError) as exc:
            raise FileFormatError(
                f"{name}: not a readable Parquet file ({type(exc).__name__}); it may be truncated or corrupt."
            ) from None
        if table.num_rows == 0:
            raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
        return table.to_pandas()
    raw = _read_bytes(path, gz)
    if not raw.strip():
        raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
    text = _decode(raw, name, encoding)
    if kind in ("csv", "tsv"):
        sep = "\t" if kind == "tsv" else ","
        first = text.lstrip("\ufeff").splitlines()[0]
        header = next(csv.reader([first], delimiter=sep))
        _check_header(header, name)
        require_columns(pd.DataFrame(columns=header), columns, what=name)
        try:
            frame = pd.read_csv(io.StringIO(text.lstrip("\ufeff")), sep=sep, usecols=columns, dtype=str,
                                keep_default_na=False, na_values=[""])
        except (pd.errors.ParserError, ValueError) as exc:
            raise FileFormatError(f"{name}: malformed {kind.upper()} ({str(exc).splitlines()[0][:120]}).") from None
        if frame.empty:
            raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
        return frame
    # JSON Lines
    try:
        frame = pd.read_json(io.StringIO(text), lines=True, dtype=False, convert_dates=False)
    except ValueError:
        lines = text.splitlines()
        import json

        bad = []
        for i, line in enumerate(lines, 1):  # only on the error path, to name the first bad lines
            if line.strip():
                try:
                    json.loads(line)
                except ValueError:
                    bad.append(i)
                    if len(bad) >= _MAX_ROWS_LISTED:
                        break
        where = f" (first bad lines: {', '.join(map(str, bad))})" if bad else ""
        raise FileFormatError(f"{name}: not valid JSON Lines{where}; one JSON object per line.") from None
    if frame.empty:
        raise FileFormatError(f"{name}: no records; nothing to analyse.")
    require_columns(frame, columns, what=name)
    return frame[columns]


# --------------------------------------------------------------------------------------------
# columns
# --------------------------------------------------------------------------------------------
def _parse_time(col: pd.Series, *, tz: str, epoch: str | None) -> np.ndarray:
    """Parse a time column to int64 ns UTC (see :func:`read_events` for the accepted forms)."""
    missing = col.isna().to_numpy().copy()
    if col.dtype == object or pd.api.types.is_string_dtype(col):
        missing |= (col.astype("string").str.strip() == "").fillna(True).to_numpy(dtype=bool)
    if missing.any():
        raise TimestampError(f"{int(missing.sum())} empty/missing timestamp(s) at row(s) {_rows(missing)}; "
                             "fill or drop those rows.")
    try:
        if isinstance(col.dtype, pd.DatetimeTZDtype):
            parsed = col.dt.tz_convert("UTC")
        elif pd.api.types.is_datetime64_dtype(col):
            parsed = _localize(col, tz)
        elif pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
            parsed = _from_epoch(col, epoch)
        else:
            parsed = _from_strings(col.astype(str), tz=tz, epoch=epoch)
        out = parsed.dt.as_unit("ns")
    except (pd.errors.OutOfBoundsDatetime, OverflowError):
        raise TimestampError(
            "timestamps outside pandas' range (1677-09-21 .. 2262-04-11); check the time column and epoch unit."
        ) from None
    return np.asarray(out.array.asi8)


def _localize(col: pd.Series, tz: str) -> pd.Series:
    try:
        return col.dt.tz_localize(tz, ambiguous="raise", nonexistent="raise").dt.tz_convert("UTC")
    except Exception as exc:  # pytz/zoneinfo ambiguity errors have several types
        if isinstance(exc, (pd.errors.OutOfBoundsDatetime, OverflowError)):
            raise
        raise TimestampError(
            f"naive local times in tz={tz!r} are ambiguous or do not exist around a DST change "
            f"({type(exc).__name__}); log times with UTC offsets or in UTC."
        ) from None


def _from_epoch(col: pd.Series, epoch: str | None) -> pd.Series:
    if epoch is None:
        v = float(np.nanmedian(col.to_numpy(dtype=float)))
        guess = "ms" if abs(v) > 1e11 else "s"
        raise TimestampError(
            f"numeric timestamps: say which unit with epoch='s' or epoch='ms' (these look like epoch={guess!r})."
        )
    check_argument("epoch", epoch, ("s", "ms", "us", "ns"))
    values = col.to_numpy(dtype=float)
    if not np.isfinite(values).all():
        raise TimestampError(f"non-finite epoch timestamps at row(s) {_rows(~np.isfinite(values))}.")
    return pd.Series(pd.to_datetime(col, unit=epoch, utc=True))


_OFFSET = r"(?:Z|z|[+-]\d\d(?::?\d\d)?|UTC|GMT)$"


def _from_strings(text: pd.Series, *, tz: str, epoch: str | None) -> pd.Series:
    s = text.str.strip()
    if epoch is not None:
        num = pd.to_numeric(s, errors="coerce")
        bad = num.isna().to_numpy()
        if bad.any():
            raise TimestampError(f"unparseable epoch timestamp(s) at row(s) {_rows(bad)}; expected numbers.")
        return _from_epoch(num, epoch)
    if s.str.fullmatch(r"-?\d+(\.\d+)?").all():
        return _from_epoch(pd.to_numeric(s), None)
    aware = s.str.contains(_OFFSET, regex=True).to_numpy(dtype=bool)
    if aware.any() and not aware.all():
        raise TimestampError(
            f"mixed naive and zone-aware timestamps (naive at row(s) {_rows(~aware)}); give every time an "
            "offset, or none and pass tz=."
        )
    parsed = pd.to_datetime(s, format="ISO8601", utc=bool(aware.all()), errors="coerce")
    bad = parsed.isna().to_numpy()
    if bad.any():
        parsed_mixed = pd.to_datetime(s[bad], format="mixed", utc=bool(aware.all()), errors="coerce")
        still = parsed_mixed.isna().to_numpy()
        if still.any():
            idx = np.zeros(len(s), dtype=bool)
            idx[np.flatnonzero(bad)[still]] = True
            raise TimestampError(
                f"unparseable timestamp(s) at row(s) {_rows(idx)}; use ISO-8601 like 2026-11-29T03:47:00Z."
            )
        parsed = parsed.astype(parsed_mixed.dtype)
        parsed[bad] = parsed_mixed
    if aware.all():
        return pd.Series(parsed).dt.tz_convert("UTC")
    return _localize(pd.Series(parsed), tz)


def map_outcomes(labels: pd.Series, outcomes: Mapping[str, str] | None = None) -> tuple[np.ndarray, pd.Categorical]:
    """Map outcome labels to ``(ok, bucket)``.

    With ``outcomes=None`` the :data:`DEFAULT_OUTCOMES` apply (case-insensitive) and any other
    label is a failure that keeps its own label as bucket. A given ``outcomes`` mapping is
    complete: labels it does not list raise :class:`OutcomeError` listing them with counts.
    A label mapped to ``"success"`` is a success; anything else names the failure bucket.

    >>> ok, bucket = map_outcomes(pd.Series(["success", "TIMEOUT", "captcha_unsolvable"]))
    >>> ok.tolist(), list(bucket)
    ([True, False, False], ['success', 'timeout', 'captcha_unsolvable'])
    """
    raw = labels.astype("string").str.strip()
    missing = raw.isna().to_numpy(dtype=bool) | (raw == "").fillna(True).to_numpy(dtype=bool)
    if missing.any():
        raise OutcomeError(f"{int(missing.sum())} empty outcome label(s) at row(s) {_rows(missing)}; fill or drop them.")
    codes, uniques = pd.factorize(raw)
    if outcomes is None:
        mapped = [DEFAULT_OUTCOMES.get(str(u).lower(), str(u).lower()) for u in uniques]
    else:
        table = {str(k).strip().lower(): str(v) for k, v in outcomes.items()}
        unknown = [str(u) for u in uniques if str(u).lower() not in table]
        if unknown:
            counts = pd.Series(codes).map(dict(enumerate(map(str, uniques)))).value_counts()
            listed = ", ".join(f"{u!r} ({int(counts[u])})" for u in unknown[:20])
            raise OutcomeError(
                f"unknown outcome label(s): {listed}; add them to outcomes= (label -> 'success' or a bucket name)."
            )
        mapped = [table[str(u).lower()] for u in uniques]
    mapped_arr = np.asarray(mapped, dtype=object)
    bucket_values = mapped_arr[codes]
    ok = np.asarray(bucket_values == SUCCESS, dtype=bool)
    bucket = pd.Categorical(bucket_values, dtype=bucket_dtype(set(mapped) - {SUCCESS}))
    return ok, bucket


def _parse_ok(col: pd.Series) -> np.ndarray:
    if pd.api.types.is_bool_dtype(col) and not col.isna().any():
        return col.to_numpy(dtype=bool)
    if pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
        v = col.to_numpy(dtype=float)
        bad = ~np.isin(v, [0.0, 1.0])
        if bad.any():
            raise OutcomeError(f"non-boolean success value(s) at row(s) {_rows(bad)}; use true/false or 1/0.")
        return v == 1.0
    s = col.astype("string").str.strip().str.lower()
    t = s.isin(list(_TRUE)).fillna(False).to_numpy(dtype=bool)
    f = s.isin(list(_FALSE)).fillna(False).to_numpy(dtype=bool)
    bad = ~(t | f)
    if bad.any():
        raise OutcomeError(f"non-boolean success value(s) at row(s) {_rows(bad)}; use true/false or 1/0.")
    return t


# --------------------------------------------------------------------------------------------
# the loader
# --------------------------------------------------------------------------------------------
def read_events(
    source: str | PathLike[str] | pd.DataFrame,
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
    format: str | None = None,
    encoding: str = "utf-8",
) -> pd.DataFrame:
    """Load an outcome log into the canonical event table.

    Parameters
    ----------
    source : path or DataFrame
        A CSV/TSV, Parquet or JSON Lines file (``.gz`` for text formats), or a pandas DataFrame.
        The file is opened read-only; a DataFrame is never modified.
    time : str
        Time column: ISO-8601 strings (with or without offsets; different offsets are fine, they
        are exact instants), datetimes, or epoch numbers (then say the unit with ``epoch=``).
    outcome : str, optional
        Outcome-label column, mapped through ``outcomes`` (default :data:`DEFAULT_OUTCOMES`:
        ``success``/``ok``/``true`` -> success, ``timeout`` -> timeout, other labels are failures
        in a bucket of their own name). Ignored when ``ok`` is given.
    ok : str, optional
        A boolean success column (true/false, 1/0) instead of outcome labels.
    bucket : str, optional
        With ``ok``: the failure-kind column (success rows get ``success``); failures without a
        kind count as ``solve_error``.
    by : str or list of str
        Group keys to keep (as categoricals), e.g. ``["captcha_type", "region"]``.
    session : str, optional
        Column kept as ``session_id`` (opaque id); ``hash_session=True`` hashes it with ``salt``.
    keep : list of str
        Other columns to keep unchanged (declared, so they pass the personal-data guard).
    tz : str
        Time zone of naive timestamps (default UTC). Output is always UTC.
    epoch : {"s", "ms", "us", "ns"}, optional
        Unit of numeric timestamps.
    pii : {"error", "drop", "hash"}
        What to do with a declared column that looks like personal data.
    salt : str, optional
        Secret for ``pii="hash"`` and ``hash_session``.

    Returns
    -------
    DataFrame
        ``ts`` (datetime64[ns, UTC]), ``ok`` (bool), ``bucket`` (ordered categorical), the ``by``
        keys (categoricals), ``session_id`` (string) if declared, then ``keep`` columns; sorted
        stably by ``ts`` (equal times keep input order), with a fresh RangeIndex.

    Examples
    --------
    >>> raw = pd.DataFrame({"ts": ["2026-11-29T03:47:00+01:00", "2026-11-29T02:00:00Z"],
    ...                     "outcome": ["timeout", "success"], "region": ["fra", "ams"]})
    >>> ev = read_events(raw, by="region")
    >>> ev
                             ts     ok   bucket region
    0 2026-11-29 02:00:00+00:00   True  success    ams
    1 2026-11-29 02:47:00+00:00  False  timeout    fra
    """
    keys = as_list(by)
    if ok is not None:
        outcome = None
    if outcome is None and ok is None:
        raise SchemaError("give outcome='<label column>' or ok='<boolean success column>'.")
    declared = [time, *( [outcome] if outcome else []), *([ok] if ok else []), *([bucket] if bucket else []),
                *keys, *([session] if session else []), *keep]
    seen: set[str] = set()
    columns = [c for c in declared if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]
    if isinstance(source, pd.DataFrame):
        if source.columns.duplicated().any():
            dups = sorted({str(c) for c in source.columns[source.columns.duplicated()]})
            raise SchemaError(f"duplicate column name(s) {', '.join(map(repr, dups))}; rename them so each is unique.")
        require_columns(source, columns, what="the DataFrame")
        if source.empty:
            raise InputError("the DataFrame has no rows; nothing to analyse.")
        raw = source[columns]
    elif isinstance(source, (str, PathLike)):
        raw = _read_file(Path(source), columns, format, encoding)
    else:
        raise InputError(f"source must be a file path or a pandas DataFrame, got {type(source).__name__}.")
    raw = raw.reset_index(drop=True)

    t = _parse_time(raw[time], tz=tz, epoch=epoch)
    if ok is not None:
        ok_arr = _parse_ok(raw[ok])
        if bucket is not None:
            labels = raw[bucket].astype("string").str.strip().str.lower()
            labels = labels.where(~pd.Series(ok_arr), SUCCESS).fillna(SOLVE_ERROR)
            labels = labels.where(labels != "", SOLVE_ERROR)
            labels = labels.where(pd.Series(ok_arr) | (labels != SUCCESS), SOLVE_ERROR)
            values = labels.to_numpy(dtype=object)
        else:
            values = np.where(ok_arr, SUCCESS, SOLVE_ERROR).astype(object)
        bucket_cat = pd.Categorical(values, dtype=bucket_dtype(set(values.tolist()) - {SUCCESS}))
    else:
        assert outcome is not None
        ok_arr, bucket_cat = map_outcomes(raw[outcome], outcomes)

    out: dict[str, Any] = {"ts": pd.DatetimeIndex(t.view("datetime64[ns]")).tz_localize("UTC").array,
                           "ok": ok_arr, "bucket": bucket_cat}
    for k in keys:
        col = raw[k]
        na = col.isna().to_numpy()
        if na.any():
            raise InputError(f"group key {k!r} is missing at row(s) {_rows(na)}; fill or drop those rows.")
        out[k] = pd.Categorical(col.astype(str).str.strip() if not isinstance(col.dtype, pd.CategoricalDtype) else col)
    if session:
        out["session_id"] = raw[session].astype("string")
    for k in keep:
        if k not in out:
            out[k] = raw[k].to_numpy()
    frame = pd.DataFrame(out)
    guarded = [*keys, *(["session_id"] if session else []), *[k for k in keep if k not in keys]]
    if session and hash_session:
        frame["session_id"] = hash_values(frame["session_id"], salt if salt is not None else "")
        guarded.remove("session_id")
    frame = guard_personal_data(frame, guarded, pii=pii, salt=salt)
    order = np.argsort(t, kind="stable")
    if (np.diff(order) != 1).any() if len(order) > 1 else False:
        frame = frame.iloc[order].reset_index(drop=True)
    return frame
