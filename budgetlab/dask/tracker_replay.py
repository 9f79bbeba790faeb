"""``replay`` and ``transitions`` on Dask: each group shuffled whole into one partition and
replayed there by the pandas kernel, bit-identical to :func:`budgetlab.replay`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd
from dask.base import compute
from dask.dataframe.utils import has_known_categories
from dask.delayed import delayed

from .._util.attrs import span_attrs
from .._util.validation import check_argument, check_whole
from ..budget.figures import STATUS_DTYPE
from ..budget.replay_status import REPLAY_COLUMNS, check_state_types, lacked_state_columns
from ..budget.status_changes import change_rows
from ..budget.status_changes import transitions as pandas_transitions
from ..budget.tracker_replay import replay_table
from ..errors import ConfigError, InputError
from ..events.schema import ts_ns
from ..slo import SLO, PerGroup, as_per_group, as_slo, table_slo
from ._partitions import check_dask_events, partition_number, require_dask_frame

__all__ = ["EVENT_ID", "ROW_BITS", "replay", "transitions"]

#: Index name of :func:`replay`'s states: the event's position in the events frame.
EVENT_ID = "event_id"
#: ``event_id = partition number << ROW_BITS | row within the partition``.
ROW_BITS = 40


def _tag_rows(part: pd.DataFrame, partition_info: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Add ``event_id``: partition number << ROW_BITS | row within the partition."""
    number = partition_number(partition_info)
    if len(part) >= 1 << ROW_BITS:
        raise InputError(f"partition {number} has more than 2**{ROW_BITS} rows; repartition the "
                         "events.")
    ids = (np.int64(number) << np.int64(ROW_BITS)) + np.arange(len(part), dtype=np.int64)
    return part.assign(**{EVENT_ID: ids})


