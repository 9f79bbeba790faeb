"""``budgetlab backtest --prometheus URL``: replay SLO alert policies over a Prometheus server's
history.

Reads the two SLI counters per bin from the server (:func:`budgetlab.read_prometheus`), replays
each ``--policy`` (:func:`budgetlab.alert_episodes`), and prints, per policy, group and tier, when
the alerts would have fired and how much of the period's error budget was spent at each firing;
with ``--incidents`` also time to detect and reset per incident and precision / recall
(:func:`budgetlab.incident_detections`, :func:`budgetlab.score_alerts`). ``--out`` writes the
tables, ``--plot`` a timeline of the episodes, one panel per policy.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from .alert_figure import plot_policies
from .backtest_flags import add_backtest_flags
from .backtest_report import (
    print_episodes,
    print_reading,
    print_scores,
    with_gap_column,
    write_outputs,
)
from .backtest_scores import incidents_to_score, score_backtest
from .backtest_slos import backtest_policies, replayed_tiers, spec_target, target_slos
from .prose import path_label

if TYPE_CHECKING:  # pandas is imported when a command runs, not for --help
    import pandas as pd

__all__ = ["add_parser", "parse_headers"]


def parse_headers(items: list[str] | None) -> dict[str, str]:
    """``--header 'Name: value'`` items as a mapping (values are never echoed).

    >>> parse_headers(["Authorization: Bearer abc", "X-Scope-OrgID: team"])["X-Scope-OrgID"]
    'team'
    """
    from ..interop.http_headers import check_header_name

    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition(":")
        if not sep or not name.strip():
            raise ConfigError("--header takes 'Name: value' (e.g. 'Authorization: Bearer ...').")
        out[check_header_name(name.strip(), "--header")] = value.strip()
    return out


def _span(args: argparse.Namespace, freq: Any) -> tuple[pd.Timestamp, pd.Timestamp]:
    import pandas as pd

    from .._util.validation import to_timedelta, utc_timestamp

    step = to_timedelta(freq, name="freq")
    if args.end is not None:
        end = utc_timestamp(args.end, name="end", tz=args.tz)
    else:
        end = pd.Timestamp(time.time_ns(), tz="UTC").floor(step)
    if args.start is not None:
        start = utc_timestamp(args.start, name="start", tz=args.tz)
    else:
        start = end - to_timedelta(args.since, name="since")
    if end <= start:
        if args.end is None:  # --end left to its default: say so, not "--end must be after"
            raise ConfigError("--start is not before the default --end (now, floored to a --freq "
                              "bin); give an earlier --start, or an --end after it.")
        raise ConfigError("--end must be after --start.")
    return start, end


def _episodes_with_budget(grid: Any, spec: Any, policy: Any) -> pd.DataFrame:
    """The policy's episodes with ``budget_spent_pct``: the share of the period's error budget
    spent in the rolling period before the episode's start (``period_budget``'s
    ``consumed_fraction``: failures over ``(1 - target) x`` events). NaN (withheld) when that
    period reaches before the span read: its budget is then that of the history read, not the
    period's (2 h of a 30 d SLO, an outage of which reads 50,000 %)."""
    import numpy as np
    import pandas as pd

    from ..alerts.episodes import alert_episodes
    from ..budget.period import period_budget

    ep = alert_episodes(grid, spec_target(spec), policy)  # per group with the file's targets
    # budget_withheld_note says a partial period, in the command's words
    pb = period_budget(grid, spec_target(spec), period=policy.period, warn=False)
    consumed = pb["consumed_fraction"].to_numpy().reshape(grid.n_groups, grid.n_bins)
    observed = pb["period_observed"].to_numpy()[:grid.n_bins]  # the same for every group
    if len(ep):
        k = ((ep["start"].astype("int64").to_numpy() - grid.start_ns) // grid.freq_ns - 1).astype(
            np.int64
        )
        if grid.by:  # each episode's group: its row in the grid's keys
            g = pd.MultiIndex.from_frame(grid.keys[grid.by].astype(str)).get_indexer(
                pd.MultiIndex.from_frame(ep[grid.by].astype(str)))
        else:
            g = np.zeros(len(ep), dtype=np.int64)
        spent = 100.0 * consumed[g, k]
        # the whole period before the start must lie in the span read
        ep["budget_spent_pct"] = np.where(observed[k] == 1, spent, np.nan)
    else:
        ep["budget_spent_pct"] = pd.Series(dtype="float64")
    return ep


_TABLES = ("bins", "episodes", "detections", "scores")


