"""Where the alert chart's tiers could not alert, said as the score table says it
(:func:`~budgetlab.plotting.plot_alerts`): the spans during which a tier row's long window holds
no event (a silence: its error ratio is 0, nothing can fire; a light grey band ruled as the
package's no-traffic band, :data:`SILENCE_STYLE`), the incidents unseen by every tier (no alert
matched them and no tier's long window held an event of their scope: the rule of
:mod:`budgetlab.alerts.unseen`, as :func:`~budgetlab.incident_detections` applies it), drawn
hollow and dashed apart from the hatched missed or detected ones, and the rows of tiers that can
never fire at their target (:mod:`budgetlab.alerts.reach`), said in the row instead of leaving it
empty."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba
from matplotlib.patches import Patch
from matplotlib.transforms import blended_transform_factory

from .._util.burns import three_digits
from .._util.percent import given_fraction
from .._util.runs import true_runs
from .._util.words import some_named
from ..errors import ConfigError
from ..windows.bingrid import BinGrid
from ._common import utc_naive
from .status_bands import NO_TRAFFIC, WORDS_BOX

__all__ = ["CANNOT_FIRE_LABEL", "SILENCE_LABEL", "SILENCE_STYLE", "UNSEEN_LABEL", "UNSEEN_STYLE",
           "blind_rows", "read_chart_bins", "mark_silences", "unseen_incidents", "unseen_patch",
           "within_scope",
           "cannot_fire_rows", "cannot_fire_row_words"]

#: The legend entry of the silences (gid ``no_traffic``), one per chart.
SILENCE_LABEL = "no event in the tier's\nlong window: cannot fire"
#: How a silence is drawn on a tier row (gid ``no_traffic``): filled light grey under the grey
#: rules of the package's no-traffic band. Rules alone, over silences that recur (a group with an
#: event every 3 h, a 1 h window: 2 h of every 3), read as long dashed lines across the row, the
#: look of an unseen incident's outline (:data:`UNSEEN_STYLE`); filled, they read as a band.
SILENCE_STYLE: dict[str, Any] = {"facecolor": to_rgba(NO_TRAFFIC[0], 0.2),
                                 "edgecolor": to_rgba(NO_TRAFFIC[0], 0.5),
                                 "hatch": NO_TRAFFIC[1]}
#: The legend entry of the incidents unseen by every tier (gid ``unseen``).
UNSEEN_LABEL = "unseen: no traffic in any\ntier's long window"
#: The legend line of the rows that say they cannot fire (gid ``cannot_fire``): the rule their
#: short words in the row (:func:`cannot_fire_row_words`) apply.
CANNOT_FIRE_LABEL = ("cannot fire: a tier needs an error\nratio above burn x (1 - target),\n"
                     "and an error ratio is at most 1")
#: How an unseen incident's bar is drawn: hollow, dashed, no hatch (a missed one is hatched).
UNSEEN_STYLE: dict[str, Any] = {"facecolor": "none", "edgecolor": "0.55", "linestyle": "--",
                                "hatch": None}


def blind_rows(ax: Axes, attrs: Mapping[Hashable, Any], bins: Any, keys: list[str],
               rows_of: list[tuple[str, ...]], tiers: list[tuple[str, str]]) -> list[Any]:
    """What the tier rows of :func:`~budgetlab.plotting.plot_alerts` say of where they cannot
    fire: the silences (:func:`mark_silences`, with ``bins``, checked by
    :func:`read_chart_bins`) and the tiers that can never fire (:func:`cannot_fire_rows`);
    returns the legend entries."""
    said = [Patch(facecolor="none", edgecolor="none", label=CANNOT_FIRE_LABEL, gid="cannot_fire")
            ] if cannot_fire_rows(ax, attrs, rows_of, tiers) else []
    if bins is None:
        return said
    return said + mark_silences(ax, read_chart_bins(bins, attrs, keys), attrs, keys, rows_of,
                                tiers)


def read_chart_bins(bins: Any, attrs: Mapping[Hashable, Any], keys: list[str]) -> BinGrid:
    """``bins=`` of :func:`~budgetlab.plotting.plot_alerts` as a grid, refused
    (:class:`~budgetlab.errors.ConfigError`) unless it is the grid the episodes were computed
    from: the same bin width, span (``attrs["freq_ns"]``, ``grid_start``, ``grid_end``) and group
    keys; silences read off other bins would be drawn at the wrong times."""
    from ..windows.bins import read_bins  # loaded when drawn

    grid = read_bins(bins)
    lo, hi, freq = attrs.get("grid_start"), attrs.get("grid_end"), attrs.get("freq_ns")
    span = [grid.start_ns, grid.start_ns + grid.n_bins * grid.freq_ns]
    if lo is None or hi is None or freq is None:
        raise ConfigError("bins= needs episodes that name their span (attrs grid_start, "
                          "grid_end, freq_ns): make them with budgetlab.alert_episodes().")
    theirs = utc_naive([lo, hi]).view(np.int64).tolist()
    if int(freq) != grid.freq_ns or span != theirs or sorted(grid.by) != sorted(keys):
        raise ConfigError("bins= are not the bins the episodes were computed from (their bin "
                          "width, span or group keys differ): pass the bins given to "
                          "alert_episodes().")
    return grid


def _group_index(grid: BinGrid, keys: list[str], rows_of: list[tuple[str, ...]]) -> list[int]:
    """The grid's group of each of the chart's groups (their keys as text)."""
    if not keys:
        return [0] * len(rows_of)
    own = {tuple(r): i for i, r in enumerate(
        grid.keys[keys].astype(str).itertuples(index=False, name=None))}
    return [own[g] for g in rows_of]


def mark_silences(ax: Axes, grid: BinGrid, attrs: Mapping[Hashable, Any], keys: list[str],
                  rows_of: list[tuple[str, ...]], tiers: list[tuple[str, str]],
                  within: tuple[int, int] | None = None) -> list[Any]:
    """On each tier row (group ``i``'s tier ``j`` on row ``i * len(tiers) + j``), the spans of
    evaluations at which the tier's long window (``attrs["tier_windows"]``) holds no event of the
    group: from the first such evaluation (a bin's end) to the first at which it holds one again
    (the grid's end when none does), the times an episode's bar is drawn between; cut to
    ``within`` (``[lo, hi)`` in ns: the span a figure draws, whose evaluations' windows lie in
    the grid) when given. One ``BrokenBarHCollection`` of gid ``no_traffic`` per row with a
    silence, 0.9 rows high, filled light grey and ruled grey as the no-traffic bands of the other
    figures (:data:`SILENCE_STYLE`: never the unseen incidents' dashed outline); returns the
    legend entry (:data:`SILENCE_LABEL`), none without a silence. A row that stands for every
    group (``rows_of`` ``[()]`` with ``keys``: no episode anywhere) is ruled where no group's
    window holds an event."""
    from ..alerts.score_inputs import tier_window
    from ..budget.burn_rows import traffic_runs

    if keys and rows_of == [()]:
        grid, keys = grid.regroup([]), []

    key = Patch(**SILENCE_STYLE, lw=0, label=SILENCE_LABEL, gid="no_traffic")
    ends = mdates.date2num(utc_naive(grid.bin_end_ns))  # type: ignore[no-untyped-call]
    lo, hi = -np.inf, np.inf
    if within is not None:
        lo, hi = (float(x) for x in mdates.date2num(  # type: ignore[no-untyped-call]
            utc_naive(list(within))))
    runs: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    drawn = False
    for i, g in enumerate(_group_index(grid, keys, rows_of)):
        for j, (name, _) in enumerate(tiers):
            window = tier_window(attrs.get("tier_windows"), str(name))
            if window is None:
                continue
            k = max(1, -(-window // grid.freq_ns))
            group, first, stop = runs.setdefault(k, traffic_runs(grid, k))
            held = np.zeros(grid.n_bins, dtype=bool)
            for a, b in zip(first[group == g], stop[group == g], strict=True):
                held[a:b] = True
            a, b = true_runs(~held)
            cut = [(max(float(ends[s]), lo), min(float(ends[min(e, grid.n_bins - 1)]), hi))
                   for s, e in zip(a, b, strict=True)]
            bars = [(x0, x1 - x0) for x0, x1 in cut if x1 > x0]
            if bars:
                ax.broken_barh(bars, (i * len(tiers) + j - 0.45, 0.9), lw=0, zorder=0.6,
                               facecolors=key.get_facecolor(), edgecolors=key.get_edgecolor(),
                               hatch=key.get_hatch(), gid="no_traffic")
                drawn = True
    return [key] if drawn else []


def unseen_incidents(episodes: pd.DataFrame, incidents: pd.DataFrame, bins: Any,
                     grace: Any) -> np.ndarray:
    """Per incident (row of ``incidents``): unseen by every tier, by the rule the score table
    counts with (:func:`~budgetlab.incident_detections`' ``unseen``, over ``bins`` with
    ``grace``): no alert of any tier matched it and no tier's long window held an event of its
    scope from its start to its end + ``grace``. An incident no row scores (its scope matches no
    group) is not unseen. Incidents cut to a report of one scope (``attrs["scope"]``, as
    :func:`~budgetlab.incident_report` cuts them) are read within it: each of that scope's keys
    holds its one value in every group drawn, so an incident naming another value covers none of
    them and one naming that value is not restricted further (before, such a key was read as no
    group key: it matched every group, and the scoring warned to give ``by=`` that key)."""
    from ..alerts.scoring import incident_detections  # the alerts package: loaded when drawn
    from ..slo import table_slo

    slo = table_slo(episodes)  # what the scoring's budget columns (unused here) need
    if slo is None:
        raise ConfigError("bins= needs episodes that name their SLO (attrs slo): make them with "
                          "budgetlab.alert_episodes().")
    scopes, elsewhere = within_scope(incidents)
    tagged = incidents.assign(incident_id=[f"#{i}" for i in range(len(incidents))])
    if scopes is not None:
        tagged = tagged.assign(scope=scopes)
    det = incident_detections(episodes, tagged, grace=grace, bins=bins, target=slo)
    per = det[det["tier"].astype(str) != "*"].groupby("incident_id")["unseen"].all()
    unseen = np.asarray(tagged["incident_id"].map(per).fillna(False).to_numpy(), dtype=bool)
    return np.asarray(unseen & ~elsewhere, dtype=bool)


def within_scope(incidents: pd.DataFrame) -> tuple[list[str] | None, np.ndarray]:
    """``(scopes, elsewhere)`` of ``incidents`` cut to a report of one scope
    (``attrs["scope"]``): each incident's scope without that scope's keys (``None`` when the
    incidents name no such scope or have no ``scope`` column), and per incident whether it names
    another value of one of them (it covers no group of the report).

    >>> inc = pd.DataFrame({"scope": ["kind=a", "kind=b&region=ams", "*"]})
    >>> inc.attrs["scope"] = "kind=a"
    >>> scopes, elsewhere = within_scope(inc)
    >>> scopes, elsewhere.tolist()
    (['*', 'region=ams', '*'], [False, True, False])
    """
    from ..events.scopes import parse_scope

    fixed = parse_scope(incidents.attrs.get("scope"))
    if not fixed or "scope" not in incidents.columns:
        return None, np.zeros(len(incidents), dtype=bool)
    pairs = [parse_scope(s) for s in incidents["scope"].to_numpy()]
    elsewhere = np.array([any(k in fixed and v != fixed[k] for k, v in p.items())
                          for p in pairs], dtype=bool)
    scopes = ["&".join(f"{k}={v}" for k, v in p.items() if k not in fixed) or "*" for p in pairs]
    return scopes, elsewhere


def _where(row: tuple[str, ...], groups: list[list[str]] | None) -> str:
    """The groups a tier can never fire in, said on a row of every group (``row`` empty):
    ``""`` on a group's own row or for every group.

    >>> _where((), [["a"], ["b", "x"]]), _where(("a",), [["a"]]), _where((), None)
    (' (groups a, b · x)', '', '')
    """
    if row or groups is None:
        return ""
    names = [" · ".join(k) for k in groups]
    return f" ({'group' if len(names) == 1 else 'groups'} {some_named(names, 3)})"


def unseen_patch() -> Patch:
    """The legend entry of the unseen incidents (gid ``unseen``)."""
    return Patch(**UNSEEN_STYLE, label=UNSEEN_LABEL, gid="unseen")


def cannot_fire_row_words(burn: float, target: float, where: str = "") -> str:
    """What the row of a tier that can never fire says, short enough for the row (its tier is
    named by the row's label; the rule, :data:`CANNOT_FIRE_LABEL`, in the legend; the whole
    sentence, :func:`~budgetlab.alerts.reach.cannot_fire_words`, in the command's note).

    >>> cannot_fire_row_words(14.4, 0.88)
    'cannot fire at target 0.88: needs an error ratio above 1.728'
    >>> cannot_fire_row_words(14, 0.88, " (group image)")
    'cannot fire at target 0.88 (group image): needs an error ratio above 1.68'
    """
    return (f"cannot fire at target {given_fraction(target)}{where}: needs an error ratio above "
            f"{three_digits(burn * (1.0 - target), significant=4)}")


def cannot_fire_rows(ax: Axes, attrs: Mapping[Hashable, Any], rows_of: list[tuple[str, ...]],
                     tiers: list[tuple[str, str]]) -> int:
    """In each row of a tier that can never fire at its group's target
    (``attrs["cannot_fire"]``, :func:`~budgetlab.alerts.reach.cannot_fire_rows`), the short words
    of :func:`cannot_fire_row_words`, centred in the row and clipped to the axes (a text of gid
    ``cannot_fire``: never over the tier names or the legend); a row that stands for every group
    (no group rows drawn) names the groups when only some are at that target. Returns how many
    rows say it."""
    entries = attrs.get("cannot_fire") or []
    said = 0
    at = blended_transform_factory(ax.transAxes, ax.transData)
    for i, g in enumerate(rows_of):
        for j, (name, _) in enumerate(tiers):
            hit = [(burn, target, _where(g, groups)) for tier, burn, target, groups in entries
                   if tier == str(name) and (groups is None or not g
                                             or [str(v) for v in g] in groups)]
            if hit:
                ax.text(0.5, i * len(tiers) + j, cannot_fire_row_words(*hit[0]), transform=at,
                        ha="center", va="center", fontsize="x-small", color="0.3",
                        gid="cannot_fire", clip_on=True, zorder=3,
                        bbox=WORDS_BOX)
                said += 1
    return said
