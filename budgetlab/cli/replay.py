"""``budgetlab replay LOG...``: replay an outcome log through the seed tracker, print the summary
and the transitions, write ``--out`` (table, with a JSON run record beside it) and ``--plot``
(timeline PNG).

``LOG`` is one or more files, globs or folders: CSV/TSV/Parquet/JSON Lines event logs, or
Apache/nginx access logs (recognised by their content, plain or gzip). Before any result, the
"how it was read" block goes to stderr (rows read and skipped, time span and zone, each label or
status -> success/bucket with its count), so a pipe of the results stays clean.

The SLO options, the output options and :func:`run_replay` serve ``budgetlab demo`` as well.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.validation import duration_label
from ..errors import ConfigError, PartialWindowWarning
from ..slo import SLO

__all__ = ["add_parser", "add_slo_options", "add_output_options", "slo_from_args", "group_keys", "run_replay"]


def add_slo_options(p: argparse.ArgumentParser, *, target: float = 0.95, window: str = "24h") -> None:
    """``--target``, ``--window``, ``--warning``, ``--critical``, ``--min-events`` and ``--by``."""
    g = p.add_argument_group("SLO")
    g.add_argument("--target", type=float, default=None, help=f"target success rate (default: {target})")
    g.add_argument("--window", default=None, help=f"trailing window, e.g. 1h, 24h, 7D (default: {window})")
    g.add_argument("--warning", type=float, default=None, help="warning below this budget fraction (0.5)")
    g.add_argument("--critical", type=float, default=None, help="critical below this budget fraction (0.1)")
    g.add_argument("--min-events", type=int, default=None, help="hold the status below this many events (0)")
    g.add_argument("--by", default=None, help="group keys, comma-separated (e.g. captcha_type,region)")
    p.set_defaults(default_target=target, default_window=window)


def add_output_options(p: argparse.ArgumentParser) -> None:
    """``--out``, ``--plot`` and ``--force``."""
    g = p.add_argument_group("outputs")
    g.add_argument("--out", default=None, help="write the transitions table (.csv or .parquet)")
    g.add_argument("--plot", default=None, help="write a timeline PNG")
    g.add_argument("--force", action="store_true", help="overwrite existing outputs")


def _add_log_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("input columns")
    g.add_argument("--time", default="ts", help="time column (default: ts)")
    g.add_argument("--outcome", default="outcome", help="outcome-label column (default: outcome)")
    g.add_argument("--ok", default=None, help="boolean success column instead of --outcome")
    g.add_argument("--bucket", default=None, help="failure-kind column (with --ok)")
    g.add_argument("--tz", default="UTC", help="time zone of naive timestamps (default: UTC)")
    g.add_argument("--epoch", default=None, choices=["s", "ms", "us", "ns"], help="unit of numeric timestamps")
    g.add_argument("--pii", default="error", choices=["error", "drop", "hash"], help="personal-data policy")
    g.add_argument("--salt", default=None, help="secret for --pii hash")
    g.add_argument("--outcomes", default=None, metavar="LABEL=MEANING,...",
                   help="complete outcome mapping: LABEL=success, LABEL=<failure bucket> or LABEL=skip (rows left "
                        "out, counted); HTTP status ranges allowed, e.g. 2xx=success,3xx=success,4xx=skip,"
                        "5xx=server_error (unlisted labels are refused)")
    g.add_argument("--duration", default=None, metavar="COLUMN", help="request-duration column (for --slow-above)")
    g.add_argument("--duration-unit", default=None, choices=["s", "ms", "us", "ns"],
                   help="unit of numeric durations")
    g.add_argument("--slow-above", default=None, metavar="DURATION",
                   help="latency SLI: successes slower than this (e.g. 2s) count as failures in bucket 'slow'")
    g.add_argument("--format", default=None, choices=["csv", "tsv", "parquet", "jsonl", "access"],
                   help="file format when the extension does not say it (access: Apache/nginx access log; "
                        "recognised by content anyway)")
    g.add_argument("--encoding", default="utf-8", help="text encoding of CSV/JSON Lines (default: utf-8)")


def slo_from_args(args: argparse.Namespace) -> SLO:
    """The SLO of the command line: ``--slo FILE`` (OpenSLO) with the flags given overriding it,
    else the flags with the subcommand's defaults."""
    if getattr(args, "slo", None):
        from ..interop.openslo import load_slo

        base = load_slo(args.slo)
        changes = {k: getattr(args, k) for k in ("target", "window", "warning", "critical", "min_events")
                   if getattr(args, k) is not None}  # flags given on the command line win
        return base.with_(**changes) if changes else base
    return SLO(
        target=args.default_target if args.target is None else args.target,
        window=args.default_window if args.window is None else args.window,
        warning=0.5 if args.warning is None else args.warning,
        critical=0.1 if args.critical is None else args.critical,
        min_events=0 if args.min_events is None else args.min_events,
    )


