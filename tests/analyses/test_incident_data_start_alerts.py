"""The incident report when the log starts late agrees with itself: the alerts table and the
figure hold the alerts of the covered replay only (each tier replayed from its first evaluation
whose long window lies after the data's start, as the tiers table reads it), their
``caused_by_timeouts`` computed for themselves; an alert firing at that first evaluation may have
fired earlier, said so; the tracker is read from when its window lies after the data's start,
said so. The log: one event a minute from 08:00 (or a later start), failures 10:30 .. 10:39,
SLO 99 % over 1 h (error budget 0.01). Every expected figure is worked out by hand in the
comments (the tracker's statuses also by the seed's tracker, tests/seed_tracker.py)."""

from __future__ import annotations

import matplotlib
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, AlertTier, as_events, incident_report
from tests.seed_tracker import ErrorBudgetTracker, SLOConfig

matplotlib.use("Agg")

T0 = pd.Timestamp("2026-03-02 08:00", tz="UTC")
SLO_99 = SLO(target=0.99, window="1h")
PAGE_1H = AlertTier("page_1h", severity="page", long_window="1h", short_window="5min", burn=14.4)
PAGE_6H = AlertTier("page_6h", severity="page", long_window="6h", short_window="30min", burn=6)
BOTH = AlertPolicy([PAGE_1H, PAGE_6H])


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-03-02 {hhmm}", tz="UTC")


def log(first: int = 0, last: int = 360, *, kinds: bool = False) -> pd.DataFrame:
    """One event at the start of each minute ``first`` .. ``last - 1`` after 08:00; those of
    10:30 .. 10:39 (minutes 150 .. 159) fail: with ``kinds`` the first five are solve errors, the
    last five timeouts."""
    idx = range(first, last)
    ok = [not 150 <= i < 160 for i in idx]
    kind = [("success" if o else "solve_error" if i < 155 else "timeout")
            for i, o in zip(idx, ok, strict=True)]
    return as_events([T0 + pd.Timedelta(minutes=i) for i in idx], ok, kind if kinds else None)


def words(rep) -> str:
    return " ".join(rep.summary.split())


def test_the_alerts_table_and_figure_hold_the_covered_alerts_only():
    # log 08:00 .. 13:59, incident 10:00 .. 12:00, context 1 h. page_1h is covered from 09:00: at
    # 10:39 its bins 09:39 .. 10:38 hold 9 failures in 60 (0.15 > 0.144) and 10:34 .. 10:38 5 in 5:
    # it fires 10:39 .. 10:44 (at 10:45 the bins 10:40 .. 10:44 hold none), one alert [10:39,
    # 10:45). page_6h is covered from 14:00, after the window: no alert. The whole replay also drew
    # page_6h at 10:40 .. 10:46, read on 160 .. 166 min of data ((10/160)/0.01 = 6.25 > 6).
    rep = incident_report(log(), SLO_99, "2026-03-02 10:00", "2026-03-02 12:00", policy=BOTH,
                          context="1h")
    alerts = rep.alerts
    assert alerts["tier"].astype(str).tolist() == ["page_1h"]  # old: page_1h and page_6h
    assert (alerts["start"].iloc[0], alerts["end"].iloc[0]) == (at("10:39"), at("10:45"))
    assert not alerts["may_have_fired_earlier"].iloc[0]
    fig = rep.plot()
    panel = fig.axes[[ax.get_ylabel() for ax in fig.axes].index("alert\ntier")]
    bars = {c.get_label(): len(c.patches) for c in panel.containers}
    assert bars == {"page_1h": 1, "page_6h": 0}
    # page_6h's row (the second) shaded from 08:00 (the data's start) over its 6 h, not
    # evaluated; page_1h's, 08:00 .. 09:00, ends where the window begins: not drawn
    shaded = [p for p in panel.patches if p.get_gid() == "filling"]
    assert len(shaded) == 1
    six = shaded[0]
    assert six.get_y() + six.get_height() / 2 == pytest.approx(1)
    assert six.get_width() == pytest.approx(5 / 24)  # to 13:00, the grid's end (6 h: 14:00)
    assert matplotlib.dates.num2date(six.get_x()) == at("08:00")
    keys = [t.get_text() for t in panel.get_legend().get_texts()]
    assert "not evaluated: its long window\nreaches before the data's start" in keys
    matplotlib.pyplot.close(fig)


