"""A recalibration table as budgetlab reads it back: :func:`read_recalibration_table` (a
:func:`budgetlab.recalibrate` summary saved as CSV or Parquet), each row's target
(:func:`target_values`, :func:`action_targets`) and the tracker window it was judged under
(:func:`table_windows`). The SLOs built from it are :mod:`.build`'s."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..._util.csv_cells import restore_frame
from ..._util.inputs import check_input_file, register_input
from ..._util.validation import as_list, to_timedelta
from ...errors import ConfigError, FileFormatError
from ...privacy import guard_values, shown
from ._fields import quoted
from ._yaml import file_label

__all__ = ["read_recalibration_table", "target_values", "action_targets", "table_windows",
           "window_cell", "missing_cell", "MAX_TABLE_BYTES", "WINDOW_COLUMN"]

#: Largest recalibration table read (one row per group: far smaller in practice).
MAX_TABLE_BYTES = 64 * 2**20


_SUMMARY_FIRST = "events"  # recalibrate's summary: the group keys, then "events", ...
#: The column of recalibrate's summary that holds the tracker window each group's target was
#: judged under, as duration text (``1h``, ``1d``, ``7d``).
WINDOW_COLUMN = "window"


def read_recalibration_table(path: str | os.PathLike[str], *, by: str | Sequence[str] | None = None,
                             target_column: str = "recommended_target") -> pd.DataFrame:
    """Read a recalibration table saved as ``.csv`` or ``.parquet`` (e.g. ``budgetlab recalibrate
    --out rec.csv``) for :func:`~.build.slos_from_recalibration`, registered as an input of the
    run (no output may replace it).

    CSV cells are read as text, so group keys stay exactly as written (``007`` stays ``007``);
    ``target_column`` is read as a number, and the ``window`` column (the tracker window each
    target was judged under, :func:`table_windows`) stays its text. ``attrs["by"]``: ``by`` when
    given, else the columns before ``events`` in a table laid out as
    :func:`budgetlab.recalibrate`'s summary. Group keys
    that look like personal data are refused (:class:`~budgetlab.PersonalDataError`, counted,
    never shown); rows are numbered from 1 (the header is not a row).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "rec.csv"
    >>> _ = p.write_text("captcha_type,events,recommended_target\\n"
    ...                  "recaptcha_v2,900,0.93\\nturnstile,800,0.97\\n")
    >>> t = read_recalibration_table(p)
    >>> t.attrs["by"], t["recommended_target"].tolist()
    (['captcha_type'], [0.93, 0.97])
    """
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ConfigError("give the recalibration table as a file name (.csv or .parquet).")
    p = Path(path)
    label = file_label(p)
    check_input_file(p, name=label, give="give the recalibration table (.csv or .parquet)")
    ext = p.suffix.lower()
    if ext not in (".csv", ".parquet"):
        raise FileFormatError(f"{label}: the recalibration table must be .csv or .parquet.")
    if p.stat().st_size > MAX_TABLE_BYTES:
        raise FileFormatError(f"{label}: is larger than {MAX_TABLE_BYTES // 2**20} MiB; a "
                              "recalibration table has one "
                              "row per group: give the right file.")
    register_input(p)
    try:
        if ext == ".csv":
            frame = restore_frame(pd.read_csv(p, dtype=str, keep_default_na=False,
                                              encoding="utf-8"))
        else:
            frame = pd.read_parquet(p)
    except UnicodeDecodeError:
        raise FileFormatError(f"{label}: is not UTF-8 text; save the table as UTF-8 CSV.") from None
    # pyarrow's errors derive from these
    except (ValueError, OSError, pd.errors.ParserError, pd.errors.EmptyDataError):
        raise FileFormatError(f"{label}: cannot be read as {ext[1:]}; give the table budgetlab "
                              "recalibrate --out "
                              "wrote.") from None
    names = [str(c) for c in frame.columns]
    guard_values(names, what=f"the column names of {label}")
    frame.columns = pd.Index(names)
    if frame.empty:
        raise FileFormatError(f"{label}: holds no rows; give a recalibration table with one row "
                              "per group.")
    if target_column not in frame.columns:
        raise FileFormatError(f"{label}: has no column {quoted(target_column)}; give "
                              "--target-column, or the table "
                              "budgetlab recalibrate --out wrote.")
    frame[target_column] = target_values(frame[target_column], target_column)
    if by is not None:
        keys = as_list(by)
    elif _SUMMARY_FIRST in names:  # recalibrate's layout: the keys precede 'events' (none: one SLO)
        keys = names[:names.index(_SUMMARY_FIRST)]
        frame.attrs["by"] = keys
    else:
        keys = []
    if keys:
        frame.attrs["by"] = keys
        for k in keys:
            if k not in frame.columns:
                raise FileFormatError(f"{label}: has no column {quoted(k)} (a group key); the "
                                      "columns are "
                                      f"{', '.join(names)}.")
            guard_values(frame[k].dropna().astype(str).unique(),
                         what=f"the group key {k!r} of {label}")
    return frame


def table_windows(frame: pd.DataFrame,
                  rows: Sequence[int] | None = None) -> list[pd.Timedelta] | None:
    """Each row's tracker window from the table's ``window`` column (:data:`WINDOW_COLUMN`), the
    window recalibrate judged the row's target under; None for a table without the column. Rows
    may differ (per-group SLOs of different windows): each keeps its own. An empty cell or text
    that is no window is refused, naming the row (from 1): a target holds its meaning only under
    the window it was judged under, so none is guessed for it. ``rows``: the rows' numbers in
    the messages (where ``frame`` is a part of the table read), else their positions.

    >>> t = pd.DataFrame({"method": ["GET", "POST"], "window": ["1h", "1d"]})
    >>> table_windows(t)
    [Timedelta('0 days 01:00:00'), Timedelta('1 days 00:00:00')]
    >>> table_windows(t.assign(window=["1h", ""]))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: row 2: the window column is empty; give the window the row's
    target was judged under (recalibrate writes it, e.g. 24h), or window= for every row.
    """
    if WINDOW_COLUMN not in frame.columns:
        return None
    windows = []
    numbers = range(1, len(frame) + 1) if rows is None else rows
    for i, value in zip(numbers, frame[WINDOW_COLUMN].tolist(), strict=True):
        window = window_cell(value)
        if window is not None:
            windows.append(window)
        elif missing_cell(value) or not str(value).strip():
            raise ConfigError(f"row {i}: the window column is empty; give the window the row's "
                              "target was judged under (recalibrate writes it, e.g. 24h), or "
                              "window= for every row.")
        else:
            raise ConfigError(f"row {i}: the window column holds {shown(value)}, not a tracker "
                              "window (a positive duration such as 24h); give the window the "
                              "row's target was judged under, or window= for every row.")
    return windows


def window_cell(value: Any) -> pd.Timedelta | None:
    """One cell of the ``window`` column as a window (text such as ``1h``, or a Timedelta);
    None when it is empty or holds no window (:func:`table_windows` refuses it, naming the row).

    >>> window_cell(" 1d "), window_cell(""), window_cell("soon")
    (Timedelta('1 days 00:00:00'), None, None)
    """
    text = value.strip() if isinstance(value, str) else value
    if missing_cell(text) or text == "":
        return None
    try:
        return to_timedelta(text, name="window")
    except ConfigError:
        return None


def target_values(column: pd.Series, name: str,
                  rows: Sequence[int] | None = None) -> pd.Series:
    """A target column as float64; text that is no number names its first row (from 1; ``rows``:
    the rows' numbers, as :func:`table_windows` takes them)."""
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype):
        return column.astype("float64")
    text = column.astype("string").str.strip()
    values = pd.to_numeric(text.where(text != ""), errors="coerce").astype("float64")
    bad = values.isna() & text.ne("").fillna(False) & text.notna()
    if bad.any():
        first = int(np.flatnonzero(bad.to_numpy())[0])
        row = first + 1 if rows is None else rows[first]
        raise ConfigError(f"row {row}: {name} is not a number; give targets such as 0.95.")
    return values


