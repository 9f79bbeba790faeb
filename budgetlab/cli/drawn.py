"""The rows a run's timeline draws (``replay --plot``): which groups, their rows and transitions.

:func:`drawn_groups` chooses the groups (all of them up to :data:`MAX_DRAWN`; with more, by
evidence, or by name with ``--plot-groups``) and takes their rows (drawn from the window's
steps: only those outside the steps' observation): a few passes over the rows' group codes and
one over the transitions, then work in the drawn groups only.
:func:`with_rates` derives a drawn group's success rate, burn rate and budget remaining from its
counts (the command line's replay computes them for no row: it keeps ``total``, ``failures``
and ``status``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NamedTuple, cast

import numpy as np
import pandas as pd

from .._util.evidence import most_evidence
from ..slo import SLO, PerGroup, table_slo

__all__ = ["drawn_groups", "with_rates", "group_label", "Group", "DRAWN_COLUMNS", "MAX_DRAWN"]

#: The timeline draws at most this many groups (all up to this many, else the most interesting).
MAX_DRAWN = 4

#: The columns of the states that the timeline draws.
DRAWN_COLUMNS = ("ts", "success_rate", "burn_rate", "remaining_fraction", "status")
#: The drawn columns that can be derived for the drawn rows (from ``total`` and ``failures``).
_DERIVED = ("success_rate", "burn_rate", "remaining_fraction")


class Group(NamedTuple):
    """A drawn group: its key, its table (the drawn columns of its rows; with
    :func:`drawn_groups`'s ``outside``, of those outside the observation only), its transitions
    and the positions of all its rows in the states (those of its events: a replay keeps the
    events' rows; ``None`` without group keys: every row)."""

    key: tuple[Any, ...]
    table: pd.DataFrame
    transitions: pd.DataFrame
    rows: np.ndarray | None


def drawn_groups(states: pd.DataFrame, tr: pd.DataFrame, by: list[str], limit: int = MAX_DRAWN, *,
                 ok: np.ndarray, rates: bool = True, names: list[str] | None = None,
                 outside: tuple[Any, Any] | None = None) -> tuple[list[Group], int]:
    """The groups the timeline draws, with their rows (only the columns drawn) and transitions,
    and the number of groups.

    Up to ``limit`` groups: all of them in key order. More: with ``names`` (``--plot-groups``,
    see :func:`group_label`) those, in the order given; else the ``limit`` with the most
    failures (``ok``: each row's outcome), then the most events, key order breaking ties.
    Success rate, burn rate and budget remaining missing from ``states`` are computed for the
    rows drawn from ``total`` and ``failures`` with the group's SLO (``states.attrs["slo"]``);
    with ``rates=False`` the drawn rows keep ``total`` and ``failures`` instead, for
    :func:`with_rates` to derive them.

    With ``outside`` (``(start, end)``: the observation of the window's steps the timeline draws,
    ``status_spans(...).attrs``), a group's table holds only its rows outside ``[start, end)``:
    what :func:`~budgetlab.plotting.plot_timeline` reads of the states beside the steps (an event
    at the end after a silence is a dot), not a copy of every event; ``rows`` still lists all.
    """
    derived = [c for c in _DERIVED if c not in states.columns]
    if derived and not ({"total",
                         "failures"} <= set(states.columns) and table_slo(states) is not None):
        # nothing to derive them from: drawn as they are (plot_timeline says what is missing)
        derived = []
    cols = [c for c in DRAWN_COLUMNS if c in states.columns] + (["total",
                                                                 "failures"] if derived else [])
    attrs: dict[Hashable, Any] = {"slo": states.attrs["slo"]} if "slo" in states.attrs else {}
    far = None if outside is None else _outside(states["ts"], *outside)

    def table(rows: np.ndarray | None, key: tuple[Any, ...]) -> pd.DataFrame:
        if far is not None:
            rows = np.flatnonzero(far) if rows is None else rows[far[rows]]
        part = states[cols] if rows is None else states[cols].take(rows)
        part = part.reset_index(drop=True)
        part.attrs = dict(attrs)
        return with_rates(part, key) if rates else part

    if not by:
        return [Group((), table(None, ()), tr, None)], 1
    keys, n_groups, picked, bounds = _chosen(states, by, limit, ok, names)
    transitions = _group_transitions(tr, by, keys)
    out = []
    for i, key in enumerate(keys):
        rows = picked[bounds[i]:bounds[i + 1]]
        out.append(Group(key, table(rows, key), transitions[i], rows))
    return out, n_groups


def _outside(ts: pd.Series, start: Any, end: Any) -> np.ndarray:
    """Which times of ``ts`` lie outside the observation ``[start, end)`` (one pass).

    >>> ts = pd.Series(pd.to_datetime(["2026-01-01 00:00", "2026-01-01 01:00",
    ...                                "2026-01-01 02:00"], utc=True))
    >>> _outside(ts, ts[1], ts[2]).tolist()
    [True, False, True]
    """
    from .._util.validation import utc_ns_column

    t = utc_ns_column(ts, "states['ts']")
    return np.asarray((t < pd.Timestamp(start).value) | (t >= pd.Timestamp(end).value))


def _chosen(states: pd.DataFrame, by: list[str], limit: int, ok: np.ndarray,
            names: list[str] | None
            ) -> tuple[list[tuple[Any, ...]], int, np.ndarray, np.ndarray]:
    """``(keys, n_groups, picked, bounds)``: the drawn groups' keys, the number of groups, the
    drawn rows (grouped, table order inside) and where each group's rows start in them."""
    from ..windows.groups import group_codes

    # key-ordered codes, possibly with gaps (unused categories): no pass to make them dense
    code = group_codes(states, by, dense=False).astype(np.intp)
    counts = np.bincount(code) if len(code) else np.zeros(0, dtype=np.int64)
    present = np.flatnonzero(counts)
    n_groups = len(present)
    if names:
        chosen = _named(states, by, code, present, names)
    elif n_groups > limit:  # evidence: the most failures, then the most events
        failures = np.bincount(code[~np.asarray(ok, dtype=bool)], minlength=len(counts))
        chosen = present[most_evidence(failures[present], counts[present])[:limit]]
    else:
        chosen = present
    # each drawn group's rows (table order): one comparison pass per drawn group, no sort
    picked = np.concatenate(
        [np.flatnonzero(code == c) for c in chosen] or [np.zeros(0, dtype=np.int64)]
    )
    bounds = np.r_[0, np.cumsum(counts[chosen])].astype(np.int64)
    key_frame = states[by]
    keys = [tuple(key_frame.iloc[int(picked[bounds[i]])]) for i in range(len(chosen))]
    return keys, n_groups, picked, bounds


def _group_transitions(
    tr: pd.DataFrame, by: list[str], keys: list[tuple[Any, ...]]
) -> list[pd.DataFrame]:
    """The transitions of each drawn group (one pass over the transitions)."""
    text_keys = pd.MultiIndex.from_tuples([tuple(str(v) for v in k) for k in keys], names=by)
    tr_keys = pd.MultiIndex.from_frame(tr[by].astype(str)) if len(tr) else text_keys[:0]
    tr_code = text_keys.get_indexer(tr_keys)
    tr_kept = tr.iloc[np.flatnonzero(tr_code >= 0)]
    tr_kept_code = tr_code[tr_code >= 0]
    tr_order = np.argsort(tr_kept_code, kind="stable")
    tr_bounds = np.searchsorted(tr_kept_code[tr_order], np.arange(len(keys) + 1))
    return [tr_kept.iloc[tr_order[tr_bounds[i]:tr_bounds[i + 1]]] for i in range(len(keys))]


def group_label(key: tuple[Any, ...]) -> str:
    """A group's name as ``--plot-groups`` takes it: its key values joined by ``/``."""
    return "/".join(str(v) for v in key)


def _named(states: pd.DataFrame, by: list[str], code: np.ndarray, present: np.ndarray,
           names: list[str]
           ) -> np.ndarray:
    """The codes of the groups named (``--plot-groups``), in the order given; an unknown name is
    an error that lists some of the names there are."""
    from ..errors import ConfigError

    first = np.full(int(code.max()) + 1 if len(code) else 0, -1, dtype=np.int64)
    first[code[::-1]] = np.arange(len(code) - 1, -1, -1)
    key_frame = states[by]
    label = {group_label(tuple(key_frame.iloc[int(first[c])])): int(c) for c in present}
    missing = [n for n in names if n not in label]
    if missing:
        some = ", ".join(sorted(label)[:8]) + (", ..." if len(label) > 8 else "")
        raise ConfigError(f"--plot-groups: no group named {', '.join(missing)}; groups are named "
                          "by their "
                          f"{'/'.join(by)} values, e.g. {some}.")
    return np.array(list(dict.fromkeys(label[n] for n in names)), dtype=np.int64)


def with_rates(part: pd.DataFrame, key: tuple[Any, ...]) -> pd.DataFrame:
    """A drawn group's table (:func:`drawn_groups` with ``rates=False``) with its success rate,
    burn rate and budget remaining computed from ``total`` and ``failures`` with group ``key``'s
    SLO (:func:`~budgetlab.budget.figures.seed_figures`, as the replay does: bit for bit its
    figures), in the drawn columns' order; a table without those two columns as it is."""
    if not {"total", "failures"} <= set(part.columns):
        return part
    from ..budget.figures import seed_figures

    slo = table_slo(part)
    own = slo.slo_for(key) if isinstance(slo, PerGroup) else slo
    target = cast(SLO, own).target  # drawn_groups keeps the counts only with an SLO or a PerGroup
    derived = [c for c in _DERIVED if c not in part.columns]
    columns = {c: part[c].array for c in part.columns}
    columns.update(seed_figures(np.asarray(columns.pop("total")),
                                np.asarray(columns.pop("failures")), target,
                                columns=derived))
    out = pd.DataFrame({c: columns[c] for c in DRAWN_COLUMNS if c in columns}, copy=False)
    out.attrs = dict(part.attrs)
    return out
