"""``budgetlab buckets``: what each failure bucket costs (its burn, the SLI without it, the status
changes and pages it caused), per group, with the input flags of ``replay``, ``--out`` and a
burn-over-time ``--plot``; the numbers are :func:`budgetlab.bucket_breakdown`'s and
:func:`budgetlab.bucket_burn_over_time`'s, never recomputed here.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np
import pandas as pd

from .._util.percent import measured_percent
from .._util.validation import to_timedelta, window_words
from .._util.words import counted
from ..slo import SLO, PerGroup
from ..slo_groups import split_by_slo
from .policy_builds import run_builds
from .prose import path_label
from .reading import LogRead, group_keys, read_log, slo_from_args
from .replay import print_partial_window, span_words
from .shared import group_label, print_slo, save_plot, table_text, wrap, write_output
from .shown_groups import group_limit, shown_groups
from .thin_lines import more_rows
from .unused_flags import refuse_unused

__all__ = ["COMMANDS"]

#: What the columns count, printed above the table (the API's definitions:
#: :mod:`budgetlab.analyses.failure_buckets`).
LEGEND = ("Every figure counts the whole log, first to last event. burn_rate: the bucket's "
          "failures over the group's events x (1 - target), the buckets adding up to the group's "
          "burn; sli_without: the group's success rate with the bucket's events left out; "
          "transitions: the seed tracker's status changes; pages: episodes of the workbook "
          "policy's page tiers on {freq} bins (--freq), but for those begun and ended while "
          "their tier's long window filled at the log's start (not counted, as budgetlab alerts "
          "scores them apart) and a tier whose long window never filled (not evaluated); "
          "*_caused: those the replay without the bucket does not have (each bucket alone: one "
          "that two buckets cause counts for both).")


def _cmd_buckets(args: argparse.Namespace) -> int:
    from .._util.burns import three_digits
    from ..analyses.bucket_filling import pages_evaluated
    from ..analyses.failure_buckets import THIN_COLUMNS, WITHOUT_COLUMNS, bucket_breakdown

    slo = slo_from_args(args)
    if not args.plot:
        refuse_unused(args, ["--plot-freq"], "it sets the bins of the --plot figure, and this "
                      "run draws none")
    to_timedelta(_plot_freq(args), name="plot_freq")  # refused before the work, by its flag
    # --freq against the workbook policy built for the groups' period: before the read when
    # every SLO has one, else after it, for the periods of the log's groups (an SLO of a group
    # the log lacks is not used, so its windows do not decide)
    checked = bool(run_builds(["workbook"], slo, args.freq))
    limit = group_limit(args)
    read = read_log(args, {"--out": args.out, "--plot": args.plot})
    by = group_keys(args)
    if not checked:
        run_builds(["workbook"], slo, args.freq, read.events, by)
    table = bucket_breakdown(read.events, slo, by=by or None, freq=args.freq)
    n_fail = int(table["failures"].sum())
    names = [str(b) for b in table["bucket"].cat.categories]
    if not n_fail:  # no bucket to break down: said, never an empty table or an API error
        return _no_failures(read, table, slo, by, args)
    print(wrap(f"{read.title}: {len(read.events):,} events, "
               f"{span_words(read.events, args.tz)}, "
               f"{counted(n_fail, 'failure')} in the {'bucket' if len(names) == 1 else 'buckets'} "
               f"{', '.join(map(repr, names))}", indent=""))  # quoted: a name reads whole
    _print_legend(read, table, slo, by, args)
    table, n_none = _no_share_without_failures(table, by)
    cols = [*by, "bucket", "events", "failures", "share_of_failures", "failure_rate", "burn_rate",
            "sli",
            "sli_without", "transitions", "transitions_caused", "pages", "pages_caused"]
    cut = shown_groups(table, by, limit)
    show = cut.rows[cols].copy()
    for c in ("share_of_failures", "failure_rate", "sli", "sli_without"):
        show[c] = show[c].map(lambda v: measured_percent(v, missing=""))
    # one precision down the column: three significant digits, trailing zeros kept (0.220, 2.40)
    show["burn_rate"] = show["burn_rate"].map(lambda v: three_digits(v, keep_zeros=True))
    for c in ("events", "failures"):  # as the reading block counts them
        show[c] = show[c].map("{:,}".format)
    thin = (table["note"] != "").to_numpy()  # withheld, or a miss decided on few events
    note = cut.rows["note"]
    # withheld: every figure judged against the target; missed: those without the bucket
    blank = {c: note.str.startswith("withheld").to_numpy() for c in cols if c in THIN_COLUMNS}
    for c in WITHOUT_COLUMNS:
        if c in blank:
            blank[c] = blank[c] | note.str.startswith("missed").to_numpy()
    if not pages_evaluated(table.attrs["filling"]):  # no count of pages: said above the table
        blank.update({c: np.ones(len(show), dtype=bool) for c in ("pages", "pages_caused")})
    show[list(blank)] = show[list(blank)].astype(object).mask(
        pd.DataFrame(blank, index=show.index), "")
    print()
    print(table_text(show, [*by, "bucket"]))
    if cut.line:
        print(wrap(cut.line, indent=""))
    if n_none:
        print(wrap(f"share_of_failures left blank for {counted(n_none, 'group')} without "
                   "failures (0 of 0 failures is no share; an empty cell in --out)", indent=""))
    _print_thin_groups(table[thin].drop_duplicates(by) if by else table[thin].head(1), by)
    if args.out:
        write_output(table, args, "row", "(group x bucket)")
    if args.plot:
        _plot(read, slo, by, table, args)
    return 0


def _print_legend(read: LogRead, table: pd.DataFrame, slo: SLO | PerGroup, by: list[str],
                  args: argparse.Namespace) -> None:
    """The lines above the table: the SLO, a window longer than the data (as ``replay`` says
    it), what the columns count, and the alert episodes they leave out (``filling_note``)."""
    print_slo(slo, by, events=read.events)
    print_partial_window(read.events, slo)
    print(wrap(LEGEND.format(freq=window_words(args.freq)), indent=""))
    if table.attrs["filling_note"]:
        print(wrap(f"note: {table.attrs['filling_note']}", indent=""))


def _plot(read: LogRead, slo: SLO | PerGroup, by: list[str], table: pd.DataFrame,
          args: argparse.Namespace) -> None:
    """``--plot``: each bucket's burn over time, one panel per target (burns under two targets do
    not add), the groups the table leaves blank (too thin) left out, named there."""
    from ..plotting import plot_buckets

    panels = _burn_over_time(read.events, slo, _plot_freq(args), by, table)

    def draw(axes: Any) -> None:
        axs = list(axes) if len(panels) > 1 else [axes]
        for ax, (target, over) in zip(axs, panels, strict=True):
            plot_buckets(over, by=by or None, ax=ax, tz=args.tz, breakdown=table,
                         target=target if len(panels) > 1 else None)
        for ax in axs[:-1]:
            ax.set_xlabel("")  # the time axis is shared: labelled once, at the bottom

    save_plot(draw, args.plot, force=args.force, rows=len(panels))


def _no_failures(read: LogRead, table: pd.DataFrame, slo: SLO | PerGroup, by: list[str],
                 args: argparse.Namespace) -> int:
    """``buckets`` on a log without failures: says so, writes ``--out`` (no rows) and no
    ``--plot`` (no bucket burns: a note on stderr says why)."""
    print(f"{read.title}: {counted(len(read.events), 'event')}, no failures: no failure bucket "
          "to break down")
    print_slo(slo, by, events=read.events)
    if args.out:
        write_output(table, args, "row", "(group x bucket)")
    if args.plot:
        sys.stderr.write(wrap(f"budgetlab: note: no plot written to {path_label(args.plot)}: "
                              "without failures no bucket burns.", indent="") + "\n")
    return 0


#: The bins of the ``--plot`` figure when ``--plot-freq`` is not given.
PLOT_FREQ = "1h"


def _plot_freq(args: argparse.Namespace) -> str:
    """``--plot-freq``, else :data:`PLOT_FREQ`."""
    return str(args.plot_freq or PLOT_FREQ)


def _no_share_without_failures(table: pd.DataFrame, by: list[str]) -> tuple[pd.DataFrame, int]:
    """``table`` with ``share_of_failures`` empty (NaN) in the groups without failures, whose
    0 of 0 failures is no share (the API writes 0 there), and how many groups that is."""
    fails = table.groupby(by, observed=True, sort=False)["failures"].transform("sum") if by \
        else pd.Series(int(table["failures"].sum()), index=table.index)
    none = (fails == 0).to_numpy()
    if not none.any():
        return table, 0
    out = table.assign(share_of_failures=table["share_of_failures"].mask(none))
    return out, len(table[none].drop_duplicates(by)) if by else 1


def _print_thin_groups(rows: pd.DataFrame, by: list[str], most: int = 10) -> None:
    """Below the ``buckets`` table: the groups with few events, each with its note, the first
    ``most`` of each kind and how many more: those whose figures are left blank, and those whose
    failures decide a miss all the same (``missed:``, figures kept)."""
    missed = rows["note"].str.startswith("missed").to_numpy()
    for kind, head in ((~missed, "figures left blank, too thin for a verdict:"),
                       (missed, "few events, but a miss all the same (the figures without the "
                                "bucket left blank):")):
        some = rows[kind]
        if len(some):
            print(head)
        for _, r in some.head(most).iterrows():
            print(wrap(f"{group_label(r, by)}: {str(r['note']).removeprefix('withheld: ')}",
                       indent="  "))
        if len(some) > most:
            print(more_rows(len(some) - most, "more group"))


def _burn_over_time(events: pd.DataFrame, slo: SLO | PerGroup, freq: str, by: list[str],
                    table: pd.DataFrame | None = None) -> list[tuple[float, pd.DataFrame]]:
    """What each panel draws, per target, the highest first: with per-group SLOs each row's
    burn is against its own group's target, and the groups of one target are one panel (a burn
    of 2 under 99 % and one under 90 % are not one unit: they are drawn apart). Only the rows
    drawn are built (:func:`~budgetlab.plotting.bucket_drawn.drawn_burn_over_time`: the groups
    kept apart and the others added up, never a table of every group; the groups a breakdown
    ``table`` withholds left out). Every panel's ``start`` and ``end`` are the whole log's first
    and last event: the panels share one time axis, and a group's bins before its first event
    (or after its last) are bins without events, ruled as such in its panel, not left blank as
    if nothing failed."""
    from .._util.attrs import span_attrs
    from ..analyses.bucket_burn import bucket_burn_over_time
    from ..plotting.bucket_drawn import drawn_burn_over_time
    from ..plotting.bucket_layers import withheld_groups

    whole = span_attrs(events["ts"])
    if isinstance(slo, SLO) and not by:  # one series: nothing to choose or add up
        return [(slo.target, bucket_burn_over_time(events, slo, freq=freq))]
    withheld = withheld_groups(table, by)
    if isinstance(slo, SLO):
        return [(slo.target, drawn_burn_over_time([(slo, events)], freq=freq, by=by,
                                                  withheld=withheld, span=whole))]
    parts: dict[float, list[tuple[SLO, pd.DataFrame]]] = {}
    for s, pos in split_by_slo(events, slo, by):
        parts.setdefault(s.target, []).append((s, events.iloc[pos]))
    return [(target, drawn_burn_over_time(parts[target], freq=freq, by=by, withheld=withheld,
                                          span=whole))
            for target in sorted(parts, reverse=True)]


#: The handler of this module's subcommand (its parser is in :mod:`budgetlab.cli.commands`).
COMMANDS = {"buckets": _cmd_buckets}
