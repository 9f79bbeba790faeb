"""recalibrate's "no target meets the rule" note says how much of the share it quotes at the
lowest candidate rests on a window held over a silence (r60 item 2: "even 50 % ... is EXHAUSTED
or worse 3.77 % of the time" was all on windows held over a silence, said only for the current
target). The rule is the verdict's (budgetlab/analyses/window_silence.py).

Oracle: a hand-built log, window 1 h. Group ``g``: an event every minute, minutes 0 .. 2879
(0 h .. 47:59), the last 30 (2850 .. 2879) failures; group ``z``: one event at 60 h, so the log
ends 12 h after g's last event (a silence longer than the window). At 50 % a window is EXHAUSTED
when its failures are at least half its events: from 2879 (60 events, 30 failures) on, and after
it, with no event arriving, the window holds 30 failures and fewer successes until it empties at
2939: 60 min EXHAUSTED, all of it from g's last event on (held over the silence); before 2879 a
window holds fewer than 30 failures in 60 events. Evaluated time: 60 .. 2939 = 2,879 min (after
the 1 h warm-up, until the window empties): 60 / 2,879 = 2.08 %.
"""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def test_no_target_note_says_the_share_held_over_a_silence(tmp_path, capsys):
    rows = [(T0 + pd.Timedelta(minutes=m), "g", m < 2850) for m in range(2880)]
    rows.append((T0 + pd.Timedelta(hours=60), "z", True))
    log = tmp_path / "log.csv"
    pd.DataFrame(rows, columns=["ts", "g", "ok"]).assign(
        ts=lambda d: d["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")).to_csv(log, index=False)
    assert main(["recalibrate", str(log), "--ok", "ok", "--by", "g", "--window", "1h",
                 "--target", "0.98", "--n-boot", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("note: no target meets the rule: even 50 %, the lowest usual target, is EXHAUSTED or "
            "worse 2.08 % of the time (limit 1 %; ") in out
    assert ("the 2.08 % at 50 %, all of it (1 h) on a window held over a silence (it held only "
            "events from before a gap longer than the window); ") in out
