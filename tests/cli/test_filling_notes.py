"""The sentences of ``alerts`` and ``backtest`` on what was scored apart while a tier's long
window filled (``cli.score_filling.filling_notes``), word for word, for both things a command reads:
``alerts`` a log, ``backtest`` a span of a server's history (it said "the span spans 2 d").
Counts take the number of their noun (it said "1 episode(s)", "3 incident(s)"). Hand-made attrs
and counts."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli.score_filling import filling_notes

DAY_NS = 86_400 * 10**9


def _episodes(days: int) -> pd.DataFrame:
    """An episodes table whose attrs say: a grid of ``days`` days, a 1 d and a 3 d tier."""
    ep = pd.DataFrame(columns=["tier"])
    ep.attrs.update(grid_start=pd.Timestamp("2026-01-05", tz="UTC"),
                    grid_end=pd.Timestamp("2026-01-05", tz="UTC") + pd.Timedelta(days=days),
                    tier_windows={"ticket_1d": DAY_NS, "ticket_3d": 3 * DAY_NS})
    return ep


def _rows(tier: str, episodes: int, true: int, incidents: int) -> pd.DataFrame:
    return pd.DataFrame({"tier": [tier], "severity": ["ticket"], "episodes_filling": [episodes],
                         "true_episodes_filling": [true], "incidents_filling": [incidents]})


@pytest.mark.parametrize("what", ["log", "span"])
def test_a_window_that_never_filled_reads_right_for_log_and_span(what):
    # 3 d window, 2 d read: 8 episodes, 1 of them true (7 met no incident), 3 incidents
    notes = filling_notes(_rows("ticket_3d", 8, 1, 3), _episodes(2), what=what)
    assert notes == [f"ticket_3d's long window (3 d) never filled: the {what} is 2 d long; its "
                     "8 episodes are scored apart, 7 met no incident, 1 met one and did not "
                     "count as its detection; 3 incidents began then: not scored for this tier."]


def test_one_episode_and_one_incident_in_the_singular():
    notes = filling_notes(_rows("ticket_3d", 1, 1, 1), _episodes(3), what="span")  # 3 d of 3 d
    assert notes == ["ticket_3d's long window (3 d) never filled: the span is 3 d long; its 1 "
                     "episode is scored apart, 0 met no incident, 1 met one and did not count "
                     "as its detection; 1 incident began then: not scored for this tier."]
    notes = filling_notes(_rows("ticket_3d", 0, 0, 1), _episodes(2), what="span")
    assert notes == ["ticket_3d's long window (3 d) never filled: the span is 2 d long; 1 "
                     "incident began then: not scored for this tier."]


@pytest.mark.parametrize("what", ["log", "span"])
def test_a_window_that_filled(what):
    # 1 d window, 2 d read: 1,234 episodes in the first day, 1,200 met no incident; 2 incidents
    notes = filling_notes(_rows("ticket_1d", 1234, 34, 2), _episodes(2), what=what)
    assert notes == ["1,234 episodes of ticket_1d began and ended in the first 24 h of a group's "
                     "traffic (or of its return after a silence that long), while its long "
                     "window filled; scored apart: 1,200 met no incident, 34 met one and did not "
                     "count as its detection; 2 incidents began then: not scored for this tier."]
    notes = filling_notes(_rows("ticket_1d", 0, 0, 2), _episodes(2), what=what)
    assert notes == [f"2 incidents began in the {what}'s first 24 h, while ticket_1d's long "
                     "window filled: not scored for this tier."]


def test_alerts_says_a_log_just_short_of_the_window_to_the_minute(tmp_path, capsys):
    """A log of one event a minute from 2026-03-01 00:00 to 03-03 23:59 (2 d 23 h 59 min, its
    1 min bins spanning 3 d): ticket_3d's 3 d window never filled, and the log is said 2 d 23 h
    59 min long (it said "the log is 3 d long" beside the 3 d window)."""
    from budgetlab.cli import main

    ts = pd.date_range("2026-03-01", "2026-03-03 23:59", freq="1min", tz="UTC")
    log, inc = tmp_path / "log.csv", tmp_path / "incidents.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "ok": [i % 7 != 0 for i in range(len(ts))]}).to_csv(log, index=False)
    inc.write_text("incident_id,start,end\na,2026-03-02T10:00:00Z,2026-03-02T11:00:00Z\n")
    assert main(["alerts", str(log), "--ok", "ok", "--incidents", str(inc), "--target", "0.95",
                 "--policy", "workbook"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "ticket_3d's long window (3 d) never filled: the log is 2 d 23 h 59 min long;" in out
