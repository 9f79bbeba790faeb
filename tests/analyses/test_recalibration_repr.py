"""The repr of a Recalibration: what was evaluated (groups, window, span), one line per group, the
tables' sizes; never the tables themselves (a notebook cell ending in ``r`` printed all four, a
thousand rows), never ``nan``."""

from __future__ import annotations

import pandas as pd

from budgetlab import as_events, datasets, recalibrate


def test_repr_of_a_withheld_group_says_why_in_words():
    # three events at 16:49:07, 17:10, 17:36 (gaps over 10 min): each is the first event of its own
    # stretch of traffic, whose first 10 min window is warm-up, so no event is evaluated; the span
    # is the first event + 10 min .. the last event
    ts = pd.to_datetime(["2016-10-30 16:49:07", "2016-10-30 17:10:00", "2016-10-30 17:36:00"],
                        utc=True)
    r = recalibrate(as_events(ts, [True, False, True]), window="10min", target=0.9)
    assert repr(r) == (
        "Recalibration of 1 group, 10 min window, evaluated 2016-10-30 16:59 .. 2016-10-30 17:36 "
        "UTC\n"
        "  all events: 0 events in the evaluated span: all 3 of the group's events fell within a "
        "warm-up (the first 10 min of a stretch of traffic, which only fills the window); no "
        "verdict and no recommendation without events after it\n"
        f"Tables: summary (1 row), candidates (1 row), distribution ({len(r.distribution)} rows), "
        "bootstrap (200 rows); settings.")


def test_repr_names_each_group_with_its_action_and_rule():
    events = datasets.load("demo")  # 2026-10-06 00:00:06 .. 2026-10-08 23:59:53
    r = recalibrate(events, by=["captcha_type", "region"], window="24h",
                    target={"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.88})
    lines = repr(r).splitlines()
    assert lines[0] == ("Recalibration of 6 groups by captcha_type and region, 24 h window, "
                        "evaluated 2026-10-07 00:00 .. 2026-10-08 23:59 UTC")
    assert len(lines) == 1 + 6 + 1 and "nan" not in repr(r).lower()
    for line, (_, row) in zip(lines[1:7], r.summary.iterrows(), strict=True):
        assert line.startswith(f"  captcha_type={row['captcha_type']}, region={row['region']}: "
                               f"{row['action']} (the rule's target {row['recommended_target']:g}, "
                               "bootstrap interval ")
    # 105 quantile levels and 200 bootstrap samples per group
    assert lines[-1] == (f"Tables: summary (6 rows), candidates ({len(r.candidates)} rows), "
                         "distribution (630 rows), bootstrap (1,200 rows); settings.")
