"""OpenSLO documents built from other budgetlab results: one SLO per group of a recalibration
(bound to its group by ``metadata.labels``, read back per group by :func:`.bind.load_slos`), the
reader of a recalibration table saved as CSV or Parquet, and an inline ratio SLI on two
Prometheus counters."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..._util.csv_cells import restore_frame
from ..._util.files import register_input
from ..._util.validation import as_list, to_timedelta
from ..._util.words import counted
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError, FileFormatError
from ...privacy import guard_values
from ...slo import SLO, PerGroup
from ._fields import quoted
from ._policies import context
from ._yaml import file_label
from .model import SLODocument
from .write import slug

__all__ = ["slos_from_recalibration", "read_recalibration_table", "action_targets",
           "MAX_TABLE_BYTES"]

#: Largest recalibration table read (one row per group: far smaller in practice).
MAX_TABLE_BYTES = 64 * 2**20


_SUMMARY_FIRST = "events"  # recalibrate's summary: the group keys, then "events", ...


def read_recalibration_table(path: str | os.PathLike[str], *, by: str | Sequence[str] | None = None,
                             target_column: str = "recommended_target") -> pd.DataFrame:
    """Read a recalibration table saved as ``.csv`` or ``.parquet`` (e.g. ``budgetlab recalibrate
    --out rec.csv``) for :func:`slos_from_recalibration`, registered as an input of the run (no
    output may replace it).

    CSV cells are read as text, so group keys stay exactly as written (``007`` stays ``007``);
    ``target_column`` is read as a number. ``attrs["by"]``: ``by`` when given, else the columns
    before ``events`` in a table laid out as :func:`budgetlab.recalibrate`'s summary. Group keys
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
    if not p.exists():
        raise FileFormatError(f"{label}: no such file; give the recalibration table (.csv or "
                              ".parquet).")
    if not p.is_file():
        raise FileFormatError(f"{label}: is not a regular file; give the recalibration table (.csv "
                              "or .parquet).")
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
    frame[target_column] = _targets(frame[target_column], target_column)
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


def _targets(column: pd.Series, name: str) -> pd.Series:
    """A target column as float64; text that is no number names its first row (from 1)."""
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype):
        return column.astype("float64")
    text = column.astype("string").str.strip()
    values = pd.to_numeric(text.where(text != ""), errors="coerce").astype("float64")
    bad = values.isna() & text.ne("").fillna(False) & text.notna()
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0]) + 1
        raise ConfigError(f"row {row}: {name} is not a number; give targets such as 0.95.")
    return values


def action_targets(table: pd.DataFrame) -> tuple[pd.Series, np.ndarray]:
    """Each row's target as its recalibration advises it, and where that is the current target:
    ``current_target`` where the ``verdict`` is ``ok`` (the action says "keep"), else
    ``recommended_target`` (the action says loosen, tighten or use it). A table without the
    ``verdict`` and ``current_target`` columns advises its ``recommended_target``.

    >>> t = pd.DataFrame({"current_target": [0.95, 0.95, np.nan],
    ...                   "verdict": ["too_strict", "ok", None],
    ...                   "recommended_target": [0.93, 0.978, 0.99]})
    >>> targets, kept = action_targets(t)
    >>> targets.tolist(), kept.tolist()
    ([0.93, 0.95, 0.99], [False, True, False])
    """
    rec = _targets(table["recommended_target"], "recommended_target")
    if not {"verdict", "current_target"} <= set(table.columns):
        return rec, np.zeros(len(table), dtype=bool)
    current = _targets(table["current_target"], "current_target")
    kept = (table["verdict"].astype("string").str.strip().eq("ok").fillna(False)
            & current.notna()).to_numpy()
    return rec.where(~kept, current), kept


def _group_slos(settings: Mapping[str, Any]) -> PerGroup | None:
    slo = settings.get("slo")
    return slo if isinstance(slo, PerGroup) else None


def _table_frame(table: Any, by: str | Sequence[str] | None,
                 target_column: str) -> tuple[pd.DataFrame, list[str]]:
    """(frame, group keys) of a DataFrame or a ``{group: target}`` mapping."""
    if isinstance(table, Mapping):
        keys = as_list(by) if by is not None else ["group"]
        rows = []
        for k, v in table.items():
            vals = k if isinstance(k, tuple) else (k,)
            if len(vals) != len(keys):
                raise ConfigError(f"mapping keys must have {counted(len(keys), 'value')}, one per "
                                  "by= key.")
            rows.append({**dict(zip(keys, vals, strict=True)), target_column: v})
        return pd.DataFrame(rows, columns=[*keys, target_column]), keys
    if not isinstance(table, pd.DataFrame):
        raise ConfigError("table must be a DataFrame (e.g. from budgetlab.recalibrate) or a "
                          "{group: target} mapping.")
    if by is not None:
        return table, as_list(by)
    if isinstance(table.attrs.get("by"), list):
        return table, list(table.attrs["by"])
    keys = [str(c) for c in table.columns if isinstance(table[c].dtype, pd.CategoricalDtype)]
    if not keys:
        raise ConfigError("cannot tell the group keys of the recalibration table; give by= (e.g. "
                          "by='captcha_type').")
    return table, keys