def group_keys(args: argparse.Namespace) -> list[str]:
    """``--by a,b`` as a list of column names."""
    return [b.strip() for b in args.by.split(",") if b.strip()] if args.by else []


def _format_summary(summary: pd.DataFrame) -> str:
    show = summary.copy()
    show["success_rate"] = (show["success_rate"] * 100).map("{:.2f} %".format)
    for st in ("healthy", "warning", "critical", "exhausted"):
        show[st] = show[f"hours_{st}"].map("{:.1f} h".format) + " (" + (show[f"share_{st}"] * 100).map("{:.0f}".format) + " %)"
    cols = [c for c in summary.columns if not c.startswith(("hours_", "share_"))]
    cols = [c for c in cols if c not in ("success_rate", "transitions", "final_status")]
    cols += ["success_rate", "healthy", "warning", "critical", "exhausted", "transitions", "final_status"]
    return show[cols].to_string(index=False)


def _format_transitions(tr: pd.DataFrame, limit: int = 40) -> str:
    if tr.empty:
        return "(no status changes)"
    show = tr.copy()
    show["ts"] = show["ts"].dt.strftime("%Y-%m-%d %H:%M:%S")
    text = show.head(limit).to_string(index=False)
    if len(tr) > limit:
        text += f"\n... {len(tr) - limit} more (write them all with --out)"
    return text


def run_replay(events: pd.DataFrame, args: argparse.Namespace, *, title: str,
               incidents: pd.DataFrame | None = None, targets: dict[str, float] | None = None,
               record: dict[str, Any] | None = None) -> int:
    """Replay, print the summary and transitions, write --out/--plot.

    ``targets`` (with one ``--by`` key) gives each group its own target; other groups use the SLO's.
    ``record`` (the JSON run record) is written beside ``--out`` as ``OUT.run.json``.
    """
    from .._util.files import check_output, write_table
    from ..budget.tracker_replay import replay, replay_summary, transitions

    slo = slo_from_args(args)
    by = group_keys(args)
    for path in (args.out, args.plot, _record_path(args.out) if record is not None and args.out else None):
        if path:  # fail before the work, not after it
            check_output(path, force=args.force)
    with warnings.catch_warnings():  # the note below says it, in the CLI's words
        warnings.simplefilter("ignore", PartialWindowWarning)
        if targets and len(by) == 1:
            parts = [replay(g, slo.with_(target=targets.get(str(key), slo.target)), by=by)
                     for key, g in events.groupby(by[0], observed=True, sort=True)]
            states = pd.concat(parts).loc[events.index]
            states.attrs.update(parts[0].attrs)
        else:
            states = replay(events, slo, by=by or None)
    tr = transitions(states)
    summary = replay_summary(states, events)
    span = events["ts"].iloc[-1] - events["ts"].iloc[0]
    print(f"{title}: {len(events):,} events, {events['ts'].iloc[0]:%Y-%m-%d %H:%M} .. "
          f"{events['ts'].iloc[-1]:%Y-%m-%d %H:%M} UTC")
    shown = ", ".join(f"{k} {v:.4g}" for k, v in targets.items()) if targets and len(by) == 1 else f"{slo.target:.4g}"
    print(f"SLO: target {shown}, window {duration_label(slo.window)}, warning < {slo.warning:g}, "
          f"critical < {slo.critical:g}, min_events {slo.min_events}" + (f", by {', '.join(by)}" if by else ""))
    if slo.window > span:
        print(f"note: the window ({duration_label(slo.window)}) is longer than the data "
              f"({duration_label(span)}); every window is partial.")
    print("\nSummary (time in each status)")
    print(_format_summary(summary))
    warm_end = events["ts"].iloc[0] + slo.window
    warm = tr["ts"] < warm_end
    print(f"\nTransitions ({len(tr)}; {int(warm.sum())} during the warm-up, the first {duration_label(slo.window)} "
          "when the window is still filling: listed from the first full window on)")
    print(_format_transitions(tr[~warm] if (~warm).any() else tr))
    if args.out:
        write_table(tr, args.out, force=args.force)
        print(f"\nwrote {len(tr)} transitions to {args.out}")
        if record is not None:
            _write_record(record, slo, args, events)
            print(f"wrote the run record to {_record_path(args.out)}")
    if args.plot:
        _write_timeline(states, tr, by, args.plot, slo=slo, incidents=incidents, force=args.force,
                        targets=targets if len(by) == 1 else None)
        print(f"wrote timeline to {args.plot}")
    return 0


