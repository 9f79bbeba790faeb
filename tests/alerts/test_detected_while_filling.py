"""An incident detected by an episode begun while the long window filled: the episode is scored
apart (``episodes`` 0, ``episodes_filling`` 1) but still fires when the incident begins, after the
window filled, and detects it at once (the matching rule of score_alerts). The score row then
reads episodes 0 beside detected 1; the command line says why in one sentence. By hand."""

from __future__ import annotations

import pandas as pd

from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import score_alerts
from budgetlab.cli.score_text import filling_notes
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events


def test_an_episode_begun_while_filling_detects_a_later_incident_and_is_said():
    # one failing event a minute for 3 h: a 60 min window at burn 10 of a 99 % target (10 %)
    # fires from the first evaluation, 00:01 (1 of 1 failing), while the window fills (until
    # 01:00), and never stops. The incident 01:30-02:00 begins after the window filled.
    ts = pd.date_range("2026-01-01", periods=180, freq="1min", tz="UTC")
    bins = bin_events(as_events(ts, [False] * 180), "1min")
    ep = alert_episodes(bins, 0.99, AlertPolicy.single_window("60min", burn=10))
    assert ep["start"].tolist() == [pd.Timestamp("2026-01-01 00:01", tz="UTC")]
    inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                        "start": pd.to_datetime(["2026-01-01 01:30"], utc=True),
                        "end": pd.to_datetime(["2026-01-01 02:00"], utc=True)})
    s = score_alerts(ep, inc, bins=bins, target=0.99, grace="0s")
    row = s.iloc[0]
    assert (row["episodes"], row["episodes_filling"], row["true_episodes_filling"]) == (0, 1, 1)
    assert (row["incidents"], row["detected"], row["detection_median"]) == \
        (1, 1, pd.Timedelta(0))
    assert filling_notes(s, ep)[-1] == (
        "page_1h, the page tiers merged and all tiers merged detected their incidents with no "
        "episode scored: an episode begun while the long window filled (scored apart) still fired "
        "when each incident began, which detects it at once.")
    # rows with a scored episode say nothing of the kind (their detections may be its)
    assert not any("no episode scored" in n for n in filling_notes(s.assign(episodes=1), ep))
