"""Read an incidents table (the ground truth that alerts are scored against) from a CSV file.

The file has a header line with ``incident_id``, ``start`` and ``end`` and optionally ``scope``
(``key=value`` pairs joined by ``&``, e.g. ``region=fra``; empty or ``*`` is everything) and
``kind``; ``severity``, when there, is a number (float64, as in the shipped tables) when every
filled cell is one, else its words as written; other columns are kept as text. Times are ISO
8601, UTC when they carry no offset.
The file is registered as an input of the run (no output may overwrite it), and the values that
end up in outputs and messages (ids, scopes, kinds) are checked for personal data first. Errors
name rows by number (1-based, counting data rows) and never quote a value.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.csv_cells import restore_frame
from .._util.inputs import check_input_file, register_input
from .._util.validation import require_columns
from .._util.words import noun_for, some_named
from ..errors import FileFormatError, InputError, SchemaError, TimestampError
from ..events.offsets import has_offset
from ..privacy import guard_values, shown
from .incident_scopes import guard_scopes

__all__ = ["INCIDENT_COLUMNS", "check_incidents", "read_incidents"]

#: The columns an incidents file must have (``scope`` and ``kind`` are optional).
INCIDENT_COLUMNS = ("incident_id", "start", "end")
_LISTED = 5


def _rows(mask: np.ndarray) -> str:
    """``row 3`` / ``rows 2, 5 and 7 more`` (1-based data rows) for the ``True`` entries of
    ``mask``."""
    idx = np.flatnonzero(mask) + 1
    return f"{noun_for(len(idx), 'row')} {some_named([str(i) for i in idx], _LISTED)}"


def _read_csv(p: Path, name: str) -> pd.DataFrame:
    with open(p, "rb") as f:
        head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] in (b"{", b"["):
        raise FileFormatError(f"{name}: holds JSON, not CSV; give the incidents as CSV with a "
                              "header line incident_id,start,end[,scope,kind] and one row per "
                              "incident (a labelled window is one row).")
    try:
        return restore_frame(pd.read_csv(p, dtype=str, keep_default_na=False, encoding="utf-8-sig"))
    except pd.errors.EmptyDataError:
        raise FileFormatError(f"{name}: is empty; give a header line "
                              "incident_id,start,end[,scope,kind] and one "
                              "row per incident.") from None
    except UnicodeDecodeError:
        raise FileFormatError(f"{name}: is not UTF-8 text; save the incidents as UTF-8 "
                              "CSV.") from None
    except (ValueError, pd.errors.ParserError):
        raise FileFormatError(f"{name}: cannot be read as CSV (a quote left open or rows of "
                              "different lengths?); give one row per incident: "
                              "incident_id,start,end[,scope,kind].") from None


def _times(table: pd.DataFrame, col: str, name: str) -> pd.Series:
    text = table[col].str.strip()
    empty = (text == "").to_numpy(dtype=bool)
    if empty.any():
        raise TimestampError(f"{name}: column {col!r} is empty in {_rows(empty)}; give every "
                             f"incident {'an' if col == 'end' else 'a'} {col} time (ISO 8601, "
                             "e.g. 2026-01-05T10:00:00Z).")
    ts = pd.to_datetime(text, format="ISO8601", utc=True, errors="coerce")
    bad = ts.isna().to_numpy(dtype=bool)
    if bad.any():
        raise TimestampError(f"{name}: column {col!r} holds no ISO 8601 time in {_rows(bad)}; "
                             "write times like "
                             "2026-01-05T10:00:00Z (UTC when no offset is given).")
    return ts.dt.as_unit("ns")


def _check_scopes(scopes: pd.Series, name: str) -> None:
    parts = scopes.str.split("&")
    bad = np.zeros(len(scopes), dtype=bool)
    for i, (scope, items) in enumerate(zip(scopes.tolist(), parts.tolist(), strict=True)):
        if scope == "*":
            continue
        for item in items:
            key, sep, _ = item.partition("=")
            if not sep or not key.strip():
                bad[i] = True
    if bad.any():
        raise InputError(f"{name}: column 'scope' is not of the form key=value[&key=value] "
                         f"in {_rows(bad)}; write e.g. region=fra or region=fra&captcha_type=image "
                         "('*' or empty: everything).")


def _severity(table: pd.DataFrame) -> pd.Series:
    """The ``severity`` column as float64 (as the shipped tables have it) when every filled cell
    is a finite number (an empty cell: NaN); else as written, every cell its text (a label such
    as ``high`` or ``SEV1``, never a number read from part of the column)."""
    text = table["severity"].str.strip()
    value = pd.to_numeric(text, errors="coerce").astype("float64")
    filled = text.fillna("").ne("").to_numpy()
    if np.isfinite(value.to_numpy(dtype="float64"))[filled].all():
        return value
    return table["severity"]


def check_incidents(incidents: Any) -> None:
    """Refuse anything but an incidents table with the :data:`INCIDENT_COLUMNS` (what scoring and
    the window analyses take)."""
    if not isinstance(incidents, pd.DataFrame):
        raise InputError("incidents must be a DataFrame with incident_id, start, end and scope "
                         "columns.")
    require_columns(incidents, INCIDENT_COLUMNS, what="incidents")


def read_incidents(path: str | os.PathLike[str], *, pii: str = "error",
                   salt: str | None = None) -> pd.DataFrame:
    """Read an incidents CSV: ``incident_id,start,end`` and optional ``scope``, ``kind``.

    Parameters
    ----------
    path : str or path-like
        A CSV file with a header line. Times are ISO 8601 (``2026-01-05T10:00:00Z``), UTC when
        naive. ``scope`` is ``key=value`` pairs joined by ``&``; empty or missing means ``"*"``.
    pii : {"error", "drop", "hash"}
        The policy the events are read with (``read_events(..., pii=)``): with ``"hash"``, a scope
        value that looks like personal data (``ip=203.0.113.7``) is replaced by its keyed hash
        under ``salt``, the events' salt, so that the incident matches the hashed group; else it
        is refused (a dropped key cannot be matched).
    salt : str, optional
        The salt the events are hashed with (``pii="hash"``).

    Returns
    -------
    pandas.DataFrame
        One row per incident, every column as text except ``start`` and ``end``
        (``datetime64[ns, UTC]``) and ``severity`` when the file has it (float64 when every
        filled cell is a number, else its words as written); ``scope`` is always present
        (``"*"`` when not given).
        ``attrs["naive_times"]``: how many incidents have a start or end without an offset
        (read as UTC).

    Raises
    ------
    FileFormatError
        The file is missing, a folder, a FIFO (named pipe), a socket or a device (refused
        before it is opened: reading a FIFO would wait for a writer), empty, not UTF-8 or not
        CSV.
    SchemaError
        A required column is missing.
    TimestampError
        A start or end is empty or not an ISO 8601 time (rows named by number, counted from 1).
    InputError
        An incident ends at or before its start (rows named by number); a scope is not
        ``key=value`` pairs; :class:`~budgetlab.errors.PersonalDataError` when an id, scope key
        or kind looks like personal data, or a scope value without ``pii="hash"`` (counted, never
        shown).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "incidents.csv"
    >>> _ = f.write_text("incident_id,start,end,scope\\n"
    ...                  "i1,2026-01-05T10:00:00Z,2026-01-05T11:00,region=fra\\n")
    >>> read_incidents(f)[["incident_id", "end", "scope"]]
      incident_id                       end       scope
    0          i1 2026-01-05 11:00:00+00:00  region=fra
    """
    p = Path(path)
    name = shown(p.name)
    check_input_file(p, name=name, give="give the incidents as a CSV file "
                                        "(incident_id,start,end[,scope,kind])")
    register_input(p)
    table = _read_csv(p, name)
    missing = [c for c in INCIDENT_COLUMNS if c not in table.columns]
    if missing:
        raise SchemaError(f"{name}: has no column {missing[0]!r}; the header must name "
                          "incident_id, start, end (and optionally scope, kind).")
    naive = np.zeros(len(table), dtype=bool)
    for col in ("start", "end"):
        naive |= ~has_offset(table[col].str.strip())  # the event readers' detector
        table[col] = _times(table, col, name)
    table.attrs["naive_times"] = int(naive.sum())
    backwards = (table["end"] <= table["start"]).to_numpy(dtype=bool)
    if backwards.any():  # refused as it is read, before any work or output
        one = int(backwards.sum()) == 1
        raise InputError(f"{name}: {_rows(backwards)} {'ends' if one else 'end'} at or before "
                         f"{'its' if one else 'their'} start; 'end' is exclusive and must be "
                         "after 'start'.")
    if "scope" not in table.columns:
        table["scope"] = "*"
    table["scope"] = table["scope"].str.strip().replace("", "*")
    _check_scopes(table["scope"], name)
    table["scope"] = guard_scopes(table["scope"], f"the 'scope' column of {name}", pii=pii,
                                  salt=salt)
    for col in ("incident_id", "kind"):
        if col in table.columns:
            guard_values(table[col].unique(), what=f"the {col!r} column of {name}")
    if "severity" in table.columns:
        table["severity"] = _severity(table)
    return table
