"""The tables of :func:`~budgetlab.analyses.recalibration.recalibrate` (:class:`Recalibration`):
the summary, the candidates (step 8: which targets, their flapping and pages), the distribution
of the rolling rate and the bootstrap samples, laid out from the steps' arrays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..._util.attrs import time_text
from ..._util.durations import duration_label
from ..._util.percent import given_fraction
from ..._util.ratios import ratio
from ..._util.units import DAY_NS, HOUR_NS
from ..._util.words import counted, prose_duration, speak
from ...budget.figures import STATUSES
from ...errors import ConfigError
from ..sorted_events import Sorted
from .evidence import Judged
from .levels import Choice
from .options import Plan
from .pages import display_targets, page_counts, transitions_per_day
from .rolling import Rolling
from .rules import NO_BOOTSTRAP, recommendation_name
from .verdict import VERDICTS, WITHHELD

__all__ = ["Recalibration", "QUANTILE_LEVELS", "ESTIMATES", "summary_table",
           "candidates_table", "sample_tables", "group_words", "recalibration_attrs"]

#: Probabilities of the ``distribution`` table (time-weighted quantiles of the rolling rate).
QUANTILE_LEVELS: tuple[float, ...] = (0.001, 0.002, 0.005, *(k / 100 for k in range(1, 100)), 0.995,
                                      0.998, 0.999)
#: The summary's figures read over the evaluated time, withheld (NaN) on a group whose evidence
#: is too thin for both a verdict and a recommendation (the reason in ``verdict_reason``; where it
#: is too thin for the current target alone, only ``current_share_limit`` is withheld, with the
#: verdict), as are its ``candidates`` figures
#: and its ``distribution``: over a lone event's 1 ns they would be a rolling rate of 0 % or 8.6e13
#: events a day. Its counts (``events``, ``failures``, ``hours``, ``history_days``,
#: ``span_days``, ``traffic_days``), which the reason cites, stay, and so does ``success_rate``
#: with its Wilson interval (``ci_low``, ``ci_high``): a ratio of counts, honest at any count.
ESTIMATES = ("events_per_day", "window_events", "p1", "p5", "p10", "p50", "current_share_limit",
             "current_share_limit_silent")
_VERDICTS = pd.CategoricalDtype(list(VERDICTS), ordered=False)


@dataclass(frozen=True)
class Recalibration:
    """The result of :func:`recalibrate`: four tidy tables and the settings used.

    Attributes
    ----------
    summary : DataFrame
        One row per group (see :func:`recalibrate`).
    candidates : DataFrame
        One row per group and candidate target.
    distribution : DataFrame
        Time-weighted quantiles of the rolling-window success rate: group keys,
        ``probability``, ``success_rate`` (the smallest rate ``r`` with at least that share of
        the time at or below ``r``), ``target`` (the target where the share of time at
        ``limit_status`` or worse reaches ``probability``: below it every target spent less
        than that share there, above it every one at least that share; by the candidates' rule,
        :func:`~budgetlab.analyses.recalibration.levels.limit_quantiles`). At ``exhausted`` the
        two columns agree (a window is exhausted at every target at or above its rate); at
        ``critical`` a window is counted from the target ``1 - (1 - rate) / (1 - critical)``
        (0.885 with the default ``critical`` 0.1 for a rate of 0.8965), at ``warning`` from
        ``1 - (1 - rate) / (1 - warning)``.
    bootstrap : DataFrame
        Group keys, ``sample``, ``recommended_target``: the rule on each bootstrap sample.
    settings : dict
        ``window`` (per-group SLOs: their window when they share one, else ``None``), ``history``,
        ``span_start``, ``span_end``, ``step``, ``max_share``,
        ``limit_status``, ``loose_burn``, ``confidence``, ``n_boot``, ``block``, ``seed``,
        ``policy``, ``exclude_incidents`` (``None`` when none were given, else ``count``: the
        labelled incidents that left out evaluated time, ``given``: how many were given (one
        outside the evaluated span, or whose scope covers no group with evaluated time there,
        leaves out nothing and is not counted), ``start`` and ``end``: the first counted one's
        start and the last counted one's end, ``None`` when none is counted; the time left out
        runs from each start to one window past its end), ``by``, ``slo``: the SLO the groups
        were judged under (its window,
        thresholds and ``min_events``), its target the current target used (``target=`` over
        ``slo.target``); a :class:`~budgetlab.PerGroup` when the groups' SLOs or targets differ
        (:func:`~budgetlab.analyses.recalibration.run.slo_used`); ``None`` when no group had a
        current target (neither ``target=`` nor ``slo=``): an SLO recorded there would judge
        every group on a recompute, while the run judged none (``SLO()``'s thresholds under
        ``window`` were replayed, as a run without ``slo=`` replays them). A recompute with the
        recorded ``by``, ``window``, ``slo`` and options gives the same tables.
    """

    summary: pd.DataFrame
    candidates: pd.DataFrame
    distribution: pd.DataFrame
    bootstrap: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        """What was evaluated (groups, window, span), one line per group (its action or
        recommendation, or why it is withheld, and its note), and the tables' sizes: the
        tables themselves are the attributes."""
        st, sm = self.settings, self.summary
        by = list(st.get("by") or [])
        window = st.get("window")
        head = (f"Recalibration of {counted(len(sm), 'group')}"
                + (f" by {' and '.join(by)}" if by else "")
                + (f", {prose_duration(window)} window" if window is not None else ""))
        if "span_start" in st and "span_end" in st:
            lo, hi = (f"{st[k]:%Y-%m-%d %H:%M}" for k in ("span_start", "span_end"))
            head += f", evaluated {lo} .. {hi} UTC"
        lines = [head]
        shown = sm.head(_REPR_GROUPS) if set(_REPR_COLUMNS) <= set(sm.columns) else sm.iloc[0:0]
        for _, row in shown.iterrows():
            lines.append(f"  {group_words(row, by)}: {_outcome_words(row, st.get('n_boot'))}")
        if len(sm) > _REPR_GROUPS:
            lines.append(f"  ... {counted(len(sm) - _REPR_GROUPS, 'more group')} in .summary")
        sizes = ", ".join(f"{name} ({counted(len(getattr(self, name)), 'row')})"
                          for name in ("summary", "candidates", "distribution", "bootstrap"))
        return "\n".join([*lines, f"Tables: {sizes}; settings."])


#: Groups the repr of a :class:`Recalibration` lists (the rest are counted), and the summary
#: columns its lines read (a table built by hand without them gets no group lines).
_REPR_GROUPS = 10
_REPR_COLUMNS = ("action", "recommended_target", "recommended_low", "recommended_high",
                 "verdict_reason", "recommendation_note")


def group_words(row: pd.Series, by: list[str]) -> str:
    """A group in a sentence: its one key's value, ``key=value, ...`` for several, ``all events``
    without keys."""
    if not by:
        return "all events"
    return str(row[by[0]]) if len(by) == 1 else ", ".join(f"{k}={row[k]}" for k in by)


def _outcome_words(row: pd.Series, n_boot: Any) -> str:
    """``keep 0.93 (the rule's target 0.93, bootstrap interval 0.93 .. 0.935); NOTE``, or the
    reason a group is withheld; with ``n_boot`` 0, ``(the rule's target 0.93, no bootstrap,
    n_boot=0)``; ``the evidence's ceiling 0.998`` where the evidence capped the rule."""
    if pd.isna(row["recommended_target"]):
        return str(row["recommendation_note"] or row["verdict_reason"])
    rec, low, high = (given_fraction(row[c], missing="below every candidate") for c in
                      ("recommended_target", "recommended_low", "recommended_high"))
    rule = (f"{recommendation_name(bool(row['recommended_capped']))} {rec}, "
            + (f"bootstrap interval {low} .. {high}" if n_boot != 0 else NO_BOOTSTRAP))
    txt = f"{row['action'] or 'no current target'} ({rule})"
    return txt + (f"; {row['recommendation_note']}" if row["recommendation_note"] else "")


def summary_table(key_cols: pd.DataFrame, rolling: Rolling, c: Choice, j: Judged,
                  current: np.ndarray, window: Any) -> pd.DataFrame:
    """:attr:`Recalibration.summary`: one row per group. Its notes name options in the caller's
    words (:func:`~budgetlab._util.words.speak`): ``n_boot=0`` from the API, ``--n-boot 0`` in
    a command's ``--out`` table. ``window`` (the tracker window the targets were judged under) is
    written as the duration text of the flag (:func:`~budgetlab._util.durations.duration_label`:
    ``1h``, ``1d``, ``1m30s``), which the duration parser reads back exactly, so that a table
    saved as CSV keeps it (``export openslo --from-recalibration`` writes it)."""
    ev = j.evidence
    out = _beside_keys(key_cols, {
        "events": c.n_ev.astype(np.int64), "failures": (c.n_ev - c.n_ok).astype(np.int64),
                              "success_rate": c.rate,
        "ci_low": c.ci_low, "ci_high": c.ci_high, "hours": rolling.w_group / HOUR_NS,
        "history_days": ev["history_days"], "span_days": ev["span_days"],
        "traffic_days": ev["traffic_days"].astype(np.int64),
        "events_per_day": ev["events_per_day"],
        "window_events": ev["window_events"], "p1": c.p1, "p5": c.p5, "p10": c.p10, "p50": c.p50,
        "window": [duration_label(window)] * len(key_cols),
        "current_target": current, "current_share_limit": j.cur_share,
        "current_share_limit_silent": j.cur_silent,
        "verdict": pd.Categorical([WITHHELD if v is None else v for v in j.verdicts],
                                  dtype=_VERDICTS),
        "verdict_reason": list(map(speak, j.reasons)),
                              "action": j.actions,
        "recommended_target": j.recommended, "recommended_low": j.rec_low,
                              "recommended_high": j.rec_high,
        "recommended_capped": j.recommended < c.uncapped,  # False where either is NaN
        "recommendation_note": list(map(speak, j.notes))})
    out.loc[j.withheld, list(ESTIMATES)] = np.nan
    return out


def candidates_table(key_cols: pd.DataFrame, srt: Sorted, rolling: Rolling, c: Choice,
                     j: Judged, current: np.ndarray, plan: Plan) -> pd.DataFrame:
    """:attr:`Recalibration.candidates`: the shown targets of every group with their time at
    each status, flapping and pages (NaN where the group's evidence is withheld)."""
    recommended = j.recommended
    show = plan.options.show_progress
    show_vals, shown = display_targets(c.grid, c.in_range, plan.requested, current, recommended)
    sidx = np.searchsorted(c.cands, show_vals)
    tr_day = transitions_per_day(rolling, c.levels, sidx, show, shown)
    days = (rolling.w_group / DAY_NS)[:, None]
    pages = ratio(page_counts(srt, plan.policy, rolling, show_vals, shown, show,
                              plan.log_times(srt.t)), days, 0.0)
    ge = [s[:, sidx] for s in c.time.share_ge]
    shares = [1 - ge[0], ge[0] - ge[1], ge[1] - ge[2], ge[2]]
    per_target = {**{f"share_{s}": np.clip(x, 0.0, 1.0) for s, x in zip(STATUSES, shares,
                                                                        strict=True)},
                  "hours_exhausted": c.time.ge_total[2][:, sidx] / HOUR_NS,
                  "transitions_per_day": tr_day, "pages_per_day": pages}
    rows, cols = np.nonzero(shown)  # one row per group and shown target
    return _beside_keys(_key_rows(key_cols, rows), {
        "target": show_vals[cols], "is_current": show_vals[cols] == current[rows],
        "is_recommended": show_vals[cols] == recommended[rows],
        **{k: np.where(j.withheld[:, None], np.nan, v)[rows, cols] for k, v in per_target.items()}})


def sample_tables(key_cols: pd.DataFrame, srt: Sorted, rolling: Rolling, j: Judged,
                  limit_q: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:attr:`Recalibration.distribution` (NaN where the group's evidence is withheld; its
    ``target`` the quantiles ``limit_q`` of the targets from which each window is at the limit
    status or worse, :func:`~.levels.limit_quantiles`) and :attr:`Recalibration.bootstrap`."""
    boot = j.boot
    quantiles = np.where(j.withheld[:, None], np.nan, rolling.quantiles[:, 4:])
    targets = np.where(j.withheld[:, None], np.nan, limit_q)
    probs = np.asarray(QUANTILE_LEVELS, dtype=np.float64)
    groups = np.arange(srt.n_groups)
    n_boot = boot.shape[0]
    dist = _beside_keys(_key_rows(key_cols, np.repeat(groups, len(probs))), {
        "probability": np.tile(probs, srt.n_groups), "success_rate": quantiles.ravel(),
        "target": targets.ravel()})
    bt = _beside_keys(_key_rows(key_cols, np.tile(groups, n_boot)), {
        "sample": np.repeat(np.arange(n_boot), srt.n_groups), "recommended_target": boot.ravel()})
    return dist, bt


def _beside_keys(keys: pd.DataFrame, columns: dict[str, Any]) -> pd.DataFrame:
    """``columns`` beside the group ``keys``; a group key of the same name as one of them is
    refused: the column would replace the key, and its groups be lost without a word."""
    clash = [k for k in keys.columns if k in columns]
    if clash:
        raise ConfigError(f"by: the group key {clash[0]!r} has the name of a column recalibrate "
                          "writes beside the group keys; rename that column of the events (e.g. "
                          f"to '{clash[0]}_key') and group by the new name.")
    return keys.assign(**columns)


def _key_rows(key_cols: pd.DataFrame, rows: np.ndarray) -> pd.DataFrame:
    """The group keys of the groups at ``rows`` (no columns without groups)."""
    return key_cols.iloc[rows].reset_index(drop=True)


def recalibration_attrs(settings: dict[str, Any], summary: pd.DataFrame,
                        requested: Any) -> dict[Any, Any]:
    """The ``attrs`` of every table of a :class:`Recalibration`, its ``settings`` as JSON values:
    ``slo`` (the SLO the groups were judged under; left out when no group had a current target,
    ``settings["slo"]`` ``None``: none was judged), ``by``, the evaluated span
    ``start`` .. ``end``, ``window``, ``history`` and ``block`` (duration text; ``window``
    ``None`` for per-group SLOs of several windows), ``step``, ``max_share``,
    ``limit_status``, ``loose_burn``, ``confidence``, ``n_boot``, ``seed``, ``candidates`` (the
    targets asked for; ``None``: the usual ones), ``policy`` (``name``, ``period``,
    ``tiers``: the policy of ``pages_per_day``) and ``exclude_incidents`` (``None``, or
    ``count``: the incidents that left out evaluated time, ``given``: how many were given, and
    the first counted one's ``start`` and the last counted one's ``end``)."""
    judged = bool(np.isfinite(summary["current_target"].to_numpy(dtype=float)).any())
    window, policy, used = settings["window"], settings["policy"], settings.get("slo")
    return {**({"slo": used.as_dict()} if judged and used is not None else {}),
            "by": list(settings["by"]), "start": time_text(settings["span_start"]),
            "end": time_text(settings["span_end"]),
            "window": None if window is None else duration_label(window),
            "history": duration_label(settings["history"]),
            "block": duration_label(settings["block"]),
            **{k: settings[k] for k in ("step", "max_share", "limit_status", "loose_burn",
                                        "confidence", "n_boot", "seed")},
            "candidates": None if requested is None else [float(c) for c in requested],
            "policy": {"name": policy.name, "period": duration_label(policy.period),
                       "tiers": [[t.name, t.severity] for t in policy.tiers]},
            "exclude_incidents": _excluded(settings.get("exclude_incidents"))}


def _excluded(said: dict[str, Any] | None) -> dict[str, Any] | None:
    """``settings["exclude_incidents"]`` as JSON: its times as text."""
    if said is None:
        return None
    return {k: time_text(v) if k in ("start", "end") and v is not None else v
            for k, v in said.items()}
