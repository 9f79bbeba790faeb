"""What ``budgetlab export openslo --from-recalibration`` says of the recalibration table it
writes from: the tracker window written against the window its targets were judged under
(:func:`say_window`; a window of seconds, which no OpenSLO file holds, refused:
:func:`refuse_seconds`), its groups as the command names them (:func:`group_names`,
:func:`named_with_why`), why a row has no recommendation (:func:`why_no_recommendation`), the
targets written from a provisional recommendation (:func:`say_provisional`) or from one the
evidence capped (:func:`say_capped`) and the current targets kept (:func:`say_kept`).
"""

from __future__ import annotations

from typing import Any

from .._util.units import DEFAULT_WINDOW as WINDOW
from .._util.words import some_named
from .prose import fill_line

__all__ = ["say_window", "refuse_seconds", "group_names", "named_with_why",
           "why_no_recommendation", "say_provisional", "say_capped", "say_kept"]

#: How many groups a line names before "and N more".
_NAMED = 10

#: why a target's window is said whenever the one written is not the one it was judged under
_MEANING = "a target holds its meaning only under the window it was judged under"


def say_window(docs: list[Any], given: Any, judged: list[Any] | None) -> None:
    """The tracker window written from a recalibration table, against the window each SLO's
    target was ``judged`` under (the table's window column, one per SLO; None without the
    column). Without ``--window`` (``given`` None) it is that window, said as such, or 28 days
    for a table that does not record one, said with the fix. With a ``--window`` that differs from
    it, the user's window is written and one line says under which window the targets were
    judged: a statement, not a refusal."""
    from .._util.validation import to_timedelta
    from .._util.words import noun_for, prose_duration
    from ..interop.openslo import duration_shorthand

    if given is None and judged is None:
        # no window column: an older budgetlab's table, or one written by hand
        print(fill_line(
            f"no --window: wrote the tracker window {WINDOW} (annotation budgetlab/window); the "
              "table does not record the window recalibrate judged its targets under (its output "
              "says so, e.g. 'recalibrating the 24 h tracker'): give that one with --window"))
        return
    if judged is None:
        return
    by_window = _names_by_window(docs, judged)
    if given is None:
        if len(by_window) == 1:
            print(fill_line(
                f"no --window: wrote the tracker window {duration_shorthand(judged[0])} "
                  "(annotation budgetlab/window), the window the table's targets were judged "
                  "under (its window column)"))
        else:
            listed = "; ".join(f"{duration_shorthand(w)} for {some_named(names, _NAMED)}"
                               for w, names in by_window.items())
            print(fill_line(
                "no --window: wrote each SLO the tracker window its target was judged under "
                  f"(the table's window column; annotation budgetlab/window): {listed}"))
        return
    written = to_timedelta(given, name="window")
    other = {w: names for w, names in by_window.items() if w != written}
    if not other:
        return
    typed = given if isinstance(given, str) else duration_shorthand(given)
    if len(other) == 1 and sum(map(len, other.values())) == len(docs):  # every SLO's, one window
        said = (f"the targets were judged under the {prose_duration(next(iter(other)))} window "
                "(the table's window column)")
    else:
        parts = [(f"the {noun_for(len(names), 'target')} of {some_named(names, _NAMED)} "
                  f"{noun_for(len(names), 'was', 'were')} judged under" if k == 0
                  else f"{noun_for(len(names), 'that', 'those')} of "
                       f"{some_named(names, _NAMED)} under")
                 + f" the {prose_duration(w)} window" for k, (w, names) in enumerate(other.items())]
        said = f"the table's window column says {', '.join(parts)}"
    print(fill_line(f"--window {typed}: {said}; {_MEANING}"))


def refuse_seconds(judged: list[Any], names: list[str]) -> None:
    """Refuse, before any work, a table whose window column gives a group a window of seconds
    (recalibrate's ``--window 90s``): OpenSLO durations are whole minutes, so no file holds the
    window its target was judged under; the fix is another recalibration or ``--window``."""
    from .._util.units import MINUTE_NS
    from .._util.words import prose_duration
    from ..errors import ConfigError

    odd = [(n, w) for n, w in zip(names, judged, strict=True) if w.value % MINUTE_NS]
    if odd:
        raise ConfigError(f"the table's window column gives {odd[0][0]} the window "
                          f"{prose_duration(odd[0][1])}, not a whole number of minutes: OpenSLO "
                          "durations have no seconds, so no OpenSLO file holds the window its "
                          "target was judged under; recalibrate under a window of whole minutes, "
                          f"or give --window to write another ({_MEANING}).")


def _names_by_window(docs: list[Any], judged: list[Any]) -> dict[Any, list[str]]:
    """The SLOs' groups by the window their targets were judged under, in the table's order."""
    groups: dict[Any, list[str]] = {}
    for d, w in zip(docs, judged, strict=True):
        if w is not None:  # a cell that says no window (with --window, which every row gets)
            groups.setdefault(w, []).append("/".join(d.labels.values()) or "all events")
    return groups


