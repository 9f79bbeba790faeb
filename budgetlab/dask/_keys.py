"""The group keys' categories that every partition of a Dask read shares: each partition's key
values in one spelling (:func:`~budgetlab.events.read.group_key`, the pandas reader's), joined on
the driver; under ``pii="hash"`` a key that holds personal data anywhere is hashed after it is
spelled, as :func:`budgetlab.read_events` hashes it, so that ``Köln`` written composed in one
file and decomposed in another is one hashed group. Under ``pii="drop"`` (or ``"error"``), what
the partitions found in a dropped (or refused) column, told as the pandas reader tells it
(:func:`dropped_findings`, :func:`refuse_personal`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import PersonalDataError
from ..events.read import group_key
from ..events.spec import ReadSpec
from ..privacy import KINDS, hash_values, scan_text
from ..privacy.guard import arrow_text
from ..privacy.refusals import column_refusal, dropped_key_refusal, findings

__all__ = ["union", "spelled_keys", "key_dtypes", "dropped_scan", "dropped_findings",
           "refuse_personal", "required_scan", "refuse_required"]


def union(lists: Sequence[Sequence[Any]], *, sort: bool) -> list[Any]:
    """The values of ``lists`` once each, in the order met (or sorted).

    >>> union([["b", "a"], ["a", "c"]], sort=False), union([["b"], ["a"]], sort=True)
    (['b', 'a', 'c'], ['a', 'b'])
    """
    seen: dict[Any, None] = {}
    for values in lists:
        for v in values:
            seen.setdefault(v, None)
    return sorted(seen) if sort else list(seen)


def spelled_keys(raw: pd.DataFrame, frame: pd.DataFrame, keys: Sequence[str], *,
                 hashing: bool) -> dict[str, list[str]]:
    """One partition's categories of each group key in one spelling: those of ``frame`` (the
    partition read by :func:`budgetlab.read_events`); a key the guard took out of ``frame`` (it
    holds personal data) is spelled from ``raw`` when it will be hashed (``hashing``)."""
    return {k: list(frame[k].cat.categories) if k in frame.columns
            else list(group_key(raw[k], k).categories)
            for k in keys if k in frame.columns or hashing}


def key_dtypes(infos: Sequence[dict[str, Any]], keys: Sequence[str], flagged: set[str],
               meta_raw: pd.DataFrame, salt: str | None) -> dict[str, pd.CategoricalDtype]:
    """One categorical dtype per group key, with the categories of every partition (see
    :func:`spelled_keys`). A key in ``flagged`` (personal data in some partition) has none when
    it is dropped (``salt`` is ``None``), else the sorted keyed hashes of its spelled values, as
    :func:`~budgetlab.privacy.hash_values` orders a hashed categorical."""
    out: dict[str, pd.CategoricalDtype] = {}
    for k in keys:
        if k in flagged:
            if salt is not None:
                spelled = union([i["keys"].get(k, []) for i in infos], sort=True)
                hashed = hash_values(pd.Series(spelled, dtype="str"), salt)
                out[k] = pd.CategoricalDtype(np.unique(np.asarray(hashed, dtype=object)
                                                       .astype(str)).tolist())
            continue
        cats = union([i["keys"].get(k, []) for i in infos],
                     sort=not isinstance(meta_raw[k].dtype, pd.CategoricalDtype))
        out[k] = pd.CategoricalDtype(cats, ordered=bool(getattr(meta_raw[k].dtype, "ordered",
                                                                False)))
    return out


def _scan(column: pd.Series) -> tuple[dict[str, int], dict[str, np.ndarray]]:
    """Rows per kind of personal data in ``column`` and its distinct values of each kind (as
    64-bit hashes), found as the guard of :func:`budgetlab.read_events` finds them:
    :func:`~budgetlab.privacy.scan_text` over the used categories, an integer column's values
    (cards only) or a text column's values, the whole text column judging the card rule."""
    dtype = getattr(column.dtype, "categories", column).dtype
    numeric = pd.api.types.is_integer_dtype(dtype)
    if not (numeric or pd.api.types.is_string_dtype(dtype)):
        return {}, {}
    counts = column.value_counts(dropna=True)
    counts = counts[counts.to_numpy() > 0]  # a categorical's unused categories
    values = np.asarray(counts.index.astype(str), dtype=object)
    whole = None if numeric or isinstance(column.dtype, pd.CategoricalDtype) else \
        arrow_text(column, chunked=True)
    masks = scan_text(values, numeric=numeric, column=whole)
    return ({k: int(counts.to_numpy()[m].sum()) for k, m in masks.items()},
            {k: pd.util.hash_array(values[m]) for k, m in masks.items()})


