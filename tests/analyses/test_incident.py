"""incident_report: the night incident against independent replays and pandas counts, and one
hand-built case per sentence of the summary."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import (
    SLO,
    AlertPolicy,
    AlertTier,
    alert_episodes,
    as_events,
    bin_events,
    incident_report,
    replay,
    transitions,
)
from budgetlab.analyses import incident_tables
from budgetlab.analyses.incident import IncidentReport
from budgetlab.errors import ConfigError, InputError, OutputExistsError, SchemaError

#: What the budget sentence says its traffic is read over (whatever the context=).
SPAN = "the whole log in scope,"

T0 = pd.Timestamp("2026-01-05", tz="UTC")
STEP = 10  # seconds between events


def history(hours, fail_at, regions=("fra",)):
    """One event every 10 s per region for ``hours``; ``fail_at(i, region)`` gives each event's
    bucket."""
    n = int(hours * 3600 // STEP)
    frames = []
    for k, region in enumerate(regions):
        i = np.arange(n)
        bucket = [fail_at(j, region) for j in i]
        ts = T0 + pd.to_timedelta(i * STEP + k, unit="s")  # regions 1 s apart: no ties
        frames.append(pd.DataFrame({"ts": ts, "bucket": bucket, "region": region}))
    f = pd.concat(frames).sort_values("ts", kind="stable")
    return as_events(f["ts"], (f["bucket"] == "success").to_numpy(), f["bucket"].to_numpy(),
                     groups={"region": f["region"].to_numpy()})


def idx(hh, mm=0):
    """Event index of a time of day (T0 is midnight)."""
    return (hh * 3600 + mm * 60) // STEP


def at(hh, mm=0):
    return T0 + pd.Timedelta(hours=hh, minutes=mm)


# ------------------------------------------------------------------------------------------------
# the night incident (data/night_incident.parquet)


@pytest.fixture(scope="module")
def night():
    from budgetlab import datasets

    # the datasets ship in the package (no skip: a missing dataset is a failure)
    return datasets.load("night_incident"), datasets.load("night_incident_incidents")


def test_night_incident_summary_uses_the_tracker_figures(night):
    events, incidents = night
    slo = SLO(target=0.95, window="1h")
    tz = "Europe/Berlin"
    rep = incident_report(events, slo, "2026-11-05 01:40", "2026-11-05 05:10", tz=tz,
                          scope="captcha_type=recaptcha_v2", breakdown_by="region",
                          incidents=incidents)
    start = pd.Timestamp("2026-11-05 01:40", tz=tz)
    end = pd.Timestamp("2026-11-05 05:10", tz=tz)
    assert rep.start == start and rep.end == end
    # oracle: the tracker replayed over the whole file, one tracker for reCAPTCHA v2
    rc = events[events["captcha_type"] == "recaptcha_v2"]
    full = replay(rc, slo)
    tr = transitions(full)
    during = tr[(tr["ts"] >= start) & (tr["ts"] < end)]
    assert len(during) >= 1
    first = during.iloc[0]
    assert (f"went {str(first['to_status']).upper()} at "
            f"{first['ts'].tz_convert(tz):%H:%M}") in rep.summary
    # the burn from the oracle's counts (its burn_rate is the seed's, rounded to 2 decimals)
    burn = first["failures"] / (first["total_events"] * (1 - 0.95))
    assert burn < 100  # so .3g writes it as three_digits does (three significant digits)
    assert (f"with 1 h burn {burn:.3g} (1 h success "
            f"{first['current_rate'] * 100:.2f} %)"
            in rep.summary)
    before = full[full["ts"] < start]["status"].iloc[-1]
    if before != "healthy":
        assert f"was {str(before).upper()} when the incident began" in rep.summary
    # the report's transitions and states in its window equal the full replay's
    win = (tr["ts"] >= rep.window_start) & (tr["ts"] < rep.window_end)
    cols = ["ts", "from_status", "to_status", "current_rate", "burn_rate", "budget_remaining_pct"]
    pd.testing.assert_frame_equal(
        rep.transitions[cols].reset_index(drop=True), tr.loc[win, cols].reset_index(drop=True)
    )
    w = (full["ts"] >= rep.window_start) & (full["ts"] < rep.window_end)
    np.testing.assert_array_equal(
        rep.states["burn_rate"].to_numpy(), full.loc[w, "burn_rate"].to_numpy()
    )
    # the bucket sentence: the largest (bucket, region) share of failures, counted with pandas
    inc = rc[(rc["ts"] >= start) & (rc["ts"] < end)]
    fails = inc[~inc["ok"]]
    cell = fails.groupby(["bucket", "region"], observed=True).size()
    (bucket, region), n = cell.idxmax(), cell.max()
    phrase = str(bucket).replace("_", " ") + "s"
    # its share of every region's failures (the incident's scope), then of its own region's
    n_regions = inc["region"].nunique()
    regions = "both groups" if n_regions == 2 else f"all {n_regions} groups"
    own = int((fails["region"] == region).sum())
    assert (f"{n / len(fails) * 100:.0f} % of the failures in the scope captcha_type=recaptcha_v2, "
            f"across {regions} by region, were {phrase} in {region} ({n / own * 100:.0f} % of "
            f"{region}'s failures)") in " ".join(rep.summary.split())
    ok = int(inc["ok"].sum())
    n_to = int((inc["bucket"] == "timeout").sum())
    assert (f"{ok / (len(inc) - n_to) * 100:.2f} % instead of {ok / len(inc) * 100:.2f} "
            "%") in rep.summary
    # ground truth (data/README.md): during N2 fra's timeout rate is about twice ams's
    n2 = incidents.set_index("incident_id").loc["N2"]
    storm = rc[(rc["ts"] >= n2["start"]) & (rc["ts"] < n2["end"])]
    rate = storm.assign(t=storm["bucket"] == "timeout").groupby("region", observed=True)["t"].mean()
    b = rep.buckets.set_index(["region", "bucket"])
    assert b.loc[("fra", "timeout"), "failure_rate"] > b.loc[("ams", "timeout"), "failure_rate"]
    assert rate["fra"] > 1.5 * rate["ams"]
    # alerts: the workbook replayed independently on 1-minute bins of the same history
    bins = bin_events(rc, "1min")
    ep = alert_episodes(bins, 0.95, AlertPolicy.workbook())
    paged = ep[(ep["severity"] == "page") & (ep["start"] < end) & (ep["end"] > start)]
    assert bool(rep.tiers.loc[rep.tiers["severity"] == "page", "fired"].any()) == (len(paged) > 0)
    assert ("would not have paged" in rep.summary) == (len(paged) == 0)
    # budget: failures during the incident
    assert int(rep.budget["failures"].sum()) == len(fails)
    assert f"{len(fails):,} failures in {len(inc):,} events" in rep.summary
    assert set(rep.incidents["incident_id"]) == {"N1", "N2"}
    assert "CET" in rep.summary and "01:40 and 05:10" in rep.summary


# ------------------------------------------------------------------------------------------------
# one hand-built case per sentence


def test_sentence_went_status_at_time_with_burn_and_timeouts_caused_changes():
    # 12 h at one event per 10 s (360 per hour). From 06:00 to 07:00 every 5th event times out
    # (20 %); target 0.9, window 1 h: the tracker leaves HEALTHY once the hour holds more than
    # half the budget (burn > 0.5).
    ev = history(12, lambda i, r: "timeout" if idx(6) <= i < idx(7) and i % 5 == 0 else "success")
    slo = SLO(target=0.9, window="1h")
    rep = incident_report(ev, slo, at(6), at(7), context="2h",
                          policy=AlertPolicy.single_window("1h", 50.0))
    tr = transitions(replay(ev, slo))
    first = tr[tr["ts"] >= at(6)].iloc[0]
    assert str(first["to_status"]) == "warning"
    burn = first["failures"] / (first["total_events"] * 0.1)  # three digits, not the seed's 2
    assert (f"the 1 h tracker (target 90 %) went WARNING at {first['ts']:%H:%M} with 1 h burn "
            f"{burn:.3g}") in rep.summary
    row = rep.tracker.iloc[0]
    assert row["status_at_start"] == "healthy" and row["worst_status"] == "exhausted"
    assert row["transitions"] == len(tr[(tr["ts"] >= at(6)) & (tr["ts"] < at(7))])
    # hand: at 07:00 the hour holds 72 timeouts of 361 events -> burn 72 / 36.1 = 1.99
    assert row["peak_burn"] == pytest.approx(72 / (361 * (1 - 0.9)))
    # every change is caused by timeouts (without them nothing fails)
    assert rep.transitions["caused_by_timeouts"].all()
    every = "both" if row["transitions"] == 2 else f"all {row['transitions']}"  # never "3 of 3"
    assert (f"{every} of the tracker's status changes would not have happened") in rep.summary
    assert ("100 % of the failures were timeouts; without timeouts the success rate would have "
            "been 100.00 %") in rep.summary
    # budget: 72 failures in 360 events; 0.1 x 360 events an hour x 720 h in a 30 d period
    b = rep.budget.iloc[0]
    assert (b["events"], b["failures"]) == (360, 72)
    assert b["burn_rate"] == pytest.approx(72 / 36)
    # the period's budget is at the traffic of the whole log (whatever the 2 h context): 12 x
    # 360 = 4,320 events from 00:00:00 to 11:59:50, first to last event: 12 h - 10 s of time
    # with traffic, under the day a rate per day needs, so the table withholds the period's
    # figures (NaN, the note says why) and the sentence withholds the share
    assert b[["period_budget_pct", "period_budget", "period_events"]].isna().all()
    assert rep.budget.attrs["budget_note"] == (
        "period_budget_pct, period_budget and period_events withheld (the whole log's traffic "
        "in scope carried to the policy's period): only 11 h 59 min of sending time in the "
        "whole log in scope (4,320 events in it): too little for rates per day, which need at "
        "least 24 h (one day).")
    hours = 12 - 10 / 3600
    assert (b["log_events"], b["log_hours"], b["log_traffic_hours"]) == (
        4320, pytest.approx(hours), pytest.approx(hours))
    said = " ".join(rep.summary.split())
    assert ("Over its 1 h the incident saw 72 failures in 360 events (burn 2 over the "
            "incident); its share of a 30 d error budget is withheld, too thin to go by (that "
            "budget is the traffic of " + SPAN
            + " 2026-01-05 00:00 .. 11:59 UTC carried to 30 d, and a rate "
            "per day needs at least 24 h of sending time: the whole log in scope holds "
            "4,320 events in 11 h 59 min of sending time).") in said


def ten_minutes_of_failures(i, region):
    """06:00 .. 06:10 (60 events a region): every 5th event (from 06:00) a timeout, 12 in all; the
    events 1 after every 20th (06:00:10, 06:03:30, 06:06:50) solve errors, 3; else success."""
    if idx(6) <= i < idx(6, 10):
        if i % 5 == 0:
            return "timeout"
        if i % 20 == 1:
            return "solve_error"
    return "success"


def test_sentence_withholds_the_rate_without_timeouts_on_thin_evidence_by_the_buckets_rule():
    # by hand, 06:00 .. 06:10: 60 events, 15 failures (12 timeouts): success 45 / 60 = 75.00 %;
    # without timeouts 45 / 48 = 93.75 %. Under 80 % the 60 events hold 60 x 0.2 = 12 expected
    # failures (at least 10: said); under 90 %, 6 (fewer than 10: withheld, as the buckets
    # table's own note withholds its sli_without)
    ev = history(12, ten_minutes_of_failures)
    pol = AlertPolicy.single_window("1h", 50.0)
    kept = incident_report(ev, SLO(target=0.8, window="1h"), at(6), at(6, 10), policy=pol)
    assert ("80 % of the failures were timeouts; without timeouts the success rate would have "
            "been 93.75 % instead of 75.00 %.") in kept.summary
    assert (kept.buckets["note"] == "").all()
    thin = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(6, 10), policy=pol)
    assert ("80 % of the failures were timeouts; the success rate without timeouts is withheld "
            "(the incident's 60 events hold 6 expected failures under the target: too few for "
            "a verdict, one needs at least 10).") in thin.summary
    assert "93.75" not in thin.summary
    # the table's note: too few events (one needs 10 / 0.1 = 100), but 15 failures in 60 decide a
    # miss of 90 % (P(X >= 15 | 60, 0.1) = 0.00067 < 0.001, test_thin_miss's rule); its rate
    # without timeouts (45 / 48) stays no verdict, as the sentence says (WITHOUT_COLUMNS)
    assert (thin.buckets["note"] == "missed: 15 of 60 events failed (25.00 %); even with 60 "
            "events, a service at 90 % would fail this often with probability < 0.1 %").all()


def test_sentence_says_few_expected_failures_without_an_exponent():
    # the same 60 events under 99.9999 %: 60 x 0.000001 = 0.00006 expected failures (.3g wrote
    # 6e-05)
    ev = history(12, ten_minutes_of_failures)
    thin = incident_report(ev, SLO(target=0.999999, window="1h"), at(6), at(6, 10),
                           policy=AlertPolicy.single_window("1h", 50.0))
    # (said by the budget sentence: the rate without timeouts is given here, its 3 failures in
    # 48 events deciding a miss of 99.9999 % all the same)
    assert ("the incident's 60 events hold 0.00006 expected failures under the target, too few "
            "for a verdict") in " ".join(thin.summary.split())


def test_sentence_counts_the_expected_failures_of_every_group_under_its_own_target():
    # two regions, each as above: 120 events. One SLO of 90 %: 120 x 0.1 = 12 expected failures,
    # said (over both: 90 / 96 = 93.75 % instead of 90 / 120 = 75.00 %); fra at 90 % and ams at
    # 95 %: 60 x 0.1 + 60 x 0.05 = 9, withheld
    ev = history(12, ten_minutes_of_failures, regions=("fra", "ams"))
    pol = AlertPolicy.single_window("1h", 50.0)
    one = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(6, 10), by="region",
                          policy=pol)
    assert ("without timeouts (80 % of all failures) the success rate of both groups by region "
            "would have been 93.75 % "
            "instead of 75.00 %") in one.summary
    per = incident_report(ev, {"fra": SLO(target=0.9, window="1h"),
                               "ams": SLO(target=0.95, window="1h")},
                          at(6), at(6, 10), by="region", policy=pol)
    assert ("the success rate of both groups by region without timeouts (80 % of all failures) "
            "is withheld (the "
            "incident's 120 events hold 9 expected failures under the target: too few for a "
            "verdict, one needs at least 10)") in per.summary


def test_sentence_already_bad_at_start_and_no_failures_and_stayed_healthy():
    # every 4th event a solve error all day: burn 2.5 at target 0.9, EXHAUSTED long before 06:00
    ev = history(12, lambda i, r: "solve_error" if i % 4 == 0 else "success")
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(7),
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert "was already EXHAUSTED when the incident began and stayed so" in rep.summary
    assert "100 % of the failures were solve errors" in rep.summary
    assert "without timeouts" not in rep.summary  # there are none
    # no failure at all: HEALTHY throughout, and the no-failure sentence
    ok = history(12, lambda i, r: "success")
    rep = incident_report(ok, SLO(target=0.9, window="1h"), at(6), at(7),
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert "stayed HEALTHY throughout (at its events: peak 1 h burn 0 at " in rep.summary
    assert "There were no failures during the incident." in rep.summary
    # its threshold 50 x (1 - 0.9) = 5 is no error ratio: said, never "peaked at 0"
    assert ("The single_window policy would not have paged and no other tier fired; page_1h can "
            "never fire at target 0.9: it needs an error ratio above 50 x (1 - 0.9) = 5,") in (
        " ".join(rep.summary.split()))


@pytest.mark.parametrize(("freq", "every"), [("1min", "every minute"), ("5min", "every 5 min")])
def test_the_two_peak_burns_say_what_they_are_measured_on(freq, every):
    # The tracker recomputes its 1 h burn at every event, the policy at the end of every bin.
    # Events: 00:00:00, 00:00:10, 01:00:00, 01:00:10 ok, 01:00:50 failed, 02:00:30 ok; target 0.9.
    # Tracker at 01:00:50: [00:00:50, 01:00:50] holds 3 events, 1 failure: burn 1 / 0.3 = 3.33;
    # at 02:00:30: [01:00:30, 02:00:30] holds the failure and 02:00:30: burn 1 / 0.2 = 5.
    # Burns in words to three significant digits: 5 and 3.33.
    # Policy: the 1 h window at a bin end e holds the bins in [e - 1 h, e): at 01:01 (01:05) the
    # three events of 01:00 (3.33), from 02:01 (02:05) only 02:00:30 (0): its peak is 3.33.
    sec = [0, 10, 3600, 3610, 3650, 7230]
    ev = as_events([T0 + pd.Timedelta(seconds=x) for x in sec], [True] * 4 + [False, True])
    rep = incident_report(ev, SLO(target=0.9, window="1h"), T0 + pd.Timedelta(hours=1),
                          T0 + pd.Timedelta(hours=3), context="1h", freq=freq,
                          policy=AlertPolicy.single_window("1h", 9.0))  # 0.9 x 0.1: in reach
    flat = " ".join(rep.summary.split())
    # on the window's clock (the figure's) 01:00:10 leaves at 02:00:10: until 02:00:30 the window
    # holds the failure alone, burn 1 / 0.1 = 10, success 0 %: said beside (stop 62)
    assert ("(at its events: peak 1 h burn 5 at 02:00, lowest 1 h success 50.00 %; held on the "
            "window's clock, as the figure draws it: peak 1 h burn 10 from 02:00, lowest 1 h "
            "success 0.00 %)") in flat
    # the log ends at 02:00:30, inside the incident: the policy is read up to its bin's end
    assert (f"(page_1h's 1 h burn, evaluated {every} up to the data's end at 02:00, peaked at "
            "3.33, its threshold is 9)") in flat
    assert rep.freq == pd.Timedelta(freq)


def test_sentence_paged_at_and_caused_by_timeouts():
    # 06:00-06:30 every other event times out: the 5-minute burn (target 0.9) is 5 from about
    # 06:05 on; a page tier at burn 3 over 5 min fires at the first evaluation above 30 %
    ev = history(12, lambda i, r: "timeout" if idx(6) <= i < idx(6,
                                                                 30) and i % 2 == 1 else "success")
    pol = AlertPolicy.single_window("5min", 3.0)
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(6, 30), policy=pol)
    ep = alert_episodes(bin_events(ev, "1min"), 0.9, pol)
    first = ep[ep["end"] > at(6)].iloc[0]
    delay = (first["start"] - at(6)).total_seconds() / 60
    assert delay == int(delay) < 60  # whole minutes under an hour: spelled "<m> min"
    assert (f"would have paged at {first['start']:%H:%M}, {int(delay)} min after the start "
            "(page_5m)") in rep.summary
    assert "timeouts alone caused the page" in rep.summary
    t = rep.tiers.iloc[0]
    assert bool(t["fired"]) and t["first_alert"] == first["start"] and bool(t["caused_by_timeouts"])


def test_sentence_not_paged_but_ticket_and_already_firing():
    # 10 % solve errors all along (burn 1 at 0.9... exactly the ticket threshold is avoided: 12.5 %)
    ev = history(12, lambda i, r: "solve_error" if i % 8 == 0 else "success")
    # page_5m's threshold 9 x 0.1 = 0.9: an error ratio can reach it (50 x 0.1 = 5 could not)
    pol = AlertPolicy((AlertTier("page_5m", "page", "5min", None, 9.0),
                       AlertTier("ticket_1h", "ticket", "1h", None, 1.0)), name="mine")
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(7), policy=pol)
    assert ("The mine policy would not have paged (page_5m's 5 min burn, evaluated every minute, "
            "peaked at") in " ".join(rep.summary.split())
    # the log starts at 00:00: the 1 h tier is evaluated from 01:00, its first window after the
    # data's start (12.5 % errors over 1 h: burn 1.25 > 1), its alerts replayed from there (the
    # whole replay's alert began at 00:01 on a window holding 1 min of data): it fires at that
    # first evaluation, so it may have fired earlier
    assert rep.alerts.loc[rep.alerts["tier"] == "ticket_1h", "start"].min() == at(1, 0)
    assert ("its ticket_1h tier would have raised a ticket already at the start (firing since "
            "01:00; it may have fired earlier, its condition holding from its first evaluation "
            "after the data's start)") in " ".join(rep.summary.split())
    # a ticket that starts during the incident: failures only from 06:00
    ev = history(12, lambda i, r: "solve_error" if i >= idx(6) and i % 8 == 0 else "success")
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(8), policy=pol)
    t = rep.tiers.set_index("tier").loc["ticket_1h"]
    assert bool(t["fired"]) and t["first_alert"] > at(6)
    delay = t["detection_delay"].total_seconds() / 60
    assert delay == int(delay) < 60  # whole minutes under an hour: spelled "<m> min"
    assert (f"its ticket_1h tier would have raised a ticket at {t['first_alert']:%H:%M}, "
            f"{int(delay)} min after the start") in rep.summary


def test_elapsed_times_are_spelled_in_hours_and_minutes():
    # One event a minute; 10:00-11:00 every other event (the odd minutes) times out. A ticket at
    # burn 2.9 over 1 h (target 0.9) needs an error ratio above 0.29 at a 1 min evaluation: at 10:35
    # the hour [09:35, 10:35) holds the timeouts of 10:01 .. 10:33, 17 of 60 (0.283); at 10:36 18
    # of 60 (0.30): it fires at 10:36. The incident 05:00-11:10: 5 h 36 min after its start, a span
    # of 6 h 10 min with 370 events and the 30 timeouts (allowed 37: burn 30 / 37 = 0.811).
    ts = pd.date_range("2026-01-01", periods=24 * 60, freq="1min", tz="UTC")
    ok = [not (600 <= i < 660 and i % 2) for i in range(len(ts))]
    ev = as_events(ts, ok, ["success" if o else "timeout" for o in ok])
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-01-01 05:00",
                          "2026-01-01 11:10", policy=AlertPolicy.single_window("1h", 2.9,
                                                                               severity="ticket"))
    flat = " ".join(rep.summary.split())
    assert "would have fired ticket_1h (ticket) at 10:36, 5 h 36 min after the start." in flat
    assert ("Over its 6 h 10 min the incident saw 30 failures in 370 events (burn 0.811 over the "
            "incident)") in flat


def test_grouped_report_names_the_worst_group_and_the_others():
    # fra fails 20 % from 06:00, ams 8 % (burn 0.8: WARNING) from 06:00
    def fail(i, region):
        if i < idx(6):
            return "success"
        k = 5 if region == "fra" else 12
        return "timeout" if i % k == 0 else "success"

    ev = history(10, fail, regions=("fra", "ams"))
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(8), by="region",
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.tracker["region"].tolist()[0] == "fra"  # the worst group leads
    assert "the 1 h tracker for region=fra (target 90 %)" in rep.summary
    assert "1 other group also left HEALTHY" in rep.summary
    assert set(rep.budget["region"]) == {"fra", "ams"}
    top = rep.buckets.sort_values("failures").iloc[-1]
    assert (top["region"], top["bucket"]) == ("fra", "timeout")
    # fra fails by timeouts only: all of its own failures
    assert (f"{top['share_of_all_failures'] * 100:.0f} % of the failures of both groups by region "
            "were timeouts in fra (100 % of fra's failures)") in rep.summary


def test_another_group_below_healthy_throughout_is_not_said_to_have_left_it():
    # fra fails 20 % from 06:00 (it leaves HEALTHY); ams fails every 12th event from the log's
    # start: each 1 h window holds 360 of its events and exactly 30 failures (burn 30 / 36 =
    # 0.833, 16.7 % of the budget left: WARNING, under 50 %, not under 10 %) at every event.
    # ams was WARNING when the incident began and at every event of it: it never was HEALTHY.
    def fail(i, region):
        if region == "ams":
            return "timeout" if i % 12 == 0 else "success"
        return "timeout" if i >= idx(6) and i % 5 == 0 else "success"

    ev = history(10, fail, regions=("fra", "ams"))
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(8), by="region",
                          policy=AlertPolicy.single_window("1h", 50.0))
    ams = rep.tracker.set_index("region").loc["ams"]
    assert (ams["status_at_start"], ams["worst_status"], int(ams["transitions"])) == (
        "warning", "warning", 0)
    flat = " ".join(rep.summary.split())
    assert "left HEALTHY" not in flat
    assert "; 1 other group was already WARNING when the incident began and stayed so." in flat


# ------------------------------------------------------------------------------------------------
# time zones, history, errors, plot


def test_times_naive_in_tz_or_aware_and_history_note():
    ev = history(12, lambda i, r: "timeout" if i % 50 == 0 else "success")
    slo = SLO(target=0.9, window="1h")
    rep = incident_report(ev, slo, "2026-01-05 07:00", "2026-01-05 08:00", tz="Europe/Berlin",
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.start == at(6) and rep.end == at(7)  # 07:00 CET is 06:00 UTC
    assert rep.summary.startswith("Between 07:00 and 08:00 CET on 2026-01-05")
    # across midnight every time carries its date (was "Between 23:30 and 2026-10-08 03:30 UTC on
    # 2026-10-07")
    from budgetlab.analyses.incident_text import between
    assert between(pd.Timestamp("2026-10-07 23:30", tz="UTC"), pd.Timestamp("2026-10-08 03:30",
                                                                            tz="UTC"), "UTC") \
        == "Between 23:30 on 2026-10-07 and 03:30 on 2026-10-08 UTC"
    same = incident_report(ev, slo, at(6), at(7).tz_convert("Asia/Tokyo"), tz="Europe/Berlin",
                           policy=AlertPolicy.single_window("1h", 50.0))
    assert same.summary == rep.summary
    # the workbook's 3-day window needs more history than 12 h of data: a note says so
    rep = incident_report(ev, slo, at(6), at(7))
    assert any("3 d of history the longest window needs" in n for n in rep.notes)
    assert isinstance(rep, IncidentReport) and "IncidentReport(" in repr(rep)


def test_period_budget_uses_the_span_the_data_cover():
    # 36 h of data at 360 events an hour; the window reaches past the data's end: the average
    # traffic is taken over the span the events cover, not the window
    ev = history(36, lambda i, r: "timeout" if idx(30) <= i < idx(31) and i % 5 == 0
                 else "success")
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(33), at(34),
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.window_end > ev["ts"].iloc[-1]
    assert rep.budget["failures"].sum() == 0
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(30), at(31), context="1D",
                          policy=AlertPolicy.single_window("1h", 50.0))
    # the whole log, whatever the context: its first event (00:00:00) to its last (35:59:50),
    # 36 h - 10 s over a day, holding 36 x 360 = 12,960 events; the incident's 72 timeouts of a
    # 30 d budget of 0.1 x 12,960 x 30 d / (36 h - 10 s) (before: the replayed span from 05:00
    # on day 2, 11,160 events in 31 h - 10 s)
    b = rep.budget.iloc[0]
    assert (b["log_events"], b["log_hours"]) == (12_960, (36 * 3600 - 10) / 3600)
    per_period = 12_960 * (30 * 86400) / (36 * 3600 - 10)
    assert b["period_events"] == pytest.approx(per_period, rel=1e-9)
    assert b["period_budget"] == pytest.approx(0.1 * per_period, rel=1e-9)
    assert b["period_budget_pct"] == pytest.approx(100 * 72 / (0.1 * per_period), rel=1e-9)
    assert rep.budget.attrs["budget_note"] == ""
    # the same incident with 12 h of data: 00:00:00 to 11:59:50 replayed, under a day: withheld
    ev = history(12, lambda i, r: "timeout" if idx(6) <= i < idx(7) and i % 5 == 0 else "success")
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(7), context="5h30min",
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert np.isnan(rep.budget["period_budget_pct"].iloc[0])
    assert ("only 11 h 59 min of sending time in the whole log in scope (4,320 events in it)"
            in rep.budget.attrs["budget_note"])


def test_errors():
    ev = history(2, lambda i, r: "success")
    slo = SLO(target=0.9, window="1h")
    with pytest.raises(ConfigError, match="after start"):
        incident_report(ev, slo, at(1), at(1))
    with pytest.raises(ConfigError, match="time zone"):
        incident_report(ev, slo, at(0), at(1), tz="Mars/Olympus")
    with pytest.raises(ConfigError, match="not a time"):
        incident_report(ev, slo, "yesterday-ish", at(1))
    with pytest.raises(SchemaError, match="sitekey"):
        incident_report(ev, slo, at(0), at(1), scope="sitekey=sk_1")
    with pytest.raises(InputError, match=r"no traffic in the report window \(.*\): the log ends"):
        incident_report(ev, slo, at(30), at(31), context=0)
    with pytest.raises(InputError, match="no events in scope 'region=ber' at all; check the sc"):
        incident_report(ev, slo, at(0), at(1), scope="region=ber")
    with pytest.raises(ConfigError, match="AlertPolicy"):
        # preset names ("workbook") are accepted
        incident_report(ev, slo, at(0), at(1), policy="nope")
    # the workbook's 30-day windows in minutes: 60, 5, 360, 30, 1440, 120, 4320; gcd 5. Named
    # by the keyword the report takes (it bins the events itself), never as "window=1h"
    with pytest.raises(ConfigError, match=r"bins of 7 min do not divide the 1 h window of the "
                       r"workbook policy's page_1h tier .* e\.g\. freq='5m'\.$"):
        incident_report(ev, slo, at(0), at(1), freq="7min")
    assert incident_report(ev, slo, at(0), at(1), freq="5m").freq == pd.Timedelta("5min")


def test_plot_and_save(tmp_path):
    ev = history(10, lambda i, r: "timeout" if idx(6) <= i < idx(7) and i % 5 == 0 else "success",
                 regions=("fra", "ams"))
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(7), by="region",
                          policy=AlertPolicy.single_window("1h", 1.5), context="1h")
    fig = rep.plot()
    timeline, alerts, buckets = fig.axes[:3]
    focus = rep.focus()
    line = next(x for x in timeline.get_lines() if x.get_gid() == "success_rate")
    # the line is drawn on the window's clock: at every point it draws, the success rate of the
    # focus group's 1 h window [t - 1 h, t] (an event leaves 1 ns after ts + window) counted by
    # brute force from the events
    x = pd.to_datetime(line.get_xdata()).tz_localize("UTC")
    mine = ev[ev["region"] == focus["region"]]
    t, ok = mine["ts"].to_numpy(), mine["ok"].to_numpy()
    expect = []
    for when in x.to_numpy():
        inside = (t >= when - np.timedelta64(1, "h")) & (t <= when)
        expect.append(100.0 * ok[inside].sum() / inside.sum())
    assert len(x) >= len(rep.states[rep.states["region"] == focus["region"]])
    np.testing.assert_allclose(line.get_ydata(), expect)
    labels = [c.get_label() for c in alerts.containers]
    # the focus group's one tier, named by the tier alone: the title names the group
    assert labels == ["page_1h"]
    assert fig.get_suptitle().endswith(f", region={focus['region']}")
    ep = rep.alerts[rep.alerts["region"] == focus["region"]]
    bars = alerts.containers[0].patches
    assert len(bars) == len(ep) > 0
    assert any(p.get_gid() == "bucket" for p in buckets.patches)
    plt.close(fig)
    path = rep.save(tmp_path / "incident.png")
    assert path.stat().st_size > 1000
    with pytest.raises(OutputExistsError):
        rep.save(tmp_path / "incident.png")
    rep.save(tmp_path / "incident.png", force=True)
    with pytest.raises(ConfigError, match="png"):
        rep.save(tmp_path / "incident.gif")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["incident.png"]
    assert plt.get_fignums() == []


def test_the_budget_sentence_weighs_each_group_by_its_own_target():
    # fra (target 0.99) never fails; ams (target 0.9) fails every 12th event from 06:00. Over
    # 06:00-08:00 each region has 720 events: ams 60 failures. By hand, the incident's burn is
    # 60 / (720 * 0.01 + 720 * 0.1) = 0.7576 (not 60 / (1440 * 0.01) = 4.17 with fra's target),
    # and over a 30 d period (360 events an hour per region, x 720) the allowed failures are
    # 0.01 * 360 * 720 + 0.1 * 360 * 720 = 28512: 60 of them is 0.2 %. The budget is carried from
    # the whole log, whatever the context: 34 x 360 = 12,240 events a region, fra's from
    # 00:00:00, ams's 1 s after each of fra's: each group's sending time is its first to its
    # last event, 00:00:00 .. 33:59:50 and 00:00:01 .. 33:59:51, 34 h - 10 s ("33 h 59 min"),
    # enough for a rate per day: 2 x 12,240 / (34 h - 10 s) x 24 = 2 x 8,640.7 = 17,281.4 events
    # a day. (Before, on the 1 h window's clock, fra's counted to the log's last event, ams's:
    # 34 h - 9 s, its window still holding its last event; 17,281.3 a day.)
    def fail(i, region):
        return "timeout" if region == "ams" and i >= idx(6) and i % 12 == 0 else "success"

    from budgetlab import PerGroup

    ev = history(34, fail, regions=("fra", "ams"))
    slos = PerGroup({"fra": SLO(target=0.99, window="1h"), "ams": SLO(target=0.9, window="1h")})
    rep = incident_report(ev, slos, at(6), at(8), by="region", context="1D",
                          policy=AlertPolicy.single_window("1h", 50.0))
    b = rep.budget.set_index("region")
    assert (b.loc["ams", "events"], b.loc["ams", "failures"], b.loc["fra", "failures"]) == (720, 60,
                                                                                            0)
    assert 60 / (720 * (1 - 0.99) + 720 * (1 - 0.9)) == pytest.approx(0.7576, abs=1e-4)
    fra, ams = (12_240 * 30 * 86400 / (34 * 3600 - s) for s in (10, 10))  # events in 30 d
    pct = 100 * 60 / ((1 - 0.99) * fra + (1 - 0.9) * ams)  # 60 / 28,514.3: 0.2104 %
    assert (fra + ams) / 30 == pytest.approx(17_281.4, abs=0.05)
    assert ("the incident saw 60 failures in 1,440 events of both groups by region (burn "
            "0.758 over the incident), "  # three significant digits
            f"{pct:.1f} % of a 30 d error budget at the traffic of " + SPAN
            + " 2026-01-05 00:00 .. "
            "2026-01-06 09:59 UTC (17,281 events a day over its 33 h 59 min of sending time, "
            "first to last event less gaps over 24 h).") in " ".join(rep.summary.split())
    assert b.loc["ams", "period_budget_pct"] == pytest.approx(100 * 60 / (0.1 * ams))  # 0.2315


def test_an_incident_after_a_silence_reads_the_window_s_clock():
    # one event a minute 00:00-01:59 (every 5th fails), silence, again 05:00-05:59; 1 h window.
    # The incident 03:30-05:30: the window emptied 1 ns after 02:59 (the 01:59 event left), so
    # at 03:30 there is no traffic (the per-event replay still shows the 01:59 status); empty
    # until the 05:00 event: 90 min of the incident.
    ts = pd.DatetimeIndex(list(pd.date_range("2026-01-05 00:00", periods=120, freq="1min",
                                             tz="UTC"))
                          + list(pd.date_range("2026-01-05 05:00", periods=60, freq="1min",
                                               tz="UTC")))
    ok = [i % 5 != 0 for i in range(len(ts))]
    ev = as_events(ts, ok)
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-01-05 03:30", "2026-01-05 05:30",
                          policy=AlertPolicy.single_window("1h", 50.0))
    row = rep.tracker.iloc[0]
    assert row["status_at_start"] == "no_traffic"
    assert row["hours_no_traffic"] == pytest.approx(1.5)
    assert "had no traffic when the incident began (its window was empty)" in rep.summary
    assert "its window was empty for 1 h 30 min of the incident" in rep.summary


def test_an_incident_inside_a_silence_says_where_the_log_is_silent():
    # events at 00:00, 00:01 and 05:00; the window 02:00-03:00 (context 30 min: 01:30-03:30) holds
    # none: the log is silent from its 00:01 event to its 05:00 event. With a 1 h window the
    # 00:01 failure left the tracker's window at 01:01 + 1 ns: no traffic, no status.
    ts = pd.DatetimeIndex(["2026-01-05 00:00", "2026-01-05 00:01", "2026-01-05 05:00"], tz="UTC")
    ev = as_events(ts, [True, False, True])
    slo = SLO(target=0.9, window="1h")
    msg = ("no traffic in the report window (2026-01-05 01:30:00 UTC to 2026-01-05 03:30:00 UTC, "
           "the incident and its context): the log is silent from 2026-01-05 00:01:00 UTC to "
           "2026-01-05 05:00:00 UTC, so there is nothing to report there; the tracker's window "
           "(1 h) was empty all that time (no traffic, no status). A report needs events in "
           "its window: move start=, end= or context= to traffic.")
    with pytest.raises(InputError) as err:
        incident_report(ev, slo, "2026-01-05 02:00", "2026-01-05 03:00", context="30min")
    assert str(err.value) == msg
    # a 3 h window still holds 00:00 (success) and 00:01 (failure) at 01:30: 1 failure of 2,
    # budget 0.2: exhausted; 00:01 is in it through 03:01, inside the report window
    with pytest.raises(InputError) as err:
        incident_report(ev, SLO(target=0.9, window="3h"), "2026-01-05 02:00", "2026-01-05 03:00",
                        context="30min")
    assert ("the tracker's window (3 h) still held earlier events through 2026-01-05 "
            "03:01:00 UTC, then no traffic; status at the window's start on the window's clock: "
            "exhausted.") in str(err.value)
    # per group (scope): fra's window holds its 00:00 success alone (healthy), ams its failure
    ev2 = as_events(ts, [True, False, True], groups={"region": ["fra", "ams", "fra"]})
    with pytest.raises(InputError) as err:
        incident_report(ev2, SLO(target=0.9, window="3h"), "2026-01-05 02:00",
                        "2026-01-05 03:00", context="30min", by="region")
    assert "window's clock: ams exhausted, fra healthy." in str(err.value)
    with pytest.raises(InputError, match="no traffic in scope 'region=ams' in the report window"):
        incident_report(ev2, SLO(target=0.9, window="3h"), "2026-01-05 02:00",
                        "2026-01-05 03:00", context="30min", by="region", scope="region=ams")
    with pytest.raises(InputError, match="the log begins at 2026-01-05 00:00:00 UTC, after the wi"):
        incident_report(ev, slo, "2026-01-04 20:00", "2026-01-04 21:00", context=0)


def test_a_status_held_for_one_instant_is_not_the_worst_status():
    # 1 h window, target 0.4 (budget 0.6 per event): warning from 00:30 (1 failure of 2); the
    # 01:00 failure arrives while 00:00 (a failure) is still in: 2 of 3, exhausted, for that
    # instant only (00:00 leaves 1 ns later: 1 of 2, warning). Over 00:45-01:10 the window's
    # clock shows warning throughout: the blip is no worst status (docs/conventions.md). The data
    # start at 00:00: the tracker is read from 01:00, its first window after them.
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:30", "2026-01-01 01:00",
                         "2026-01-01 01:20", "2026-01-01 02:00"], utc=True)
    ev = as_events(ts, [False, True, False, True, True])
    rep = incident_report(ev, SLO(target=0.4, window="1h"), "2026-01-01 00:45",
                          "2026-01-01 01:10", context=0)
    row = rep.tracker.iloc[0]
    assert [row["status_at_start"], row["worst_status"], row["status_at_end"]] == ["warning"] * 3
    assert row["worst_at"] == row["read_from"] == pd.Timestamp("2026-01-01 01:00", tz="UTC")


def test_a_log_without_any_failure_reports_and_draws(tmp_path):
    """Every label a success (read from a file, so 'success' is the only bucket): the report
    crashed in bucket_burn_over_time (no failure bucket to stack, an internal error on the
    command line). Now: no over_time rows, a summary with 0 failures, and a bucket panel that
    says so."""
    from budgetlab import bucket_burn_over_time, read_events

    log = tmp_path / "log.csv"
    ts = pd.date_range("2026-01-05", periods=600, freq="1min", tz="UTC")
    pd.DataFrame({"ts": ts, "outcome": "success"}).to_csv(log, index=False)
    events = read_events(log)
    assert list(events["bucket"].cat.categories) == ["success"]
    ot = bucket_burn_over_time(events, SLO(target=0.9), freq="1h")
    assert len(ot) == 0 and {"bin_start", "bucket", "events", "burn_rate"} <= set(ot.columns)
    rep = incident_report(events, SLO(target=0.9, window="1h"), "2026-01-05 04:00",
                          "2026-01-05 05:00")
    # under 90 % the 60 events hold 6 expected failures: the burn (0) is withheld with the share
    assert ("saw 0 failures in 60 events; its burn over the incident and its share of a 30 d "
            "error budget are withheld (the incident's 60 events hold 6 expected failures") in (
        " ".join(rep.summary.split()))
    fig = rep.plot()
    texts = [t.get_text() for ax in fig.axes for t in ax.texts if t.get_gid() == "no_failures"]
    assert texts == ["no failures in these bins"]
    plt.close(fig)


def test_repr_counts_in_words_and_names_the_window_it_counts():
    """It said "3 transitions, 1 alert episodes" beside a summary saying "changed status 2 times":
    the repr counted the report window (the incident and its context), unnamed, and no noun
    agreed with its count. One solve error at 06:00 in 360 events an hour, target 99.9 %,
    1 h window: burn 1 / (360 x 0.001) = 2.78, EXHAUSTED at 06:00 and HEALTHY again at the
    first event after the failure left, 07:00:10: two status changes in 05:00 .. 07:30. The
    1 h single-window tier at burn 2 fires from the 06:00 bin's end until the failure leaves
    its window: one episode."""
    ev = history(12, lambda i, r: "solve_error" if i == idx(6) else "success")
    rep = incident_report(ev, SLO(target=0.999, window="1h"), at(6), at(6, 30), context="1h",
                          policy=AlertPolicy.single_window("1h", 2.0))
    assert repr(rep).splitlines()[0] == (
        "IncidentReport(2026-01-05 06:00 UTC, 30 min; in the report window 2026-01-05 05:00 .. "
        "2026-01-05 07:30: 2 status changes, 1 alert episode)")


def test_a_change_at_the_incident_start_is_its_first_change_not_its_starting_status():
    """An incident that starts at a status change (the notebook's "the tracker's critical-or-worse
    episode around the alert" starts there) read "was EXHAUSTED when the incident began and went
    EXHAUSTED at 06:00": the start status included the change. Hand: 06:00 holds the only
    failure of 360 events an hour; before it the 1 h window held successes only (HEALTHY); at
    06:00 the window [05:00, 06:00] holds 361 events (an event at the cut-off stays): burn
    1 / (361 x 0.001) = 2.770 (said 2.77) > 1: EXHAUSTED."""
    ev = history(12, lambda i, r: "solve_error" if i == idx(6) else "success")
    rep = incident_report(ev, SLO(target=0.999, window="1h"), at(6), at(6, 30), context="1h")
    row = rep.tracker.iloc[0]
    assert (row["status_at_start"], row["first_change_from"], row["first_change_to"]) == (
        "healthy", "healthy", "exhausted")
    assert row["first_change_at"] == at(6)
    assert "when the incident began" not in rep.summary
    assert "the 1 h tracker (target 99.9 %) went EXHAUSTED at 06:00 with 1 h burn 2.77" in (
        rep.summary)


def test_excess_failures_at_the_allowance_are_zero_not_float_noise():
    # 200 events in the incident, 2 failures, at 99 %: the allowance is 200 x 0.01 = 2, so the
    # excess is 0 (1 - 0.99 in floats made it 2.0000000000000018 and the excess -1.8e-15)
    ts = pd.date_range("2026-11-05 00:00", periods=200, freq="1min", tz="UTC")
    ok = np.ones(200, dtype=bool)
    ok[[50, 150]] = False
    rep = incident_report(as_events(ts, ok), SLO(target=0.99, window="1h"), ts[0], ts[-1] +
                          pd.Timedelta("1min"), policy=AlertPolicy.single_window("1h", 50.0))
    assert int(rep.budget["events"].sum()) == 200 and int(rep.budget["failures"].sum()) == 2
    assert rep.budget["excess_failures"].tolist() == [0.0]


@pytest.mark.parametrize("one_group_at_a_time", [False, True])
def test_tier_peaks_per_group_equal_the_hourly_error_ratio(one_group_at_a_time, monkeypatch):
    # two regions, 12 h at one event per 10 s; fra fails every 4th event 06:00-06:30, ams every
    # 10th 06:10-06:20. The tier's 1 h burn at each minute's evaluation e is the failures over the
    # events in [e - 1 h, e) divided by the budget 0.1; its peak is the largest in (06:00, 07:00].
    if one_group_at_a_time:  # the states in chunks of one group (as with thousands of them)
        monkeypatch.setattr(incident_tables, "_STATES_BYTES_PER_CELL", 2**40)

    def fail_at(i, region):
        if region == "fra" and idx(6) <= i < idx(6, 30) and i % 4 == 0:
            return "timeout"
        if region == "ams" and idx(6, 10) <= i < idx(6, 20) and i % 10 == 0:
            return "timeout"
        return "success"

    ev = history(12, fail_at, regions=("fra", "ams"))
    rep = incident_report(ev, SLO(target=0.9, window="1h"), at(6), at(7), by="region",
                          policy=AlertPolicy.single_window("1h", 50.0))
    ts = ev["ts"].array.asi8
    for region in ("fra", "ams"):
        mine = (ev["region"] == region).to_numpy()
        bad = mine & ~ev["ok"].to_numpy()
        peak = 0.0
        for e in pd.date_range(at(6, 1), at(7), freq="1min").as_unit("ns").asi8:
            inside = (ts >= e - 3600 * 10**9) & (ts < e)
            peak = max(peak, (bad & inside).sum() / (mine & inside).sum() / 0.1)
        row = rep.tiers[rep.tiers["region"] == region].iloc[0]
        assert row["peak_burn_long"] == pytest.approx(peak, rel=1e-12), region
    assert sorted(rep.tiers["region"]) == ["ams", "fra"]  # one row per group (one tier)


def test_per_group_slos_put_a_group_without_traffic_last():
    # "quiet" has one event a minute 01:00-01:29 only (in the replay, which reads from 01:00: an
    # hour of history before the 02:00 window): its 1 h window empties 1 ns after 02:29, so
    # during the incident 03:00-04:00 it has no traffic throughout (worst status no_traffic);
    # "busy" fails every other event 03:00-03:59 (30 of 60 under 99 %: EXHAUSTED). The worst
    # group comes first (docs of IncidentReport.tracker), as with one SLO: no traffic is below
    # healthy, never above exhausted.
    from budgetlab import PerGroup

    quiet = pd.date_range("2026-01-05 01:00", periods=30, freq="1min", tz="UTC")
    busy = pd.date_range("2026-01-05 00:00", periods=360, freq="1min", tz="UTC")
    ts = pd.DatetimeIndex(list(quiet) + list(busy))
    ok = [True] * 30 + [not (180 <= i < 240 and i % 2) for i in range(360)]
    ev = as_events(ts, ok, groups={"kind": ["quiet"] * 30 + ["busy"] * 360})
    ev = ev.sort_values("ts", kind="stable").reset_index(drop=True)
    slos = PerGroup({"quiet": SLO(target=0.9, window="1h"), "busy": SLO(target=0.99, window="1h")})
    rep = incident_report(ev, slos, "2026-01-05 03:00", "2026-01-05 04:00", by="kind",
                          context="1h", policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.tracker["kind"].astype(str).tolist() == ["busy", "quiet"]
    assert rep.tracker["worst_status"].astype(str).tolist() == ["exhausted", "no_traffic"]
    assert rep.focus() == {"kind": "busy"}


def test_events_without_a_group_key_have_no_tracker_row_and_leave_the_others_alone():
    # every third event has no region: the groups never share a window, so region "a"'s tracker
    # row is the one of a report on its events alone (the oracle); the rows without a key form
    # no group of the tracker table (as pandas' groupby leaves missing keys out)
    ts = pd.date_range("2026-01-05 00:00", periods=360, freq="1min", tz="UTC")
    ok = [not (180 <= i < 240 and i % 2) for i in range(360)]
    region = [None if i % 3 == 0 else "a" for i in range(360)]
    ev = as_events(ts, ok, groups={"region": region})
    slo, pol = SLO(target=0.99, window="1h"), AlertPolicy.single_window("1h", 50.0)
    rep = incident_report(ev, slo, "2026-01-05 03:00", "2026-01-05 04:00", by="region",
                          context="1h", policy=pol)
    alone = ev[ev["region"].notna().to_numpy()].reset_index(drop=True)
    ref = incident_report(alone, slo, "2026-01-05 03:00", "2026-01-05 04:00", by="region",
                          context="1h", policy=pol)
    assert rep.tracker["region"].tolist() == ["a"]
    pd.testing.assert_frame_equal(rep.tracker, ref.tracker)
