"""Incidents wholly outside the evaluated span (NAB's 2014 windows against a 2026 log, a label
list longer than the log) are neither missed nor "begun while the window filled": they are not
scored and ``attrs["incidents_outside"]`` counts them; ``alerts`` says so in one sentence.
Hand-made bins, hand-computed figures."""

from __future__ import annotations

import pandas as pd

from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import compare_policies, incident_detections, score_alerts
from budgetlab.cli import main
from tests.outage_bins import T0, outage_bins

POLICY = AlertPolicy.single_window("10min", burn=1.5, period="30D")


def incidents() -> pd.DataFrame:
    """i1 in the span; EARLY and EDGE end before it starts (EDGE at its start: ``end`` is
    exclusive); LATE begins at its end; STRADDLE begins 30 min before it and ends inside."""
    spans = {"i1": ("01:40", "01:50"), "EARLY": ("-02:00", "-01:00"), "EDGE": ("-01:00", "00:00"),
             "LATE": ("03:00", "04:00"), "STRADDLE": ("-00:30", "00:05")}
    return pd.DataFrame({
        "incident_id": list(spans), "scope": "*",
        "start": [T0 + pd.Timedelta(s + ":00") for s, _ in spans.values()],
        "end": [T0 + pd.Timedelta(e + ":00") for _, e in spans.values()]})


def test_incidents_outside_the_grid_are_not_scored():
    """The 10 min window fills at 00:10; the page fires at 01:42 (the 10 min window then holds 20
    failures in 100 events, 0.2 > 1.5 x 0.1) and detects i1. Only i1 is scored (recall 1 of 1,
    not 1 of 2 with LATE missed); STRADDLE began while the window filled (1, not 3 with EARLY
    and EDGE); 3 incidents lie outside."""
    b = outage_bins()
    ep = alert_episodes(b, 0.9, POLICY)
    kw = {"grace": "0s", "bins": b, "target": 0.9, "policy": POLICY}
    sc = score_alerts(ep, incidents(), **kw)
    row = sc.iloc[0]
    assert (row["incidents"], row["detected"], row["recall"]) == (1, 1, 1.0)
    assert row["incidents_filling"] == 1
    assert sc.attrs["incidents_outside"] == 3
    det = incident_detections(ep, incidents(), **kw)
    assert sorted(det["incident_id"].unique()) == ["STRADDLE", "i1"]
    assert det.attrs["incidents_outside"] == 3
    both = compare_policies(b, 0.9, {"p": POLICY}, incidents(), grace="0s")
    assert both.attrs["incidents_outside"] == 3
    assert both["recall"].iloc[0] == 1.0


def test_alerts_names_the_incidents_outside_the_log(outage_log, tmp_path, capsys):
    """The CLI on the events of :func:`bins` as a log (tests/conftest.py ``outage_log``): 2 of
    the 3 incidents (2014 and 2027) lie outside the log of 2026-01-05 00:00 .. 03:00; recall is 1
    (the one inside, detected), and one sentence says why."""
    log = outage_log
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end\n"
                   "i1,2026-01-05T01:40:00Z,2026-01-05T01:50:00Z\n"
                   "N1,2014-03-14T03:31:00Z,2014-03-14T14:41:00Z\n"
                   "L1,2027-01-01T00:00:00Z,2027-01-01T01:00:00Z\n")
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--policy",
                 "single_window", "--outcomes", "success=success,error=error"]) == 0
    out = capsys.readouterr().out
    text = " ".join(out.split())
    assert ("2 of the 3 incidents of --incidents lie wholly outside the log (2026-01-05 00:00 "
            ".. 2026-01-05 03:00 UTC): not scored, neither detected nor missed; check their "
            "times and zone.") in text
    rows = [ln.split() for ln in out.splitlines() if ln.split()[:2] == ["page_1h", "page"]]
    # tier severity episodes precision incidents detected recall ...
    assert rows and rows[0][4:7] == ["1", "1", "1"]


def test_alerts_says_incidents_begun_while_a_window_filled_without_episodes(outage_log, tmp_path,
                                                                           capsys):
    """The workbook on the 3 h log (target 0.9): page_1h needs a 1 h error ratio above 1.44 and
    never fires. i0 (00:30) began in its first hour: one sentence on the incident, none on the
    episodes that did not happen (was "0 episode(s) of page_1h began ...; scored apart: 0 met no
    incident; 1 incident(s) began then")."""
    log = outage_log
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end\ni0,2026-01-05T00:30:00Z,2026-01-05T00:40:00Z\n")
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--policy",
                 "workbook", "--outcomes", "success=success,error=error"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("1 incident began in the log's first 1 h, while page_1h's long window filled: not "
            "scored for this tier.") in text
    assert "0 episode" not in text
