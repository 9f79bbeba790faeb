"""Recalibration distributions: the rolling success rate, the candidates and the recommendation."""

from __future__ import annotations

import textwrap
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .._util.evidence import LESS_EVIDENCE, evidence_weights
from .._util.percent import given_percent
from .._util.validation import window_words
from .._util.words import counted, duration_words, prose_duration
from ..budget.figures import STATUSES
from ..errors import InputError
from ._common import (
    OTHER_COLOR,
    group_colors,
    other_label,
)
from ._group_labels import MOST_NAMED, gid_kind, group_labels, left_out_note
from ._numbers import plain_numbers
from .legends import fit_y_label, legend_above, room_below, room_for_y_labels
from .recalibration_others import draw_other_groups, known_curve, rows_by_label, steps_post
from .recommended_lines import capped_handles, stripe_shared

#: The widest a legend entry's line runs (characters; longer entries are wrapped): three
#: columns fit a default 6.4 inch figure. One entry of 80 characters made the legend one column
#: of 12 entries, 60 % of the figure's height, the axes squashed under it.
KEY_WIDTH = 26

#: The widths (characters) the y label is wrapped at, widest first: the widest whose lines are
#: no taller than the axes (:func:`~budgetlab.plotting.legends.fit_y_label`).
Y_LABEL_WIDTHS = (60, 32, 24, 16)

#: The floor of the log-scaled share of time (percent): a candidate's share above 0 but below
#: it (a lone failure inside a warm-up leaves 1 ns at EXHAUSTED: 3.8e-14 %) is drawn on the floor
#: with its own marker, so that the axis spans the shares a reader can act on, not 14 decades.
#: The table keeps the exact figure.
LOG_FLOOR_PERCENT = 1e-4

#: The marker of a candidate drawn on the floor (pointing down: its share lies below).
BELOW_MARKER = "v"


