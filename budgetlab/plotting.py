"""Drawings only. Every ``plot_*`` takes the tidy table a budgetlab function returned, draws on
``ax`` (default: the current axes), returns the Axes and never calls ``plt.show()``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ._util.validation import as_list, check_tz, duration_label, require_columns, to_timedelta
from .budget.figures import STATUSES
from .errors import ConfigError, InputError
from .slo import PerGroup

__all__ = ["STATUS_COLORS", "BUCKET_COLORS", "plot_timeline", "plot_buckets", "plot_alerts",
           "plot_recalibration", "plot_window_comparison"]

#: Colours of the status bands (colour-blind-safe, from Okabe–Ito).
STATUS_COLORS = {"healthy": "#009E73", "warning": "#E69F00", "critical": "#D55E00", "exhausted": "#7F0000"}


def _thin(frame: pd.DataFrame, max_points: int) -> pd.DataFrame:
    """Keep at most ``max_points`` rows (every k-th row plus the last) for drawing."""
    if len(frame) <= max_points:
        return frame
    step = int(np.ceil(len(frame) / max_points))
    idx = np.unique(np.r_[np.arange(0, len(frame), step), len(frame) - 1])
    return frame.iloc[idx]


def _utc_naive(values: Any) -> np.ndarray:
    """Times as naive UTC ``datetime64[ns]`` (what matplotlib plots; the axis shows ``tz``);
    ``.view(np.int64)`` gives UTC nanoseconds."""
    s = pd.to_datetime(pd.Series(values), utc=True)
    return np.asarray(s.dt.tz_localize(None).dt.as_unit("ns").to_numpy())


def _names(col: pd.Series) -> list[str]:
    """The values of a column in display order: its categories, else first appearance."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return [str(c) for c in col.cat.categories]
    return list(pd.unique(col.astype(str)))


def _time_axis(ax: Axes, tz: str) -> None:
    """Date ticks and labels in ``tz`` (the data stay UTC) and the zone in the x label."""
    locator = mdates.AutoDateLocator(tz=tz)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator, tz=tz))  # type: ignore[no-untyped-call]
    ax.set_xlabel(f"time ({tz})")


def _legend_above(ax: Axes, handles: list[Any], ncols: int = 4) -> None:
    """A legend just above the plot area, so it never covers data."""
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.01), ncols=ncols,
              fontsize="small", frameon=False, borderaxespad=0.0)


def _legend_right(ax: Axes, handles: list[Any], *, x: float = 1.0, inches: float = 0.1) -> None:
    """A one-column legend right of the plot area (``x`` in axes fraction plus ``inches``), so it
    covers no data and leaves the title free."""
    from matplotlib.transforms import ScaledTranslation

    anchor = ax.transAxes + ScaledTranslation(inches, 0, ax.figure.dpi_scale_trans)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(x, 1.0), bbox_transform=anchor,
              fontsize="small", frameon=False, borderaxespad=0.0)


def _one_group(frame: pd.DataFrame, known: Sequence[str], what: str) -> None:
    keys = [c for c in frame.columns if c not in known]
    for k in keys:
        if frame[k].nunique(dropna=False) > 1:
            raise InputError(
                f"{what} holds several groups ({k!r} varies); select one group first, e.g. "
                f"states[states[{k!r}] == value]."
            )


#: Transitions are drawn as full-height lines up to this many, as a rug below the data above it.
MAX_TRANSITION_LINES = 60


