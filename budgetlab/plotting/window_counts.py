"""What a detection or recovery mark of :func:`~budgetlab.plotting.plot_window_comparison` is
over, said on the figure: a median of how many incidents, and those counted apart (already at
the alert status when they began, missed, unseen, unrecovered). A "median detection delay" of
one incident where two others began at the alert status and a third was missed reads as a
verdict on three; ``median of 1 (1 already CRITICAL or worse at start, 1 missed)`` does not.
With one series, the words stand by its marks (:func:`mark_counts`; in a note when they do not
fit their window's slot), with a few (:data:`~budgetlab.plotting.window_gaps.MOST_NAMED`) in a
note under the figure (:func:`counts_note`), with more the note names the table's columns.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.validation import window_words
from .window_gaps import MOST_NAMED, already_words, fits_slot, keep_units

__all__ = ["COUNT_COLUMNS", "apart_words", "counts_note", "mark_counts", "over_words"]

#: The table's columns the words count, as :func:`budgetlab.compare_windows` names them.
COUNT_COLUMNS = ("detected", "missed", "unseen", "already_at_alert", "unrecovered")


def _counts(table: pd.DataFrame) -> dict[str, np.ndarray] | None:
    """The count columns as floats (NaN where withheld); ``None`` without ``detected``."""
    if "detected" not in table.columns:
        return None
    n = len(table)
    return {c: (table[c].to_numpy(dtype=np.float64, na_value=np.nan) if c in table.columns
                else np.zeros(n)) for c in COUNT_COLUMNS}


def apart_words(table: pd.DataFrame, column: str) -> np.ndarray:
    """Per row, the incidents a detection or recovery figure of ``column`` is not over, in
    words (``""`` where none is, the row is withheld, or for another column): for a detection,
    those already at the alert status when they began (:func:`~budgetlab.plotting.window_gaps.
    already_words`), missed and unseen; for a recovery, those never below it again (unrecovered),
    missed and unseen (nothing to recover from).

    >>> t = pd.DataFrame({"detected": [1, 0, 2], "missed": [1, 1, 0], "unseen": [0, 0, 0],
    ...                   "already_at_alert": [1, 2, 0], "unrecovered": [0, 2, 0]})
    >>> apart_words(t, "detection_median").tolist()
    ['1 already CRITICAL or worse at start, 1 missed', '2 already CRITICAL or worse at start, \
1 missed', '']
    >>> apart_words(t, "recovery_max").tolist()
    ['1 missed', '2 unrecovered, 1 missed', '']
    """
    cnt = _counts(table)
    if cnt is None or not column.startswith(("detection_", "recovery_")):
        return np.full(len(table), "", dtype=object)
    first = ("already_at_alert" if column.startswith("detection_") else "unrecovered",
             already_words(table) if column.startswith("detection_") else "unrecovered")
    kinds = (first, ("missed", "missed"), ("unseen", "unseen"))
    out = []
    for i in range(len(table)):
        if np.isnan(cnt["detected"][i]):
            out.append("")
            continue
        out.append(", ".join(f"{int(cnt[c][i]):,} {words}" for c, words in kinds
                             if cnt[c][i] > 0))
    return np.array(out, dtype=object)


def over_words(table: pd.DataFrame, column: str) -> np.ndarray:
    """Per row, what the figure of ``column`` (``detection_median``, ``recovery_max``, ...) is
    over: ``median of 2 (1 already CRITICAL or worse at start)``, ``worst of 1 (1 unrecovered)``
    (a detection over the detected incidents; a recovery over those that reached the alert
    status, detected or already there, and fell below it again); ``""`` where the row is
    withheld or counts over no incident, or for another column.

    >>> t = pd.DataFrame({"detected": [2, 1, 0], "missed": [0, 1, 1], "unseen": [0, 0, 0],
    ...                   "already_at_alert": [1, 1, 2], "unrecovered": [1, 1, 2]})
    >>> over_words(t, "detection_median").tolist()
    ['median of 2 (1 already CRITICAL or worse at start)', 'median of 1 (1 already CRITICAL or \
worse at start, 1 missed)', '']
    >>> over_words(t, "recovery_median").tolist()
    ['median of 2 (1 unrecovered)', 'median of 1 (1 unrecovered, 1 missed)', '']
    """
    cnt = _counts(table)
    if cnt is None or not column.startswith(("detection_", "recovery_")):
        return np.full(len(table), "", dtype=object)
    n = cnt["detected"]
    if column.startswith("recovery_"):
        n = n + cnt["already_at_alert"] - cnt["unrecovered"]
    stat = "worst" if column.endswith("_max") else "median"
    apart = apart_words(table, column)
    return np.array(["" if not v > 0 else f"{stat} of {int(v):,}" + (f" ({a})" if a else "")
                     for v, a in zip(n.tolist(), apart.tolist(), strict=True)], dtype=object)


def mark_counts(p: Axes, column: str, table: pd.DataFrame, values: np.ndarray,
                x_all: np.ndarray, series: np.ndarray, windows: list[str]) -> list[str]:
    """By each drawn mark of ``column`` on panel ``p`` (drawn: finite ``values``), what it is
    over (:func:`over_words`): with one series drawn in the panel, above the mark (below it when it
    stands in the upper half; gid ``counts:<column>:<window>``), kept when every one fits its
    window's slot (:func:`~budgetlab.plotting.window_gaps.fits_slot`), else all removed and
    returned for the note; with a few series drawn (up to ``MOST_NAMED``) returned for the note,
    after each series' name; with more, one sentence naming the table's columns. Each returned
    as ``at <window> [series: ]words``, in window order."""
    words = over_words(table, column)
    drawn = np.isfinite(values) & (words != "")
    names = pd.unique(series[np.isfinite(values)])  # the series with marks in the panel
    if not drawn.any():
        return []
    if len(names) > MOST_NAMED:
        return ["each over its row's detected incidents (a recovery: those below the alert "
                "status again); those counted apart are the table's already_at_alert, missed, "
                "unseen and unrecovered"]
    rows = np.flatnonzero(drawn)[np.argsort(x_all[drawn], kind="stable")]
    said = [f"at {window_words(windows[int(x_all[i])])} "
            + (f"{series[i]}: " if len(names) > 1 else "") + str(words[i]) for i in rows]
    if len(names) > 1:
        return said
    lo, hi = p.get_ylim()
    texts = []
    for i in np.flatnonzero(drawn).tolist():
        up = values[i] < (lo + hi) / 2
        texts.append(p.annotate(
            textwrap.fill(str(words[i]), 22), (float(x_all[i]), float(values[i])),
            xytext=(0, 9 if up else -9), textcoords="offset points", ha="center",
            va="bottom" if up else "top", fontsize=7, color="0.3",
            gid=f"counts:{column}:{windows[int(x_all[i])]}"))
    if all(fits_slot(p, t, len(windows)) for t in texts):
        return []
    for t in texts:
        t.remove()
    return said


def counts_note(bottom: Axes, said: list[tuple[str, list[str]]], under: Any) -> list[Any]:
    """The words of :func:`mark_counts` not drawn by the marks (``said``: each panel's label and
    words) in one note (gid ``counts_label``) under ``under``, outside the panels."""
    lines = [f"{label}, over: " + "; ".join(words) for label, words in said if words]
    if not lines:
        return []
    return [bottom.annotate(keep_units("\n".join(lines)), xy=(0, 0),
                            xycoords=("axes fraction", under),
                            xytext=(0, -4), textcoords="offset points", fontsize="small",
                            va="top", gid="counts_label", wrap=True)]
