"""The incident summary speaks first of the group with the evidence (on-call lead, stop 62: it led
with captcha_type=image, region=fra, EXHAUSTED on 13 events in its 24 h window, 0.65 expected
failures, and named its page first, while the 270-event outage in the other groups of fra came
second). The rule is the one that withholds the budget share: fewer events than hold 10 expected
failures under the target are too few for a verdict, unless the failures decide a miss.

Oracle: the log below, counted by hand (target 90 %, 1 h window: 10 expected failures need 100
events).

* ``busy``: one success every 30 s at :15 and :45 from 08:30:15 to 10:59:45, and one failure at
  10:00:20, 10:01:20, ..., 10:07:20 (8). At 10:05:20 its window (09:05:20, 10:05:20] holds 120
  grid events and 6 failures: 126, remaining (12.6 - 6) / 12.6 = 0.524, HEALTHY; at 10:06:20 it
  holds 120 + 7 = 127 with 7 failures: remaining (12.7 - 7) / 12.7 = 0.449 < 0.5, WARNING, burn
  7 / 12.7 = 0.551, success 120 / 127 = 94.49 %. Its peak at events: 10:07:20, 128 events, 8
  failures, burn 8 / 12.8 = 0.625 (128 events hold 12.8 expected failures: enough).
* ``thin``: a success at 09:50:00 and a failure at 10:05:00: at 10:05 its window holds 2 events, 1
  failure: burn 1 / 0.2 = 5, EXHAUSTED; 2 events hold 0.2 expected failures (one needs 100 events),
  and P(1 or more failures in 2 at 10 %) = 0.19 decides nothing. Its 1 h burn at the 10:06
  evaluation (end of the 10:05 bin) is 5, over the page threshold 4; busy's never is (0.625).
"""

from __future__ import annotations

import pandas as pd

import budgetlab as bl

T = pd.Timestamp


def _log(thin_too: bool = True) -> pd.DataFrame:
    grid = pd.date_range("2026-01-01 08:30:15", "2026-01-01 10:59:45", freq="30s", tz="UTC")
    bad = pd.date_range("2026-01-01 10:00:20", periods=8, freq="1min", tz="UTC")
    rows = [(t, True, "busy") for t in grid] + [(t, False, "busy") for t in bad]
    if thin_too:
        rows += [(T("2026-01-01 09:50", tz="UTC"), True, "thin"),
                 (T("2026-01-01 10:05", tz="UTC"), False, "thin")]
    rows.sort(key=lambda r: r[0])
    ts, ok, g = zip(*rows, strict=True)
    return bl.as_events(pd.DatetimeIndex(ts), list(ok), groups={"g": g})


SLO = bl.SLO(target=0.9, window="1h")
THIN = ("2 events in its window at its peak burn: too few for a verdict (under 90 % they hold 0.2 "
        "expected failures; one needs at least 10, i.e. 100 events)")


def _report() -> bl.IncidentReport:
    return bl.incident_report(_log(), SLO, "2026-01-01 10:00", "2026-01-01 10:30", by="g",
                              context="1h", policy=bl.AlertPolicy.single_window("1h", 4.0))


def test_the_summary_leads_with_the_group_with_the_evidence() -> None:
    rep = _report()
    said = " ".join(rep.summary.split())
    assert rep.focus() == {"g": "busy"}
    assert said.startswith("Between 10:00 and 10:30 UTC on 2026-01-01, the 1 h tracker for g=busy "
                           "(target 90 %) went WARNING at 10:06 with 1 h burn 0.551 (1 h success "
                           "94.49 %)")
    assert "peak 1 h burn 0.625 at 10:07" in said
    assert int(rep.tracker.set_index("g").loc["busy", "peak_burn_events"]) == 128
    assert int(rep.tracker.set_index("g").loc["thin", "peak_burn_events"]) == 2


