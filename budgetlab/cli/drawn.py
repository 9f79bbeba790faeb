"""The rows a run's timeline draws (``replay --plot``): which groups, their rows and transitions.

:func:`select_drawn` chooses the groups and finds their rows (passes over the group codes, pandas
work on the transitions and keys) and gives a :class:`DrawnRows`; its :meth:`~DrawnRows.take`
gathers the drawn columns with numpy alone when they are numpy columns, as a replay's are (no
pandas object is touched, so a thread may do it while the run goes on:
:mod:`budgetlab.cli.plot_worker` streams the arrays to the process that draws; other columns are
taken with pandas, and sent with the job), and :meth:`~DrawnRows.groups` builds each group's
table from them.
:func:`drawn_groups` does the three in a row.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import numpy as np
import pandas as pd

from .._util.codes import category_codes
from ..slo import SLO, PerGroup

__all__ = ["DrawnRows", "select_drawn", "drawn_groups", "with_rates", "DRAWN_COLUMNS", "MAX_DRAWN"]

#: The timeline draws at most this many groups (all up to this many, else the most interesting).
MAX_DRAWN = 4

#: The columns of the states that the timeline draws.
DRAWN_COLUMNS = ("ts", "success_rate", "burn_rate", "remaining_fraction", "status")
#: The drawn columns that can be derived for the drawn rows (from ``total`` and ``failures``).
_RATE_COLUMNS = ("success_rate", "burn_rate")

Group = tuple[tuple[Any, ...], pd.DataFrame, pd.DataFrame]


def _numpy_column(col: pd.Series) -> tuple[Any, Any]:
    """A column as numpy values and the dtype that rebuilds it (:func:`_rebuilt`): a zoned time
    as its int64 ticks, a categorical as its codes, a numpy column as it is (read-only views, no
    copy: pandas does not see them, and nothing may write through them while a thread takes the
    rows); any other column as its pandas array (``None``: rebuilt as it is)."""
    dtype: Any = col.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        values = np.asarray(col.array.asi8)
    elif isinstance(dtype, pd.CategoricalDtype):
        values = category_codes(col)
    elif isinstance(dtype, np.dtype) and not dtype.hasobject:
        values, dtype = col.to_numpy(), None
    else:
        return col.array, None
    values = values.view()
    values.flags.writeable = False
    return values, dtype


def _rebuilt(values: Any, dtype: Any) -> Any:
    """The column :func:`_numpy_column` took apart, as a pandas array of its own dtype."""
    if isinstance(dtype, pd.DatetimeTZDtype):
        ticks = pd.array(np.asarray(values).view(f"datetime64[{dtype.unit}]"))
        return ticks.tz_localize("UTC").tz_convert(dtype.tz)  # the ticks are UTC: exact in any zone
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Categorical.from_codes(values, dtype=dtype, validate=False)
    return values


class DrawnRows:
    """The rows of the groups a timeline draws (:func:`select_drawn`): the groups' keys, their
    transitions, where each group's rows are in the states (``picked``, grouped, table order
    inside) and the states' columns as numpy values. :meth:`take` gathers them, :meth:`attach`
    sets the gathered arrays (in the process that draws), :meth:`groups` builds the tables.
    Pickled without the states' columns: only what :meth:`groups` needs once attached."""

    def __init__(self, keys: list[tuple[Any, ...]], n_groups: int, bounds: np.ndarray, transitions: list[pd.DataFrame],
                 sources: dict[str, tuple[Any, Any]], picked: np.ndarray | None, attrs: dict[str, Any]) -> None:
        self.keys, self.n_groups, self.bounds, self.transitions = keys, n_groups, bounds, transitions
        self.sources, self.picked, self.attrs = sources, picked, attrs
        self.dtypes = {name: dtype for name, (_, dtype) in sources.items()}
        self.taken: list[Any] | None = None
        #: Each drawn group's spans on the window's clock (set by the run; ``None``: not drawn).
        self.spans: list[pd.DataFrame] | None = None
        #: Whether the groups were chosen by name (``--plot-groups``).
        self.named = False

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "sources": {}, "picked": None}

    @property
    def raw(self) -> bool:
        """Whether every column is a plain numpy array (so its bytes can be sent as they are)."""
        return all(isinstance(v, np.ndarray) and not v.dtype.hasobject and len(v.dtype.str) <= 16
                   for v, _ in self.sources.values())

    def specs(self) -> list[tuple[np.dtype[Any], int]]:
        """The dtype and length of each array :meth:`take` yields, in order (``raw`` columns)."""
        n = len(self.picked) if self.picked is not None else int(self.bounds[-1])
        return [(cast(np.ndarray, v).dtype, n) for v, _ in self.sources.values()]

    def take(self) -> Iterator[Any]:
        """The drawn rows of each column, in order: one numpy (or pandas array) take each, no
        pandas object touched for numpy columns (safe in a thread while the run goes on)."""
        for values, _ in self.sources.values():
            yield values if self.picked is None else values.take(self.picked)

    def attach(self, arrays: list[Any]) -> DrawnRows:
        """Set the gathered columns (what :meth:`take` yielded, here or in another process)."""
        self.taken = arrays
        return self

    def groups(self, *, rates: bool = True) -> list[Group]:
        """``(key, table, transitions)`` per drawn group (see :func:`drawn_groups`)."""
        if self.taken is None:
            raise RuntimeError("DrawnRows.groups before attach(): take the rows first")
        columns = dict(zip(self.dtypes, self.taken, strict=True))
        names = [c for c in DRAWN_COLUMNS if c in columns] + [c for c in ("total", "failures") if c in columns]
        out = []
        for i, key in enumerate(self.keys):
            lo, hi = int(self.bounds[i]), int(self.bounds[i + 1])
            part = pd.DataFrame({c: _rebuilt(columns[c][lo:hi], self.dtypes[c]) for c in names}, copy=False)
            part.attrs.update(self.attrs)
            out.append((key, with_rates(part, key) if rates else part, self.transitions[i]))
        return out


