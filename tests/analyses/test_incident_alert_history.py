"""The incident report's alerts do not depend on its context: an episode already running at the
window's start, a tier's pending time (``for_``) and its cooldown are read on full windows, as
:func:`budgetlab.alert_episodes` over the whole log's bins reads them (the oracle, with the figures
worked out by hand in the comments). The log: one event a minute from 2026-03-01 22:00 to
2026-03-02 02:59, SLO 90 % over 1 h (error budget 0.1); a tier of burn 2 over 1 h holds when
its window [t - 1 h, t) holds at least 12 failures among its 60 events (12 / 60 / 0.1 is
2.0000000000000004 in floats; 11 / 60 gives 1.83); incident 02:00 .. 02:30."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import (
    SLO,
    AlertPolicy,
    AlertTier,
    alert_episodes,
    as_events,
    bin_events,
    incident_report,
)

SLO_90 = SLO(target=0.9, window="1h")
START, END = "2026-03-02 02:00", "2026-03-02 02:30"


def at(hhmm: str, day: int = 2) -> pd.Timestamp:
    return pd.Timestamp(f"2026-03-0{day} {hhmm}", tz="UTC")


def log(bad: set[pd.Timestamp], first: pd.Timestamp | None = None) -> pd.DataFrame:
    """One event a minute from ``first`` (default 22:00 the day before) to 02:59; those at
    ``bad`` fail."""
    ts = pd.date_range(first if first is not None else at("22:00", 1), at("02:59"), freq="1min")
    return as_events(list(ts), [t not in bad for t in ts])


def probe() -> pd.DataFrame:
    """Failures at 01:00, 01:05, .., 01:50 (11) and 01:51, 01:52, 01:53: the window [00:52,
    01:52) of the 01:52 evaluation is the first to hold 12 (01:00 .. 01:50 and 01:51); the 02:10
    one [01:10, 02:10) the last (01:10 .. 01:50: 9, and 3); [01:11, 02:11) holds 11."""
    bad = {at("01:00") + pd.Timedelta(minutes=5 * i) for i in range(11)}
    return log(bad | {at("01:51"), at("01:52"), at("01:53")})


def whole_log(ev: pd.DataFrame, tier: AlertTier, w_start: pd.Timestamp,
              w_end: pd.Timestamp) -> pd.DataFrame:
    """The oracle: the package's alert evaluation over the whole log's bins, the episodes that
    overlap the report's window."""
    ep = alert_episodes(bin_events(ev, "1min"), SLO_90.target, AlertPolicy([tier]))
    return ep[(ep["start"] < w_end) & (ep["end"] > w_start)].reset_index(drop=True)


def report(ev: pd.DataFrame, tier: AlertTier, context: str):
    return incident_report(ev, SLO_90, START, END, context=context, policy=AlertPolicy([tier]))


def test_an_episode_running_at_the_window_s_start_starts_where_the_whole_log_says():
    # for_ = 0: the condition holds at the evaluations 01:52 .. 02:10, one episode [01:52, 02:11),
    # whatever the context. Old: with no context the replay began at 01:00, and the 01:01
    # evaluation read a window of 1 minute holding 1 failure (burn 10): an episode from 01:01
    ev, tier = probe(), AlertTier("t", severity="page", long_window="1h", burn=2.0)
    for context in ("0s", "1h"):
        rep = report(ev, tier, context)
        oracle = whole_log(ev, tier, rep.window_start, rep.window_end)
        assert [(r.start, r.end) for r in oracle.itertuples()] == [(at("01:52"), at("02:11"))]
        assert rep.alerts["start"].tolist() == oracle["start"].tolist(), context
        assert rep.alerts["end"].tolist() == oracle["end"].tolist(), context
        row = rep.tiers.iloc[0]
        assert (row["first_alert"], row["alert_end"]) == (at("01:52"), at("02:11"))
        # firing before the incident began: it did not detect it, no delay (score_alerts' rule)
        assert row["already_firing"] and pd.isna(row["detection_delay"])
        assert not row["may_have_fired_earlier"]  # the log held 3 h of data before 01:52


