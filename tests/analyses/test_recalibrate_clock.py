"""recalibrate() on the window's clock, with thin and silent groups (issue 28).

Oracles: hand-computed counts and times on hand-made logs; the rules' own definitions stated in
words (thin evidence, the interval rule, the window cap).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import as_events
from budgetlab.analyses.recalibration import recalibrate
from budgetlab.analyses.recalibration.clock import clock_counts, split_days
from budgetlab.analyses.recalibration.no_target import MAX_WINDOW_DAYS, suggest_window
from budgetlab.analyses.recalibration.rules import thin_evidence
from budgetlab.analyses.recalibration.verdict import verdict
from tests.group_lines import group_lines

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")
MIN = 60 * 10**9
HOUR = 60 * MIN


def _minutes(day: int, n: int, fail_every: int | None, group: str) -> pd.DataFrame:
    """One event a minute from 00:00 of ``day`` for ``n`` minutes; every ``fail_every``-th fails."""
    ts = T0 + pd.Timedelta(days=day) + pd.to_timedelta(np.arange(n), unit="min")
    ok = np.ones(n, dtype=bool) if fail_every is None else (np.arange(n) % fail_every != 0)
    return pd.DataFrame({"ts": ts, "ok": ok, "kind": group})


def _log(*parts: pd.DataFrame) -> pd.DataFrame:
    df = pd.concat(parts, ignore_index=True).sort_values("ts", kind="stable").reset_index(drop=True)
    return as_events(df["ts"], df["ok"].to_numpy(), groups={"kind": df["kind"].to_numpy()})


def test_clock_counts_by_hand():
    # 1 h window: ok at 0, failure at 30 min, ok at 45 min; each leaves 1 ns after ts + 1 h
    t = np.array([0, 30 * MIN, 45 * MIN])
    c = clock_counts(t, np.array([False, True, False]), np.array([0, 3]), HOUR, 3 * HOUR)
    assert c.start.tolist() == [0, 30 * MIN, 45 * MIN, HOUR + 1, 90 * MIN + 1]
    assert c.end.tolist() == [30 * MIN, 45 * MIN, HOUR + 1, 90 * MIN + 1, 105 * MIN + 1]
    assert c.total.tolist() == [1, 2, 3, 2, 1]
    assert c.failures.tolist() == [0, 1, 1, 1, 0]
    assert c.warmup_end.tolist() == [HOUR] * 5 and c.first.tolist() == [True, False, False, False,
                                                                        False]
    # a second group after a silence: a new stretch, its own warm-up
    t2 = np.array([0, 10 * HOUR])
    c2 = clock_counts(t2, np.array([False, False]), np.array([0, 2]), HOUR, 11 * HOUR)
    assert c2.start.tolist() == [0, 10 * HOUR] and c2.end.tolist() == [HOUR + 1, 11 * HOUR]
    assert c2.first.tolist() == [True, True] and c2.warmup_end.tolist() == [HOUR, 11 * HOUR]


def test_a_status_held_for_one_instant_is_no_change_on_the_clock():
    """1 h window, target 0.4 (warning below 0.5 of the budget, exhausted at none): failure at
    00:00, ok at 00:30, failure at 01:00, ok at 01:20 and at 02:00 (the observation's end).

    By hand (the seed's rule, budget = 0.6 per event): {F} exhausted, {F,S} warning (0.2 of 1.2
    left), {S,F,S} warning (0.8 of 1.8). At 01:00 the seed's record keeps the 00:00 failure (the
    cut-off is closed) and sees {F,S,F}: EXHAUSTED, its callback fires; the 00:00 failure leaves
    1 ns later, so on the window's clock those contents hold at that instant only: no status
    change there. After the warm-up (01:00) the clock stays WARNING: 0 changes (2 if the instant
    counted: exhausted at 01:00, warning at 01:00 + 1 ns)."""
    from budgetlab import SLO, compare_windows, replay
    from budgetlab.analyses.recalibration.clock import counted_changes

    t = np.array([0, 30 * MIN, HOUR, 80 * MIN, 2 * HOUR])
    bad = np.array([True, False, True, False, False])
    c = clock_counts(t, bad, np.array([0, 5]), HOUR, 2 * HOUR)
    assert c.start.tolist() == [0, 30 * MIN, HOUR, HOUR + 1, 80 * MIN, 90 * MIN + 1]
    assert c.total.tolist() == [1, 2, 3, 2, 3, 2]
    assert c.instant.tolist() == [False, False, True, False, False, False]
    code = np.array([3, 1, 3, 1, 1, 1], dtype=np.int8)  # the statuses worked out above
    rows, was = counted_changes(c, code)
    assert rows.tolist() == [0, 1] and was.tolist() == [0, 3]  # healthy -> exhausted -> warning
    events = as_events(T0 + pd.to_timedelta(t, unit="ns"), ~bad)
    slo = SLO(target=0.4, window="1h")
    assert replay(events, slo)["status"].astype(str).tolist()[2] == "exhausted"  # the seed's
    row = compare_windows(events, slo, ["1h"]).iloc[0]
    assert row["transitions"] == 0 and row["round_trips"] == 0
    # a calendar window has no such instant: an event 1 ns before the reset is in it for 1 ns
    day = clock_counts(np.array([0, 10]), np.array([True, True]), np.array([0, 2]), 0, 30,
                       leave=np.array([11, 11]), warmup_ns=0)
    assert day.instant.tolist() == [False, False]


def test_split_days_cuts_at_the_blocks():
    row, day, ns = split_days(np.array([0, 5, 9]), np.array([30, 5, 11]), 0, 10)
    assert row.tolist() == [0, 0, 0, 2, 2] and day.tolist() == [0, 1, 2, 0,
                                                                1] and ns.tolist() == [10, 10, 10,
                                                                                       1, 1]


def test_a_silence_is_no_time_and_the_span_is_the_coverage_after_warm_up():
    # one event a minute for a day, 30 days of silence, one more day; 1 h window, history long
    # enough to hold both. Evaluated: from 01:00 (warm-up) to 1 h + 1 ns after 23:59 on the first
    # day; from 01:00 to 23:59 (the observation's end, the last event) on the second.
    ev = _log(_minutes(0, 1440, 20, "a"), _minutes(31, 1440, 20, "a"))
    r = recalibrate(ev, window="1h", by="kind", target=0.9, history="40D", n_boot=50)
    s = r.summary.iloc[0]
    first = (23 * 60 + 59) * MIN + 1
    second = (22 * 60 + 59) * MIN
    assert s["hours"] == pytest.approx((first + second) / HOUR, rel=1e-12)
    # events counted in the same span: the minutes from 01:00 on, both days: 2 x 1380
    assert s["events"] == 2 * 1380
    fails = sum(1 for m in range(60, 1440) if m % 20 == 0) * 2
    assert s["failures"] == fails and s["success_rate"] == pytest.approx(1 - fails / 2760)
    assert s["traffic_days"] == 2
    assert s["events_per_day"] == pytest.approx(2760 / ((first + second) / (24 * HOUR)))
    # the rolling rate of a steady 5 % failing stream sits at 95 %: 0.9 is too loose, no silence
    # counted as "burn 0" and nothing about the 30 days
    assert s["verdict"] in ("too_loose", "ok")


def test_a_74_percent_group_is_never_too_loose_and_a_two_event_group_gets_no_verdict():
    # the proxy log's shape: a busy day at 74 % success, nine months of silence, a busy day again;
    # a group with two events; a 95 % target for both
    busy = _log(_minutes(0, 1440, None, "busy"), _minutes(270, 1440, None, "busy"))
    rng = np.random.default_rng(3)
    ok = rng.random(len(busy)) < 0.74
    busy = as_events(busy["ts"], ok, groups={"kind": ["busy"] * len(busy)})
    two = pd.DataFrame(
        {
            "ts": [T0 + pd.Timedelta(hours=5), T0 + pd.Timedelta(hours=6)],
            "ok": [True, False],
            "kind": "two",
        }
    )
    ev = _log(pd.DataFrame({"ts": busy["ts"], "ok": busy["ok"], "kind": "busy"}), two)
    r = recalibrate(ev, window="1h", by="kind", target=0.95, history="300D", n_boot=100)
    s = r.summary.set_index("kind")
    b = s.loc["busy"]
    assert b["success_rate"] < 0.76
    assert b["verdict"] == "too_strict" and b["action"].startswith("loosen")
    assert b["recommended_high"] < 0.95 or np.isnan(b["recommended_target"])
    t = s.loc["two"]
    # the second event, exactly one window after the first, is the stretch's only evaluated event
    assert t["events"] == 1
    assert t["verdict"] == "withheld" and np.isnan(t["recommended_target"]) and t["action"] == ""
    assert t["verdict_reason"].startswith("1 event in the evaluated span: too few for a verdict")
    assert np.isnan(t["recommended_low"]) and np.isnan(t["recommended_high"])


@pytest.mark.parametrize("lo,hi,p10,want", [
    (0.96, 0.98, 0.99, ("ok", "keep 0.97")),  # the interval straddles the current target
    # wholly above, the budget barely moves
    (0.972, 0.98, 0.995, ("too_loose", "tighten to 0.976")),
    (0.972, 0.98, 0.97, ("ok", "keep 0.97")),  # wholly above, but the window burns its budget
])
def test_too_loose_only_when_the_whole_interval_lies_above(lo, hi, p10, want):
    v, reason, action = verdict(0.97, 0.0, p10, 0.976, lo, hi, max_share=0.01,
                                limit_status="exhausted",
                                loose_burn=0.25)
    assert (v, action) == want
    assert reason.endswith(action)


def test_too_strict_whenever_the_current_target_breaks_the_rule():
    # 20 % of the time EXHAUSTED under 0.95, limit 1 %: the current target breaks the rule on the
    # whole history, though the interval 0.92 .. 0.96 reaches it (stop 58: it read "ok, keep 0.95"
    # beside the 20 %, an "ok" the figures beside it contradict)
    v, _, action = verdict(0.95, 0.2, 0.9, 0.93, 0.92, 0.96, max_share=0.01,
                           limit_status="exhausted",
                           loose_burn=0.25)
    assert (v, action) == ("too_strict", "loosen to 0.93")
    v, _, action = verdict(0.95, 0.2, 0.9, 0.93, 0.92, 0.94, max_share=0.01,
                           limit_status="exhausted",
                           loose_burn=0.25)
    assert (v, action) == ("too_strict", "loosen to 0.93")
    # no target meets the rule, every resample below the candidates: too strict, said so
    v, reason, action = verdict(0.95, 0.5, 0.5, np.nan, np.nan, np.nan, max_share=0.01,
                                limit_status="exhausted",
                                loose_burn=0.25)
    assert v == "too_strict" and ("no usual target meets the "
                                  "rule") in reason and action.startswith("loosen")


def test_a_suggested_window_is_never_longer_than_the_history_or_the_maximum():
    assert suggest_window(100, 40.0, 28.0) == "3D"
    assert suggest_window(100, 40.0, 2.0) is None  # 2.5 days of window, 2 days of history
    assert suggest_window(100, 100 / (MAX_WINDOW_DAYS + 0.5), 60.0) is None
    assert suggest_window(100, 0.179, 270.0) is None  # the "window=560D"
    assert suggest_window(10, 240.0, 1.0) == "1h"


def test_thin_groups_print_no_nan_in_recalibrate_text(tmp_path, capsys):
    from budgetlab.cli import main

    ev = _log(_minutes(0, 600, 4, "busy"), pd.DataFrame({"ts": [T0 + pd.Timedelta(hours=3)],
                                                         "ok": [False],
                                                          "kind": "lone"}))
    path = tmp_path / "log.csv"
    ev.assign(ts=ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")).to_csv(path, index=False)
    assert main(["recalibrate", str(path), "--ok", "ok", "--by", "kind", "--target", "0.9",
                 "--window", "1h"]) == 0
    out = capsys.readouterr().out
    for token in ("nan", "NaN", "NaT"):
        assert token not in out
    # its one event's stretch is its warm-up: the window holds it through the instant the warm-up
    # closes and is empty 1 ns later, one instant and no evaluated time
    assert group_lines(out, "kind=")["kind=lone"].startswith(
        "kind=lone: no events after the 1 h warm-up (no evaluated time)")


@pytest.mark.parametrize("min_events", [0, 4])
def test_candidate_shares_equal_status_spans(min_events):
    # bursts of traffic with silences longer than the window in between, two groups; the
    # candidates' time shares equal the time status_spans (its own oracle: the seed port at every
    # event and expiry instant) spends at each status after each stretch's warm-up, in the span;
    # nine 3 h bursts give each group about 27 h of evaluated time, enough for time shares (24 h)
    from budgetlab import SLO, status_spans

    rng = np.random.default_rng(min_events + 5)
    parts = []
    for g in ("a", "b"):
        for burst in range(9):
            start = T0 + pd.Timedelta(hours=7 * burst + (2 if g == "b" else 0))
            ts = start + pd.to_timedelta(np.sort(rng.uniform(0, 3 * 3600, 150)).round(3), unit="s")
            parts.append(pd.DataFrame({"ts": ts, "ok": rng.random(150) < 0.9, "kind": g}))
    ev = _log(*parts)
    slo = SLO(target=0.9, window="30min", min_events=min_events)
    r = recalibrate(ev, slo=slo, by="kind", history="10D", candidates=[0.85, 0.9], n_boot=0)
    assert (r.summary["hours"] > 24).all() and r.summary["verdict"].notna().all()  # none withheld
    lo, hi = r.settings["span_start"].value, r.settings["span_end"].value
    for target in (0.85, 0.9):
        sp = status_spans(ev, slo.with_(target=target), by="kind")
        for kind, g in sp.groupby("kind", observed=True):
            busy = g[g["status"] != "no_traffic"]
            a = np.maximum(np.maximum(busy["start"].array.asi8, busy["warmup_end"].array.asi8), lo)
            b = np.minimum(busy["end"].array.asi8, hi)
            dt = np.maximum(b - a, 0)
            row = r.candidates[
                (r.candidates["kind"] == kind) & (r.candidates["target"] == target)
            ].iloc[0]
            for st in ("healthy", "warning", "critical", "exhausted"):
                want = dt[(busy["status"] == st).to_numpy()].sum() / dt.sum()
                assert row[f"share_{st}"] == pytest.approx(want, rel=1e-9, abs=1e-12), (target,
                                                                                        kind, st)


def test_thin_evidence_without_a_target_says_what_it_judged_at():
    # 3 events, no target at all (none given, none recommended, no candidate): counted at 50 %,
    # the lowest usual target: 3 x 0.5 = 1.5 expected failures; 10 need 10 / 0.5 = 20 events
    words = thin_evidence(3, float("nan"), 1, True)
    assert words == ("3 events in the evaluated span: too few for a verdict (no target given and "
                     "none to recommend: at 50 %, the lowest target the candidates start from, "
                     "they hold 1.5 expected failures; one needs at least 10, i.e. 20 "
                     "events)")
    # a target given: judged under it (3 x 0.1 = 0.3; 10 / 0.1 = 100 events), and no word of a
    # missing one
    given = thin_evidence(3, 0.9, 1, True)
    assert "(under 90 % they hold 0.3 expected failures" in given and "100 events" in given
    assert "no target" not in given


def test_thin_evidence_without_a_target_names_the_target_it_counted_under():
    # no target given, the rule's would-be recommendation: named as that, never "under 96.5 %"
    rec = thin_evidence(100, 0.965, 1, True, judged_at="recommended")
    assert rec == ("100 events in the evaluated span: too few for a verdict (no target given: at "
                   "96.5 %, the target the rule would recommend, they hold 3.5 expected "
                   "failures; one needs at least 10, i.e. 286 events)")  # 10 / 0.035
    # 00:00 .. 05:00 hourly, the 01:00 one fails; 1 h window: the first event is warm-up, the other
    # five are evaluated (one failure). No target given, none recommended: counted at the group's
    # lowest candidate, 50 %: 5 x 0.5 = 2.5 expected failures; 10 / 0.5 = 20 events needed
    ts = pd.date_range("2026-01-01", periods=6, freq="1h")
    r = recalibrate(as_events(ts, [True, False, True, True, True, True]), window="1h", n_boot=0)
    row = r.summary.iloc[0]
    assert np.isnan(row["recommended_target"]) and row["verdict"] == "withheld"
    assert row["verdict_reason"] == (
        "5 events in the evaluated span: too few for a verdict (no target given and none to "
        "recommend: at 50 %, the lowest usual target, they hold 2.5 expected failures; one "
        "needs at least 10, i.e. 20 events)")
    assert "under 50 %" not in row["verdict_reason"]


def test_thin_evidence_without_a_target_weighs_a_faultless_group_at_the_lowest_usual_target():
    # 00:00 .. 04:00 hourly, all successes; 1 h window: the 00:00 event is warm-up, the 01:00 one
    # (exactly at its end) and the three after are evaluated: 4 events. The rolling rate is always
    # 100 %, so the candidates start at 99.99 %, but no target can be judged on 4 events: even at
    # 50 % they hold 4 x 0.5 = 2 expected failures, and 10 need 10 / 0.5 = 20 events (never
    # "100,000 events", the count at the range's own start)
    ts = pd.date_range("2026-01-01", periods=5, freq="1h")
    r = recalibrate(as_events(ts, [True] * 5), window="1h", n_boot=0)
    row = r.summary.iloc[0]
    assert row["events"] == 4
    assert np.isnan(row["recommended_target"]) and row["verdict"] == "withheld"
    assert row["verdict_reason"] == (
        "4 events in the evaluated span: too few for a verdict (no target given and none to "
        "recommend: at 50 %, the lowest usual target, they hold 2 expected failures; one "
        "needs at least 10, i.e. 20 events)")


def test_thin_evidence_at_four_nines_names_the_target_and_counts_exactly():
    # under 99.99 % ten expected failures need 10 / 0.0001 = 100,000 events (decimal arithmetic):
    # 5 events hold 5 x 0.0001 = 0.0005; the target is 99.99 %, never rounded to "100 %"
    words = thin_evidence(5, 0.9999, 1, True)
    assert words == ("5 events in the evaluated span: too few for a verdict (under 99.99 % they "
                     "hold 0.0005 expected failures; one needs at least 10, i.e. 100,000 "
                     "events)")
    # 100,000 events hold exactly 10 (100,000 x 0.0001): enough, whatever the float rounding
    assert thin_evidence(100_000, 0.9999, 9, True) == ""