def _plan(args: argparse.Namespace) -> dict[str, Path]:
    """Register the inputs, then check every output before any work: ``--out`` is one
    .csv/.parquet (the episodes) or an existing folder (one .csv per table)."""
    from .._util.inputs import register_input
    from .._util.output_paths import check_out_folder
    from .._util.plan import plan_outputs

    for given in (args.slo.partition("#")[0] if args.slo else None, args.incidents):
        if given:
            register_input(given)
    outputs: dict[str, Any] = {"--plot": args.plot}
    if args.out is not None:
        out = Path(args.out)
        if not args.out.strip() or out.suffix.lower() in (".csv", ".parquet"):
            outputs["--out"] = args.out
        else:
            out = check_out_folder(args.out, "--out",
                                   or_file="a .csv/.parquet file for the episodes")
            tables = _TABLES if args.incidents else _TABLES[:2]
            outputs.update({f"--out {name}.csv": out / f"{name}.csv" for name in tables})
    return plan_outputs(outputs, force=args.force)


def _latency_spec(client: Any, args: argparse.Namespace, spec: Any, start: pd.Timestamp,
                  end: pd.Timestamp) -> Any:
    """The SLO with the good and total counters of ``--histogram`` at the ``--slow-above`` bound."""
    from ..interop.prometheus_histogram import histogram_sli

    sli = histogram_sli(client, args.histogram, args.slow_above, start_ns=start.value,
                        end_ns=end.value)
    return dataclasses.replace(spec, total=sli.total, good=sli.good, notes=sli.notes)


def _client(args: argparse.Namespace) -> Any:
    """The client of ``--prometheus`` with ``--timeout``, ``--header`` and ``--max-series``: one
    for the whole read, so that ``--timeout`` is one deadline for all its requests."""
    from ..interop.prometheus_http import PrometheusClient

    return PrometheusClient(args.prometheus, timeout=args.timeout,
                            headers=parse_headers(args.header), max_series=args.max_series)


def _check_buckets(client: Any, spec: Any, start: pd.Timestamp, end: pd.Timestamp) -> Any:
    """``spec``, refused when a histogram bucket in the SLI's queries is not one the server has
    (else every event reads bad); a check the server's index could not make is said in its
    notes ("how it was read")."""
    from ..interop.prometheus_histogram import check_bucket_selectors
    from ..interop.promql import parse_count_query

    queries = {k: q for k, q in (("good", spec.good), ("errors", spec.errors), ("total",
                                                                                spec.total)) if q}
    selectors = {k: parse_count_query(q, k).selectors for k, q in queries.items()}
    if not any("_bucket" in sel for sels in selectors.values() for sel in sels):
        return spec
    unchecked = check_bucket_selectors(client, selectors, start_ns=start.value, end_ns=end.value)
    return dataclasses.replace(spec, notes=(*spec.notes, *unchecked)) if unchecked else spec


def _sli_words(args: argparse.Namespace) -> AbstractContextManager[None]:
    """Inside, a message about the SLI's ``total``/``errors``/``good`` query names where the query
    came from: ``--total`` etc. when given, else the ``--slo`` spec's or the ``--histogram``'s
    query (never a flag the user did not give)."""
    from .._util.words import flags_as

    source = "--slo" if args.slo else "--histogram" if args.histogram is not None else None
    if source is None:
        return nullcontext()
    return flags_as(**{k: f"the {k} query of {source}" for k in ("total", "errors", "good")})


def _read(args: argparse.Namespace, spec: Any, start: pd.Timestamp, end: pd.Timestamp,
          by: list[str]) -> tuple[Any, pd.DataFrame]:
    """The SLO (with the counters of ``--histogram``) and the bins read from the server within one
    ``--timeout``; a span widened to whole bins is said by the header, not warned."""
    from ..interop.prometheus_source import read_counts
    client = _client(args)  # --timeout from here on
    with _sli_words(args):
        if args.histogram is not None:
            spec = _latency_spec(client, args, spec, start, end)
        else:
            spec = _check_buckets(client, spec, start, end)
        # a span widened: the header and a note of "How it was read" say it
        bins = read_counts(client, total=spec.total, errors=spec.errors, good=spec.good,
                           start=start, end=end, freq=args.freq, by=by, warn_widened=False,
                           not_personal=_names(args.not_personal))
    return _one_index_note(spec, bins, client.index_failure)


def _names(text: str | None) -> list[str]:
    """The names of a comma-separated flag (``--by``, ``--not-personal``), blanks left out."""
    return [k.strip() for k in (text or "").split(",") if k.strip()]


