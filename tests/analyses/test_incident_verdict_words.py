"""Stop 59: the incident summary's verdict on the policy, the burn of the tracker's status change
and where the log's end cuts the grace, as a stranger following docs/incident.md read them.

* A page tier that can never fire at the target (its threshold ``burn x (1 - target)`` of 1 or
  more) is no evaluation of what the policy would have done: when every page tier that could fire
  was not evaluated, whether the policy would have paged is not known (the summary said "would not
  have paged and no other tier fired" of page_6h, never evaluated, beside page_1h at 90 %).
* "no other tier fired" is said only of tiers evaluated during the incident.
* The status change's burn is the tracker's, from its window's counts, to three significant
  digits: the seed's 2-decimal 0.9 said a CRITICAL change's burn of 0.9047 on WARNING's side.
* The grace is cut at the last evaluation, the end of the bin of the log's last event, said as
  such ("the end of the log" named a minute after the data's end another note gave).

Every figure is worked out by hand below.
"""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl


def at(hhmm: str, day: str = "2026-03-01") -> pd.Timestamp:
    return pd.Timestamp(f"{day} {hhmm}", tz="UTC")


def minutes(first: pd.Timestamp, last: pd.Timestamp, failing) -> pd.DataFrame:
    """One event a minute ``first`` .. ``last``; those for which ``failing(t)`` fail."""
    ts = pd.date_range(first, last, freq="1min")
    return bl.as_events(ts, [not failing(t) for t in ts])


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_page_tier_that_can_never_fire_leaves_the_verdict_not_known():
    # one event a minute 00:00 .. 02:59, those of 01:54 .. 01:59 failing; 90 % over 1 h, the
    # workbook policy, incident 02:00 .. 02:30. page_1h needs an error ratio above 14.4 x 0.1 =
    # 1.44: it can never fire. page_6h's first window after the data's start [00:00, 06:00) ends
    # at 06:00, after the incident: it is never evaluated, and it is the only page tier that
    # could fire. Whether the policy would have paged is not known.
    ev = minutes(at("00:00"), at("02:59"),
                 lambda t: at("01:54") <= t < at("02:00"))
    rep = bl.incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-03-01 02:00",
                             "2026-03-01 02:30", tz="UTC")
    tiers = rep.tiers.set_index("tier")
    assert not tiers.loc["page_1h", "can_fire"] and pd.notna(tiers.loc["page_1h",
                                                                       "evaluated_from"])
    assert tiers.loc["page_6h", "can_fire"] and pd.isna(tiers.loc["page_6h", "evaluated_from"])
    text = flat(rep.summary)
    assert ("The workbook policy's page tier that could fire, page_6h (6 h), was not evaluated "
            "during the incident, its window never lying after the data's start, so whether it "
            "would have paged is not known; page_1h can never fire at target 0.9: it needs an "
            "error ratio above 14.4 x (1 - 0.9) = 1.44") in text
    assert "would not have paged" not in text
    assert "no other tier fired" not in text


def test_no_other_tier_fired_is_said_only_of_tiers_evaluated():
    # 99 %: every workbook tier can fire (14.4 x 0.01 = 0.144 < 1). One event a minute 00:00 ..
    # 02:59, none failing; incident 02:00 .. 02:30: page_1h is evaluated from 02:01 (window
    # [01:00, 02:01) after the data's start), page_6h, ticket_1d and ticket_3d never are. No
    # tier beside page_1h was evaluated: nothing is said of them firing, only that they were
    # not evaluated.
    ev = minutes(at("00:00"), at("02:59"), lambda t: False)
    rep = bl.incident_report(ev, bl.SLO(target=0.99, window="1h"), "2026-03-01 02:00",
                             "2026-03-01 02:30", tz="UTC")
    text = flat(rep.summary)
    # page_6h could fire and was not evaluated: page_1h's silence does not say the policy would
    # not have paged (stop 59; the words said "would not have paged" before)
    assert ("Whether the workbook policy would have paged is not known: page_1h (1 h) was "
            "evaluated and did not fire (its 1 h burn, evaluated every minute, peaked at 0, its "
            "threshold is 14.4), but page_6h (6 h), which could fire, was not evaluated, its "
            "window never lying after the data's start during the incident; ticket_1d (24 h), "
            "ticket_3d (3 d) were not evaluated") in text
    assert "other tier fired" not in text and "other evaluated tier" not in text
    # 27 h of data: ticket_1d's window [2026-03-01 02:01, 03-02 02:01) lies after the data's
    # start from the incident's first evaluation, ticket_3d's 3 d never does
    ev = minutes(at("00:00"), at("02:59", "2026-03-02"), lambda t: False)
    rep = bl.incident_report(ev, bl.SLO(target=0.99, window="1h"), "2026-03-02 02:00",
                             "2026-03-02 02:30", tz="UTC")
    assert ("its threshold is 14.4) and no other evaluated tier fired; ticket_3d (3 d) was not "
            "evaluated") in flat(rep.summary)


