"""Loading: files or DataFrames -> the canonical event table (see :mod:`budgetlab.schema`).

Only declared columns are read (``time``, ``outcome`` or ``ok``, ``bucket``, ``by``, ``session``,
``keep``); everything else is never loaded. Declared columns pass the personal-data guard
(:mod:`budgetlab.pii`). Input files are opened read-only and never modified.

Every problem with the input raises a named :class:`~budgetlab.errors.BudgetlabError` whose
message says what to fix and never contains a data value: rows are named by number (1-based,
counting data rows in input order), labels only where the caller must list them (unknown outcome
labels) and only if they do not look like personal data.
"""

from __future__ import annotations

import codecs
import contextvars
import csv
import difflib
import gzip
import io
import json
import re
import warnings
import zlib
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import check_argument
from ..errors import (
    ConfigError,
    FileFormatError,
    InputError,
    OutcomeError,
    SchemaError,
    TimestampError,
)
from .pii import guard_personal_data, hash_values
from .schema import SOLVE_ERROR, SUCCESS, TIMEOUT, bucket_dtype

__all__ = ["read_events", "DEFAULT_OUTCOMES", "MISSING_LABELS", "map_outcomes"]

#: Default outcome labels (case-insensitive, surrounding blanks ignored). Labels that are neither
#: listed here nor refused (numeric codes, truncated labels) are failures that keep their own
#: label as bucket.
DEFAULT_OUTCOMES: dict[str, str] = {
    "success": SUCCESS, "ok": SUCCESS, "true": SUCCESS, "1": SUCCESS, "solved": SUCCESS, "pass": SUCCESS,
    "passed": SUCCESS, "t": SUCCESS, "yes": SUCCESS, "y": SUCCESS,
    "timeout": TIMEOUT, "timed_out": TIMEOUT, "timedout": TIMEOUT, "connection_timeout": TIMEOUT,
    "network_timeout": TIMEOUT,
    "solve_error": SOLVE_ERROR, "error": SOLVE_ERROR, "fail": SOLVE_ERROR, "failure": SOLVE_ERROR,
    "failed": SOLVE_ERROR, "false": SOLVE_ERROR, "0": SOLVE_ERROR, "f": SOLVE_ERROR, "no": SOLVE_ERROR,
    "n": SOLVE_ERROR,
}
#: Values that mean "missing" in time, outcome and success columns (case-insensitive).
MISSING_LABELS = frozenset({"", "nan", "nat", "null", "none", "na", "n/a", "<na>", "-"})

_SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet",
             ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}
_TRUE = frozenset({"true", "1", "yes", "y", "t", "ok", "success"})
_FALSE = frozenset({"false", "0", "no", "n", "f", "fail", "failure"})
_OUTPUT_NAMES = ("ts", "ok", "bucket", "session_id")
_MAX_ROWS_LISTED = 5
_MAX_LABELS = 1000
_NS_MIN, _NS_MAX = -(2**63) + 1, 2**63 - 1  # pandas' Timestamp range in ns (int64 min is NaT)
_UNIT_NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
# an offset (or Z/UTC/GMT) right after a clock time at the end of the string
_OFFSET_AT_END = r"[0-9]:[0-9][0-9](?::[0-9][0-9](?:[.,][0-9]+)?)?[ \t]*(?:[Zz]|UTC|GMT|[+-][0-9][0-9](?::?[0-9][0-9])?)[ \t]*$"
_MONTHS = r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"

# set while one read_events() runs: does the file's last line lack a line end (half-written?)
_LAST_ROW_OPEN: contextvars.ContextVar[int | None] = contextvars.ContextVar("_LAST_ROW_OPEN", default=None)


def _rows(mask: np.ndarray) -> str:
    """First offending row numbers (1-based data rows), never the values."""
    idx = np.flatnonzero(mask)
    first = (idx[:_MAX_ROWS_LISTED] + 1).tolist()
    more = len(idx) - len(first)
    text = ("row " if len(idx) == 1 else "rows ") + ", ".join(map(str, first))
    text += f" and {more} more" if more > 0 else ""
    last = _LAST_ROW_OPEN.get()
    if last is not None and len(idx) and idx[-1] == last:
        text += " (the last line has no line end: the file may be half-written)"
    return text + " (1-based)"


_DATA_LIKE = r"[+-]?[0-9]+(?:[.,][0-9]+)?|.*[0-9]{4}-[0-9]{2}-[0-9]{2}.*|.*[0-9]{1,2}:[0-9]{2}.*"


def _hidden_names(names: Sequence[Any]) -> np.ndarray:
    """Which names look like data (numbers, times, personal data): a header-less file's first row."""
    from .pii import scan_text

    series = pd.Series([str(n) for n in names], dtype="string[pyarrow]")
    hidden = series.str.fullmatch(_DATA_LIKE).fillna(False).to_numpy(dtype=bool)
    for mask in scan_text(series).values():
        hidden |= mask
    return hidden


def _shown_names(names: Sequence[Any], limit: int = 20) -> str:
    """Column names for a message; names that look like data (a header-less file) are hidden."""
    texts = [str(n) for n in names]
    hidden = _hidden_names(texts) if texts else np.zeros(0, dtype=bool)
    shown = ["<hidden: looks like data>" if h else repr(t[:60]) for t, h in zip(texts[:limit], hidden[:limit], strict=True)]
    more = len(texts) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _require(names: Sequence[Any], columns: Sequence[str], what: str) -> None:
    """Raise :class:`SchemaError` for declared columns missing from ``names`` (closest names suggested)."""
    have = [str(n) for n in names]
    for col in columns:
        if col in have:
            continue
        close = difflib.get_close_matches(col, have, n=3, cutoff=0.5)
        hint = f" Did you mean {_shown_names(close)}?" if close else ""
        if len(have) == 1 and any(sep in have[0] for sep in (";", "\t", ",", "|")):
            sep = next(s for s in (";", "\t", ",", "|") if s in have[0])
            hint += (f" The header is one column holding {sep!r}: is that the separator? budgetlab reads ',' "
                     "(.csv) and tab (.tsv, or format='tsv').")
        if have and _hidden_names(have).any():
            hint += " The first line looks like data, not column names: does the file have a header row?"
        raise SchemaError(f"{what} has no column {col!r}.{hint} Columns present: {_shown_names(have)}.")


def _check_duplicates(names: Sequence[Any], what: str) -> None:
    seen: dict[str, int] = {}
    for n in names:
        seen[str(n)] = seen.get(str(n), 0) + 1
    dups = [n for n, k in seen.items() if k > 1]
    if dups:
        raise SchemaError(f"{what}: duplicate column name(s) {_shown_names(dups)}; rename them so each is unique.")


# --------------------------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------------------------
def _check_name(name: str, value: Any, *, optional: bool = True) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{name}= takes a column name (a non-empty string), got {type(value).__name__}.")


