"""An alert of the incident report's tier table still firing at the end of the report's span is
followed in the log until it resets or the log ends (stop 61): before, its ``alert_end`` was where
the replay stopped (the span's end, set by ``context``) and ``ongoing`` said "still firing at the
log's end" of a log that went on for days. Every expected figure is worked out by hand in the
comments; the API's are also those of :func:`budgetlab.alert_episodes` over the whole log (what
``budgetlab alerts`` replays)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import SLO, AlertPolicy, alert_episodes, as_events, bin_events, incident_report
from budgetlab.cli import main

T0 = pd.Timestamp("2026-03-02", tz="UTC")
# fires while more than 4.5 x 10 % = 45 % of the last 10 min failed: 5 of 10 bins or more
TEN = AlertPolicy.single_window("10min", burn=4.5)


def _minutes(n: int, bad_from: int, bad_to: int) -> pd.DataFrame:
    """One event a minute from 00:00 for ``n`` minutes, those of minutes ``bad_from`` ..
    ``bad_to - 1`` failures."""
    m = np.arange(n)
    return as_events(pd.date_range(T0, periods=n, freq="1min"), (m < bad_from) | (m >= bad_to))


def _report(ev: pd.DataFrame):
    # the incident 01:30 .. 01:40 with 10 min of context and no grace: the report's span (and
    # its replay of the alerts) ends at 01:50, the log at 05:59
    return incident_report(ev, SLO(target=0.9, window="1h"), "2026-03-02 01:30",
                           "2026-03-02 01:40", policy=TEN, context="10min", grace="0s")


def test_an_alert_firing_at_the_spans_end_is_followed_to_its_reset_in_the_log():
    # failures 01:30 .. 02:29. The evaluation at T reads bins [T - 10 min, T): at 01:35 bins
    # 01:25 .. 01:34 hold 5 failures (0.5 > 0.45), it fires; at 02:35 bins 02:25 .. 02:34 hold
    # 02:25 .. 02:29, 5 failures, still firing; at 02:36 4: it stops, end 02:36 (the span ended
    # at 01:50, where the old table ended it, at 01:51, "ongoing")
    ev = _minutes(360, 90, 150)
    row = _report(ev).tiers.iloc[0]
    assert row["fired"] and row["first_alert"] == T0 + pd.Timedelta("1h35min")
    assert row["alert_end"] == T0 + pd.Timedelta("2h36min")
    assert bool(row["ongoing"]) is False
    ref = alert_episodes(bin_events(ev, "1min"), 0.9, TEN).iloc[-1]
    assert (ref["start"], ref["end"], bool(ref["ongoing"])) == (row["first_alert"],
                                                                row["alert_end"], False)


def test_an_alert_firing_when_the_log_ends_past_the_span_is_ongoing_there():
    # failures from 01:30 to the log's last event at 05:59: the last bin is [05:59, 06:00), the
    # last evaluation 06:00 still fires (10 of 10), so the alert is ongoing, its end one step
    # after that evaluation: 06:01
    ev = _minutes(360, 90, 360)
    rep = _report(ev)
    row = rep.tiers.iloc[0]
    assert row["alert_end"] == T0 + pd.Timedelta("6h01min")
    assert bool(row["ongoing"]) is True
    ref = alert_episodes(bin_events(ev, "1min"), 0.9, TEN).iloc[-1]
    assert (ref["end"], bool(ref["ongoing"])) == (row["alert_end"], True)
    assert "still firing at the log's end" in " ".join(rep.summary.split())


def _log(tmp_path) -> str:
    """svc=api and svc=web, one event a minute each 00:00 .. 07:59; api fails 02:00 .. 02:04,
    web from 02:00 to the log's end."""
    m = np.arange(480)
    ts = pd.date_range(T0, periods=480, freq="1min").strftime("%Y-%m-%dT%H:%M:%SZ")
    api = np.where((m >= 120) & (m < 125), "error", "success")
    web = np.where(m >= 120, "error", "success")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": np.concatenate([ts, ts]), "svc": ["api"] * 480 + ["web"] * 480,
                  "outcome": np.concatenate([api, web])}).sort_values(
                      "ts", kind="stable").to_csv(log, index=False)
    return str(log)


def test_the_command_follows_each_group_and_says_the_logs_end(tmp_path, capsys):
    # single_window at 99 %: page_1h fires while the last hour's failures exceed 0.9 x 1 % of
    # its events, i.e. while the bins [T - 1 h, T) hold any failure (1 of 60 > 0.9 %). api: it
    # fires at 02:01 and holds through the evaluation at 03:04 (bins 02:04 .. 03:03), then
    # stops: end 03:05. web: it fires from 02:01 to the log's last evaluation, 08:00 (bin
    # [07:59, 08:00)): ongoing, end 08:01. The report's span ends at 02:20 (10 min of context,
    # no grace), where the old table ended both, at 02:21, "still firing at the log's end".
    out = tmp_path / "t.csv"
    assert main(["incident", _log(tmp_path), "--by", "svc", "--target", "0.99", "--window", "1h",
                 "--outcomes", "success=success,error=error", "--policy", "single_window",
                 "--start", "2026-03-02 02:00", "--end", "2026-03-02 02:10",
                 "--context", "10min", "--grace", "0s", "--tiers-out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    tiers = pd.read_csv(out).set_index("svc")
    assert (tiers.loc["api", "alert_end"], bool(tiers.loc["api", "ongoing"])) == (
        "2026-03-02 03:05:00+00:00", False)
    assert (tiers.loc["web", "alert_end"], bool(tiers.loc["web", "ongoing"])) == (
        "2026-03-02 08:01:00+00:00", True)
    assert ("still firing at the log's end (its last evaluation, 2026-03-02 08:00 UTC): "
            "page_1h (svc=web); its alert_end (--tiers-out) is one step after that "
            "evaluation") in said
