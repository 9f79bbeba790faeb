"""The (incident, group) pairs of a window's row whose evaluated span holds no event have their
detection withheld in ``window_incidents`` too, as ``compare_windows`` withholds the row's
detection columns: ``withheld`` True, ``detected``/``recovered``/``unseen`` not known (``<NA>``),
the times NaT, the row's note. ``window_summary`` counts them (``withheld``) and
``choose_window`` judges recall without them. Before, ``window_incidents`` said such a pair
detected (``detection 0 days``) or missed, ``window_summary`` summed that, and the row of
``compare_windows`` had no detection at all: two tables of one run disagreed.

Hand-computed case (7 d window, target 0.9): group ``thin`` fails at D0 00:00 and succeeds at
D6 00:00; group ``busy`` succeeds at D0 00:30 and every hour from D0 01:00 to D8 23:00, the log's
last event. ``thin``: one stretch of traffic (the window holds D6's event until D13), warm-up
D0 .. D7, evaluated D7 .. D8 23:00 (47 h) with none of its events in it: withheld. ``busy``:
warm-up to D7 00:30, then 47 events. Incident ``i`` (scope g=thin) D1 00:00 .. 01:00, inside
thin's warm-up: the window then holds the D0 failure alone (exhausted: the old code said
"detected, 0 days"). Incident ``j`` (scope ``*``) D8 00:00 .. 01:00: busy's window holds only
successes, seen and healthy: missed; thin's pair is withheld (the old code: missed).
"""

from __future__ import annotations

import csv

import numpy as np
import pandas as pd

from budgetlab import SLO, as_events, compare_windows, window_incidents
from budgetlab.analyses.choices import choose_window, window_summary
from budgetlab.analyses.window_lengths import UNSEEN
from budgetlab.cli import main

D0 = pd.Timestamp("2026-03-02", tz="UTC")
HOUR = pd.Timedelta(hours=1)
NOTE = ("0 events in the evaluated span: for its 47 h of evaluated time the window held only "
        "events of a warm-up (the first 7 d of a stretch of traffic, which only fills the "
        "window); no time shares, status changes, rates per day or detections without an event "
        "in it")


def _times() -> tuple[list[pd.Timestamp], list[pd.Timestamp]]:
    thin = [D0, D0 + pd.Timedelta(days=6)]
    busy = [D0 + pd.Timedelta(minutes=30),
            *(D0 + HOUR + pd.to_timedelta(np.arange(9 * 24 - 1), unit="h"))]
    return thin, busy


def _events() -> pd.DataFrame:
    thin, busy = _times()
    return as_events([*thin, *busy], [False, True] + [True] * len(busy),
                     groups={"g": np.array(["thin"] * 2 + ["busy"] * len(busy))})


def _incidents() -> pd.DataFrame:
    d1, d8 = D0 + pd.Timedelta(days=1), D0 + pd.Timedelta(days=8)
    return pd.DataFrame({"incident_id": ["i", "j"], "scope": ["g=thin", "*"],
                         "start": [d1, d8], "end": [d1 + HOUR, d8 + HOUR]})


def _agree(table: pd.DataFrame, pairs: pd.DataFrame, by: str) -> None:
    """Each row of compare_windows counts its window_incidents pairs as they say."""
    for key, row in table.set_index(by).iterrows():
        mine = pairs[pairs[by].astype(str) == str(key)]
        assert row["incidents"] == len(mine)
        if mine["withheld"].all():
            assert row[["detected", "missed", "unseen"]].isna().all()
            continue
        assert not mine["withheld"].any()
        unseen = mine["unseen"].astype(bool)
        assert row["detected"] == mine["detected"].sum()
        assert row["unseen"] == unseen.sum()
        assert row["missed"] == (~mine["detected"].astype(bool) & ~unseen).sum()


def test_the_pairs_of_a_row_without_an_event_say_their_detection_is_withheld():
    t = compare_windows(_events(), SLO(target=0.9), "7D", incidents=_incidents(), by="g")
    w = window_incidents(_events(), SLO(target=0.9), _incidents(), "7D", by="g")
    rows = t.set_index("g")
    assert rows.loc["thin", "note"] == NOTE and rows.loc["thin", "incidents"] == 2
    assert rows.loc["busy", ["incidents", "detected", "missed", "unseen"]].tolist() == [1, 0, 1, 0]
    pairs = w.set_index(["g", "incident_id"])
    assert sorted(pairs.index) == [("busy", "j"), ("thin", "i"), ("thin", "j")]
    for held in (("thin", "i"), ("thin", "j")):
        row = pairs.loc[held]
        assert bool(row["withheld"]) and row["note"] == NOTE
        assert pd.isna(row["detected"]) and pd.isna(row["recovered"]) and pd.isna(row["unseen"])
        assert pd.isna(row["detection"]) and pd.isna(row["recovery"])
    busy = pairs.loc[("busy", "j")]
    assert not bool(busy["withheld"]) and busy["note"] == ""
    assert (bool(busy["detected"]), bool(busy["unseen"])) == (False, False)
    assert str(w["detected"].dtype) == "boolean" and w["withheld"].dtype == bool
    _agree(t, w, "g")
    # summed: 3 pairs, 2 withheld, none detected, none unseen: as the rows of compare_windows
    s = window_summary(t, w).iloc[0]
    assert (s["pairs"], s["detected"], s["unseen"], s["withheld"]) == (3, 0, 0, 2)
    assert s["pairs"] == t["incidents"].sum() and s["detected"] == np.nansum(t["detected"])


