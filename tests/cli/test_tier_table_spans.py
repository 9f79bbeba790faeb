"""``budgetlab incident``'s tier table says the span of its peaks when a tier fired after it (in
the grace), writes no burn where a short window held no event, and ``budgetlab alerts`` names the
incidents only partly in the log and those wholly outside it (stop 59). Figures by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    """One event a minute 2026-03-01 .. 03-02 23:59; on 2026-03-02 failures 10:00 .. 10:19 (all)
    and every 5th minute 06:00 .. 08:59; silent 14:00 .. 19:59."""
    ts = pd.date_range("2026-03-01", "2026-03-03", freq="1min", inclusive="left", tz="UTC")
    ok = np.ones(len(ts), bool)

    def m(a, b):
        return np.asarray((ts >= pd.Timestamp(a, tz="UTC")) & (ts < pd.Timestamp(b, tz="UTC")))

    ok[m("2026-03-02 10:00", "2026-03-02 10:20")] = False
    ok[np.flatnonzero(m("2026-03-02 06:00", "2026-03-02 09:00"))[::5]] = False
    keep = ~m("2026-03-02 14:00", "2026-03-02 20:00")
    d = tmp_path_factory.mktemp("tiers")
    pd.DataFrame({"ts": ts[keep].strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(ok[keep], "success", "error")}).to_csv(d / "log.csv",
                                                                              index=False)
    (d / "inc.csv").write_text("incident_id,start,end\nG,2026-03-02T06:00:00Z,"
                               "2026-03-02T06:30:00Z\nS,2026-03-02T15:00:00Z,"
                               "2026-03-02T16:00:00Z\n")
    return d


def flat(text):
    return " ".join(text.split())


def test_a_tier_fired_in_the_grace_names_the_span_of_its_peaks(log, capsys):
    # G 06:00 .. 06:30, a failure every 5th minute from 06:00. page_1h (1 h / 5 min, 14.4):
    # at 06:40 its hour [05:40, 06:40) holds 8 failures of 60 (13.3); at 06:41 [05:41, 06:41)
    # holds 9 (06:00 .. 06:40): 15 > 14.4, its 5 min [06:36, 06:41) 1 of 5: 20: it fires at
    # 06:41, within the 1 h grace. Over the incident's evaluations 06:01 .. 06:30 its hour
    # peaks at 06:30: 6 failures of 60 = 10.
    assert main(["incident", str(log / "log.csv"), "--incidents", str(log / "inc.csv"), "--id",
                 "G", "--target", "0.99", "--window", "1h"]) == 0
    out = flat(capsys.readouterr().out)
    assert ("note: peak_burn_long is the peak over the tier's evaluations during the incident "
            "(page_1h: 06:01 to 06:30); fired counts an alert overlapping the incident or its "
            "1 h grace (the rule of budgetlab alerts): page_1h first fired after those "
            "evaluations, at 06:41, so its peak is not the burn it fired at.") in out


def test_a_short_window_without_events_writes_no_burn(log, capsys, tmp_path):
    # S 15:00 .. 16:00 lies in the silence: page_6h's 30 min window holds no event at any of
    # its 60 evaluations: no short peak (an empty cell), not 0
    out = tmp_path / "s.csv"
    assert main(["incident", str(log / "log.csv"), "--incidents", str(log / "inc.csv"), "--id",
                 "S", "--target", "0.99", "--window", "1h", "--tiers-out", str(out)]) == 0
    capsys.readouterr()
    text = out.read_text()
    assert "nan" not in text.lower()
    row = pd.read_csv(out).set_index("tier").loc["page_6h"]
    assert pd.isna(row["peak_burn_short"]) and row["short_window_empty"] == 60
    assert row["peak_burn_long"] == pytest.approx(20 / 240 / 0.01)  # 10:00 .. 13:59 at 16:00


def test_alerts_name_an_incident_only_partly_in_the_log(log, capsys, tmp_path):
    # the log's last bin ends 2026-03-03 00:00; P 23:30 .. 03:00 holds 30 min of its 3 h 30 min
    # in the log and none of its 1 h grace; X lies wholly after the log
    inc = tmp_path / "post.csv"
    inc.write_text("incident_id,start,end\nP,2026-03-02T23:30:00Z,2026-03-03T03:00:00Z\n"
                   "X,2026-04-02T00:00:00Z,2026-04-02T01:00:00Z\n")
    assert main(["alerts", str(log / "log.csv"), "--incidents", str(inc), "--target", "0.99",
                 "--policy", "single_window"]) == 0
    out = flat(capsys.readouterr().out)
    assert ("1 incident of --incidents is only partly in the log (2026-03-01 00:00 .. "
            "2026-03-03 00:00 UTC): its detection span (the incident and its 1 h --grace) runs "
            "past the log's end: 'P' (30 min of its 3 h 30 min in the log, none of its grace); an "
            "alert after the end could not be seen, so a miss of it is read with that "
            "caveat.") in out
    assert ("lies wholly outside the log (2026-03-01 00:00 .. 2026-03-03 00:00 UTC): not "
            "scored, neither detected nor missed; check its times and zone. Outside the log: "
            "'X'.") in out
