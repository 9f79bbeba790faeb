"""``budgetlab replay LOG...``: replay an outcome log through the seed tracker, print the summary
and the transitions, write ``--out`` (table, with a JSON run record beside it) and ``--plot``
(timeline; PNG, SVG or PDF by the suffix). ``--incidents FILE`` (an incidents CSV, read by
:func:`~budgetlab.alerts.incidents_file.read_incidents`: an input, never overwritten) lists the
incidents after the summary and draws them on the timeline.

``LOG`` is one or more files, globs or folders: CSV/TSV/Parquet/JSON Lines event logs, or
Apache/nginx access logs (recognised by their content, plain or gzip). Before any result, the
"how it was read" block goes to stderr (see :func:`~budgetlab.cli.reading.read_log`).

``--slo FILE`` with several SLOs bound to groups by their labels replays each group with its
own SLO (a :class:`~budgetlab.PerGroup`); the header says how they were bound. The pieces
(:func:`replay_tables`, :func:`print_run_header`, :func:`write_timeline`) serve ``budgetlab demo``.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import duration_label
from ..errors import PartialWindowWarning
from ..slo import SLO, PerGroup
from .labels import path_label
from .reading import (
    LogRead,
    add_output_options,
    add_slo_options,
    describe_slo,
    group_keys,
    longest_window,
    read_log,
    record_path,
    run_record,
    slo_from_args,
    write_record,
)

__all__ = ["COMMANDS", "add_slo_options", "add_output_options", "slo_from_args", "group_keys", "run_replay",
           "replay_tables", "print_run_header", "format_summary", "format_incidents", "write_timeline", "drawn_groups",
           "MAX_DRAWN"]

#: The timeline draws at most this many groups (all up to this many, else the most interesting).
MAX_DRAWN = 4


def format_summary(summary: pd.DataFrame) -> str:
    """The summary table as printed: success rate in %, hours and share in each status."""
    show = summary.copy()
    show["success_rate"] = (show["success_rate"] * 100).map("{:.2f} %".format)
    for st in ("healthy", "warning", "critical", "exhausted"):
        show[st] = show[f"hours_{st}"].map("{:.1f} h".format) + " (" + (show[f"share_{st}"] * 100).map("{:.0f}".format) + " %)"
    cols = [c for c in summary.columns if not c.startswith(("hours_", "share_"))]
    cols = [c for c in cols if c not in ("success_rate", "transitions", "final_status")]
    cols += ["success_rate", "healthy", "warning", "critical", "exhausted", "transitions", "final_status"]
    return show[cols].to_string(index=False)


def format_incidents(incidents: pd.DataFrame, events: pd.DataFrame, limit: int = 40) -> str:
    """The incidents table as printed: ``incident_id``, ``kind``, ``start``, ``end`` (UTC, to the
    minute), ``scope``; at most ``limit`` rows, and a note on incidents outside the log's span."""
    if incidents.empty:
        return "(no incidents in the file)"
    cols = [c for c in ("incident_id", "kind", "start", "end", "scope") if c in incidents.columns]
    show = incidents[cols].head(limit).copy()
    for c in ("start", "end"):
        show[c] = show[c].dt.strftime("%Y-%m-%d %H:%M")
    text = show.to_string(index=False)
    if len(incidents) > limit:
        text += f"\n... {len(incidents) - limit} more (all of them are drawn with --plot)"
    first, last = events["ts"].min(), events["ts"].max()
    outside = int(((incidents["end"] < first) | (incidents["start"] > last)).sum())
    if outside:
        text += (f"\nnote: {outside} of {len(incidents)} incident(s) lie outside the log's span "
                 f"({first:%Y-%m-%d %H:%M} .. {last:%Y-%m-%d %H:%M} UTC)")
    return text


def _format_transitions(tr: pd.DataFrame, limit: int = 40) -> str:
    if tr.empty:
        return "(no status changes)"
    show = tr.head(limit).copy()
    show["ts"] = show["ts"].dt.strftime("%Y-%m-%d %H:%M:%S")
    text = show.to_string(index=False)
    if len(tr) > limit:
        text += f"\n... {len(tr) - limit} more (write them all with --out)"
    return text


#: The replay columns a run needs when it draws no timeline: transitions, the summary and the
#: episodes are computed from these alone (``ts`` and the group keys are always kept).
LEAN_COLUMNS = ["total", "failures", "status"]


