"""The figure of ``alerts --plot`` and ``backtest --plot`` (and notebook 02's): one alert chart
per policy, stacked on one time axis that is labelled once, under the bottom chart; each chart as
tall as the rows it draws."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas and matplotlib are imported when a command runs, not for --help
    from collections.abc import Sequence

    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["plot_policies", "policy_figure", "panel_heights", "drawn_groups", "mark_scrape_gaps",
           "ROW_INCHES", "PANEL_INCHES", "AXIS_INCHES", "MAX_INCHES", "GAP_LABEL", "GAP_STYLE"]

#: Inches per drawn row of an alert chart (a tier of a group, or the incidents).
ROW_INCHES = 0.32
#: Inches per chart besides its rows: its title and the room between charts.
PANEL_INCHES = 1.2
#: Inches under the bottom chart: its dates and the time label.
AXIS_INCHES = 0.6
#: The tallest figure drawn (well within the 2**16 pixels Agg can render at 110 dpi); with more
#: rows than fit, the rows are drawn thinner, and said so.
MAX_INCHES = 500.0
#: The legend entry of the scrape gaps (gid ``scrape_gap``), one per chart.
GAP_LABEL = "scrape gap: no scrape,\ncounts unknown"
#: How a scrape gap is drawn on its group's tier rows: grey cross-hatching on a transparent face
#: (a silence is ruled), above the episode bars (:data:`GAP_ZORDER`), which show through it.
GAP_STYLE: dict[str, Any] = {"facecolor": "none", "edgecolor": "0.35", "hatch": "xx"}
#: Above the episode bars (patches, zorder 1), below the words (text, zorder 3).
GAP_ZORDER = 2.0


def panel_heights(rows: list[int]) -> tuple[list[float], str]:
    """The height in inches of each chart that draws ``rows[i]`` rows, and a note when the figure
    would be taller than :data:`MAX_INCHES` and the rows are drawn thinner (else "").

    >>> panel_heights([5, 2])
    ([2.8, 1.84], '')
    """
    row = ROW_INCHES
    if AXIS_INCHES + sum(PANEL_INCHES + ROW_INCHES * n for n in rows) > MAX_INCHES:
        row = (MAX_INCHES - AXIS_INCHES - PANEL_INCHES * len(rows)) / sum(rows)
    note = "" if row == ROW_INCHES else (
        f"the plot's {sum(rows):,} rows are drawn {row / ROW_INCHES:.2g} times their height "
        f"for the figure to stay {MAX_INCHES:g} in high; their labels may overlap")
    return [round(PANEL_INCHES + row * n, 6) for n in rows], note


def drawn_groups(evaluated: pd.DataFrame, episodes: dict[str, pd.DataFrame],
                 incidents: pd.DataFrame, by: list[str], limit: int,
                 ) -> tuple[pd.DataFrame, dict[str, pd.DataFrame], str | None]:
    """The groups ``alerts --plot`` draws, their episodes per policy, and the line that says
    which (``None`` when every group is drawn): with more ``evaluated`` groups than ``limit``
    (``--show-groups``; 0: all), the groups an incident's scope names first, then those with the
    most alert episodes over every policy (:func:`~budgetlab.cli.shown_groups.shown_groups`). A
    figure of every group's tiers at 5,000 groups is 20,000 rows no one reads, and takes many
    minutes to draw.

    >>> import pandas as pd
    >>> groups = pd.DataFrame({"k": ["a", "b", "c"]})
    >>> ep = {"p": pd.DataFrame({"k": ["c", "c", "b"], "tier": ["t"] * 3})}
    >>> inc = pd.DataFrame({"scope": ["k=a"]})
    >>> drawn, eps, line = drawn_groups(groups, ep, inc, ["k"], 2)
    >>> drawn["k"].tolist(), eps["p"]["k"].tolist()
    (['a', 'c'], ['c', 'c'])
    """
    import numpy as np
    import pandas as pd

    from ..events.schema import scope_mask
    from .shown_groups import shown_groups

    table = evaluated.reset_index(drop=True)
    named = np.zeros(len(table), dtype=bool)
    scopes = incidents["scope"] if "scope" in incidents.columns else pd.Series([], dtype=object)
    for scope in scopes.dropna().astype(str).unique():
        if scope.strip() not in ("", "*"):
            named |= scope_mask(table, scope)
    counts = pd.concat([ep[by] for ep in episodes.values()], ignore_index=True).astype(str)
    per_group = counts.value_counts().rename("episodes").reset_index()
    mine = table[by].astype(str).merge(per_group, on=by, how="left")["episodes"]
    table = table.assign(named=named.astype(int), episodes=mine.fillna(0).to_numpy())
    cut = shown_groups(table, by, limit, order=("named", "episodes"),
                       most="those an incident's scope names first, then the most alert "
                            "episodes", full="--out FILE writes every group's scores",
                       verb="draws")
    if cut.line is None:
        return evaluated, episodes, None
    drawn = cut.rows[by]
    keep = {name: ep.merge(drawn.astype(str), on=by, how="inner") if len(ep) else ep
            for name, ep in ((n, e.astype({k: str for k in by})) for n, e in episodes.items())}
    for name, ep in keep.items():  # merge drops them: the span drawn, the tiers and their windows
        ep.attrs = dict(episodes[name].attrs)
    return drawn, keep, f"the plot: {cut.line}"


def plot_policies(path: str | Path, episodes: dict[str, pd.DataFrame],
                  incidents: pd.DataFrame | None, force: bool, tz: str | None = None,
                  groups: pd.DataFrame | None = None, bins: Any = None, grace: Any = "1h",
                  scores: dict[str, pd.DataFrame] | None = None,
                  scored: pd.DataFrame | None = None, gaps: Sequence[Any] = (),
                  target: Any = None) -> None:
    """:func:`policy_figure` saved to ``path`` (png, svg or pdf); its note is printed when the
    rows are drawn thinner."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._util.figures import save_figure
    from .shared import wrap

    fig, note = policy_figure(episodes, incidents, tz=tz, groups=groups, bins=bins, grace=grace,
                              scores=scores, scored=scored, gaps=gaps, target=target)
    try:
        save_figure(fig, path, force=force, dpi=110)
    finally:
        plt.close(fig)
    if note:
        print(wrap(note, indent=""))


