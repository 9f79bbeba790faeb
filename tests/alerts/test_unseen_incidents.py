"""Incidents in a silence (stop 57): an incident during which the tier's long window held no event
of its scope from its start to its end + grace is **unseen**, neither detected nor missed, as
``compare_windows`` counts it (budgetlab/alerts/unseen.py, the one rule of both); ``recall`` is
over the incidents seen. And an alert still firing at the end of the data ends at the last
evaluation (``grid_end``), never past the evaluated span. Every figure by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

import budgetlab as bl
from budgetlab.analyses.choices import choose_policy, policy_summary
from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-01", tz="UTC")
MIN = pd.Timedelta("1min")


def _at(minutes: float) -> pd.Timestamp:
    return T0 + minutes * MIN


def _incidents(spans: dict[str, tuple[float, float]]) -> pd.DataFrame:
    return pd.DataFrame({"incident_id": list(spans), "scope": ["*"] * len(spans),
                         "start": [_at(a) for a, _ in spans.values()],
                         "end": [_at(b) for _, b in spans.values()]})


def _hand_case():
    """One event a minute for 10 h (minute m at T0 + m min), none in minutes 200..319 (the
    silence); minutes 100..119 fail. The tier (10 min window, burn 4.5 at 0.9: an error ratio
    above 0.45, 5 of the 10 bins) fires from the evaluation after bin 104 (01:45)."""
    minutes = np.array([m for m in range(600) if not 200 <= m < 320])
    ev = bl.as_events(T0 + minutes * MIN, ~((minutes >= 100) & (minutes < 120)))
    bins = bl.bin_events(ev, "1min")
    pol = bl.AlertPolicy.single_window("10min", burn=4.5)
    return ev, bins, pol, bl.alert_episodes(bins, 0.9, pol)


def test_an_incident_in_a_silence_is_unseen_and_left_out_of_recall():
    _, bins, pol, ep = _hand_case()
    # A: the failures themselves (detected at 01:45, 5 min in); B: inside the silence, its end
    # + 10 min grace (04:00 .. 04:30) long before traffic is back (bin 320 -> evaluation 05:21)
    # and long after the window last held an event (bin 199 left it at the evaluation 03:30);
    # C: traffic throughout, all of it good: missed
    inc = _incidents({"A": (100, 120), "B": (240, 260), "C": (400, 420)})
    sc = bl.score_alerts(ep, inc, grace="10min", bins=bins, target=0.9, policy=pol)
    for _, row in sc.iterrows():  # one tier: its row and both merged rows alike
        assert row["recall"] == 0.5  # 1 detected of the 2 seen, not 1 of 3
        assert (row["incidents"], row["detected"], row["unseen"]) == (3, 1, 1)
        assert row["detection_median"] == pd.Timedelta("5min")
    assert "'B' for page_10m" in sc.attrs["unseen_note"]
    assert "10 min (grace=) after its end" in sc.attrs["unseen_note"]
    det = bl.incident_detections(ep, inc, grace="10min", bins=bins, target=0.9, policy=pol)
    one = det[det["tier"] == "page_10m"].set_index("incident_id")
    assert one["detected"].to_dict() == {"A": True, "B": False, "C": False}
    assert one["unseen"].to_dict() == {"A": False, "B": True, "C": False}
    assert det.attrs["unseen_note"] == sc.attrs["unseen_note"]


def test_traffic_within_the_grace_makes_an_incident_seen():
    # B ends at 04:20; with 1 h of grace a detection counted until 05:20, before traffic is back
    # (05:21): unseen; with 2 h, the window holds bin 320's event from 05:21 on: seen, missed
    _, bins, pol, ep = _hand_case()
    inc = _incidents({"B": (240, 260)})
    for grace, unseen, recall in (("1h", 1, None), ("2h", 0, 0.0)):
        row = bl.score_alerts(ep, inc, grace=grace, bins=bins, target=0.9, policy=pol).iloc[0]
        assert (row["incidents"], row["detected"], row["unseen"]) == (1, 0, unseen)
        # all unseen: no recall (NaN), the note says which and why
        assert math.isnan(row["recall"]) if recall is None else row["recall"] == recall


def test_unseen_agrees_with_compare_windows_on_the_same_data():
    # the stranger's case: 30 s traffic with a 4 h silence (day 2, 10:00 .. 14:00); a 10 min
    # window, 1 h grace; in_silence: unseen by both; late: ends 13:50, its grace reaches 14:50
    # after traffic is back at 14:00: seen by both; busy: traffic throughout: seen by both
    ts = pd.date_range("2026-01-01", "2026-01-03", freq="30s", tz="UTC", inclusive="left")
    ok = np.random.default_rng(0).random(len(ts)) > 0.01
    ev = bl.as_events(ts, ok)
    quiet = (ev["ts"] >= "2026-01-02 10:00") & (ev["ts"] < "2026-01-02 14:00")
    ev = ev[~quiet].reset_index(drop=True)
    day2 = 24 * 60
    inc = _incidents({"in_silence": (day2 + 660, day2 + 720), "late": (day2 + 810, day2 + 830),
                      "busy": (day2 + 300, day2 + 360)})
    bins = bl.bin_events(ev, "1min")
    pol = bl.AlertPolicy.single_window("10min", burn=10)
    ep = bl.alert_episodes(bins, 0.95, pol)
    det = bl.incident_detections(ep, inc, bins=bins, target=0.95, policy=pol)
    mine = det[det["tier"] == "page_10m"].set_index("incident_id")["unseen"]
    theirs = bl.window_incidents(ev, bl.SLO(target=0.95), inc, ["10min"]).set_index(
        "incident_id")["unseen"]
    assert mine.to_dict() == {"in_silence": True, "late": False, "busy": False}
    assert theirs.astype(bool).to_dict() == mine.to_dict()
    cw = bl.compare_windows(ev, bl.SLO(target=0.95), ["10min"], incidents=inc).iloc[0]
    sc = bl.score_alerts(ep, inc, bins=bins, target=0.95, policy=pol).iloc[0]
    assert (cw["incidents"], cw["unseen"]) == (sc["incidents"], sc["unseen"]) == (3, 1)


def test_the_alerts_command_says_all_unseen_and_why(tmp_path, capsys):
    # one event a minute in minutes 0..119 and 300..359, one incident at minutes 180..200: the
    # preset's 1 h window is empty from the evaluation 03:00 to 05:01, the incident's end + 1 h
    # of grace is 04:20: unseen, the only incident, so no recall
    minutes = [m for m in range(360) if m < 120 or m >= 300]
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": [_at(m) for m in minutes], "outcome": "success"}).to_csv(log,
                                                                                 index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end,scope\ni1,2026-01-01T03:00:00Z,2026-01-01T03:20:00Z,*\n")
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--policy",
                 "single_window", "--out", str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "all unseen" in text
    assert ("unseen (neither detected nor missed, left out of recall): 'i1' for page_1h" in text)
    assert "1 h (--grace) after its end" in text
    row = pd.read_csv(out).iloc[0]
    assert (row["incidents"], row["detected"], row["unseen"]) == (1, 0, 1)
    assert math.isnan(row["recall"])


def test_an_alert_firing_at_the_end_of_the_data_is_ongoing_and_has_no_reset():
    # 120 one-minute bins (00:00 .. 02:00), the last 20 failing: 5 of the last 10 bins fail from
    # the evaluation after bin 104 (01:45) on, through the last evaluation (02:00): ongoing, its
    # end one step after the last evaluation (02:01, end-exclusive: the 02:00 evaluation's
    # firing holds until the next, as Prometheus counts firing minutes), 16 min
    ts = pd.date_range(T0, periods=120, freq="1min")
    bins = bl.bin_events(bl.as_events(ts, [i < 100 for i in range(120)]), "1min")
    pol = bl.AlertPolicy.single_window("10min", burn=4.5)
    ep = bl.alert_episodes(bins, 0.9, pol)
    assert ep[["start", "end", "duration", "ongoing"]].values.tolist() == [
        [_at(105), _at(121), pd.Timedelta("16min"), True]]
    assert pd.Timestamp(ep.attrs["grid_end"]) == _at(120)
    inc = _incidents({"i1": (100, 120)})
    det = bl.incident_detections(ep, inc, bins=bins, target=0.9, grace="0s", filling="count")
    assert set(det["last_alert_end"]) == {_at(121)}
    assert det["reset_time"].isna().all()  # still firing: no reset
    # failures in bins 104..113 instead: fires at the evaluations after bins 108..118 (01:49 ..
    # 01:59) and no longer at the last one (02:00, bins 110..119: 4 bad): closed at the grid's
    # end, a reset of 02:00 - 01:54 = 6 min for an incident 01:44 .. 01:54
    bins = bl.bin_events(bl.as_events(ts, [not 104 <= i < 114 for i in range(120)]), "1min")
    ep = bl.alert_episodes(bins, 0.9, pol)
    assert ep[["start", "end", "ongoing"]].values.tolist() == [[_at(109), _at(120), False]]
    det = bl.incident_detections(ep, _incidents({"i1": (104, 114)}), bins=bins, target=0.9,
                                 grace="0s", filling="count")
    assert set(det["reset_time"]) == {pd.Timedelta("6min")}


def test_a_policy_whose_incidents_were_all_unseen_has_no_recall_to_judge():
    # the hand case's B alone: unseen by the one policy, so policy_summary keeps its recall NaN
    # (not 0: nothing was missed) and choose_policy says why it cannot choose
    _, bins, pol, _ = _hand_case()
    sc = bl.compare_policies(bins, 0.9, {"ten": pol}, _incidents({"B": (240, 260)}),
                             grace="10min")
    summary = policy_summary(sc)
    assert math.isnan(summary.loc["ten", "recall"])
    assert (summary.loc["ten", "incidents"], summary.loc["ten", "unseen"]) == (1, 1)
    verdict = choose_policy(summary)
    assert verdict.verdict is None
    assert verdict.withheld.startswith("every incident was unseen by every policy")
    assert sc.attrs["unseen_note"].startswith("ten: unseen (neither detected nor missed")
