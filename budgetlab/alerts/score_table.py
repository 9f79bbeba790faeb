"""The score table of :func:`budgetlab.alerts.scoring.score_alerts`, assembled column by column.

The single groups' rows come as one array per column and tier selection (one value per group,
:func:`budgetlab.alerts.group_scores.summary_columns`); the few other rows (all groups ``"*"``,
or a selection whose episodes overlap) as columns of one value each. Rows are ordered group by
group (in the order of the group table), each group's tier selections in policy order, then the
``"*"`` rows.
Duration columns are always ``timedelta64[ns]`` (NaT where no incident was detected).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["DURATION_COLUMNS", "score_table", "stack_columns"]

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
