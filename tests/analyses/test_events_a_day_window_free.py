"""Events a day do not depend on the tracker's window (s62 on-call, item 1).

Before, the replay's ``events_per_day`` and the incident's carried budget read the traffic over
"time with traffic", the time the tracker's window held one of the group's events: a group that
stops early counted its window draining after its last event (a 24 h window: a day more), and a
group sending every 2 h under a 1 h window counted only half its time. The same incident was
3.4 %, 3.6 % and 3.7 % of a 30 d budget at --window 1h, 24h and 7d. Now each group's events a day
are read over its sending time: its first to its last event, less the gaps between two of its
events longer than 24 h.

Hand log, 10 days from 2026-11-01 00:00 UTC, target 95 %:

* ``steady``: one event a minute, 00:00 .. 239 h 59 min: 14,400 events in 239 h 59 min,
  1,440.1 a day;
* ``stops``: one a minute for 8 days, to 191 h 59 min: 11,520 events in 191 h 59 min, 1,440.125
  a day (the 48 h after its last event are no sending);
* ``sparse``: one every 2 h at :17, 00:17 .. 238 h 17 min: 120 events in 238 h, 12.101 a day;
* ``paused``: one a minute, none in [60 h, 90 h): 14,400 - 1,800 = 12,600 events; its gap
  59 h 59 min .. 90 h (30 h 1 min) is over 24 h and left out: 239 h 59 min - 30 h 1 min =
  209 h 58 min, 1,440.229 a day.

The incident 2026-11-06 14:00 .. 15:30 (scope: the first three groups) fails every event of
``steady`` and ``stops`` (90 + 90) and ``sparse``'s one at 14:17: 181 failures. The 30 d budget:
0.05 x 30 x (1,440.1 + 1,440.125 + 12.101) = 4,338.5 failures, 181 of them 4.17 %.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report, replay, replay_summary

T0 = pd.Timestamp("2026-11-01", tz="UTC")
O0, O1 = T0 + pd.Timedelta("5D14h"), T0 + pd.Timedelta("5D15h30min")
MIN = 60.0
PER_DAY = {"steady": 14_400 / (240 - 1 / MIN) * 24, "stops": 11_520 / (192 - 1 / MIN) * 24,
           "sparse": 120 / 238 * 24, "paused": 12_600 / (209 + 58 / MIN) * 24}
# 1,440.1, 1,440.125, 12.101 and 1,440.229 a day, as the docstring works them out


def _log() -> pd.DataFrame:
    minutes = pd.to_timedelta(np.arange(14_400), unit="min")
    times = {"steady": T0 + minutes, "stops": T0 + minutes[:11_520],
             "sparse": T0 + pd.Timedelta("17min") + pd.to_timedelta(np.arange(120) * 2, unit="h"),
             "paused": (T0 + minutes)[(minutes < pd.Timedelta("60h"))
                                      | (minutes >= pd.Timedelta("90h"))]}
    parts = [pd.DataFrame({"ts": t, "kind": k}) for k, t in times.items()]
    df = pd.concat(parts, ignore_index=True).sort_values("ts", kind="stable")
    ok = ~((df["ts"] >= O0) & (df["ts"] < O1) & (df["kind"] != "paused"))
    return as_events(df["ts"], ok.to_numpy(), groups={"kind": df["kind"].to_numpy()})


@pytest.mark.parametrize("window", ["1h", "24h", "7D"])
def test_replay_events_a_day_are_the_same_at_every_window(window):
    ev = _log()
    s = replay_summary(replay(ev, SLO(target=0.95, window=window), by="kind"), ev)
    got = s.set_index("kind")["events_per_day"]
    for kind, per_day in PER_DAY.items():
        assert got[kind] == pytest.approx(per_day, rel=1e-9), kind


@pytest.mark.parametrize("window", ["1h", "24h", "7D"])
def test_the_incident_share_is_the_same_at_every_window(window):
    ev = _log()
    ev = ev[ev["kind"] != "paused"].reset_index(drop=True)
    rep = incident_report(ev, SLO(target=0.95, window=window), O0, O1, by="kind",
                          policy=AlertPolicy.single_window("1h", 14.4))
    b = rep.budget.set_index("kind")
    for kind in ("steady", "stops", "sparse"):
        assert b.loc[kind, "period_events"] == pytest.approx(PER_DAY[kind] * 30, rel=1e-9), kind
    assert int(b["failures"].sum()) == 181
    budget = 0.05 * 30 * sum(PER_DAY[k] for k in ("steady", "stops", "sparse"))
    assert budget == pytest.approx(4_338.5, abs=0.05)
    said = " ".join(rep.summary.split())
    assert f"{100 * 181 / budget:.1f} % of a 30 d error budget" in said  # 4.2 %
    assert "(2,892 events a day, each group's over its own sending time" in said
