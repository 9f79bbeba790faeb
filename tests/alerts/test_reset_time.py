"""Reset time: from an incident's end to the end of the last alert that detected it. Negative
when the alert stopped first (it went quiet while the incident was still on); withheld (NaT,
"still firing" on the command line) when that alert still fired at the last evaluation: its
``end`` is where the evaluation stopped, not a reset (the demo printed reset_median 20 h 31 min
for alerts that never stopped). Figures by hand."""

from __future__ import annotations

import pandas as pd

from budgetlab._util.words import duration_words
from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import incident_detections, score_alerts
from budgetlab.cli.score_text import score_text
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events


def _incidents(*spans: tuple[str, str]) -> pd.DataFrame:
    return pd.DataFrame({"incident_id": [f"i{k}" for k in range(len(spans))],
                         "scope": ["*"] * len(spans),
                         "start": pd.to_datetime([s for s, _ in spans], utc=True),
                         "end": pd.to_datetime([e for _, e in spans], utc=True)})


def test_an_alert_that_stopped_before_the_incident_ended_has_a_negative_reset():
    # the alert fires 10:05-10:20, the incident runs 10:00-11:00: it went quiet 40 min early
    ep = pd.DataFrame({"tier": pd.Categorical(["page_1h"]), "severity": ["page"],
                       "start": pd.to_datetime(["2026-01-01 10:05"], utc=True),
                       "end": pd.to_datetime(["2026-01-01 10:20"], utc=True),
                       "ongoing": [False]})
    inc = _incidents(("2026-01-01 10:00", "2026-01-01 11:00"))
    s = score_alerts(ep, inc, grace="0s", filling="count")
    assert s.loc[0, "reset_median"] == pd.Timedelta("-40min")
    assert incident_detections(ep, inc, grace="0s", filling="count").loc[0, "reset_time"] == \
        pd.Timedelta("-40min")
    # on the command line in words, never pandas' "-1 days +23:20:00"
    said = score_text(s.iloc[[0]], duration_words)
    assert "-40 min" in said and "-1 days" not in said


def _fires_to_the_end() -> tuple[pd.DataFrame, pd.DataFrame]:
    """One event a minute for 3 h, all failing from 01:00 on: a 10 min window at burn 10 of a
    99 % target (threshold 10 x 1 % = 10 %, strictly above) fires from 01:02 (2 of the window's 10
    events failing; at 01:01 1 of 10 is 10 %, not above) to the end: evaluated at every bin end,
    the last at 03:00, the episode ends one step after it, 03:01."""
    ts = pd.date_range("2026-01-01", periods=180, freq="1min", tz="UTC")
    ok = [i < 60 for i in range(180)]
    bins = bin_events(as_events(ts, ok), "1min")
    return bins, alert_episodes(bins, 0.99, AlertPolicy.single_window("10min", burn=10))


def test_an_alert_still_firing_at_the_end_has_no_reset():
    bins, ep = _fires_to_the_end()
    assert ep["ongoing"].tolist() == [True]
    assert ep["end"].tolist() == [pd.Timestamp("2026-01-01 03:01", tz="UTC")]
    inc = _incidents(("2026-01-01 01:00", "2026-01-01 02:00"))
    det = incident_detections(ep, inc, bins=bins, target=0.99, grace="0s", filling="count")
    # detected at 01:02 (2 min), but 03:01 - 02:00 = 61 min is where the log ends, not a reset
    assert det.loc[0, "detected"] and det.loc[0, "detection_time"] == pd.Timedelta("2min")
    assert pd.isna(det.loc[0, "reset_time"])
    s = score_alerts(ep, inc, bins=bins, target=0.99, grace="0s", filling="count")
    assert pd.isna(s.loc[0, "reset_median"]) and pd.isna(s.loc[0, "reset_max"])
    assert "still firing" in score_text(s.iloc[[0]], duration_words)


def test_one_unknown_reset_withholds_the_rows_median():
    # a second incident, 00:20-00:30, met by a hand-made alert that stopped at 00:45 (reset
    # 15 min): the median of the one known reset would leave out the alert that never stopped
    bins, ep = _fires_to_the_end()
    early = pd.DataFrame({"tier": ep["tier"].iloc[:1].to_numpy(), "severity": ["page"],
                          "start": pd.to_datetime(["2026-01-01 00:25"], utc=True),
                          "end": pd.to_datetime(["2026-01-01 00:45"], utc=True),
                          "duration": [pd.Timedelta("20min")], "ongoing": [False]})
    both = pd.concat([early, ep], ignore_index=True)
    both.attrs = dict(ep.attrs)
    inc = _incidents(("2026-01-01 00:20", "2026-01-01 00:30"),
                     ("2026-01-01 01:00", "2026-01-01 02:00"))
    det = incident_detections(both, inc, bins=bins, target=0.99, grace="0s", filling="count")
    assert det.loc[0, "reset_time"] == pd.Timedelta("15min") and pd.isna(det.loc[1, "reset_time"])
    s = score_alerts(both, inc, bins=bins, target=0.99, grace="0s", filling="count")
    assert s.loc[0, "detected"] == 2 and pd.isna(s.loc[0, "reset_median"])
    # the first incident alone: its reset is known
    s = score_alerts(both, inc.iloc[:1], bins=bins, target=0.99, grace="0s", filling="count")
    assert s.loc[0, "reset_median"] == pd.Timedelta("15min")