def action_targets(table: pd.DataFrame,
                   rows: Sequence[int] | None = None) -> tuple[pd.Series, np.ndarray]:
    """Each row's target as its recalibration advises it, and where that is the current target:
    ``current_target`` where the ``verdict`` is ``ok`` (the action says "keep"), else
    ``recommended_target`` (the action says loosen, tighten or use it). A table without the
    ``verdict`` and ``current_target`` columns advises its ``recommended_target``. ``rows``: the
    rows' numbers in the messages, as :func:`table_windows` takes them.

    >>> t = pd.DataFrame({"current_target": [0.95, 0.95, np.nan],
    ...                   "verdict": ["too_strict", "ok", "withheld"],
    ...                   "recommended_target": [0.93, 0.978, 0.99]})
    >>> targets, kept = action_targets(t)
    >>> targets.tolist(), kept.tolist()
    ([0.93, 0.95, 0.99], [False, True, False])
    """
    rec = target_values(table["recommended_target"], "recommended_target", rows)
    if not {"verdict", "current_target"} <= set(table.columns):
        return rec, np.zeros(len(table), dtype=bool)
    current = target_values(table["current_target"], "current_target", rows)
    kept = (table["verdict"].astype("string").str.strip().eq("ok").fillna(False)
            & current.notna()).to_numpy()
    return rec.where(~kept, current), kept


def missing_cell(value: Any) -> bool:
    """True for an empty cell (None, NaN, NaT, pd.NA); False for any value, even one pandas
    cannot test."""
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False
