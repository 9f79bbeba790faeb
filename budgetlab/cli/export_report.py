"""What ``budgetlab export openslo|prometheus`` says it decided: names made safe, the defaults
written (service, tracker window, SLI), provisional targets, where each SLI and alert name came
from.
"""

from __future__ import annotations

import argparse
from typing import Any

from .._util.units import DEFAULT_WINDOW as WINDOW
from .._util.words import some_named
from .prose import fill_line

__all__ = ["WINDOW", "report_openslo", "report_prometheus", "say_provisional", "say_kept",
           "say_window", "refuse_seconds", "group_names", "named_with_why", "no_policy_text",
           "say_redated", "why_no_recommendation"]

#: How many groups a line names before "and N more".
_NAMED = 10

#: why a target's window is said whenever the one written is not the one it was judged under
_MEANING = "a target holds its meaning only under the window it was judged under"


def no_policy_text(names: list[str], n_slos: int) -> str:
    """Why ``export prometheus`` / ``backtest`` refuse SLOs without alert policies and no
    ``--policy``: the SLOs named (as :func:`budgetlab.prometheus_rules` names them), up to five.

    >>> no_policy_text(["checkout"], 1)
    "SLO 'checkout' has no alert policies; give --policy (e.g. --policy workbook)."
    >>> print(no_policy_text(["a", "b"], 3))  # doctest: +NORMALIZE_WHITESPACE
    SLOs 'a', 'b' (2 of the 3) have no alert policies; give --policy (e.g. --policy workbook; it
    sets the policy of every SLO).
    """
    from ..privacy import shown

    listed = some_named([shown(n) for n in names], 5)
    if n_slos == 1:
        return f"SLO {listed} has no alert policies; give --policy (e.g. --policy workbook)."
    some = f" ({len(names)} of the {n_slos})" if len(names) < n_slos else ""
    return (f"{'SLO' if len(names) == 1 else 'SLOs'} {listed}{some} "
            f"{'has' if len(names) == 1 else 'have'} no alert policies; give --policy (e.g. "
            "--policy workbook; it sets the policy of every SLO).")


def report_openslo(docs: list[Any], args: argparse.Namespace,
                   judged: list[Any] | None = None) -> None:
    """Say what was decided in writing: safe names, the default service, tracker window (from a
    recalibration table, against the windows its targets were ``judged`` under: see
    :func:`say_window`) and SLI."""
    from ..interop.openslo import openslo_names
    from ..interop.openslo.model import DEFAULT_SERVICE

    for name, safe in openslo_names(docs).items():
        print(fill_line(
            f"name {name!r} written as {safe!r} (OpenSLO names are RFC 1123 labels; the original "
              "is kept in "
              "the annotation budgetlab/name)"))
    if any(d.service == DEFAULT_SERVICE for d in docs) and not args.service:
        print(fill_line(
            f"no --service: wrote spec.service {DEFAULT_SERVICE!r} (OpenSLO v1 requires one)"))
    if args.from_recalibration is not None:
        say_window(docs, args.window, judged)
    elif args.window is None and args.from_spec is None:
        print(fill_line(
            f"no --window: wrote the tracker window {WINDOW} (annotation budgetlab/window); "
              "--window sets another"))
    if args.from_spec is not None and args.period is not None and args.policy is None:
        for d in docs:
            say_redated(d, lead=f"SLO {d.name!r}: ")
    if any(d.indicator is None and d.indicator_ref is None for d in docs):
        print(fill_line(
            "no --total-metric/--errors-metric: wrote budgetlab's events SLI (metricSource type "
              "'budgetlab': good = "
              "events with ok true, total = all events)"))


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