def test_a_thin_groups_status_and_page_come_with_their_counts() -> None:
    said = " ".join(_report().summary.split())
    assert (f"The tracker for g=thin reached EXHAUSTED at 10:05 and would have paged at 10:06 "
            f"(page_1h), but on {THIN}.") in said
    # its 1 h window holds the 10:05 failure until 11:05, after the log's last event (10:59:45)
    assert ("would have paged for g=thin at 10:06, 6 min after the start (page_1h), still firing "
            "at the log's end, on 2 events in its window at its peak burn: too few for a "
            "verdict") in said


def test_every_group_thin_is_said() -> None:
    # a 10 min window: busy's holds at most 20 grid events and 8 failures at its peak (10:07:20,
    # (09:57:20, 10:07:20]: 20 + 8 = 28 events, 2.8 expected failures, P(8 or more failures in
    # 28 at 10 %) = 0.0050 > 0.001, decides nothing): every group is thin
    rep = bl.incident_report(_log(), bl.SLO(target=0.9, window="10min"), "2026-01-01 10:00",
                             "2026-01-01 10:30", by="g", context="1h",
                             policy=bl.AlertPolicy.single_window("1h", 4.0))
    said = " ".join(rep.summary.split())
    assert ("its figures rest on 28 events in its window at its peak burn: too few for a verdict "
            "(under 90 % they hold 2.8 expected failures; one needs at least 10, i.e. 100 events); "
            "so do every other group's: no group's window held enough events for a verdict") in said


def test_the_figure_keys_the_incident_and_says_what_its_bucket_panel_counts() -> None:
    # on-call lead, stop 62: with start/end alone the shaded incident had no key, and the bucket
    # panel counted every group of the scope (both here: 9 failures, 8 busy's and 1 thin's)
    # under a title and a timeline of one group
    import matplotlib.pyplot as plt

    fig = _report().plot()
    fig.canvas.draw()
    try:
        texts = [t.get_text() for ax in fig.axes if ax.get_legend() is not None
                 for t in ax.get_legend().get_texts()]
        # keyed in the timeline's legend, the alert panel's and the bucket panel's (shaded there
        # too), each its own legend
        assert texts.count("incident") == 3
        buckets = [ax for ax in fig.axes if ax.get_ylabel().startswith("burn rate per")]
        assert len(buckets) == 1
        assert buckets[0].get_legend().get_title().get_text() == "every group,\nby g"
        assert fig.texts[0].get_text().endswith("g=busy")  # the title's group: the focus
    finally:
        plt.close(fig)


def test_the_text_says_the_peak_the_figure_holds_beside_the_one_at_events() -> None:
    # on-call lead, stop 62: "peak 24 h burn 1.54 at 14:17" (read at the instant of the event,
    # the event exactly 24 h earlier still in its window) while the figure held 1.67 from then.
    # By hand (target 90 %, 1 h window): successes at 08:00, 09:00, 10:20, 11:30, a failure at
    # 10:00. At 10:00 the window [09:00, 10:00] holds 2 events, 1 failure: burn 1 / 0.2 = 5,
    # success 50 %; from the instant after, 09:00 gone: 1 event, 1 failure, burn 10, success 0 %,
    # held until 10:20 (2 events again: burn 5).
    ts = pd.DatetimeIndex(["2026-01-01 08:00", "2026-01-01 09:00", "2026-01-01 10:00",
                           "2026-01-01 10:20", "2026-01-01 11:30"], tz="UTC")
    rep = bl.incident_report(bl.as_events(ts, [True, True, False, True, True]),
                             bl.SLO(target=0.9, window="1h"), "2026-01-01 10:00",
                             "2026-01-01 10:30")
    said = " ".join(rep.summary.split())
    assert ("(at its events: peak 1 h burn 5 at 10:00, lowest 1 h success 50.00 %; held on the "
            "window's clock, as the figure draws it: peak 1 h burn 10 from 10:00, lowest 1 h "
            "success 0.00 %)") in said
