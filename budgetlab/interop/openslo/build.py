"""OpenSLO documents built from a recalibration: one SLO per group (bound to its group by
``metadata.labels``, read back per group by :func:`.bind.load_slos`), its target the one the
row's action names and its tracker window the one the target was judged under; the table itself
is read by :mod:`.recalibration_table`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..._util.units import DEFAULT_WINDOW
from ..._util.validation import as_list, percent_to_fraction, to_timedelta
from ..._util.words import counted, prose_duration
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...privacy import guard_values
from ...slo import SLO, PerGroup
from ._fields import quoted
from ._policies import context
from .model import SLODocument
from .recalibration_table import action_targets, missing_cell, table_windows, target_values
from .write import slug

__all__ = ["slos_from_recalibration", "DEFAULT_WINDOW"]

#: What an SLO of such a table notes (:attr:`SLODocument.notes`).
_DEFAULT_WINDOW_NOTE = (f"tracker window "
                        f"{prose_duration(to_timedelta(DEFAULT_WINDOW, name='window'))}, the "
                        "default: the table has no window column, so it does not say the window "
                        "its target was judged under; give that one with window=")


def _unpacked(table: Any, by: Any) -> tuple[Any, Any, Mapping[str, Any]]:
    """``(table, by, settings)``: a :func:`budgetlab.recalibrate` result gives its summary, its
    ``by`` (unless ``by`` is given) and its settings; any other table is itself, with none."""
    if not isinstance(getattr(table, "summary", None), pd.DataFrame):
        return table, by, {}
    settings = getattr(table, "settings", None) or {}
    if by is None and settings.get("by") is not None:
        by = settings["by"]
    return table.summary, by, settings


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


def _row_target(target: float, column: str) -> float:
    """One row's target, read from the table's ``column``: a missing one is refused (the groups
    without a recommendation are dropped first), and one outside (0, 1) as the table's cell
    (never as an option to pass: the fix is in the file), a percentage with its fraction.

    >>> _row_target(0.95, "recommended_target")
    0.95
    >>> _row_target(95.0, "recommended_target")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: recommended_target 95 is not a target (a fraction in (0, 1), such
    as 0.95); if 95 is a percentage, write the fraction 0.95 in the table.
    """
    if np.isnan(target):
        raise ConfigError(f"{column} is missing; drop the groups without a recommendation "
                          "first.")
    if 0 < target < 1:
        return target
    hint = (f"; if {target:.15g} is a percentage, write the fraction "
            f"{percent_to_fraction(column, target)!r} in the table" if 1 < target < 100 else "")
    raise ConfigError(f"{column} {target:.15g} is not a target (a fraction in (0, 1), such as "
                      f"0.95){hint}.")


def _row_numbers(rows: Sequence[int] | None, n: int) -> list[int]:
    """The rows' numbers in the messages: ``rows`` (one per row), else their positions from 1."""
    if rows is None:
        return list(range(1, n + 1))
    numbers = list(rows)
    if len(numbers) != n:
        raise ConfigError(f"rows= has {counted(len(numbers), 'number')}; the recalibration table "
                          f"has {counted(n, 'row')}: give one number per row.")
    return numbers


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
    rows: Sequence[int] | None = None,
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
        :func:`~.recalibration_table.read_recalibration_table`), or a mapping from group value
        (tuple for several keys) to target.
    target_column : str, optional
        The column each SLO's target is read from. Default: the target the recalibration's
        action names (:func:`~.recalibration_table.action_targets`): ``current_target`` where
        the verdict is ``ok`` ("keep 0.95"), ``recommended_target`` elsewhere; a table without
        verdicts, its ``recommended_target``. Give ``"recommended_target"`` to write the rule's
        target even where the action says keep.
    by : str or list of str, optional
        Group keys; default: the recalibration's ``by``, ``table.attrs["by"]``, or the
        categorical columns. Keys that look like personal data are refused
        (:class:`~budgetlab.PersonalDataError`): they would become names and labels.
    window : duration, optional
        Tracker window of every SLO (whole minutes). Default: the window each group's target was
        judged under, the table's ``window`` column (recalibrate writes it: one per group, its
        own SLO's with per-group SLOs; each row keeps its own,
        :func:`~.recalibration_table.table_windows`), or the recalibration's settings; a table
        without the column (an older budgetlab's, or one written by hand) gets
        :data:`DEFAULT_WINDOW`, 28 days, which each SLO's ``notes`` say.
        Written as the annotation ``budgetlab/window``.
    period : duration, optional
        SRE budget period of every SLO (OpenSLO ``timeWindow``); default 30 days.
    name_prefix, service : str
        SLO names are ``name_prefix`` + the group values joined by ``-``, made RFC 1123-safe
        (``recaptcha_v2`` → ``recaptcha-v2``); the group keys become ``metadata.labels``.
    policy : AlertPolicy, optional
        Attached to every SLO (its period is kept: ``budgetlab/period`` when not the window).

    rows : sequence of int, optional
        The number each row of the table has in the messages, one per row: where the table is
        a part of a file read (e.g. its rows with a target), the file's own rows; default their
        positions.

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
    table, by, settings = _unpacked(table, by)
    # per-group SLOs of the recalibration: each group's own window
    per = settings.get("slo") if window is None else None
    per = per if isinstance(per, PerGroup) else None
    column = target_column or "recommended_target"
    frame, keys = _table_frame(table, by, column)
    _check_frame(frame, keys, column)
    numbers = _row_numbers(rows, len(frame))
    judged = table_windows(frame, rows=numbers) if window is None else None
    w = to_timedelta(settings.get("window") or DEFAULT_WINDOW if window is None else window,
                     name="window")
    guessed = window is None and judged is None and per is None and not settings.get("window")
    if policy is not None and not isinstance(policy, AlertPolicy):
        raise ConfigError("policy must be an AlertPolicy.")
    pols = () if policy is None else (policy if policy.name
                                      else dataclasses.replace(policy, name="policy"),)
    frame = frame.reset_index(drop=True)
    targets, kept = (action_targets(frame, numbers) if target_column is None
                     else (target_values(frame[column], column, numbers),
                           np.zeros(len(frame), dtype=bool)))
    docs = []
    # one row per group
    for i, row in enumerate(frame.itertuples(index=False), start=1):
        rec = dict(zip(frame.columns, row, strict=True))
        labels = {k: str(rec[k]) for k in keys}
        name = slug(name_prefix + "-".join(labels.values())) if keys else slug(name_prefix or "slo")
        with context(f"row {numbers[i - 1]}"):
            target = _row_target(float(targets.iloc[i - 1]),
                                 "current_target" if kept[i - 1] else column)
            # an empty cell of a CSV is read as "" (text kept as written): missing too
            missing = [k for k in keys if missing_cell(rec[k]) or not str(rec[k]).strip()]
            if missing:
                raise ConfigError(f"the group key {missing[0]} is missing; every row names its "
                                  "group.")
            row_window = (judged[i - 1] if judged is not None
                          else per.slo_for(tuple(labels.values())).window if per is not None
                          else w)
            slo = SLO(target=target, window=row_window,
                      warning=warning, critical=critical, min_events=min_events,
                      period="30D" if period is None else period)
        docs.append(SLODocument(name=name, slo=slo, service=service, labels=labels,
                                alert_policies=pols,
                                indicator=dict(indicator) if indicator is not None else None,
                                notes=(_DEFAULT_WINDOW_NOTE,) if guessed else ()))
    _refuse_same_names(docs, numbers)
    return docs


def _refuse_same_names(docs: list[SLODocument], numbers: list[int]) -> None:
    """Refuse groups whose SLO names are one (names are RFC 1123: ``a b``, ``a-b`` and ``A B``
    are all ``a-b``), naming the groups, their rows and the name they share.

    >>> docs = [SLODocument(name="a-b", slo=SLO(0.9), labels={"g": v}) for v in ("a b", "A-B")]
    >>> _refuse_same_names(docs, [1, 2])
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: the groups 'a b' (row 1) and 'A-B' (row 2) would share the SLO
    name 'a-b' (an SLO is named after its group as an RFC 1123 name: lower-case letters, digits
    and -), and SLO names must be unique within one file: rename the groups in the table so that
    they differ in letters or digits, or write them to separate files.
    """
    rows: dict[str, list[str]] = {}
    for doc, number in zip(docs, numbers, strict=True):
        group = ", ".join(str(v) for v in doc.labels.values())
        rows.setdefault(doc.name, []).append(f"{quoted(group)} (row {number})")
    for name, groups in rows.items():
        if len(groups) > 1:
            listed = ", ".join(groups[:-1]) + " and " + groups[-1]
            raise ConfigError(f"the groups {listed} would share the SLO name {quoted(name)} (an "
                              "SLO is named after its group as an RFC 1123 name: lower-case "
                              "letters, digits and -), and SLO names must be unique within one "
                              "file: rename the groups in the table so that they differ in "
                              "letters or digits, or write them to separate files.")
