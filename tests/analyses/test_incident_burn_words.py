"""The incident summary says every burn as every budgetlab sentence does (``three_digits``: three
significant digits, no trailing zeros, 0 for none). It printed two decimals: a small burn read
"burn 0.00" (nothing spent, while a failure was), a burn of 14.4 "14.40" and none "0.00"."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def one_hour_report(step_s: float, failing: range, target: float):
    """Events every ``step_s`` seconds over 00:00 .. 02:00 (the hour before is the tracker's
    history), those of index ``failing`` failed; the incident is 01:00 .. 02:00, a 1 h tracker and
    one 1 h tier the incident does not reach, though an error ratio could (:data:`OUT_OF_REACH`:
    burn 9 at 90 %, threshold 0.9; burn 20 at 99 %, threshold 0.2, over the peak 14.4)."""
    n = int(round(7200 / step_s))
    ts = [T0 + pd.Timedelta(milliseconds=round(i * step_s * 1000)) for i in range(n)]
    ev = as_events(ts, [i not in failing for i in range(n)])
    return incident_report(ev, SLO(target=target, window="1h"), T0 + pd.Timedelta(hours=1),
                           T0 + pd.Timedelta(hours=2),
                           policy=AlertPolicy.single_window("1h", OUT_OF_REACH[target]))


#: Per target, the burn of the one tier: above every peak, its threshold under 1 (a tier whose
#: threshold is 1 or more can never fire, and is said so, not "peaked at ...").
OUT_OF_REACH = {0.9: 9.0, 0.99: 20.0}


@pytest.mark.parametrize(("step_s", "failing", "target", "said"), [
    # one failure at 01:30 among an event a second, target 90 %: the incident's 3,600 events allow
    # 360 failures: burn 1 / 360 = 0.00278; the tracker's hour at 01:30 holds 3,601 events
    # (1 / 360.1 = 0.002777), the policy's hours [e - 1 h, e) 3,600 (1 / 360): 0.00278 each
    (1.0, range(5400, 5401), 0.9, "0.00278"),
    # an event every 3.6 s (1,000 an hour), the first 144 of the incident (01:00 .. 01:08:35)
    # failed, target 99 %: 144 / (1,000 x 0.01) = 14.4 over the incident; the tracker's hour at
    # the last failure holds 1,001 events (144 / 10.01 = 14.39), the policy's hour ending 01:09
    # 1,000 events with all 144 (14.4): 14.4 each
    (3.6, range(1000, 1144), 0.99, "14.4"),
    # no failure: burn 0, said 0
    (1.0, range(0), 0.9, "0"),
])
def test_every_burn_of_the_summary_has_three_significant_digits(step_s, failing, target, said):
    flat = " ".join(one_hour_report(step_s, failing, target).summary.split())
    assert f"(burn {said} over the incident)" in flat
    assert f"(at its events: peak 1 h burn {said} at " in flat
    assert (f"evaluated every minute, peaked at {said}, its threshold is "
            f"{OUT_OF_REACH[target]:g})") in flat
