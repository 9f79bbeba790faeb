"""The incident's budget baseline is the whole log in scope, first to last event: ``--context``
(a display choice) does not move the share.

Before, the events a day the period's budget is carried from were read over the report's span
(the incident, ``context`` either side, after the windows' history): ``budgetlab demo`` (context
2 h) and ``budgetlab incident`` (6 h) gave one incident two shares. Here context 2 h gave 0.347 %
and 24 h 0.399 % (printed "0.3 %" and "0.4 %"); now both give the whole log's share.

Hand log (1 h window): one event a minute on 2026-01-01 (00:00 .. 23:59), one every 30 s on
2026-01-02 and 2026-01-03 (to 23:59:30); the incident 2026-01-02 12:00-13:00, every 4th of its
120 events failing (30 failures), target 90 %, budget period 30 d.

* the whole log: 1,440 + 2 x 2,880 = 7,200 events from 2026-01-01 00:00:00 to 2026-01-03
  23:59:30, 72 h - 30 s = 71.991667 h, all with traffic (no gap reaches the 1 h window);
* events a day: 7,200 / 71.991667 h x 24 = 2,400.28 ("2,400 events a day");
* 30 d: 2,400.28 x 30 = 72,008.3 events, budget 0.1 x 72,008.3 = 7,200.83 failures;
* share: 30 / 7,200.83 = 0.4166 % ("0.4 %"), whatever the context.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-01", tz="UTC")
START, END = T0 + pd.Timedelta("36h"), T0 + pd.Timedelta("37h")
HOURS = 72 - 30 / 3600  # 00:00:00 on 01-01 .. 23:59:30 on 01-03
PER_DAY = 7_200 / HOURS * 24  # 2,400.28
SHARE_PCT = 100 * 30 / (0.1 * PER_DAY * 30)  # 0.4166 %
SAID = ("0.4 % of a 30 d error budget at the traffic of the whole log in scope, 2026-01-01 00:00 "
        ".. 2026-01-03 23:59 UTC (2,400 events a day over its 71 h 59 min "
        "of sending time, first to last event less gaps over 24 h).")


def hand_log() -> pd.DataFrame:
    quiet = T0 + pd.to_timedelta(np.arange(1440), unit="min")
    busy = T0 + pd.Timedelta("24h") + pd.to_timedelta(np.arange(2 * 2880) * 30, unit="s")
    ts = quiet.append(busy)
    during = (ts >= START) & (ts < END)
    return as_events(ts, ~(during & (np.arange(len(ts)) % 4 == 0)))


@pytest.mark.parametrize("context", ["2h", "24h"])
def test_the_share_is_the_whole_logs_whatever_the_context(context):
    rep = incident_report(hand_log(), SLO(target=0.9, window="1h"), START, END, context=context,
                          policy=AlertPolicy.single_window("1h", 2.9, severity="ticket"))
    row = rep.budget.iloc[0]
    assert (row["events"], row["failures"]) == (120, 30)
    assert row["period_budget_pct"] == pytest.approx(SHARE_PCT)  # 0.4166
    assert (row["log_start"], row["log_end"]) == (T0, pd.Timestamp("2026-01-03 23:59:30", tz="UTC"))
    assert (row["log_events"], row["log_traffic_hours"]) == (7_200, pytest.approx(HOURS))
    assert row["period_events"] == pytest.approx(PER_DAY * 30)  # 72,008.3
    assert row["period_budget"] == pytest.approx(0.1 * PER_DAY * 30)  # 7,200.83
    assert SAID in " ".join(rep.summary.split())


def test_two_contexts_give_one_share_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "log.csv"
    ev = hand_log()
    pd.DataFrame({"ts": ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": np.where(ev["ok"], "success", "error")}).to_csv(path, index=False)
    said = []
    for context in ("2h", "24h"):
        assert main(["incident", str(path), "--target", "0.9", "--window", "1h",
                     "--outcomes", "success=success,error=error", "--context", context,
                     "--start", "2026-01-02T12:00:00Z", "--end", "2026-01-02T13:00:00Z"]) == 0
        said.append(" ".join(capsys.readouterr().out.split()))
    for text in said:
        assert SAID in text
