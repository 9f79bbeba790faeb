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
(:func:`replay_states`, :func:`print_run_header`, :func:`write_timeline`) serve ``budgetlab demo``.
With ``--plot``, the timeline is drawn in this process after the tables are printed, and written
last; what it draws is reduced to the pixel columns of its panels
(:func:`~budgetlab.plotting.plot_timeline`), so its cost does not grow with the events.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

import pandas as pd

from .._util.evidence import MOST_EVIDENCE
from .._util.words import command_flag, counted
from ..errors import ConfigError
from ..slo import SLO, PerGroup
from .clock_text import between_events_line, format_summary, silence_record, tie_line
from .drawn import MAX_DRAWN, Group, drawn_groups, with_rates
from .prose import fill_line, path_label, wrap
from .reading import LogRead, group_keys, longest_window, read_log, slo_from_args
from .replay_evidence import evidence_summary, held_line
from .replay_tables import format_incidents, print_transitions, zone_words
from .run_header import print_partial_window, print_run_header, span_words
from .run_record import record_path, run_record, write_record
from .shared import write_output
from .shown_groups import group_limit
from .thin_lines import print_thin_windows

# print_run_header, span_words and print_partial_window: of .run_header, here as before
__all__ = ["COMMANDS", "run_replay", "span_words", "print_partial_window",
           "replay_states", "print_run_header",
           "write_timeline", "draw_timeline"]


#: The replay columns of a run: transitions, the summary and the episodes are computed from
#: these alone (``ts`` and the group keys are always kept); the timeline derives the figures it
#: draws from ``total`` and ``failures`` for the drawn groups' rows only (:func:`drawn_groups`,
#: bit for bit the replay's), and only those it reads beside the window's steps: the rows
#: outside their observation.
RUN_COLUMNS = ["total", "failures", "status"]