def replay_tables(events: pd.DataFrame, slo: SLO | PerGroup, by: list[str], *, plot: bool = True
                  ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """``(states, transitions, summary)`` of one run; per-group SLOs go to :func:`budgetlab.replay`
    as they are (it replays each group with its own). Without ``plot`` the states hold only
    :data:`LEAN_COLUMNS` (the timeline needs every figure; the tables do not)."""
    from ..budget.tracker_replay import replay, replay_summary, transitions

    with warnings.catch_warnings():  # the header's note says it, in the CLI's words
        warnings.simplefilter("ignore", PartialWindowWarning)
        states = replay(events, slo, by=by or None, columns=None if plot else LEAN_COLUMNS)
    return states, transitions(states), replay_summary(states, events)


def print_run_header(title: str, events: pd.DataFrame, slo: SLO | PerGroup, by: list[str]) -> None:
    """The run's first lines: events and span, the SLO (per-group compactly), how per-group SLOs
    were bound, and a note when a window is longer than the data."""
    span = events["ts"].iloc[-1] - events["ts"].iloc[0]
    print(f"{title}: {len(events):,} events, {events['ts'].iloc[0]:%Y-%m-%d %H:%M} .. "
          f"{events['ts'].iloc[-1]:%Y-%m-%d %H:%M} UTC")
    print(describe_slo(slo, by))
    if isinstance(slo, PerGroup) and slo.binding:
        print(f"SLOs bound to groups: {slo.binding}")
    window = longest_window(slo)
    if window > span:
        print(f"note: the window ({duration_label(window)}) is longer than the data ({duration_label(span)}); "
              "every window is partial.")


def run_replay(events: pd.DataFrame, args: argparse.Namespace, *, title: str, slo: SLO | PerGroup | None = None,
               incidents: pd.DataFrame | None = None, record: dict[str, Any] | None = None) -> int:
    """Replay, print the summary and transitions, write --out/--plot (checked by the caller).

    ``slo`` defaults to the command line's; ``incidents`` (a :func:`read_incidents
    <budgetlab.alerts.incidents_file.read_incidents>` table) are listed after the summary and
    drawn on the timeline; ``record`` (the JSON run record) is written beside ``--out`` as
    ``OUT.run.json``.
    """
    from .._util.files import write_table

    slo = slo_from_args(args) if slo is None else slo
    by = group_keys(args)
    states, tr, summary = replay_tables(events, slo, by, plot=bool(args.plot))
    print_run_header(title, events, slo, by)
    print("\nSummary (time in each status)")
    print(format_summary(summary))
    if incidents is not None:
        from ..events.pii import shown

        print(f"\nIncidents ({len(incidents)} in {shown(Path(args.incidents).name)}; times UTC)"
              if getattr(args, "incidents", None) else f"\nIncidents ({len(incidents)}; times UTC)")
        print(format_incidents(incidents, events))
    window = longest_window(slo)
    warm = (tr["ts"] < events["ts"].iloc[0] + window).to_numpy()
    after = int((~warm).sum())
    listed = ("listed from the first full window on" if after else
              "none after it, so the warm-up's are listed") if warm.any() else "listed"
    print(f"\nTransitions ({len(tr)}; {int(warm.sum())} during the warm-up, the first {duration_label(window)} "
          f"when the window is still filling: {listed})")
    print(_format_transitions(tr[~warm] if after else tr))
    if args.out:
        write_table(tr, args.out, force=args.force)
        print(f"\nwrote {len(tr)} transitions to {path_label(args.out)}")
        if record is not None:
            write_record(record, slo, args, events)
            print(f"wrote the run record to {path_label(record_path(args.out))}")
    if args.plot:
        write_timeline(states, tr, by, args.plot, slo=slo, incidents=incidents, force=args.force,
                       tz=getattr(args, "tz", None))
        print(f"wrote timeline to {path_label(args.plot)}")
    return 0


def drawn_groups(states: pd.DataFrame, tr: pd.DataFrame, by: list[str], limit: int = MAX_DRAWN
                 ) -> tuple[list[tuple[tuple[Any, ...], pd.DataFrame, pd.DataFrame]], int]:
    """The groups the timeline draws, with their rows (only the columns drawn) and transitions,
    and the number of groups. Up to ``limit`` groups: all of them in key order; more: the
    ``limit`` most interesting, worst first (the worst status reached, then the lowest mean
    budget remaining over the group's events, then key order). Costs a few passes over the
    rows' group codes and one over the transitions, then work in the drawn groups only: never a
    sort of all rows, never a mask over all transitions per group."""
    from ..windows.groups import group_codes

    cols = [c for c in _DRAWN_COLUMNS if c in states.columns]
    if not by:
        return [((), states, tr)], 1
    code = group_codes(states, by)
    n_groups = int(code.max()) + 1 if len(code) else 0
    if n_groups > limit:
        status = states["status"].cat.codes.to_numpy()
        worst = np.zeros(n_groups, dtype=status.dtype)  # the same dtype: numpy's fast ufunc.at
        np.maximum.at(worst, code, status)
        remaining = np.nan_to_num(states["remaining_fraction"].to_numpy(dtype=float), nan=1.0)
        low = np.bincount(code, weights=remaining, minlength=n_groups) / np.bincount(code, minlength=n_groups)
        chosen = np.lexsort((np.arange(n_groups), low, -worst.astype(np.int64)))[:limit]
    else:
        chosen = np.arange(n_groups)
    key_frame = states[by]
    keys, rows_of = [], []
    for g in chosen:  # a pass over the codes per drawn group: cheaper than sorting all rows by group
        rows = np.flatnonzero(code == g)
        rows_of.append(rows)
        keys.append(tuple(key_frame.iloc[int(rows[0])]))
    text_keys = pd.MultiIndex.from_tuples([tuple(str(v) for v in k) for k in keys], names=by)
    tr_keys = pd.MultiIndex.from_frame(tr[by].astype(str)) if len(tr) else text_keys[:0]
    tr_code = text_keys.get_indexer(tr_keys)
    tr_kept = tr.iloc[np.flatnonzero(tr_code >= 0)]
    tr_kept_code = tr_code[tr_code >= 0]
    tr_order = np.argsort(tr_kept_code, kind="stable")
    tr_bounds = np.searchsorted(tr_kept_code[tr_order], np.arange(len(keys) + 1))
    out = []
    for i, (key, rows) in enumerate(zip(keys, rows_of, strict=True)):
        part = pd.DataFrame({c: states[c].array.take(rows) for c in cols})  # the drawn columns only
        part.attrs = {k: v for k, v in states.attrs.items() if k == "slo"}
        out.append((key, part, tr_kept.iloc[tr_order[tr_bounds[i]:tr_bounds[i + 1]]]))
    return out, n_groups


#: The columns of the states that the timeline draws.
_DRAWN_COLUMNS = ("ts", "success_rate", "burn_rate", "remaining_fraction", "status")


def write_timeline(states: pd.DataFrame, tr: pd.DataFrame, by: list[str], path: str, *, slo: SLO | PerGroup,
                   incidents: pd.DataFrame | None, force: bool, tz: str | None = None) -> None:
    """The timeline figure: stacked panels per group (success rate, burn rate, budget remaining;
    see :func:`~budgetlab.plotting.plot_timeline`), each with its own SLO's target. Up to
    :data:`MAX_DRAWN` groups; with more, the most interesting (:func:`drawn_groups`), said in the
    figure and on stderr. Format from the suffix (png, svg, pdf); ``tz`` labels the axes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._util.files import save_figure
    from ..events.schema import scope_mask
    from ..plotting import plot_timeline

    groups, n_groups = drawn_groups(states, tr, by)
    note = ""
    if n_groups > MAX_DRAWN:
        note = (f"{len(groups)} of {n_groups} groups: the worst status reached first, then the lowest mean budget "
                "remaining")
        sys.stderr.write(f"budgetlab: note: the timeline shows {note}.\n")
    # inches: 3.0 per group, 0.8 between groups (tick labels, title), margins for labels and legends
    width, per, between, top, bottom, left, right = 13.0, 3.0, 0.8, 0.45 + (0.3 if note else 0), 0.55, 1.1, 3.65
    height = top + bottom + per * len(groups) + between * (len(groups) - 1)
    fig = plt.figure(figsize=(width, height))
    try:
        grid = fig.add_gridspec(len(groups), 1, left=left / width, right=1 - right / width, top=1 - top / height,
                                bottom=bottom / height, hspace=between / per)
        for i, (key, g, t) in enumerate(groups):
            ax = fig.add_subplot(grid[i])  # own time axis per group: shared ones make drawing quadratic
            inc = None
            if incidents is not None and len(incidents):
                probe = pd.DataFrame({k: [v] for k, v in zip(by, key, strict=True)}) if by else pd.DataFrame(index=[0])
                inc = incidents[[bool(scope_mask(probe, s)[0]) for s in incidents["scope"]]]
            group_slo = slo.slo_for(key) if isinstance(slo, PerGroup) else slo
            drawn = plot_timeline(g, slo=group_slo, transitions=t, incidents=inc, ax=ax, tz=tz)
            name = ", ".join(f"{k}={v}" for k, v in zip(by, key, strict=True)) or "all events"
            ax.set_title(name, loc="left", y=1.0)  # a fixed y: matplotlib's automatic one measures every tick
            ax.set_title(f"{len(t):,} status change{'' if len(t) == 1 else 's'}", loc="right", fontsize="small", y=1.0)
            for panel in getattr(drawn, "panels", [drawn]) if i else []:  # the first group's legends serve all
                if panel.get_legend() is not None:
                    panel.get_legend().remove()
        if note:
            fig.text(left / width, 1 - 0.12 / height, f"Timeline of {note}.", va="top", fontsize="medium")
        save_figure(fig, path, force=force, dpi=100)
    finally:
        plt.close(fig)


def _cmd_replay(args: argparse.Namespace) -> int:
    slo = slo_from_args(args)  # bad SLO options fail before the read
    incidents = None
    if args.incidents is not None:  # a bad incidents file fails before the log is read; an input from here on
        from ..alerts.incidents_file import read_incidents

        incidents = read_incidents(args.incidents)
    outputs = {"--out": args.out, "--plot": args.plot,
               "--out's run record": record_path(args.out) if args.out else None}
    read: LogRead = read_log(args, outputs, extra_inputs=(args.incidents or "",))
    record = run_record(args, read) if args.out else None
    return run_replay(read.events, args, title=read.title, slo=slo, incidents=incidents, record=record)


#: The handlers of this module's subcommands (their parsers are in :mod:`budgetlab.cli.commands`).
COMMANDS = {"replay": _cmd_replay}
