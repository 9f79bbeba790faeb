"""compare_windows: the status time a window holds over a silence, and the events rule for its
time shares (stop 59). Oracles: hand-counted logs.

Before stop 59 a calendar:month counted a month EXHAUSTED from one failure followed by eight
months of silence, without a word, and a row of 20 events had its time shares printed while
``buckets`` and ``recalibrate`` withhold a verdict below 10 expected failures.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows
from budgetlab.analyses.window_clock import thin_rows

D0 = pd.Timestamp("2026-03-02", tz="UTC")


def _silent_day_log() -> pd.DataFrame:
    # day 0: 24 successes, 00:00 .. 23:00; day 1: one failure at 06:00, then silence until
    # day 5 12:00 and 13:00 (two successes)
    ts = [D0 + pd.Timedelta(hours=h) for h in range(24)]
    ts += [D0 + pd.Timedelta("1D6h"), D0 + pd.Timedelta("5D12h"), D0 + pd.Timedelta("5D13h")]
    ok = [True] * 24 + [False, True, True]
    return as_events(pd.DatetimeIndex(ts), ok)


def test_a_calendar_day_silent_after_its_first_event_says_its_hours_rest_on_a_silence():
    t = compare_windows(_silent_day_log(), SLO(target=0.9), ["calendar:day", "1h"])
    day, hour = t.iloc[0], t.iloc[1]
    assert (day["window"], hour["window"]) == ("calendar:day", "1h")
    # by hand: the calendar day holds traffic D0 00:00 .. D1 00:00 (24 h), D1 06:00 .. D2 00:00
    # (18 h: the one failure, EXHAUSTED under 0.9) and D5 12:00 .. 13:00 (1 h): 43 h, 18 h
    # EXHAUSTED. The gap D1 06:00 .. D5 12:00 (4 d 6 h) is longer than the day: the 18 h after
    # the failure rest on a window to which no event came. The gap D0 23:00 .. D1 06:00 (7 h) is
    # shorter than the day: no silence, nothing counted.
    assert day["hours"] == pytest.approx(43.0)
    assert day["hours_exhausted"] == pytest.approx(18.0)
    assert day["hours_silent_window"] == pytest.approx(18.0)
    assert day["hours_exhausted_silent"] == pytest.approx(18.0)
    # the rolling 1 h window: silences of 7 h and 4 d 6 h; the first is held for one window after
    # 23:00 (healthy, 1 h and the 1 ns the 23:00 event stays); the 06:00 failure's hour is the
    # warm-up of its stretch, not evaluated: the window holds it through 07:00, the instant the
    # warm-up closes, and is empty 1 ns later, one instant and no evaluated time (it counted
    # that 1 ns EXHAUSTED, held over the silence)
    ns = 1 / 3.6e12
    assert hour["hours_silent_window"] == pytest.approx(1.0 + ns, abs=1e-15)
    assert hour["hours_exhausted_silent"] == 0


def _every_10_min(n: int) -> pd.DataFrame:
    ts = D0 + pd.to_timedelta(np.arange(n) * 10, unit="min")
    return as_events(ts, [True] * n)


def test_time_shares_from_too_few_events_for_the_target_are_withheld_in_words():
    # calendar:day, all successes every 10 min: 199 events (D0 00:00 .. D1 09:00, 33 h of
    # evaluated time, over the one-day rule) hold 199 x 0.05 = 9.95 expected failures under 95 %,
    # under the 10 of buckets and recalibrate; 200 hold 10, enough
    thin = compare_windows(_every_10_min(199), SLO(target=0.95), ["calendar:day"])
    ok = compare_windows(_every_10_min(200), SLO(target=0.95), ["calendar:day"])
    assert thin.loc[0, "hours"] == pytest.approx(33.0)
    assert thin.loc[0, "expected_failures"] == pytest.approx(9.95)
    assert thin.loc[0, "note"] == (
        "199 events in the evaluated span: too few for a verdict (under 95 % they hold 9.95 "
        "expected failures; one needs at least 10, i.e. 200 events)")
    assert thin_rows(thin).tolist() == [True]
    assert ok.loc[0, "expected_failures"] == pytest.approx(10.0)
    assert ok.loc[0, "note"] == "" and thin_rows(ok).tolist() == [False]


def test_the_cli_blanks_thin_shares_and_names_the_hours_held_over_a_silence(tmp_path, capsys):
    from budgetlab.cli import main

    log = _silent_day_log()
    path = tmp_path / "gap.csv"
    pd.DataFrame({"ts": [t.isoformat() for t in log["ts"]],
                  "outcome": np.where(log["ok"], "ok", "err")}).to_csv(path, index=False)
    assert main(["compare-windows", str(path), "--outcomes", "ok=success,err=error",
                 "--target", "0.9", "--windows", "calendar:day"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    # 27 events x 0.1 = 2.7 expected failures: the shares are blank and the row says why
    assert ("calendar:day: 27 events in the evaluated span: too few for a verdict (under 90 % "
            "they hold 2.7 expected failures; one needs at least 10, i.e. 100 events)") in out
    assert "calendar:day: 18 h of its 43 h (18 h of it EXHAUSTED)" in out
    assert "nan" not in out.lower().split()