def test_an_unseen_pair_is_not_withheld_and_a_withheld_one_is_not_unseen():
    # 1 h window. a: successes 00:00, 00:30, 01:10, 05:00, 05:30, 06:10: 01:10 and 06:10 after
    # their stretch's warm-up (to 01:00, 06:00); the window is empty from 02:10 + 1 ns to 05:00.
    # b: one failure at 00:00, in its warm-up: no event evaluated. Incident k (scope *) 03:00 ..
    # 03:30, grace 10 min: a's window held no traffic, unseen; b's pair withheld, not unseen.
    a = [D0 + pd.Timedelta(minutes=m) for m in (0, 30, 70, 300, 330, 370)]
    ev = as_events([*a, D0], [True] * 6 + [False], groups={"g": np.array(["a"] * 6 + ["b"])})
    inc = pd.DataFrame({"incident_id": ["k"], "scope": ["*"], "start": [D0 + 3 * HOUR],
                        "end": [D0 + 3.5 * HOUR]})
    t = compare_windows(ev, SLO(target=0.9), "1h", incidents=inc, by="g", grace="10min")
    w = window_incidents(ev, SLO(target=0.9), inc, "1h", by="g", grace="10min")
    rows, pairs = t.set_index("g"), w.set_index("g")
    assert rows.loc["a", ["events", "incidents", "detected", "missed", "unseen"]].tolist() == [
        2, 1, 0, 0, 1]
    assert rows.loc["b", "events"] == 0 and pd.isna(rows.loc["b", "unseen"])
    assert bool(pairs.loc["a", "unseen"]) and not bool(pairs.loc["a", "withheld"])
    assert pairs.loc["a", "note"] == UNSEEN
    assert bool(pairs.loc["b", "withheld"]) and pd.isna(pairs.loc["b", "unseen"])
    assert pairs.loc["b", "note"] == rows.loc["b", "note"] != UNSEEN
    _agree(t, w, "g")
    s = window_summary(t, w).iloc[0]
    assert (s["pairs"], s["detected"], s["unseen"], s["withheld"]) == (2, 0, 1, 1)


def test_choose_window_judges_recall_without_the_withheld_pairs():
    # 3 pairs, 2 withheld: the window saw 1 pair and detected it (recall 1 of 1, not 1 of 3)
    s = pd.DataFrame({"window": ["1h"], "min_dwell": pd.to_timedelta([0]),
                      "transitions_per_day": [2.0], "pairs": [3], "detected": [1], "unseen": [0],
                      "withheld": [2], "detection_median": pd.to_timedelta(["5min"])})
    v = choose_window(s, min_recall=0.8)
    assert v.verdict == "chosen"
    assert v.evidence.startswith("detects 1 of 1 (incident, group) pairs it saw (2 more "
                                 "withheld: 0 events evaluated) (median 5")
    # all withheld: no pair to judge by, and the reason says which
    none = choose_window(s.assign(detected=0, withheld=3))
    assert none.verdict is None and "withheld" in none.withheld


def test_the_command_line_counts_the_pairs_as_window_incidents_does(tmp_path, capsys,
                                                                     wide_terminal):
    thin, busy = _times()
    log, inc, out = tmp_path / "log.csv", tmp_path / "inc.csv", tmp_path / "cw.csv"
    pd.DataFrame({"ts": [x.strftime("%Y-%m-%dT%H:%M:%SZ") for x in [*thin, *busy]],
                  "outcome": ["timeout", "success"] + ["success"] * len(busy),
                  "g": ["thin"] * 2 + ["busy"] * len(busy)}).to_csv(log, index=False)
    inc.write_text("incident_id,start,end,scope\n"
                   "i,2026-03-03T00:00:00Z,2026-03-03T01:00:00Z,g=thin\n"
                   "j,2026-03-10T00:00:00Z,2026-03-10T01:00:00Z,*\n")
    assert main(["compare-windows", str(log), "--by", "g", "--windows", "7D", "--target", "0.9",
                 "--incidents", str(inc), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    with out.open(newline="", encoding="utf-8") as f:
        rows = {r["g"]: r for r in csv.DictReader(f)}
    w = window_incidents(_events(), SLO(target=0.9), _incidents(), "7D", by="g")
    for g, row in rows.items():
        mine = w[w["g"].astype(str) == g]
        assert int(row["incidents"]) == len(mine)
        if mine["withheld"].all():  # withheld: empty cells, never a count
            assert row["detected"] == row["missed"] == row["unseen"] == ""
        else:
            assert float(row["detected"]) == mine["detected"].sum()
            assert float(row["missed"]) == (~mine["detected"].astype(bool)).sum()
    assert rows["thin"]["note"] == NOTE
    line = next(x for x in text.splitlines() if x.split()[:1] == ["thin"])
    assert line.split()[-7:] == ["2", "0", "events", "evaluated", "0", "events", "evaluated"]