def _check_frame(frame: pd.DataFrame, keys: list[str], target_column: str) -> None:
    """The table holds rows, the key and target columns; group keys become SLO names and labels:
    none may look like personal data."""
    for col in [*keys, target_column]:
        if col not in frame.columns:
            raise ConfigError(f"the recalibration table has no column {quoted(col)}.")
    if frame.empty:
        raise ConfigError("the recalibration table is empty; nothing to write.")
    guard_values(keys, what="the group-key names of the recalibration table")
    for k in keys:
        guard_values(frame[k].dropna().astype(str).unique(),
                     what=f"the group key {k!r} of the recalibration table")


def slos_from_recalibration(
    table: Any,
    *,
    by: str | Sequence[str] | None = None,
    window: Any = None,
    period: Any = None,
    target_column: str | None = None,
    name_prefix: str = "",
    service: str = "",
    policy: AlertPolicy | None = None,
    warning: float = 0.5,
    critical: float = 0.1,
    min_events: int = 0,
    indicator: Mapping[str, Any] | None = None,
) -> list[SLODocument]:
    """One :class:`SLODocument` per group of a recalibration table (or a ``{group: target}`` map),
    each bound to its group by ``metadata.labels``: written with :func:`.write.write_openslo`, the
    file reads back per group with :func:`.bind.load_slos` (``by`` = the group keys), the targets
    bit for bit.

    Parameters
    ----------
    table : Recalibration, DataFrame or mapping
        The result of :func:`budgetlab.recalibrate` (its ``summary``: one row per group with
        ``recommended_target``), a table with the group keys and ``target_column`` (e.g. from
        :func:`read_recalibration_table`), or a mapping from group value (tuple for several
        keys) to target.
    target_column : str, optional
        The column each SLO's target is read from. Default: the target the recalibration's
        action names (:func:`action_targets`): ``current_target`` where the verdict is ``ok``
        ("keep 0.95"), ``recommended_target`` elsewhere; a table without verdicts, its
        ``recommended_target``. Give ``"recommended_target"`` to write the rule's target even
        where the action says keep.
    by : str or list of str, optional
        Group keys; default: the recalibration's ``by``, ``table.attrs["by"]``, or the
        categorical columns. Keys that look like personal data are refused
        (:class:`~budgetlab.PersonalDataError`): they would become names and labels.
    window : duration, optional
        Tracker window of every SLO (whole minutes); default: the recalibration's window (per
        group for per-group SLOs), else 28 days. Written as the annotation ``budgetlab/window``.
    period : duration, optional
        SRE budget period of every SLO (OpenSLO ``timeWindow``); default 30 days.
    name_prefix, service : str
        SLO names are ``name_prefix`` + the group values joined by ``-``, made RFC 1123-safe
        (``recaptcha_v2`` → ``recaptcha-v2``); the group keys become ``metadata.labels``.
    policy : AlertPolicy, optional
        Attached to every SLO (its period is kept: ``budgetlab/period`` when not the window).

    Errors name the row, counted from 1 (a table's header is not a row).

    Examples
    --------
    >>> rec = pd.DataFrame({"captcha_type": ["recaptcha_v2", "turnstile"],
    ...                     "recommended_target": [0.93, 0.97]})
    >>> docs = slos_from_recalibration(rec, by="captcha_type", window="1D", name_prefix="solve-")
    >>> [(d.name, d.slo.target, d.labels) for d in docs]
    [('solve-recaptcha-v2', 0.93, {'captcha_type': 'recaptcha_v2'}), ('solve-turnstile', 0.97,
    {'captcha_type': 'turnstile'})]
    """
    settings: Mapping[str, Any] = {}
    if isinstance(getattr(table, "summary", None), pd.DataFrame):  # a budgetlab.recalibrate result
        settings = getattr(table, "settings", None) or {}
        table = table.summary
        if by is None and settings.get("by") is not None:
            by = settings["by"]
    per = _group_slos(settings) if window is None else None
    column = target_column or "recommended_target"
    frame, keys = _table_frame(table, by, column)
    _check_frame(frame, keys, column)
    w = to_timedelta(settings.get("window") or "28D" if window is None else window, name="window")
    if policy is not None and not isinstance(policy, AlertPolicy):
        raise ConfigError("policy must be an AlertPolicy.")
    pols = () if policy is None else (policy if policy.name
                                      else dataclasses.replace(policy, name="policy"),)
    frame = frame.reset_index(drop=True)
    targets = (action_targets(frame)[0] if target_column is None
               else _targets(frame[column], column))
    docs = []
    # one row per group
    for i, row in enumerate(frame.reset_index(drop=True).itertuples(index=False), start=1):
        rec = dict(zip(frame.columns, row, strict=True))
        labels = {k: str(rec[k]) for k in keys}
        name = slug(name_prefix + "-".join(labels.values())) if keys else slug(name_prefix or "slo")
        with context(f"row {i}"):
            target = float(targets.iloc[i - 1])
            if np.isnan(target):
                raise ConfigError(f"{column} is missing; drop the groups without a "
                                  "recommendation "
                                  "first.")
            missing = [k for k in keys if _missing(rec[k])]
            if missing:
                raise ConfigError(f"the group key {missing[0]} is missing; every row names its "
                                  "group.")
            row_window = per.slo_for(tuple(labels.values())).window if per is not None else w
            slo = SLO(target=target, window=row_window,
                      warning=warning, critical=critical, min_events=min_events,
                      period="30D" if period is None else period)
        docs.append(SLODocument(name=name, slo=slo, service=service, labels=labels,
                                alert_policies=pols,
                                indicator=dict(indicator) if indicator is not None else None))
    return docs


def _missing(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False