def plot_timeline(states: pd.DataFrame, *, slo: Any = None, incidents: pd.DataFrame | None = None,
                  transitions: pd.DataFrame | None = None, ax: Axes | None = None, max_points: int = 5000,
                  tz: str | None = None, budget: bool = True) -> Axes:
    """Success rate, burn rate and budget remaining over time, on status bands.

    Parameters
    ----------
    states : DataFrame
        One group's output of :func:`budgetlab.replay` (filter groups first).
    slo : SLO, optional
        Draws the target line (default: ``states.attrs["slo"]`` when present).
    incidents : DataFrame, optional
        Incident table; each ``[start, end)`` is shaded with grey hatching.
    transitions : DataFrame, optional
        Output of :func:`budgetlab.transitions`: up to 60 changes are marked with full-height
        lines, more with a rug of short ticks at the bottom, coloured by the new status.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    max_points : int
        Lines are thinned to at most this many points (every k-th event and the last one).
    tz : str, optional
        Time zone of the tick labels (default UTC), named in the x label; the data stay UTC.
    budget : bool
        Draw ``remaining_fraction`` (in %) on a third axis.

    Returns
    -------
    Axes
        The success-rate axes (left, %); the burn-rate axes (right) is ``ax.burn_ax`` and the
        budget-remaining axes (outer right, %) ``ax.budget_ax`` (``None`` with ``budget=False``).
        Artists carry gids: ``success_rate``, ``burn_rate``, ``budget_remaining``, ``target``,
        ``status_<name>`` (band collections), ``incident``, ``transitions``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, replay
    >>> ev = as_events(pd.date_range("2026-01-01", periods=60, freq="1min"), [i % 7 != 0 for i in range(60)])
    >>> ax = plot_timeline(replay(ev, SLO(target=0.9, window="10min")), tz="Europe/Berlin")
    >>> ax.get_xlabel(), ax.burn_ax.get_ylabel()
    ('time (Europe/Berlin)', 'burn rate (1 = allowed pace)')
    >>> plt.close("all")
    """
    from .budget.tracker_replay import REPLAY_COLUMNS

    ax = plt.gca() if ax is None else ax
    tz = check_tz(tz)
    need = ["ts", "success_rate", "burn_rate", "status"] + (["remaining_fraction"] if budget else [])
    require_columns(states, need, what="states")
    _one_group(states, REPLAY_COLUMNS, "states")
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) or max_points < 2:
        raise ConfigError("max_points must be a whole number >= 2.")
    slo = slo if slo is not None else states.attrs.get("slo")
    if isinstance(slo, PerGroup):  # a per-group replay: the SLO of the group drawn (its key columns)
        slo = slo.slo_for(tuple(states[[c for c in states.columns if c not in REPLAY_COLUMNS]].iloc[0])) if len(states) else None
    data = states.sort_values("ts", kind="stable")
    ts = _utc_naive(data["ts"])
    code = data["status"].cat.codes.to_numpy()
    if len(data):  # status bands: a run of equal status lasts until the next change
        starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        x0 = mdates.date2num(ts[starts])  # type: ignore[no-untyped-call]
        width = mdates.date2num(np.r_[ts[starts[1:]], ts[-1]]) - x0  # type: ignore[no-untyped-call]
        for k, status in enumerate(STATUSES):
            run = code[starts] == k
            if run.any():
                ax.broken_barh(list(zip(x0[run], width[run], strict=True)), (0, 1), transform=ax.get_xaxis_transform(),
                               facecolors=STATUS_COLORS[status], alpha=0.15, lw=0, gid=f"status_{status}")
    thin = _thin(data, max_points)
    tthin = _utc_naive(thin["ts"])
    ax.plot(tthin, thin["success_rate"].to_numpy() * 100, color="#0072B2", lw=1.2,
            label="success rate in window (%)", gid="success_rate")
    if slo is not None:
        ax.axhline(slo.target * 100, color="black", ls="--", lw=1, label=f"target {slo.target:.1%}", gid="target")
    ax.set_ylabel("success rate in window (%)")
    burn_ax = ax.twinx()
    burn_ax.plot(tthin, thin["burn_rate"].to_numpy(), color="#CC79A7", lw=1, label="burn rate", gid="burn_rate")
    burn_ax.axhline(1.0, color="#CC79A7", ls=":", lw=1, gid="burn_one")
    burn_ax.set_ylabel("burn rate (1 = allowed pace)")
    budget_ax = None
    if budget:
        budget_ax = ax.twinx()
        budget_ax.spines["right"].set_position(("axes", 1.1))
        budget_ax.plot(tthin, thin["remaining_fraction"].to_numpy() * 100, color="#009E73", lw=1, ls="-.",
                       label="budget remaining (%)", gid="budget_remaining")
        budget_ax.set_ylim(-5, 105)
        budget_ax.set_ylabel("budget remaining in window (%)")
    handles = [h for a in (ax, burn_ax, budget_ax) if a is not None for h in a.get_legend_handles_labels()[0]]
    if incidents is not None and len(incidents):
        require_columns(incidents, ["start", "end"], what="incidents")
        for s, e in zip(_utc_naive(incidents["start"]), _utc_naive(incidents["end"]), strict=True):
            ax.axvspan(s, e, facecolor="none", edgecolor="grey", hatch="//", lw=0.8, gid="incident")
        handles.append(Patch(facecolor="none", edgecolor="grey", hatch="//", label="incident"))
    if transitions is not None and len(transitions):
        require_columns(transitions, ["ts", "to_status"], what="transitions")
        t_tr = _utc_naive(transitions["ts"])
        colors = [STATUS_COLORS[str(s)] for s in transitions["to_status"].astype(str)]
        few = len(t_tr) <= MAX_TRANSITION_LINES
        ax.vlines(t_tr, 0, 1 if few else 0.04, transform=ax.get_xaxis_transform(), colors=colors,
                  lw=0.8, ls=":" if few else "-", gid="transitions")
        label = f"{len(t_tr)} status changes" + ("" if few else " (rug)")
        handles.append(Line2D([], [], color="grey", ls=":" if few else "-", lw=0.8, label=label))
    handles += [Patch(color=STATUS_COLORS[s], alpha=0.3, label=s) for s in STATUSES]
    _time_axis(ax, tz)
    # right of the outermost y axis: burn rate (labels ~0.55 in) or budget remaining (spine at 1.1)
    _legend_right(ax, handles, x=1.1 if budget_ax is not None else 1.0, inches=0.75 if budget_ax is not None else 0.7)
    ax.burn_ax = burn_ax  # type: ignore[attr-defined]
    ax.budget_ax = budget_ax  # type: ignore[attr-defined]
    ax.figure.sca(ax)  # twinx() made the twin current; hand back the main axes
    return ax


