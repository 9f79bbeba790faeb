"""The incident summary with several group keys: every sentence says which group a figure is about,
or that it is summed over all groups (it once spoke of "the tracker" and "the policy" of the worst
group while its counts covered every group)."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, AlertTier, as_events, incident_report

#: What the budget sentence says its traffic is read over (whatever the context=).
SPAN = "the whole log in scope,"

SLO_1H = SLO(target=0.9, window="1h")


def four_groups():
    """One event a minute per (captcha_type, region) on 2026-01-01. From 10:00 to 11:00 (minutes
    600 .. 659) a/fra times out at odd minutes (30 timeouts), b/ams has a solve error every third
    minute from 10:00 (20 solve errors); the other two groups never fail."""
    rows = []
    for i, t in enumerate(pd.date_range("2026-01-01", periods=24 * 60, freq="1min", tz="UTC")):
        for ct, region in (("a", "ams"), ("a", "fra"), ("b", "ams"), ("b", "fra")):
            bucket = "success"
            if 600 <= i < 660 and (ct, region) == ("a", "fra") and i % 2:
                bucket = "timeout"
            if 600 <= i < 660 and (ct, region) == ("b", "ams") and i % 3 == 0:
                bucket = "solve_error"
            rows.append((t, bucket, ct, region))
    f = pd.DataFrame(rows, columns=["ts", "bucket", "captcha_type", "region"])
    return as_events(f["ts"], (f["bucket"] == "success").to_numpy(), f["bucket"].to_numpy(),
                     groups={"captcha_type": f["captcha_type"].to_numpy(),
                             "region": f["region"].to_numpy()})


def report(policy, **kw):
    return incident_report(four_groups(), SLO_1H, "2026-01-01 10:00", "2026-01-01 11:00",
                           context="1h", by=["captcha_type", "region"], policy=policy, **kw)


def test_each_sentence_names_its_group_or_says_all_groups():
    # By hand (burns said to three significant digits). a/fra alone is the incident_report doctest's
    # log (one event a minute, odd minutes of 10:xx time out): WARNING at 10:07 (burn 4 / 6.1 =
    # 0.656, the seed's rounded figure 0.66; 57 / 61 = 93.44 %), EXHAUSTED at 10:11, 3 changes all
    # caused by timeouts, peak burn 30 / 6.1 = 4.918 (said 4.92) at 10:59 (31 / 61 = 50.82 %; the
    # instant after, 09:59 gone, 30 / 6 = 5 and 30 / 60 = 50 %, held as the figure draws it); its
    # ticket at burn 2.9 fires at the 10:36 evaluation (18 of 60). b/ams: 20 solve errors in its
    # hour, burn 20 / 6.1 = 3.28 at worst: it leaves HEALTHY too (1 other group); its hour reaches
    # 18 failures in 60 at the 10:52 evaluation: a ticket too (1 other group).
    # The incident: 4 x 60 = 240 events, 30 + 20 = 50 failures: 30 / 50 = 60 % timeouts, success
    # 190 / 240 = 79.17 %, without timeouts 190 / 210 = 90.48 % (240 x 0.1 = 24 expected failures:
    # said), burn 50 / 24 = 2.083 (said 2.08). The budget is carried from the whole log, 00:00 ..
    # 23:59, whatever the context: 4 x 1,440 = 5,760 events, each group's in 23 h 59 min of time
    # with traffic (first to last event), under the day a rate per day needs: the share of a 30 d
    # budget is withheld, and why (before: the replayed span 08:00 .. 12:00, 960 events in 4 h).
    rep = report(AlertPolicy.single_window("1h", 2.9, severity="ticket"))
    assert rep.summary == (
        "Between 10:00 and 11:00 UTC on 2026-01-01, the 1 h tracker for captcha_type=a, "
        "region=fra (target 90 %) went WARNING at 10:07 with 1 h burn 0.656 (1 h success 93.44 %), "
        "reached EXHAUSTED at 10:11; it changed status 3 times at its events and was EXHAUSTED "
        "when the "
        "incident ended (at its events: peak 1 h burn 4.92 at 10:59, lowest 1 h success "
        "50.82 %; held on the window's clock, as the figure draws it: peak 1 h burn 5 from "
        "10:59, lowest 1 h success 50.00 %); 1 other group also left HEALTHY. 60 % of the "
        "failures of all 4 groups by "
        "captcha_type and region were timeouts in captcha_type=a, region=fra (100 % of that "
        "group's failures); without timeouts (60 % of all failures) the success rate of "
        "all 4 groups by captcha_type and region would have been 90.48 % instead of 79.17 %, and "
        "all 3 status changes of the tracker for captcha_type=a, region=fra would not have "
        "happened. The single_window policy would have fired ticket_1h (ticket) for "
        "captcha_type=a, region=fra at 10:36, 36 min after the start; 1 other group fired too. "
        "Over its 1 h the incident saw 50 failures in 240 events of all 4 groups by captcha_type "
        "and region (burn 2.08 over the incident); its share of a 30 d error budget is withheld, "
        "too thin to go by (that budget is the traffic of " + SPAN
        + " 2026-01-01 00:00 .. 23:59 UTC carried "
        "to 30 d, and a rate per day needs at least 24 h of sending time: the whole log in "
        "scope holds 5,760 events in 23 h 59 min of sending time).")
    # broken down by region only, the rate is over both regions (the same 240 events)
    by_region = report(AlertPolicy.single_window("1h", 2.9, severity="ticket"),
                       breakdown_by="region")
    assert ("60 % of the failures of both groups by region were timeouts in fra (100 % of fra's "
            "failures); without timeouts (60 % of all failures) the success rate of both groups "
            "by region would have been 90.48 % instead of 79.17 %") in by_region.summary


def test_the_alert_sentence_names_the_group_of_each_figure():
    # pages at burn 2.9 over 1 h: a/fra at 10:36, b/ams at 10:52 (above); not every page was
    # caused by timeouts alone (b/ams's are solve errors)
    paged = report(AlertPolicy.single_window("1h", 2.9))
    assert ("The single_window policy would have paged for captcha_type=a, region=fra at 10:36, "
            "36 min after the start (page_1h); 1 other group paged too. ") in paged.summary
    assert "timeouts alone" not in paged.summary
    # a page tier out of reach: its peak is a/fra's, 30 of the 60 minutes of [10:00, 11:00) at
    # the 11:00 evaluation: 0.5 / 0.1 = 5, under its 9 (threshold 0.9: one an error ratio can
    # reach); the ticket tier fires for both groups
    pol = AlertPolicy((AlertTier("page_1h", "page", "1h", None, 9.0),
                       AlertTier("ticket_1h", "ticket", "1h", None, 2.9)), name="mine")
    quiet = report(pol)
    assert ("The mine policy would not have paged (page_1h's 1 h burn for captcha_type=a, "
            "region=fra, evaluated every minute, peaked at 5, its threshold is 9); its "
            "ticket_1h tier would have raised a ticket for captcha_type=a, region=fra at 10:36, "
            "36 min after the start; 1 other group raised one too.") in quiet.summary


def scoped_log():
    """One event a minute per (captcha_type, region) on 2026-01-01; in the incident's hour
    (minutes 600 .. 659): a/fra has 9 solve errors (600 .. 608) and 3 timeouts (610 .. 612), a/ams
    6 timeouts (620 .. 625) and 2 solve errors (630, 631), b/fra 40 solve errors (600 .. 639)."""
    def bucket(i, ct, region):
        if (ct, region) == ("a", "fra"):
            return "solve_error" if 600 <= i < 609 else "timeout" if 610 <= i < 613 else "success"
        if (ct, region) == ("a", "ams"):
            return "timeout" if 620 <= i < 626 else "solve_error" if i in (630, 631) else "success"
        return "solve_error" if 600 <= i < 640 else "success"

    groups = (("a", "fra"), ("a", "ams"), ("b", "fra"))
    rows = [(t, bucket(i, ct, region), ct, region)
            for i, t in enumerate(pd.date_range("2026-01-01", periods=24 * 60, freq="1min",
                                                tz="UTC"))
            for ct, region in groups]
    f = pd.DataFrame(rows, columns=["ts", "bucket", "captcha_type", "region"])
    return as_events(f["ts"], (f["bucket"] == "success").to_numpy(), f["bucket"].to_numpy(),
                     groups={"captcha_type": f["captcha_type"].to_numpy(),
                             "region": f["region"].to_numpy()})


def test_the_top_bucket_share_says_whose_failures_it_counts():
    # It said "45 % of the failures were solve errors in fra", which reads as fra's own failures.
    # By hand, scope captcha_type=a broken down by region: 12 + 8 = 20 failures in 120 events;
    # fra's 9 solve errors are 9 / 20 = 45 % of them and 9 / 12 = 75 % of fra's 12; 9 timeouts
    # (9 / 20 = 45 %): success 100 / 120 = 83.33 %, without timeouts 100 / 111 = 90.09 %
    # (120 x 0.1 = 12 expected failures: said).
    pol = AlertPolicy.single_window("1h", 50.0)
    rep = incident_report(scoped_log(), SLO_1H, "2026-01-01 10:00", "2026-01-01 11:00",
                          context="1h", by=["captcha_type", "region"], scope="captcha_type=a",
                          breakdown_by="region", policy=pol)
    # the scope's two regions, said as such (it said "of both groups by region", as if every
    # captcha type's)
    assert (" 45 % of the failures in the scope captcha_type=a, across both groups by region, were "
            "solve errors in fra (75 % of fra's failures); without timeouts (45 % of all "
            "failures) the success rate in the scope captcha_type=a, across both groups by region, "
            "would have been 90.09 % instead of 83.33 %") in rep.summary
    # every captcha type: b/fra's 40 solve errors join fra's: 49 of 60 failures (82 %), 49 of
    # fra's 52 (94 %)
    every_type = incident_report(scoped_log(), SLO_1H, "2026-01-01 10:00", "2026-01-01 11:00",
                                 context="1h", by=["captcha_type", "region"],
                                 breakdown_by="region", policy=pol)
    assert (" 82 % of the failures of both groups by region were solve errors in fra (94 % of "
            "fra's failures)") in every_type.summary
    # by both keys, the group is named by both: a/fra's 9 are 9 / 12 = 75 % of its own; the
    # groups are told apart by region alone, the scope pinning captcha_type (stop 63: "by
    # captcha_type and region")
    both = incident_report(scoped_log(), SLO_1H, "2026-01-01 10:00", "2026-01-01 11:00",
                           context="1h", by=["captcha_type", "region"], scope="captcha_type=a",
                           policy=pol)
    assert (" 45 % of the failures in the scope captcha_type=a, across both groups by "
            "region, were solve errors in captcha_type=a, region=fra (75 % of "
            "that group's failures)") in both.summary
    # the tracker's group names the scope's key: no "in that scope" after it
    assert "the 1 h tracker for captcha_type=a, region=fra (target 90 %)" in both.summary


def test_a_scope_with_groups_of_another_key_says_which_events_it_counts():
    # demo --by region on the incident scoped captcha_type=recaptcha_v2 said "the tracker for
    # region=fra" and "of both groups by region", as if every captcha type's events. By hand,
    # scope captcha_type=a by region (scoped_log): a/fra 12 failures, a/ams 8, in 60 events each;
    # fra's tracker is the worst (12 failures in its hour against 8). fra's 9 solve errors are 9 /
    # 20 = 45 % of the scope's failures, 9 / 12 = 75 % of fra's; success 100 / 120 = 83.33 %,
    # without the 9 timeouts 100 / 111 = 90.09 %; burn 20 / (120 x 0.1) = 1.667 (said 1.67).
    rep = incident_report(scoped_log(), SLO_1H, "2026-01-01 10:00", "2026-01-01 11:00",
                          context="1h", by="region", scope="captcha_type=a",
                          policy=AlertPolicy.single_window("1h", 50.0))
    said = " ".join(rep.summary.split())
    assert ("(captcha_type=a), the 1 h tracker for region=fra in that scope (target 90 %)"
            in said)
    assert ("45 % of the failures in the scope captcha_type=a, across both groups by region, were "
            "solve errors in fra (75 % of fra's failures); without timeouts (45 % of all "
            "failures) the success rate in the scope captcha_type=a, across both groups by region, "
            "would have been 90.09 % instead of 83.33 %") in said
    assert ("the incident saw 20 failures in 120 events in the scope captcha_type=a, across both "
            "groups by region (burn 1.67 over the incident)") in said
