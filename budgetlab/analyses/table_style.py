"""A notebook's table as budgetlab's sentences say its figures (:func:`styled_table`): targets as
written, measured shares in percent (a share of time as the command line's tables print one),
durations in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from .._util.percent import given_percent, measured_percent, time_share_percent
from .._util.words import duration_words

__all__ = ["styled_table", "withheld_once"]


def styled_table(table: pd.DataFrame, *, targets: Sequence[str] = (), shares: Sequence[str] = (),
                 durations: Sequence[str] = (), time_shares: Sequence[str] = (),
                 na_rep: str = "n/a", precision: int = 4) -> Any:
    """``table``'s :class:`~pandas.io.formats.style.Styler` with each figure in the unit the
    sentences use: the ``targets`` columns as written (``0.975`` is ``97.5 %``), the measured
    ``shares`` (a share of time, a recall: ``0.6667`` is ``66.67 %``, never ``100.00 %`` short
    of 1) in percent, the ``time_shares`` (a status's share of the evaluated time) as the command
    line's tables print them (:func:`~budgetlab._util.percent.time_share_percent`: one decimal,
    ``< 0.01 %`` for a status held a few nanoseconds, never 13 decimals of float residue), the
    ``durations`` in words (``0 days 00:17:00`` is ``17 min``, as the
    command line says it), other numbers with ``precision`` decimals, and a missing figure
    (NaN, NaT) ``na_rep``; but a missing duration of a row whose ``pairs`` (or ``incidents``)
    were counted and none ``detected`` says ``none detected`` (no delay to take a median of; the
    ``na_rep`` of a window summary, ``no summed value``, is for its rows too thin to sum). A name
    the table lacks is passed over, so one call fits a table with and without its incident
    columns. Needs jinja2, as every Styler does.

    >>> t = pd.DataFrame({"target": [0.975], "share_exhausted": [0.0067], "recall": [2 / 3],
    ...                   "detection_median": pd.to_timedelta(["17min"]), "hours": [0.96111],
    ...                   "recovery_median": [pd.NaT]})
    >>> s = styled_table(t, targets=["target"], shares=["share_exhausted", "recall"],
    ...                  durations=["detection_median", "recovery_median"], na_rep="none")
    >>> print(s.hide(axis="index").to_string(delimiter=" | "))
    target | share_exhausted | recall | detection_median | hours | recovery_median
    97.5 % | 0.67 % | 66.67 % | 17 min | 0.9611 | none
    <BLANKLINE>
    >>> s = styled_table(pd.DataFrame({"share_warning": [0.6729, 1e-14, 0.0]}),
    ...                  time_shares=["share_warning"])
    >>> print(s.hide(axis="index").to_string(delimiter=" | "))
    share_warning
    67.3 %
    < 0.01 %
    0.0 %
    <BLANKLINE>
    >>> t = pd.DataFrame({"pairs": [3, 0, 2], "detected": [0, 0, 2],
    ...                   "detection_median": pd.to_timedelta([None, None, "5min"])})
    >>> s = styled_table(t, durations=["detection_median"], na_rep="no summed value")
    >>> print(s.hide(axis="index").to_string(delimiter=" | "))
    pairs | detected | detection_median
    3 | 0 | none detected
    0 | 0 | no summed value
    2 | 2 | 5 min
    <BLANKLINE>
    """
    styler = table.style.format(na_rep=na_rep, precision=precision)
    for names, say in ((targets, given_percent), (shares, measured_percent),
                       (time_shares, time_share_percent), (durations, duration_words)):
        kept = pd.Index([c for c in names if c in table.columns])
        if len(kept):
            styler = styler.format(say, na_rep=na_rep, subset=kept)
    counted_col = next((c for c in ("pairs", "incidents") if c in table.columns), None)
    kept = pd.Index([c for c in durations if c in table.columns])
    if counted_col is not None and "detected" in table.columns and len(kept):
        none = ((pd.to_numeric(table[counted_col], errors="coerce") > 0)
                & (pd.to_numeric(table["detected"], errors="coerce") == 0)).to_numpy()
        if none.any():
            styler = styler.format(duration_words, na_rep="none detected",
                                   subset=(none, kept))
    return styler


def withheld_once(table: pd.DataFrame, by: str | None, figures: Sequence[str] = ()) -> pd.DataFrame:
    """``table`` with each group whose ``figures`` are all withheld (NaN: too thin for a verdict)
    shown in its first row only: a thin group's further candidate rows would say ``withheld``
    again for targets nothing was judged at (its verdict sentence says why). ``figures``:
    the columns judged (default: every numeric column but ``target``); ``by`` ``None``: as is.

    >>> t = pd.DataFrame({"g": ["a", "a", "b", "b"], "target": [0.95, 0.9999, 0.95, 0.97],
    ...                   "share_exhausted": [None, None, 0.01, 0.0]})
    >>> withheld_once(t, "g")["target"].tolist()
    [0.95, 0.95, 0.97]
    """
    if by is None or by not in table.columns or not len(table):
        return table
    cols = list(figures) or [c for c in table.select_dtypes("number").columns if c != "target"]
    thin = table[cols].isna().all(axis=1).groupby(table[by].astype(str)).transform("all")
    later = table[by].astype(str).duplicated()
    return table[~(thin & later).to_numpy()]