def named_with_why(names: list[str], why: list[str]) -> str:
    """Groups named in a line, ten and the rest counted, each with why (said once, after them,
    when they share it).

    >>> named_with_why(["a", "b"], ["thin", "thin"]), named_with_why(["a", "b"], ["thin", "new"])
    ('a, b (thin)', 'a (thin), b (new)')
    """
    if len(set(why)) == 1:
        return f"{some_named(names, _NAMED)} ({why[0]})"
    return some_named([f"{n} ({w})" for n, w in zip(names, why, strict=True)], _NAMED)


def group_names(rows: Any, keys: list[str]) -> list[str]:
    """Each row's group as the command names it: its key values joined by ``/`` (``all events``
    without keys)."""
    return ["/".join(str(v) for v in row) for row in rows[keys].itertuples(index=False)] \
        if keys else ["all events"] * len(rows)


#: Why a row with enough evidence has no recommendation, in :func:`why_no_recommendation`.
_NO_RULE = "no target meets the rule, or too few events in a window for one"


def why_no_recommendation(rows: Any) -> list[str]:
    """Why each of ``rows`` (of a recalibration table, without a ``recommended_target``) has no
    recommendation, read from its figures as :func:`budgetlab.recalibrate` judged them
    (:func:`~budgetlab.analyses.recalibration.rules.thin_kind` at the lowest usual target, 50 %,
    the level a recommendation is weighed at when there is none): no evaluated time, too few
    events, hours or day blocks in the evaluated span (the hours first: under 24 h they are
    the reason), else no target meets the rule or the window is too thin for one
    (:mod:`~budgetlab.analyses.recalibration.window_events`: its note says which). A table
    without the columns a rule reads (``events``, ``traffic_days``, ``hours``: one written by
    hand) is judged by the rules it can be, and a row no rule explains gets an empty reason
    (the table's ``recommendation_note`` says more).

    >>> import pandas as pd
    >>> rows = pd.DataFrame({"events": [0, 5, 900, 900, 9000], "traffic_days": [0, 2, 1, 3, 9],
    ...                      "hours": [0.0, 5.0, 30.0, 20.0, 200.0]})
    >>> for why in why_no_recommendation(rows):
    ...     print(why)
    no evaluated time
    5 events in the evaluated span, fewer than the 20 a recommendation needs at 50 %
    1 day with traffic in the evaluated span, fewer than the 2 the day-block bootstrap needs
    20 h of evaluated time, less than the 24 h time shares and rates per day need
    no target meets the rule, or too few events in a window for one
    >>> why_no_recommendation(pd.DataFrame({"events": [3, 40]}))
    ['3 events in the evaluated span, fewer than the 20 a recommendation needs at 50 %', '']
    """
    import pandas as pd

    from ..analyses.recalibration.candidates import USUAL_TARGETS
    from ..analyses.recalibration.rules import MIN_TRAFFIC_DAYS, events_for, thin_kind

    lowest = USUAL_TARGETS[0]

    def column(name: str) -> list[float]:
        values = rows[name] if name in rows.columns else pd.Series(float("nan"), rows.index)
        return pd.to_numeric(values, errors="coerce").tolist()

    said = []
    for events, days, hours in zip(column("events"), column("traffic_days"), column("hours"),
                                   strict=True):
        known = [x == x for x in (events, days, hours)]  # NaN: not in the table
        # a figure the table lacks is given a value its rule passes: only the others judge
        kind = thin_kind(int(events) if known[0] else events_for(lowest), lowest,
                         int(days) if known[1] else MIN_TRAFFIC_DAYS,
                         hours > 0 if known[2] else True, hours=hours if known[2] else None)
        said.append(_thin_words(kind, events, days, hours, lowest) if kind
                    else _NO_RULE if all(known) else "")
    return said


def _thin_words(kind: str, events: float, days: float, hours: float, lowest: float) -> str:
    """The rule of :func:`~budgetlab.analyses.recalibration.rules.thin_kind` that withheld a
    recommendation (weighed at ``lowest``), in a clause with the row's figure."""
    from .._util.percent import given_percent
    from .._util.thin import MIN_EVALUATED_HOURS
    from .._util.words import counted, hours_words
    from ..analyses.recalibration.rules import MIN_TRAFFIC_DAYS, events_for

    if kind == "no_time":
        return "no evaluated time"
    if kind == "too_few_events":
        return (f"{counted(int(events), 'event')} in the evaluated span, fewer than the "
                f"{events_for(lowest)} a recommendation needs at {given_percent(lowest)}")
    if kind == "too_few_days":
        return (f"{counted(int(days), 'day')} with traffic in the evaluated span, fewer than the "
                f"{MIN_TRAFFIC_DAYS} the day-block bootstrap needs")
    return (f"{hours_words(hours)} of evaluated time, less than the {MIN_EVALUATED_HOURS:g} h "
            "time shares and rates per day need")


