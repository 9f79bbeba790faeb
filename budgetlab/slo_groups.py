"""Per-group SLOs applied to a table's groups: the rows each SLO covers
(:func:`split_by_slo`), and the groups an SLO names that the table does not have
(:func:`warn_unused`: said, never refused)."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from ._util.words import say, some_named
from .errors import BudgetlabWarning, ConfigError
from .slo import SLO, PerGroup, key_label, key_text

__all__ = ["split_by_slo", "warn_unused"]


def split_by_slo(frame: pd.DataFrame, slos: PerGroup, by: Sequence[str], *,
                 whole: bool = False) -> list[tuple[SLO, np.ndarray]]:
    """Rows of ``frame`` per distinct SLO: ``[(slo, positions), ...]``, positions ascending, in the
    order of each SLO's first group (groups in key order). Running a grouped computation on each
    part with its SLO and putting the rows back gives the per-group result exactly, since groups
    never share a window. ``whole``: ``frame`` is the caller's whole log, whose groups
    :func:`warn_unused` compares with those ``slos`` names.

    >>> ev = pd.DataFrame({"t": ["a", "b", "a", "c"]})
    >>> parts = split_by_slo(ev, PerGroup({"a": 0.9, "b": 0.99}, default=0.9), ["t"])
    >>> [(s.target, p.tolist()) for s, p in parts]
    [(0.9, [0, 2, 3]), (0.99, [1])]
    """
    if not by:
        raise ConfigError("per-group SLOs need group keys; pass by= naming the columns the SLOs "
                          "are keyed by.")
    grouped = frame.groupby(list(by), sort=True, dropna=False, observed=True)
    codes = grouped.ngroup().to_numpy(dtype=np.int64)
    keys = grouped.size().reset_index()[list(by)]
    per_group = slos.resolve(keys)
    if whole:
        warn_unused(slos, keys)
    distinct: dict[SLO, int] = {}
    slo_code = np.array([distinct.setdefault(s, len(distinct)) for s in per_group], dtype=np.int64)
    row_slo = slo_code[codes] if len(codes) else np.zeros(0, dtype=np.int64)
    order = np.argsort(row_slo, kind="stable")
    bounds = np.searchsorted(row_slo[order], np.arange(len(distinct) + 1))
    return [(s, order[bounds[i]:bounds[i + 1]]) for s, i in distinct.items()]


def warn_unused(slos: PerGroup | Iterable[tuple[str, ...]], keys: pd.DataFrame, *,
                option: str = "slo") -> None:
    """A :class:`~budgetlab.errors.BudgetlabWarning` (the CLI prints it as one line) when
    ``slos`` names groups that ``keys``, every group of the log (one row each, the ``by``
    columns in order), does not have: their SLOs are not used. It names them as given, and the
    log's groups sorted (nothing without events). Not a refusal, as one SLO file may list more
    services than a log holds; :meth:`PerGroup.resolve` stays silent, as per-SLO runs resolve a
    part of the groups. ``slos`` may be the keys (:func:`key_text`) of a per-group table given
    as the keyword ``option`` (``target=``).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_unused(PerGroup({"GET": 0.99, "GTE": 0.9}), pd.DataFrame({"m": ["HEAD", "GET"]}))
    >>> print(caught[0].message)
    slo= names GTE, which the events do not have (their groups: GET, HEAD): not used.
    """
    have = {key_text(row) for row in keys.itertuples(index=False, name=None)}
    unused = [key_label(k) for k in (slos.table if isinstance(slos, PerGroup) else slos)
              if k not in have]
    if not unused or not have:  # no events: no group to compare with
        return

    binding = slos.binding if isinstance(slos, PerGroup) else None
    given = say(f"{option}=", "--target" if (binding or "").startswith("--target") else "--slo")
    lacks = say("the events do not have (their groups", "the log does not have (its groups")
    groups = some_named([key_label(k) for k in sorted(have)], _SHOWN)
    warnings.warn(BudgetlabWarning(f"{given} names {some_named(unused, _SHOWN)}, which {lacks}: "
                                   f"{groups}): not used."), stacklevel=2)


#: How many groups a warning names before "and N more".
_SHOWN = 8
