"""The incident's budget baseline is the report's span, which its context sets: said so.

The budget sentence read its events a day from the replayed span (the incident, ``context``
either side, after the windows' history) without a word of it: ``budgetlab demo`` (context 2 h)
and ``budgetlab incident`` (6 h) gave one incident two baselines and neither said why. The
sentence now names the span as the report's, made of the incident and its context.

Hand log (1 h window, the policy's one window 1 h: 1 h of history): one event a minute on
2026-01-01, one every 30 s on 2026-01-02 and 2026-01-03; the incident 2026-01-02 12:00-13:00,
every 4th of its 120 events failing (30 failures).

* context 12 h: span 2026-01-01 23:00 .. 2026-01-03 01:00, 26 h: 60 events (23:00-23:59) + 25 h x
  120 = 3,060 events; 3,060 / 26 h x 24 = 2,824.6: "2,825 events a day over its 26 h".
* context 24 h: span 2026-01-01 11:00 .. 2026-01-03 13:00, 50 h: 13 h x 60 = 780 + 37 h x 120 =
  4,440, 5,220 events; 5,220 / 50 h x 24 = 2,505.6: "2,506 events a day over its 50 h".
* share, 30 d: 30 / (0.1 x 2,824.6 x 30) = 0.354 % and 30 / (0.1 x 2,505.6 x 30) = 0.399 %:
  "0.4 %" both.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report

T0 = pd.Timestamp("2026-01-01", tz="UTC")
START, END = T0 + pd.Timedelta("36h"), T0 + pd.Timedelta("37h")
SPAN = "the report's span (the incident with its context, after the windows' history)"


def hand_log() -> pd.DataFrame:
    quiet = T0 + pd.to_timedelta(np.arange(1440), unit="min")
    busy = T0 + pd.Timedelta("24h") + pd.to_timedelta(np.arange(2 * 2880) * 30, unit="s")
    ts = quiet.append(busy)
    during = (ts >= START) & (ts < END)
    return as_events(ts, ~(during & (np.arange(len(ts)) % 4 == 0)))


@pytest.mark.parametrize(("context", "events", "hours", "said"), [
    ("12h", 3_060, 26, "2026-01-01 23:00 .. 2026-01-03 01:00 UTC (2,825 events a day over its "
                       "26 h, all with traffic)"),
    ("24h", 5_220, 50, "2026-01-01 11:00 .. 2026-01-03 13:00 UTC (2,506 events a day over its "
                       "50 h, all with traffic)")])
def test_the_baseline_is_said_as_the_reports_span(context, events, hours, said):
    rep = incident_report(hand_log(), SLO(target=0.9, window="1h"), START, END, context=context,
                          policy=AlertPolicy.single_window("1h", 2.9, severity="ticket"))
    row = rep.budget.iloc[0]
    assert (row["events"], row["failures"]) == (120, 30)
    assert (row["replayed_events"], row["traffic_hours"]) == (events, hours)
    assert row["period_events"] == pytest.approx(events / hours * 24 * 30)
    text = " ".join(rep.summary.split())
    assert f"0.4 % of a 30 d error budget at the traffic of {SPAN} {said}." in text
