"""Per-group SLOs in the analyses: one run per distinct SLO, and each group's rows taken from the
run under its own SLO (:func:`per_slo_rows` for one table and :func:`rows_by_slo` for several,
each run on its groups' rows; :func:`merge_tables` for the tables of an incident report).

Groups never share a window, so the rows of a group are the same whichever other groups are
replayed beside it; the tables are put together here from plain DataFrames.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError, InputError
from ..events.schema import check_events
from ..slo import SLO, PerGroup
from ..slo_groups import split_by_slo, warn_unused
from ..windows.groups import group_codes, group_key_codes
from .incident_tables import worst_first

__all__ = ["group_mask", "group_slos", "need_group_keys", "per_slo_rows", "rows_by_slo",
           "merge_tables",
           "REPORT_TABLES"]

#: The tables of an incident report that :func:`merge_tables` puts together.
REPORT_TABLES = ("states", "spans", "steps", "transitions", "tracker", "alerts", "tiers", "budget",
                 "buckets", "window_buckets", "over_time")
_SAME_ROWS = ("states", "tiers", "budget", "buckets", "window_buckets", "over_time")


def group_mask(table: pd.DataFrame, keys: Sequence[str], mine: dict[tuple[str, ...],
                                                                    bool]) -> np.ndarray:
    """Rows of ``table`` whose group (its ``keys`` as text) is ``True`` in ``mine``."""
    if not len(table):
        return np.zeros(0, dtype=bool)
    rows = table[list(keys)].astype(str).itertuples(index=False, name=None)
    return np.array([mine.get(tuple(r), False) for r in rows], dtype=bool)


def need_group_keys(keys: Sequence[str]) -> list[str]:
    """``keys`` as a list; refused when empty (per-group SLOs are keyed by the group columns)."""
    if not keys:
        raise ConfigError("per-group SLOs need group keys; pass by=... naming the columns they are "
                          "keyed by.")
    return list(keys)


def group_slos(events: pd.DataFrame, by: Any,
               per: PerGroup) -> tuple[list[str], dict[tuple[str, ...], SLO]]:
    """The group keys of ``by`` (refused when none) and the SLO of each group of ``events`` (its
    keys as text), in the order of the groups' first events."""
    keys = need_group_keys(check_events(events, by))
    key_table = group_key_codes(events, keys)[1]
    rows = key_table.astype(str).itertuples(index=False, name=None)
    slos = per.resolve(key_table)
    warn_unused(per, key_table)  # events: the whole log
    return keys, dict(zip(rows, slos, strict=True))


def per_slo_rows(
    events: pd.DataFrame, per: PerGroup, by: Any, run: Callable[[SLO, pd.DataFrame], pd.DataFrame]
) -> pd.DataFrame:
    """Per-group SLOs for an analysis with one row set per group: ``run(slo, rows)`` once per set
    of groups sharing an SLO, on those groups' rows (:func:`rows_by_slo`); ``attrs["slo"]`` is
    ``per``."""
    keys = need_group_keys(check_events(events, by))
    if len(events) == 0:
        raise InputError("events is empty; there is nothing to break down.")
    out = rows_by_slo(events, per, keys, lambda one, rows: {"rows": run(one, rows)})["rows"]
    out.attrs["slo"] = per.as_dict()
    return out


def rows_by_slo(events: pd.DataFrame, per: PerGroup, keys: Sequence[str],
                run: Callable[[SLO, pd.DataFrame], dict[str, pd.DataFrame]]
                ) -> dict[str, pd.DataFrame]:
    """``run(slo, rows)`` once per set of groups sharing an SLO
    (:func:`~budgetlab.slo_groups.split_by_slo`), on those groups' rows of ``events``; each
    table's rows put in group order (:func:`~budgetlab.windows.groups.group_codes`, the order of
    a run over the whole table), each run's own order kept inside a group, and the first run's
    ``attrs``.
    ``events`` is the whole log: per-group SLOs naming a group it does not have are warned of
    (:func:`~budgetlab.slo_groups.warn_unused`).

    Groups never share a window, so a group's rows are those of a run over the whole table under
    its SLO wherever ``run`` counts nothing across groups: what it counts over the whole log (its
    time span, the default thresholds, ...) it takes from the whole table, not from ``rows``."""
    parts = split_by_slo(events, per, keys, whole=True)
    if len(parts) == 1:
        return run(parts[0][0], events)
    results = [run(one, events.iloc[pos]) for one, pos in parts]
    out = {}
    for name, first in results[0].items():
        frame = pd.concat([r[name] for r in results], ignore_index=True)
        order = np.argsort(group_codes(frame, keys), kind="stable")
        out[name] = frame.iloc[order].reset_index(drop=True)
        out[name].attrs = dict(first.attrs)
    return out