def _write_timeline(states: pd.DataFrame, tr: pd.DataFrame, by: list[str], path: str, *, slo: SLO,
                    incidents: pd.DataFrame | None, force: bool, targets: dict[str, float] | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._util.files import atomic_path
    from ..events.schema import scope_mask
    from ..plotting import plot_timeline

    groups: list[tuple[tuple[Any, ...], pd.DataFrame, pd.DataFrame]] = [((), states, tr)]
    if by:
        groups = []
        for key, g in states.groupby(by, observed=True, sort=True):
            key = key if isinstance(key, tuple) else (key,)
            mask = (tr[by].astype(str) == pd.Series([str(k) for k in key], index=by)).all(axis=1)
            groups.append((key, g, tr[mask]))
    if len(groups) > 12:
        sys.stderr.write(f"budgetlab: note: the timeline shows the first 12 of {len(groups)} groups.\n")
        groups = groups[:12]
    fig, axes = plt.subplots(len(groups), 1, figsize=(12, 3.4 * len(groups)), squeeze=False, sharex=True)
    for ax, (key, g, t) in zip(axes[:, 0], groups, strict=True):
        inc = None
        if incidents is not None and len(incidents):
            probe = pd.DataFrame({k: [v] for k, v in zip(by, key, strict=True)}) if by else pd.DataFrame(index=[0])
            inc = incidents[[bool(scope_mask(probe, s)[0]) for s in incidents["scope"]]]
        group_slo = slo.with_(target=targets[str(key[0])]) if targets and str(key[0]) in targets else slo
        plot_timeline(g, slo=group_slo, transitions=t, incidents=inc, ax=ax)
        ax.set_title(", ".join(f"{k}={v}" for k, v in zip(by, key, strict=True)) or "all events", loc="left")
    fig.tight_layout()
    with atomic_path(path, force=force) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)


def _outcomes(text: str | None) -> dict[str, str] | None:
    """``--outcomes ok=success,pending=skip,5xx=server_error`` as a mapping (None when not given)."""
    if text is None:
        return None
    table: dict[str, str] = {}
    for part in text.split(","):
        label, sep, bucket = part.partition("=")
        if not sep or not label.strip() or not bucket.strip():
            raise ConfigError(f"--outcomes: {part.strip()!r} is not LABEL=MEANING (e.g. done=success,pending=skip,"
                              "5xx=server_error).")
        table[label.strip()] = bucket.strip()
    return table


def _record_path(out: str) -> str:
    return f"{out}.run.json"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:  # read-only
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_RECORDED = ("time", "outcome", "ok", "bucket", "tz", "epoch", "outcomes", "pii", "format", "encoding", "duration",
             "duration_unit", "slow_above", "by", "target", "window", "warning", "critical", "min_events")


