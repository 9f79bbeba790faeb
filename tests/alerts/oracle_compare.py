"""Comparing a table with the oracle's (the verbatim copies of earlier implementations), where the
current API differs from them on purpose, each difference stated and checked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from budgetlab.alerts.score_table import DURATION_COLUMNS


def assert_same_as_oracle(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """``got`` equals the oracle table ``want``: exactly, except (1) the score table's duration
    columns are always timedelta64[ns], (2) its rates per day are over observed time (checked here
    against the oracle's counts and ``observed_days``; observed_days itself by a loop in
    tests/alerts/test_observed_time.py) and withheld (NaN, a ``rates_note`` saying why) under one
    day of it, (3) the tables record more in attrs (:data:`ADDED_ATTRS`), (4) the score tables
    record ``incidents_outside`` in attrs (incidents wholly outside the grid, not scored; the oracle
    scored every incident, so the count must be 0 for the tables to be equal), (5) they record
    ``budget_note`` in attrs (why budget_before_alert is withheld, when the period is longer than
    the span; the oracle never withheld it, so the note must be empty)."""
    # the oracle built its table from dicts: a duration column without any detection came out as
    # all-NaT datetime64[s]; the columnar table keeps it timedelta64[ns] (NaT): the same values
    want = want.copy()
    for col in DURATION_COLUMNS:
        if col in want.columns and want[col].dtype.kind == "M" and bool(want[col].isna().all()):
            want[col] = pd.Series(pd.NaT, index=want.index, dtype="timedelta64[ns]")
    if "observed_days" in got.columns and "observed_days" not in want.columns:
        # rates per day are over observed time now (tests/alerts/test_observed_time.py checks
        # observed_days by a loop); the oracle's rates were over the whole span: rescaled here
        days = got["observed_days"].to_numpy()
        # under one day (24 h) of observed time a rate per day or week is withheld
        thin = ~(days >= 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            rates = {
                "pages_per_day": want["episodes"].to_numpy() / days,
                "false_pages_per_week": (want["episodes"] - want["true_episodes"]).to_numpy()
                / (days / 7),
            }
        for col, values in rates.items():
            np.testing.assert_allclose(got[col].to_numpy(), np.where(thin, np.nan, values),
                                       rtol=1e-12, atol=0)
        np.testing.assert_array_equal(got["rates_note"].to_numpy() != "", thin)
        got = got.drop(columns=[*rates, "observed_days", "rates_note"])
        want = want.drop(columns=list(rates))
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert got.attrs.get("incidents_outside", 0) == 0
    assert got.attrs.get("budget_note", "") == ""
    assert_oracle_attrs(got, want)


#: attrs keys the current tables record beyond the oracles': ``tier_windows`` and
#: ``cannot_fire_note`` (alert_episodes, carried on by the score tables), ``incidents_outside``
#: and ``budget_note`` (the score tables), and what every table on the bin
#: grid records of how it was made (budgetlab/budget/grid_attrs.py; checked by hand in
#: tests/test_attrs_json.py): the SLO, group keys, bin width and edges, the options, and the
#: score tables' options and incidents' span (alerts/scoring.py score_attrs)
ADDED_ATTRS = ("tier_windows", "incidents_outside", "budget_note", "slo", "by", "freq",
               "grid_start", "grid_end", "freq_ns", "tiers", "windows", "at", "fill", "period",
               "calendar", "tz", "burn_window", "slice_window", "slice_target", "grace",
               "filling", "incidents_start", "incidents_end", "policies", "cannot_fire_note")


def assert_oracle_attrs(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """``got``'s attrs are the oracle's, but for keys of :data:`ADDED_ATTRS` the oracle lacks (a
    key the oracle has keeps its value)."""
    assert {k: v for k, v in got.attrs.items()
            if k not in ADDED_ATTRS or k in want.attrs} == want.attrs


def _resets_withheld(want: pd.DataFrame, episodes: pd.DataFrame, incidents: pd.DataFrame,
                     **kw) -> pd.DataFrame:
    """The oracle's table with difference (6): a reset is withheld (NaT) where the alert that
    detected an incident still fired at the last evaluation (its ``end`` is where the evaluation
    stopped, one step after it: ``ongoing``); the oracle counted that end as the reset. Which
    incidents: the oracle's own detections whose last alert ends at or after the ongoing
    episodes' end; a score row with any of them withholds its reset_median and reset_max."""
    if "ongoing" not in episodes.columns or not bool(episodes["ongoing"].any()):
        return want
    open_end = episodes.loc[episodes["ongoing"].to_numpy(dtype=bool), "end"].min()
    want = want.copy()
    if "reset_time" in want.columns:  # the oracle's detections table itself: its rows, its order
        unknown = (want["detected"] & (want["last_alert_end"] >= open_end)).to_numpy(dtype=bool)
        want.loc[unknown, "reset_time"] = pd.NaT
        return want
    labels, rows = _rows_with_ongoing_detections(episodes, incidents, int(open_end.value), **kw)
    hit = np.array([r in rows for r in want[labels].astype(str).itertuples(index=False,
                                                                            name=None)],
                   dtype=bool)
    for col in ("reset_median", "reset_max"):
        want[col] = want[col].where(~hit, pd.NaT)
    return want


def _rows_with_ongoing_detections(episodes: pd.DataFrame, incidents: pd.DataFrame,
                                  open_end_ns: int, *, grace: Any = "1h",
                                  bins: Any = None, target: Any = None, period: Any = None,
                                  policy: Any = None,
                                  **options: Any) -> tuple[list[str], set[tuple[str, ...]]]:
    """The label columns of a score row (group keys, tier, severity) and the rows whose incidents
    include one detected by an alert ending at or after ``open_end_ns``: the oracle's own
    matches, group by group and tier by tier (``_Context.match``, what the oracle's
    ``incident_detections`` puts in a table, one DataFrame per group and tier: 250 s on 2,000
    groups, where the matches alone take seconds). The keyword defaults are the oracle's."""
    from tests.alerts import oracle_scoring

    ctx = oracle_scoring._Context(episodes, incidents, grace=grace, bins=bins, target=target,
                                  period=period, policy=policy, options=options)
    rows = set()
    for group, tier, severity, gidx, tidx in ctx.selections():
        m = ctx.match(gidx, tidx)
        if bool((m.detected & (m.last >= open_end_ns)).any()):
            rows.add((*group.values(), tier, severity))
    return [*ctx.by, "tier", "severity"], rows


def oracle_score_alerts(episodes: pd.DataFrame, incidents: pd.DataFrame, **kw) -> pd.DataFrame:
    """The oracle's score table, resets as the current rule withholds them (difference 6)."""
    from tests.alerts import oracle_scoring

    return _resets_withheld(oracle_scoring.score_alerts(episodes, incidents, **kw), episodes,
                            incidents, **kw)


def oracle_incident_detections(episodes: pd.DataFrame, incidents: pd.DataFrame,
                               **kw) -> pd.DataFrame:
    """The oracle's detections, resets as the current rule withholds them (difference 6)."""
    from tests.alerts import oracle_scoring

    return _resets_withheld(oracle_scoring.incident_detections(episodes, incidents, **kw),
                            episodes, incidents, **kw)
