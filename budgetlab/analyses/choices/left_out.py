"""Which group rows :func:`~budgetlab.analyses.choices.window_summary` leaves out of its sums and
why, named (the rule of :func:`~budgetlab.analyses.window_thin.thin_reasons` that made each one
too thin for a verdict), and the groups too thin under every window: those
:func:`~budgetlab.analyses.choices.choose_window` decides without, so that a group of 30 events
does not keep a window from being chosen for groups of 100,000."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._util.validation import window_words
from ..._util.words import counted, counted_of, some_named
from ...errors import ConfigError
from ..window_thin import THIN_REASONS

__all__ = ["left_out_notes", "pairs_left_out", "without_verdict", "without_verdict_words"]

#: The most groups named per reason (more: ``and N more``).
MOST_NAMED = 4
#: The most reasons said for the groups without a verdict under any window.
MOST_REASONS = 3


def _who(labels: np.ndarray | None, rows: np.ndarray) -> str:
    """The group rows ``rows`` named (their groups), or counted without names."""
    n = int(rows.sum())
    if labels is None:
        return counted(n, "row")
    return some_named([str(x) for x in labels[rows]], MOST_NAMED)


def left_out_notes(codes: np.ndarray, labels: np.ndarray | None, group: np.ndarray,
                   n_groups: int) -> list[str]:
    """Per summed row (``group``: each table row's summed row, ``0 .. n_groups - 1``): why
    rows were left out of its sums, each rule with the groups it left out (``codes``:
    :func:`~budgetlab.analyses.window_thin.thin_reasons`; ``labels``: each row's group, or
    ``None``); empty when none was.

    >>> codes = np.array(["", "few", "time", "time"], dtype=object)
    >>> labels = np.array(["g=a", "g=b", "g=a", "g=b"], dtype=object)
    >>> print(*left_out_notes(codes, labels, np.array([0, 0, 1, 1]), 2), sep="\\n")
    ... # doctest: +NORMALIZE_WHITESPACE
    left out of the sums: 1 of the 2 group rows, too thin for a verdict (g=b: too few events,
    under 10 expected failures): their time shares and rates per day do not go by (the table's
    note)
    no summed value: all 2 group rows are too thin for a verdict (g=a, g=b: under 24 h of
    evaluated time): their time shares and rates per day do not go by (the table's note)
    """
    order = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[order], np.arange(n_groups + 1))
    notes = []
    for g in range(n_groups):
        rows = order[bounds[g]:bounds[g + 1]]
        c = codes[rows]
        left = int((c != "").sum())
        if not left:
            notes.append("")
            continue
        why = "; ".join(f"{_who(None if labels is None else labels[rows], c == code)}: {words}"
                        for code, words in THIN_REASONS.items() if (c == code).any())
        tail = (f"too thin for a verdict ({why}): their time shares and rates per day do not go "
                "by (the table's note)")
        if left == len(rows):
            notes.append(f"no summed value: {counted_of(left, left, 'group row')} "
                         f"{'is' if left == 1 else 'are'} {tail}")
        else:
            notes.append(f"left out of the sums: {counted_of(left, len(rows), 'group row')}, "
                         f"{tail}")
    return notes


def pairs_left_out(table: pd.DataFrame, codes: np.ndarray,
                   incidents: pd.DataFrame) -> np.ndarray:
    """Per (incident, group) pair of ``incidents`` (:func:`~budgetlab.window_incidents`), whether
    its row of ``table`` (the :func:`~budgetlab.compare_windows` row of its window, dwell time and
    group) is left out of the sums (``codes``:
    :func:`~budgetlab.analyses.window_thin.thin_reasons`): such a pair is not counted either, so
    that a group left out of a window's sums adds no pair to its recall or detection. All
    ``False`` for a table that names no group key (made by hand: nothing to match on).

    >>> t = pd.DataFrame({"g": ["a", "b"], "window": ["1h", "1h"], "min_dwell": pd.Timedelta(0)})
    >>> t.attrs["by"] = ["g"]
    >>> pairs = pd.DataFrame({"g": ["b", "a", "b"], "window": ["1h", "1h", "1d"],
    ...                       "min_dwell": pd.Timedelta(0)})
    >>> pairs_left_out(t, np.array(["", "few"], dtype=object), pairs).tolist()
    [True, False, False]
    """
    out = np.zeros(len(incidents), dtype=bool)
    thin = np.asarray(codes != "", dtype=bool)
    by = table.attrs.get("by")
    keys = [k for k in by if k in table.columns] if isinstance(by, list) else []
    if not keys or not thin.any() or not len(incidents):
        return out
    missing = [k for k in keys if k not in incidents.columns]
    if missing:
        raise ConfigError(
            f"the window_incidents table has no column {', '.join(map(repr, missing))}, the "
            "group key of the compare_windows table: the (incident, group) pairs of the groups "
            "left out of the sums cannot be told apart; pass window_incidents' output for the "
            "same groups (the same by=).")

    def keyed(t: pd.DataFrame) -> pd.DataFrame:
        return pd.DataFrame({"window": t["window"].astype(str).to_numpy(),
                             "min_dwell": pd.to_timedelta(t["min_dwell"]).to_numpy(),
                             **{k: t[k].astype(str).to_numpy() for k in keys}})

    left = keyed(table[thin]).drop_duplicates().assign(_left=True)
    merged = keyed(incidents).merge(left, how="left", on=["window", "min_dwell", *keys])
    return merged["_left"].fillna(False).to_numpy(dtype=bool)


def without_verdict(table: pd.DataFrame, codes: np.ndarray,
                    labels: np.ndarray | None) -> dict[str, str]:
    """The groups too thin for a verdict under every window and dwell time of ``table`` (a
    :func:`~budgetlab.compare_windows` table), each with why at each window (``1 h: under 24 h
    of evaluated time; 6 h, 24 h: too few events, ...``); empty without ``labels`` (a table
    that names no group: nothing can be said per group).

    >>> t = pd.DataFrame({"window": ["1h", "1d", "1h", "1d"]})
    >>> without_verdict(t, np.array(["time", "few", "", "few"], dtype=object),
    ...                 np.array(["g=a", "g=a", "g=b", "g=b"], dtype=object))
    {'g=a': '1 h: under 24 h of evaluated time; 24 h: too few events, under 10 expected failures'}
    """
    if labels is None or not len(table):
        return {}
    frame = pd.DataFrame({"g": labels, "w": table["window"].astype(str).to_numpy(),
                          "c": codes})
    thin_everywhere = frame.groupby("g", sort=False)["c"].agg(lambda c: bool((c != "").all()))
    out = {}
    for g, rows in frame[frame["g"].isin(thin_everywhere[thin_everywhere].index)].groupby(
            "g", sort=False):
        pairs = list(dict.fromkeys(zip(rows["w"], rows["c"], strict=True)))
        out[str(g)] = "; ".join(
            f"{', '.join(window_words(w) for w, k in pairs if k == code)}: {words}"
            for code, words in THIN_REASONS.items() if any(k == code for _, k in pairs))
    return out


def without_verdict_words(groups: dict[str, str], with_verdict: int, *,
                          pairs: bool = False) -> str:
    """:func:`choose_window`'s words on the groups decided without (``groups``:
    :func:`without_verdict`; ``pairs``: their (incident, group) pairs were left out too):
    ``''`` when there are none.

    >>> print(without_verdict_words({"g=c": "1 h: under 24 h of evaluated time"}, 2))
    ... # doctest: +NORMALIZE_WHITESPACE
    decided on the 2 groups with a verdict; left out of every window's sums, too thin for a
    verdict under every window: g=c (1 h: under 24 h of evaluated time)
    """
    if not groups:
        return ""
    by_why: dict[str, list[str]] = {}
    for g, why in groups.items():
        by_why.setdefault(why, []).append(g)
    said = [f"{some_named(names, MOST_NAMED)} ({why})"
            for why, names in list(by_why.items())[:MOST_REASONS]]
    rest = sum(len(n) for n in list(by_why.values())[MOST_REASONS:])
    if rest:
        said.append(f"{counted(rest, 'more group')} for other reasons")
    sums = "sums and (incident, group) pairs" if pairs else "sums"
    return (f"decided on the {counted(with_verdict, 'group')} with a verdict; left out of every "
            f"window's {sums}, too thin for a verdict under every window: {'; '.join(said)}")
