"""What recalibrate records of its run is what it used: a recompute from ``settings`` (its
``by``, ``window``, ``slo`` and options) gives the same tables, and ``exclude_incidents``
counts the incidents that left out evaluated time, the ones given beside them.

The logs: one event a minute (per group) from 2026-01-01 00:00 over three days, the last at
2026-01-03 23:59, every 20th failing. Under a 1 h window the evaluated span runs from 01:00 on
the first day to 23:59 on the third: 70 h 59 min; under a 2 h window from 02:00: 69 h 59 min.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import budgetlab as bl

START = pd.Timestamp("2026-01-01", tz="UTC")


def _events(groups: tuple[str, ...] = ()) -> pd.DataFrame:
    ts = pd.date_range(START, periods=3 * 1440, freq="1min")
    ok = np.arange(len(ts)) % 20 != 0
    if not groups:
        return pd.DataFrame({"ts": ts, "ok": ok})
    both = pd.concat([pd.DataFrame({"ts": ts, "ok": ok, "kind": g}) for g in groups],
                     ignore_index=True)
    return both.sort_values("ts", kind="stable").reset_index(drop=True)


def _again(events: pd.DataFrame, r: bl.Recalibration) -> bl.Recalibration:
    s = r.settings
    return bl.recalibrate(events, by=s["by"] or None, window=s["window"], slo=s["slo"],
                          history=s["history"], step=s["step"], max_share=s["max_share"],
                          limit_status=s["limit_status"], n_boot=s["n_boot"])


def test_a_recompute_from_the_recorded_settings_gives_the_same_table():
    """No target= and no slo=: no group was judged (current_target NaN, verdict withheld), and
    settings["slo"] is None: before, it was SLO(window="1h"), whose 0.95 judged every group on a
    recompute. Per-group SLOs (1 h for a, 2 h for b) under target=0.97: the recorded PerGroup
    holds each window under 0.97, the target that judged them, and judges the same again."""
    events = _events(("a", "b"))
    r = bl.recalibrate(events, by="kind", window="1h", n_boot=0)
    assert r.summary["current_target"].isna().all()
    assert r.settings["slo"] is None and "slo" not in r.summary.attrs
    again = _again(events, r)
    assert again.summary["current_target"].isna().all()
    assert again.summary.equals(r.summary) and again.candidates.equals(r.candidates)
    slos = bl.PerGroup({"a": bl.SLO(target=0.9, window="1h"),
                        "b": bl.SLO(target=0.99, window="2h")})
    r = bl.recalibrate(events, by="kind", slo=slos, target=0.97, n_boot=0)
    assert r.summary["current_target"].tolist() == [0.97, 0.97]
    assert r.settings["slo"].slo_for("b") == bl.SLO(target=0.97, window="2h")
    assert _again(events, r).summary.equals(r.summary)


def _incidents(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["start", "end", "scope"])
    for col in ("start", "end"):
        frame[col] = pd.to_datetime(frame[col], utc=True)
    return frame


def test_only_incidents_that_left_out_evaluated_time_are_counted():
    """Three incidents, 1 h window: 2026-01-02 05:00-06:30 leaves out [05:00, 07:30), 2.5 h of
    evaluated time; 2025-12-20 00:00-01:00 (left out until 02:00 that day, 12 days before the
    first event) and 2026-01-10 (a week after the last) leave out nothing. Evaluated: 70 h 59 min
    - 2 h 30 min = 68 h 29 min. Before, count was 3 (every incident given)."""
    inc = _incidents([("2025-12-20 00:00", "2025-12-20 01:00", "*"),
                      ("2026-01-02 05:00", "2026-01-02 06:30", "*"),
                      ("2026-01-10 00:00", "2026-01-10 01:00", "*")])
    r = bl.recalibrate(_events(), slo=bl.SLO(target=0.9, window="1h"), n_boot=0,
                       exclude_incidents=inc)
    assert r.summary["hours"].iloc[0] * 60 == 68 * 60 + 29
    want = {"count": 1, "given": 3, "rows": [1], "start": "2026-01-02T05:00:00+00:00",
            "end": "2026-01-02T06:30:00+00:00"}
    assert r.summary.attrs["exclude_incidents"] == want
    assert r.settings["exclude_incidents"]["count"] == 1


def test_per_group_runs_count_an_incident_that_left_out_time_in_any_group():
    """Per-group SLOs of two windows run apart (a: 1 h, b: 2 h). Incident 0, scoped to b,
    2026-01-02 05:00-06:30, leaves out b's [05:00, 08:30): 3.5 h of its 69 h 59 min, so b keeps
    66 h 29 min; incident 1, scoped to a, on 2025-12-20, leaves out nothing (a keeps 70 h
    59 min). Counted: incident 0 alone. Before, the first run's (a's) record stood: count 2 and
    the span of both."""
    events = _events(("a", "b"))
    slos = bl.PerGroup({"a": bl.SLO(target=0.9, window="1h"),
                        "b": bl.SLO(target=0.9, window="2h")})
    inc = _incidents([("2026-01-02 05:00", "2026-01-02 06:30", "kind=b"),
                      ("2025-12-20 00:00", "2025-12-20 01:00", "kind=a")])
    r = bl.recalibrate(events, by="kind", slo=slos, n_boot=0, exclude_incidents=inc)
    minutes = (r.summary.set_index("kind")["hours"] * 60).round(9).to_dict()
    assert minutes == {"a": 70 * 60 + 59, "b": 66 * 60 + 29}
    assert r.settings["exclude_incidents"] == {
        "count": 1, "given": 2, "rows": [0], "start": pd.Timestamp("2026-01-02 05:00", tz="UTC"),
        "end": pd.Timestamp("2026-01-02 06:30", tz="UTC")}
    assert r.candidates.attrs["exclude_incidents"]["count"] == 1
