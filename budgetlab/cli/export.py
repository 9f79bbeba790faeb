"""``budgetlab export openslo|prometheus``: write OpenSLO v1 or Prometheus rule files.

Outputs are atomic and need ``--force`` to replace a file; bad arguments give one line and exit 2.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from .._util.words import counted
from ..errors import ConfigError
from .export_options import refuse_half_latency, refuse_unread, refuse_window
from .export_recalibration import (
    group_names,
    named_with_why,
    refuse_seconds,
    say_capped,
    say_kept,
    say_provisional,
    why_no_recommendation,
)
from .export_report import WINDOW, no_policy_text, report_openslo, report_prometheus
from .prose import fill_line, path_label
from .value_flags import one_target

__all__ = ["COMMANDS"]


def _csv_list(text: str | None) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()] if text else []


def _guard_docs(docs: list[Any]) -> None:
    """The names, labels, annotations and descriptions an export copies out of an SLO file pass
    the personal-data guard (counted, never shown). Queries are left alone: an instance address
    in a selector is the server's, not a person's."""
    from ..privacy import guard_values

    values: list[str] = []
    for d in docs:
        values += [str(v) for v in (d.name, d.service, d.display_name, d.description,
                                    d.objective_name,
                                    d.indicator_ref) if v]
        tables = [d.labels, d.annotations]
        for info in d.policy_info.values():
            values += [info.display_name, info.description]
            tables += [info.labels, info.annotations]
        for table in tables:
            for k, v in table.items():
                values.append(str(k))
                values += [str(x) for x in (v if isinstance(v, (list,
                                                                tuple)) else [v]) if x is not None]
    guard_values(values, what="the SLO file's names, labels, annotations and descriptions")


def _read_docs(spec: str) -> list[Any]:
    """The SLOs of ``FILE[#NAME]`` (``--from``, ``--slo``)."""
    from ..interop.openslo.bind import pick_slos

    return pick_slos(spec)[2]


def _override(doc: Any, args: argparse.Namespace, window: Any = None) -> Any:
    """``doc`` with the new target (``--target``), tracker ``window`` and/or SRE period
    (``--period``): alert policies whose period was the SLO's period follow it, each tier keeping
    its budget fraction (:func:`~budgetlab.interop.redate.redate_policies`), unless ``--policy``
    replaces them."""
    from ..interop.redate import redate_policies

    changes = {k: v for k, v in (("target", args.target), ("window", window),
                                 ("period", args.period)) if v is not None}
    if not changes:
        return doc
    slo = doc.slo.with_(**changes)
    if args.policy is not None:
        return dataclasses.replace(doc, slo=slo)
    pols = redate_policies(doc.alert_policies, doc.slo.period, slo.period)
    return dataclasses.replace(doc, slo=slo, alert_policies=pols)


def _register_inputs(*given: str | None) -> None:
    """Register the files named on the command line as inputs of this run (``FILE#NAME`` names
    FILE), before the outputs are planned: no output may be written over them."""
    from .._util.inputs import register_input

    for spec in given:
        if spec:
            register_input(spec)
            register_input(spec.partition("#")[0])


def _plan(args: argparse.Namespace) -> Path:
    """Check the output before any work (an input of this run, a special file, an existing file
    without --force, an empty or too long name are refused)."""
    from .._util.plan import plan_outputs

    return plan_outputs({"OUT.yaml": args.out}, force=args.force)["OUT.yaml"]


def _guard_names(args: argparse.Namespace) -> None:
    """The names given on the command line end up in the output: refuse personal data there."""
    from ..privacy import guard_values

    given = {opt: getattr(args, attr, None) for opt, attr in (
        ("--name", "name"), ("--service", "service"), ("--name-prefix", "name_prefix"),
        ("--description", "description"), ("--alert-name", "alert_name"))}
    values = [v for v in given.values() if isinstance(v, str) and v]
    if values:
        guard_values(values, what="--name/--service/--name-prefix/--description/--alert-name")


def _policy(args: argparse.Namespace, period: Any) -> Any:
    from ..interop.prometheus import resolve_policy

    if args.policy is None:
        return None
    return resolve_policy(args.policy, period=period)


def _cmd_openslo(args: argparse.Namespace) -> int:
    from ..interop.openslo import ratio_indicator, write_openslo

    args.target = one_target(args.target)  # as typed: 95 refused as 95, not 95.0
    refuse_unread(args)
    _register_inputs(args.from_spec, args.from_recalibration)
    out = _plan(args)
    _guard_names(args)
    indicator = _latency(args)
    metrics = _metrics(args)
    if metrics is not None:
        indicator = ratio_indicator(*metrics, selector=args.selector or "")
    sources = sum(x is not None for x in (args.from_spec, args.from_recalibration))
    if sources > 1:
        raise ConfigError("give at most one of --from and --from-recalibration.")
    judged = None  # the windows the recalibration table's targets were judged under
    if args.from_recalibration is not None:
        docs, judged = _docs_from_recalibration(args, indicator)
    elif args.from_spec is not None:
        docs = _docs_from_spec(args, indicator)
    else:
        docs = _docs_from_flags(args, indicator)
    _guard_docs(docs)
    write_openslo(docs, out, force=args.force)
    report_openslo(docs, args, judged)
    print(f"wrote {counted(len(docs), 'SLO')} to {path_label(out)}")
    return 0


def _docs_from_recalibration(args: argparse.Namespace,
                             indicator: Any) -> tuple[list[Any], list[Any] | None]:
    """``--from-recalibration``: a document per group of the recalibration's table, and the
    window each one's target was judged under (the table's window column; None without it).
    Without ``--window`` each SLO gets that window (28 days for a table without the column)."""
    from ..interop.openslo import read_recalibration_table, slos_from_recalibration

    pol = _policy(args, args.period or "30D")
    by = _csv_list(args.by) or None
    table = read_recalibration_table(args.from_recalibration, by=by,
                                     target_column=args.target_column or "recommended_target")
    keys = by or table.attrs.get("by") or []
    if indicator is not None and keys:
        # one query for every group's SLO would measure all groups against each group's target
        raise ConfigError(_one_query_for_all_groups(args, keys))
    # the file's own rows, from 1 (header not counted), kept with the rows that have a target:
    # every message names the row of the user's file
    table, rows = _with_targets(table, keys, args.target_column or "recommended_target")
    judged = _judged_windows(table, keys, args.window, rows)
    say_provisional(table, keys)
    if args.target_column is None:
        say_kept(table, keys, rows)
    say_capped(table, keys, rows, args.target_column)
    docs = slos_from_recalibration(
        table, by=by, window=args.window, period=args.period, target_column=args.target_column,
        name_prefix=args.name_prefix, service=args.service or "", policy=pol,
        warning=args.warning, critical=args.critical, min_events=args.min_events,
        indicator=indicator, rows=rows)
    return docs, judged


def _judged_windows(table: Any, keys: list[str], window: Any,
                    rows: list[int]) -> list[Any] | None:
    """The window each row's target was judged under (the table's window column; None without
    it). Without ``--window`` they are the windows written: an empty or unreadable cell, or a
    window of seconds (no OpenSLO duration), is refused before any work, naming its ``rows``
    number. With ``--window`` they are only said beside it, the rows whose cell says none
    (None) left unsaid."""
    from ..interop.openslo.recalibration_table import WINDOW_COLUMN, table_windows, window_cell

    if window is not None:
        return ([window_cell(v) for v in table[WINDOW_COLUMN]]
                if WINDOW_COLUMN in table.columns else None)
    judged = table_windows(table, rows=rows)
    if judged is not None:
        refuse_seconds(judged, group_names(table, keys))
    return judged


def _one_query_for_all_groups(args: argparse.Namespace, keys: list[str]) -> str:
    """Why an SLI given on the command line cannot go with ``--from-recalibration`` by groups,
    and the way that works."""
    every = (f"would give every group's SLO the same queries, over all {', '.join(keys)} "
             "values")
    if args.histogram:
        return (f"--histogram with --from-recalibration {every}; export one group at a time "
                f"(--target from its row) with the group's matchers in --histogram "
                f"'NAME{{{keys[0]}=\"...\"}}'.")
    return (f"--total-metric/--errors-metric with --from-recalibration {every}; leave them out "
            "here and give them to 'budgetlab export prometheus --slo OUT.yaml --selector-labels "
            f"{','.join(keys)}', which adds each SLO's group to its queries as matchers.")


def _with_targets(table: Any, keys: list[str], column: str) -> tuple[Any, list[int]]:
    """The rows with a target and their numbers in the file (from 1, the header not counted);
    the groups without one are said in one line with why, read from the table's figures as
    recalibrate judged them (:func:`~budgetlab.cli.export_recalibration.why_no_recommendation`), or
    refused when none is left."""
    import numpy as np
    import pandas as pd

    missing = table[column].isna().to_numpy()
    numbers = (np.flatnonzero(~missing) + 1).tolist()
    if not missing.any():
        return table, numbers
    rows = table[missing]
    names = group_names(rows, keys)
    noted = "recommendation_note" in rows.columns
    if column == "current_target":  # recalibrate ran without one (the notes are of the rule's)
        why = ["recalibrate was given no current target: --target or --slo"] * len(rows)
    elif "recommended_target" in rows.columns:  # its interval's ends are missing with it
        unrecommended = pd.to_numeric(rows["recommended_target"], errors="coerce").isna().tolist()
        why = [(w or "the table's figures do not say why") if none else f"an empty {column} cell"
               for w, none in zip(why_no_recommendation(rows), unrecommended, strict=True)]
    else:  # a column of the user's choice: its blank cells say no more
        why = [f"an empty {column} cell"] * len(rows)
    listed = named_with_why(names, why)
    if missing.all():
        raise ConfigError(f"no group of the recalibration table has a {column}: {listed}; "
                          "nothing to export.")
    print(fill_line(f"left out {counted(len(names), 'group')} without a {column}: "
                    f"{listed}" + ("; the table's recommendation_note says more" if noted else "")))
    return table[~missing], numbers


def _docs_from_spec(args: argparse.Namespace, indicator: Any) -> list[Any]:
    """``--from``: the spec's documents with the command line's target, window, period, policy,
    service and SLI in place of theirs."""
    docs = []
    for d in _read_docs(args.from_spec):
        d = _override(d, args, args.window)
        changes: dict[str, Any] = {}
        if args.policy is not None:
            changes["alert_policies"] = (_policy(args, d.slo.period),)
        if args.service:
            changes["service"] = args.service
        if indicator is not None:
            changes.update(indicator=indicator, indicator_ref=None)
        docs.append(dataclasses.replace(d, **changes))
    return docs


def _docs_from_flags(args: argparse.Namespace, indicator: Any) -> list[Any]:
    """Neither ``--from`` nor ``--from-recalibration``: one document from ``--target`` and the
    other flags."""
    from ..interop.openslo import SLODocument
    from ..slo import SLO

    if args.target is None:
        raise ConfigError("give --target (e.g. --target 0.95), or --from / "
                          "--from-recalibration.")
    window = args.window or WINDOW
    slo = SLO(target=args.target, window=window, warning=args.warning, critical=args.critical,
              min_events=args.min_events, period=args.period or "30D")
    pol = _policy(args, slo.period)
    return [SLODocument(name=args.name, slo=slo, service=args.service or "",
                        description=args.description or "",
                        alert_policies=(pol,) if pol is not None else (), indicator=indicator)]


def _latency(args: argparse.Namespace) -> dict[str, Any] | None:
    """The latency SLI of ``--histogram`` and ``--slow-above`` (None when neither is given)."""
    from ..interop.openslo import latency_indicator

    refuse_half_latency(args)
    if args.histogram is None:
        return None
    if args.total_metric or args.errors_metric:
        raise ConfigError("give the SLI either with --histogram/--slow-above or with "
                          "--total-metric/--errors-metric, "
                          "not both.")
    return latency_indicator(args.histogram, args.slow_above)


def _metrics(args: argparse.Namespace) -> tuple[str, str] | None:
    """``(--total-metric, --errors-metric)``, or None when neither is given."""
    if args.total_metric is None and args.errors_metric is None:
        return None
    if not (args.total_metric and args.errors_metric):
        raise ConfigError("give both --total-metric and --errors-metric for the SLI, or "
                          "neither.")
    return args.total_metric, args.errors_metric


def _cmd_prometheus(args: argparse.Namespace) -> int:
    from .._util.files import atomic_path
    from ..interop.openslo import SLODocument
    from ..interop.prometheus import prometheus_rules, run_promtool, to_prometheus_yaml
    from ..slo import SLO

    args.target = one_target(args.target)  # as typed: 95 refused as 95, not 95.0
    refuse_window(args)
    _register_inputs(args.slo)
    out = _plan(args)
    _guard_names(args)
    metrics = _metrics(args)
    latency = _latency(args)
    if args.slo is not None:
        docs = [_override(d, args) for d in _read_docs(args.slo)]
        if latency is not None:
            docs = [dataclasses.replace(d, indicator=latency, indicator_ref=None) for d in docs]
        _guard_docs(docs)
    else:
        if args.target is None:
            raise ConfigError("give --slo FILE (OpenSLO, Sloth or Pyrra) or --target (e.g. "
                              "--target 0.999).")
        if metrics is None and latency is None:
            raise ConfigError("give the SLI's counters: --total-metric and --errors-metric "
                              "(budgetlab demo's are "
                              "captcha_solves_total and captcha_solve_errors_total), or --slo FILE "
                              "with its queries.")
        # the SLO's tracker window is not in the rules (prometheus_rules reads target and period)
        docs = [SLODocument(args.name, SLO(target=args.target, window="30D",
                                           period=args.period or "30D"), service=args.service or "",
                            indicator=latency)]
    if args.policy is None and any(d.policy is None for d in docs):
        raise ConfigError(no_policy_text([d.name for d in docs if d.policy is None], len(docs)))
    policy = args.policy if args.period is None else _policy(args, args.period)
    rules = prometheus_rules(
        docs, policy, total_metric=metrics[0] if metrics else None,
                             errors_metric=metrics[1] if metrics else None,
        selector=args.selector, errors_selector=args.errors_selector,
        selector_labels=_csv_list(args.selector_labels), service=args.service,
                             alert_name=args.alert_name,
        interval=args.interval, function=args.function, style=args.style)
    text = to_prometheus_yaml(rules)
    with atomic_path(out, force=args.force) as tmp:
        tmp.write_text(text, encoding="utf-8")
        if args.check:
            proc = run_promtool("check", "rules", str(tmp))
            if proc.returncode != 0 or "SUCCESS" not in proc.stdout:  # lint errors exit 0
                lines = [
                    ln.strip()
                    for ln in proc.stderr.splitlines()
                    if ln.strip() and ln.strip() != "FAILED:"
                ]
                raise ConfigError("promtool check rules failed: "
                                  f"{lines[0] if lines else 'see promtool check rules'}")
    report_prometheus(docs, metrics, args, policy)
    n_rules = sum(len(g["rules"]) for g in rules["groups"])
    print(f"wrote {counted(len(rules['groups']), 'rule group')}, {counted(n_rules, 'rule')} to "
          f"{path_label(out)}"
          + (" (promtool check rules: ok)" if args.check else ""))
    return 0


#: The handlers of ``export openslo`` and ``export prometheus`` (their parsers are in
#: :mod:`budgetlab.cli.export_options`).
COMMANDS = {"openslo": _cmd_openslo, "prometheus": _cmd_prometheus}
