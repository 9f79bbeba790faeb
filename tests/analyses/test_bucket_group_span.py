"""bucket_breakdown for a group whose traffic stops hours before the log ends (notebook 03's
one-call table): its alert tiers run on the window's clock, to the table's last event, and fire
only while their windows hold the group's events, never in the silence after them.

Two groups, one event a minute: ``A`` from 00:00 to 23:59, all successes; ``B`` from 00:00 to
17:59, silent for the log's last 6 hours. SLO 95 %, window 1 h; notebook 03's page: one 1 h window
burning faster than 0.9, i.e. more than 4.5 % of the window's events failed, evaluated at every
minute bin's end over the bins ``[t - 1 h, t)``. Every expected figure is counted by hand below;
the tracker's figures come from the seed tracker (``tests/seed_tracker.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, bin_events, bucket_breakdown, status_spans
from budgetlab.analyses.bucket_variants import episodes_caused
from tests.seed_tracker import ErrorBudgetTracker, SLOConfig

T0 = pd.Timestamp("2026-01-01", tz="UTC")
SLO_1H = SLO(target=0.95, window="1h")
PAGE = AlertPolicy.single_window("1h", 0.9)  # notebook 03's policy (window, page_burn)


def two_groups(b_timeouts: list[int], a_minutes: int = 24 * 60) -> pd.DataFrame:
    """A: ``a_minutes`` successes; B: 18 h of events, timeouts at the minutes ``b_timeouts``."""
    b_minutes = np.arange(18 * 60)
    minutes = np.r_[np.arange(a_minutes), b_minutes]
    group = ["A"] * a_minutes + ["B"] * len(b_minutes)
    bucket = np.r_[["success"] * a_minutes,
                   np.where(np.isin(b_minutes, b_timeouts), "timeout", "success")]
    ts = T0 + pd.to_timedelta(minutes, unit="min")
    return as_events(ts, bucket == "success", bucket, groups={"g": group})


def b_rows(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["g"] == "B"].set_index("bucket", drop=False)


def seed_statuses(events: pd.DataFrame) -> list[str]:
    """The seed tracker's status after each of B's events (its per-event clock)."""
    tracker = ErrorBudgetTracker(SLOConfig(target_success_rate=0.95, window_seconds=3600))
    out = []
    for ts, ok in zip(events["ts"], events["ok"], strict=True):
        tracker.record(bool(ok), ts.value / 1e9)
        out.append(tracker._last_status.value)
    return out


def test_a_page_firing_at_the_groups_last_event_ends_when_its_window_empties():
    # B's timeouts: the odd minutes of 17:00-17:59 (30 of its last 60 events). At 17:06 the
    # window [16:06, 17:06) holds 3 timeouts in 60 events, 5 % > 4.5 % (at 17:04: 2 of 60):
    # the page starts there and is firing at B's last event (17:59). After it the window keeps
    # B's last events, the timeout of 17:59 until the bin end 19:00 (ratio 1 from 18:59): the page
    # ends at 19:00, one window after B's last minute bin, and not at the log's end (24:00).
    ev = two_groups(list(range(17 * 60 + 1, 18 * 60, 2)))
    bins = bin_events(ev, "1min", by="g")
    episodes, _ = episodes_caused(bins, SLO_1H, PAGE, "timeout", freq="1min")
    assert episodes["g"].tolist() == ["B"]
    assert episodes["start"].iloc[0] == T0 + pd.Timedelta("17h06min")
    assert episodes["end"].iloc[0] == T0 + pd.Timedelta("19h")
    assert bool(episodes["caused"].iloc[0])  # without the timeouts B never fails
    # the window's clock ends B's status at the same instant: no traffic from 18:59 + 1 ns
    spans = status_spans(ev, SLO_1H, by="g")
    quiet = spans[(spans["g"] == "B") & (spans["status"] == "no_traffic")]
    assert quiet["start"].tolist() == [T0 + pd.Timedelta("18h59min") + pd.Timedelta(1, "ns")]

    table = bucket_breakdown(ev, SLO_1H, by="g", policy=PAGE)
    b = b_rows(table)
    # one page, the timeouts' alone; the seed tracker's changes: healthy, warning, critical,
    # exhausted (B's last status), so 3
    statuses = seed_statuses(ev[ev["g"] == "B"])
    assert statuses[-1] == "exhausted"
    changes = sum(x != y for x, y in zip(["healthy", *statuses], statuses, strict=False))
    assert changes == 3
    assert b.loc["timeout", ["transitions", "alerts", "pages", "pages_caused",
                             "pages_without"]].tolist() == [changes, 1, 1, 1, 0]
    assert b.loc["solve_error", ["pages", "pages_caused", "pages_without"]].tolist() == [1, 0, 1]
    assert table.loc[table["g"] == "A", ["alerts", "pages"]].to_numpy().sum() == 0


@pytest.mark.parametrize("a_minutes", [20 * 60, 24 * 60])
def test_the_silence_after_the_window_adds_nothing(a_minutes):
    # The log going on 2 h or 6 h past B's last event: B's figures are the same (the page
    # ends at 19:00 either way, and the 5 h of silence after it count for nothing).
    ev = two_groups(list(range(17 * 60 + 1, 18 * 60, 2)), a_minutes=a_minutes)
    b = b_rows(bucket_breakdown(ev, SLO_1H, by="g", policy=PAGE))
    assert b.loc["timeout", ["alerts", "pages", "pages_caused"]].tolist() == [1, 1, 1]


def test_a_page_can_begin_after_the_groups_last_event_while_its_window_holds_its_events():
    # B's only timeouts: 17:58 and 17:59. At its last bin's end (18:00) the window holds 60
    # events, 2 failed: 3.3 %, no page. Then B's events leave the window oldest first: at
    # 18:00 + k min it holds 60 - k events, still both timeouts, and 2 / (60 - k) > 4.5 % from
    # k = 16: the page fires from 18:16 to 19:00, when the window no longer holds B's events.
    ev = two_groups([17 * 60 + 58, 17 * 60 + 59])
    bins = bin_events(ev, "1min", by="g")
    episodes, _ = episodes_caused(bins, SLO_1H, PAGE, "timeout", freq="1min")
    assert list(zip(episodes["start"], episodes["end"], strict=True)) == [
        (T0 + pd.Timedelta("18h16min"), T0 + pd.Timedelta("19h"))]
    # The window's clock (status_spans, replay_summary) shows the same: the tracker's rule on
    # the window's content turns critical when the event of 17:15 leaves it (2 of 44 failed,
    # burn 0.91 > 0.9), and no traffic from 18:59 + 1 ns.
    spans = status_spans(ev, SLO_1H, by="g")
    b_spans = spans[spans["g"] == "B"]
    critical = b_spans[b_spans["status"] == "critical"]
    assert critical["start"].tolist() == [T0 + pd.Timedelta("18h15min") + pd.Timedelta(1, "ns")]
    # The seed tracker, which moves only at events, ends warning (2 of 61 failed: 34 % of the
    # budget left): the per-event clock never pages. `transitions` is that clock's.
    statuses = seed_statuses(ev[ev["g"] == "B"])
    assert statuses[-1] == "warning"
    b = b_rows(bucket_breakdown(ev, SLO_1H, by="g", policy=PAGE))
    assert b.loc["timeout", ["transitions", "pages", "pages_caused"]].tolist() == [1, 1, 1]