def test_the_change_burn_is_the_trackers_to_three_digits():
    # 95 % over 1 h, one event a minute from 00:00, failures at 01:10 and 01:40. At the event of
    # 01:40 the window [00:40, 01:40] holds 61 events, 2 failing: burn 2 / (61 x 0.05) = 0.65574
    # (WARNING; the seed's round(., 2) said 0.66), success 59 / 61 = 96.72 %. Between the events
    # before it the window held 60 events and 1 failure (burn 0.333): HEALTHY at the start.
    ev = minutes(at("00:00"), at("02:00"), lambda t: t in (at("01:10"), at("01:40")))
    rep = bl.incident_report(ev, bl.SLO(target=0.95, window="1h"), "2026-03-01 01:30",
                             "2026-03-01 02:00", tz="UTC")
    row = rep.tracker.iloc[0]
    assert row["first_change_burn"] == pytest.approx(2 / (61 * 0.05))
    assert row["first_change_rate"] == pytest.approx(59 / 61)
    assert ("went WARNING at 01:40 with 1 h burn 0.656 (1 h success 96.72 %)"
            in flat(rep.summary))


def test_the_docs_night_incident_goes_critical_above_0_9():
    # docs/incident.md's first block. The change to CRITICAL is at the event of 02:19:04.399 UTC
    # (03:19 CET); its 1 h window, counted here from the raw events of the scope, holds 149
    # failures in 3,294 events: burn 149 / (3294 x 0.05) = 0.9047 ("0.905": CRITICAL is above
    # 0.9; the seed's 2 decimals said 0.9, WARNING's side), success 3145 / 3294 = 95.48 %.
    night = bl.datasets.load("night_incident")
    rep = bl.incident_report(
        night, bl.SLO(target=0.95, window="1h"), "2026-11-05 01:40", "2026-11-05 05:10",
        tz="Europe/Berlin", scope="captcha_type=recaptcha_v2", breakdown_by="region")
    row = rep.tracker.iloc[0]
    t = pd.Timestamp("2026-11-05 02:19:04.399", tz="UTC")
    assert row["first_change_at"] == t and row["first_change_to"] == "critical"
    inside = night[(night["captcha_type"] == "recaptcha_v2") & (night["ts"] >= t - pd.Timedelta(
        "1h")) & (night["ts"] <= t)]
    assert (len(inside), int((~inside["ok"]).sum())) == (3294, 149)
    assert row["first_change_burn"] == pytest.approx(149 / (3294 * 0.05))
    assert "went CRITICAL at 03:19 with 1 h burn 0.905 (1 h success 95.48 %)" in flat(rep.summary)


def test_the_grace_is_cut_at_the_last_evaluation_after_the_logs_last_event():
    # one event a minute 00:00 .. 10:20, none failing; incident 09:00 .. 10:00, context 30 min,
    # grace 1 h: the log ends inside the report's window at 10:20 (the data's end), the last
    # evaluation whose windows hold data is the end of its bin, 10:21, before 11:00
    ev = minutes(at("00:00"), at("10:20"), lambda t: False)
    rep = bl.incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-03-01 09:00",
                             "2026-03-01 10:00", context="30min", grace="1h", tz="UTC",
                             policy=bl.AlertPolicy.single_window("1h", 5, severity="page"))
    assert rep.data_end == at("10:20")
    assert rep.tiers.iloc[0]["judged_to"] == at("10:21")
    assert ("the 1 h grace is cut at 10:21, the last evaluation after the log's last event at "
            "10:20: an alert that would have begun after it is not known.") in flat(rep.summary)
    assert "the end of the log" not in rep.summary