def _replay_partition(part: pd.DataFrame, slo: SLO | PerGroup, keys: list[str],
                      columns: list[str] | None = None,
                      groups: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every group of this partition in full: sort by (ts, event_id), then the pandas kernel
    (whose ``attrs``, the same in every partition, ``compute`` keeps). ``groups``: every group
    of the events, so that a missing SLO is refused naming all groups without one, as pandas
    does, not only this partition's."""
    if groups is not None and isinstance(slo, PerGroup):
        slo.resolve(groups)
    order = np.lexsort((part[EVENT_ID].to_numpy(), ts_ns(part)))
    part = part.iloc[order]
    part = part.set_index(EVENT_ID)
    # a partition is a part of the log: its span and its groups are not the log's, and the
    # pandas kernel's warnings on them (a window longer than the data, SLO groups the events
    # lack) would name a partition's facts as the log's. The kernel is told not to warn: a
    # warnings.catch_warnings filter swaps the whole process's filters, not safe on the worker
    # threads of Dask's threaded scheduler (one partition restores another's)
    return replay_table(part, slo, by=keys or None, columns=columns, warn=False)


def _sorted_keys(groups: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The distinct group keys in pandas' group order."""
    return groups.sort_values(keys, na_position="last")


def replay(
    events: dd.DataFrame,
    slo: SLO | PerGroup | Mapping[Any, Any],
    *,
    by: str | Sequence[str] | None = None,
    npartitions: int | None = None,
    shuffle_method: str | None = None,
    columns: Iterable[str] | None = None,
) -> dd.DataFrame:
    """Replay the seed's rolling-window tracker over every event, per group, on Dask.

    Events are tagged with ``event_id``, shuffled so that each group lands whole in one
    partition, sorted by ``(ts, event_id)`` and replayed there by the pandas kernel
    (:func:`budgetlab.replay`): the figures are bit-identical to the pandas path.

    Parameters
    ----------
    events : dask DataFrame
        From :func:`read_events`.
    slo : SLO, PerGroup or mapping
        Target, window, thresholds and ``min_events``; per group as in :func:`budgetlab.replay`
        (a :class:`~budgetlab.PerGroup` or ``{group key: SLO or target}``; each partition replays
        its whole groups with their own SLOs, so the states equal the pandas path's, bit for
        bit). Groups without an SLO are an error naming them all when the states are computed.
        Unlike the pandas path, no warning says that the window is longer than the data or that
        the SLOs name groups the events lack: each partition sees a part of the log only.
    by : str or list of str, optional
        Group keys; each group is replayed by its own tracker. Without ``by`` the whole table
        is one group and goes to one partition (per-group SLOs need ``by``).
    npartitions : int, optional
        Partitions after the shuffle (default: as many as ``events`` has).
    shuffle_method : str, optional
        Dask's shuffle method (``"p2p"``, ``"tasks"``, ``"disk"``; default: Dask's choice).
    columns : list of str, optional
        Only these replay columns, as in :func:`budgetlab.replay` (``ts`` and the group keys
        always kept); :func:`transitions` needs them all or ``total``, ``failures`` and
        ``status``.

    Returns
    -------
    dask DataFrame
        Lazy states with the columns of :func:`budgetlab.replay` (``ts``, the group keys,
        ``total``, ``successes``, ``failures``, ``success_rate``, ``budget_total``,
        ``budget_remaining``, ``remaining_fraction``, ``burn_rate``, ``status``, ``low_traffic``;
        only those in ``columns`` when given), indexed by ``event_id`` (int64; sorting by it gives
        the order of ``events``). Each partition holds whole groups, rows sorted by
        ``(ts, event_id)``. ``attrs`` are those of :func:`budgetlab.replay` (``slo``, ``by``),
        kept by ``compute()``. ``budgetlab.replay_summary(states.compute().sort_index()
        .sort_values("ts", kind="stable"), events.compute().sort_values("ts", kind="stable"))``
        is the summary of the pandas path (it takes the states in the order of the events, and
        the events in time order: a Dask event table is sorted within each partition only, so
        with files not in time order ``events.compute()`` is not).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> states = replay(dd.from_pandas(ev, npartitions=3, sort=False), SLO(target=0.95,
    ...                                                                    window="1h"))
    >>> last = states.compute().sort_index().iloc[-1]
    >>> last["budget_total"], last["status"]
    (np.float64(1.0000000000000009), 'critical')
    """
    keys = check_dask_events(events, by, "budgetlab.replay")
    per_group = as_per_group(slo)
    if per_group is None:
        slo = as_slo(slo)
    elif not keys:
        raise ConfigError("per-group SLOs need group keys; pass by= naming the columns the SLOs "
                          "are keyed by.")
    else:
        slo = per_group
    if npartitions is not None:
        check_whole("npartitions", npartitions, low=1)
    if shuffle_method is not None:
        check_argument("shuffle_method", shuffle_method, ("p2p", "tasks", "disk"))
    frame = events[list(dict.fromkeys(["ts", "ok", *keys]))]
    meta_in = frame._meta.assign(**{EVENT_ID: np.zeros(0, dtype=np.int64)})
    tagged = frame.map_partitions(_tag_rows, meta=meta_in)
    if keys:
        tagged = tagged.shuffle(on=keys, npartitions=npartitions or events.npartitions,
                                shuffle_method=shuffle_method)
    else:
        tagged = tagged.repartition(npartitions=1)
    wanted = None if columns is None else [columns] if isinstance(columns, str) else list(columns)
    meta = _replay_partition(meta_in, slo, keys, wanted)  # also checks the names
    groups = None
    if isinstance(slo, PerGroup) and slo.default is None:  # a group may lack an SLO
        groups = delayed(_sorted_keys)(frame[keys].drop_duplicates(), keys)
    states: dd.DataFrame = tagged.map_partitions(_replay_partition, slo, keys, wanted, groups,
                                                 meta=meta, clear_divisions=True)
    return states


def _transitions_partition(part: pd.DataFrame, keys: list[str]
                           ) -> tuple[pd.DataFrame | None, pd.DataFrame | None, pd.Series]:
    """This partition's transitions (tagged with ``event_id``), its groups and the first and
    last time of its states (the span the pandas ``attrs`` count, over every partition)."""
    groups = part[keys].drop_duplicates(ignore_index=True) if keys else None
    if len(part) == 0:
        return None, groups, part["ts"].iloc[:0]
    tr = pandas_transitions(part)
    rows = change_rows(part["status"].cat.codes.to_numpy(), part, keys)[0]
    ids = np.asarray(part.index, dtype=np.int64)[rows]
    if len(ids) != len(tr):  # pragma: no cover - guards against a change in budgetlab.transitions
        raise RuntimeError("budgetlab.dask.transitions is out of step with budgetlab.transitions.")
    ts = part["ts"]
    return tr.assign(**{EVENT_ID: ids}), groups, ts.iloc[[int(ts.argmin()), int(ts.argmax())]]


def _check_figures(frame: dd.DataFrame) -> None:
    """Refuse, as :func:`budgetlab.transitions` does, states without the figure columns and
    without ``total``, ``failures`` and the SLO to compute them from."""
    missing = [c for c in REPLAY_COLUMNS[1:-1] if c not in frame.columns]
    if not missing or ({"total", "failures"} <= set(frame.columns)
                       and isinstance(table_slo(frame._meta), (SLO, PerGroup))):
        return
    raise InputError(f"transitions() needs the replay's figure columns ({', '.join(missing)} "
                     "missing), or total and failures with the SLO in the states' attrs; run "
                     "budgetlab.dask.replay() without columns=, or with columns= naming total, "
                     "failures and status.")


def transitions(states: dd.DataFrame) -> pd.DataFrame:
    """The status changes of a Dask replay, as a pandas table equal to
    :func:`budgetlab.transitions`.

    Runs the pandas function on every partition (each holds whole groups) and merges the
    results in time order (ties in the order of the events).

    Parameters
    ----------
    states : dask DataFrame
        Output of :func:`replay` (not repartitioned: each group must sit in one partition), with
        every column or, as :func:`budgetlab.transitions` takes them, lean:
        ``columns=["total", "failures", "status"]`` (the figures of the changed rows are then
        computed from the counts and the SLO, the same table). States without ``ts`` or
        ``status``, or whose ``ts`` is not UTC times or ``status`` not the replay's statuses, are
        refused as :func:`budgetlab.transitions` refuses them, in its words.

    Returns
    -------
    DataFrame
        As :func:`budgetlab.transitions`: ``ts``, the group keys, ``from_status``, ``to_status``,
        ``current_rate``, ``total_events``, ``successes``, ``failures``, ``budget_total``,
        ``budget_remaining``, ``budget_remaining_pct``, ``burn_rate``; a fresh RangeIndex.
        ``attrs`` as :func:`budgetlab.transitions`'s: the states' ``slo`` and ``by`` and
        ``start`` .. ``end``, the first and the last event of all partitions.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=6, freq="10min"),
    ...                [True, False, True, True, False, False],
    ...                groups={"region": ["fra", "ams"] * 3})
    >>> states = replay(dd.from_pandas(ev, npartitions=2, sort=False), SLO(target=0.9, window="1h"),
    ...                 by="region")
    >>> transitions(states)[["ts", "region", "from_status", "to_status"]]
                             ts region from_status  to_status
    0 2026-01-01 00:10:00+00:00    ams     healthy  exhausted
    1 2026-01-01 00:40:00+00:00    fra     healthy  exhausted
    """
    frame = require_dask_frame(states, "states", "budgetlab.transitions")
    made_by = "the dask DataFrame returned by budgetlab.dask.replay()"
    if not {"ts", "status"} <= set(frame.columns):  # budgetlab.transitions' check, in Dask's names
        raise InputError(f"transitions() takes {made_by}{lacked_state_columns(frame.columns)}.")
    meta = frame._meta
    if isinstance(meta["status"].dtype, pd.CategoricalDtype) and \
            not has_known_categories(meta["status"]):  # type: ignore[no-untyped-call]
        # unknown to Dask: the pandas function checks each partition's
        meta = meta.assign(status=meta["status"].astype(STATUS_DTYPE))
    check_state_types(meta, "transitions", made_by)
    _check_figures(frame)
    keys = [str(c) for c in frame.columns if c not in REPLAY_COLUMNS]
    parts = frame.to_delayed()  # type: ignore[no-untyped-call]
    results = compute(*[delayed(_transitions_partition)(p, keys) for p in parts])  # type: ignore[no-untyped-call]
    if keys:
        seen = pd.concat([g for _, g, _ in results if g is not None], ignore_index=True)
        if seen.duplicated().any():
            raise InputError(
                "a group spans several partitions of states; pass the states of "
                "budgetlab.dask.replay() "
                "without repartitioning or shuffling them."
            )
    found = [t for t, _, _ in results if t is not None]
    if not found:
        return pandas_transitions(frame._meta.iloc[:0])
    out = pd.concat(found, ignore_index=True)
    order = np.lexsort((out[EVENT_ID].to_numpy(), ts_ns(out)))
    result: pd.DataFrame = out.iloc[order].drop(columns=EVENT_ID).reset_index(drop=True)
    # the attrs of the pandas function: the states' own (the same in every partition), and the
    # span of the events of all partitions
    span = pd.concat([s for _, _, s in results if len(s)], ignore_index=True)
    attrs: dict[Any, Any] = {**found[0].attrs, **span_attrs(span)}
    result.attrs = attrs
    return result
