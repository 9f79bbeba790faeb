"""The score table of :func:`budgetlab.alerts.scoring.score_alerts`, assembled column by column.

The single groups' rows come as one array per column and tier selection (one value per group,
:func:`budgetlab.alerts.group_scores.summary_columns`); the few other rows (all groups ``"*"``,
or a selection whose episodes overlap) as columns of one value each. Rows are ordered group by
group (in the order of the group table), each group's tier selections in policy order, then the
``"*"`` rows.
Duration columns are always ``timedelta64[ns]`` (NaT where no incident was detected). Its
``attrs`` say what was scored and how (:func:`score_attrs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import grid_span_attrs, time_text
from .._util.durations import duration_label
from ..budget.grid_attrs import target_slo

__all__ = ["DURATION_COLUMNS", "score_attrs", "score_table", "stack_columns"]

#: The score columns that hold durations.
DURATION_COLUMNS = ("detection_median", "detection_max", "reset_median", "reset_max")


def stack_columns(tables: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The score columns of ``tables`` (the same columns in each) one after the other.

    >>> stack_columns([{"episodes": np.array([2])}, {"episodes": np.array([0, 1])}])
    {'episodes': array([2, 0, 1])}
    """
    return {name: np.concatenate([t[name] for t in tables]) for name in tables[0]} if tables else {}


def score_table(
    by: Sequence[str],
    group_labels: Sequence[np.ndarray],
    selections: Sequence[tuple[str, str]],
    per_group: Sequence[Mapping[str, np.ndarray]] | None,
    star: Mapping[str, np.ndarray],
) -> pd.DataFrame:
    """The score table: ``per_group[s][column][g]`` is group ``g``'s value for the tier selection
    ``selections[s]`` (``(tier, severity)``), ``group_labels[k][g]`` its label for key ``by[k]``
    (str); ``star`` holds the columns of the ``"*"`` rows (one per selection), or of the only
    rows when there are no group keys (``per_group`` ``None``)."""
    n_sel = len(selections)
    n_groups = len(group_labels[0]) if per_group is not None and group_labels else 0
    names = np.array([t for t, _ in selections], dtype=object)
    sevs = np.array([s for _, s in selections], dtype=object)
    data: dict[str, Any] = {}
    for k, key in enumerate(by):
        labels = np.asarray(group_labels[k], dtype=object)
        data[key] = np.concatenate([np.repeat(labels, n_sel), np.full(n_sel, "*", dtype=object)])
    data["tier"] = np.concatenate([np.tile(names, n_groups), names])
    data["severity"] = np.concatenate([np.tile(sevs, n_groups), sevs])
    for name, star_values in star.items():
        if per_group is None:
            data[name] = star_values
            continue
        block = np.stack([np.asarray(p[name]) for p in per_group], axis=1)  # (groups, selections)
        data[name] = np.concatenate([block.ravel(), np.asarray(star_values, dtype=block.dtype)])
    return pd.DataFrame(data)


def score_attrs(ctx: Any, episodes: pd.DataFrame, target: Any) -> dict[Any, Any]:
    """The ``attrs`` of the scores of ``ctx`` (their
    :class:`~budgetlab.alerts.score_context.ScoringContext`, which reads this module's tables):
    ``slo`` (the SLO ``target`` stands for on the bins,
    :func:`~budgetlab.budget.grid_attrs.target_slo`; without ``bins`` the episodes'; absent when
    neither says it), ``by``, ``tiers`` (``[name, severity]``), ``grace`` and ``period`` (duration
    text; ``period``: the one every percentage uses, ``None``: each group's SLO's), ``filling``,
    the evaluated span ``grid_start`` .. ``grid_end``, the incidents scored ``incidents_start``
    (the first one's start) .. ``incidents_end`` (the last end; ``None`` without any),
    ``incidents_outside``, ``budget_note`` and ``scope_note`` (how the incidents' scopes were
    read: :func:`~budgetlab.alerts.score_inputs.scope_notes`, ``""`` when nothing is to say)."""
    slo = (target_slo(target, ctx.grid).as_dict() if ctx.grid is not None
           else episodes.attrs.get("slo"))
    scored = len(ctx.inc_start) > 0
    return {**({} if slo is None else {"slo": slo}), "by": list(ctx.by),
            "tiers": [[t, sev] for t, sev in ctx.tiers], "grace": _label(ctx.grace_ns),
            "period": None if ctx.period_ns is None else _label(ctx.period_ns),
            "filling": ctx.filling, **grid_span_attrs(ctx.span_start, ctx.span_end),
            "incidents_start": _time(ctx.inc_start.min()) if scored else None,
            "incidents_end": _time(ctx.inc_end.max()) if scored else None,
            "incidents_outside": ctx.incidents_outside, "budget_note": ctx.budget_note,
            "scope_note": ctx.scope_note}


def _label(ns: int) -> str:
    return duration_label(pd.Timedelta(int(ns), unit="ns"))


def _time(ns: int) -> str:
    return time_text(pd.Timestamp(int(ns), unit="ns", tz="UTC"))
