"""compare_windows withholds every figure read off the status (time shares, status changes and
their rates, detections) of a row whose evaluated span holds no event of its group: the window
then held only events of a warm-up, and the figures would describe those (``recalibrate`` gives
such a group no verdict). Before, such a row had shares and ``detected 2`` however long its
evaluated time (``hcaptcha 7 d: events 0, hours 38.00, share_exhausted 100.0 %``).

Incidents whose scope names keys that are not ``by`` keys, or that match no group, are said in
a warning, in the words of the alert scoring (``alerts`` and ``score_alerts``).

Hand-computed case (7 d window, target 0.9): group ``thin`` has a failure at D0 00:00 and a
success at D6 00:00; group ``busy`` a success at D0 00:30 and one every hour from D0 01:00 to
D8 23:00, the log's last event. ``thin``: one stretch of traffic from D0 (the window holds D6's
event until D13), its warm-up D0 .. D7; evaluated from D7 to D8 23:00: 47 h, no event in it.
``busy``: warm-up D0 00:30 .. D7 00:30, then the events D7 01:00 .. D8 23:00: 23 + 24 = 47.
Incident ``i`` (scope ``*``) D0 00:00 .. 01:00: the failure makes ``thin`` exhausted at once
(a detection inside its warm-up, withheld); ``busy`` never fails: missed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows
from budgetlab.errors import BudgetlabWarning

D0 = pd.Timestamp("2026-03-02", tz="UTC")
WITHHELD = ["share_healthy", "share_warning", "share_critical", "share_exhausted",
            "hours_exhausted", "transitions", "transitions_per_day", "round_trips",
            "round_trips_per_day", "detected", "missed", "unseen", "unrecovered"]


def _events(region: bool = False) -> pd.DataFrame:
    thin = [D0, D0 + pd.Timedelta(days=6)]
    busy = [D0 + pd.Timedelta(minutes=30),
            *(D0 + pd.Timedelta(hours=1) + pd.to_timedelta(np.arange(9 * 24 - 1), unit="h"))]
    groups = {"g": np.array(["thin"] * 2 + ["busy"] * len(busy))}
    if region:
        groups["region"] = np.array(["fra"] * 2 + ["ams"] * len(busy))
    return as_events([*thin, *busy], [False, True] + [True] * len(busy), groups=groups)


def _incidents(scope: str = "*") -> pd.DataFrame:
    return pd.DataFrame({"incident_id": ["i"], "scope": [scope], "start": [D0],
                         "end": [D0 + pd.Timedelta(hours=1)]})


def test_a_row_without_an_event_in_its_evaluated_span_has_its_status_figures_withheld():
    t = compare_windows(_events(), SLO(target=0.9), "7D", incidents=_incidents(),
                        by="g").set_index("g")
    thin, busy = t.loc["thin"], t.loc["busy"]
    assert thin["events"] == 0 and thin["hours"] == pytest.approx(47.0, rel=1e-9)
    assert thin["incidents"] == 1  # in scope: still counted
    assert thin[WITHHELD].isna().all()  # NaN, <NA> (a count) and NaT
    assert thin[["detection_median", "recovery_median"]].isna().all()
    assert thin["note"] == (
        "0 events in the evaluated span: for its 47 h of evaluated time the window held only "
        "events of a warm-up (the first 7 d of a stretch of traffic, which only fills the "
        "window); no time shares, status changes, rates per day or detections without an event "
        "in it")
    # busy has its events and its figures: 47 h of evaluated time, all healthy, the incident
    # seen (the window held traffic) and missed
    assert busy["events"] == 47 and busy["hours"] == pytest.approx(46.5, rel=1e-9)
    assert busy["share_healthy"] == 1.0 and busy["transitions"] == 0
    assert (busy["detected"], busy["missed"], busy["unseen"]) == (0, 1, 0)
    # since stop 59 its shares are too thin for the target, as buckets and recalibrate say:
    # 47 events x (1 - 0.9) = 4.7 expected failures, under 10
    assert busy["note"] == ("47 events in the evaluated span: too few for a verdict (under 90 % "
                            "they hold 4.7 expected failures; one needs at least 10, i.e. 100 "
                            "events)")


def test_a_scope_key_that_is_not_a_by_key_is_said_as_alerts_says_it():
    # region=ams: busy's region, but region is not a by key: it restricts nothing, the incident
    # counts for both groups (the rule of the alert scoring), and a warning says so
    with pytest.warns(BudgetlabWarning) as said:
        t = compare_windows(_events(region=True), SLO(target=0.9), "7D",
                            incidents=_incidents("region=ams"), by="g").set_index("g")
    assert [str(w.message) for w in said] == [
        "incident scopes name region, not a by= key: it does not restrict which groups an "
        "incident counts for; give by=['g', 'region'] to match each incident to its own groups "
        "only."]
    assert t["incidents"].to_dict() == {"busy": 1, "thin": 1}
    # by both keys, it counts for busy only, without a word
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        both = compare_windows(_events(region=True), SLO(target=0.9), "7D",
                               incidents=_incidents("region=ams"), by=["g", "region"])
    assert both.set_index("g")["incidents"].to_dict() == {"busy": 1, "thin": 0}