#: Fill colours of failure buckets (Okabe–Ito); other buckets cycle through the rest.
BUCKET_COLORS = {"timeout": "#56B4E9", "solve_error": "#E69F00"}
_EXTRA_COLORS = ("#CC79A7", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#999999")
#: The seed's burn-rate bands: < 1 on plan, 1 just makes it, 2 gone in half the window, 5+ melting.
BURN_BANDS = (1.0, 2.0, 5.0)


def _freq_ns(frame: pd.DataFrame, column: str) -> int:
    freq = frame.attrs.get("freq")
    if isinstance(freq, str):
        return int(pd.Timedelta(to_timedelta(freq, name="freq")).value)
    uniq = np.unique(_utc_naive(frame[column]).view(np.int64))
    if len(uniq) < 2:
        raise ConfigError(f"cannot tell the bin width from a single {column}; keep the table's attrs['freq'].")
    return int(np.gcd.reduce(np.diff(uniq)))


def plot_buckets(over_time: pd.DataFrame, *, by: str | Sequence[str] | None = None, ax: Axes | None = None,
                 tz: str | None = None, bands: Sequence[float] = BURN_BANDS) -> Axes:
    """Burn rate over time, stacked by failure bucket (and, with ``by``, by group).

    Parameters
    ----------
    over_time : DataFrame
        Output of :func:`budgetlab.bucket_burn_over_time`.
    by : str or list of str, optional
        Group keys of ``over_time`` to keep apart in the stack (``"region"``: one layer per
        bucket and region); the other groups are added up.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    tz : str, optional
        Time zone of the tick labels (default UTC), named in the x label.
    bands : sequence of float
        Reference lines at these burn rates (the seed's bands 1, 2, 5); a band above 1.5 times
        the highest stacked burn is left out so it does not squash the data.

    Returns
    -------
    Axes
        One filled step patch per layer (``StepPatch``, gid ``bucket``, label ``<bucket>`` or
        ``<bucket> · <group>``): its ``get_data()`` gives the bin edges, the layer's top
        (``values``) and bottom (``baseline``); ``values - baseline`` is the layer's burn
        rate: its failures over all the events of the bin (of every group drawn) × (1 − target),
        so the stack's top is the bin's total burn rate.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, bucket_burn_over_time
    >>> ts = pd.date_range("2026-01-01", periods=240, freq="1min")
    >>> bucket = ["timeout" if i % 10 == 0 else "solve_error" if i % 25 == 0 else "success" for i in range(240)]
    >>> ot = bucket_burn_over_time(as_events(ts, [b == "success" for b in bucket], bucket), SLO(target=0.9))
    >>> ax = plot_buckets(ot)  # 6 timeouts an hour at 60 events: 6 / (60 x 0.1) = burn 1
    >>> [(p.get_label(), (p.get_data().values - p.get_data().baseline).round(2).tolist()) for p in ax.patches]
    [('timeout', [1.0, 1.0, 1.0, 1.0]), ('solve_error', [0.17, 0.17, 0.33, 0.17])]
    >>> plt.close("all")
    """
    ax = plt.gca() if ax is None else ax
    tz = check_tz(tz)
    require_columns(over_time, ["bin_start", "bucket", "events", "burn_rate"], what="over_time")
    keys = as_list(by)
    require_columns(over_time, keys, what="over_time")
    if len(over_time) == 0:
        raise InputError("over_time is empty; make it with budgetlab.bucket_burn_over_time().")
    step = _freq_ns(over_time, "bin_start")
    t = _utc_naive(over_time["bin_start"]).view(np.int64)
    t0 = int(t.min())
    n_bins = int((t.max() - t0) // step) + 1
    b_idx = (t - t0) // step
    bucket = over_time["bucket"]
    names = _names(bucket)
    # events per bin: every group's events counted once (they repeat on each bucket row)
    first_bucket = (bucket.astype(str) == str(bucket.iloc[0])).to_numpy()
    events = np.bincount(b_idx[first_bucket], weights=over_time["events"].to_numpy(dtype=float)[first_bucket],
                         minlength=n_bins)
    weighted = over_time["burn_rate"].to_numpy(dtype=float) * over_time["events"].to_numpy(dtype=float)
    layer_keys = over_time[keys].astype(str).agg(" · ".join, axis=1) if keys else pd.Series("", index=over_time.index)
    layer = (bucket.astype(str) + np.where(layer_keys == "", "", " · ") + layer_keys).to_numpy()
    order = sorted(pd.unique(layer), key=lambda s: (names.index(s.split(" · ")[0]) if s.split(" · ")[0] in names
                                                    else len(names), s))
    edges = (t0 + np.arange(n_bins + 1, dtype=np.int64) * step).view("datetime64[ns]")
    bottom = np.zeros(n_bins)
    extra = iter(_EXTRA_COLORS * 10)
    shades: dict[str, str] = {}
    for name in order:
        b = name.split(" · ")[0]
        base = BUCKET_COLORS.get(b) or shades.setdefault(b, next(extra))
        sel = layer == name
        num = np.bincount(b_idx[sel], weights=weighted[sel], minlength=n_bins)
        value = np.zeros(n_bins)
        np.divide(num, events, out=value, where=events > 0)
        top = bottom + value
        n_same = sum(1 for o in order if o.split(" · ")[0] == b)
        k_same = [o for o in order if o.split(" · ")[0] == b].index(name)
        ax.stairs(top, edges, baseline=bottom.copy(), fill=True, color=base, alpha=1.0 - 0.45 * k_same / max(n_same, 1),
                  lw=0, label=name, gid="bucket")
        bottom = top
    peak = float(bottom.max()) if n_bins else 0.0
    for band in bands:
        if band == 1.0 or band <= 1.5 * peak:
            ax.axhline(band, color="black", lw=0.8, ls="--" if band == 1.0 else ":", gid="band")
            ax.annotate(f"burn {band:g}", xy=(1.0, band), xycoords=("axes fraction", "data"), xytext=(2, 0),
                        textcoords="offset points", va="center", fontsize="x-small")
    ax.set_ylim(bottom=0)
    ax.set_ylabel("burn rate (1 = allowed pace)")
    _time_axis(ax, tz)
    handles = [p for p in ax.patches if p.get_gid() == "bucket"][::-1]  # legend top-down like the stack
    _legend_right(ax, handles, inches=0.45)  # clear of the band labels
    return ax


SEVERITY_COLORS = {"page": "#D55E00", "critical": "#D55E00", "ticket": "#E69F00", "warning": "#E69F00"}


def plot_alerts(episodes: pd.DataFrame, *, incidents: pd.DataFrame | None = None, ax: Axes | None = None,
                tz: str | None = None) -> Axes:
    """Alert episodes per tier (one row each, and per group) against the incidents.

    Parameters
    ----------
    episodes : DataFrame
        Output of :func:`budgetlab.alert_episodes`. Every tier of the policy gets a row, also
        tiers that never fired (from ``episodes.attrs["tiers"]`` or the ``tier`` categories).
    incidents : DataFrame, optional
        Incident table: drawn as the top row (hatched) and shaded across all rows.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    tz : str, optional
        Time zone of the tick labels (default UTC), named in the x label.

    Returns
    -------
    Axes
        One ``BarContainer`` per row in ``ax.containers`` (label: the row's name, ``<tier>`` or
        ``<group> · <tier>``; ``incidents`` for the incident row); each bar spans an episode
        ``[start, end)`` in matplotlib date numbers. The x range is the evaluated span
        (``attrs["grid_start"]``..``attrs["grid_end"]``) when known.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
    >>> ts = pd.date_range("2026-01-01", periods=120, freq="1min")
    >>> b = bin_events(as_events(ts, [not (30 <= i < 40) for i in range(120)]), "1min")
    >>> ax = plot_alerts(alert_episodes(b, 0.9, AlertPolicy.single_window("10min", burn=4.5)))
    >>> [(c.get_label(), len(c.patches)) for c in ax.containers]
    [('page_10m', 1)]
    >>> plt.close("all")
    """
    ax = plt.gca() if ax is None else ax
    tz = check_tz(tz)
    require_columns(episodes, ["tier", "severity", "start", "end"], what="episodes")
    attr_by = episodes.attrs.get("by")
    keys = [k for k in attr_by if k in episodes.columns] if isinstance(attr_by, list) else \
        [c for c in episodes.columns if c not in ("tier", "severity", "start", "end", "duration", "ongoing", "caused")]
    tiers = episodes.attrs.get("tiers")
    if not (isinstance(tiers, list) and tiers):
        sev = dict(zip(episodes["tier"].astype(str), episodes["severity"].astype(str), strict=True))
        tiers = [(n, sev.get(n, "")) for n in _names(episodes["tier"])]
    groups = (sorted(set(episodes[keys].astype(str).itertuples(index=False, name=None))) if keys else []) or [()]
    start = _utc_naive(episodes["start"])
    end = _utc_naive(episodes["end"])
    tier_col = episodes["tier"].astype(str).to_numpy()
    key_col = (episodes[keys].astype(str).agg("\x1f".join, axis=1).to_numpy() if keys and len(episodes)
               else np.full(len(episodes), "", dtype=object))
    rows: list[str] = []
    y = 0
    for g in groups:  # a loop over groups and tiers
        for name, severity in tiers:
            sel = (tier_col == str(name)) & (key_col == "\x1f".join(g))
            label = " · ".join([*g, str(name)])
            ax.barh(np.full(int(sel.sum()), y), end[sel] - start[sel], left=start[sel], height=0.6,
                    color=SEVERITY_COLORS.get(str(severity), "#0072B2"), label=label)
            rows.append(f"{label} ({severity})" if severity else label)
            y += 1
    severities = list(dict.fromkeys(str(sev) for _, sev in tiers))
    handles: list[Any] = [Patch(color=SEVERITY_COLORS.get(sev, "#0072B2"), label=sev) for sev in severities]
    if incidents is not None and len(incidents):
        require_columns(incidents, ["start", "end"], what="incidents")
        i_s, i_e = _utc_naive(incidents["start"]), _utc_naive(incidents["end"])
        ax.barh(np.full(len(i_s), y), i_e - i_s, left=i_s, height=0.6, color="none", edgecolor="grey",
                hatch="//", label="incidents")
        for s, e in zip(i_s, i_e, strict=True):
            ax.axvspan(s, e, color="grey", alpha=0.12, lw=0, gid="incident")
        if "incident_id" in incidents.columns:
            for s, iid in zip(i_s, incidents["incident_id"].astype(str), strict=True):
                ax.annotate(iid, xy=(s, y), xytext=(2, 0), textcoords="offset points", va="center",
                            fontsize="x-small")
        rows.append("incidents")
        handles.append(Patch(facecolor="none", edgecolor="grey", hatch="//", label="incident"))
    ax.set_yticks(np.arange(len(rows)), rows, fontsize="small")
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.invert_yaxis()
    lo, hi = episodes.attrs.get("grid_start"), episodes.attrs.get("grid_end")
    if lo is not None and hi is not None:
        ax.set_xlim(_utc_naive([lo])[0], _utc_naive([hi])[0])
    ax.set_ylabel("alert tier")
    _time_axis(ax, tz)
    _legend_right(ax, handles)
    return ax


# --- recalibration and window comparison -------------------------------------------------------

#: Colours of groups in plot_recalibration / plot_window_comparison (Okabe–Ito, then tab10).
_GROUP_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")


def _group_labels(frame: pd.DataFrame, keys: Sequence[str]) -> np.ndarray:
    if not keys:
        return np.full(len(frame), "all", dtype=object)
    return frame[list(keys)].astype(str).agg(" · ".join, axis=1).to_numpy()


def plot_recalibration(result: Any, *, ax: Axes | None = None, logy: bool = True) -> Axes:
    """Rolling-window success rate distribution per group, with the recommended target and its
    bootstrap interval, the current target and the candidates' time at the limit status.

    Parameters
    ----------
    result : Recalibration
        Output of :func:`budgetlab.recalibrate`.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    logy : bool
        Log scale for the share of time (the tail that decides the target stays visible).

    Returns
    -------
    Axes
        Artists with gids, one set per group label ``<g>`` (``"all"`` without groups):
        ``distribution:<g>`` (line: x = the time-weighted quantiles ``success_rate`` × 100,
        y = ``probability`` × 100 from ``result.distribution``), ``candidates:<g>`` (markers:
        x = ``target`` × 100, y = share of time at ``limit_status`` or worse × 100 from
        ``result.candidates``), ``recommended:<g>`` (vertical line), ``interval:<g>``
        (shaded ``recommended_low``..``recommended_high``), ``current:<g>`` (dashed vertical
        line), and ``limit`` (horizontal line at ``max_share`` × 100).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import recalibrate, synth
    >>> events, _ = synth.generate("2026-10-05", 6, seed=1, rate=0.1, incidents=None, session_ids=False)
    >>> r = recalibrate(events, by="captcha_type", target=0.93, n_boot=20)
    >>> ax = plot_recalibration(r)
    >>> [ln.get_gid() for ln in ax.lines][:3]
    ['distribution:recaptcha_v2', 'candidates:recaptcha_v2', 'recommended:recaptcha_v2']
    >>> plt.close("all")
    """
    for attr in ("summary", "candidates", "distribution", "settings"):
        if not hasattr(result, attr):
            raise InputError("plot_recalibration() takes the Recalibration that budgetlab.recalibrate() returns.")
    ax = plt.gca() if ax is None else ax
    settings = result.settings
    keys = list(settings.get("by", []))
    limit_status = str(settings.get("limit_status", "exhausted"))
    levels = STATUSES[STATUSES.index(limit_status):]
    summary, cand, dist = result.summary, result.candidates, result.distribution
    s_lab, c_lab, d_lab = _group_labels(summary, keys), _group_labels(cand, keys), _group_labels(dist, keys)
    c_share = cand[[f"share_{s}" for s in levels]].sum(axis=1).to_numpy()
    handles: list[Any] = []
    for i, label in enumerate(s_lab):
        color = _GROUP_COLORS[i % len(_GROUP_COLORS)]
        row = summary.iloc[i]
        d = dist[d_lab == label]
        line, = ax.plot(d["success_rate"].to_numpy() * 100, d["probability"].to_numpy() * 100, color=color,
                        lw=1.5, gid=f"distribution:{label}", label=label)
        handles.append(line)
        sel = c_lab == label
        ax.plot(cand["target"].to_numpy()[sel] * 100, c_share[sel] * 100, ls="none", marker="o", ms=3,
                color=color, alpha=0.6, gid=f"candidates:{label}")
        rec, lo, hi, cur = (row["recommended_target"], row["recommended_low"], row["recommended_high"],
                            row["current_target"])
        if np.isfinite(rec):
            ax.axvline(rec * 100, color=color, lw=1.2, gid=f"recommended:{label}")
        if np.isfinite(lo) and np.isfinite(hi):
            ax.axvspan(lo * 100, hi * 100, color=color, alpha=0.12, lw=0, gid=f"interval:{label}")
        if np.isfinite(cur):
            ax.axvline(cur * 100, color=color, lw=1.0, ls="--", gid=f"current:{label}")
    max_share = float(settings.get("max_share", 0.01))
    ax.axhline(max_share * 100, color="black", lw=0.8, ls=":", gid="limit")
    if logy:
        ax.set_yscale("log")
    window, history = settings.get("window"), settings.get("history")
    wtxt = f"rolling {duration_label(window)} window" if window is not None else "rolling window"
    htxt = f", last {duration_label(history)}" if history is not None else ""
    ax.set_xlabel(f"success rate in the {wtxt}{htxt} (%)")
    ax.set_ylabel("share of time at or below (%)" + (", log scale" if logy else ""))
    handles += [Line2D([], [], color="grey", ls="none", marker="o", ms=3, label=f"time {limit_status}+ at target"),
                Line2D([], [], color="grey", lw=1.2, label="recommended target"),
                Patch(color="grey", alpha=0.25, label=f"{settings.get('confidence', 0.95):.0%} bootstrap interval"),
                Line2D([], [], color="grey", lw=1.0, ls="--", label="current target"),
                Line2D([], [], color="black", lw=0.8, ls=":", label=f"limit {max_share:.1%} {limit_status}")]
    _legend_above(ax, handles, ncols=3)
    return ax


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


def _metric_values(table: pd.DataFrame, column: str) -> np.ndarray:
    col = table[column]
    if pd.api.types.is_timedelta64_dtype(col.dtype):  # in minutes; NaT (e.g. nothing detected) is NaN
        return np.asarray(pd.to_timedelta(col).dt.total_seconds().to_numpy(dtype=float) / 60.0)
    vals = col.to_numpy(dtype=float)
    return vals * 100 if column.startswith("share_") else vals


def plot_window_comparison(table: pd.DataFrame, *, y: str = "transitions_per_day", y2: str | None = "auto",
                           ax: Axes | None = None, logy: bool = False) -> Axes:
    """Flapping against reaction time, window by window (one line per group and dwell time).

    Parameters
    ----------
    table : DataFrame
        Output of :func:`budgetlab.compare_windows`.
    y : str
        Column on the left axis (default ``transitions_per_day``).
    y2 : str or None
        Column on the right axis, dashed (default ``"auto"``: ``detection_median`` when the
        table has incident columns, else ``share_exhausted``); ``None`` for none.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    logy : bool
        Log scale on the left axis.

    Returns
    -------
    Axes
        The left axes; the right one is ``ax.y2_ax`` (``None`` without ``y2``). One line per
        series (gid ``<column>:<series>``, series ``<group>`` or ``<group> · dwell <d>``):
        x = the position of each window in ``table["window"]``'s categories (tick labels are the
        windows), y = the column's values (Timedelta columns in minutes, ``share_*`` in %).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, compare_windows
    >>> ts = pd.date_range("2026-01-01", periods=2 * 1440, freq="1min")
    >>> t = compare_windows(as_events(ts, [i % 9 != 0 for i in range(len(ts))]), SLO(target=0.9),
    ...                     ["30min", "2h", "calendar:day"])
    >>> ax = plot_window_comparison(t)
    >>> [tl.get_text() for tl in ax.get_xticklabels()]
    ['30m', '2h', 'calendar:day']
    >>> plt.close("all")
    """
    require_columns(table, ["window", "min_dwell", y], what="table")
    if y2 == "auto":
        y2 = "detection_median" if "detection_median" in table.columns else "share_exhausted"
    if y2 is not None:
        require_columns(table, [y2], what="table")
    ax = plt.gca() if ax is None else ax
    keys = list(table.attrs.get("by", [])) if isinstance(table.attrs.get("by"), list) else []
    keys = [k for k in keys if k in table.columns]
    windows = _names(table["window"])
    x_all = np.array([windows.index(str(w)) for w in table["window"]], dtype=float)
    dwell = pd.to_timedelta(table["min_dwell"])
    several_dwells = dwell.nunique() > 1
    series = _group_labels(table, keys)
    if several_dwells:
        series = np.array([f"{s} · dwell {duration_label(d) if d > pd.Timedelta(0) else '0'}"
                           for s, d in zip(series, dwell, strict=True)], dtype=object)
    ax2 = ax.twinx() if y2 is not None else None
    v1 = _metric_values(table, y)
    v2 = _metric_values(table, y2) if y2 is not None else None
    handles: list[Any] = []
    for i, name in enumerate(pd.unique(series)):
        sel = series == name
        order = np.argsort(x_all[sel], kind="stable")
        color = _GROUP_COLORS[i % len(_GROUP_COLORS)]
        line, = ax.plot(x_all[sel][order], v1[sel][order], marker="o", color=color, lw=1.5, label=str(name),
                        gid=f"{y}:{name}")
        handles.append(line)
        if ax2 is not None and v2 is not None:
            ax2.plot(x_all[sel][order], v2[sel][order], marker="s", ms=4, color=color, lw=1.0, ls="--",
                     gid=f"{y2}:{name}")
    ax.set_xticks(np.arange(len(windows)), windows)
    ax.set_xlim(-0.3, len(windows) - 0.7)
    ax.set_xlabel("window (rolling, or calendar in the table's tz)")
    ax.set_ylabel(_METRIC_LABELS.get(y, y) + " — solid")
    if logy:
        ax.set_yscale("log")
    if ax2 is not None and y2 is not None:
        ax2.set_ylabel(_METRIC_LABELS.get(y2, y2) + " — dashed")
        ax2.set_ylim(bottom=0)
    ax.set_ylim(bottom=0 if not logy else None)
    _legend_above(ax, handles, ncols=3)
    ax.y2_ax = ax2  # type: ignore[attr-defined]
    return ax
