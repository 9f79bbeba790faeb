"""Whether the whole history affords a target: the check :func:`suggest_targets` makes before it
suggests one (:func:`whole_history_problems`, :func:`highest_afforded`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..._util.percent import given_percent, share_percent
from ...budget.figures import STATUSES

__all__ = ["GroupHistory", "group_history", "whole_history_problems", "highest_afforded"]


@dataclass(frozen=True)
class GroupHistory:
    """One group of a :func:`budgetlab.recalibrate` result on all of the history
    (:func:`group_history`): its evaluated ``events`` and ``failures``, ``limit_status`` and
    ``max_share``, and its candidates' ``targets`` (ascending) with the share of time each spent
    at ``limit_status`` or worse (``shares``, NaN where withheld)."""

    events: int
    failures: int
    limit: str
    max_share: float
    targets: np.ndarray
    shares: np.ndarray

    def affords(self, target: float) -> bool:
        """Whether the failures fit the target's budget over the evaluated events:
        ``failures <= (1 - target) * events``."""
        return self.events > 0 and self.failures <= (1 - target) * self.events

    def budget_words(self, target: float) -> str:
        """The failures against the target's budget over the whole evaluated history."""
        allowed = int(np.floor((1 - target) * self.events + 1e-9))  # whole failures
        if allowed <= 0:
            return f"it allows no failure and there were {self.failures:,}"
        spent = share_percent(self.failures / ((1 - target) * self.events), 1.0, 0)
        return (f"its budget over all of the history ({self.events:,} events) allows "
                f"{allowed:,} failures and there were {self.failures:,}, {spent} of it")


def group_history(summary_row: pd.Series, candidates: pd.DataFrame,
                  settings: dict[str, Any]) -> GroupHistory:
    """The :class:`GroupHistory` of one summary row and its group's rows of ``candidates``."""
    limit = str(settings.get("limit_status", "exhausted"))
    levels = STATUSES[STATUSES.index(limit):]
    targets = candidates["target"].to_numpy(dtype=float)
    order = np.argsort(targets, kind="stable")
    shares = candidates[[f"share_{s}" for s in levels]].to_numpy(dtype=float).sum(axis=1)
    return GroupHistory(int(summary_row["events"]), int(summary_row["failures"]), limit,
                        float(settings.get("max_share", 0.01)), targets[order], shares[order])


def whole_history_problems(h: GroupHistory, target: float) -> list[str]:
    """Why the whole history does not afford ``target``, in words (empty: it does): its failures
    exceed the budget, or the target would have been at ``limit_status`` or worse more than
    ``max_share`` of the time (read from the candidates: exactly when ``target`` is one of them,
    else at least the share of a lower candidate; not known when neither says)."""
    out = []
    if not h.affords(target):
        out.append(h.budget_words(target))
    limit = f"{h.limit.upper()} or worse"
    same = np.isclose(h.targets, target, rtol=0, atol=1e-12)
    below = h.targets <= target
    over = below & (h.shares > h.max_share)
    if same.any() and np.isfinite(h.shares[same][0]):
        share = float(h.shares[same][0])
        if share > h.max_share:
            out.append(f"it would have been {limit} {share_percent(share, h.max_share)} of the "
                       f"time over all of the history (limit {given_percent(h.max_share)})")
    elif over.any():  # a lower target spent more than the limit there: this one at least as much
        c = float(h.targets[over][-1])
        share = float(h.shares[over][-1])
        out.append(f"it would have been {limit} at least {share_percent(share, h.max_share)} of "
                   f"the time over all of the history, as {given_percent(c)}, a lower target, "
                   f"was (limit {given_percent(h.max_share)})")
    else:
        out.append(f"the share of time it would have been {limit} over all of the history is "
                   "not known (it is not one of the recalibration's candidates)")
    return out


def highest_afforded(h: GroupHistory, ceiling: float) -> float:
    """The highest candidate at or below ``ceiling`` that the whole history affords (its time at
    the limit within ``max_share``, its failures within its budget); NaN when none does."""
    ok = ((h.targets <= ceiling) & (h.shares <= h.max_share)
          & np.array([h.affords(t) for t in h.targets], dtype=bool))
    return float(h.targets[ok][-1]) if ok.any() else float("nan")