def _ordered(name: str, frame: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    if name == "transitions":
        frame = frame.sort_values("ts", kind="stable")
    elif name == "alerts":
        frame = frame.sort_values([*keys, "start", "tier"], kind="stable")
    elif name in ("spans", "steps"):
        frame = frame.sort_values([*keys, "start"], kind="stable")
    elif name == "tracker":
        frame = worst_first(frame)
    return frame.reset_index(drop=True)


def _merged_attrs(parts: Sequence[tuple[pd.DataFrame, np.ndarray]],
                  per: PerGroup) -> dict[Any, Any]:
    """The first run's ``attrs``, but none that speaks for one SLO's groups only: ``slo`` (a
    replay's) is ``per``, as :func:`budgetlab.replay` under per-group SLOs holds it, and
    ``target`` (:func:`budgetlab.bucket_burn_over_time`'s) is left out when the runs' targets
    differ (each group's is in ``per``); ``replayed_start`` .. ``replayed_end`` (a report's
    transitions) span every run's replay (each SLO reads its own history)."""
    attrs = dict(parts[0][0].attrs)
    if "slo" in attrs:
        attrs["slo"] = per.as_dict()
    for key, pick in (("replayed_start", min), ("replayed_end", max)):  # each SLO's history
        said = [t.attrs[key] for t, _ in parts if t.attrs.get(key) is not None]
        if said:
            attrs[key] = pick(said, key=pd.Timestamp)
    if len({t.attrs.get("target") for t, _ in parts}) > 1:
        del attrs["target"]
    return attrs


def merge_tables(runs: Sequence[tuple[SLO, dict[str, pd.DataFrame]]], keys: Sequence[str],
                 bkeys: Sequence[str], slo_of: dict[tuple[str, ...], SLO],
                 per: PerGroup) -> dict[str, pd.DataFrame]:
    """The report's tables from one run per distinct SLO: ``runs`` holds ``(slo, tables)``;
    ``slo_of`` maps each group (its keys as text) to its SLO, one of ``per``'s. Tables with the
    same rows in every run (``states``, ``tiers``, ``budget``, ``buckets``, ``window_buckets``,
    ``over_time``) keep their order; the others (``spans``, ``steps``, ``transitions``,
    ``tracker``, ``alerts``) are put in their documented order. Their ``attrs`` are the first
    run's, but ``attrs["slo"]`` is ``per`` and ``over_time``'s ``attrs["target"]`` is dropped when
    the groups' targets differ."""
    if not set(keys) <= set(bkeys):
        raise ConfigError("with per-group SLOs the bucket breakdown needs the group "
                          f"keys {list(keys)} among its breakdown_by keys (burn rates depend on "
                          "each group's target); add them to breakdown_by.")
    out: dict[str, pd.DataFrame] = {}
    for name in REPORT_TABLES:
        parts = []
        for slo, tables in runs:
            mine = {k: s == slo for k, s in slo_of.items()}
            table = tables[name]
            parts.append((table, group_mask(table, keys, mine)))
        # the same rows in every run: take each group's rows from its own run
        if name in _SAME_ROWS:
            base = parts[0][0].copy()
            for table, m in parts[1:]:
                if len(table) != len(base):
                    raise ConfigError(f"the per-group replays disagree on the rows of {name}; give "
                                      "one policy for every group (policy=...).")
                base.loc[m] = table.loc[m]
            base.attrs = _merged_attrs(parts, per)
            out[name] = base
            continue
        frames = [t[m] for t, m in parts]
        frame = (
            pd.concat(frames, ignore_index=True)
            if any(len(f) for f in frames)
            else parts[0][0].iloc[0:0]
        )
        frame.attrs = _merged_attrs(parts, per)
        out[name] = _ordered(name, frame, keys)
    return out