def say_provisional(table: Any, keys: list[str]) -> None:
    """One line naming the groups whose target is written from a provisional recommendation (a
    history shorter than recalibrate's minimum), with the reason: the file holds the target
    without a word of it. A table with ``history_days`` is judged by its evaluated history
    (:func:`~budgetlab.analyses.recalibration.evidence.saved_history`: an older table's from
    ``hours``); a table without it, by a ``provisional:`` clause anywhere in its
    ``recommendation_note`` (a cap note may come first)."""
    from ..analyses.recalibration.evidence import MIN_HISTORY_DAYS, history_words, saved_history

    if "history_days" in table.columns:
        days, span = saved_history(table)
        rows = table[(days < MIN_HISTORY_DAYS).to_numpy()]
        why = [history_words(float(d), span=float(x))
               for d, x in zip(days[rows.index], span[rows.index], strict=True)]
    elif "recommendation_note" in table.columns:
        clauses = table["recommendation_note"].fillna("").astype(str).str.extract(
            r"(?:^|; )provisional: ([^;]*)", expand=False)
        rows = table[clauses.notna().to_numpy()]
        why = [str(c).strip() for c in clauses[rows.index]]
    else:
        return
    if not len(rows):
        return
    listed = named_with_why(group_names(rows, keys), why)
    print(fill_line(f"written from a provisional recommendation: {listed}; the table's "
          "recommendation_note says more"))


def say_capped(table: Any, keys: list[str], numbers: list[int], column: str | None) -> None:
    """One line naming the groups whose target is written from a recommendation the evidence
    capped (``recommended_capped``: the rule alone gives more than the group's evaluated events
    can judge, so the figure is the highest target they can judge, not the service's level; the
    cap is deliberate, docs/recalibrate.md), each with its figure and
    :func:`~budgetlab.analyses.recalibration.rules.capped_words` (and, where the verdict on the
    current target was withheld, that too): the file holds the target without a word of it.
    ``column``: ``--target-column`` (None: each row's action, whose kept current targets are not
    named; another column than ``recommended_target``: nothing said); ``numbers``: the rows'
    numbers in the file, as :func:`say_kept` takes them. A table without ``recommended_capped``
    says nothing."""
    import numpy as np
    import pandas as pd

    from .._util.percent import given_fraction
    from ..analyses.recalibration.rules import capped_words
    from ..interop.openslo.recalibration_table import action_targets

    if "recommended_capped" not in table.columns or column not in (None, "recommended_target"):
        return
    written = (action_targets(table, numbers)[0] if column is None
               else table["recommended_target"])
    flag = table["recommended_capped"].astype("string").str.strip().str.lower()
    rec = pd.to_numeric(table["recommended_target"], errors="coerce").to_numpy(dtype=float)
    events = (pd.to_numeric(table["events"], errors="coerce").to_numpy(dtype=float)
              if "events" in table.columns else np.full(len(table), np.nan))
    capped = (flag.isin(["true", "1", "1.0"]).fillna(False).to_numpy()
              & (np.asarray(written, dtype=float) == rec) & np.isfinite(events))
    if not capped.any():
        return
    rows = table[capped]
    verdicts = (rows["verdict"].astype(str).tolist() if "verdict" in rows.columns
                else [""] * len(rows))
    pairs = [f"{n} {given_fraction(float(t))} ({capped_words(int(e))}"
             + ("; its verdict on the current target withheld" if v == "withheld" else "") + ")"
             for n, t, e, v in zip(group_names(rows, keys), rec[capped], events[capped],
                                   verdicts, strict=True)]
    print(fill_line(f"written from a recommendation the evidence capped (the highest target its "
          f"events can judge, not the service's level): {some_named(pairs, _NAMED)}; the "
          "table's recommendation_note says more"))


def say_kept(table: Any, keys: list[str], numbers: list[int]) -> None:
    """One line naming the groups whose current target is written because the recalibration's
    action keeps it (verdict ``ok``) while its rule's target differs
    (:func:`~budgetlab.interop.openslo.recalibration_table.action_targets`; a target that is no
    number is refused by its row's number in the file, ``numbers``): the file follows the
    advice, and says how to write the rule's target instead."""
    from .._util.percent import given_fraction
    from ..interop.openslo.recalibration_table import action_targets

    targets, kept = action_targets(table, numbers)
    differ = kept & (targets.to_numpy() != table["recommended_target"].to_numpy())
    if not differ.any():
        return
    rows = table[differ]
    names = group_names(rows, keys)
    pairs = [f"{n} {given_fraction(k)} (the rule's {given_fraction(r)})" for n, k, r in zip(
        names, targets[differ], rows["recommended_target"], strict=True)]
    print(fill_line(f"kept the current target where the recalibration's action is 'keep': "
          f"{some_named(pairs, _NAMED)}; --target-column recommended_target writes the rule's "
          "targets instead"))