def plot_recalibration(result: Any, *, ax: Axes | None = None, logy: bool = True) -> Axes:
    """Share of time at the limit status or worse as a function of the target, per group, with
    the candidates' exact shares, the recommended target and its bootstrap interval and the
    current target.

    Parameters
    ----------
    result : Recalibration
        Output of :func:`budgetlab.recalibrate`.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    logy : bool
        Log scale for the share of time (the tail that decides the target stays visible), its
        floor at :data:`LOG_FLOOR_PERCENT` (0.0001 %): a candidate's share above 0 and below it
        is drawn on the floor, with a marker keyed ``under 0.0001%, on the floor`` (a legend's
        percent, as its other keys: ``limit 1%``; the table keeps the exact figure); a share of 0
        is not drawn on
        a log scale.

    Returns
    -------
    Axes
        Artists with gids, one set per group label ``<g>`` (``"all"`` without groups):
        ``distribution:<g>`` (a step line, ``drawstyle="steps-post"``, in percent: the share
        of time at ``limit_status`` or worse as a function of the target, by the candidates'
        rule; at ``exhausted`` it is the distribution of the rolling success rate, at
        ``critical`` and ``warning`` that distribution moved to the targets whose thresholds the
        rates cross, ``1 - (1 - rate) / (1 - critical)``. The tables know the curve at two
        kinds of point: ``result.distribution``'s (x = ``target``, y = ``probability``: from
        that target up the share is at least that level) and ``result.candidates``' (their exact
        shares); the line goes through both, sorted by target, each held until the next point
        at the largest share known so far (it never falls), so every candidate's dot sits on it
        (on a riser where its target is one of the levels'), and between two points it draws
        the lower bound, never a value between them; on a log scale a share of 0 is left out
        and one under the floor drawn on it),
        ``candidates:<g>`` (markers: x = ``target`` × 100, y = share of time at
        ``limit_status`` or worse × 100 from ``result.candidates``, computed exactly; on a log
        scale those at or above the floor), ``below_floor:<g>`` (markers on the floor, log
        scale only: the
        candidates whose share lies between 0 and the floor), ``recommended:<g>``
        (vertical line; where several coloured groups share a target, each of their lines is
        dashed in turn, so the one line shows their colours, keyed once with their names:
        :func:`~budgetlab.plotting.recommended_lines.stripe_shared`), ``interval:<g>``
        (shaded ``recommended_low``..``recommended_high``),
        ``current:<g>`` (dashed vertical line, a
        triangle on its top end; shared, striped as the recommended lines are, keyed only by
        ``current target``), and ``limit`` (horizontal line at ``max_share`` × 100). With more
        groups than distinct colours, those with the most failures, then the most events (the
        rule of ``replay --plot``: :func:`~budgetlab._util.evidence.most_evidence`) keep theirs
        and the others are drawn in grey (without the interval's shading) under one legend entry
        that says the rule, ``other (N groups; fewer failures, then events)``,
        all together in one artist per kind (gids ``distribution/others``, a
        :class:`~matplotlib.collections.LineCollection` of their steps; ``candidates/others``,
        ``below_floor/others``; ``recommended/others`` and ``current/others``, collections of
        vertical lines: no colon, so a group named ``other`` keeps ``<kind>:other`` to itself).
        A group whose evidence :func:`~budgetlab.recalibrate` withheld (no ``p50``: too thin for
        a verdict) is not drawn, nor is one without a recommendation (a window too thin for one,
        or no target meets the rule: its curve recommends nothing, and thousands of them were a
        grey wall stretching the x axis), so the x range follows the groups drawn; a text (gid
        ``left_out``) under the x label, outside the plot area (inside it, it covered the
        candidates on the floor), says why, with each count, and names those groups, the first
        :data:`~budgetlab.plotting._group_labels.MOST_NAMED` of them, then how many more.
        The legend keys only the marks drawn: no ``current target`` without one (none given),
        no bootstrap interval without one (``n_boot=0``). A recommendation the evidence capped
        (``recommended_capped``: the rule alone gives more than the group's events can judge) is
        keyed as such, ``<g>: recommended 99.8% (capped: as high as 7,141 events can judge)``
        (the grey groups' in one entry), and ``recommended target`` only keys uncapped ones.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import recalibrate, synth
    >>> events, _ = synth.generate("2026-10-05", 6, seed=1, rate=0.1, incidents=None,
    ...                            session_ids=False)
    >>> r = recalibrate(events, by="captcha_type", target=0.93, n_boot=20)
    >>> ax = plot_recalibration(r)
    >>> [ln.get_gid() for ln in ax.lines][:3]
    ['distribution:recaptcha_v2', 'candidates:recaptcha_v2', 'recommended:recaptcha_v2']
    >>> plt.close("all")
    """
    for attr in ("summary", "candidates", "distribution", "settings"):
        if not hasattr(result, attr):
            raise InputError("plot_recalibration() takes the Recalibration that "
                             "budgetlab.recalibrate() returns.")
    ax = plt.gca() if ax is None else ax
    settings = result.settings
    keys = list(settings.get("by", []))
    limit_status = str(settings.get("limit_status", "exhausted"))
    levels = STATUSES[STATUSES.index(limit_status):]
    summary, cand, dist = result.summary, result.candidates, _target_curve(result.distribution,
                                                                        limit_status)
    s_lab, c_lab, d_lab = (group_labels(summary, keys), group_labels(cand, keys),
                           group_labels(dist, keys))
    c_share = cand[[f"share_{s}" for s in levels]].sum(axis=1).to_numpy()
    left_out = (summary["p50"].isna().to_numpy() if "p50" in summary.columns
                else np.zeros(len(summary), dtype=bool))
    # no recommendation (a window too thin for one, or no target meets the rule): its curve
    # recommends nothing, and thousands of them were a grey wall stretching the x axis to 0
    why = _left_out_words(left_out, ~left_out & summary["recommended_target"].isna().to_numpy())
    left_out = left_out | summary["recommended_target"].isna().to_numpy()
    evidence = [summary[c].to_numpy(dtype=float) if c in summary.columns else np.zeros(len(summary))
                for c in ("failures", "events")]
    colors = group_colors([str(x) for x in s_lab[~left_out]],  # the rule of replay --plot
                          evidence_weights(*(e[~left_out] for e in evidence)).tolist())
    handles = _draw_groups(ax, summary, s_lab, ~left_out, colors, (
        rows_by_label(c_lab), cand["target"].to_numpy(dtype=float), c_share),
        (rows_by_label(d_lab), dist), floor=LOG_FLOOR_PERCENT if logy else None)
    # drawn and capped by the evidence (none capped in a table without recommended_capped)
    capped = ((summary["recommended_capped"].to_numpy(dtype=bool) & ~left_out)
              if "recommended_capped" in summary.columns else np.zeros(len(summary), dtype=bool))
    handles += capped_handles(summary, s_lab, capped, colors, named=bool(keys))
    # a target several groups share: one line in their colours; a current one keyed by "current
    # target" alone (one --target for all is usual: naming them would squeeze the axes)
    handles += stripe_shared(ax) + stripe_shared(ax, "current", keyed=False)
    notes = []
    if left_out.any():
        # a few named, then how many more: thousands of thin sitekeys would cover the plot;
        # under the x label: in the plot area it covered the candidates drawn on the floor
        notes.append(left_out_note(ax, why, [str(x) for x in s_lab[left_out]], MOST_NAMED))
    max_share = float(settings.get("max_share", 0.01))
    ax.axhline(max_share * 100, color="black", lw=0.8, ls=":", gid="limit")
    if logy:
        ax.set_yscale("log")
        # never below the floor (stated in the legend when a share lies below it, its dots on
        # it, whole: unclipped); above it where every share drawn is
        if ax.get_ylim()[0] < LOG_FLOOR_PERCENT:
            ax.set_ylim(bottom=LOG_FLOOR_PERCENT)
    ax.set_xlabel(_recalibration_xlabel(settings, [str(x) for x in s_lab[~left_out]], (
        summary["hours"].to_numpy()[~left_out] if "hours" in summary.columns else None)))
    # the rates themselves (99.95, 99.99), no offset apart; a log scale keeps its own labels
    plain_numbers(*(ax.xaxis,) if logy else (ax.xaxis, ax.yaxis))
    y_words = f"share of time {limit_status} or worse (%)" + (", log scale" if logy else "")
    ax.set_ylabel(y_words)
    room_below(ax, notes)  # on a plain figure: the note kept whole
    # the keys of the marks drawn only: no current target given, or no bootstrap, none drawn
    drawn = {gid_kind(a.get_gid()) for a in [*ax.lines, *ax.patches, *ax.collections]}
    if not (np.isfinite(summary["recommended_target"].to_numpy(dtype=float))
            & ~left_out & ~capped).any():
        drawn.discard("recommended")  # each one drawn is capped, keyed as such above
    keys_drawn = handles + _recalibration_key(settings, limit_status, max_share, drawn=drawn)
    for handle in keys_drawn:  # narrow entries: three columns or more, not one of 12 rows
        handle.set_label(textwrap.fill(handle.get_label(), KEY_WIDTH))
    legend_above(ax, keys_drawn, ncols=4)
    fig = ax.get_figure(root=True)
    engine = fig.get_layout_engine() if fig is not None else None
    if fig is not None and engine is not None:  # the axes' height as the engine makes it
        engine.execute(fig)
    fit_y_label(ax, y_words, Y_LABEL_WIDTHS)  # no taller than the axes, nor cut at the edge
    room_for_y_labels(ax)  # on a plain figure: the label's lines kept whole
    return ax


