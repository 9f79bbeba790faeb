"""What ``budgetlab export openslo|prometheus`` says it decided: names made safe, the defaults
written (service, tracker window, SLI), where each SLI and alert name came from (what it says of
a recalibration table it writes from: :mod:`~budgetlab.cli.export_recalibration`).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._util.units import DEFAULT_WINDOW as WINDOW
from .._util.words import some_named
from .export_recalibration import say_window
from .prose import fill_line

__all__ = ["WINDOW", "report_openslo", "report_prometheus", "no_policy_text", "say_redated"]


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


def report_prometheus(docs: list[Any], metrics: tuple[str, str] | None,
                      args: argparse.Namespace, policy: Any = None) -> None:
    """Say where each SLO's SLI and alert names came from, and which alerts were written: those of
    ``policy`` (``--policy``) when it replaced the SLOs' own (the file's note on its alerting left
    out), else the file's (its note on them, a Sloth spec's, or its alert policies' tiers)."""
    from .._util.words import prose_duration
    from ..interop.openslo.sloth import ALERTS_NOTE, without_tracker_window
    from ..interop.sli_queries import sli_queries

    for d in docs:
        said = False  # the file's alerts said by its notes (a Sloth spec's)
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
                    said = said or note.startswith(ALERTS_NOTE)
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
        elif not said and d.policy is not None:  # the file's own (an OpenSLO file's policies)
            print(fill_line(f"  {ALERTS_NOTE}the file's alert policies: "
                            f"{tiers_words(d, d.policy)}"))
    if args.alert_name is None:
        print(fill_line(_alert_names(docs)))


def _alert_names(docs: Any) -> str:
    """The names the rules' alerts carry (:func:`~budgetlab.interop.prometheus.rule_slos.
    rule_alert_name`): a spec's one alert name on all its alerts, whatever --policy and --style
    write, else each policy's where it names one."""
    from ..interop.prometheus.rule_slos import own_alert_name
    from ..interop.sloth_rules import DEFAULT_ALERT_NAME

    own = [own_alert_name(d) for d in docs]
    if docs and all(own):
        names = ", ".join(sorted({str(n) for n in own}))
        return (f"alert names: {names} (the spec's alert name, on all its alerts; "
                "--alert-name sets one)")
    named = sorted({i.display_name for d in docs for i in d.policy_info.values() if i.display_name})
    given = ", ".join(named) + " (the spec's alert names) where given, else " if named else ""
    return f"alert names: {given}{DEFAULT_ALERT_NAME} (--alert-name sets one)"


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
        for t in resolve_policy(policy, period=doc.slo.period).tiers
    ) + rounded_words(policy, doc.slo.period)


def rounded_words(policy: Any, period: Any) -> str:
    """The Workbook's windows (``policy``: its name, or the policy built at its own period)
    that scaling to ``period`` (``window x period / 30 d``,
    :meth:`~budgetlab.AlertPolicy.workbook`) rounded to the minute, as Pyrra rounds, said after
    its tiers; "" for another policy or when no window rounded (every window of 28 d and 7 d
    but the 5 min one scales to whole minutes).

    >>> import pandas as pd
    >>> print(rounded_words("workbook", pd.Timedelta("28D")))
    ; page_1h's short window rounded to the minute: 5m x 28 d / 30 d is 4m40s, 5m written \
(Pyrra's rule)
    >>> rounded_words("workbook", pd.Timedelta("30D")), rounded_words("pyrra", pd.Timedelta("28D"))
    ('', '')
    """
    import pandas as pd

    from .._util.words import prose_duration
    from ..alerts.policy import AlertPolicy
    from ..alerts.preset_tables import WORKBOOK_PERIOD, scale_window
    from ..interop.promql import prom_duration

    if isinstance(policy, AlertPolicy):  # built at --period: its own
        policy, period = policy.name, policy.period
    if policy != "workbook" or period == WORKBOOK_PERIOD:
        return ""
    said = []
    for t in AlertPolicy.workbook().tiers:
        for role, w in zip(("long", "short"), t.windows, strict=True):
            exact = pd.Timedelta(w.value * period.value // WORKBOOK_PERIOD.value, unit="ns")
            written = scale_window(w, period, WORKBOOK_PERIOD)
            if exact != written:
                said.append(f"{t.name}'s {role} window rounded to the minute: "
                            f"{prom_duration(w, 'window')} x {prose_duration(period)} / 30 d is "
                            f"{prom_duration(exact, 'window')}, "
                            f"{prom_duration(written, 'window')} written")
    return "".join(f"; {s}" for s in said) + (" (Pyrra's rule)" if said else "")
