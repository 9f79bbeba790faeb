"""Latency drawings: the share within each threshold over time (the timeout trade-off:
:mod:`budgetlab.plotting.timeout_tradeoff`, which shares this module's marker and label rules)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.validation import check_tz, to_timedelta
from .._util.words import given_duration, prose_duration
from ..errors import ConfigError, InputError
from ._common import time_axis, utc_naive
from ._group_labels import left_out_note
from .latency_groups import (
    THIN_BREAKS,
    draw_share_lines,
    sparse_markers,
    sparse_words,
    thin_words,
    without_thin,
)
from .latency_label import span_counted, zone_words
from .legends import legend_above, room_below
from .timeline_marks import incident_patch, shade_incidents

__all__ = ["plot_latency_shares", "LINES_MEET", "NO_ATTEMPTS", "THRESHOLD_STYLES", "group_label",
           "table_keys", "nested_sizes", "points_meet", "span_counted", "threshold_styles"]

#: How :func:`plot_latency_shares` tells a group's thresholds apart, shortest first: a line
#: style and a marker each (solid with dots, dashed with squares, dotted with triangles,
#: dash-dot with diamonds), which read in greyscale print and without telling hues apart; the
#: colour says the group. A table of more thresholds is refused (:func:`threshold_styles`).
THRESHOLD_STYLES = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"))
#: The words of :data:`THRESHOLD_STYLES`' line styles, in its order.
STYLE_WORDS = ("solid", "dashed", "dotted", "dash-dot")
#: The width (points) of the white rim of :func:`plot_latency_shares`' markers that nest in
#: their group's own (0.8, the trade-off's, left a 4.5 pt triangle a white outline).
RIM = 0.5
#: The length of :func:`plot_latency_shares`' legend keys (in font sizes) when a line is drawn:
#: matplotlib's 2 showed a dash-dot line as one dash beside its largest (nested) marker; keys of
#: lone points only, markers without a line, keep matplotlib's.
KEY_LENGTH = 6.0


def group_label(row: pd.Series, keys: Sequence[str]) -> str:
    return ", ".join(str(row[k]) for k in keys)


def table_keys(table: pd.DataFrame, known: Sequence[str]) -> list[str]:
    return [c for c in table.columns if c not in known]


def plot_latency_shares(shares: pd.DataFrame, *, ax: Axes | None = None,
                        tz: str | None = None, freq: str | None = None,
                        incidents: pd.DataFrame | None = None) -> Axes:
    """The share of attempts that succeeded within each threshold, per period and group (one
    line per group and threshold, the groups in the sorted order of their names, as the command
    lists them, each group's thresholds shortest first): ``latency_profile(...).shares``. Each
    group has the colour :func:`~budgetlab.plotting._common.group_colors` gives its name in
    every figure, :func:`~budgetlab.plotting.timeout_tradeoff.plot_timeout_tradeoff`'s too (more
    groups than colours: those with the most attempts keep theirs, the others are grey under
    one legend entry a threshold, ``other (N groups) within 10 s``, drawn together, one line a
    threshold under the coloured ones: :func:`~budgetlab.plotting.latency_groups.draw_share_lines`,
    which says the gids). In a table of groups, a share of fewer than
    :data:`~budgetlab.plotting.latency_groups.MIN_PERIOD_ATTEMPTS` attempts in its period (20:
    one attempt more or less moves it by 5 points or more; one attempt a day draws 0 % or
    100 %) is not drawn: the line breaks there as at a period without attempts, and the
    legend's title says so (:data:`~budgetlab.plotting.latency_groups.THIN_BREAKS`); a note
    under the x label (gid ``left_out``) says the rule and names the groups with no share left,
    the first few, then how many more; a table without groups (``all attempts``) is drawn
    whatever its attempts. Each threshold has a line
    style and a marker of its own, the same in every group, so that they read in greyscale and
    without telling hues apart (:data:`THRESHOLD_STYLES`: the shortest solid with dots, then
    dashed with squares, dotted with triangles, dash-dot with diamonds; a table of more
    thresholds is refused, :func:`threshold_styles`), shown in the legend's long keys.
    ``incidents`` (``start``, ``end``) are shaded grey as on the timeline, named "incident" in
    the legend, within the periods' span. Each point sits at its period's start, marked by its
    threshold's marker (a group's lone point the marker alone, in the legend too; with one
    period every marker 3.5 pt larger, readable on an axis as wide as the period); a line of
    more than :data:`~budgetlab.plotting.latency_groups.MAX_MARKERS` points (16; three weeks of
    hourly periods: 504) marks every few points only, staggered between the lines, said in the
    legend's title (:func:`~budgetlab.plotting.latency_groups.sparse_markers`; they nest then
    only when the lines outnumber the points between a line's markers). The y label
    says the period's length (``per 24 h period``; ``over the whole log`` for
    ``latency_profile(freq=None)``), ``freq`` or else ``shares.attrs["freq"]``, which
    ``latency_profile`` writes. When lines meet at a point (closer than 2 % of the y range;
    often at a share of exactly 100 %), each line's markers are smaller than the line's before
    it, so that they nest, each line a ring around the next, a marker on its own group's with a
    thin white rim (a group's thresholds share its colour: a square on its dot would not show),
    and the legend's title says so (:data:`LINES_MEET`). The time axis is in ``tz`` (default
    UTC; the data stay UTC), named in the x label, with the periods' UTC cut where it shows
    (``period start (Europe/Berlin; UTC days)``:
    :func:`~budgetlab.plotting.latency_label.zone_words`), and with the span the shares count
    (``attrs["start"]`` .. ``attrs["end"]``, the first and the last attempt: a first or last
    period they cover only in part reads as such), and the y axis is a share in percent of the
    attempts, as the CLI prints it, from the lowest one drawn (90 % at the highest) to 100 %,
    padded by 5 % of that span either side, so that a point at 100 % or at the lowest share is
    drawn whole. The legend sits above the plot area (it covers no point), a column per group,
    the incidents one of their own (where that many would run past the figure's edge, fewer,
    each holding whole groups; a blank entry may pad a column). The x range is
    the periods' span padded by 5 %: from the first period's start to the last one's end when
    the period is known (``freq`` or the attrs), else to the last one's start, and one hour
    either side of a lone period start (matplotlib alone widens one date to four years, the
    points lost in it). A period without attempts of a group has no share (the table has no row
    for it): the group's lines break there, never joined across it (a NaN point at the first
    empty period's start), and the legend's title says what a break means (:data:`NO_ATTEMPTS`).
    The period is ``freq`` (or the attrs'); without one, the largest that divides every spacing
    of the table's period starts.

    >>> from budgetlab.analyses.latency_profile import latency_profile
    >>> ev = pd.DataFrame({
    ...     "ts": pd.to_datetime(["2026-01-01", "2026-01-02"], utc=True).as_unit("ns"),
    ...     "ok": [True, True], "bucket": pd.Categorical(["success", "success"]),
    ...     "duration": pd.to_timedelta([2, 8], unit="s")})
    >>> ax = plot_latency_shares(latency_profile(ev, thresholds=["5s", "10s"]).shares,
    ...                          ax=plt.figure().gca())
    >>> [(ln.get_ydata().tolist(), ln.get_linestyle(), ln.get_marker()) for ln in ax.lines]
    [([100.0, 0.0], '-', 'o'), ([100.0, 100.0], '--', 's')]
    >>> ax.get_xlabel()
    'period start (UTC); attempts 2026-01-01 00:00 .. 2026-01-02 00:00'
    >>> ax.get_ylabel().splitlines()  # latency_profile's default freq, "1D", from its attrs
    ['share of attempts that succeeded within', 'the threshold per 24 h period (%)']
    >>> plt.close("all")
    """
    known = ("period", "threshold", "attempts", "good", "share", "share_low", "share_high",
             "at_or_above_timeout")
    if "share" not in shares.columns or "threshold" not in shares.columns:
        raise InputError("plot_latency_shares draws latency_profile(...).shares (columns period, "
                         "threshold, share).")
    styles = threshold_styles(shares["threshold"])  # more thresholds than styles: refused
    tz = check_tz(tz)
    ax = plt.gca() if ax is None else ax
    freq = _table_freq(shares, freq)
    keys = table_keys(shares, known)
    # in percent of the attempts, as the CLI prints the shares
    percent = shares.assign(share=shares["share"].astype(float) * 100)
    parts = [part for _, part in percent.groupby([*keys, "threshold"], sort=True, observed=True)]
    # the groups by their names, as plot_timeout_tradeoff and the command order them (a
    # categorical key's groupby keeps the order of its categories: a log's first appearance)
    parts.sort(key=lambda part: (group_label(part.iloc[0], keys), part["threshold"].iloc[0]))
    step = _period_step(pd.DatetimeIndex(shares["period"]), freq)
    names = [group_label(part.iloc[0], keys) or "all attempts" for part in parts]
    # shares too thin to draw (few attempts in the period): left out, said under the x label
    parts, names, left_out, thinned = (without_thin(parts, names) if keys
                                       else (parts, names, [], False))
    xy = [_broken_at_empty_periods(part.sort_values("period"), step) for part in parts]
    broken = any(len(x) > len(part) for (x, _), part in zip(xy, parts, strict=True))
    lines, shades = draw_share_lines(ax, parts, names, xy, styles, grouped=bool(keys))
    _period_range(ax, pd.DatetimeIndex(shares["period"]), freq)
    marked = shade_incidents(ax, incidents)  # within the periods' span
    time_axis(ax, tz)
    ax.set_xlabel(f"period start ({zone_words(tz, freq)}){span_counted(shares, tz)}")
    ax.set_ylabel("share of attempts that succeeded within\nthe threshold"
                  f"{_per_period(shares, freq)} (%)")
    drawn = pd.concat(parts) if parts else percent.iloc[:0]
    _share_range(ax, drawn["share"])
    lo, hi = ax.get_ylim()
    # many periods: a marker every few, staggered (side by side where lines meet, no nesting)
    every = sparse_markers(lines)
    meet = every < len(lines) and points_meet(drawn["period"], drawn["share"], span=hi - lo)
    # one period: its markers larger, so that they read on an axis as wide as the period
    grow = 3.5 if shares["period"].nunique() == 1 else 0.0
    for k, (line, ms) in enumerate(zip(lines, nested_sizes(len(lines), meet), strict=True)):
        line.set_markersize(ms + grow)
        if meet and k and shades[k - 1] == shades[k]:  # on its group's own marker, of its
            line.set(markeredgecolor="white", markeredgewidth=RIM)  # colour: a rim shows it
    # above the plot area, so it covers no point; a column per group (its thresholds below),
    # the incidents a column of their own after the groups'; keys long enough to show a style
    handles = ax.get_legend_handles_labels()[0] + [incident_patch()] * marked
    breaks = THIN_BREAKS if thinned else NO_ATTEMPTS
    title = "\n".join(words for words, said in ((LINES_MEET, meet), (sparse_words(every), every),
                                                 (breaks, broken)) if said)
    columns = len(set(shades)) + marked if keys else 6
    legend_above(ax, handles, title=title or None, ncols=max(columns, 1), block=len(styles),
                 handlelength=KEY_LENGTH if any(len(part) > 1 for part in parts) else None)
    if thinned:
        room_below(ax, [left_out_note(ax, thin_words(left_out, nothing_left=not parts),
                                     left_out)])
    return ax


def threshold_styles(thresholds: Iterable[Any]) -> dict[pd.Timedelta, tuple[str, str]]:
    """The line style and marker of each threshold of :func:`plot_latency_shares`, the shortest
    first (:data:`THRESHOLD_STYLES`). More thresholds than styles are refused: a style drawn
    twice would draw two thresholds of a group alike, and shades of the group's colour would
    not survive greyscale print nor be told apart by every reader.

    >>> threshold_styles(pd.to_timedelta(["20s", "5s", "20s"]))
    {Timedelta('0 days 00:00:05'): ('-', 'o'), Timedelta('0 days 00:00:20'): ('--', 's')}
    """
    given = sorted(set(pd.to_timedelta(list(thresholds))))
    if len(given) > len(THRESHOLD_STYLES):
        raise ConfigError(
            f"plot_latency_shares draws at most {len(THRESHOLD_STYLES)} thresholds, a line style "
            f"each ({', '.join(STYLE_WORDS)}, with a marker each); the table has {len(given)} "
            f"({', '.join(given_duration(t) for t in given)}): a style drawn twice would draw two "
            "thresholds of a group alike. Draw some of them, e.g. "
            "shares[shares['threshold'].isin(pd.to_timedelta(['10s', '30s']))].")
    return dict(zip(given, THRESHOLD_STYLES, strict=False))


#: The legend title of :func:`plot_latency_shares` and
#: :func:`~budgetlab.plotting.timeout_tradeoff.plot_timeout_tradeoff` when two
#: lines or more meet at a point.
LINES_MEET = "where lines meet, their markers nest: the first listed outermost"
#: The legend title's words (a line of it) when a line of :func:`plot_latency_shares` breaks at
#: periods without attempts.
NO_ATTEMPTS = "a break in a line: periods without attempts (no share)"


def _period_step(starts: pd.DatetimeIndex, freq: str | None) -> pd.Timedelta | None:
    """The period length of :func:`plot_latency_shares`' table: ``freq`` when it is a fixed
    length, else the largest length that divides every spacing of the period ``starts`` (the
    period divides them all: periods start at its multiples); ``None`` with one start only.

    >>> starts = pd.DatetimeIndex(["2026-01-01 00:00", "2026-01-01 00:20", "2026-01-01 00:50"])
    >>> _period_step(starts, "10min"), _period_step(starts, None)
    (Timedelta('0 days 00:10:00'), Timedelta('0 days 00:10:00'))
    """
    if freq is not None:
        try:
            return to_timedelta(freq, name="freq")
        except ConfigError:  # no fixed length ("MS"): the starts say it
            pass
    ns = np.unique(starts.as_unit("ns").asi8)
    return pd.Timedelta(int(np.gcd.reduce(np.diff(ns))), unit="ns") if len(ns) > 1 else None


def _broken_at_empty_periods(part: pd.DataFrame,
                             step: pd.Timedelta | None) -> tuple[pd.DatetimeIndex, np.ndarray]:
    """One line's ``(x, y)``: its period starts and shares (sorted by period), with a NaN point
    (a break) at the first empty period's start wherever two periods drawn are more than
    ``step`` apart: the periods between hold no attempt, so no share to join across.

    >>> part = pd.DataFrame({"period": pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10",
    ...                                                "2026-01-01 00:40"]),
    ...                      "share": [1.0, 0.5, 0.75]})
    >>> x, y = _broken_at_empty_periods(part, pd.Timedelta("10min"))
    >>> [f"{t:%H:%M}" for t in x], y.tolist()
    (['00:00', '00:10', '00:20', '00:40'], [1.0, 0.5, nan, 0.75])
    """
    x = pd.DatetimeIndex(part["period"])
    y = part["share"].to_numpy(dtype=float)
    if step is None:
        return x, y
    ns = x.as_unit("ns").asi8
    after = np.flatnonzero(np.diff(ns) > step.value) + 1  # the first point after each gap
    gaps = pd.DatetimeIndex(ns[after - 1] + step.value, dtype="datetime64[ns]")  # UTC epoch
    if x.tz is not None:
        gaps = gaps.tz_localize("UTC").tz_convert(x.tz)
    drawn = pd.DatetimeIndex(x.as_unit("ns").append(gaps).sort_values())
    return drawn, np.insert(y, after, np.nan)


def _table_freq(shares: pd.DataFrame, freq: str | None) -> str | None:
    """The period the y label names: ``freq``, or else ``shares.attrs["freq"]``. A ``freq`` that
    differs from the period the table's attrs record is refused: the label would misname the
    periods drawn (``latency_profile(freq=...)`` makes a table of another period)."""
    if freq is None or "freq" not in shares.attrs:
        return shares.attrs.get("freq") if freq is None else freq
    had = shares.attrs["freq"]
    if had is None or not _same_period(had, freq):
        period = "one period over the whole log" if had is None else f"freq={had!r}"
        raise ConfigError(f"freq={freq!r} differs from the table's period ({period}, from "
                          "shares.attrs['freq'], which latency_profile wrote): the y label would "
                          "misname its periods; leave freq unset, or make the table with "
                          f"latency_profile(freq={freq!r}).")
    return freq


def _same_period(a: str, b: str) -> bool:
    """Whether two ``freq`` texts name one period length (``"1D"`` and ``"24h"``); texts that are
    no fixed length (``"MS"``) are the same only as written."""
    try:
        return bool(to_timedelta(a, name="freq") == to_timedelta(b, name="freq"))
    except ConfigError:
        return str(a) == str(b)


def _per_period(shares: pd.DataFrame, freq: str | None) -> str:
    """`` per 24 h period``, or `` over the whole log`` (``latency_profile(freq=None)``: one
    period, from the log's first event), or nothing when neither ``freq`` nor ``shares.attrs``
    says which."""
    if freq is not None:
        return f" per {prose_duration(freq)} period"
    return " over the whole log" if "freq" in shares.attrs else ""


def points_meet(x: pd.Series, y: pd.Series, *, span: float) -> bool:
    """Whether two points at one ``x`` lie closer than 2 % of ``span`` (the y range drawn),
    where their dots (4.5 pt, about 1 % of a 400 pt tall plot area) would cover each other."""
    points = pd.DataFrame({"x": x.to_numpy(), "y": y.to_numpy(dtype=float)}).dropna()
    gaps = points.sort_values(["x", "y"]).groupby("x")["y"].diff()
    return bool((gaps <= 0.02 * span).any())


def nested_sizes(n: int, meet: bool = True) -> list[float]:
    """The marker sizes (points) of ``n`` lines drawn in that order: each smaller than the one
    drawn before, so that where lines meet (shares of exactly 1) their markers nest and each
    shows as a ring around the next (2.5 pt larger a step, 1.25 pt a ring; with many lines less,
    the largest at most 16 pt), the last one drawn 4.5 pt.

    Without lines that ``meet``, all are the smallest.

    >>> nested_sizes(3), nested_sizes(3, meet=False)
    ([9.5, 7.0, 4.5], [4.5, 4.5, 4.5])
    """
    if not meet:
        return [4.5] * n
    step = min(2.5, 11.5 / max(n - 1, 1))
    return [round(4.5 + step * k, 2) for k in range(n - 1, -1, -1)]


def _share_range(ax: Axes, share: pd.Series) -> None:
    """:func:`plot_latency_shares`' y range (``share`` in percent): from the lowest share drawn
    (90 % at the highest) to 100 %, padded by 5 % of that span either side, so that a point at
    either end (a lone one too: matplotlib alone pads it by 5 % of its own value, a share of 10 %
    then sits on the bottom edge) is drawn whole."""
    values = share.to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    low = min(float(finite.min()), 90.0) if finite.size else 0.0
    pad = 0.05 * (100.0 - low)
    ax.set_ylim(low - pad, 100.0 + pad)


def _period_range(ax: Axes, starts: pd.DatetimeIndex, freq: str | None) -> None:
    """:func:`plot_latency_shares`' x range (its docstring says which)."""
    if not len(starts):
        return
    lo, hi = starts.min(), starts.max() + (pd.Timedelta(freq) if freq is not None
                                           else pd.Timedelta(0))
    pad = (hi - lo) * 0.05 if hi > lo else pd.Timedelta("1h")
    x0, x1 = mdates.date2num(utc_naive([lo - pad, hi + pad]))  # type: ignore[no-untyped-call]
    ax.set_xlim(float(x0), float(x1))