def _left_out_words(thin: np.ndarray, no_rec: np.ndarray) -> str:
    """Why :func:`plot_recalibration` leaves groups out, with their counts: ``thin`` (evidence
    too thin for a verdict, its figures withheld) and ``no_rec`` (figures, but no
    recommendation: a window too thin for one, or no target meets the rule).

    >>> _left_out_words(np.array([True, False]), np.array([False, False]))
    'evidence too thin for a recommendation; the summary says why'
    >>> _left_out_words(np.array([True, False, False]), np.array([False, True, True]))
    '1 group with evidence too thin, 2 without a recommendation; the summary says why'
    """
    n_thin, n_none = int(thin.sum()), int(no_rec.sum())
    if not n_none:
        return "evidence too thin for a recommendation; the summary says why"
    none = (f"{n_none:,} without a recommendation" if n_thin else
            f"{counted(n_none, 'group')} without a recommendation (a window too thin for one, "
            "or no target meets the rule)")
    thin_said = f"{counted(n_thin, 'group')} with evidence too thin, " if n_thin else ""
    return f"{thin_said}{none}; the summary says why"


def _target_curve(dist: pd.DataFrame, limit_status: str) -> pd.DataFrame:
    """``dist`` with its ``target`` column, the curve drawn: the share of time at
    ``limit_status`` or worse as a function of the target. A table without it (written by hand,
    or saved by an earlier budgetlab) has it at ``exhausted`` only, where it is the ``success_rate``
    (a window is exhausted at every target at or above its rate); at another limit status the
    rate is not the target, and drawing it would put the curve beside the candidates."""
    if "target" in dist.columns:
        return dist
    if limit_status == "exhausted":
        return dist.assign(target=dist["success_rate"])
    raise InputError(f"plot_recalibration(): the distribution has no 'target' column, the "
                     f"curve of the time {limit_status} or worse; recompute the result with "
                     "budgetlab.recalibrate() and pass that.")


