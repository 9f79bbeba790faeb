"""The window-length comparison: flapping against reaction time, window by window.

A row of :func:`budgetlab.compare_windows` with less than a day of evaluated time, no event
in it, or under 10 expected failures, has its time shares and rates per day withheld
(:func:`~budgetlab.analyses.window_clock.thin_rows`); the figure never draws them: no mark
there, and words say "too thin for a verdict" (over a hatched band where no series is drawn),
the note under the figure why.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Patch
from matplotlib.ticker import StrMethodFormatter, SymmetricalLogLocator

from .._util.attrs import attr_span
from .._util.validation import require_columns, window_words
from .._util.words import prose_duration
from ._common import display_names, split_axes
from ._group_labels import group_labels
from ._numbers import plain_numbers
from .legends import fit_y_label, legend_above, room_below, room_for_y_labels
from .window_counts import apart_words, counts_note, mark_counts
from .window_gaps import (
    THIN_LABEL,
    THIN_WHY,
    keep_in_slots,
    keep_units,
    mark_no_time,
    mark_thin,
    no_time_note,
)
from .window_marks import DWELL_SERIES, MARKERS, NO_ROW, draw_series, nothing_drawn

__all__ = ["MARKERS", "NO_ROW", "plot_window_comparison"]

#: The widths (characters) a panel's y label is wrapped at, widest first: the widest whose
#: lines fit the panel's height (:func:`~budgetlab.plotting.legends.fit_y_label`).
LABEL_WIDTHS = (24, 18, 14, 10)

_METRIC_LABELS = {
    "transitions_per_day": "status changes per day (flapping)",
    "round_trips_per_day": "healthy→warning→healthy round trips per day",
    "detection_median": "median detection delay (min)",
    "detection_max": "worst detection delay (min)",
    "recovery_median": "median recovery time (min)",
    "recovery_max": "worst recovery time (min)",
    "share_exhausted": "share of time exhausted (%)",
    "share_healthy": "share of time healthy (%)",
    "hours_exhausted": "hours exhausted",
    "missed": "missed incidents",
}


def _metric_values(table: pd.DataFrame, column: str, thin: np.ndarray) -> np.ndarray:
    """A column as drawn: Timedelta in minutes (NaT: NaN, not drawn), ``share_*`` in %, and NaN
    (not drawn) where a thin row withholds it."""
    from ..analyses.window_clock import THIN_COLUMNS

    col = table[column]
    if pd.api.types.is_timedelta64_dtype(col.dtype):
        return np.asarray(pd.to_timedelta(col).dt.total_seconds().to_numpy(dtype=float) / 60.0)
    vals = col.to_numpy(dtype=float, na_value=np.nan) * (100 if column.startswith("share_") else 1)
    return np.where(thin, np.nan, vals) if column in THIN_COLUMNS else vals


def _from_zero(ax: Axes, values: np.ndarray | None) -> None:
    """Y from 0 to the data's top plus 8 %; a flat 0 gets the range 0..1 so the marks show above
    the axis (never hidden in it); the ticks read the values themselves (no offset apart)."""
    v = np.asarray(values, dtype=float) if values is not None else np.zeros(0)
    v = v[np.isfinite(v)]
    top = float(v.max()) if len(v) else 0.0
    ax.set_ylim(-0.04 * (top or 1.0), (top or 1.0) * 1.08)
    plain_numbers(ax.yaxis)


def plot_window_comparison(table: pd.DataFrame, *, y: str = "transitions_per_day",
                           y2: str | None = "auto", ax: Axes | None = None,
                           logy: bool = False) -> Axes:
    """Flapping against reaction time, window by window (one series of marks per group and dwell
    time, never joined by a line: the windows are categories, a line would draw values between
    them that no window has):
    ``y`` on the top panel, ``y2`` on a panel below it, so that neither hides the other.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`budgetlab.compare_windows`.
    y : str
        Column on the left axis (default ``transitions_per_day``).
    y2 : str or None
        Column of a second panel below, sharing the windows axis (default ``"auto"``:
        ``detection_median`` when the table has incident columns, else ``share_exhausted``);
        ``None`` for none.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    logy : bool
        Log scale on the top panel: symlog, linear from 0 up to the decade of the smallest value
        above zero and log above it, so that a zero is drawn (at the foot; the axis label says
        where the log scale starts) and ticks are plain numbers (``0``, ``0.1``, ``10``).

    Returns
    -------
    Axes
        The top panel; the lower one (``y2``) is ``ax.y2_ax`` (``None`` without ``y2``). One
        :class:`~matplotlib.lines.Line2D` of marks without a line per coloured series (gid
        ``<column>:<series>``, series ``<group>`` or ``<group> · dwell <d>``), and one for all
        the grey ones (gid ``<column>/others``, which no series name gives: series after series
        in the order of their first rows, each in window order; thousands of groups, one
        artist): x = the position of each window in ``table["window"]``'s categories (tick
        labels are the windows as the CLI spells them, ``24 h``; the x label says "rolling",
        and names the zone of the calendar windows, ``attrs["tz"]``, only when some are
        compared), y = the column's values (Timedelta columns in minutes, ``share_*`` in %). A
        time share or rate per day of a row with under 24 h of evaluated time, no event in it or
        under 10 expected failures (:func:`~budgetlab.analyses.window_clock.thin_rows`) is
        withheld, as in the CLI's table: NaN in the marks (none drawn), and on its window a hatched
        band (gid ``thin:<column>:<window>``) labelled ``too thin for a verdict`` (when the words
        fit the window; else the legend's hatched key alone says them) when every
        series is withheld there; when only some are, no band (the others' marks are drawn
        there), only a note under the x label (gid ``thin_label``) naming those withheld at each
        window (``k of n`` beyond two). A window without a row of a series (a table filtered by
        hand, its categories kept) has no mark there either, and the legend says so
        (:data:`NO_ROW`). A detection or recovery time that does not exist (NaT: no mark) is
        explained: ``none detected``, ``unseen (no traffic)``, ``no incident`` or ``none
        recovered`` (from the row's ``incidents``, ``detected`` and ``missed``:
        :func:`~budgetlab.plotting.window_gaps.why_no_time`), after the names of the series
        when only some lack it (``POST: no incident``); in the panel at a window where no series
        has a mark (gid ``no_time:<column>:<window>``), else in one note under the x label and
        the thin note (gid ``no_time_label``), clear of the marks. What each detection or
        recovery mark is over (``median of 1 (1 already CRITICAL or worse at start, 1
        missed)``: :mod:`~budgetlab.plotting.window_counts`) stands by it (gid
        ``counts:<column>:<window>``) or in a note (gid ``counts_label``). Words in a panel are kept
        inside their window's slot, clear of the next window's words and marks: when one does
        not fit (many windows: ten, 1 h .. 30 d, on a default figure), each window without a
        mark has a key there, ``(a)``, ``(b)``, ..., and its words are in the note, keyed, in
        window order (``(a) at 2 h none detected``). With more series than
        distinct colours, those of the groups with the most failures, then the most events
        (the table's ``failures`` and ``events``, at the window where a group has most: the
        rule of ``replay --plot``, :func:`~budgetlab._util.evidence.most_evidence`; else the
        first ones) keep theirs and the others are drawn in grey under one legend entry that
        says the rule, ``other (N groups; fewer failures, then events)``. Each coloured series
        has a hollow marker of its own shape and size (:data:`MARKERS`), so that two series
        sharing a value both stay in sight. A series with no value to draw (every row withheld
        or empty) has no colour, no marks and no legend entry of its own: the legend names it
        under ``nothing to draw: <series>, ...``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, compare_windows
    >>> ts = pd.date_range("2026-01-01", periods=2 * 1440, freq="1min")
    >>> t = compare_windows(as_events(ts, [i % 9 != 0 for i in range(len(ts))]), SLO(target=0.9),
    ...                     ["30min", "2h", "calendar:day"])
    >>> ax = plot_window_comparison(t)
    >>> [tl.get_text() for tl in ax.y2_ax.get_xticklabels()]
    ['30 min', '2 h', 'calendar:day']
    >>> plt.close("all")
    """
    require_columns(table, ["window", "min_dwell", y], what="table")
    if y2 == "auto":
        y2 = "detection_median" if "detection_median" in table.columns else "share_exhausted"
    if y2 is not None:
        require_columns(table, [y2], what="table")
    ax = plt.gca() if ax is None else ax
    windows, x_all, series = _comparison_series(table)
    labels_below = bool(ax.xaxis.get_tick_params(which="major").get("labelbottom", True))
    ax2 = split_axes(ax, 2, hspace=0.08)[1] if y2 is not None else None
    # the analyses package (recalibration and all) loads when a comparison is drawn, not with
    # budgetlab.plotting (a replay's timeline needs none of it)
    from ..analyses.window_clock import thin_rows

    thin = thin_rows(table)
    panels = [(ax, y, _metric_values(table, y, thin), 6.0)]
    if ax2 is not None and y2 is not None:
        panels.append((ax2, y2, _metric_values(table, y2, thin), 4.5))
    handles = draw_series(table, series, x_all, panels, len(windows))
    marked = [mark_thin(p, col, x_all, series, thin, windows) for p, col, *_ in panels]
    if any(banded for banded, *_ in marked):
        handles.append(Patch(fill=False, hatch="//", edgecolor="0.6",
                             label=f"{THIN_LABEL}: not drawn"))
    gaps = [mark_no_time(p, col, table, vals, x_all, series, windows, apart_words(table, col))
            for p, col, vals, *_ in panels]
    handles += nothing_drawn(series, panels)
    ax.set_xticks(np.arange(len(windows)), [window_words(w) for w in windows])
    ax.set_xlim(-0.5, len(windows) - 0.5)
    bottom = ax2 if ax2 is not None else ax
    bottom.set_xlabel(_window_axis_label(table, windows) if labels_below else "")
    scale = _log_axis(ax, panels[0][2]) if logy else ""
    if ax2 is not None and y2 is not None:
        ax.tick_params(labelbottom=False)
        ax2.tick_params(labelbottom=labels_below)
        _from_zero(ax2, panels[1][2])
    if not logy:
        _from_zero(ax, panels[0][2])
    legend_above(ax, handles, ncols=3)
    bottom.xaxis.label.set_wrap(True)  # its lines (the span) are wider than a small figure
    notes = _notes(bottom, panels, marked, gaps, len(windows))
    # what each detection or recovery mark is over, by it or in a note under the others
    counted = [(_METRIC_LABELS.get(col, col).removesuffix(" (min)"),
                mark_counts(p, col, table, vals, x_all, series, windows))
               for p, col, vals, *_ in panels]
    notes += counts_note(bottom, counted, notes[-1] if notes else bottom.xaxis.label)
    room_below(bottom, notes)  # on a plain figure: the label's lines and the note kept whole
    fig = ax.get_figure(root=True)
    engine = fig.get_layout_engine() if fig is not None else None
    if fig is not None and engine is not None:  # the panels' heights as the engine makes them
        engine.execute(fig)
    fit_y_label(ax, _METRIC_LABELS.get(y, y) + scale, LABEL_WIDTHS)
    if ax2 is not None and y2 is not None:
        fit_y_label(ax2, _METRIC_LABELS.get(y2, y2), LABEL_WIDTHS)
        ax.figure.align_ylabels([ax, ax2])
    for panel in (ax, ax2) if ax2 is not None else (ax,):
        room_for_y_labels(panel)  # on a plain figure: the labels' lines kept whole
    ax.y2_ax = ax2  # type: ignore[attr-defined]
    return ax


def _notes(bottom: Axes, panels: list[Any], marked: list[Any], gaps: list[Any],
           n_windows: int) -> list[Any]:
    """The notes under the x label: the series not drawn for want of evaluated time
    (:func:`_thin_note`), then the detection or recovery times missing (gaps:
    :func:`~budgetlab.plotting.window_gaps.mark_no_time`'s words, and the words of windows
    without a mark keyed in the panel when they did not fit their windows' slots,
    :func:`~budgetlab.plotting.window_gaps.keep_in_slots`), in window order."""
    keyed = keep_in_slots([p for p, *_ in panels],
                          [t_placed + n_placed for (_, _, t_placed), (_, n_placed)
                           in zip(marked, gaps, strict=True)], n_windows)
    notes = _thin_note(bottom, [(col, said) for (_, col, *_), (_, said, _) in zip(panels, marked,
                                                                                   strict=True)])
    said = [(_METRIC_LABELS.get(col, col).removesuffix(" (min)"),
             [words for _, words in sorted(n_said + more, key=lambda w: w[0])])
            for (_, col, *_), (n_said, _), more in zip(panels, gaps, keyed, strict=True)]
    return notes + no_time_note(bottom, said, notes[-1] if notes else bottom.xaxis.label)


def _thin_note(bottom: Axes, said: list[tuple[str, list[str]]]) -> list[Any]:
    """The series not drawn at a window for want of evaluated time, where others are drawn
    there (``said``: each panel's column and :func:`~budgetlab.plotting.window_gaps.mark_thin`'s
    words), in one note (gid ``thin_label``) under the x label, outside the panels: inside, at
    the window, it lay over the marks drawn there. The panels' names are said when their words
    differ, or when a panel has none: a detection time is no figure a thin row withholds, and
    "not drawn" said of the whole figure named a row whose detection mark was drawn below."""
    panels = len(said)
    said = [(col, words) for col, words in said if words]
    if not said:
        return []
    if len(said) == panels and all(words == said[0][1] for _, words in said):
        lines = [f"not drawn ({THIN_LABEL}: {THIN_WHY}): " + "; ".join(said[0][1])]
    else:
        lines = [f"{_METRIC_LABELS.get(col, col)}, not drawn ({THIN_LABEL}: {THIN_WHY}): "
                 + "; ".join(words)
                 for col, words in said]
    return [bottom.annotate(keep_units("\n".join(lines)), xy=(0, 0),
                            xycoords=("axes fraction", bottom.xaxis.label), xytext=(0, -4),
                            textcoords="offset points", fontsize="small", va="top",
                            gid="thin_label", wrap=True)]


def _window_axis_label(table: pd.DataFrame, windows: list[str]) -> str:
    """The x label of :func:`plot_window_comparison`: which kinds of window it compares, and the
    zone of the calendar ones (``attrs["tz"]``).

    >>> t = pd.DataFrame({"window": ["1h", "calendar:day"]})
    >>> t.attrs["tz"] = "Europe/Berlin"
    >>> _window_axis_label(t, ["1h", "calendar:day"])
    'window (rolling, or calendar in Europe/Berlin)'
    >>> _window_axis_label(t, ["1h", "1d"])
    'window (rolling)'
    """
    from ..analyses.sorted_events import parse_window

    kinds = {parse_window(w).kind for w in windows}
    tz = table.attrs.get("tz")
    span = _span_counted(table, "calendar" in kinds)
    if "calendar" not in kinds:
        return "window (rolling)" + span
    zone = str(tz) if isinstance(tz, str) and tz else "the table's time zone"
    return f"window ({'rolling, or ' if 'rolling' in kinds else ''}calendar in {zone})" + span


def _span_counted(table: pd.DataFrame, calendar: bool) -> str:
    """The x label's second and third lines: the span the rows count in (``attrs["start"]`` ..
    ``attrs["end"]``, in ``attrs["tz"]``) and which part of it each window's figures are over;
    nothing when the attrs do not say it (a table made otherwise).

    >>> t = pd.DataFrame({"window": ["1h"]})
    >>> t.attrs.update(start="2026-01-01T01:00:00+00:00", end="2026-01-03T01:59:00+00:00",
    ...                tz="UTC")
    >>> print(_span_counted(t, False).lstrip())
    2026-01-01 01:00 .. 2026-01-03 01:59 UTC:
    each window over the time it held traffic, after its warm-up
    """
    tz = table.attrs.get("tz")
    zone = str(tz) if isinstance(tz, str) and tz else "UTC"
    span = attr_span(table.attrs, zone)
    if not span:
        return ""
    warm = "after its warm-up (a calendar window has none)" if calendar else "after its warm-up"
    return f"\n{span} {zone}:\neach window over the time it held traffic, {warm}"


def _log_axis(ax: Axes, values: np.ndarray) -> str:
    """A log axis that still shows a zero: symlog, linear from 0 up to the decade of the smallest
    value above zero (``floor``), log above it; ticks written as plain numbers (``0``, ``0.1``,
    ``10``). The words the axis label adds (where the log scale starts)."""
    v = np.asarray(values, dtype=float)
    pos = v[np.isfinite(v) & (v > 0)]
    floor = float(10.0 ** np.floor(np.log10(pos.min()))) if len(pos) else 1.0
    ax.set_yscale("symlog", linthresh=floor, linscale=1.0)
    ax.set_ylim(-0.1 * floor, float(pos.max() if len(pos) else floor) * 1.8)
    ax.yaxis.set_major_locator(SymmetricalLogLocator(linthresh=floor, base=10))
    ax.yaxis.set_minor_locator(SymmetricalLogLocator(linthresh=floor, base=10,
                                                     subs=[2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]))
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
    return f" (log scale above {floor:g}, linear down to 0)"


def _comparison_series(table: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray]:
    """:func:`plot_window_comparison`'s windows (the table's labels, in order), each row's x (its
    window's position) and series (``<group>``, or ``<group> · dwell <d>`` with several dwell
    times)."""
    keys = list(table.attrs.get("by", [])) if isinstance(table.attrs.get("by"), list) else []
    keys = [k for k in keys if k in table.columns]
    windows = display_names(table["window"])
    x_all = np.array([windows.index(str(w)) for w in table["window"]], dtype=float)
    dwell = pd.to_timedelta(table["min_dwell"])
    series = group_labels(table, keys)
    if dwell.nunique() > 1:
        series = np.array([f"{s}{DWELL_SERIES}{prose_duration(d) if d > pd.Timedelta(0) else '0'}"
                           for s, d in zip(series, dwell, strict=True)], dtype=object)
    return windows, x_all, series
