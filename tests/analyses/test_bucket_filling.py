"""bucket_breakdown leaves out the alert episodes `budgetlab alerts` scores apart: those begun and
ended while their tier's long window filled at the log's start, and every episode of a tier whose
long window never filled (not evaluated, said in attrs, never a silent 0).

Oracles: hand counts on hand-built logs (the workbook policy at 30 d: page_1h 1 h / 5 min burn
14.4, page_6h 6 h / 30 min burn 6, ticket_1d 24 h / 2 h burn 3, ticket_3d 3 d / 6 h burn 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, bucket_breakdown, datasets

pytestmark = pytest.mark.filterwarnings("ignore::budgetlab.errors.PartialWindowWarning")


def outage_log():
    """48 h, one event a minute; minute 0 a timeout (a start-up blip), and 90 minutes of timeouts
    from 30:00 (an outage after every window but ticket_3d's has filled)."""
    n = 48 * 60
    bad = np.zeros(n, dtype=bool)
    bad[0] = True
    bad[1800:1890] = True
    ts = pd.date_range("2026-02-01", periods=n, freq="1min", tz="UTC")
    return as_events(ts, ~bad, np.where(bad, "timeout", "success"))


def test_a_real_page_after_the_warm_up_is_counted_the_blip_at_the_start_is_not():
    """By hand at 95 % (allowed error ratio 0.05): the blip is 1 failure in 1 event, ratio 1,
    above every tier's threshold (0.72, 0.30, 0.15, 0.05): page_1h, page_6h, ticket_1d and
    ticket_3d fire at the first bin and stop within minutes (1/k falls under 0.72 at k = 2, 0.30
    at k = 4, 0.15 at k = 7, 0.05 at k = 21 events): 4 episodes over while their long window
    filled, 2 of them pages. The outage: page_1h's 1 h window reaches 0.72 after 44 failed minutes
    (44 / 60) and its 5 min window is all failures: 1 page. page_6h would need 108 failed minutes
    of 360 (0.30), ticket_1d 216 of 1,440 (0.15): neither fires. ticket_3d's 3 d window never
    fills on 48 h: not evaluated. Without the timeouts nothing fails: the page is caused."""
    t = bucket_breakdown(outage_log(), SLO(0.95, "24h"), by=None)
    row = t[t["bucket"] == "timeout"].iloc[0]
    assert row[["alerts", "pages", "alerts_caused", "pages_caused"]].tolist() == [1, 1, 1, 1]
    assert row[["alerts_without", "pages_without"]].tolist() == [0, 0]
    assert row[["alerts_filling", "pages_filling"]].tolist() == [4, 2]
    assert t.attrs["not_evaluated"] == {"ticket_3d": 3 * 86_400 * 10**9}
    note = t.attrs["filling_note"]
    assert "1 episode of page_1h began and ended in the first 1 h of a group's traffic" in note
    assert "ticket_3d (3 d) was not evaluated: its long window never filled" in note


def test_a_steady_three_percent_of_timeouts_is_no_page():
    """The stranger's log: 3 d of one event a minute, about 3 % timeouts and the first event a
    timeout. At 95 % page_1h needs 72 % failures over 1 h and page_6h 30 % over 6 h: a steady
    3.19 % (138 of 4,320) never pages; the first event's 1-of-1 burst is over while the windows
    filled. ticket_3d's 3 d window never fills on a 3 d log."""
    rng = np.random.default_rng(3)
    ts = pd.date_range("2026-02-01", periods=3 * 24 * 60, freq="1min", tz="UTC")
    out = np.where(rng.random(len(ts)) < 0.03, "timeout", "success")
    out[0] = "timeout"
    t = bucket_breakdown(as_events(ts, out == "success", out), SLO(0.95, "24h"))
    row = t[t["bucket"] == "timeout"].iloc[0]
    assert (int(row["failures"]), int(row["events"])) == (138, 4320)
    assert row[["pages", "pages_caused"]].tolist() == [0, 0]
    assert list(t.attrs["not_evaluated"]) == ["ticket_3d"]


def test_the_demo_counts_no_alert_of_a_tier_that_was_not_evaluated():
    """The demo is 3 d long: ticket_3d's 3 d window never fills, so none of its episodes (it
    counted 26 for fra, 6 for ams) is an alert; the other tiers' windows do not fire at all."""
    t = bucket_breakdown(datasets.load("demo"), SLO(0.95, "24h"), by="region")
    assert t["alerts"].tolist() == [0, 0, 0, 0]
    assert t["alerts_caused"].tolist() == [0, 0, 0, 0]
    assert list(t.attrs["not_evaluated"]) == ["ticket_3d"]
    assert "ticket_3d (3 d) was not evaluated" in t.attrs["filling_note"]
