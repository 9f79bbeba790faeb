"""The incident summary names the groups without an event in the incident once, in its first
sentence that counts the groups; later sentences say "the same N groups". Before, "(method=GET,
region=iad had no event in the incident)" was said three times in one summary.

Hand-built log: groups GET/POST x fra/iad, one event a minute each on 2026-03-02 00:00 .. 23:59;
GET/iad silent 09:00 .. 11:59. Incident 10:00 .. 11:00 (60 minutes, end exclusive). POST/fra's
events of 10:00 .. 10:19 are timeouts (20), of 10:20 .. 10:29 solve errors (10). In the incident:
3 groups x 60 = 180 events, 30 failures, 20 of them timeouts (67 %). Target 0.9: 18 failures
allowed (enough for a verdict), burn 30 / 18 = 1.67; success 150 / 180 = 83.33 %, without the
timeouts 150 / 160 = 93.75 %."""

from __future__ import annotations

import numpy as np
import pandas as pd

import budgetlab as bl


def _report():
    t0 = pd.Timestamp("2026-03-02", tz="UTC")
    m = np.arange(1440)
    frames = []
    for method in ("GET", "POST"):
        for region in ("fra", "iad"):
            bucket = np.full(len(m), "success", dtype=object)
            if (method, region) == ("POST", "fra"):
                bucket[(m >= 600) & (m < 620)] = "timeout"
                bucket[(m >= 620) & (m < 630)] = "solve_error"
            keep = ~(((method, region) == ("GET", "iad")) & (m >= 540) & (m < 720))
            frames.append(pd.DataFrame({"ts": t0 + pd.to_timedelta(m[keep], unit="min"),
                                        "method": method, "region": region,
                                        "bucket": bucket[keep]}))
    f = pd.concat(frames).sort_values("ts", kind="stable")
    ev = bl.as_events(f["ts"], f["bucket"] == "success", f["bucket"],
                      groups={"method": f["method"], "region": f["region"]})
    return bl.incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-03-02 10:00",
                              "2026-03-02 11:00", by=["method", "region"])


def test_the_groups_without_an_event_are_named_once():
    said = " ".join(_report().summary.split())
    assert said.count("had no event in the incident") == 1
    assert ("67 % of the failures of all 4 groups by method and region (method=GET, region=iad "
            "had no event in the incident) were timeouts in method=POST, region=fra") in said
    assert ("without timeouts (67 % of all failures) the success rate of the same 4 groups "
            "would have been 93.75 % instead of 83.33 %") in said
    assert "the incident saw 30 failures in 180 events of the same 4 groups (burn 1.67" in said
