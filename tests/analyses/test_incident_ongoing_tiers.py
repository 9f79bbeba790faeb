"""The incident report's tier table says which alerts were still firing at the log's end
(stop 59): their ``alert_end`` is one step after the last evaluation, where the log stopped,
and before, ``--tiers-out`` showed them as alerts that had ended there with no other word. Now
an ``ongoing`` column says so, and the printed table's notes and the summary say "still firing
at the log's end". Figures worked out by hand in the comments; the ongoing flag is also that of
:func:`budgetlab.alert_episodes` over the whole log (the reference)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import SLO, AlertPolicy, alert_episodes, as_events, bin_events, incident_report
from budgetlab.cli import main

T0 = pd.Timestamp("2026-03-02", tz="UTC")
# fires while more than 4.5 x 10 % = 45 % of the last 10 min failed: 5 of 10 bins or more
TEN = AlertPolicy.single_window("10min", burn=4.5, severity="page")


def _events(n_bad: int = 30) -> pd.DataFrame:
    """One event a minute 00:00 .. 01:59, the last ``n_bad`` failures."""
    ts = pd.date_range(T0, periods=120, freq="1min")
    return as_events(ts, np.arange(120) < 120 - n_bad)


def test_an_alert_still_firing_at_the_logs_end_is_ongoing_in_the_tier_table():
    # failures from 01:30 on: at 01:35 the window (01:25, 01:35] holds 5 failures of 10 (0.5 >
    # 0.45): it fires, and still fires at the last evaluation (02:00): ongoing, its end 02:01
    ev = _events()
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-03-02 01:30",
                          "2026-03-02 03:00", policy=TEN, context="1h")
    row = rep.tiers.iloc[0]
    assert row["fired"] and row["alert_end"] == T0 + pd.Timedelta("2h01min")
    assert bool(row["ongoing"]) is True
    ref = alert_episodes(bin_events(ev, "1min"), 0.9, TEN).iloc[-1]
    assert bool(ref["ongoing"]) is True
    assert ("would have paged at 01:35, 5 min after the start (page_10m), still firing at the "
            "log's end.") in " ".join(rep.summary.split())


def test_an_alert_that_ended_in_the_log_is_not_ongoing():
    # failures 01:30 .. 01:39 only (the last 30 minutes minus the last 20 healthy): by hand the
    # window holds at most 10 failures, fires at 01:35 and holds under 5 failures from 01:45
    # (01:35 .. 01:44 has 5 of 10: 0.5; (01:36, 01:46] holds 01:36 .. 01:39, 4 of 10): it ends
    # well before the log's last evaluation
    ts = pd.date_range(T0, periods=120, freq="1min")
    m = np.arange(120)
    ev = as_events(ts, ~((m >= 90) & (m < 100)))
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-03-02 01:30",
                          "2026-03-02 01:50", policy=TEN, context="1h")
    row = rep.tiers.iloc[0]
    assert row["fired"] and bool(row["ongoing"]) is False
    assert row["alert_end"] < T0 + pd.Timedelta("2h")
    assert "still firing" not in rep.summary


def test_the_command_says_still_firing_and_writes_the_column(tmp_path, capsys):
    log = tmp_path / "log.csv"
    ev = _events()
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(ev["ok"], "success", "error")}).to_csv(log, index=False)
    out = tmp_path / "t.csv"
    # at 99 %, by hand: page_1h (burn 14.4: 14.4 % of the last hour and 5 min failing) holds
    # from 01:39 (9 of 60 = 15 %, 5 of 5) to the last evaluation at 02:00 (30 of 60): ongoing
    assert main(["incident", str(log), "--target", "0.99", "--window", "1h",
                 "--outcomes", "success=success,error=error", "--policy", "workbook",
                 "--start", "2026-03-02 01:30", "--end", "2026-03-02 03:00",
                 "--tiers-out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    tiers = pd.read_csv(out)
    firing = tiers[tiers["ongoing"]]["tier"].tolist()
    assert "page_1h" in firing and set(firing) <= set(tiers[tiers["fired"]]["tier"])
    page = tiers.set_index("tier").loc["page_1h"]
    assert (page["first_alert"], page["alert_end"]) == ("2026-03-02 01:39:00+00:00",
                                                        "2026-03-02 02:01:00+00:00")
    # the log's last evaluation: 02:00, the end of the bin of its last event (01:59)
    assert (f"still firing at the log's end (its last evaluation, 2026-03-02 02:00 UTC): "
            f"{', '.join(firing)};") in said
