"""The budget sentence says which groups' traffic it counts when a group of the scope sent only
outside the replayed span (stop 63: 1,456 and 2,176 events a day for one scope, unexplained)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import SLO, AlertPolicy, incident_report

DAY1 = pd.Timestamp("2026-01-01", tz="UTC")


def _log() -> pd.DataFrame:
    """region=fra: captcha_type=image one event a minute over 5 days (7,200 events, 00:00 of
    day 1 to 23:59 of day 5), failing 10:00 .. 10:59 of day 2; captcha_type=v2 one a minute
    from day 4 on (2,880 events, 00:00 of day 4 to 23:59 of day 5). region=ams: image, 5 days."""
    image = pd.date_range(DAY1, periods=5 * 1440, freq="1min").as_unit("ns")
    v2 = pd.date_range(DAY1 + pd.Timedelta("3D"), periods=2 * 1440, freq="1min").as_unit("ns")
    bad = (image >= "2026-01-02 10:00") & (image < "2026-01-02 11:00")
    parts = [pd.DataFrame({"ts": image, "ok": ~bad, "region": "fra", "captcha_type": "image"}),
             pd.DataFrame({"ts": v2, "ok": True, "region": "fra", "captcha_type": "v2"}),
             pd.DataFrame({"ts": image, "ok": True, "region": "ams", "captcha_type": "image"})]
    return pd.concat(parts).sort_values("ts", kind="stable").reset_index(drop=True)


def test_a_group_beginning_after_the_incident_is_named_as_left_out():
    rep = incident_report(_log(), SLO(target=0.95, window="1h"), "2026-01-02 10:00",
                          "2026-01-02 11:00", scope="region=fra", by="captcha_type",
                          context="2h", policy=AlertPolicy.workbook("30D"))
    # by hand: image's 7,200 events over 119 h 59 min of sending time: 7,200 / (119 h 59 min /
    # 24 h) = 1,440.2 a day; the incident's 60 failures over 0.05 x 30 x 1,440.2 = 2,160.3
    # allowed: 2.8 %; v2 (2,880 events) sends only from day 4, outside the replayed span
    s = rep.summary
    assert "2.8 % of a 30 d error budget" in s, s
    assert "(1,440 events a day over its 119 h 59 min of sending time" in s, s
    assert ("that traffic is of the 1 group sending during the replayed span (the incident, its "
            "context and history), 1 other group of the scope, sending only outside it (2,880 "
            "events), left out") in s, s


def test_no_group_left_out_says_nothing_more():
    # by hand, on day 5 both groups send: (7,200 + 2,880) events; nothing is left out
    rep = incident_report(_log(), SLO(target=0.95, window="1h"), "2026-01-05 10:00",
                          "2026-01-05 11:00", scope="region=fra", by="captcha_type",
                          context="2h", policy=AlertPolicy.workbook("30D"))
    assert "sending only outside it" not in rep.summary, rep.summary


def test_a_log_in_microseconds_counts_the_same_traffic():
    # pandas 3's date_range gives datetime64[us]: 7,200 events a minute apart from 2026-01-01
    # are 119 h 59 min of sending time, 1,440.2 events a day by hand (7,200 / (7,199 / 1,440)),
    # whatever the unit; read as ns, the us integers made it 7 min 11 s in 1970
    ts = pd.date_range("2026-01-01", periods=7200, freq="1min", tz="UTC").as_unit("us")
    ok = np.ones(7200, dtype=bool)
    ok[3000:3030] = False
    ev = pd.DataFrame({"ts": ts, "ok": ok})
    rep = incident_report(ev, SLO(target=0.99, window="1h"), "2026-01-03 02:00",
                          "2026-01-03 02:30")
    text = " ".join(str(rep).split())
    assert "1970" not in text
    assert "1,440 events a day over its 119 h 59 min of sending time" in text