def _draw_groups(ax: Axes, summary: pd.DataFrame, labels: np.ndarray, shown: np.ndarray,
                 colors: dict[str, str | None], cand: tuple[dict[Any, np.ndarray], np.ndarray,
                                                           np.ndarray],
                 dist: tuple[dict[Any, np.ndarray], pd.DataFrame], *,
                 floor: float | None) -> list[Any]:
    """Draw the groups ``shown`` (their rows' indices in ``summary``): each coloured one on its
    own (:func:`_draw_recalibration_group`), the grey ones together
    (:func:`~budgetlab.plotting.recalibration_others.draw_other_groups`); the legend's entries
    of the groups, ``other (N groups)`` last. ``cand``: the candidates' rows by label, targets
    and shares; ``dist``: the curve's rows by label and the table."""
    (c_rows, c_target, c_share), (d_rows, d) = cand, dist
    none = np.zeros(0, dtype=np.int64)
    d_x, d_y = (d["target"].to_numpy(dtype=float) * 100,
                d["probability"].to_numpy(dtype=float) * 100)
    handles: list[Any] = []
    grey: list[int] = []
    for i in np.flatnonzero(shown).tolist():
        label = labels[i]
        if colors[str(label)] is None:
            grey.append(i)
            continue
        c, rows = c_rows.get(label, none), d_rows.get(label, none)
        handles.append(_draw_recalibration_group(ax, label, summary.iloc[i], d.iloc[rows],
                                                 c_target[c], c_share[c], colors[str(label)],
                                                 floor=floor))
    if grey:
        c = np.concatenate([c_rows.get(labels[i], none) for i in grey])
        curves = [steps_post(*_curve(d_x[r], d_y[r], c_target[k], c_share[k], floor))
                  for r, k in ((d_rows.get(labels[i], none), c_rows.get(labels[i], none))
                               for i in grey)]
        draw_other_groups(ax, curves, c_target[c], c_share[c], summary.iloc[grey], floor=floor)
        handles.append(Line2D([], [], color=OTHER_COLOR, lw=1.5,
                              label=other_label(colors, LESS_EVIDENCE)))
    return handles


def _draw_recalibration_group(ax: Axes, label: Any, row: pd.Series, d: pd.DataFrame,
                              targets: np.ndarray, shares: np.ndarray, color: str | None, *,
                              floor: float | None) -> Any:
    """One group's artists in :func:`plot_recalibration`: its distribution (the line returned, for
    the legend), candidates, recommended target and interval, current target. ``color`` None: one
    of the grey "other" groups, drawn under the others and without the interval's shading.
    ``floor`` (percent, a log scale's; ``None`` on a linear one): the candidates whose share
    lies between 0 and it are drawn on it, with their own marker."""
    shown = color is not None
    color, z = (color or OTHER_COLOR, 2.0 if shown else 1.5)
    # a step: between two known points the share is at least the left one's (below the next);
    # a straight join would invent a share between them
    line, = ax.plot(*_curve(d["target"].to_numpy(dtype=float) * 100,
                            d["probability"].to_numpy(dtype=float) * 100, targets, shares, floor),
                    color=color, lw=1.5, drawstyle="steps-post", gid=f"distribution:{label}",
                    label=label, zorder=z)
    y = shares * 100
    # compared as fractions: a share of exactly the floor (1e-6) is 9.999999999999999e-05 %
    below = ((shares > 0) & (shares < floor / 100) if floor is not None
             else np.zeros(len(y), dtype=bool))
    ax.plot(targets[~below] * 100, y[~below], ls="none", marker="o", ms=3, color=color, alpha=0.6,
            gid=f"candidates:{label}", zorder=z)
    if below.any():
        ax.plot(targets[below] * 100, np.full(int(below.sum()), floor), ls="none",
                marker=BELOW_MARKER, ms=4, color=color, alpha=0.6, clip_on=False,
                gid=f"below_floor:{label}", zorder=z)
    rec, lo, hi, cur = (row["recommended_target"], row["recommended_low"],
                        row["recommended_high"], row["current_target"])
    if np.isfinite(rec):
        ax.axvline(rec * 100, color=color, lw=1.2, gid=f"recommended:{label}", zorder=z)
    if np.isfinite(lo) and np.isfinite(hi) and shown:
        ax.axvspan(lo * 100, hi * 100, color=color, alpha=0.12, lw=0, gid=f"interval:{label}")
    if np.isfinite(cur):
        # a triangle on the top edge: visible also when the recommendation is the current target
        ax.axvline(cur * 100, color=color, lw=1.0, ls="--", marker="v", markevery=[1], ms=7,
                   clip_on=False, gid=f"current:{label}", zorder=z)
    return line