def why_no_recommendation(rows: Any) -> list[str]:
    """Why each of ``rows`` (of a recalibration table, without a ``recommended_target``) has no
    recommendation, read from its figures as :func:`budgetlab.recalibrate` judged them
    (:func:`~budgetlab.analyses.recalibration.rules.thin_kind` at the lowest usual target, 50 %,
    the level a recommendation is weighed at when there is none): no evaluated time, too few
    events, hours or day blocks in the evaluated span (the hours first: under 24 h they are
    the reason), else no target meets the rule. A table
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
    no target meets the rule
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
                    else "no target meets the rule" if all(known) else "")
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


def report_prometheus(docs: list[Any], metrics: tuple[str, str] | None,
                      args: argparse.Namespace, policy: Any = None) -> None:
    """Say where each SLO's SLI and alert names came from, and which alerts were written when
    ``policy`` (``--policy``) replaced the SLOs' own (the file's note on its alerting left out)."""
    from .._util.words import prose_duration
    from ..interop.openslo.sloth import ALERTS_NOTE, without_tracker_window
    from ..interop.sli_queries import sli_queries

    for d in docs:
        if metrics is not None:
            own = " (the SLO file's queries not used)" if d.indicator is not None else ""
            print(fill_line(f"SLO {d.name!r}: SLI {metrics[1]} over {metrics[0]} "
                            f"(--total-metric/--errors-metric){own}"))
        else:
            # a query written over several lines is shown on one (its whitespace collapsed)
            q = {k: " ".join(v.split()) for k, v in sli_queries(d).items()}
            part = "errors" if "errors" in q else "good"
            source = "the file's queries" if args.slo else "--histogram and --slow-above"
            print(fill_line(f"SLO {d.name!r}: SLI from {source}, {part} over total, "
                            f"{_windowed(q.values(), args.function)}:"))
            # each query whole on a line of its own, as it is copied
            print(f"  {part} = {q[part]}\n  total = {q['total']}")
            for note in without_tracker_window(d.notes):  # no tracker in the rules
                if policy is None or not note.startswith(ALERTS_NOTE):
                    print(fill_line(f"  {note}"))
            if args.period is not None:  # the notes say the file's period
                print(fill_line(
                    f"  the period: {prose_duration(args.period)} (--period), not the file's"))
                if policy is None:
                    say_redated(d)
        if policy is not None:  # an SLO from --target has no alerts of its own to replace
            # the file's alerts replaced: its policies, or its alerting as a note says it (a
            # Sloth spec's disabled tiers); a file with neither has none to replace
            had = bool(d.alert_policies) or any(n.startswith(ALERTS_NOTE) for n in d.notes)
            instead = "" if not args.slo else ", not the file's" if had else " (the file has none)"
            print(fill_line(
                f"  {ALERTS_NOTE}--policy {args.policy}{instead}: {tiers_words(d, policy)}"))
    if args.alert_name is None:
        from ..interop.sloth_rules import DEFAULT_ALERT_NAME

        named = sorted(
            {i.display_name for d in docs for i in d.policy_info.values() if i.display_name}
        )
        given = ", ".join(named) + " (the spec's alert names) where given, else " if named else ""
        print(fill_line(f"alert names: {given}{DEFAULT_ALERT_NAME} (--alert-name sets one)"))


def _windowed(queries: Any, function: str) -> str:
    """How the rules put the file's queries over each alert window
    (:func:`~budgetlab.interop.promql.window_query`): Sloth's ``{{.window}}`` rendered, else a
    counter's range set to the window, a bare counter as ``sum(increase(counter[window]))``.

    >>> _windowed(["sum(rate(e_total[{{.window}}]))"], "increase")
    'over each window as Sloth renders {{.window}}'
    >>> _windowed(["e_total", "sum(rate(r_total[5m]))"], "rate")
    'over each window (a bare counter as sum(rate(counter[window])), a range set to the window)'
    """
    from ..interop.promql import parse_count_query

    parsed = [parse_count_query(q, "query") for q in queries]
    if all("{{.window}}" in q.text and not q.bare for q in parsed):
        return "over each window as Sloth renders {{.window}}"
    return (f"over each window (a bare counter as sum({function}(counter[window])), a range set "
            "to the window)")


def say_redated(doc: Any, lead: str = "  ") -> None:
    """Say the burns the file's alert policies got at ``--period``: each tier keeps its budget
    fraction (:func:`~budgetlab.interop.redate.redate_policy`), and which fraction each burn
    means."""
    from ..interop.redate import redated_words

    for p in doc.alert_policies:
        if p.period == doc.slo.period:
            print(fill_line(lead + redated_words(p)))


def tiers_words(doc: Any, policy: Any) -> str:
    """The tiers ``policy`` gives ``doc``'s rules (resolved at its period, as
    :func:`~budgetlab.interop.prometheus.prometheus_rules` does): ``page_1h 14.4 over 1h/5m, ...``.
    """
    from .._util.burns import three_digits
    from ..interop.prometheus import resolve_policy
    from ..interop.promql import prom_duration

    return ", ".join(
        f"{t.name} {three_digits(t.burn)} over "
        f"{'/'.join(prom_duration(w, 'window') for w in t.windows)}"
        for t in resolve_policy(policy, period=doc.slo.period).tiers)