def _names(name: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    try:
        out = list(value)
    except TypeError:
        raise ConfigError(f"{name}= takes a column name or a list of names, got {type(value).__name__}.") from None
    for v in out:
        _check_name(name, v, optional=False)
    if len(set(out)) != len(out):
        raise ConfigError(f"{name}= names a column twice; list each once.")
    return out


def _check_tz(tz: Any) -> Any:
    if tz is None:
        return "UTC"
    try:
        pd.Timestamp("2000-01-01").tz_localize(tz)
    except Exception:  # zoneinfo, pytz and dateutil raise different types for unknown names
        raise ConfigError(f"tz={tz!r} is not a time zone; give an IANA name such as 'Europe/Berlin' or 'UTC'.") from None
    return tz


def _outcome_table(outcomes: Any) -> dict[str, str] | None:
    """Validate an ``outcomes`` mapping: normalized label -> ``"success"`` or a bucket name."""
    if outcomes is None:
        return None
    if not isinstance(outcomes, Mapping) or not outcomes:
        raise ConfigError("outcomes= takes a non-empty mapping of label -> 'success' or a failure bucket name, "
                          "e.g. {'success': 'success', 'timeout': 'timeout', 'captcha_unsolvable': 'solve_error'}.")
    table: dict[str, str] = {}
    for key, value in outcomes.items():
        if isinstance(key, bool) or not isinstance(key, (str, int, np.integer)):
            raise ConfigError(f"outcomes= keys are labels (strings or integers), got {type(key).__name__}.")
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"outcomes[{key!r}] must be 'success' or a failure bucket name (a non-empty string).")
        norm = str(key).strip().lower()
        bucket = value.strip()
        bucket = SUCCESS if bucket.lower() == SUCCESS else bucket
        if norm in table and table[norm] != bucket:
            raise ConfigError(f"outcomes= maps label {key!r} twice (labels are compared case-insensitively).")
        table[norm] = bucket
    return table


# --------------------------------------------------------------------------------------------
# files
# --------------------------------------------------------------------------------------------
def _detect_format(path: Path, fmt: str | None) -> tuple[str, bool]:
    suffixes = [s.lower() for s in path.suffixes]
    gz = bool(suffixes) and suffixes[-1] in (".gz", ".gzip")
    if fmt is not None:
        return check_argument("format", fmt, ("csv", "tsv", "parquet", "jsonl")), gz
    ext = suffixes[-2] if gz and len(suffixes) > 1 else (suffixes[-1] if suffixes and not gz else "")
    if ext not in _SUFFIXES:
        shown = "".join(path.suffixes[-2:]) or "(no extension)"
        raise FileFormatError(
            f"{path.name}: unsupported file type {shown!r}; use .csv, .tsv, .parquet, .jsonl/.ndjson "
            "(text formats optionally .gz), or pass format='csv'|'tsv'|'parquet'|'jsonl'."
        )
    return _SUFFIXES[ext], gz


def _open_checked(path: Path) -> None:
    if not path.exists():
        hint = " (is the folder right?)" if not path.parent.exists() else ""
        raise FileFormatError(f"{path}: no such file{hint}; check the path.")
    if path.is_dir():
        raise FileFormatError(
            f"{path}: is a directory; give one file (for a folder of Parquet files use dask, "
            "see budgetlab.dask if installed)."
        )
    if not path.is_file():
        raise FileFormatError(f"{path}: is not a regular file; give a CSV, Parquet or JSON Lines file.")


def _read_bytes(path: Path) -> bytes:
    try:
        with open(path, "rb") as fh:  # read-only; the input is never touched
            return fh.read()
    except OSError as exc:
        raise FileFormatError(f"{path.name}: cannot be read ({exc.strerror or type(exc).__name__}); "
                              "check its permissions.") from None


def _gunzip(raw: bytes, name: str) -> bytes:
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error):
        raise FileFormatError(f"{name}: the gzip stream is truncated or corrupt; copy or export the file again.") from None


def _utf8_family(encoding: str) -> bool:
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def _decode_error(raw: bytes, name: str, encoding: str) -> FileFormatError | None:
    try:
        raw.decode(encoding)
    except UnicodeDecodeError as exc:
        return FileFormatError(
            f"{name}: not valid {encoding} text (first bad byte at offset {exc.start}); pass the file's real "
            "encoding, e.g. encoding='latin-1' or 'cp1251' (CLI: --encoding)."
        )
    return None


def _sniff(raw: bytes, name: str, kind: str) -> None:
    if raw[:4] == b"PAR1":
        raise FileFormatError(f"{name}: is a Parquet file, not {kind.upper()}; name it .parquet or pass format='parquet'.")
    if raw[:4] == b"PK\x03\x04":
        raise FileFormatError(f"{name}: is a ZIP archive (or an Excel workbook), not {kind.upper()}; "
                              "export it as CSV or unpack it.")


def _read_text_table(raw: bytes, name: str, kind: str, columns: list[str], encoding: str,
                     dict_columns: Sequence[str] = ()) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    if _utf8_family(encoding):
        if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise FileFormatError(f"{name}: is UTF-16 text (it starts with a UTF-16 byte-order mark); pass "
                                  "encoding='utf-16' (CLI: --encoding utf-16).")
        data = raw[3:] if raw[:3] == b"\xef\xbb\xbf" else raw
        first_line = data[: data.find(b"\n") if b"\n" in data[: 1 << 20] else 1 << 20]
        err = _decode_error(first_line, name, "utf-8")
        if err is not None:
            raise err
    else:
        err = _decode_error(raw, name, encoding)
        if err is not None:
            raise err
        data = raw.decode(encoding).lstrip("\ufeff").encode("utf-8")
    sep = "\t" if kind == "tsv" else ","
    head = data[: 1 << 20].decode("utf-8", errors="replace")
    try:
        header = next(csv.reader(io.StringIO(head), delimiter=sep), [])
    except csv.Error:
        raise FileFormatError(f"{name}: the header row is malformed; the first line must list the column names.") from None
    if not header or not any(h.strip() for h in header):
        raise FileFormatError(f"{name}: the first line is blank; it must list the column names.")
    _check_duplicates(header, name)
    _require(header, columns, name)
    try:
        table = pcsv.read_csv(
            pa.BufferReader(data),
            read_options=pcsv.ReadOptions(use_threads=True),
            parse_options=pcsv.ParseOptions(delimiter=sep, newlines_in_values=True),
            convert_options=pcsv.ConvertOptions(
                include_columns=columns,
                column_types={c: pa.dictionary(pa.int32(), pa.string()) if c in dict_columns else pa.string()
                              for c in columns},
                strings_can_be_null=False, quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        text = str(exc)  # never shown: Arrow quotes the offending row
        if "UTF8" in text or "UTF-8" in text:
            err = _decode_error(data, name, "utf-8")
            if err is not None:
                raise err from None
        if "Expected" in text and "columns" in text:
            if data.count(b'"') % 2:
                _check_quotes(data, name, sep)
            raise FileFormatError(_ragged_message(data, name, sep, len(header))) from None
        raise FileFormatError(f"{name}: malformed {kind.upper()} ({type(exc).__name__}); check quoting and "
                              "separators, or export the file again.") from None
    if data.count(b'"') % 2:
        _check_quotes(data, name, sep)
    if table.num_rows == 0:
        raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
    frame = table.to_pandas()
    if not data.rstrip(b" \t").endswith((b"\n", b"\r")):
        _LAST_ROW_OPEN.set(len(frame) - 1)
    return pd.DataFrame(frame)


def _check_quotes(data: bytes, name: str, sep: str) -> None:
    """An odd number of quote characters: find an unterminated quoted field, which would swallow
    every following line into one value (error path only: a Python loop over the rows)."""
    rows = 0
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=sep, strict=True)
        next(reader, None)
        for record in reader:
            if record:
                rows += 1
    except csv.Error:
        raise FileFormatError(f"{name}: a quoted field is never closed (from data row {rows + 1}, 1-based); it "
                              "would swallow the rest of the file: fix the quote or export the file again.") from None


def _ragged_message(data: bytes, name: str, sep: str, width: int) -> str:
    """Name the rows whose field count differs from the header's (error path only)."""
    rows: list[int] = []
    count = 0
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=sep)
        next(reader, None)
        i = 0
        for record in reader:
            if not record:  # blank lines are skipped, as when reading
                continue
            i += 1
            if len(record) != width:
                count += 1
                if len(rows) < _MAX_ROWS_LISTED:
                    rows.append(i)
    except csv.Error:
        pass
    where = f" (data rows {', '.join(map(str, rows))}{' and more' if count > len(rows) else ''}, 1-based)" \
        if rows else ""
    tail = data.rstrip(b" \t")
    half = "" if tail.endswith((b"\n", b"\r")) else "; the last line has no line end: the file may be half-written"
    counted = f"{count} row(s) have" if count else "some rows have"
    return (f"{name}: {counted} a different number of fields than the header{where}; a field may "
            f"hold an unquoted separator or quote{half}. Fix or drop those rows.")


