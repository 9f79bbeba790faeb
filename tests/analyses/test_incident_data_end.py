"""The incident report's alert tiers read over the span the data cover: when the log ends before
the incident does, the windows that empty after its last event are not production's, so the peaks
(and the summary's reasons) stop at the end of the bin of that event; a peak over a threshold
that did not page says why. Every expected figure is worked out by hand in the comments."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, AlertTier, as_events, incident_report

T0 = pd.Timestamp("2026-03-02", tz="UTC")
SLO_99 = SLO(target=0.99, window="1h")  # error budget 0.01
# the workbook's fast page tier alone: the page condition is error ratio > 14.4 x 0.01 = 0.144
# over both 1 h and 5 min, evaluated at every minute's end over [end - window, end)
PAGE_1H = AlertPolicy([AlertTier("page_1h", severity="page", long_window="1h",
                                 short_window="5min", burn=14.4)])


def minutes(ok: list[bool], *, extra: dict[int, int] | None = None) -> pd.DataFrame:
    """One event at the start of each minute from T0 (``ok[i]`` at minute i), and ``extra[i]``
    more successes at minute i (1 s apart)."""
    ts = [T0 + pd.Timedelta(minutes=i) for i in range(len(ok))]
    oks = list(ok)
    for i, n in (extra or {}).items():
        ts += [T0 + pd.Timedelta(minutes=i, seconds=s + 1) for s in range(n)]
        oks += [True] * n
    order = sorted(range(len(ts)), key=ts.__getitem__)
    return as_events([ts[i] for i in order], [oks[i] for i in order])


def burst_at_the_end() -> pd.DataFrame:
    """A success a minute from 00:00 to 02:59, the last one (02:59) a failure: the log ends."""
    return minutes([True] * 179 + [False])


def test_peak_is_read_up_to_the_data_end_not_over_windows_emptying_after_it():
    # data-only: the last evaluation whose window holds data ends the bin of 02:59, at 03:00;
    # there the 1 h window [02:00, 03:00) holds 60 events, 1 failure: (1/60)/0.01 = 5/3, the
    # peak (every earlier window holds no failure). After the data end, at 03:59 the window
    # [02:59, 03:59) holds the failure alone: 1/1/0.01 = 100, a window emptying, not traffic.
    rep = incident_report(burst_at_the_end(), SLO_99, "2026-03-02 02:00", "2026-03-02 04:30",
                          policy=PAGE_1H, context="0s")
    row = rep.tiers.iloc[0]
    assert row["peak_burn_long"] == pytest.approx(5 / 3)
    assert not row["fired"]
    assert "peaked at 1.67, its threshold is 14.4" in rep.summary
    assert "up to the data's end at 02:59" in rep.summary
    assert "peaked at 100" not in rep.summary


def test_a_peak_over_the_threshold_that_did_not_page_says_why():
    # minute 0 holds 101 successes, minutes 10..19 one failure each, every other minute one
    # success, to 01:30. The 5 min window holds a failure only at the evaluations 00:11..00:24,
    # when the 1 h window also holds minute 0: at most 10/(101 + 23) = 0.081 < 0.144, no page.
    # At 01:01 the 1 h window [00:01, 01:01) holds 60 events, 10 failures: (10/60)/0.01 = 16.7
    # > 14.4 (the peak, through 01:10), while the 5 min window holds successes only.
    ok = [not 10 <= i <= 19 for i in range(91)]
    rep = incident_report(minutes(ok, extra={0: 100}), SLO_99, "2026-03-02 00:00",
                          "2026-03-02 01:31", policy=PAGE_1H, context="0s")
    row = rep.tiers.iloc[0]
    assert row["peak_burn_long"] == pytest.approx(100 / 6)
    assert ("peaked at 16.7, its threshold is 14.4, but its 5 min burn was never over it at the "
            "same evaluation)") in rep.summary.replace("\n", " ")
    assert not row["fired"] and not row["condition_held"]


def test_a_log_ending_before_the_incident_says_the_policy_is_not_known():
    # the log ends at 02:59, the incident runs 03:30 .. 04:30: no evaluation of it holds data
    # (the old report quoted the 1 h window [02:59, 03:59) holding the failure alone: 100)
    rep = incident_report(burst_at_the_end(), SLO_99, "2026-03-02 03:30", "2026-03-02 04:30",
                          policy=PAGE_1H, context="2h")
    assert rep.tiers["peak_burn_long"].isna().all()
    assert ("The log ends before the incident, so what the alert policy would have done during "
            "it is not known.") in rep.summary.replace("\n", " ")
    assert "peaked at" not in rep.summary