def dropped_scan(raw: pd.DataFrame, flagged: Sequence[str],
                 spec: ReadSpec) -> dict[str, tuple[dict[str, int], dict[str, np.ndarray]]]:
    """One partition's findings in each ``flagged`` column (dropped for personal data), the group
    keys spelled first as the pandas reader spells them before its guard (:func:`_scan`)."""
    spelled = [k for k in spec.by if set(spec.roles[k]) <= {"by", "keep"}]
    return {c: _scan(pd.Series(group_key(raw[c], c)) if c in spelled else raw[c]) for c in flagged}


def required_scan(raw: pd.DataFrame, spec: ReadSpec,
                  ) -> dict[str, tuple[dict[str, int], dict[str, np.ndarray]]]:
    """One partition's findings (:func:`_scan`) in the columns the pandas reader's guard always
    refuses personal data in (the outcome labels, or the bucket column beside ``ok=``), only those
    that hold some: none, when the partition holds none."""
    required = [c for c in (spec.label if spec.reads_labels else None, spec.bucket) if c]
    found = {c: _scan(raw[c]) for c in required}
    return {c: scan for c, scan in found.items() if scan[0]}


def refuse_required(infos: Sequence[dict[str, Any]], name: str | None) -> None:
    """Refuse a required column (outcome labels, bucket) that holds personal data in some
    partition (``info["required"]``, :func:`required_scan`), with what every partition holds in it
    (:func:`dropped_findings`), in the words of the pandas reader's guard, which refuses it under
    every ``pii=`` before any other column; prefixed with the input's ``name`` (files), as
    :func:`refuse_personal` is."""
    col = next((c for i in infos for c in i.get("required", {})), None)
    if col is None:
        return
    exc = column_refusal(col, dropped_findings(infos, col, found="required"), "required")
    raise exc if name is None else PersonalDataError(f"{name}: {exc}")


def dropped_findings(infos: Sequence[dict[str, Any]], col: str, *,
                     found: str = "dropped") -> str:
    """What the partitions found in ``col``, a column dropped for personal data, in the words of
    :func:`budgetlab.read_events` (:func:`~budgetlab.privacy.refusals.findings`): the rows of each
    kind summed, its distinct values counted once over all partitions (each partition gives them
    as 64-bit hashes, ``info[found]``: ``info["dropped"]``, or ``info["required"]``; never the
    values).

    >>> one = {"dropped": {"user": ({"e-mail address": 2}, {"e-mail address": np.array([7, 8])})}}
    >>> two = {"dropped": {"user": ({"e-mail address": 3}, {"e-mail address": np.array([8, 9])})}}
    >>> dropped_findings([one, two, {}], "user")
    '5 rows like an e-mail address (3 distinct values)'
    """
    rows: dict[str, int] = {}
    hashes: dict[str, list[np.ndarray]] = {}
    for info in infos:
        counts, values = info.get(found, {}).get(col, ({}, {}))
        for kind, n in counts.items():
            rows[kind] = rows.get(kind, 0) + n
            hashes.setdefault(kind, []).append(values[kind])
    kinds = sorted(rows, key=KINDS.index)  # in the order the guard reports them
    return findings({k: rows[k] for k in kinds},
                    {k: len(np.unique(np.concatenate(hashes[k]))) for k in kinds})


def refuse_personal(infos: Sequence[dict[str, Any]], spec: ReadSpec, flagged: set[str],
                    name: str | None) -> None:
    """Under ``pii="error"``, refuse the first column in ``flagged`` (personal data in some
    partition, or a key named for people) in the order the pandas reader's guard looks at them
    (keys, kept columns, the session), with what every partition holds in it
    (:func:`dropped_findings`), in that guard's words; prefixed with the input's ``name`` (files).
    Under ``pii="drop"``, refuse a ``by=`` key in ``flagged``: dropped, the grouping would be
    lost (:func:`~budgetlab.privacy.refusals.dropped_key_refusal`, the pandas reader's words).
    """
    gone = [k for k in spec.by if k in flagged] if spec.pii == "drop" else []
    if gone:
        raise dropped_key_refusal(gone[0])
    if not flagged or spec.pii != "error":
        return
    order = [*spec.by, *spec.keep, *([spec.session] if spec.session else [])]
    col = next(c for c in dict.fromkeys([*order, *sorted(flagged)]) if c in flagged)
    what = dropped_findings(infos, col)
    named = not any(i.get("dropped", {}).get(col, ({}, {}))[0] for i in infos)
    exc = column_refusal(col, what, "named" if named else "")
    raise exc if name is None else PersonalDataError(f"{name}: {exc}")