def _read_jsonl(raw: bytes, name: str, columns: list[str], encoding: str) -> pd.DataFrame:
    err = _decode_error(raw, name, encoding)
    if err is not None:
        raise err
    text = raw.decode(encoding).lstrip("\ufeff")
    array = text.lstrip().startswith("[")
    if not array:
        fast = _arrow_jsonl(text.encode("utf-8") if not _utf8_family(encoding) else raw.lstrip(b"\xef\xbb\xbf"),
                            name, columns)
        if fast is not None:
            if not text.rstrip(" \t").endswith(("\n", "\r")):
                _LAST_ROW_OPEN.set(len(fast) - 1)
            return fast
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if array:
                frame = pd.read_json(io.StringIO(text), orient="records", dtype=False)
            else:
                frame = pd.read_json(io.StringIO(text), lines=True, dtype=False)
    except (ValueError, TypeError, OverflowError, RecursionError, KeyError, AttributeError):
        if array:
            raise FileFormatError(f"{name}: not a valid JSON array of records; give one JSON object per line "
                                  "(JSON Lines) or an array of objects.") from None
        bad = []
        for i, line in enumerate(text.splitlines(), 1):  # only on the error path, to name the first bad lines
            if line.strip():
                try:
                    obj = json.loads(line)
                except (ValueError, RecursionError):
                    obj = None
                if not isinstance(obj, dict):
                    bad.append(i)
                    if len(bad) >= _MAX_ROWS_LISTED:
                        break
        where = f" (first bad lines: {', '.join(map(str, bad))})" if bad else " (a number out of range?)"
        raise FileFormatError(f"{name}: not valid JSON Lines{where}; give one JSON object per line.") from None
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        raise FileFormatError(f"{name}: no records; nothing to analyse.")
    _check_duplicates(list(frame.columns), name)
    _require(list(frame.columns), columns, name)
    if not text.rstrip(" \t").endswith(("\n", "\r")) and not array:
        _LAST_ROW_OPEN.set(len(frame) - 1)
    return frame[columns]


def _arrow_jsonl(data: bytes, name: str, columns: list[str]) -> pd.DataFrame | None:
    """The common case fast: JSON Lines whose declared fields are all strings (Arrow's reader,
    no per-line Python). ``None`` when another type appears (pandas' reader takes over)."""
    import pyarrow as pa
    import pyarrow.json as pj

    schema = pa.schema([(c, pa.string()) for c in columns])
    try:
        table = pj.read_json(
            pa.BufferReader(data),
            parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"),
        )
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        twice = re.search(r"Column\(/(.*?)\) was specified twice", str(exc))
        if twice and twice.group(1) in columns:
            raise SchemaError(f"{name}: a record repeats the key {twice.group(1)!r}; each key once per line.") from None
        return None
    if table.num_rows == 0 or any(table.column(c).null_count == table.num_rows for c in columns):
        return None  # absent keys: the careful reader names them
    return pd.DataFrame(table.to_pandas())


def _read_parquet(path: Path, columns: list[str], dict_columns: Sequence[str] = ()) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = path.name
    try:
        with open(path, "rb") as fh:  # read-only
            schema = pq.ParquetFile(fh).schema_arrow
            header = list(schema.names)
            _check_duplicates(header, name)
            _require(header, columns, name)
            # label and key columns come back as categoricals (cheap codes instead of strings)
            as_dict = [c for c in dict_columns if pa.types.is_string(schema.field(c).type)
                       or pa.types.is_large_string(schema.field(c).type)]
            fh.seek(0)
            table = pq.ParquetFile(fh, read_dictionary=as_dict).read(columns=columns)
            frame = table.to_pandas(ignore_metadata=True)
    except (pa.ArrowException, OSError, ValueError, TypeError, KeyError, IndexError, EOFError,
            MemoryError, OverflowError, NotImplementedError) as exc:
        if isinstance(exc, SchemaError):
            raise
        raise FileFormatError(
            f"{name}: not a readable Parquet file ({type(exc).__name__}); it may be truncated or corrupt: "
            "copy or export it again."
        ) from None
    if len(frame) == 0:
        raise FileFormatError(f"{name}: has a schema but no rows; nothing to analyse.")
    return pd.DataFrame(frame)


def _read_file(path: Path, columns: list[str], fmt: str | None, encoding: str,
               dict_columns: Sequence[str] = ()) -> pd.DataFrame:
    from .._util.files import register_input

    path = path.expanduser()
    _open_checked(path)
    kind, gz = _detect_format(path, fmt)
    register_input(path)
    name = path.name
    if kind == "parquet":
        if gz:
            raise FileFormatError(f"{name}: gzip-wrapped Parquet is not supported; Parquet compresses itself.")
        return _read_parquet(path, columns, dict_columns)
    raw = _read_bytes(path)
    if gz or raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw, name)
    _sniff(raw, name, kind)
    if not raw.strip(b" \t\r\n\x00\xef\xbb\xbf"):
        raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
    if kind in ("csv", "tsv"):
        return _read_text_table(raw, name, kind, columns, encoding, dict_columns)
    return _read_jsonl(raw, name, columns, encoding)


