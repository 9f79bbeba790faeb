"""Why a row of :func:`~budgetlab.compare_windows` is too thin for a verdict: the three rules
of :func:`~budgetlab.analyses.window_clock.thin_rows`, one code per row, so that a sum that leaves
the row out (:func:`~budgetlab.analyses.choices.window_summary`) names the rule that did, never
one that did not (a group of 30 events over 250 h was said to lack time)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.thin import MIN_EVALUATED_HOURS, too_thin
from .recalibration.rules import MIN_EXPECTED_FAILURES

__all__ = ["THIN_REASONS", "group_names", "thin_reasons"]

#: Each rule's code and its words, in the order they are tested (the first that holds is the
#: row's): too little evaluated time, no event in it, too few events for the target.
THIN_REASONS = {
    "time": f"under {MIN_EVALUATED_HOURS:g} h of evaluated time",
    "empty": "no event in its evaluated time",
    "few": f"too few events, under {MIN_EXPECTED_FAILURES:g} expected failures",
}


def thin_reasons(table: pd.DataFrame) -> np.ndarray:
    """Per row of a :func:`~budgetlab.compare_windows` table, the code of the first rule of
    :data:`THIN_REASONS` that makes it too thin (less than a day of evaluated ``hours``, none
    or unknown included; ``events`` 0; ``expected_failures`` under
    :data:`~budgetlab.analyses.recalibration.rules.MIN_EXPECTED_FAILURES`), ``""`` for a row
    that is not. A table without ``hours`` (made by hand) has none; a rule whose column the
    table lacks is not applied.

    >>> thin_reasons(pd.DataFrame({"hours": [1.35, 38.0, 250.0, 250.0],
    ...     "events": [0, 0, 30, 9710], "expected_failures": [0.0, 0.0, 3.6, 485.5]})).tolist()
    ['time', 'empty', 'few', '']
    """
    out = np.full(len(table), "", dtype=object)
    if "hours" not in table.columns:
        return out
    rules = [too_thin(table["hours"].to_numpy(dtype=np.float64))]
    rules.append(table["events"].to_numpy() == 0 if "events" in table.columns
                 else np.zeros(len(table), dtype=bool))
    rules.append(~(table["expected_failures"].to_numpy(dtype=np.float64)
                   >= MIN_EXPECTED_FAILURES * (1 - 1e-9))
                 if "expected_failures" in table.columns else np.zeros(len(table), dtype=bool))
    for code, rule in zip(reversed(THIN_REASONS), reversed(rules), strict=True):
        out[np.asarray(rule, dtype=bool)] = code  # the first rule that holds is written last
    return out


def group_names(table: pd.DataFrame) -> np.ndarray | None:
    """Each row's group as a scope names it (``captcha_type=image``, keys joined by ``&``), from
    the group keys of ``attrs["by"]`` that are columns; ``None`` when the table names none (a
    table made by hand).

    >>> t = pd.DataFrame({"captcha_type": ["image"], "region": ["fra"]})
    >>> t.attrs["by"] = ["captcha_type", "region"]
    >>> group_names(t).tolist()
    ['captcha_type=image&region=fra']
    """
    by = table.attrs.get("by")
    keys = [k for k in by if k in table.columns] if isinstance(by, list) else []
    if not keys:
        return None
    cols = [table[k].astype(str).to_numpy() for k in keys]
    return np.array(["&".join(f"{k}={v[i]}" for k, v in zip(keys, cols, strict=True))
                     for i in range(len(table))], dtype=object)
