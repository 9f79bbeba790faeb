"""The incident summary never says a burn that is not zero as ``0``: the first status change's burn
is the tracker's own, from its window's counts, to three significant digits (it said "went HEALTHY
at 01:00 with 1 h burn 0", then, from the seed's report figure rounded to 2 decimals, "under
0.005"); ``replay``'s transitions table keeps the seed's figure and says what its 0.0 beside
failures is. A hand-built log, figures worked out by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")


def _log() -> pd.DataFrame:
    # target 50 %, 1 h window: 500 failures at 00:00 (EXHAUSTED), then 500 events up to 00:58:20
    # with one failure among them; at 01:00:00.5 the 500 failures have left the window (at
    # 01:00:00 + 1 ns), and a success makes 501 events with 1 failure: burn 1 / (501 x 0.5) =
    # 0.00399, HEALTHY, a change the seed reports with burn_rate round(0.00399, 2) = 0.0
    ts = ([T0] * 500 + list(T0 + pd.to_timedelta(np.linspace(1, 3500, 500), unit="s"))
          + [T0 + pd.Timedelta("3600.5s")]
          + list(T0 + pd.to_timedelta(np.linspace(3700, 7000, 50), unit="s")))
    ok = [False] * 500 + [True] * 250 + [False] + [True] * 249 + [True] * 51
    return pd.DataFrame({"ts": pd.DatetimeIndex(ts).as_unit("ns"), "ok": ok,
                         "bucket": pd.Categorical(["success" if o else "error" for o in ok])})


def test_a_change_whose_seed_burn_rounds_to_0_says_its_burn_to_three_digits():
    slo = bl.SLO(target=0.5, window="1h")
    rep = bl.incident_report(_log(), slo, "2026-03-02 00:30", "2026-03-02 01:30", context="1h")
    row = rep.tracker.iloc[0]
    assert row["first_change_to"] == "healthy"
    assert row["first_change_burn"] == pytest.approx(1 / (501 * 0.5))  # the seed's 0.0 unrounded
    # 1 / (501 x 0.5) = 0.003992 -> 0.00399; 500 successes in 501 events: 99.80 %
    assert "went HEALTHY at 01:00 with 1 h burn 0.00399 (1 h success 99.80 %)" in rep.summary
    assert "burn 0 (" not in rep.summary


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_replays_transitions_say_a_seed_burn_of_0_beside_failures_is_under_0_005(tmp_path,
                                                                                  capsys):
    from budgetlab.cli import main

    log = tmp_path / "log.csv"
    _log()[["ts", "ok"]].to_csv(log, index=False)
    assert main(["replay", str(log), "--ok", "ok", "--target", "0.5", "--window", "1h"]) == 0
    out = capsys.readouterr().out
    # the change at 01:00:00.5: 1 failure in 501 events, burn_rate 0.0 as the seed rounds it
    row = next(ln for ln in out.splitlines() if ln.startswith("2026-03-02 01:00:00"))
    assert row.split()[-1] == "0.0" and row.split()[-5] == "1"
    assert ("A burn_rate of 0.0 beside failures is a burn under 0.005 (its rounding), not none."
            in " ".join(out.split()))  # the note is filled to 100 columns