def select_drawn(states: pd.DataFrame, tr: pd.DataFrame, by: list[str], limit: int, *,
                 ok: np.ndarray | None = None, names: list[str] | None = None) -> DrawnRows:
    """Choose the groups the timeline draws and find their rows (see :func:`drawn_groups`); the
    drawn columns are gathered later (:meth:`DrawnRows.take`). ``ok`` (each row's outcome)
    ranks the groups by evidence; ``names`` chooses them by name (:func:`group_label`)."""
    from ..windows.groups import group_codes

    derived = [c for c in _RATE_COLUMNS if c not in states.columns]
    if derived and not ({"total", "failures"} <= set(states.columns) and isinstance(states.attrs.get("slo"),
                                                                                    (SLO, PerGroup))):
        derived = []  # nothing to derive them from: drawn as they are (plot_timeline says what is missing)
    cols = [c for c in DRAWN_COLUMNS if c in states.columns] + (["total", "failures"] if derived else [])
    sources = {c: _numpy_column(states[c]) for c in cols}
    attrs = {"slo": states.attrs["slo"]} if "slo" in states.attrs else {}
    if not by:
        return DrawnRows([()], 1, np.array([0, len(states)]), [tr], sources, None, attrs)
    # key-ordered codes, possibly with gaps (unused categories): no pass to make them dense
    code = group_codes(states, by, dense=False).astype(np.intp)  # numpy's index type: no conversion per pass
    counts = np.bincount(code) if len(code) else np.zeros(0, dtype=np.int64)
    present = np.flatnonzero(counts)
    n_groups = len(present)
    if names:
        chosen = _named(states, by, code, present, names)
    elif n_groups > limit and ok is not None:  # evidence: the most failures, then the most events
        failures = np.bincount(code, weights=~np.asarray(ok, dtype=bool), minlength=len(counts))
        chosen = present[np.lexsort((np.arange(n_groups), -counts[present], -failures[present]))[:limit]]
    elif n_groups > limit:
        status = category_codes(states["status"])
        worst = np.zeros(len(counts), dtype=status.dtype)  # the same dtype: numpy's fast ufunc.at
        np.maximum.at(worst, code, status)
        remaining = states["remaining_fraction"].to_numpy(dtype=float)
        total = np.zeros(len(counts))
        np.add.at(total, code, remaining)  # (bincount's weights would copy the read-only column first)
        if np.isnan(total).any():  # rare: NaN counts as a full budget (a copy of the column only then)
            total[:] = 0.0
            np.add.at(total, code, np.nan_to_num(remaining, nan=1.0))
        low = total[present] / counts[present]
        chosen = present[np.lexsort((np.arange(n_groups), low, -worst[present].astype(np.int64)))[:limit]]
    else:
        chosen = present
    # the drawn groups' rows in one pass over the codes (rank of each code among the chosen, or -1)
    rank = np.full(len(counts), -1, dtype=np.int8 if len(chosen) < 127 else np.int64)  # int8: a radix sort
    rank[chosen] = np.arange(len(chosen))
    row_rank: np.ndarray = rank[code]
    picked = np.flatnonzero(row_rank >= 0)
    picked = picked[np.argsort(row_rank[picked], kind="stable")]  # by group, table order inside
    bounds = np.r_[0, np.cumsum(counts[chosen])]
    key_frame = states[by]
    keys = [tuple(key_frame.iloc[int(picked[bounds[i]])]) for i in range(len(chosen))]
    text_keys = pd.MultiIndex.from_tuples([tuple(str(v) for v in k) for k in keys], names=by)
    tr_keys = pd.MultiIndex.from_frame(tr[by].astype(str)) if len(tr) else text_keys[:0]
    tr_code = text_keys.get_indexer(tr_keys)
    tr_kept = tr.iloc[np.flatnonzero(tr_code >= 0)]
    tr_kept_code = tr_code[tr_code >= 0]
    tr_order = np.argsort(tr_kept_code, kind="stable")
    tr_bounds = np.searchsorted(tr_kept_code[tr_order], np.arange(len(keys) + 1))
    transitions = [tr_kept.iloc[tr_order[tr_bounds[i]:tr_bounds[i + 1]]] for i in range(len(keys))]
    drawn = DrawnRows(keys, n_groups, bounds, transitions, sources, picked, attrs)
    drawn.named = bool(names)
    return drawn