def _one_index_note(spec: Any, bins: pd.DataFrame, why: str) -> tuple[Any, pd.DataFrame]:
    """``spec`` and ``bins`` whose notes say a failure of the server's series index in one
    sentence (:func:`~budgetlab.interop.prometheus_http.one_index_note`): the bucket check it
    left unmade (``spec``'s note) and the counts read without it (the reader's), where the
    first was said."""
    from ..interop.prometheus_http import one_index_note

    own, read = list(spec.notes), list(bins.attrs.get("notes", []))
    joined = one_index_note([*own, *read], why)
    if len(joined) == len(own) + len(read):
        return spec, bins
    bins = bins.copy()  # the reader's table keeps its own notes
    bins.attrs["notes"] = joined[len(own):]
    return dataclasses.replace(spec, notes=tuple(joined[:len(own)])), bins


def _cmd_backtest(args: argparse.Namespace) -> int:
    import pandas as pd

    from .._util.validation import check_tz, to_timedelta
    from ..alerts.filling import episodes_filling
    from ..alerts.incidents_file import read_incidents
    from ..interop.http_url import check_url
    from ..windows.bins import read_bins
    from .policy_builds import check_freq
    from .value_flags import one_target

    check_url(args.prometheus, "--prometheus")  # before anything else is read
    args.target = one_target(args.target)
    spec = target_slos(args)[0]
    policies = backtest_policies(args, spec)
    if args.slo:  # "How it was read" says the tiers replayed
        spec = replayed_tiers(spec, policies, given=bool(args.policy))
    check_freq(args.freq, policies)  # before the server is asked
    if args.incidents is not None:  # refused before the server is asked, not after
        to_timedelta(args.grace, name="grace")
    check_tz(args.tz)
    planned = _plan(args)
    incidents = read_incidents(args.incidents) if args.incidents is not None else None
    start, end = _span(args, args.freq)
    by = _names(args.by) if args.by is not None else list(spec.by)
    spec, bins = _read(args, spec, start, end, by)
    print_reading(bins, spec, start, end, args.tz)
    start, end = (pd.Timestamp(bins.attrs["span"][k]) for k in ("start", "end"))  # as counted
    grid = read_bins(bins)
    # those in scope, the others said; the groups too thin for a verdict, as alerts parts them
    covered, split = incidents_to_score(incidents, args.incidents, grid, by, spec.slo.target)
    all_ep, all_det, all_sc, eps, own, judged = [], [], [], {}, {}, incidents
    for name, pol in policies.items():
        ep = _episodes_with_budget(grid, spec, pol)
        eps[name] = ep
        print_episodes(name, ep, pol, end - start, args.tz)
        # the one filling rule, as the text, the scores and the plot read it
        all_ep.append(ep.assign(filling=episodes_filling(ep), policy=name))
        if incidents is not None:
            assert covered is not None and split is not None  # read with the incidents
            got = score_backtest(name, ep, pol, grid, spec.slo.target, split, covered,
                                 args.grace)
            own[name], judged, det = got.scores, got.scored, got.more["detections"]
            print_scores(name, det, got.scores, by, ep, len(incidents), args.tz,
                         incidents=covered, grace=args.grace, withheld=got.withheld,
                         left_out=got.line)
            all_det.append(det.assign(policy=name))
            all_sc.append(got.table.assign(policy=name))
    if args.out is not None:
        tables = {"bins": with_gap_column(bins), "episodes": pd.concat(all_ep, ignore_index=True)}
        if all_det:
            tables["detections"] = pd.concat(all_det, ignore_index=True)
            tables["scores"] = pd.concat(all_sc, ignore_index=True)
        for t in tables.values():
            t.attrs = {}
        write_outputs(planned, tables, args.force)
    if "--plot" in planned:
        _plot(planned["--plot"], eps, incidents, args, grid, own or None, bins.attrs["gaps"],
              judged, None if incidents is None else spec.slo.target)
    return 0


def _plot(path: Path, eps: dict[str, Any], incidents: Any, args: argparse.Namespace,
          grid: Any, scores: dict[str, Any] | None, gaps: list[dict[str, Any]],
          scored: Any, target: Any) -> None:
    """``--plot``: the alert charts of the policies, each tier row's silences read off the
    replayed bins, the unseen incidents off the policies' ``scores`` of the ``scored`` incidents
    (with ``--grace``), the scrape ``gaps`` on their groups' rows; with ``--incidents``
    (``target``) the bars of the groups too thin for a verdict light, keyed as left out."""
    plot_policies(path, eps, incidents, args.force, tz=args.tz, groups=grid.keys, bins=grid,
                  grace=args.grace, scores=scores, gaps=gaps, scored=scored, target=target)
    print(f"wrote timeline to {path_label(path)}")


def add_parser(subparsers: Any) -> None:
    """Register ``budgetlab backtest``."""
    p = subparsers.add_parser("backtest",
                              help="replay SLO alert policies over a Prometheus server's history")
    add_backtest_flags(p)
    p.set_defaults(func=_cmd_backtest)