def _check_scalars(raw: pd.DataFrame, columns: Sequence[str]) -> None:
    """Refuse nested values (JSON objects/arrays, Parquet structs) in declared columns."""
    for col in columns:
        s = raw[col]
        if not pd.api.types.is_object_dtype(s.dtype):
            continue
        inferred = pd.api.types.infer_dtype(s, skipna=True)
        if inferred in ("mixed", "unknown-array"):
            nested = s.map(lambda v: isinstance(v, (dict, list, tuple, set, np.ndarray))).to_numpy(dtype=bool)
            if nested.any():
                raise SchemaError(f"column {col!r} holds nested values (objects or lists) at {_rows(nested)}; "
                                  "flatten it so each cell is one value.")


# --------------------------------------------------------------------------------------------
# time
# --------------------------------------------------------------------------------------------
def _to_ns(parsed: pd.Series, mask_out: np.ndarray | None = None) -> np.ndarray:
    """int64 ns of a datetime64[unit, UTC] Series, with rows outside pandas' ns range refused."""
    unit = str(parsed.dt.unit)
    vals = np.asarray(parsed.array.asi8, dtype=np.int64)
    f = _UNIT_NS[unit]
    if f == 1:
        return vals
    lo, hi = -(_NS_MAX // f), _NS_MAX // f
    bad = (vals < lo) | (vals > hi)
    bad &= ~parsed.isna().to_numpy()
    if bad.any():
        full = bad if mask_out is None else _expand(bad, mask_out)
        raise TimestampError(
            f"timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at {_rows(full)}; check the time "
            "column (and the epoch unit)."
        )
    return vals * f


def _expand(sub_mask: np.ndarray, where: np.ndarray) -> np.ndarray:
    full = np.zeros(len(where), dtype=bool)
    full[np.flatnonzero(where)[sub_mask]] = True
    return full


def _missing_error(missing: np.ndarray) -> TimestampError:
    return TimestampError(f"{int(missing.sum())} empty or missing timestamp(s) at {_rows(missing)}; "
                          "fill or drop those rows.")


def _parse_time(col: pd.Series, *, tz: Any, epoch: str | None) -> np.ndarray:
    """Parse a time column to int64 ns UTC (see :func:`read_events` for the accepted forms)."""
    dtype = col.dtype
    if isinstance(dtype, pd.ArrowDtype):
        col = _from_arrow_dtype(col)
        dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        col = col.astype(dtype.categories.dtype)  # e.g. dictionary-encoded Parquet strings
        dtype = col.dtype
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_complex_dtype(dtype):
        raise TimestampError("the time column holds true/false or complex values, not times; check time=.")
    missing = col.isna().to_numpy()
    if isinstance(dtype, pd.DatetimeTZDtype):
        if missing.any():
            raise _missing_error(missing)
        return _to_ns(col.dt.tz_convert("UTC"))
    if pd.api.types.is_datetime64_dtype(dtype):
        if missing.any():
            raise _missing_error(missing)
        return _localize(pd.Series(col), tz)
    if pd.api.types.is_numeric_dtype(dtype):
        if missing.any():
            raise _missing_error(missing)
        return _from_epoch(col.to_numpy(), epoch)
    if pd.api.types.is_object_dtype(dtype):
        inferred = pd.api.types.infer_dtype(col, skipna=True)
        if inferred in ("integer", "floating", "mixed-integer-float", "decimal"):
            if missing.any():
                raise _missing_error(missing)
            return _from_epoch(pd.to_numeric(col).to_numpy(), epoch)
        if inferred == "boolean":
            raise TimestampError("the time column holds true/false values, not times; check time=.")
        if inferred in ("datetime", "date", "datetime64"):
            # datetime objects: str() gives ISO text with the offset of each (exact instants);
            # naive and aware objects mixed are refused like naive and aware strings
            text = col.astype(str).where(~missing, None)
            return _from_strings(pd.Series(text, dtype="str"), tz=tz, epoch=epoch)
    return _from_strings(col if pd.api.types.is_string_dtype(dtype) and not pd.api.types.is_object_dtype(dtype) else col.astype("str"),
                         tz=tz, epoch=epoch)


def _from_arrow_dtype(col: pd.Series) -> pd.Series:
    import pyarrow as pa

    pa_type = col.dtype.pyarrow_dtype  # type: ignore[union-attr]
    if pa.types.is_timestamp(pa_type):
        unit = pa_type.unit
        return pd.Series(col.astype(pd.DatetimeTZDtype(unit, "UTC") if pa_type.tz else np.dtype(f"datetime64[{unit}]")))
    if pa.types.is_string(pa_type) or pa.types.is_large_string(pa_type):
        return col.astype("str")
    if pa.types.is_integer(pa_type) or pa.types.is_floating(pa_type):
        return col.astype("float64" if col.isna().any() or pa.types.is_floating(pa_type) else "int64")
    if pa.types.is_boolean(pa_type):
        return col.astype("boolean")
    return col.astype(object)


def _localize(col: pd.Series, tz: Any) -> np.ndarray:
    """Naive datetimes (wall time in ``tz``) -> int64 ns UTC; DST gaps and overlaps are refused."""
    if str(tz) in ("UTC", "utc", "Etc/UTC"):
        return _to_ns(col.dt.tz_localize("UTC"))
    local = col.dt.tz_localize(tz, ambiguous="NaT", nonexistent="NaT")
    bad = local.isna().to_numpy()
    if bad.any():
        raise TimestampError(
            f"naive local times in tz={tz!r} are ambiguous or do not exist around a DST change at "
            f"{_rows(bad)}; log times with UTC offsets (e.g. 2026-10-25T02:30:00+01:00) or in UTC."
        )
    return _to_ns(local.dt.tz_convert("UTC"))


def _from_epoch(values: np.ndarray, epoch: str | None) -> np.ndarray:
    if epoch is None:
        finite = values[np.isfinite(values)] if values.dtype.kind == "f" else values
        v = float(np.median(np.abs(finite))) if len(finite) else 0.0
        guess = "ns" if v > 1e17 else "us" if v > 1e14 else "ms" if v > 1e11 else "s"
        raise TimestampError(
            "the timestamps are plain numbers; say their unit with epoch='s', 'ms', 'us' or 'ns' "
            f"(CLI: --epoch; these look like epoch={guess!r}). For dates write ISO-8601 like 2026-11-29T03:47:00Z."
        )
    f = _UNIT_NS[epoch]
    if values.dtype.kind in "Ob":
        values = values.astype(np.float64)
    if values.dtype.kind == "f":
        finite = np.isfinite(values)
        if not finite.all():
            raise TimestampError(f"non-finite epoch timestamp(s) at {_rows(~finite)}; fill or drop those rows.")
        bad = (values <= -(2.0**63) / f) | (values >= 2.0**63 / f)
        if bad.any():
            raise TimestampError(f"epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at "
                                 f"{_rows(bad)}; check epoch={epoch!r}.")
        whole = np.floor(values)  # split so that the fraction keeps its precision
        out = whole.astype(np.int64) * f
        frac = values - whole
        if frac.any():
            out += np.round(frac * f).astype(np.int64)
        return np.asarray(out, dtype=np.int64)
    ints = values.astype(np.int64) if values.dtype.kind in "iu" and values.dtype.itemsize <= 8 else values
    if ints.dtype.kind == "u":
        bad = ints > np.uint64(_NS_MAX // f)
        ints = np.where(bad, 0, ints).astype(np.int64)
    else:
        bad = (ints < -(_NS_MAX // f)) | (ints > _NS_MAX // f)
    if bad.any():
        raise TimestampError(f"epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at "
                             f"{_rows(bad)}; check epoch={epoch!r}.")
    return np.asarray(ints, dtype=np.int64) * f


def _epoch_decimal_text(text: pd.Series, epoch: str) -> np.ndarray | None:
    """Epoch numbers written as plain decimals, converted exactly (no float rounding):
    ``"1780000000.1"`` s is 1780000000100000000 ns. ``None`` if some value has another form."""
    if not bool(text.str.fullmatch(r"[+-]?[0-9]{1,19}(?:[.][0-9]*)?").fillna(False).all()):
        return None
    f = _UNIT_NS[epoch]
    whole_text = text.str.replace(r"^[+-]?([0-9]+)(?:[.][0-9]*)?$", r"\1", regex=True)
    whole = pd.to_numeric(whole_text).to_numpy()
    if whole.dtype.kind != "i" or (whole > _NS_MAX // f).any():
        bad = np.asarray(pd.to_numeric(whole_text).to_numpy(dtype=np.float64) > _NS_MAX // f)
        raise TimestampError(f"epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 at "
                             f"{_rows(bad)}; check epoch={epoch!r}.")
    out = whole.astype(np.int64) * f
    digits = len(str(f)) - 1
    if digits:
        frac = text.str.replace(r"^[+-]?[0-9]+(?:[.]([0-9]*))?$", r"\1", regex=True)
        frac = frac.str.slice(0, digits).str.pad(digits, side="right", fillchar="0")
        out += pd.to_numeric(frac).to_numpy().astype(np.int64)
    neg = text.str.startswith("-").fillna(False).to_numpy(dtype=bool)
    out[neg] = -out[neg]
    return np.asarray(out, dtype=np.int64)


def _parse_iso(s: pd.Series) -> pd.Series:
    return pd.to_datetime(s, format="ISO8601", utc=True, errors="coerce")


def _fast_iso(s: pd.Series) -> tuple[np.ndarray, bool] | None:
    """Arrow's strict ISO-8601 cast: ``(ns, aware)`` when every value parses, else ``None``.

    The zone-aware cast succeeds only if every value has an offset (or Z), the naive cast only
    if none has; anything else (blanks, other forms, out-of-range years) takes the careful path.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        arr = pa.chunked_array(pa.array(s.array)) if not isinstance(s.dtype, pd.ArrowDtype) else \
            pa.chunked_array(s.array._pa_array)  # type: ignore[attr-defined]
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if arr.null_count or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    for target, aware in ((pa.timestamp("ns", tz="UTC"), True), (pa.timestamp("ns"), False)):
        try:
            ts = pc.cast(arr, target)
        except (pa.ArrowException, ValueError, OverflowError):
            continue
        return np.asarray(ts.cast(pa.int64()).to_numpy(), dtype=np.int64), aware
    return None


def _from_strings(s: pd.Series, *, tz: Any, epoch: str | None) -> np.ndarray:
    n = len(s)
    if epoch is None:
        fast = _fast_iso(s)
        if fast is not None:
            t_fast, aware_all = fast
            if aware_all or str(tz) in ("UTC", "utc", "Etc/UTC"):
                return t_fast
            return _localize(pd.Series(pd.DatetimeIndex(t_fast.view("datetime64[ns]"))), tz)
    na = s.isna().to_numpy()
    if epoch is not None:
        stripped = s.str.strip()
        missing = na | stripped.str.lower().isin(list(MISSING_LABELS)).to_numpy(dtype=bool)
        if missing.any():
            raise _missing_error(missing)
        exact = _epoch_decimal_text(stripped, epoch)
        if exact is not None:
            return exact
        num = pd.to_numeric(stripped, errors="coerce")
        bad = num.isna().to_numpy()
        if bad.any():
            raise TimestampError(f"unparseable epoch timestamp(s) at {_rows(bad)}; with epoch= every time "
                                 "must be a number.")
        return _from_epoch(num.to_numpy(), epoch)
    digits = s.str.isdigit().fillna(False).to_numpy(dtype=bool)
    if digits.any():
        if (digits | na).all():
            if na.any():
                raise _missing_error(na)
            return _from_epoch(pd.to_numeric(s).to_numpy(), None)
        raise TimestampError(
            f"the time column mixes plain numbers (at {_rows(digits)}) with other values; give every time in "
            "one form (ISO-8601 like 2026-11-29T03:47:00Z, or epoch numbers with epoch=)."
        )
    parsed = _parse_iso(s)
    t = np.zeros(n, dtype=np.int64)
    ok = ~parsed.isna().to_numpy()
    if ok.all():
        t = _to_ns(parsed)
    else:
        if ok.any():
            t[ok] = _to_ns(parsed[ok], ok)
        rest = ~ok
        stripped = s[rest].str.strip()
        missing_sub = na[rest] | stripped.str.lower().isin(list(MISSING_LABELS)).fillna(True).to_numpy(dtype=bool)
        if missing_sub.any():
            raise _missing_error(_expand(missing_sub, rest))
        t[rest] = _fallback_parse(stripped.reset_index(drop=True), rest)
    aware = s.str.contains(_OFFSET_AT_END, regex=True).fillna(False).to_numpy(dtype=bool)
    if aware.all():
        return t
    if aware.any():
        few = ~aware if (~aware).sum() <= aware.sum() else aware
        label = "without" if few is not aware else "with"
        raise TimestampError(
            f"mixed naive and zone-aware timestamps ({int(few.sum())} {label} a UTC offset, at {_rows(few)}); "
            "give every time an offset, or none and pass tz= for the local zone."
        )
    if str(tz) in ("UTC", "utc", "Etc/UTC"):
        return t
    wall = pd.Series(pd.DatetimeIndex(t.view("datetime64[ns]")))
    return _localize(wall, tz)


def _fallback_parse(s: pd.Series, where: np.ndarray) -> np.ndarray:
    """Parse the strings ISO-8601 could not: a trailing UTC/GMT, Apache/CLF times
    (``17/May/2015:10:05:03 +0000``) and forms with a month name and a 4-digit year
    (``Sun, 29 Nov 2026 03:47:00 +0100``). Numeric day/month orders are ambiguous and refused."""
    out = np.zeros(len(s), dtype=np.int64)
    done = np.zeros(len(s), dtype=bool)

    def store(mask: np.ndarray, parsed: pd.Series) -> None:
        """Keep what parsed among the rows of ``mask``; those rows are done either way."""
        good = ~parsed.isna().to_numpy()
        idx = np.flatnonzero(mask)[good]
        if good.any():
            out[idx] = _to_ns(parsed[good], _expand(_expand_idx(idx, len(s)), where))
        done[idx] = True

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        utc_suffix = s.str.contains(r"(?i)[ \t]*(?:UTC|GMT)$", regex=True).fillna(False).to_numpy(dtype=bool)
        if utc_suffix.any():
            fixed = s[utc_suffix].str.replace(r"(?i)[ \t]*(?:UTC|GMT)$", "+00:00", regex=True)
            p = _parse_iso(fixed)
            store(utc_suffix, p)
        clf = ~done & s.str.fullmatch(r"[0-9]{1,2}/[A-Za-z]{3}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2}[ \t]*[+-][0-9]{4}") \
            .fillna(False).to_numpy(dtype=bool)
        if clf.any():
            p = pd.to_datetime(s[clf], format="%d/%b/%Y:%H:%M:%S %z", utc=True, errors="coerce")
            store(clf, p)
        named = ~done & (s.str.contains(_MONTHS, regex=True) & s.str.contains(r"(?:^|[^0-9])[0-9]{4}(?:$|[^0-9])",
                                                                                regex=True)).fillna(False).to_numpy(dtype=bool)
        if named.any():
            p = pd.to_datetime(s[named], format="mixed", utc=True, errors="coerce")
            store(named, p)
    if not done.all():
        bad = _expand(~done, where)
        ambiguous = s[~done].str.fullmatch(r"[0-9]{1,2}[./-][0-9]{1,2}[./-][0-9]{2,4}(?:[ T].*)?").fillna(False)
        hint = (" Dates like 01.02.2026 are ambiguous (day or month first?);" if ambiguous.any() else "")
        raise TimestampError(
            f"unparseable timestamp(s) at {_rows(bad)};{hint} use ISO-8601 like 2026-11-29T03:47:00Z "
            "or 2026-11-29 04:47:00+01:00."
        )
    return out


def _expand_idx(idx: np.ndarray, n: int) -> np.ndarray:
    mask = np.zeros(n, dtype=bool)
    mask[idx] = True
    return mask


# --------------------------------------------------------------------------------------------
# outcomes
# --------------------------------------------------------------------------------------------
def _labels(col: pd.Series) -> tuple[np.ndarray, list[str]]:
    """``(codes, normalized distinct labels)``; code -1 for missing values or missing tokens."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = col.cat.codes.to_numpy().astype(np.int64)
        uniques = pd.Index(col.cat.categories)
    else:
        c, u = pd.factorize(col, use_na_sentinel=True)
        codes, uniques = np.asarray(c, dtype=np.int64), pd.Index(u)
    if len(uniques) > _MAX_LABELS:
        raise OutcomeError(
            f"the outcome column has {len(uniques)} distinct labels (more than {_MAX_LABELS}); it does not look "
            "like an outcome column: check outcome= (or use ok= for a true/false column)."
        )
    if pd.api.types.is_float_dtype(uniques.dtype):
        vals = uniques.to_numpy()
        norm = [str(int(v)) if np.isfinite(v) and v == int(v) else str(v) for v in vals]
    else:
        norm = [str(u).strip().lower() for u in uniques]  # a loop over distinct labels (<= 1000)
    return codes, norm


def _show_labels(labels: list[str], counts: list[int]) -> str:
    """Labels with counts for a message; labels that look like personal data are not shown."""
    from .pii import scan_text

    hidden = np.zeros(len(labels), dtype=bool)
    if labels:
        for mask in scan_text(np.asarray(labels, dtype=object)).values():
            hidden |= mask
    shown = [f"{lab[:40]!r} ({c})" for lab, c, h in zip(labels, counts, hidden, strict=True) if not h][:20]
    n_hidden = int(hidden.sum())
    text = ", ".join(shown)
    if len(labels) - n_hidden > 20:
        text += f" and {len(labels) - n_hidden - 20} more"
    if n_hidden:
        text += (", and " if text else "") + f"{n_hidden} label(s) not shown because they look like personal data"
    return text


def map_outcomes(labels: pd.Series, outcomes: Mapping[str, str] | None = None) -> tuple[np.ndarray, pd.Categorical]:
    """Map outcome labels to ``(ok, bucket)``.

    With ``outcomes=None`` the :data:`DEFAULT_OUTCOMES` apply (case-insensitive) and any other
    label is a failure that keeps its own label as bucket, except labels that are numeric codes
    (e.g. HTTP statuses: which are successes?) or look truncated (a strict prefix of a known label,
    as a half-written last line leaves): those raise :class:`OutcomeError`. A true/false or 1/0
    column is read as success flags. A given ``outcomes`` mapping is complete: labels it does not
    list raise :class:`OutcomeError` listing them with counts. A label mapped to ``"success"`` is
    a success; anything else names the failure bucket. Missing labels are refused.

    >>> ok, bucket = map_outcomes(pd.Series(["success", "TIMEOUT", "captcha_unsolvable"]))
    >>> ok.tolist(), list(bucket)
    ([True, False, False], ['success', 'timeout', 'captcha_unsolvable'])
    >>> map_outcomes(pd.Series(["200", "500", "200"]), {"200": "success", "500": "server_error"})[0].tolist()
    [True, False, True]
    """
    table = _outcome_table(outcomes)
    dtype = labels.dtype
    if isinstance(dtype, pd.ArrowDtype):
        labels = _from_arrow_dtype(labels)
        dtype = labels.dtype
    if table is None and (pd.api.types.is_bool_dtype(dtype) or (
            pd.api.types.is_numeric_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype))):
        ok = _parse_ok(labels, what="outcome")
        values = np.where(ok, 0, 2).astype(np.int8)  # success / solve_error in bucket_dtype()
        return ok, pd.Categorical.from_codes(values, dtype=bucket_dtype())
    if pd.api.types.is_bool_dtype(dtype):
        labels = labels.astype(object).map({True: "true", False: "false"})
    codes, norm = _labels(labels)
    counts = np.bincount(codes[codes >= 0], minlength=len(norm))
    is_missing = np.array([u in MISSING_LABELS for u in norm], dtype=bool)
    missing_rows = (codes < 0) | (is_missing[np.maximum(codes, 0)] if len(norm) else False)
    if np.any(missing_rows):
        raise OutcomeError(f"{int(np.sum(missing_rows))} empty or missing outcome label(s) at "
                           f"{_rows(np.asarray(missing_rows))}; fill or drop those rows.")
    if table is None:
        numeric = [i for i, u in enumerate(norm) if u not in DEFAULT_OUTCOMES and _is_number(u) and counts[i]]
        if numeric:
            raise OutcomeError(
                f"outcome labels look like numeric codes: {_show_labels([norm[i] for i in numeric], [int(counts[i]) for i in numeric])}; "
                "say which are successes with outcomes= (CLI: --outcomes 200=success,500=server_error,...)."
            )
        truncated = [i for i, u in enumerate(norm) if u not in DEFAULT_OUTCOMES and counts[i]
                     and any(k.startswith(u) for k in DEFAULT_OUTCOMES)]
        if truncated:
            rows = np.isin(codes, truncated)
            raise OutcomeError(
                f"outcome label(s) look truncated (a prefix of a known label such as 'success' or 'timeout') at "
                f"{_rows(rows)}; fix or drop those rows, or list every label with outcomes=."
            )
        mapped = [DEFAULT_OUTCOMES.get(u, u) for u in norm]
    else:
        unknown = [i for i, u in enumerate(norm) if u not in table and counts[i]]
        if unknown:
            raise OutcomeError(
                f"unknown outcome label(s): {_show_labels([norm[i] for i in unknown], [int(counts[i]) for i in unknown])}; "
                "add them to outcomes= (label -> 'success' or a bucket name; CLI: --outcomes label=bucket,...)."
            )
        mapped = [table.get(u, SOLVE_ERROR) for u in norm]
    return _bucket_from_codes(codes, mapped)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _bucket_from_codes(codes: np.ndarray, mapped: list[str]) -> tuple[np.ndarray, pd.Categorical]:
    """``ok`` and the bucket categorical from per-row codes into ``mapped`` (one entry per label)."""
    used = np.zeros(len(mapped), dtype=bool)
    used[codes] = True
    dtype = bucket_dtype({m for m, u in zip(mapped, used, strict=True) if u} - {SUCCESS})
    cat_pos = {c: i for i, c in enumerate(dtype.categories)}
    to_cat = np.asarray([cat_pos.get(m, 0) for m in mapped], dtype=np.int64)
    bucket_codes = to_cat[codes] if len(to_cat) else np.zeros(0, dtype=np.int64)
    ok = bucket_codes == cat_pos[SUCCESS]
    return ok, pd.Categorical.from_codes(bucket_codes, dtype=dtype)


def _parse_ok(col: pd.Series, *, what: str = "success") -> np.ndarray:
    """A success column (true/false, 1/0, yes/no) as bool; anything else raises :class:`OutcomeError`."""
    if isinstance(col.dtype, pd.ArrowDtype):
        col = _from_arrow_dtype(col)
    missing = col.isna().to_numpy()
    if pd.api.types.is_bool_dtype(col.dtype) and not isinstance(col.dtype, pd.CategoricalDtype):
        if missing.any():
            raise OutcomeError(f"{int(missing.sum())} empty {what} value(s) at {_rows(missing)}; fill or drop those rows.")
        return col.to_numpy(dtype=bool)
    if pd.api.types.is_complex_dtype(col.dtype):
        raise OutcomeError(f"the {what} column holds complex numbers; use true/false or 1/0.")
    if pd.api.types.is_numeric_dtype(col.dtype) and not isinstance(col.dtype, pd.CategoricalDtype):
        if missing.any():
            raise OutcomeError(f"{int(missing.sum())} empty {what} value(s) at {_rows(missing)}; fill or drop those rows.")
        v = col.to_numpy(dtype=float)
        bad = ~np.isin(v, [0.0, 1.0])
        if bad.any():
            raise OutcomeError(f"non-boolean {what} value(s) at {_rows(bad)}; use true/false or 1/0.")
        return np.asarray(v == 1.0)
    codes, uniques = (col.cat.codes.to_numpy().astype(np.int64), pd.Index(col.cat.categories)) \
        if isinstance(col.dtype, pd.CategoricalDtype) else pd.factorize(col, use_na_sentinel=True)
    codes = np.asarray(codes, dtype=np.int64)
    norm = [str(u).strip().lower() for u in uniques] if len(uniques) <= 100_000 else None
    if norm is None:  # far too many distinct values for a true/false column: vectorized verdict
        raise OutcomeError(f"the {what} column has {len(uniques)} distinct values; use true/false or 1/0.")
    state = np.array([1 if u in _TRUE else 0 if u in _FALSE else -1 if u in MISSING_LABELS else -2
                      for u in norm] + [-1], dtype=np.int64)  # last entry: code -1 (missing)
    per_row = state[codes]
    if (per_row == -1).any():
        miss = per_row == -1
        raise OutcomeError(f"{int(miss.sum())} empty {what} value(s) at {_rows(miss)}; fill or drop those rows.")
    if (per_row == -2).any():
        raise OutcomeError(f"non-boolean {what} value(s) at {_rows(per_row == -2)}; use true/false or 1/0.")
    return np.asarray(per_row == 1)


def _bucket_with_ok(col: pd.Series, ok: np.ndarray) -> pd.Categorical:
    """Failure kinds from a ``bucket`` column next to a success column (``ok`` decides)."""
    if isinstance(col.dtype, pd.ArrowDtype):
        col = _from_arrow_dtype(col)
    if pd.api.types.is_bool_dtype(col.dtype):
        col = col.astype(object)
    codes, norm = _labels(col)
    mapped = [SOLVE_ERROR if u in MISSING_LABELS else DEFAULT_OUTCOMES.get(u, u) for u in norm]
    labels = [*mapped, SOLVE_ERROR, SUCCESS]  # then: a failure without a kind, a success row
    row = np.where(codes < 0, len(mapped), codes)
    says_success = np.asarray([m == SUCCESS for m in labels], dtype=bool)[row]
    contradiction = ~ok & says_success
    if contradiction.any():
        raise OutcomeError(
            f"{int(contradiction.sum())} row(s) are failures (ok is false) but their bucket says success, at "
            f"{_rows(contradiction)}; fix the ok or the bucket value."
        )
    row = np.where(ok, len(mapped) + 1, row)
    return _bucket_from_codes(row, labels)[1]


# --------------------------------------------------------------------------------------------
# group keys
# --------------------------------------------------------------------------------------------
def _group_key(col: pd.Series, name: str) -> pd.Categorical:
    """A declared group key as a categorical of stripped strings (only used categories)."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = col.cat.codes.to_numpy().astype(np.int64)
        uniques = pd.Index(col.cat.categories)
    else:
        c, u = pd.factorize(col, use_na_sentinel=True)
        codes, uniques = np.asarray(c, dtype=np.int64), pd.Index(u)
    names = pd.Index(uniques.astype(str)).str.strip() if len(uniques) else pd.Index([], dtype="str")
    blank = np.asarray(names == "", dtype=bool)
    missing = (codes < 0) | (blank[np.maximum(codes, 0)] if len(blank) else False)
    if np.any(missing):
        raise InputError(f"group key {name!r} is empty or missing at {_rows(np.asarray(missing))}; "
                         "fill or drop those rows.")
    used = np.zeros(len(names), dtype=bool)
    used[codes] = True
    cats, inverse = np.unique(np.asarray(names, dtype=object)[used].astype(str), return_inverse=True)
    remap = np.full(len(names), -1, dtype=np.int64)
    remap[np.flatnonzero(used)] = inverse
    return pd.Categorical.from_codes(remap[codes], categories=pd.Index(cats, dtype="str"))


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
        Time column: ISO-8601 strings (with offsets, which may differ from row to row: each is an
        exact instant, e.g. +01:00 and +02:00 across a DST change; or all without, then ``tz``
        says the zone), datetimes, or epoch numbers (then say the unit with ``epoch=``). Naive and
        aware times mixed are refused.
    outcome : str, optional
        Outcome-label column, mapped through ``outcomes`` (default :data:`DEFAULT_OUTCOMES`:
        ``success``/``ok``/``true`` -> success, ``timeout`` -> timeout, other labels are failures
        in a bucket of their own name; see :func:`map_outcomes`). Ignored when ``ok`` is given.
    ok : str, optional
        A boolean success column (true/false, 1/0, yes/no) instead of outcome labels.
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
    outcomes : mapping, optional
        A complete label mapping (label -> ``"success"`` or a bucket name); labels it does not
        list are refused, with their counts.
    pii : {"error", "drop", "hash"}
        What to do with a declared column that looks like personal data (e-mail, phone, IP,
        card number): refuse the load, drop the column with a warning, or replace it by a keyed
        hash (needs ``salt``). The time, outcome, ok and bucket columns are always refused.
    salt : str, optional
        Secret for ``pii="hash"`` and ``hash_session``.
    hash_session : bool
        Replace ``session_id`` by its keyed hash (16 hex digits) on load.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        File format when the extension does not say it.
    encoding : str
        Text encoding of CSV/TSV/JSON Lines files (default UTF-8, a BOM is skipped).

    Returns
    -------
    DataFrame
        ``ts`` (datetime64[ns, UTC]), ``ok`` (bool), ``bucket`` (ordered categorical), the ``by``
        keys (categoricals), ``session_id`` (string) if declared, then ``keep`` columns; sorted
        stably by ``ts`` (equal times keep input order), with a fresh RangeIndex.

    Raises
    ------
    ConfigError
        Invalid options (unknown ``pii``, a missing ``salt``, an unknown ``tz`` ...).
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
    >>> read_events(raw.assign(region=["a@b.org", "ams"]), by="region")
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: column 'region' looks like personal data (1 row(s) like an e-mail address (1 distinct values)); personal data must not enter the budget log. Do not declare it, or pass pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.
    """
    # ---- options (ConfigError) -------------------------------------------------------------
    _check_name("time", time, optional=False)
    for nm, val in (("outcome", outcome), ("ok", ok), ("bucket", bucket), ("session", session)):
        _check_name(nm, val)
    keys = _names("by", by)
    keep_cols = _names("keep", keep)
    check_argument("pii", pii, ("error", "drop", "hash"))
    if salt is not None and (not isinstance(salt, str) or not salt):
        raise ConfigError("salt= must be a non-empty string (a secret kept out of the data).")
    if (pii == "hash" or hash_session) and salt is None:
        raise ConfigError("pii='hash' and hash_session=True need salt='a secret string' (keep it out of the data).")
    if hash_session and session is None:
        raise ConfigError("hash_session=True needs session='<session id column>'.")
    if epoch is not None:
        check_argument("epoch", epoch, ("s", "ms", "us", "ns"))
    if format is not None:
        check_argument("format", format, ("csv", "tsv", "parquet", "jsonl"))
    try:
        codecs.lookup(encoding)
    except (LookupError, TypeError):
        raise ConfigError(f"encoding={encoding!r} is not a known text encoding; e.g. 'utf-8', 'latin-1', 'cp1251'.") from None
    tz = _check_tz(tz)
    table = _outcome_table(outcomes)
    if ok is not None:
        outcome = None
    if outcome is None and ok is None:
        raise ConfigError("give outcome='<label column>' or ok='<boolean success column>'.")
    roles = [r for r in (time, outcome, ok, bucket, session) if r is not None]
    if len(set(roles)) != len(roles):
        raise ConfigError("time=, outcome=/ok=, bucket= and session= must name different columns.")
    for k in [*keys, *keep_cols]:
        if k in _OUTPUT_NAMES:
            raise ConfigError(f"column {k!r} would clash with the output column of that name; rename it first.")
    if bucket is not None and ok is None:
        raise ConfigError("bucket= goes with ok= (a success column); with outcome= the labels are the buckets.")
    declared = [*roles, *keys, *keep_cols]
    columns = list(dict.fromkeys(declared))

    token = _LAST_ROW_OPEN.set(None)
    try:
        # ---- read only the declared columns --------------------------------------------------
        if isinstance(source, pd.DataFrame):
            _check_duplicates(list(source.columns), "the DataFrame")
            _require(list(source.columns), columns, "the DataFrame")
            if len(source) == 0:
                raise InputError("the DataFrame has no rows; nothing to analyse.")
            raw = source[columns].reset_index(drop=True)
        elif isinstance(source, (str, PathLike)):
            dict_columns = [c for c in (outcome, bucket, *keys) if c is not None]
            raw = _read_file(Path(source), columns, format, encoding, dict_columns).reset_index(drop=True)
        elif type(source).__module__.startswith("dask"):
            raise InputError("source is a dask DataFrame; use budgetlab.dask.read_events (import budgetlab.scaleout as bd).")
        else:
            raise InputError(f"source must be a file path or a pandas DataFrame, got {type(source).__name__}.")
        _check_scalars(raw, columns)

        # ---- personal data: refused before anything else is done with the values -------------
        label_cols = [c for c in (outcome, bucket) if c is not None]
        guarded = [*keys, *keep_cols, *([session] if session and not hash_session else [])]
        raw = guard_personal_data(raw, guarded, pii=pii, salt=salt, required=label_cols)
        keys = [k for k in keys if k in raw.columns]
        keep_cols = [k for k in keep_cols if k in raw.columns]

        # ---- parse ---------------------------------------------------------------------------
        t = _parse_time(raw[time], tz=tz, epoch=epoch)
        if ok is not None:
            ok_arr = _parse_ok(raw[ok])
            if bucket is not None:
                bucket_cat = _bucket_with_ok(raw[bucket], ok_arr)
            else:
                bucket_cat = pd.Categorical.from_codes(np.where(ok_arr, 0, 2).astype(np.int8), dtype=bucket_dtype())
        else:
            assert outcome is not None  # checked above
            ok_arr, bucket_cat = map_outcomes(raw[outcome], table)

        out: dict[str, Any] = {
            "ts": pd.DatetimeIndex(t.view("datetime64[ns]")).tz_localize("UTC").array,
            "ok": ok_arr,
            "bucket": bucket_cat,
        }
        for k in keys:
            out[k] = _group_key(raw[k], k)
        if session and session in raw.columns:
            sid = raw[session]
            if hash_session:
                out["session_id"] = hash_values(sid, salt if salt is not None else "").astype("string")
            else:
                out["session_id"] = sid.astype("string").array
        for k in keep_cols:
            if k not in out:
                out[k] = raw[k].array
        frame = pd.DataFrame(out, copy=False)
    finally:
        _LAST_ROW_OPEN.reset(token)

    # ---- unsorted input is sorted stably (equal times keep input order), never an error ------
    if len(t) > 1 and bool((t[1:] < t[:-1]).any()):
        order = np.argsort(t, kind="stable")
        frame = frame.take(order).reset_index(drop=True)
    return frame
