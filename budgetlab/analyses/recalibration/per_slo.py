"""Per-group SLOs in :func:`~budgetlab.analyses.recalibration.recalibrate`: the current target of
every group, and one run per SLO put together in group order."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...events.schema import check_events
from ...slo import SLO, PerGroup, as_per_group, key_text, split_by_slo
from ..per_group import need_group_keys
from ..sorted_events import Sorted, group_targets
from .tables import Recalibration

__all__ = ["recalibrate_per_slo", "current_targets"]


def recalibrate_per_slo(events: pd.DataFrame, per: PerGroup, by: Any,
                        run: Callable[[SLO], Recalibration]) -> Recalibration:
    """``run`` (:func:`recalibrate` under one SLO) once per set of groups sharing an SLO, the
    tables put together in group order."""
    keys = check_events(events, by)
    parts = split_by_slo(events, per, keys)
    if len(parts) == 1:
        return run(parts[0][0])
    # each SLO runs over the whole table (the history span is the table's, as in a one-SLO run),
    # and keeps the rows of its own groups
    results = [run(s) for s, _ in parts]
    mine = [{key_text(k) for k in events.iloc[pos][keys].drop_duplicates().itertuples(index=False,
                                                                                      name=None)}
            for _, pos in parts]
    tables = {}
    for name in ("summary", "candidates", "distribution", "bootstrap"):
        picked = []
        for r, groups in zip(results, mine, strict=True):
            frame = getattr(r, name)
            rows = [key_text(k) in groups for k in frame[keys].itertuples(index=False, name=None)]
            picked.append(frame[np.asarray(rows, dtype=bool)])
        frame = pd.concat(picked, ignore_index=True)
        order = _group_sort(frame, keys, name)
        frame = frame.iloc[order].reset_index(drop=True)
        frame.attrs["by"] = list(keys)
        tables[name] = frame
    settings = dict(results[0].settings)
    # one window when every SLO has the same (targets differ per group), else none
    windows = {r.settings["window"] for r in results}
    settings.update(slo=per, window=windows.pop() if len(windows) == 1 else None,
                    span_start=min(r.settings["span_start"] for r in results),
                    span_end=max(r.settings["span_end"] for r in results))
    return Recalibration(summary=tables["summary"], candidates=tables["candidates"],
                         distribution=tables["distribution"], bootstrap=tables["bootstrap"],
                         settings=settings)


def _group_sort(frame: pd.DataFrame, keys: Sequence[str], name: str) -> np.ndarray:
    """Row order of a table put together from parts: by group (the order ``sort_events`` gives:
    sorted key values), then the table's own order inside a group (stable)."""
    codes = frame.groupby(list(keys), sort=True, dropna=False, observed=True).ngroup().to_numpy()
    inner = frame["sample"].to_numpy() if name == "bootstrap" else np.zeros(len(frame),
                                                                            dtype=np.int64)
    return np.lexsort((np.arange(len(frame)), codes, inner) if name == "bootstrap"
                      else (np.arange(len(frame)), codes))


def current_targets(target: Any, slo: Any, srt: Sorted) -> np.ndarray:
    """The current target of every group: ``target`` (number, table, mapping or :class:`PerGroup`),
    else ``slo`` (one SLO or per group), else NaN."""
    source = slo if target is None else target
    if source is None:
        return np.full(srt.n_groups, np.nan)
    per = as_per_group(source) if isinstance(source, PerGroup) else None
    if (
        per is None
        and isinstance(source, Mapping)
        and any(isinstance(v, SLO) for v in source.values())
    ):
        per = PerGroup(source)
    if per is not None:
        need_group_keys(srt.by)
        return np.array([s.target for s in per.resolve(srt.keys[list(srt.by)])], dtype=np.float64)
    return group_targets(source, srt.keys, srt.by)
