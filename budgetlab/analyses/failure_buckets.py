"""Timeout vs solve failures: what each failure bucket costs, per group (over time:
:mod:`budgetlab.analyses.bucket_burn`).

The seed's advice, "split the failures into a connection-timeout and a solve-error bucket before
lowering the SLO", as tables. Every figure is attributed to a failure ``bucket`` (``timeout``,
``solve_error``, ...) with one convention, written down here once:

* **Bucket burn rate.** ``burn_rate = failures_of_bucket / (events × (1 − target))``: the bucket's
  failures over the *same* denominator as the total burn, so the buckets' burn rates add up to the
  group's burn rate (``group_burn_rate``). 1.0 = the whole allowed pace.
* **Without a bucket.** The bucket's events are removed from good *and* total (the SRE model's
  ``exclude_buckets``): ``sli_without = good / (events − failures_of_bucket)``. A group whose
  events are all in that bucket has ``sli_without = 1.0`` and ``burn_rate_without = 0.0`` (the
  seed's zero-traffic rule).
* **Caused by a bucket alone.** The seed tracker is replayed twice per bucket, with and without
  it (exactly as :func:`budgetlab.replay` on the filtered events would). For each status level
  (``warning``, ``critical``, ``exhausted``) a *run* is a maximal time span during which the
  status is at or above that level, from the event that enters it to the event that leaves it
  (or the last event of the table), **closed** at both ends. A transition enters or leaves the
  runs of the levels between its two statuses; it is *caused by the bucket* when the run of its
  higher status overlaps no run of the same level and group in the replay without the bucket.
  Likewise an alert episode (tier, group) of the policy replayed on bins is caused by the bucket
  when ``[start, end]`` overlaps no episode of the same tier and group without it. Pages are the
  episodes of tiers whose severity is ``"page"``.
* **While a long window fills.** An alert episode begun and ended while its tier's long window
  filled at the log's start (within the first long window of the bins) is not counted, the rule
  and function of ``budgetlab alerts`` (:func:`~budgetlab.alerts.filling.episodes_filling`,
  scored apart there): ``alerts_filling`` and ``pages_filling`` count those. One begun earlier
  and still firing once the window is full is counted. A tier whose long window never filled
  in the log is *not evaluated* (``attrs["not_evaluated"]``): none of its episodes is counted,
  and ``attrs["filling_note"]`` says so; its 0 alerts are no evidence of a quiet log.
* **Thin groups withheld.** A group whose events hold fewer than 10 expected failures under its
  target (:func:`~budgetlab.analyses.recalibration.rules.too_few_events`, the rule of
  ``recalibrate`` and ``latency``) gets a ``note`` saying so: its figures of
  :data:`THIN_COLUMNS` keep their meaning in the table but are no verdict (the CLI leaves them
  blank and prints the note). One event that failed is a burn rate of 20 at 95 %, not evidence.
  Unless the failures decide a miss all the same
  (:func:`~budgetlab.analyses.recalibration.rules.decided_miss`: a service at the target would
  fail that often with probability at most 0.1 %): then the note begins ``missed:`` and the
  figures stand, but for those without the bucket (:data:`WITHOUT_COLUMNS`: fewer events still,
  the CLI leaves them blank). 65 failures in 66 events are a miss of 95 %.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.progress import progress
from .._util.ratios import ratio
from .._util.validation import to_ns
from ..alerts.episodes import alert_episodes
from ..alerts.filling import episodes_filling
from ..alerts.firing import check_policy_bins
from ..alerts.policy import AlertPolicy, as_policy
from ..errors import InputError
from ..events.schema import SUCCESS, bucket_dtype, check_events
from ..slo import SLO, PerGroup, as_per_group, as_slo
from ..windows.binning import bin_events, bucket_codes
from .bucket_filling import filling_attrs, filling_note, merge_filling
from .bucket_variants import Groups, TrackerVariants, episodes_caused
from .per_group import group_slos, per_slo_rows
from .recalibration.rules import decided_miss, too_few_events

__all__ = ["THIN_COLUMNS", "WITHOUT_COLUMNS", "bucket_breakdown", "bucket_counts", "bucket_rows"]

#: The figures of :func:`bucket_breakdown` a thin group's ``note`` withholds: every one judged
#: against the group's events or target (its ``events`` and ``failures`` are counts, kept).
THIN_COLUMNS = ("share_of_failures", "failure_rate", "burn_rate", "group_burn_rate", "sli",
                "sli_without", "burn_rate_without", "transitions", "transitions_without",
                "transitions_caused", "alerts", "alerts_without", "alerts_caused", "pages",
                "pages_without", "pages_caused", "alerts_filling", "pages_filling")

#: The figures of :data:`THIN_COLUMNS` of the group without the bucket, a group of fewer events
#: still: a ``missed:`` note (the group's miss decided on few events) keeps the others, not these
#: (the CLI leaves them blank: whether the group would miss without the bucket is not decided).
WITHOUT_COLUMNS = ("sli_without", "burn_rate_without", "transitions_without",
                   "transitions_caused", "alerts_without", "alerts_caused", "pages_without",
                   "pages_caused")


def _episode_counts(ep: pd.DataFrame, keys: list[str], key_table: pd.DataFrame,
                    mask: np.ndarray | None = None) -> np.ndarray:
    """Episodes per group of ``key_table`` (rows of ``ep`` selected by ``mask``)."""
    sel = ep if mask is None else ep[mask]
    if not keys:
        return np.array([len(sel)], dtype=np.int64)
    lookup = {k: i for i, k in enumerate(key_table[keys].astype(str).itertuples(index=False,
                                                                                name=None))}
    # episodes, not events
    idx = [lookup[k] for k in sel[keys].astype(str).itertuples(index=False, name=None)]
    return np.bincount(np.asarray(idx, dtype=np.int64), minlength=len(key_table))


def bucket_counts(events: pd.DataFrame, slo: SLO, keys: Sequence[str], *,
                  groups: Groups | None = None) -> pd.DataFrame:
    """The count part of :func:`bucket_breakdown` (no replays, no alerts): group keys,
    ``bucket``, ``events``, ``failures``, ``share_of_failures``, ``share_of_all_failures``,
    ``failure_rate``, ``burn_rate``, ``group_burn_rate``, ``sli``, ``sli_without``,
    ``burn_rate_without``, ``note`` (the thin rule, as :func:`bucket_breakdown` writes it). One
    row per observed group and failure bucket; ``attrs["by"]`` lists ``keys``, ``attrs["start"]``
    and ``attrs["end"]`` the span counted (:func:`bucket_breakdown`)."""
    grp = Groups(events, list(keys)) if groups is None else groups
    codes, names = bucket_codes(events)
    fail_idx = [i for i, b in enumerate(names) if b != SUCCESS]
    nb = len(names)
    counts = np.bincount(grp.code * nb + codes, minlength=grp.n_groups * nb).reshape(grp.n_groups,
                                                                                     nb)
    events_g = counts.sum(axis=1)[:, None]  # every observed group has events
    fails = counts[:, fail_idx]  # (groups, failure buckets)
    fails_g = fails.sum(axis=1)[:, None]
    eb = slo.error_budget
    all_fail = int(fails_g.sum())
    rest = events_g - fails
    out = bucket_rows(grp.key_table, grp.n_groups, [names[i] for i in fail_idx])
    out["events"] = np.repeat(events_g, len(fail_idx))
    out["failures"] = fails.ravel()
    out["share_of_failures"] = ratio(fails, fails_g, 0.0).ravel()
    out["share_of_all_failures"] = ratio(fails, all_fail, 0.0).ravel()
    out["failure_rate"] = (fails / events_g).ravel()
    out["burn_rate"] = (fails / (events_g * eb)).ravel()
    out["group_burn_rate"] = np.repeat(fails_g / (events_g * eb), len(fail_idx))
    out["sli"] = np.repeat((events_g - fails_g) / events_g, len(fail_idx))
    out["sli_without"] = ratio(rest - (fails_g - fails), rest, 1.0).ravel()
    out["burn_rate_without"] = ratio(fails_g - fails, rest * eb, 0.0).ravel()
    span = "the group" if len(keys) else "the table"
    notes = [_thin_note(int(n), int(f), slo.target, span) for n, f in zip(
        events_g[:, 0].tolist(), fails_g[:, 0].tolist(), strict=True)]
    out["note"] = np.repeat(np.array(notes, dtype=object), len(fail_idx))
    out.attrs.update(by=list(keys), **span_attrs(events["ts"]))
    return out


def _thin_note(events: int, failures: int, target: float, span: str) -> str:
    """A group's ``note``: ``"withheld: ..."`` where its events are too few for a verdict
    (:func:`too_few_events`), unless its failures decide a miss all the same
    (:func:`decided_miss`: ``"missed: ..."``, the figures kept); empty when they are enough."""
    thin = too_few_events(events, target, span=span)
    return decided_miss(events, failures, target) or (f"withheld: {thin}" if thin else "")


def bucket_rows(units: pd.DataFrame, n_units: int, names: list[str]) -> pd.DataFrame:
    """One row per unit (``units``: its key columns, maybe none) and failure bucket, in that
    order."""
    k = len(names)
    out = (units.iloc[np.repeat(np.arange(n_units), k)].reset_index(drop=True) if len(units.columns)
           else pd.DataFrame(index=pd.RangeIndex(n_units * k)))
    # by codes: the categorical of millions of rows (groups x bins) is never spelled row by row
    codes = np.tile(np.arange(k, dtype=np.int32), n_units)
    out["bucket"] = pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(names, ordered=True))
    return out


def bucket_breakdown(
    events: pd.DataFrame,
    slo: SLO | PerGroup | Mapping[Any, Any],
    *,
    by: str | Sequence[str] | None = None,
    policy: AlertPolicy | str | None = None,
    freq: Any = "1min",
) -> pd.DataFrame:
    """What each failure bucket costs, per group: failures, burn, SLI without it, and the status
    transitions and alerts it alone caused.

    Parameters
    ----------
    events : DataFrame
        Canonical event table.
    slo : SLO or PerGroup
        Target (for burn rates and the policy) and the tracker's window and thresholds. Per
        group (a :class:`~budgetlab.PerGroup` or a mapping from group key to SLO or target):
        each group's rows equal those of the table computed with its own SLO for every group
        (``share_of_all_failures`` still counts every group's failures).
    by : str or list of str, optional
        Group keys, as declared (``by="region"``); ``None`` (the default) for one row per bucket.
    policy : AlertPolicy, optional
        Alert policy replayed on bins of width ``freq`` (default :meth:`AlertPolicy.workbook` for
        the SLO's ``period``; a given policy keeps its own; a preset name such as ``"workbook"``
        is built for the SLO's ``period``).
    freq : duration
        Bin width for the policy; must divide its windows.

    Returns
    -------
    DataFrame
        One row per group and failure bucket (every failure bucket of the ``bucket`` dtype, in its
        order), sorted by group: group keys, ``bucket``, ``events`` (the group's events),
        ``failures`` (of the bucket), ``share_of_failures`` (of the group's failures; 0 without
        failures), ``share_of_all_failures`` (of all groups' failures), ``failure_rate``
        (failures / events), ``burn_rate`` (failures / (events × (1 − target)); the buckets add up
        to ``group_burn_rate``), ``group_burn_rate``, ``sli`` (the group's success ratio),
        ``sli_without`` and ``burn_rate_without`` (the bucket removed from good and total),
        ``transitions`` / ``transitions_without`` (status changes of the seed tracker with all
        events / without the bucket), ``transitions_caused`` (changes caused by the bucket alone,
        see the module doc), ``alerts`` / ``alerts_without`` / ``alerts_caused`` (episodes of every
        tier), ``pages`` / ``pages_without`` / ``pages_caused`` (episodes of ``"page"`` tiers;
        none of these six counts an episode begun and ended while its tier's long window filled,
        see the module doc), ``alerts_filling`` / ``pages_filling`` (those episodes, left out),
        ``note`` (empty, or ``"withheld: ..."`` why the group's :data:`THIN_COLUMNS` are too
        thin for a verdict: fewer events than hold 10 expected failures under its target; or
        ``"missed: ..."`` where as few events decide a miss all the same, the figures kept).
        Every figure counts the whole table: ``attrs["start"]`` and ``attrs["end"]`` (ISO-8601
        text, UTC) are its first and last event (all groups, both included); the replays and the
        policy's bins see the same events, each group's bins to that end, on the window's clock
        (:func:`budgetlab.status_spans`): an alert can go on, or begin, after a group's last event
        while the tier's windows hold its events; once they are empty (a silence) it stops,
        unless the policy's ``cooldown`` keeps it firing.
        ``attrs`` also holds ``slo``, ``by`` and ``policy``
        (``slo`` as :meth:`~budgetlab.SLO.as_dict`: :func:`budgetlab.table_slo` rebuilds it;
        ``policy`` the name of the policy replayed; when per-group SLOs build a preset into
        different policies, each group's, ``[{"group": [key, ...], "policy": name}, ...]``
        (``policy="sloth"`` under periods of 28 and 30 days: ``sloth_28d``, ``sloth_30d``).
        ``attrs["not_evaluated"]`` names the tiers whose long window never filled (tier: long
        window in ns), ``attrs["filling_note"]`` says what the alert columns leave out (``""``
        when nothing) and ``attrs["filling"]`` holds the same as data (``span_ns``, the bins';
        ``log_ns``, the log's first to last event, the length the note says; per tier its
        ``severity``, ``long_window_ns``, ``episodes`` left out and whether it was
        ``evaluated``).

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> bucket = ["success"] * 3 + ["timeout"] * 2 + ["success"] * 3  # one event a minute
    >>> ev = as_events(pd.date_range("2026-01-01", periods=8, freq="1min"),
    ...                [b == "success" for b in bucket], bucket)
    >>> t = bucket_breakdown(ev, SLO(target=0.5, window="1h"), by=None)
    >>> t[["bucket", "failures", "share_of_failures", "burn_rate", "sli", "sli_without"]]
            bucket  failures  share_of_failures  burn_rate   sli  sli_without
    0      timeout         2                1.0        0.5  0.75         1.00
    1  solve_error         0                0.0        0.0  0.75         0.75

    The second timeout makes the tracker WARNING (2 of 5 failed: burn 0.8), the eighth event
    HEALTHY again (2 of 8: burn 0.5); without timeouts it never moves:

    >>> t[["transitions", "transitions_without", "transitions_caused"]].to_dict("list")
    {'transitions': [2, 2], 'transitions_without': [0, 2], 'transitions_caused': [2, 0]}
    >>> [t.attrs[k] for k in ("start", "end")]  # the span counted: the whole table
    ['2026-01-01T00:00:00+00:00', '2026-01-01T00:07:00+00:00']
    """
    per = as_per_group(slo)
    if per is not None:
        return _breakdown_per_slo(events, per, by, policy, freq)
    return _breakdown(events, as_slo(slo), by, policy, freq)


def _breakdown_per_slo(events: pd.DataFrame, per: PerGroup, by: Any, policy: Any,
                       freq: Any) -> pd.DataFrame:
    """:func:`bucket_breakdown` under per-group SLOs: each SLO on its groups' rows
    (:func:`~.per_group.per_slo_rows`), with the whole table's failure buckets and the policy's
    bins over the whole log (its first event's bin to its last's), so every group's rows equal
    those of the whole table's run under its SLO; ``share_of_all_failures`` and
    ``attrs["start"]``/``["end"]`` count every group."""
    check_events(events, by)
    if "bucket" in events.columns and not isinstance(events["bucket"].dtype, pd.CategoricalDtype):
        codes, names = bucket_codes(events)  # the buckets of the whole table in every run
        events = events.assign(bucket=pd.Categorical.from_codes(codes, dtype=bucket_dtype(names)))

    policies: dict[SLO, str] = {}
    fillings: list[dict[str, Any]] = []

    def run(one: SLO, rows: pd.DataFrame) -> pd.DataFrame:
        ts = events["ts"]  # sorted (checked): the log's first and last event
        table = _breakdown(rows, one, by, policy, freq, log=(ts.iloc[0], ts.iloc[-1]))
        policies[one] = table.attrs["policy"]
        fillings.append(table.attrs["filling"])
        return table

    out = per_slo_rows(events, per, by, run)
    out.attrs.update(_filling_attrs(merge_filling(fillings)))
    failures = out["failures"].to_numpy()
    out["share_of_all_failures"] = ratio(failures, int(failures.sum()), 0.0)
    out.attrs.update(span_attrs(events["ts"]))
    if len(set(policies.values())) > 1:  # a preset built for each group's period: say each one
        slo_of = group_slos(events, by, per)[1]
        out.attrs["policy"] = [{"group": list(k), "policy": policies[s]} for k, s in slo_of.items()]
    return out


def _breakdown(events: pd.DataFrame, slo: SLO, by: Any, policy: Any, freq: Any,
               log: tuple[Any, Any] | None = None) -> pd.DataFrame:
    """:func:`bucket_breakdown` under one SLO; the policy's bins span the ``log``'s first to
    last event (default: the events' own), which the filling note says the length of."""
    keys = check_events(events, by)
    pol = as_policy(policy, default=AlertPolicy.workbook(slo.period), period=slo.period)
    check_policy_bins(pol, to_ns(freq, name="freq"), fix="freq={!r}")
    if len(events) == 0:
        raise InputError("events is empty; there is nothing to break down.")
    groups = Groups(events, keys)
    table = bucket_counts(events, slo, keys, groups=groups)
    fail_names = [str(c) for c in table["bucket"].cat.categories]
    variants = TrackerVariants(events, slo, groups)
    n_groups = groups.n_groups
    k = len(fail_names)
    first, last = (events["ts"].iloc[0], events["ts"].iloc[-1]) if log is None else log
    bins = bin_events(events, freq, by=keys, start=first, end=last + pd.Timedelta(1, "ns"))
    page_tiers = [t.name for t in pol.tiers if t.severity == "page"]
    cols = {f"{what}_{how}": np.zeros((n_groups, k), dtype=np.int64)
            for what in ("transitions", "alerts", "pages") for how in ("without", "caused")}
    ep_all = alert_episodes(bins, slo.target, pol, freq=freq)
    # the episodes over while their tier's long window filled: apart, as `budgetlab alerts` does
    apart = episodes_filling(ep_all)
    is_page = ep_all["tier"].astype(str).isin(page_tiers).to_numpy()
    kt = groups.key_table
    for j, name in enumerate(progress(fail_names, desc="buckets")):  # a loop over buckets
        code = variants.names.index(name)
        cols["transitions_without"][:, j] = variants.transition_counts(code)
        _, grp, caused = variants.caused(code)
        cols["transitions_caused"][:, j] = np.bincount(grp[caused], minlength=n_groups)
        ep, wo = episodes_caused(bins, slo.target, pol, name, freq=freq, episodes=ep_all)
        wo_in = ~episodes_filling(wo)
        wo_page = wo["tier"].astype(str).isin(page_tiers).to_numpy() & wo_in
        ep_caused = ep["caused"].to_numpy() & ~apart
        cols["alerts_without"][:, j] = _episode_counts(wo, keys, kt, wo_in)
        cols["alerts_caused"][:, j] = _episode_counts(ep, keys, kt, ep_caused)
        cols["pages_without"][:, j] = _episode_counts(wo, keys, kt, wo_page)
        cols["pages_caused"][:, j] = _episode_counts(ep, keys, kt, is_page & ep_caused)
    whole = {"transitions": variants.transition_counts(None),
             "alerts": _episode_counts(ep_all, keys, kt, ~apart),
             "pages": _episode_counts(ep_all, keys, kt, is_page & ~apart)}
    for what, counts in whole.items():
        table[what] = np.repeat(counts, k)
        table[f"{what}_without"] = cols[f"{what}_without"].ravel()
        table[f"{what}_caused"] = cols[f"{what}_caused"].ravel()
    table["alerts_filling"] = np.repeat(_episode_counts(ep_all, keys, kt, apart), k)
    table["pages_filling"] = np.repeat(_episode_counts(ep_all, keys, kt, is_page & apart), k)
    table["note"] = table.pop("note")  # bucket_counts' thin rule, the last column
    table.attrs.update({"slo": slo.as_dict(), "by": list(keys), "policy": pol.name or "custom"})
    table.attrs.update(_filling_attrs(filling_attrs(ep_all, apart, (last - first).value)))
    return table


def _filling_attrs(filling: dict[str, Any]) -> dict[str, Any]:
    """``filling``, ``not_evaluated`` (tier: long window in ns) and ``filling_note``."""
    unfilled = {n: t["long_window_ns"] for n, t in filling["tiers"].items() if not t["evaluated"]}
    return {"filling": filling, "not_evaluated": unfilled, "filling_note": filling_note(filling)}