def test_caused_by_timeouts_is_the_covered_alerts_own():
    # log 10:00 .. 13:59, solve errors 10:30 .. 10:34, timeouts 10:35 .. 10:39; page_1h a single
    # 1 h window, burn 10 (threshold 0.1), covered from 11:00; incident 11:00 .. 12:00.
    # Covered, all failures: at 11:00 the bins 10:00 .. 10:59 hold 10 in 60 (0.167 > 0.1), until
    # 11:33 (bins 10:33 .. 11:32: 7 in 60); at 11:34 6 in 60 = 0.1, not over: one alert [11:00,
    # 11:34). Covered, timeouts left out: 5 errors in 55 events (0.091), never over 0.1: the
    # alert is caused by timeouts alone. The whole replay's alert began at 10:34 (4 errors in
    # the 34 events of 10:00 .. 10:33: 0.118), and without timeouts one fired at 10:35 .. 10:54
    # (5 in 35 at 10:35; at 10:55 5 in 50, not over): it overlaps, so its flag was False.
    one = AlertTier("page_1h", severity="page", long_window="1h", burn=10)
    rep = incident_report(log(120, kinds=True), SLO_99, "2026-03-02 11:00", "2026-03-02 12:00",
                          policy=AlertPolicy([one, PAGE_6H]), context="0s")
    a = rep.alerts
    assert a["tier"].astype(str).tolist() == ["page_1h"]
    assert (a["start"].iloc[0], a["end"].iloc[0]) == (at("11:00"), at("11:34"))  # old: 10:34
    assert bool(a["caused_by_timeouts"].iloc[0])  # old: False
    tier = rep.tiers.set_index("tier").loc["page_1h"]
    assert tier["first_alert"] == at("11:00") and bool(tier["caused_by_timeouts"])
    assert "timeouts alone caused the page" in words(rep)


def test_an_alert_firing_at_the_first_covered_evaluation_may_have_fired_earlier():
    # the same log and policy: at 11:00, page_1h's first covered evaluation (the bin of 10:00 plus
    # 1 h), the condition holds already (0.167 > 0.1): firing at the incident's start, since its
    # first evaluation, so a rule evaluated on the data before may have fired earlier (the whole
    # replay fired at 10:34, on 34 min of data)
    one = AlertTier("page_1h", severity="page", long_window="1h", burn=10)
    rep = incident_report(log(120, kinds=True), SLO_99, "2026-03-02 11:00", "2026-03-02 12:00",
                          policy=AlertPolicy([one, PAGE_6H]), context="0s")
    assert bool(rep.alerts["may_have_fired_earlier"].iloc[0])
    assert bool(rep.tiers.set_index("tier").loc["page_1h", "may_have_fired_earlier"])
    assert ("would have paged already at the start (page_1h, firing since 11:00; it may have "
            "fired earlier, its condition holding from its first evaluation after the data's "
            "start)") in words(rep)


def test_the_tracker_is_read_from_when_its_window_lies_after_the_data_start():
    # log 10:00 .. 13:59, incident 10:15 .. 12:00: the tracker's 1 h window lies after the data's
    # start from 11:00. Just before it the window [10:00, 11:00) holds 60 events and the 10
    # failures (0.6 allowed): EXHAUSTED; the last failure, 10:39, leaves it at 11:40 (the window
    # [t - 1 h, t] holds 10:39 at 11:39): HEALTHY, one change. The old report read 10:15 on a
    # 15 min window (HEALTHY) and a change to EXHAUSTED at 10:30 with burn (1/31)/0.01 = 3.23.
    ev = log(120)
    seed = ErrorBudgetTracker(SLOConfig(target_success_rate=0.99, window_seconds=3_600 * 10**9))
    seen = {}
    for t, ok in zip(ev["ts"], ev["ok"], strict=True):
        seed.record(bool(ok), t.value)
        seen[t.strftime("%H:%M")] = seed._compute_status().value
    assert (seen["10:59"], seen["11:39"], seen["11:40"]) == ("exhausted", "exhausted", "healthy")
    rep = incident_report(ev, SLO_99, "2026-03-02 10:15", "2026-03-02 12:00", policy=BOTH,
                          context="0s")
    row = rep.tracker.iloc[0]
    assert row["read_from"] == at("11:00")
    assert str(row["status_at_start"]) == "exhausted"  # old: healthy
    assert (row["first_change_at"], row["first_change_to"]) == (at("11:40"), "healthy")
    assert row["transitions"] == 1  # old: 2
    assert ("the 1 h tracker (target 99 %) was EXHAUSTED at 11:00, when its window first lay "
            "after the data's start, and went HEALTHY at 11:40") in words(rep)


def test_stayed_healthy_says_from_when():
    # log 08:00 .., incident 08:30 .. 10:00 (no failure in it): the tracker's window lies after the
    # data's start from 09:00; its events from there show burn 0, the first of them at 09:00
    rep = incident_report(log(), SLO_99, "2026-03-02 08:30", "2026-03-02 10:00", policy=BOTH,
                          context="0s")
    assert rep.tracker["peak_burn_at"].iloc[0] == at("09:00")  # old: 08:30
    assert ("the 1 h tracker (target 99 %) stayed HEALTHY from 09:00 (when its window first lay "
            "after the data's start) to the incident's end") in words(rep)
    assert "HEALTHY throughout" not in words(rep)


def test_a_tracker_never_covered_is_not_known():
    # log 10:00 .., incident 10:15 .. 10:45: the window first lies after the data's start at
    # 11:00, after the incident: its statuses are withheld
    rep = incident_report(log(120), SLO_99, "2026-03-02 10:15", "2026-03-02 10:45", policy=BOTH,
                          context="0s")
    row = rep.tracker.iloc[0]
    assert pd.isna(row["read_from"]) and pd.isna(row["status_at_start"])
    assert pd.isna(row["worst_status"]) and pd.isna(row["peak_burn"])
    assert ("what the 1 h tracker (target 99 %) showed is not known: its 1 h window never lay "
            "after the data's start during the incident") in words(rep)
