"""Why a point of :func:`~budgetlab.plotting.plot_window_comparison` is not drawn, said at its
window: a time share or rate per day withheld on a row with under a day of evaluated time
(:func:`mark_thin`), or a detection or recovery time that does not exist (NaT: none detected, no
incident, none recovered; :func:`mark_no_time`). A gap in a line is never left unexplained.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.thin import MIN_EVALUATED_HOURS
from .._util.validation import window_words

__all__ = ["MOST_NAMED", "REASONS", "THIN_LABEL", "mark_no_time", "mark_thin", "no_time_note",
           "why_no_time"]

#: The words on a window whose drawn column is withheld (too little evaluated time).
THIN_LABEL = f"under {MIN_EVALUATED_HOURS:g} h evaluated"
#: Why a detection or recovery time is missing (:func:`why_no_time`), in the order said.
REASONS = ("none detected", "unseen (no traffic)", "no incident", "none recovered")
#: The most series named before a reason at a window (more: ``k of n``).
MOST_NAMED = 2


def mark_thin(p: Axes, column: str, x_all: np.ndarray, series: np.ndarray, thin: np.ndarray,
              windows: list[str]) -> tuple[bool, list[str]]:
    """On each window where ``column`` is withheld for every series (thin rows): a hatched band
    over the panel's height and the words :data:`THIN_LABEL`. Where only some are withheld, the
    other series' marks are drawn there: no band (it lay over them) and no words in the panel
    (they covered the marks of thousands of groups), only the words returned for a note outside
    it, naming those not drawn at each such window (``POST at 12 h``; ``k of n`` beyond
    :data:`MOST_NAMED`). Whether a band was drawn (what the legend's hatched key stands for),
    and those words."""
    from ..analyses.window_clock import THIN_COLUMNS

    if column not in THIN_COLUMNS or not thin.any():
        return False, []
    n_series, banded, said = len(pd.unique(series)), False, []
    for x in np.unique(x_all[thin]).tolist():
        named = [str(n) for n in pd.unique(series[thin & (x_all == x)])]
        if len(named) < n_series:  # marks of the others drawn here: said outside the panel
            who = (", ".join(named) if len(named) <= MOST_NAMED
                   else f"{len(named):,} of {n_series:,}")
            said.append(f"{who} at {window_words(windows[int(x)])}")
            continue
        p.axvspan(x - 0.3, x + 0.3, fill=False, hatch="//", edgecolor="0.8", lw=0, zorder=0.5,
                  gid=f"thin:{column}:{windows[int(x)]}")
        _say(p, x, textwrap.fill(THIN_LABEL, 14), 3, f"thin_label:{column}:{windows[int(x)]}")
        banded = True
    return banded, said


def _say(p: Axes, x: float, text: str, zorder: float, gid: str) -> None:
    """``text`` at window ``x``, centred on the panel's height, on a white ground."""
    p.text(x, 0.5, text, transform=p.get_xaxis_transform(), ha="center", va="center",
           fontsize=8, color="0.3", zorder=zorder,
           bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85}, gid=gid)


def why_no_time(table: pd.DataFrame, column: str) -> np.ndarray:
    """Why each row of ``table`` has no time in ``column`` (a detection or recovery time, NaT):
    ``no incident`` (none counted for the row: nothing to detect), ``unseen (no traffic)`` (the
    window held no traffic during any of them: nothing to detect, no miss), ``none detected``
    (the window missed them all: no detection, nothing to recover from), ``none recovered``
    (every detected incident still alerting when the log ends: recovery columns only); ``""``
    where it has one, or for another column. Without the counts (``incidents``, ``detected``,
    ``missed``): ``none detected``, what the table's NaT says.

    >>> t = pd.DataFrame({"incidents": [2, 0, 2, 2, 1], "detected": [0, 0, 2, 1, 0],
    ...                   "missed": [2, 0, 0, 1, 0],
    ...                   "recovery_median": pd.to_timedelta([None, None, None, "5min", None])})
    >>> why_no_time(t, "recovery_median").tolist()
    ['none detected', 'no incident', 'none recovered', '', 'unseen (no traffic)']
    """
    if not column.startswith(("detection_", "recovery_")):
        return np.full(len(table), "", dtype=object)
    n = len(table)

    def count(name: str, default: int) -> np.ndarray:
        return table[name].to_numpy() if name in table.columns else np.full(n, default)

    counted, detected, missed = count("incidents", 1), count("detected", 0), count("missed", 1)
    why = np.select([counted == 0, (detected == 0) & (missed == 0), detected == 0,
                     column.startswith("recovery_")],
                    ["no incident", "unseen (no traffic)", "none detected", "none recovered"],
                    "").astype(object)  # a detection time missing though one was detected: ""
    return np.where(pd.isna(table[column]).to_numpy(), why, "")


def mark_no_time(p: Axes, column: str, table: pd.DataFrame, values: np.ndarray,
                 x_all: np.ndarray, series: np.ndarray, windows: list[str]) -> list[str]:
    """On each window where a series has no detection or recovery time (NaT: not a point, a
    gap), the reason in words (:func:`why_no_time`), after the series' names when not every
    series lacks it (``POST: no incident``; ``k of n:`` beyond :data:`MOST_NAMED`). Where no
    series has a mark at the window, in the panel (gid ``no_time:<column>:<window>``); where
    some have, the words are returned for a note outside the panel
    (:func:`no_time_note`): in it, at the window, they lay over the marks drawn there."""
    why = why_no_time(table, column)
    why = np.where(np.isnan(values), why, "")  # a value drawn needs no words
    n_series = len(pd.unique(series))
    said = []
    for x in np.unique(x_all[why != ""]).tolist():
        here = (x_all == x) & (why != "")
        lines = []
        for reason in REASONS:
            named = [str(n) for n in pd.unique(series[here & (why == reason)])]
            if not named:
                continue
            who = ("" if len(named) == n_series else ", ".join(named) + ": "
                   if len(named) <= MOST_NAMED else f"{len(named)} of {n_series}: ")
            lines.append(who + reason)
        if np.isfinite(values[x_all == x]).any():  # marks drawn here: said outside the panel
            said.append(f"at {window_words(windows[int(x)])} " + ", ".join(lines))
            continue
        _say(p, x, "\n".join(textwrap.fill(line, 22) for line in lines), 1.2,
             f"no_time:{column}:{windows[int(x)]}")
    return said


def no_time_note(bottom: Axes, said: list[tuple[str, list[str]]], under: Any) -> list[Any]:
    """The words of :func:`mark_no_time` at windows where other series have marks (``said``:
    each panel's label and words), in one note (gid ``no_time_label``) under ``under`` (the x
    label, or the note of the thin words below it), outside the panels."""
    lines = [f"{label}, no mark: " + "; ".join(words) for label, words in said if words]
    if not lines:
        return []
    return [bottom.annotate("\n".join(lines), xy=(0, 0), xycoords=("axes fraction", under),
                            xytext=(0, -4), textcoords="offset points", fontsize="small",
                            va="top", gid="no_time_label", wrap=True)]
