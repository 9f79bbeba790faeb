"""How the SRE model reads a target: one number, an :class:`~budgetlab.SLO`, a target table or
per-group SLOs, as one target per group of the bin grid (:func:`target_array`) and its error
budget (:func:`error_budgets`, the one place the SRE model writes ``1 - target``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import check_fraction
from ..errors import ConfigError
from ..slo import SLO, as_per_group
from ..slo_groups import warn_unused
from ..windows.bingrid import BinGrid

__all__ = ["group_slos", "target_array", "error_budgets"]


def _check_target_value(value: Any, what: str = "target") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ConfigError(f"{what} must be a number in (0, 1) such as 0.999, or an SLO.")
    return check_fraction(what, value)  # the one fraction check (95: "use a fraction: 0.95")


def group_slos(target: Any, grid: BinGrid) -> list[SLO] | None:
    """The SLO of every group of ``grid`` when ``target`` is per-group (a
    :class:`~budgetlab.PerGroup`
    or a mapping ``{group key: SLO or target}``), else ``None``.

    Groups are matched by their keys in ``grid.by`` order (a value, or a tuple for several
    keys); groups without an SLO are one error naming them (unless the ``PerGroup`` has a default).

    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> from budgetlab.windows.bins import read_bins
    >>> ev = as_events(["2026-01-01", "2026-01-01"], [True, True], groups={"t": ["a", "b"]})
    >>> [s.target for s in group_slos({"a": 0.9, "b": 0.99}, read_bins(bin_events(ev, "1min",
    ...                                                                           by="t")))]
    [0.9, 0.99]
    """
    per_group = as_per_group(target)
    if per_group is None:
        return None
    if not grid.by:
        raise ConfigError("per-group SLOs need grouped bins; bin the events with by= naming the "
                          "columns the SLOs are keyed by.")
    slos = per_group.resolve(grid.keys[list(grid.by)])
    warn_unused(per_group, grid.keys[list(grid.by)])  # the bins: the whole log
    return slos


def target_array(target: Any, grid: BinGrid) -> np.ndarray:
    """Per-group targets as a float array of length ``grid.n_groups``.

    ``target`` is a number (``0.999``), an :class:`~budgetlab.SLO` (its ``target``), a
    DataFrame with a ``target`` column and one or more group-key columns (e.g.
    ``captcha_type``), which must give every group exactly one target, or per-group SLOs (a
    :class:`~budgetlab.PerGroup` or a mapping, see :func:`group_slos`); a float array with one
    target per group (in grid order) is taken as it is.
    """
    if isinstance(target, np.ndarray) and target.shape == (grid.n_groups,
                                                           ) and target.dtype.kind == "f":
        # one per group, checked
        return np.array([_check_target_value(v) for v in target.tolist()], dtype=float)
    slos = group_slos(target, grid)
    if slos is not None:
        return np.array([s.target for s in slos], dtype=float)
    if hasattr(target, "target") and not isinstance(target, pd.DataFrame):
        return np.full(grid.n_groups, _check_target_value(target.target))
    if isinstance(target, pd.DataFrame):
        if "target" not in target.columns:
            raise ConfigError("a target table needs a 'target' column and group-key columns (e.g. "
                              "captcha_type).")
        on = [c for c in target.columns if c != "target"]
        unknown = [c for c in on if c not in grid.by]
        if unknown or not on:
            raise ConfigError(
                "target table columns must be group keys of the bins "
                f"({', '.join(map(repr, grid.by)) or 'none'}) plus 'target'."
            )
        vals = [_check_target_value(v, "target table value") for v in target["target"].tolist()]
        left = grid.keys[on].astype(str).reset_index(drop=True)
        right = target[on].astype(str).reset_index(drop=True)
        right["_t"] = vals
        if right.duplicated(on).any():
            raise ConfigError("the target table lists a group twice; give one target per group.")
        merged = left.merge(right, on=on, how="left", sort=False)
        if merged["_t"].isna().any():
            raise ConfigError("the target table has no target for some groups of the bins; add "
                              "rows for them.")
        return merged["_t"].to_numpy(dtype=float)
    return np.full(grid.n_groups, _check_target_value(target))


def error_budgets(target: Any, grid: BinGrid) -> np.ndarray:
    """Allowed failure ratio ``1 - target`` per group (see :func:`target_array`), computed as
    :attr:`budgetlab.SLO.error_budget` computes it: the one place the SRE model writes it.

    >>> from budgetlab.slo import SLO
    >>> grid = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(1)), [], 0, 1, np.zeros((1, 1)),
    ...                           np.zeros((1, 1)))
    >>> error_budgets(SLO(0.95), grid) == SLO(0.95).error_budget
    array([ True])
    """
    return np.asarray(1 - target_array(target, grid), dtype=float)
