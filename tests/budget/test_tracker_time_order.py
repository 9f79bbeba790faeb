"""``Tracker.record`` refuses a time earlier than the last one and a mix of naive and aware times
(api54). The seed reads ``time.monotonic()`` itself, so its times never go back: in-order input
is unchanged (tests/test_replay_oracle.py holds that bit for bit).

Oracle: the window worked out by hand. SLO 90 %, window 1 h: after events at 05:00 (ok) and 05:30
(ok) the window [04:30, 05:30] holds 2 successes, 0 failures: healthy.
"""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import InputError


def test_record_refuses_a_time_before_the_last_and_keeps_its_window():
    t = bl.Tracker(bl.SLO(target=0.9, window="1h"))
    t.record(True, "2026-01-01 05:00")
    # it counted the 00:00 failure in the 05:30 window: 3 events, 1 failure, exhausted
    with pytest.raises(InputError, match=r"^record\(\) needs times in order, not before the last "
                                         r"recorded event \(2026-01-01 05:00:00\+00:00\)"):
        t.record(False, "2026-01-01 00:00")
    assert t.record(True, "2026-01-01 05:30") == "healthy"
    r = t.report()
    assert (r["total_events"], r["successes"], r["failures"]) == (2, 2, 0)
    # replay of the events in order says the same
    ev = bl.as_events(pd.to_datetime(["2026-01-01 05:00", "2026-01-01 05:30"], utc=True),
                      [True, True])
    assert bl.replay(ev, bl.SLO(target=0.9, window="1h"))["status"].tolist()[-1] == "healthy"


def test_record_accepts_ties():
    t = bl.Tracker(bl.SLO(target=0.5, window="1h"))
    t.record(True, "2026-01-01 05:00")
    t.record(False, "2026-01-01 05:00")
    assert (t.total, t.failures) == (2, 1)


def test_record_refuses_naive_times_after_aware_ones_and_the_reverse():
    t = bl.Tracker(bl.SLO(target=0.9, window="1h"))
    t.record(True, "2026-01-01 05:00")  # naive: read as UTC
    with pytest.raises(InputError, match="ts mixes naive times .* and times with a zone"):
        t.record(True, pd.Timestamp("2026-01-01 06:00", tz="Europe/Berlin"))
    assert t.total == 1  # refused: not recorded
    t.record(True, "2026-01-01 05:10")
    a = bl.Tracker(bl.SLO(target=0.9, window="1h"))
    a.record(True, "2026-01-01T05:00Z")
    with pytest.raises(InputError, match="ts mixes naive"):
        a.record(True, "2026-01-01 05:10")
    with pytest.raises(InputError, match="ts mixes naive"):
        a.record_many([True], pd.to_datetime(["2026-01-01 05:10"]).to_numpy())
    # a batch that mixes them on its own
    b = bl.Tracker(bl.SLO(target=0.9, window="1h"))
    with pytest.raises(InputError, match="ts mixes naive"):
        b.record_many([True, True], ["2026-01-01 05:00Z", "2026-01-01 05:10"])
    assert b.total == 0


def test_keyed_tracker_refuses_the_same():
    kt = bl.KeyedTracker({"a": 0.9, "b": 0.9})
    kt.record("a", True, "2026-01-01 05:00")
    with pytest.raises(InputError, match="needs times in order"):
        kt.record("a", True, "2026-01-01 04:00")
    kt.record("b", True, "2026-01-01 04:00")  # each group has its own order
    with pytest.raises(InputError, match="ts mixes naive"):
        kt.record_many(["a", "b"], [True, True], ["2026-01-01 06:00Z", "2026-01-01 06:00Z"])
    assert (kt.tracker("a").total, kt.tracker("b").total) == (1, 1)
