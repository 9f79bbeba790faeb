"""compare_windows: a group that stops sending before the log ends went silent (stop 59). The
hold after its last event counts as held over a silence when the log goes on longer than the
window after it (a calendar window: longer than the period holding that event), the rule of a
gap between two events. Oracles: hand-counted logs.

Before, only a gap between two of a group's events was a silence: a group whose last event was a
failure kept its window EXHAUSTED after it, on no new event, with hours_silent_window 0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows

D0 = pd.Timestamp("2026-03-02", tz="UTC")  # a Monday
END = pd.Timestamp("2026-04-15", tz="UTC")
NS = 1 / 3.6e12  # one nanosecond in hours


def _log() -> pd.DataFrame:
    """keep: a success every hour from D0 to END (the log's last event); gone: every hour from D0
    to D0 + 1 d 5 h, its last event a failure, then nothing; near: every hour from D0 to
    END - 3 h, all successes."""
    keep = pd.date_range(D0, END, freq="h")
    gone = pd.date_range(D0, D0 + pd.Timedelta("1D5h"), freq="h")
    near = pd.date_range(D0, END - pd.Timedelta("3h"), freq="h")
    frame = pd.concat([pd.DataFrame({"ts": keep, "svc": "keep", "ok": True}),
                       pd.DataFrame({"ts": gone, "svc": "gone", "ok": [True] * 29 + [False]}),
                       pd.DataFrame({"ts": near, "svc": "near", "ok": True})])
    return frame.sort_values("ts", kind="stable", ignore_index=True)


def _table() -> pd.DataFrame:
    frame = _log()
    ev = as_events(frame["ts"], frame["ok"].to_numpy(), groups={"svc": frame["svc"].to_numpy()})
    t = compare_windows(ev, SLO(target=0.9), ["6h", "calendar:day", "calendar:month"], by="svc")
    return t.set_index(["svc", "window"])


def test_the_hold_after_a_group_s_last_event_is_held_over_a_silence():
    t = _table()
    # 6 h: gone's last event (D1 05:00, a failure) stays in the window through D1 11:00 (and
    # 1 ns); the log goes on to 04-15, far longer than 6 h: 6 h held over a silence. At D1 05:00
    # the window holds D0 23:00 .. D1 05:00, 7 events and 1 failure: a budget of 0.7 spent,
    # EXHAUSTED, and so while older successes leave it: all 6 h EXHAUSTED.
    six = t.loc[("gone", "6h")]
    assert six["hours_silent_window"] == pytest.approx(6.0 + NS, abs=1e-9)
    assert six["hours_exhausted_silent"] == pytest.approx(6.0 + NS, abs=1e-9)
    # evaluated: from the warm-up's end (D0 06:00) to the window emptying (D1 11:00): 29 h
    assert six["hours"] == pytest.approx(29.0, abs=1e-9)
    # calendar:day: day D1 holds 00:00 .. 05:00, 6 events and 1 failure (budget 0.6 spent,
    # EXHAUSTED) until its midnight: 19 h held, all EXHAUSTED
    day = t.loc[("gone", "calendar:day")]
    assert day["hours_silent_window"] == pytest.approx(19.0)
    assert day["hours_exhausted_silent"] == pytest.approx(19.0)
    # calendar:month: March (744 h) holds D1 05:00 to 04-01 00:00: 28 d 19 h = 691 h after it,
    # and the log goes on 43 d 19 h after it; March holds 30 events, 1 failure of a budget of 3:
    # 2/3 of it left, HEALTHY, no EXHAUSTED time
    month = t.loc[("gone", "calendar:month")]
    assert month["hours_silent_window"] == pytest.approx(691.0)
    assert month["hours_exhausted_silent"] == 0.0
    assert month["hours"] == pytest.approx(720.0)
    # a group ending within the window of the log's end is no silence: near ends 3 h before the
    # log, shorter than 6 h, than its day and its month; keep ends with the log
    for svc in ("near", "keep"):
        for w in ("6h", "calendar:day", "calendar:month"):
            assert t.loc[(svc, w), "hours_silent_window"] == 0.0, (svc, w)


def test_the_cli_names_the_rows_held_after_a_group_s_last_event(tmp_path, capsys):
    from budgetlab.cli import main

    frame = _log()
    frame["ts"] = frame["ts"].map(lambda x: x.strftime("%Y-%m-%dT%H:%M:%SZ"))
    frame["outcome"] = np.where(frame["ok"], "ok", "err")
    path = tmp_path / "gone.csv"
    frame[["ts", "svc", "outcome"]].to_csv(path, index=False)
    assert main(["compare-windows", str(path), "--by", "svc", "--outcomes", "ok=success,err=error",
                 "--target", "0.9", "--windows", "6h,calendar:day,calendar:month"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "held over a silence (" in out
    block = out.split("held over a silence (")[1]
    assert block.startswith("after the last event before a gap longer than the window, a "
                            "calendar window's period, or before the log's end when it goes on "
                            "longer than that after a group's last event")
    # calendar:day: gone's window holds traffic D0 00:00 .. D2 00:00 (48 h); month: March from
    # D0, 720 h
    assert "6 h, svc=gone: 6 h of its 29 h (6 h of it EXHAUSTED)" in block
    assert "calendar:day, svc=gone: 19 h of its 48 h (19 h of it EXHAUSTED)" in block
    assert "calendar:month, svc=gone: 691 h of its 720 h" in block
    assert "svc=near" not in block and "svc=keep" not in block
