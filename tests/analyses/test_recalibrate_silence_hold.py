"""recalibrate says how much of the time at the limit status rests on a window held over a silence
(stop 60, D1): "EXHAUSTED or worse 0.10 % of the evaluated time" was all on a 24 h window that held
only the last events before a 2-day silence of its group, and nothing said so (compare-windows
did, by the rule of budgetlab/analyses/window_silence.py, which recalibrate now shares). The
figure stands: a window held over a silence keeps its status, and is said.

The oracle is a hand-built log, one event every 6 minutes, a 1 h window, target 0.75 (EXHAUSTED:
failures >= 0.25 of the window's events):

* group ``a``: events at minutes 0, 6, ..., 1800 (0 h .. 30 h), the last five (29:36 .. 30:00)
  failures; silence (10 h, longer than the window); events from 40 h to 70 h, all successes.
  The window holds 10 events between two arrivals: 3 failures from 29:48 (EXHAUSTED), more after;
  after 30:00 no event arrives and the window holds only failures until it empties at 31:00.
  EXHAUSTED: 29:48 .. 31:00 = 72 min, of it 30:00 .. 31:00 = 60 min over the silence.
  Evaluated time: 1 h .. 31 h (after the 1 h warm-up, until the window empties) and 41 h .. 70 h
  (the second stretch's warm-up, to the log's end) = 30 h + 29 h = 59 h.
* group ``b``: events at minutes 0, 6, ..., 4200 (0 h .. 70 h), all successes: never EXHAUSTED.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl

T0 = pd.Timestamp("2026-01-05 00:00", tz="UTC")
EVALUATED_H = 59.0
EXHAUSTED_H = 72 / 60
SILENT_H = 1.0


def _table() -> pd.DataFrame:
    a1 = np.arange(0, 1801, 6)
    a2 = np.arange(2400, 4201, 6)
    b = np.arange(0, 4201, 6)
    minutes = np.r_[a1, a2, b]
    group = ["a"] * (len(a1) + len(a2)) + ["b"] * len(b)
    bad = np.r_[a1 >= 29 * 60 + 36, np.zeros(len(a2), bool), np.zeros(len(b), bool)]
    return pd.DataFrame({"ts": T0 + pd.to_timedelta(minutes, unit="min"), "group": group,
                         "outcome": np.where(bad, "timeout", "success")})


def _log() -> pd.DataFrame:
    t = _table()
    return bl.as_events(t["ts"], t["outcome"] == "success", groups={"group": t["group"]})


@pytest.fixture(scope="module")
def rec() -> bl.Recalibration:
    return bl.recalibrate(_log(), window="1h", by="group", target=0.75, n_boot=0,
                          show_progress=False)


def test_share_and_its_silent_part(rec: bl.Recalibration) -> None:
    s = rec.summary.set_index("group")
    assert s.loc["a", "hours"] == pytest.approx(EVALUATED_H, abs=1e-9)
    # the figure itself is unchanged: 72 min of 59 h
    assert s.loc["a", "current_share_limit"] == pytest.approx(EXHAUSTED_H / EVALUATED_H,
                                                              rel=1e-9)
    assert s.loc["a", "current_share_limit_silent"] == pytest.approx(SILENT_H / EVALUATED_H,
                                                                     rel=1e-9)
    assert s.loc["b", "current_share_limit"] == 0.0
    assert s.loc["b", "current_share_limit_silent"] == 0.0


def test_reason_says_it(rec: bl.Recalibration) -> None:
    s = rec.summary.set_index("group")
    reason = s.loc["a", "verdict_reason"]
    assert "EXHAUSTED or worse 2.03 % of the evaluated time under 0.75" in reason
    assert "1 h of it on a window held over a silence" in reason
    assert "silence" not in s.loc["b", "verdict_reason"]
    sentence = bl.target_verdicts(rec).set_index("group").loc["a", "sentence"]
    assert "1 h of it on a window held over a silence" in sentence


def test_all_of_it_when_every_second_is_held() -> None:
    from budgetlab.analyses.recalibration.verdict import silence_aside

    # 0.4546 h of 433 h, every second of it held: "all of it", with its duration
    words = silence_aside(0.4546 / 433, 0.4546 / 433, 433.0)
    assert words.startswith(", all of it (27 min 16 s) on a window held over a silence")
    assert silence_aside(0.0, 0.01, 433.0) == ""


def test_cli_prints_it(tmp_path, capsys) -> None:
    from budgetlab.cli import main

    path = tmp_path / "log.csv"
    _table().to_csv(path, index=False)
    code = main(["recalibrate", str(path), "--by", "group", "--target", "0.75", "--window", "1h",
                 "--n-boot", "0"])
    out = " ".join(capsys.readouterr().out.split())
    assert code in (0, None)
    assert "2.03 % of the evaluated time under 0.75 (limit 1 %), 1 h of it on a window held " \
           "over a silence" in out