def group_label(key: tuple[Any, ...]) -> str:
    """A group's name as ``--plot-groups`` takes it: its key values joined by ``/``."""
    return "/".join(str(v) for v in key)


def _named(states: pd.DataFrame, by: list[str], code: np.ndarray, present: np.ndarray, names: list[str]
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
        raise ConfigError(f"--plot-groups: no group named {', '.join(missing)}; groups are named by their "
                          f"{'/'.join(by)} values, e.g. {some}.")
    return np.array(list(dict.fromkeys(label[n] for n in names)), dtype=np.int64)


def drawn_groups(states: pd.DataFrame, tr: pd.DataFrame, by: list[str], limit: int = MAX_DRAWN, *, rates: bool = True
                 ) -> tuple[list[Group], int]:
    """The groups the timeline draws, with their rows (only the columns drawn) and transitions,
    and the number of groups. Up to ``limit`` groups: all of them in key order; more: the
    ``limit`` most interesting, worst first (the worst status reached, then the lowest mean
    budget remaining over the group's events, then key order). Costs a few passes over the
    rows' group codes and one over the transitions, then work in the drawn groups only: never a
    sort of all rows, never a mask over all transitions per group. Success and burn rates
    missing from ``states`` (a replay with :data:`~budgetlab.cli.replay.PLOT_COLUMNS`) are
    computed for the rows drawn from ``total`` and ``failures`` with the group's SLO
    (``states.attrs["slo"]``); with ``rates=False`` the drawn rows keep ``total`` and
    ``failures`` instead, for :func:`with_rates` to derive them later.

    :func:`select_drawn`, :meth:`DrawnRows.take` and :meth:`DrawnRows.groups` in a row."""
    rows = select_drawn(states, tr, by, limit)
    return rows.attach(list(rows.take())).groups(rates=rates), rows.n_groups


def with_rates(part: pd.DataFrame, key: tuple[Any, ...]) -> pd.DataFrame:
    """A drawn group's table (:func:`drawn_groups` with ``rates=False``) with its success and
    burn rates computed from ``total`` and ``failures`` with group ``key``'s SLO
    (:func:`~budgetlab.budget.figures.seed_figures`, as the replay does: bit for bit its
    figures), in the drawn columns' order; a table without those two columns as it is."""
    if not {"total", "failures"} <= set(part.columns):
        return part
    from ..budget.figures import seed_figures

    slo = part.attrs.get("slo")
    own = slo.slo_for(key) if isinstance(slo, PerGroup) else slo
    target = cast(SLO, own).target  # drawn_groups keeps the counts only with an SLO or a PerGroup
    derived = [c for c in _RATE_COLUMNS if c not in part.columns]
    columns = {c: part[c].array for c in part.columns}
    columns.update(seed_figures(np.asarray(columns.pop("total")), np.asarray(columns.pop("failures")), target,
                                columns=derived))
    out = pd.DataFrame({c: columns[c] for c in DRAWN_COLUMNS if c in columns}, copy=False)
    out.attrs = dict(part.attrs)
    return out