def _curve(levels_x: np.ndarray, levels_y: np.ndarray, targets: np.ndarray,
           shares: np.ndarray, floor: float | None) -> tuple[np.ndarray, np.ndarray]:
    """One group's curve in percent (:func:`~.recalibration_others.known_curve`) from its
    distribution's points (percent) and its candidates (fractions). On a log scale (``floor``
    given) a share of 0 is left out (not drawn there) and one between 0 and the floor sits on
    the floor, as its dot does."""
    y = shares * 100
    if floor is not None:
        keep = y > 0
        targets, y = targets[keep], np.maximum(y[keep], floor)
    return known_curve(levels_x, levels_y, targets * 100, y)


def _recalibration_xlabel(settings: dict[str, Any], names: Any = (), hours: Any = None) -> str:
    """The x label of :func:`plot_recalibration`: the target, the window and the drawn groups'
    evaluated time (``hours``: with traffic after warm-up, each group's where they differ); a
    table without ``hours``: the calendar span measured, named as such."""
    from ..analyses.target_words import evaluated_per_group

    window, history = settings.get("window"), settings.get("history")
    wtxt = f"rolling {window_words(window)} window" if window is not None else "rolling window"
    lo, hi = settings.get("span_start"), settings.get("span_end")
    # spelled as the notes spell elapsed time (truncated: 1 d 23 h 59 min reads "1 d 23 h")
    said = evaluated_per_group(list(names), hours) if hours is not None else ""
    if said:
        htxt = f", {said}"
    elif lo is not None and hi is not None:
        span = pd.Timedelta(pd.Timestamp(hi) - pd.Timestamp(lo))
        htxt = f", {duration_words(span)} from the first evaluated instant to the last"
    else:
        htxt = f", last {prose_duration(history)}" if history is not None else ""
    return f"target, on the {wtxt}{htxt} (%)"


def _recalibration_key(settings: dict[str, Any], limit_status: str,
                       max_share: float, *, drawn: set[str]) -> list[Any]:
    """The legend entries of :func:`plot_recalibration`'s marks (after the groups'), each only
    when a mark of its kind is ``drawn`` (the gids' kinds: ``candidates``, ``recommended``,
    ``interval``, ``current``, ``limit``, ``below_floor``)."""
    conf = given_percent(settings.get("confidence", 0.95), space=False)
    key = {"candidates": Line2D([], [], color="grey", ls="none", marker="o", ms=3,
                                label=f"time {limit_status}+ at target"),
           "recommended": Line2D([], [], color="grey", lw=1.2, label="recommended target"),
           "interval": Patch(color="grey", alpha=0.25,
                             label=f"{conf} bootstrap interval"),
           "current": Line2D([], [], color="grey", lw=1.0, ls="--", marker="v", ms=6,
                             label="current target"),
           "limit": Line2D([], [], color="black", lw=0.8, ls=":",
                           label=f"limit {given_percent(max_share, space=False)} {limit_status}"),
           "below_floor": Line2D([], [], color="grey", ls="none", marker=BELOW_MARKER, ms=4,
                                 label=f"time {limit_status}+ under "
                                       f"{given_percent(LOG_FLOOR_PERCENT / 100, space=False)}, "
                                       "on the floor")}
    return [handle for kind, handle in key.items() if kind in drawn]
