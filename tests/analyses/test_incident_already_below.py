"""The incident report on a group or tier already below HEALTHY (firing) when the incident
began: a thin group EXHAUSTED since before the start is said "already EXHAUSTED when the
incident began", never "reached EXHAUSTED at" the start, and counted once; a tier whose alert
began before the start is ``already_firing`` with no detection delay (``score_alerts``' rule),
and the summary says so beside the page. Every figure is worked out by hand in the comments."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, AlertTier, as_events, incident_report

T0 = pd.Timestamp("2026-03-02", tz="UTC")
SLO_90 = SLO(target=0.9, window="1h")  # error budget 0.1


def at(h: int, m: int = 0) -> pd.Timestamp:
    return T0 + pd.Timedelta(hours=h, minutes=m)


def two_groups() -> pd.DataFrame:
    """g=a: an event every 10 s from 08:00 to 11:00 (360 an hour), those of 10:00 .. 10:15 failed;
    g=b: an event every 5 min from 08:00 to 11:00 (12 an hour), those of 09:20 and 09:25 failed."""
    a = [at(8) + pd.Timedelta(seconds=10 * i) for i in range(3 * 360)]
    b = [at(8) + pd.Timedelta(minutes=5 * i) for i in range(3 * 12)]
    ok_a = [not (at(10) <= t < at(10, 15)) for t in a]
    ok_b = [t not in (at(9, 20), at(9, 25)) for t in b]
    return as_events(a + b, ok_a + ok_b, groups={"g": ["a"] * len(a) + ["b"] * len(b)})


def test_a_thin_group_exhausted_before_the_start_is_said_already_so_once():
    # g=b at 10:00: its window [09:00, 10:00] (the seed's, both ends) holds the 13 events of
    # 09:00 .. 10:00, 2 failed: 2/13 = 15.4 % > 10 %, EXHAUSTED (burn 1.54) since 09:25, and
    # so until 10:20 when 09:20 leaves: through the incident 10:00 .. 10:15, no change. 13
    # events hold 13 x 0.1 = 1.3 expected failures under 90 %: too few (ten are needed: 100
    # events), and 2 of 13 do not decide a miss (P(>= 2 | 13, 0.1) = 0.38)
    rep = incident_report(two_groups(), SLO_90, at(10), at(10, 15), by="g")
    text = " ".join(rep.summary.split())
    assert ("The tracker for g=b was already EXHAUSTED when the incident began and stayed so, "
            "but on 13 events in its window at its peak burn: too few for a verdict") in text
    assert "g=b reached EXHAUSTED" not in text
    # g=b is said in its own sentence, not counted again among the tracker's "other groups"
    assert "other group" not in text.split(". The tracker for g=b")[0]


def outage() -> pd.DataFrame:
    """An event every 6 s from 00:00 to 02:59:54 (600 an hour), those of 01:40 .. 01:49:54
    failed."""
    ts = [T0 + pd.Timedelta(seconds=6 * i) for i in range(1800)]
    return as_events(ts, [not (at(1, 40) <= t < at(1, 50)) for t in ts])


# evaluated at each minute's end over [end - window, end): ticket_1h fires when its hour holds
# more than 0.2 x 0.1 x 600 = 12 failures; page_5m when its 5 min hold more than 0.9 x 50 = 45
POLICY = AlertPolicy([AlertTier("page_5m", "page", "5min", None, 9.0),
                      AlertTier("ticket_1h", "ticket", "1h", None, 0.2)], name="mine")


def test_a_ticket_firing_before_the_start_has_no_delay_and_is_said():
    # ticket_1h: the hour ending 01:41 holds 10 failures, the one ending 01:42 holds 20: it
    # fires at 01:42, before the incident's start at 01:43: already firing, no delay. page_5m:
    # the 5 min ending 01:44 hold 40 failures (01:40 .. 01:43), the ones ending 01:45 hold 50:
    # it fires at 01:45, 2 min after the start
    rep = incident_report(outage(), SLO_90, at(1, 43), at(1, 55), policy=POLICY)
    t = rep.tiers.set_index("tier")
    assert t.loc["ticket_1h", "first_alert"] == at(1, 42)
    assert bool(t.loc["ticket_1h", "already_firing"])
    assert pd.isna(t.loc["ticket_1h", "detection_delay"])
    assert t.loc["page_5m", "first_alert"] == at(1, 45)
    assert not bool(t.loc["page_5m", "already_firing"])
    assert t.loc["page_5m", "detection_delay"] == pd.Timedelta("2min")
    text = " ".join(rep.summary.split())
    assert ("The mine policy would have paged at 01:45, 2 min after the start (page_5m); "
            "ticket_1h (since 01:42) was already firing when the incident began: not raised "
            "by it.") in text