def policy_figure(episodes: dict[str, pd.DataFrame], incidents: pd.DataFrame | None, *,
                  tz: str | None = None, groups: pd.DataFrame | None = None,
                  width: float = 12, bins: Any = None, grace: Any = "1h",
                  scores: dict[str, pd.DataFrame] | None = None,
                  scored: pd.DataFrame | None = None,
                  gaps: Sequence[Any] = (), target: Any = None) -> tuple[Figure, str]:
    """One alert chart per policy (:func:`~budgetlab.plotting.plot_alerts`, titled "policy
    NAME"), stacked on one time axis in ``tz`` (``--tz``) labelled under the bottom chart only;
    every group of ``groups`` (the evaluated ones; default: those of ``bins``) gets its rows;
    with ``bins`` (those the episodes were computed from) and ``grace`` (``--grace``), each tier
    row's silences and the incidents unseen by every tier are drawn as such: read off
    ``scores`` when given (each policy's :func:`~budgetlab.score_alerts` table of ``scored``,
    default ``incidents``, or some of its rows under their labels, with these ``bins`` and
    ``grace``: :func:`~budgetlab.alerts.unseen.unseen_by_every_tier`), else by scoring each
    policy again. Each chart is
    :data:`PANEL_INCHES` plus :data:`ROW_INCHES` per row it draws high, the figure
    :data:`AXIS_INCHES` more, ``width`` inches wide. Returns the figure (drawn on the current
    backend; notebook 02 shows it) and the note of :func:`panel_heights`. ``gaps`` (a
    Prometheus read's ``attrs["gaps"]``) are marked on their groups' rows
    (:func:`mark_scrape_gaps`). With ``bins`` and the ``target`` the episodes were computed
    under, the episodes of the groups too thin for a verdict
    (:func:`~budgetlab.analyses.choices.policy_thin.thin_policy_groups`) are drawn light and
    hatched, keyed as left out of the scores
    (:func:`~budgetlab.plotting.alert_thin.mark_thin_groups`)."""
    import matplotlib.pyplot as plt

    from .._util.said_once import said_once
    from ..alerts.unseen import unseen_by_every_tier
    from ..analyses.choices.policy_thin import thin_policy_groups
    from ..plotting import plot_alerts
    from ..plotting.alert_chart import alert_rows
    from ..plotting.alert_thin import mark_thin_groups
    from ..windows.bingrid import BinGrid

    thin = None if target is None or bins is None else thin_policy_groups(bins, target)
    if groups is None and bins is not None:  # the evaluated groups: every group binned
        groups = bins.keys if isinstance(bins, BinGrid) else bins
    rows = [alert_rows(ep, groups=groups, incidents=incidents) for ep in episodes.values()]
    heights, note = panel_heights(rows)
    # the constrained layout gives each chart's title and ticks their room first and shares the
    # rest by these ratios: every row the same height, in every chart
    fig, axes = plt.subplots(len(episodes), 1, figsize=(width, sum(heights) + AXIS_INCHES),
                             squeeze=False, sharex=True, layout="constrained",
                             gridspec_kw={"height_ratios": [max(n, 1) for n in rows]})
    with said_once():  # every chart meets the same incidents: their notes are said once
        try:
            for ax, (name, ep) in zip(axes[:, 0], episodes.items(), strict=True):
                unseen = (None if scores is None or incidents is None else unseen_by_every_tier(
                    scores[name], incidents if scored is None else scored, incidents))
                plot_alerts(ep, incidents=incidents, ax=ax, tz=tz, groups=groups, bins=bins,
                            grace=grace, unseen=unseen)
                mark_scrape_gaps(ax, gaps, list(ep.attrs.get("by", [])))
                mark_thin_groups(ax, thin, list(ep.attrs.get("by", [])))
                ax.set_title(f"policy {name}", loc="left")
                ax.label_outer()  # the shared time axis is labelled once, under the bottom panel
        except BaseException:
            plt.close(fig)
            raise
    return fig, note


