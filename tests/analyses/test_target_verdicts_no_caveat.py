"""target_verdicts gives a caveat ("provisional: ... less than the 14 d a recommendation needs")
only where something is given: a verdict, or a recommendation. A group withheld for both has
nothing provisional about it, and no caveat.

Hand-counted log, a 1 h window, target 0.9, T0 = 2026-03-02 00:00 UTC:

* busy: a success every 10 min, T0 .. T0 + 72 h (433 events): evaluated T0 + 1 h .. T0 + 72 h,
  71 h = 2 d 23 h of history, under 14 d: its verdict is provisional.
* lone: one success at T0 + 30 h: all of it warm-up, no evaluated time: no verdict, no
  recommendation, so no caveat (before: "provisional: 0 s of evaluated history, ...").
"""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, recalibrate, target_verdicts

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def test_no_caveat_where_nothing_is_given():
    rows = [(T0 + pd.Timedelta(minutes=10 * i), "busy") for i in range(433)]
    rows += [(T0 + pd.Timedelta(hours=30), "lone")]
    events = pd.DataFrame(rows, columns=["ts", "g"]).sort_values("ts", kind="stable")
    events["ok"], events["bucket"] = True, "success"
    rec = recalibrate(events.reset_index(drop=True), slo=SLO(target=0.9, window="1h"), by="g",
                      n_boot=0)
    v = target_verdicts(rec).set_index("g")
    assert v.loc["busy", "verdict"] != "withheld"
    assert v.loc["busy", "caveat"] == ("provisional: 2 d 23 h of evaluated history, less than "
                                       "the 14 d a recommendation needs")
    assert (v.loc["lone", "verdict"], v.loc["lone", "caveat"]) == ("withheld", "")
    assert pd.isna(v.loc["lone", "recommended_target"])
    assert "provisional" not in v.loc["lone", "recommendation"]