def _run_record(args: argparse.Namespace, paths: list[Path], reader: str) -> dict[str, Any]:
    """The reproducible facts of a run: version, parameters (never the salt), input hashes."""
    from .. import __version__

    params = {k: getattr(args, k, None) for k in _RECORDED}
    params["slo"] = Path(args.slo).name if getattr(args, "slo", None) else None
    return {"budgetlab_version": __version__, "command": "replay", "reader": reader, "parameters": params,
            "inputs": [{"name": p.name, "bytes": p.stat().st_size, "sha256": _sha256(p)} for p in paths]}


def _write_record(record: dict[str, Any], slo: SLO, args: argparse.Namespace, events: pd.DataFrame) -> None:
    from .._util.files import atomic_write

    how = events.attrs.get("how_read")
    full = {**record, "slo": {"target": slo.target, "window": duration_label(slo.window), "warning": slo.warning,
                              "critical": slo.critical, "min_events": slo.min_events},
            "how_read": how.as_dict() if how is not None else None,
            "outputs": {"table": Path(args.out).name, "plot": Path(args.plot).name if args.plot else None}}
    with atomic_write(_record_path(args.out), force=args.force) as fh:
        json.dump(full, fh, indent=2, ensure_ascii=False)
        fh.write("\n")


def _read_access(paths: list[Path], args: argparse.Namespace) -> pd.DataFrame:
    from ..events.accesslog import read_access_log

    if args.slow_above is not None or args.duration is not None:
        raise ConfigError("--slow-above needs a duration column; access logs in common/combined format carry none. "
                          "Export the log with its request time as CSV/JSON Lines and pass --duration COLUMN.")
    return read_access_log(paths, outcomes=_outcomes(args.outcomes), by=group_keys(args) or None)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .._util.files import check_output, register_input
    from ..events.accesslog import is_access_log
    from ..events.read import read_events
    from ..events.sources import expand_sources

    slo_from_args(args)  # bad SLO options and outputs that exist or are inputs fail before the read
    paths = expand_sources(args.log if len(args.log) > 1 else args.log[0])
    for p in paths:
        if p.is_file():
            register_input(p)
    for path in (args.out, args.plot, _record_path(args.out) if args.out else None):
        if path:
            check_output(path, force=args.force)
    access = [is_access_log(p) for p in paths] if args.format in (None, "access") else [False] * len(paths)
    if args.format == "access" and not all(access):
        bad = next(p for p, a in zip(paths, access, strict=True) if not a)
        raise ConfigError(f"{bad.name}: its first line is not in common/combined access-log format; check --format.")
    if any(access) and not all(access):
        raise ConfigError("the inputs mix access logs and event tables; give one kind per run.")
    if all(access):
        events = _read_access(paths, args)
    else:
        events = read_events(paths, time=args.time, outcome=args.outcome, ok=args.ok, bucket=args.bucket,
                             by=group_keys(args), tz=args.tz, epoch=args.epoch, pii=args.pii, salt=args.salt,
                             outcomes=_outcomes(args.outcomes), format=args.format, encoding=args.encoding,
                             duration=args.duration, duration_unit=args.duration_unit, slow_above=args.slow_above)
    sys.stderr.write(f"{events.attrs['how_read']}\n")
    sys.stderr.flush()
    if args.by:  # --pii drop may have dropped a group key (it warned by name)
        args.by = ",".join(k for k in group_keys(args) if k in events.columns)
    title = paths[0].name if len(paths) == 1 else f"{len(paths)} files"
    record = _run_record(args, paths, "access log" if all(access) else "events") if args.out else None
    return run_replay(events, args, title=title, record=record)


def add_parser(subparsers: Any) -> None:
    """Register ``budgetlab replay``."""
    rep = subparsers.add_parser("replay", help="replay an outcome log through the seed tracker, vectorized")
    rep.add_argument("log", nargs="+", help="outcome log(s): .csv, .tsv, .parquet, .jsonl (optionally .gz), "
                                            "Apache/nginx access logs; several files, a glob or a folder")
    add_slo_options(rep)
    _add_log_options(rep)
    add_output_options(rep)
    rep.add_argument("--slo", default=None, metavar="SLO.yaml[#NAME]",
                     help="read the SLO from an OpenSLO v1 file (--target/--window override it)")
    rep.set_defaults(func=_cmd_replay)
