"""Episodes over before a tier's long window filled (less than it after the grid's start) and
incidents that begin then are scored apart (``filling="apart"``, the default of score_alerts; an
episode still firing when the window is full is scored like any other): hand-computed tiny
logs, the earlier rule (``filling="count"``), and on random data the split against count mode and
a loop over the episodes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import incident_detections, score_alerts
from budgetlab.alerts.tier import AlertTier
from budgetlab.errors import ConfigError
from budgetlab.windows.binning import bin_events
from tests.alerts.hand_tables import hand_episodes as episode_table
from tests.alerts.sre_oracle_data import fast_policy, incidents_for, make_events

T0 = pd.Timestamp("2026-03-02", tz="UTC")
PAGE_1H = AlertTier("page_1h", "page", "1h", "5min", 14.4)
TICKET_3H = AlertTier("ticket_3h", "ticket", "3h", "15min", 3)


def at(hhmm: str) -> pd.Timestamp:
    return T0 + pd.Timedelta(hours=int(hhmm[:2]), minutes=int(hhmm[3:]))


def six_hours() -> pd.DataFrame:
    """1-minute bins 00:00-06:00, 10 events a minute, none failed (the scoring reads only the grid
    and its traffic here: the episodes are made by hand)."""
    starts = pd.date_range(T0, periods=360, freq="1min")
    out = pd.DataFrame({"bin_start": starts, "total": 10, "good": 10, "bad": 0, "bad_timeout": 0})
    out.attrs.update({"freq": "1min", "by": []})
    return out


def hand_episodes(rows: list[tuple[str, str, str]], policy: AlertPolicy) -> pd.DataFrame:
    return episode_table(rows, policy, at)


def incidents(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame({"incident_id": [r[0] for r in rows], "scope": "*",
                         "start": [at(r[1]) for r in rows], "end": [at(r[2]) for r in rows]})


def only(table: pd.DataFrame, tier: str, severity: str | None = None) -> pd.Series:
    m = table["tier"] == tier
    if severity is not None:
        m &= table["severity"] == severity
    assert m.sum() == 1
    return table[m].iloc[0]


POLICY = AlertPolicy([PAGE_1H])
EPISODES = [("page_1h", "00:10", "00:40"), ("page_1h", "02:00", "02:30")]
# A begins while the 1 h window fills (00:00-01:00); B and C after it
INCIDENTS = [("A", "00:05", "00:30"), ("B", "01:50", "02:20"), ("C", "04:00", "04:30")]


def test_a_one_hour_tier_scores_apart_the_episode_and_incident_of_its_first_hour():
    s = score_alerts(hand_episodes(EPISODES, POLICY), incidents(INCIDENTS), grace="0s",
                     bins=six_hours(), target=0.99, policy=POLICY)
    r = only(s, "page_1h")
    # scored: the 02:00 episode (matches B) -> precision 1/1; incidents B, C -> B detected, 1/2
    assert (r["episodes"], r["true_episodes"], r["precision"]) == (1, 1, 1.0)
    assert (r["incidents"], r["detected"], r["recall"]) == (2, 1, 0.5)
    # B: 02:00 - 01:50 = 10 min to detect; 02:30 - 02:20 = 10 min to reset
    assert r["detection_median"] == pd.Timedelta("10min")
    assert r["reset_median"] == pd.Timedelta("10min")
    # apart: the 00:10 episode (it matches A) and incident A
    assert (r["episodes_filling"], r["true_episodes_filling"], r["incidents_filling"]) == (1, 1, 1)
    # observed: 01:00-06:00 = 5 h of traffic, under a day: 1 page in 5 h is not 4.8 a day, the
    # rates are withheld (tests/alerts/test_thin_rates.py has the rates of a long grid)
    assert r["observed_days"] == 5 / 24
    assert np.isnan(r["alerts_per_day"]) and np.isnan(r["false_alerts_per_week"])
    assert r["rates_note"].startswith("withheld: only 5 h of observed time")
    # one tier: the merged rows are the same
    for sev in ("page", "*"):
        merged = only(s, "*", sev)
        assert (merged["episodes"], merged["incidents"], merged["episodes_filling"]) == (1, 2, 1)


def test_the_earlier_rule_scores_every_episode_and_incident():
    s = score_alerts(hand_episodes(EPISODES, POLICY), incidents(INCIDENTS), grace="0s",
                     bins=six_hours(), target=0.99, policy=POLICY, filling="count")
    r = only(s, "page_1h")
    # both episodes match (A, B) -> 2/2; A and B of 3 detected
    assert (r["episodes"], r["true_episodes"], r["precision"]) == (2, 2, 1.0)
    assert (r["incidents"], r["detected"]) == (3, 2) and r["recall"] == pytest.approx(2 / 3)
    # A: 00:10 - 00:05 = 5 min, B: 10 min -> median 7.5 min; resets 10 min each
    assert r["detection_median"] == pd.Timedelta("7min30s")
    assert r["reset_median"] == pd.Timedelta("10min")
    assert r["observed_days"] == 6 / 24 and np.isnan(r["alerts_per_day"])  # 6 h: withheld
    assert "episodes_filling" not in s.columns


def test_an_episode_begun_while_filling_and_still_firing_after_it_is_a_scored_page():
    """The alert fired at 00:50, while the window filled, and still fires when it is full (01:00):
    a page a person gets, scored like any other. It fired before the incident of 01:10 began: it
    did not detect it (f62: counted ``already_firing``, neither detected nor missed; it was
    "detected at once" before), and its reset is kept."""
    s = score_alerts(hand_episodes([("page_1h", "00:50", "01:30")], POLICY),
                     incidents([("D", "01:10", "01:20")]), grace="0s", bins=six_hours(),
                     target=0.99, policy=POLICY)
    r = only(s, "page_1h")
    assert (r["episodes"], r["incidents"], r["detected"], r["already_firing"]) == (1, 1, 0, 1)
    assert np.isnan(r["recall"])  # no incident it could detect: 1 - 0 unseen - 1 already
    assert (r["true_episodes"], r["precision"]) == (1, 1.0)
    assert pd.isna(r["detection_median"])  # firing when D began: no detection time
    assert r["reset_median"] == pd.Timedelta("10min")  # 01:30 - 01:20
    assert (r["episodes_filling"], r["true_episodes_filling"], r["incidents_filling"]) == (0, 0, 0)


def test_merged_rows_count_from_when_their_longest_window_filled():
    pol = AlertPolicy([PAGE_1H, TICKET_3H])
    ep = hand_episodes([("page_1h", "02:00", "02:30"), ("ticket_3h", "03:30", "04:00")], pol)
    s = score_alerts(ep, incidents([("E", "03:20", "03:50")]), grace="0s", bins=six_hours(),
                     target=0.99, policy=pol)
    page, ticket, every = only(s, "page_1h"), only(s, "ticket_3h"), only(s, "*", "*")
    # page_1h: full from 01:00, the 02:00 page is scored (E is later: false) over 5 h
    assert (page["episodes"], page["true_episodes"], page["episodes_filling"]) == (1, 0, 0)
    assert page["observed_days"] == 5 / 24
    # ticket_3h: full from 03:00, its 03:30 episode is scored and detects E (03:20) after 10 min
    assert (ticket["episodes"], ticket["true_episodes"], ticket["detected"]) == (1, 1, 1)
    assert ticket["detection_median"] == pd.Timedelta("10min")
    # all tiers: full from 03:00 (the 3 h window): the 02:00 page is apart, 3 h observed
    assert (every["episodes"], every["episodes_filling"], every["detected"]) == (1, 1, 1)
    assert every["observed_days"] == 3 / 24
    assert np.isnan(every["alerts_per_day"])  # 3 h of observed time: withheld


def test_incident_detections_mark_the_incidents_begun_while_filling():
    det = incident_detections(hand_episodes(EPISODES, POLICY), incidents(INCIDENTS), grace="0s",
                              bins=six_hours(), target=0.99, policy=POLICY)
    one = det[det["tier"] == "page_1h"].set_index("incident_id")
    assert one["filling"].to_dict() == {"A": True, "B": False, "C": False}
    # A's only alert (00:10-00:40) is over by 01:00, when the 1 h window filled: scored apart,
    # it detects nothing (before g63fill it "detected" A); B's 02:00 page detects B
    assert one["detected"].to_dict() == {"A": False, "B": True, "C": False}
    assert "filling" not in incident_detections(hand_episodes(EPISODES, POLICY),
                                                incidents(INCIDENTS), grace="0s", policy=POLICY,
                                                filling="count").columns


def test_apart_needs_to_know_when_the_window_filled():
    ep = hand_episodes(EPISODES, POLICY)  # no attrs, no bins: the grid's start is unknown
    with pytest.raises(ConfigError, match="filling='count'"):
        score_alerts(ep, incidents(INCIDENTS), policy=POLICY)
    with pytest.raises(ConfigError, match="filling"):
        score_alerts(ep, incidents(INCIDENTS), policy=POLICY, filling="later")


def filled_by_loop(ev: pd.DataFrame, key: str, at: pd.Timestamp,
                   window: pd.Timedelta) -> pd.Timestamp:
    """When the long window of the stretch of ``key``'s traffic that ``at`` is in filled: the
    stretch's first 1-minute bin plus the window (a loop over the group's events)."""
    begun, previous = None, None
    for t in sorted(ev.loc[ev["sitekey"].astype(str) == key, "ts"]):
        b = t.floor("1min")
        if b > at:
            break
        if previous is None or b - previous >= window:
            begun = b
        previous = b
    assert begun is not None
    return begun + window


@pytest.mark.parametrize("overlapping", [False, True])
def test_apart_splits_what_count_scores(overlapping):
    """On random data (and on overlapping hand-made episodes, matched pair by pair): scored plus
    apart equals the earlier rule's counts, and a single tier's apart episodes are those a loop
    finds over by the start of their group's stretch + long window (ending then or earlier: the
    window was never full while they fired; a stretch starts at the group's first bin with
    traffic and at each one that starts a long window or more after the group's previous one)."""
    ev = make_events(25, seed=3, hours=4, per_group=50)
    bins = bin_events(ev, "1min", by="sitekey")
    pol = fast_policy()
    ep = alert_episodes(bins, 0.9, pol)
    if overlapping:
        shifted = ep.assign(start=ep["start"] + pd.Timedelta("3min"),
                            end=ep["end"] + pd.Timedelta("7min"))
        attrs = dict(ep.attrs)
        ep = pd.concat([ep, shifted], ignore_index=True)
        ep.attrs = attrs
    inc = incidents_for(ev, seed=3, n=10)
    apart = score_alerts(ep, inc, bins=bins, target=0.9, grace="5min")
    count = score_alerts(ep, inc, bins=bins, target=0.9, grace="5min", filling="count")
    assert len(apart) == len(count)
    for col in ("episodes", "true_episodes", "incidents"):
        assert (apart[col] + apart[f"{col}_filling"]).tolist() == count[col].tolist()
    assert (apart["detected"] <= count["detected"]).all()
    assert apart["episodes_filling"].sum() > 0  # the case is exercised
    start = pd.Timestamp(ep.attrs["grid_start"])  # ISO-8601 text in attrs
    every = incident_detections(ep, inc, bins=bins, target=0.9, grace="5min", filling="count")
    for tier in pol.tiers:
        for key in ["*", *sorted(ep["sitekey"].astype(str).unique())]:
            mine = ep[ep["tier"] == tier.name]
            if key != "*":
                mine = mine[mine["sitekey"].astype(str) == key]
            early = sum(e.end <= filled_by_loop(ev, e.sitekey, e.start, tier.long_window)
                        for e in mine.itertuples())
            row = apart[(apart["tier"] == tier.name) & (apart["sitekey"] == key)].iloc[0]
            assert row["episodes_filling"] == early
            if key == "*":  # the incidents scored (a scope that covers some group)
                scored = every[(every["tier"] == tier.name) & (every["sitekey"] == "*")]
                early_inc = scored["incident_start"] < start + tier.long_window
                assert row["incidents_filling"] == int(early_inc.sum())