def replay_states(events: pd.DataFrame, slo: SLO | PerGroup, by: list[str]
                  ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(states, transitions)`` of one run; per-group SLOs go to :func:`budgetlab.replay` as they
    are (it replays each group with its own). The states hold only :data:`RUN_COLUMNS`."""
    from ..budget.status_changes import transitions
    from ..budget.tracker_replay import replay_table

    # a window longer than the log: the header's note says it, in the CLI's words
    states = replay_table(events, slo, by=by or None, columns=RUN_COLUMNS, warn_partial=False)
    return states, transitions(states)


def _print_scope_note(incidents: pd.DataFrame, by: list[str], columns: set[str] | None) -> None:
    """How scopes naming keys outside ``--by`` are read, as ``alerts`` and ``compare-windows``
    say it (:func:`~budgetlab.alerts.incident_scopes.ungrouped_scope_words`; ``columns``: the
    log's): such a key does not restrict which timelines draw the incident."""
    from ..alerts.incident_scopes import ungrouped_scope_words

    if "scope" in incidents.columns:
        note = ungrouped_scope_words(incidents["scope"], by, "which timelines draw an incident",
                                     columns=columns)
        if note:
            print(wrap(note, indent=""))


def run_replay(events: pd.DataFrame, args: argparse.Namespace, *, title: str,
               slo: SLO | PerGroup, incidents: pd.DataFrame | None,
               record: dict[str, Any] | None, columns: set[str] | None) -> int:
    """Replay, print the summary and transitions, write --out/--plot (checked by the caller).

    ``incidents`` (a :func:`read_incidents
    <budgetlab.alerts.incidents_file.read_incidents>` table) are listed after the summary and
    drawn on the timeline; ``record`` (the JSON run record) is written beside ``--out`` as
    ``OUT.run.json``; ``columns``: the log's, for the scope note.
    """
    from .._util.files import write_table
    from ..budget.spans import status_spans
    from ..budget.summary import replay_summary
    from ..budget.ties import find_ties

    by = group_keys(args)
    states, tr = replay_states(events, slo, by)
    spans = status_spans(events, slo, by=by or None)
    drawn = None
    # the groups chosen now: a name --plot-groups does not know fails before any output
    if args.plot:
        names = ([n.strip() for n in args.plot_groups.split(",") if n.strip()]
                 if args.plot_groups else None)
        drawn = (*drawn_groups(states, tr, by, MAX_DRAWN, rates=False,
                               ok=events["ok"].to_numpy(dtype=bool), names=names,
                               outside=(spans.attrs["start"], spans.attrs["end"])), bool(names))
    summary, steps = evidence_summary(replay_summary(states, events, spans=spans), events, slo,
                                      by)
    ties = find_ties(events, by or None)
    print_run_header(title, events, slo, by, args.tz)
    print("\nSummary (time in each status, on the window's clock)")
    print(format_summary(summary, longest_window(slo), group_limit(args), slo, args.tz))
    held = held_line(summary, slo)
    if held:
        print(held)
    tie_text = tie_line(ties, args.tz)
    if tie_text:
        print(tie_text)
    if record is not None:
        record.update(silence_record(summary, ties))
    if incidents is not None:
        print(fill_line(f"\nIncidents ({len(incidents):,} in {path_label(args.incidents)}; "
                        f"{zone_words(args.tz)})"))
        print(format_incidents(incidents, events, tz=args.tz))
        _print_scope_note(incidents, by, columns)
    print_transitions(tr, events, longest_window(slo), tz=args.tz)
    print_thin_windows(states, tr, slo, by, steps=steps)
    between = between_events_line(summary, tr)
    if between:
        print(between)
    if args.summary_out:
        print()
        write_output(summary, args, "summary row", "(one per group)", path=args.summary_out)
    if args.out:
        write_table(tr, args.out, force=args.force)
        print(f"\nwrote {counted(len(tr), 'transition')} to {path_label(args.out)}")
        if record is not None:
            write_record(record, slo, args, events)
            print(f"wrote the run record to {path_label(record_path(args.out))}")
    if drawn is not None:
        groups, n_groups, named = drawn
        draw_timeline(groups, n_groups, by, args.plot, slo=slo, incidents=incidents,
                      force=args.force, tz=args.tz, spans=spans, named=named,
                      events=events)
        print(f"wrote timeline to {path_label(args.plot)}")
    return 0


def _drawn_steps(events: pd.DataFrame, slo: SLO | PerGroup, by: list[str], groups: list[Group],
                 spans: pd.DataFrame) -> Iterator[pd.DataFrame]:
    """The window's steps (:func:`budgetlab.status_spans` with ``steps=True``) of each drawn
    group, over the observation of the run's ``spans``: the lines' exact values (up to two rows
    per event of that group). A group's events are its rows in the states (:class:`Group`: a
    replay keeps the events' rows), found once by :func:`drawn_groups`; its steps alone, in time
    order: one group's clock needs no sort. Made as they are read, one group at a time: a
    group's steps are dropped once its panels are drawn (reduced to their pixel columns), so
    the next group's reuse their memory instead of all of them being held at once."""
    from ..budget.spans import status_spans

    def steps(part: pd.DataFrame) -> pd.DataFrame:
        return status_spans(part, slo, by=by or None, steps=True, start=spans.attrs["start"],
                            end=spans.attrs["end"])

    return (steps(events if g.rows is None else events.take(g.rows)) for g in groups)


def write_timeline(states: pd.DataFrame, tr: pd.DataFrame, by: list[str], path: str, *,
                   slo: SLO | PerGroup,
                   incidents: pd.DataFrame | None, force: bool, tz: str | None = None,
                   spans: pd.DataFrame, events: pd.DataFrame) -> None:
    """Draw the timeline figure and write it (atomically): stacked panels per group (success
    rate, burn rate, budget remaining; see :func:`~budgetlab.plotting.plot_timeline`), each with
    its own SLO's target. Up to :data:`MAX_DRAWN` groups; with more, those with the most evidence
    (the most failures, then the most events), said in the figure
    and on stderr. The status bands and the lines are the window's clock of ``spans``
    (:func:`budgetlab.status_spans` of the run) and ``events`` (the run's), no traffic drawn as
    such.
    Format from the suffix (png, svg, pdf); ``tz`` labels the axes.

    :func:`drawn_groups` (cheap: a few passes over the group codes), then :func:`draw_timeline`."""
    groups, n_groups = drawn_groups(states, tr, by, MAX_DRAWN, rates=False,
                                    ok=events["ok"].to_numpy(dtype=bool),
                                    outside=(spans.attrs["start"], spans.attrs["end"]))
    draw_timeline(groups, n_groups, by, path, slo=slo, incidents=incidents, force=force, tz=tz,
                  spans=spans, events=events)


def draw_timeline(groups: list[Group], n_groups: int, by: list[str], path: str, *,
                  slo: SLO | PerGroup,
                  incidents: pd.DataFrame | None, force: bool, tz: str | None = None,
                  spans: pd.DataFrame, named: bool = False, events: pd.DataFrame) -> None:
    """Draw the ``groups`` :func:`drawn_groups` chose (of ``n_groups``; a note on stderr and in
    the figure when not all) on the window's clock of ``spans`` (the run's, all groups: its
    observation) with the window's steps of those groups in ``events`` (the run's), and write the
    file in the format ``path``'s suffix names. Each group's steps are made as it is drawn
    (:func:`_drawn_steps`); with them a group's table needs only its rows outside their
    observation (:func:`drawn_groups`'s ``outside``: :func:`~budgetlab.plotting.plot_timeline`
    reads no other)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._util.figures import save_figure
    from ..events.schema import scope_mask
    from ..plotting import place_axis_labels, plot_timeline
    from ..plotting.last_event import mark_last_event, stopped_at
    from ..plotting.timeline_marks import merge_legends

    note = _drawn_note(len(groups), n_groups, named) if n_groups > len(groups) else ""
    if note:
        # filled to 100 columns as the "how it was read" block above it
        sys.stderr.write(wrap(f"budgetlab: note: the timeline shows {note}.", indent="") + "\n")
    fig, axes = _timeline_figure(len(groups), bool(note))
    left, width, height = _LEFT, _WIDTH, fig.get_figheight()
    tops: list[Any] = []
    steps = _drawn_steps(events, slo, by, groups, spans)
    try:
        for i, (key, g, t, _) in enumerate(groups):
            ax = axes[i]
            inc = None
            if incidents is not None and len(incidents):
                probe = (
                    pd.DataFrame({k: [v] for k, v in zip(by, key, strict=True)})
                    if by
                    else pd.DataFrame(index=[0])
                )
                inc = incidents[[bool(scope_mask(probe, s)[0]) for s in incidents["scope"]]]
            group_slo = slo.slo_for(key) if isinstance(slo, PerGroup) else slo
            drawn = plot_timeline(with_rates(g, key), slo=group_slo, transitions=t, incidents=inc,
                                  ax=ax, tz=tz,
                                  spans=next(steps))
            mark_last_event(getattr(drawn, "panels", [drawn]), stopped_at(events, spans, by, key),
                            "last event (stopped sending)")
            name = ", ".join(f"{k}={v}" for k, v in zip(by, key, strict=True)) or "all events"
            # a fixed y: matplotlib's automatic one measures every tick
            ax.set_title(name, loc="left", y=1.0)
            ax.set_title(f"{counted(len(t), 'status change')} at events",
                         loc="right", fontsize="small", y=1.0)
            tops.append(drawn)
            # measured once here, not for every sibling again in the draw
            place_axis_labels(getattr(drawn, "panels", [drawn]))
        merge_legends(tops)  # on the first group's panels: what any group draws
        width = _fit_width(fig, axes)
        height = _fit_height(fig, axes, [getattr(d, "panels", [d]) for d in tops])
        if note:
            fig.text(left / width, 1 - 0.12 / height, f"Timeline of {note}.", va="top",
                     fontsize="medium")
        # 15 % larger, a third faster to encode
        save_figure(fig, path, force=force, dpi=100, png_compression=1)
    finally:
        plt.close(fig)


def _drawn_note(drawn: int, n_groups: int, named: bool = False) -> str:
    """Which groups the timeline draws, and how to choose others when the running command can
    (``replay --plot-groups``; ``demo`` has no such flag, so its note names none)."""
    flag = command_flag("plot_groups")
    if named:
        return f"{drawn:,} of {n_groups:,} groups, chosen by name" + (f" ({flag})" if flag else "")
    choose = f" ({flag} chooses them by name)" if flag else ""
    return f"{drawn:,} of {n_groups:,} groups: {MOST_EVIDENCE}{choose}"


# inches: 3.5 per group (the fullest legends, stacked beside the three panels, need about 3.2),
# 0.8 between groups (tick labels, title), margins for labels and legends; below, room for the
# dates on two lines (a first tick of a span across New Year carries its year) and the x label
_WIDTH, _PER, _BETWEEN, _BOTTOM, _LEFT, _RIGHT = 13.0, 3.5, 0.8, 0.7, 1.1, 3.9
#: inches right of the rightmost legend (:func:`_fit_width`)
_MARGIN = 0.2


def _fit_width(fig: Any, axes: list[Any]) -> float:
    """Narrow ``fig`` (of :func:`_timeline_figure`) to its legends: its right edge
    :data:`_MARGIN` inches past the rightmost one (room for the fullest of them was kept; a
    group's fewer entries left a third of the figure blank), the panels where they were, in
    inches; never wider than before. Returns the width (inches)."""
    renderer = fig.canvas.get_renderer()
    ends = [legend.get_window_extent(renderer).x1 / fig.dpi for ax in fig.axes
            if (legend := ax.get_legend()) is not None]
    width = min(_WIDTH, max([*ends, _WIDTH - _RIGHT]) + _MARGIN)
    fig.set_figwidth(width)
    grid = axes[0].get_subplotspec().get_topmost_subplotspec().get_gridspec()
    grid.update(left=_LEFT / width, right=(_WIDTH - _RIGHT) / width)
    return float(width)


def _fit_height(fig: Any, axes: list[Any], stacks: list[list[Any]]) -> float:
    """Grow the gaps between groups and the bottom margin of ``fig`` (of
    :func:`_timeline_figure`; ``stacks``: each group's panels) to what matplotlib's tight boxes
    measure: a group's dates and x label clear of the next group's title by :data:`_MARGIN`
    inches, the last group's above the figure's edge (a first tick carrying its day and year, a
    log across New Year, takes three lines). The panels keep their size. Returns the height."""
    renderer, dpi = fig.canvas.get_renderer(), fig.dpi
    boxes = [[p.get_tightbbox(renderer) for p in panels] for panels in stacks]
    lows = [min(b.y0 for b in bs) / dpi for bs in boxes]
    highs = [max(b.y1 for b in bs) / dpi for bs in boxes]
    grid = axes[0].get_subplotspec().get_topmost_subplotspec().get_gridspec()
    height = fig.get_figheight()
    top, bottom, between = (1 - grid.top) * height, grid.bottom * height, grid.hspace * _PER
    between += max([highs[i + 1] - lows[i] + _MARGIN for i in range(len(lows) - 1)] + [0.0])
    bottom += max(_MARGIN - lows[-1], 0.0)
    height = top + bottom + _PER * len(axes) + between * (len(axes) - 1)
    fig.set_figheight(height)
    grid.update(top=1 - top / height, bottom=bottom / height, hspace=between / _PER)
    return float(height)


def _timeline_figure(n: int, note: bool) -> tuple[Any, list[Any]]:
    """The timeline's figure and one axes per group (each group has its own time axis: shared
    ones make drawing quadratic)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    top = 0.45 + (0.3 if note else 0)
    height = top + _BOTTOM + _PER * n + _BETWEEN * (n - 1)
    fig = plt.figure(figsize=(_WIDTH, height))
    grid = fig.add_gridspec(n, 1, left=_LEFT / _WIDTH, right=1 - _RIGHT / _WIDTH,
                            top=1 - top / height,
                            bottom=_BOTTOM / height, hspace=_BETWEEN / _PER)
    return fig, [fig.add_subplot(grid[i]) for i in range(n)]


def _cmd_replay(args: argparse.Namespace) -> int:
    slo = slo_from_args(args)  # bad SLO options fail before the read
    if args.plot_groups and not args.plot:  # a choice that would draw nothing, never dropped
        raise ConfigError("--plot-groups chooses the groups the --plot timeline draws; give "
                          "--plot FILE (.png, .svg or .pdf) too, or leave --plot-groups out.")
    if args.plot_groups and not group_keys(args):  # one timeline, all events: nothing to choose
        raise ConfigError("--plot-groups chooses among the groups of --by; without --by the "
                          "timeline draws all events: give --by KEY too, or leave --plot-groups "
                          "out.")
    group_limit(args)  # --show-groups without --by fails before the read
    outputs = {"--out": args.out, "--plot": args.plot, "--summary-out": args.summary_out,
               "--out's run record": record_path(args.out) if args.out else None}
    read: LogRead = read_log(args, outputs, incidents=args.incidents)
    record = run_record(args, read) if args.out else None
    return run_replay(read.events, args, title=read.title, slo=slo, incidents=read.incidents,
                      record=record, columns=read.file_columns(args))


#: The handlers of this module's subcommands (their parsers are in :mod:`budgetlab.cli.commands`).
COMMANDS = {"replay": _cmd_replay}