def mark_scrape_gaps(ax: Any, gaps: Any, by: list[str]) -> None:
    """Each scrape gap (``start``..``end``, ISO text, of a group of ``by``) on every tier row of
    its group (every tier row when ungrouped): a bar of :data:`GAP_STYLE`, gid ``scrape_gap``,
    keyed once (:data:`GAP_LABEL`); the gaps of groups without a row are named in the legend
    instead. A row is found by its label (``<group> · <tier> (severity)``)."""
    import matplotlib.dates as mdates
    import pandas as pd
    from matplotlib.patches import Patch

    from ..plotting.alert_chart import add_alert_keys

    if not gaps:
        return
    rows = [(float(y), t.get_text()) for y, t in zip(ax.get_yticks(), ax.get_yticklabels(),
                                                     strict=True) if t.get_text() != "incidents"]
    drawn, unplaced = False, []
    for g in gaps:
        x0, x1 = (float(mdates.date2num(  # type: ignore[no-untyped-call]
            pd.Timestamp(g[k]).tz_convert("UTC").tz_localize(None))) for k in ("start", "end"))
        head = " · ".join(str(g[k]) for k in by) + " · " if by else ""
        ys = [y for y, text in rows if text.startswith(head)]
        for y in ys:
            ax.broken_barh([(x0, x1 - x0)], (y - 0.45, 0.9), lw=0.5, zorder=GAP_ZORDER,
                           gid="scrape_gap", **GAP_STYLE)
        drawn |= bool(ys)
        if not ys:
            unplaced.append(", ".join(f"{k}={g[k]}" for k in by))
    keys: list[Any] = [Patch(**GAP_STYLE, lw=0.5, label=GAP_LABEL, gid="scrape_gap")] if drawn \
        else []
    if unplaced:
        names = ", ".join(dict.fromkeys(unplaced))
        keys.append(Patch(facecolor="none", edgecolor="none", gid="scrape_gap",
                          label=f"scrape gaps in groups\nwithout a row: {names}"))
    add_alert_keys(ax, keys)
