"""What ``budgetlab alerts`` and ``budgetlab backtest`` say of how ``--incidents`` was read, as
lines of their output before the scores: times without an offset (read as UTC), and scope keys
that are not ``--by`` keys (they do not restrict which groups an incident covers). Said there, the
scoring's warning of the same keys is not shown again (:func:`print_incident_notes`)."""

from __future__ import annotations

import warnings
from collections.abc import Collection, Iterable

import pandas as pd

from .._util.words import counted
from ..errors import BudgetlabWarning
from .prose import fill_line, path_label

__all__ = ["naive_times_note", "print_incident_notes", "ungrouped_scope_note"]


def naive_times_note(table: pd.DataFrame, path: str, tz_reads: str = "the log") -> str:
    """How the incidents' times without an offset were read (UTC, whatever ``--tz`` says: it
    reads ``tz_reads``, the command's log, or ``backtest``'s ``--start/--end`` and plot), or ''
    when every time names its offset."""
    n = int(table.attrs.get("naive_times", 0))
    if not n:
        return ""
    return (f"{path_label(path)}: {n:,} of {counted(len(table), 'incident')} "
            f"{'has' if n == 1 else 'have'} times without an offset, "
            f"read as UTC (--tz applies to {tz_reads}, not to this file); write them with Z or an "
            "offset such as +01:00 to mean another zone.")


def ungrouped_scope_note(table: pd.DataFrame, by: list[str],
                         columns: Collection[str] | None) -> str:
    """How incident scopes that name keys outside ``--by`` are read (such a key does not
    restrict: the incident covers every group), or '' when every scope key is a --by key
    (:func:`~budgetlab.alerts.incident_scopes.ungrouped_scope_words`, the window comparison's
    words too); a key that is none of the log's ``columns`` is said to be no column, and
    without ``columns`` (a Prometheus server's labels are not all known) the advice is
    conditional."""
    from ..alerts.incident_scopes import ungrouped_scope_words

    scopes = table["scope"] if "scope" in table.columns else pd.Series([], dtype=object)
    return ungrouped_scope_words(scopes, by, columns=columns)


def print_incident_notes(table: pd.DataFrame, path: str, by: list[str],
                         columns: Collection[str] | None, *, more: Iterable[str] = (),
                         indent: str = "", tz_reads: str = "the log") -> None:
    """Print how the incidents ``table`` read from ``path`` was read (:func:`naive_times_note`
    with ``tz_reads``,
    :func:`ungrouped_scope_note`, then the notes ``more``), each filled to 100 columns at
    ``indent``; from here on the run does not warn the scope keys again (the scoring's
    :class:`~budgetlab.errors.BudgetlabWarning` "incident scopes name ..."; the command's
    warning filters are restored when it ends)."""
    notes = (naive_times_note(table, path, tz_reads), ungrouped_scope_note(table, by, columns),
             *more)
    for note in notes:
        if note:
            print(fill_line(indent + note))
    warnings.filterwarnings("ignore", "incident scopes name ", BudgetlabWarning)
