"""The incident report's alerts and statuses stop where the log does, and its tier table says
no traffic where a tier's short window held no event (stop 59). Every expected figure is worked
out by hand in the comments; the alerts' end is also that of :func:`budgetlab.alert_episodes`
over the whole log (the reference the docs name: "those of alert_episodes over the whole log")."""

from __future__ import annotations

import numpy as np
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

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def _log_ending_in_an_outage() -> pd.DataFrame:
    """One event a minute 00:00 .. 01:59, the ones from 01:30 on failures: the log ends at
    01:59 while the outage goes on."""
    ts = pd.date_range(T0, periods=120, freq="1min")
    return as_events(ts, np.arange(120) < 90)


# fires while more than 4.5 x 10 % = 45 % of the last 10 min failed: 5 of 10 bins or more
TEN = AlertPolicy.single_window("10min", burn=4.5)


def test_an_alert_firing_when_the_log_ends_is_ongoing_there_as_alert_episodes_says():
    # At 01:35 the window (01:25, 01:35] holds bins 01:25 .. 01:34, 5 failures of 10: 0.5 >
    # 0.45, it fires. The last bin is [01:59, 02:00): the last evaluation is 02:00, still
    # firing, so the episode is ongoing and ends one step after it, at 02:01. Replayed on into
    # the empty hours after the log (the report window runs to 04:00) the window held only the
    # failures until 02:10: an invented end there, ongoing False.
    ev = _log_ending_in_an_outage()
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-03-02 01:30",
                          "2026-03-02 03:00", policy=TEN, context="1h")
    last = rep.alerts.iloc[-1]
    assert last["start"] == T0 + pd.Timedelta("1h35min")
    assert last["end"] == T0 + pd.Timedelta("2h01min")
    assert bool(last["ongoing"])
    ref = alert_episodes(bin_events(ev, "1min"), 0.9, TEN).iloc[-1]
    assert (last["start"], last["end"], bool(last["ongoing"])) == (ref["start"], ref["end"],
                                                                   bool(ref["ongoing"]))
    row = rep.tiers.iloc[0]
    assert row["fired"] and row["alert_end"] == T0 + pd.Timedelta("2h01min")


def test_the_statuses_stop_at_the_logs_last_event():
    # the log's last event is 01:59: after it the tracker's window empties with the data, so the
    # window's clock (spans, steps) ends 1 ns after it, not at the report window's end (04:00)
    ev = _log_ending_in_an_outage()
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-03-02 01:30",
                          "2026-03-02 03:00", policy=TEN, context="1h")
    stop = T0 + pd.Timedelta("1h59min") + pd.Timedelta(1)
    for table in (rep.spans, rep.steps):
        assert table["end"].max() == stop
        assert (table["start"] < stop).all()
    assert str(rep.spans["status"].iloc[-1]) == "exhausted"  # 30 failures in the last hour


@pytest.fixture(scope="module")
def quiet_log() -> pd.DataFrame:
    """One event a minute 2026-03-01 .. 03-02 23:59 with failures 10:00 .. 10:19 (100 %) and
    every 5th minute 06:00 .. 08:59 on 2026-03-02, and silent 14:00 .. 19:59 that day."""
    ts = pd.date_range("2026-03-01", "2026-03-03", freq="1min", inclusive="left", tz="UTC")
    ok = np.ones(len(ts), bool)

    def m(a: str, b: str) -> np.ndarray:
        return np.asarray((ts >= pd.Timestamp(a, tz="UTC")) & (ts < pd.Timestamp(b, tz="UTC")))

    ok[m("2026-03-02 10:00", "2026-03-02 10:20")] = False
    ok[np.flatnonzero(m("2026-03-02 06:00", "2026-03-02 09:00"))[::5]] = False
    keep = ~m("2026-03-02 14:00", "2026-03-02 20:00")
    return as_events(ts[keep], ok[keep])


def test_a_short_window_without_events_is_no_traffic_not_a_burn_of_0(quiet_log):
    # Incident 15:00 .. 16:00 inside the silence. page_6h (6 h / 30 min, burn 6): its 30 min
    # window (t - 30 min, t] holds no event at any evaluation 15:01 .. 16:00; its 6 h window
    # peaks at 16:00 with bins 10:00 .. 13:59: 20 failures of 240 -> 20 / 240 / 0.01 = 8.33.
    # ticket_1d (24 h / 2 h): its 2 h window holds events until 15:59 (the bin [13:59, 14:00)
    # ends at 14:00 > 15:59 - 2 h) and none at 16:00: one evaluation of 60 without traffic, the
    # others all successes: peak 0.
    rep = incident_report(quiet_log, SLO(target=0.99, window="1h"), "2026-03-02 15:00",
                          "2026-03-02 16:00")
    t = rep.tiers.set_index("tier")
    assert t.loc["page_6h", "peak_burn_long"] == pytest.approx(20 / 240 / 0.01)
    assert pd.isna(t.loc["page_6h", "peak_burn_short"])
    assert t.loc["page_6h", "short_window_empty"] == 60
    assert t.loc["ticket_1d", "peak_burn_short"] == 0.0
    assert t.loc["ticket_1d", "short_window_empty"] == 1
    text = " ".join(rep.summary.split())
    assert ("page_6h's 6 h burn, evaluated every minute, peaked at 8.33, its threshold is 6, but "
            "its 30 min window held no event at any of those evaluations)") in text
    assert "30 min burn was never over it" not in text


def test_a_short_window_empty_at_some_evaluations_says_so(quiet_log):
    # Incident 13:00 .. 15:00, one tier (6 h / 30 min, burn 6). Its 6 h window [t - 6 h, t)
    # peaks at 13:01: bins 07:01 .. 13:00, failures 07:05, 07:10 .. 08:55 (23) and 10:00 .. 10:19
    # (20): 43 / 360 / 0.01 = 11.94, over 6; its 30 min window then holds successes only (burn
    # 0), and from 14:30 on no event at all (the last bin before the silence ends at 14:00):
    # the 31 evaluations 14:30 .. 15:00 of the 120.
    pol = AlertPolicy([AlertTier("p6h", severity="page", long_window="6h",
                                 short_window="30min", burn=6)])
    rep = incident_report(quiet_log, SLO(target=0.99, window="1h"), "2026-03-02 13:00",
                          "2026-03-02 15:00", policy=pol)
    row = rep.tiers.iloc[0]
    assert row["peak_burn_long"] == pytest.approx(43 / 360 / 0.01)
    assert row["peak_burn_short"] == 0.0
    assert row["short_window_empty"] == 31
    assert ("peaked at 11.9, its threshold is 6, but its 30 min burn was never over it at the "
            "same evaluation (at 31 evaluations its 30 min window held no event: no burn there, "
            "no traffic))") in " ".join(rep.summary.split())