def test_the_pending_time_counts_the_evaluations_before_the_window():
    # for_ = 10 min: the condition holds from 01:52, so the alert fires 10 evaluations later, at
    # 02:02: 2 min after the incident began, whatever the context. Old: with no context the
    # condition held from the cut 01:01 window on and the alert fired at 01:11, "detected" with
    # no delay
    ev = probe()
    tier = AlertTier("t", severity="page", long_window="1h", burn=2.0, for_="10min")
    for context in ("0s", "1h"):
        rep = report(ev, tier, context)
        oracle = whole_log(ev, tier, rep.window_start, rep.window_end)
        assert [(r.start, r.end) for r in oracle.itertuples()] == [(at("02:02"), at("02:11"))]
        assert rep.alerts["start"].tolist() == oracle["start"].tolist(), context
        row = rep.tiers.iloc[0]
        assert (row["first_alert"], row["detection_delay"]) == (at("02:02"),
                                                                 pd.Timedelta("2min")), context


@pytest.mark.parametrize("context", ["0s", "1h"])
def test_the_cooldown_joins_a_run_before_the_replayed_history(context):
    # failures 00:00 .. 00:11 (12): the condition holds at 00:12 .. 01:00 ([00:01, 01:01) holds
    # 11); failures 01:50 .. 02:01 (12): it holds again from 02:02 (the gap, 01:01 .. 02:01, is 61
    # evaluations, within the 90 min cooldown): one alert firing at 00:12 through the window.
    # Old: with no context the replay began at 01:00 and saw a new alert at 02:02; with 1 h from
    # 00:00, where the cut 00:01 window held 1 failure in 1 minute: an alert at 00:01
    bad = {at("00:00") + pd.Timedelta(minutes=i) for i in range(12)}
    ev = log(bad | {at("01:50") + pd.Timedelta(minutes=i) for i in range(12)})
    tier = AlertTier("t", severity="page", long_window="1h", burn=2.0, cooldown="90min")
    rep = report(ev, tier, context)
    oracle = whole_log(ev, tier, rep.window_start, rep.window_end)
    assert oracle["start"].tolist() == [at("00:12")]
    assert rep.alerts["start"].tolist() == oracle["start"].tolist()
    row = rep.tiers.iloc[0]
    # firing since 00:12, before the incident: already firing, no delay (score_alerts' rule)
    assert row["first_alert"] == at("00:12")
    assert row["already_firing"] and pd.isna(row["detection_delay"])


def test_an_alert_firing_at_the_log_s_first_full_window_may_have_fired_earlier():
    # the log starts at 23:00, before the replayed history (01:00 with no context): the tier's
    # first full window is the 00:00 evaluation's, [23:00, 00:00), holding 23:00 .. 23:11 (12
    # failures): the condition holds there (and at none after until 02:02, the second burst), the
    # 150 min cooldown joins the two: one alert, from 00:00, which may have fired before (the data
    # before 23:00 are not in the log). Old: a new alert at 02:02, said to be the first
    bad = {at("23:00", 1) + pd.Timedelta(minutes=i) for i in range(12)}
    ev = log(bad | {at("01:50") + pd.Timedelta(minutes=i) for i in range(12)}, at("23:00", 1))
    tier = AlertTier("t", severity="page", long_window="1h", burn=2.0, cooldown="150min")
    rep = report(ev, tier, "0s")
    assert rep.data_start is None  # the log holds the history the window needs
    assert rep.alerts["start"].tolist() == [at("00:00")]
    assert rep.alerts["may_have_fired_earlier"].tolist() == [True]
    row = rep.tiers.iloc[0]
    assert (row["first_alert"], row["may_have_fired_earlier"]) == (at("00:00"), True)
    assert "it may have fired earlier" in " ".join(rep.summary.split())
