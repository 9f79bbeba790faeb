"""recalibrate's candidate range at every limit status: it starts at the usual target at or below
the target from which a window at the rolling rate's 1 % quantile (p1) is at ``limit_status`` or
worse (``levels.limit_floor``, by ``level_threshold``, the rule of ``distribution.target``): p1
itself at exhausted, ``1 - (1 - p1) / (1 - fraction)`` at critical (``critical`` = 0.1) and
warning (``warning`` = 0.5). Stop 54: the range started at p1 at every status, above every target
that meets the rule at warning, so the demo said "no target meets the rule" for every group.

The usual targets (``candidates.USUAL_TARGETS``): 0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975, 0.99,
0.995, 0.999, 0.9995, 0.9999; the rule chooses among them and the fine steps between two
neighbours (``step`` = 0.005 where four fit: multiples of 0.005 from 0.5 to 0.95).

The hand-built logs (as in tests/plotting/test_recalibration_limit_curve.py): one event a minute
for 4 days, every ``k``-th failing on the first 2 days, none after; a 1 h window. From 01:00 (after
warm-up) to 48:05 every window holds 60 events with 60 / k failures: a rolling rate of 1 - 1 / k
for 2,825 of the 5,699 evaluated minutes, higher after (a window holds 61 events only for the 1 ns
at an arrival), so p1 = 1 - 1 / k. The seed's status (budgetlab.budget.figures): remaining =
1 - f / (n (1 - t)); WARNING below 0.5, CRITICAL below 0.1, EXHAUSTED at 0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl


def _log(k: int) -> pd.DataFrame:
    n = 4 * 1440
    i = np.arange(n)
    ts = pd.Timestamp("2026-01-05", tz="UTC") + pd.to_timedelta(i, unit="min")
    return bl.as_events(ts, ~((i < 2 * 1440) & (i % k == k - 1)))


@pytest.fixture(scope="module")
def sixth() -> pd.DataFrame:
    return _log(6)


# k = 6, p1 = 5/6. The floor: warning 1 - (1/6) / 0.5 = 2/3, critical 1 - (1/6) / 0.9 = 22/27 =
# 0.8148, exhausted 5/6; the range starts at 0.5, 0.8, 0.8 (no usual target in (0.5, 2/3]). The
# recommendation: the highest multiple of 0.005 at or below the floor, where a 60-event window
# with 10 failures keeps its status: warning 0.665 (remaining 1 - 10 / (60 x 0.335) = 0.5025; at
# 0.67, 0.4949 < 0.5), critical 0.81 (0.1228; at 0.815, 0.0991 < 0.1), exhausted 0.83 (0.0196;
# at 0.835, -0.0101). Above it the share of time at the limit status or worse is 2,825 / 5,699.
@pytest.mark.parametrize(("limit", "recommended", "lowest"), [
    ("warning", 0.665, 0.5), ("critical", 0.81, 0.8), ("exhausted", 0.83, 0.8)])
def test_the_range_reaches_down_to_the_target_at_which_p1_meets_the_limit(sixth, limit,
                                                                       recommended, lowest):
    r = bl.recalibrate(sixth, window="1h", limit_status=limit, n_boot=0)
    row = r.summary.iloc[0]
    assert row["p1"] == pytest.approx(5 / 6, rel=1e-12)
    assert row["recommended_target"] == pytest.approx(recommended, abs=1e-12)
    assert r.candidates["target"].min() == pytest.approx(lowest, abs=1e-12)


# k = 10, p1 = 0.9 (54 / 60), a usual target, at the limit for every 0.9 window at critical and
# warning (remaining 1 - 6 / (60 x 0.1) = 0): the range started there and nothing in it met the
# rule. The floor at critical: 1 - 0.1 / 0.9 = 0.8889, range from 0.85; 0.885 keeps
# 1 - 6 / (60 x 0.115) = 0.1304, 0.89 gives 1 - 6 / 6.6 = 0.0909 < 0.1. At warning:
# 1 - 0.1 / 0.5 = 0.8, a usual target where the seed's floats make the 0.9 window WARNING
# (remaining (12 - 6) / 12 in floats is 0.4999999999999998): range from 0.75; 0.795 keeps
# 1 - 6 / (60 x 0.205) = 0.5122
@pytest.mark.parametrize(("limit", "recommended", "lowest"), [
    ("critical", 0.885, 0.85), ("warning", 0.795, 0.75)])
def test_the_range_reaches_below_a_usual_target_at_p1(limit, recommended, lowest):
    r = bl.recalibrate(_log(10), window="1h", limit_status=limit, n_boot=0)
    row = r.summary.iloc[0]
    assert row["p1"] == pytest.approx(0.9, rel=1e-12)
    assert row["recommended_target"] == pytest.approx(recommended, abs=1e-12)
    assert r.candidates["target"].min() == pytest.approx(lowest, abs=1e-12)


def test_the_note_names_the_floor_when_it_is_below_every_usual_target():
    # k = 3, p1 = 2/3: at warning the floor is 1 - (1/3) / 0.5 = 1/3, below 50 %, the lowest
    # usual target, where a 2/3 window is WARNING (remaining 1 - 20 / 30 = 1/3 < 0.5)
    r = bl.recalibrate(_log(3), window="1h", limit_status="warning", n_boot=0)
    row = r.summary.iloc[0]
    assert np.isnan(row["recommended_target"])
    note = row["recommendation_note"]
    assert note.startswith("no target meets the rule: even 50 %, the lowest usual target, is "
                           "WARNING or worse ")
    assert ("33.33 %, the target above which a window at the rolling rate's 1 % quantile "
            "(66.67 %) is WARNING or worse, is below every usual target)") in note
