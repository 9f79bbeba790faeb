"""Time spans measured to the nanosecond add up to the log's period (docs/conventions.md, *how
time is counted*): status_spans, silences, replay_summary and compare_windows on one 48 h log.

The log, hand-made: one event every 10 min from 2026-01-01 00:00 to 2026-01-03 00:00 (the
observation: 48 h), none strictly between 10:00 and 16:00 on Jan 1 but a lone event at 13:00;
a 1 h window. Every figure below is computed by hand from the rule "an event is in the window
through ts + 1 h inclusive and leaves 1 ns later", never read from the code:

- stretch A: 00:00 .. 10:00, traffic [00:00, 11:00 + 1 ns) = 11 h + 1 ns, warm-up 1 h;
- stretch B: the lone 13:00 event, traffic [13:00, 14:00 + 1 ns) = 1 h + 1 ns, all of it warm-up
  (its window is full at 14:00 only: one instant is no evaluated time);
- stretch C: 16:00 .. 48:00, traffic [16:00, 48:00) = 32 h (the observation ends at the last
  event), warm-up 1 h;
- silences [11:00 + 1 ns, 13:00) and [14:00 + 1 ns, 16:00): 2 h - 1 ns each.

Observed 44 h + 2 ns + silent 4 h - 2 ns = 48 h; warm-up 3 h + 1 ns + evaluated 41 h + 1 ns =
observed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import budgetlab as bl

NS = 1
H = 3_600_000_000_000 * NS
PERIOD = 48 * H
OBSERVED = (11 * H + NS) + (H + NS) + 32 * H  # 44 h + 2 ns
SILENT = 2 * (2 * H - NS)  # 4 h - 2 ns
WARMUP = H + (H + NS) + H  # 3 h + 1 ns
REFILL = (H + NS) + H  # the warm-ups after a silence: B and C
EVALUATED = (11 * H + NS - H) + 0 + (32 * H - H)  # 41 h + 1 ns


def _log() -> pd.DataFrame:
    ts = pd.date_range("2026-01-01", "2026-01-03", freq="10min", tz="UTC")
    ts = ts[(ts <= "2026-01-01 10:00") | (ts >= "2026-01-01 16:00")]
    ts = ts.append(pd.DatetimeIndex([pd.Timestamp("2026-01-01 13:00", tz="UTC")])).sort_values()
    ok = np.ones(len(ts), dtype=bool)
    ok[::7] = False
    return bl.as_events(ts, ok)


def _ns(hours: float) -> int:
    """An ``hours_*`` float read back to whole nanoseconds (exact: 48 h in hours keeps ~1e-14)."""
    return round(hours * H)


SLO = bl.SLO(target=0.9, window="1h")


def test_every_time_figure_of_a_48_h_log_adds_up_to_48_h_to_the_nanosecond():
    ev = _log()
    spans = bl.status_spans(ev, SLO)
    dur = spans["end"].array.asi8 - spans["start"].array.asi8  # ns
    quiet = (spans["status"] == "no_traffic").to_numpy()
    assert int(dur[~quiet].sum()) == OBSERVED and int(dur[quiet].sum()) == SILENT
    sil = bl.silences(spans).iloc[0]
    assert sil["silences"] == 2
    assert sil["longest_silence"].value == 2 * H - NS
    assert sil["silent_time"].value == SILENT and sil["observed_time"].value == OBSERVED
    summary = bl.replay_summary(bl.replay(ev, SLO), ev).iloc[0]
    status_ns = sum(_ns(summary[f"hours_{s}"]) for s in bl.SPAN_STATUSES)
    assert status_ns == PERIOD
    assert _ns(summary["observed_hours"]) == OBSERVED
    assert _ns(summary["hours_no_traffic"]) == SILENT
    # the lone event's window is all warm-up, its closing instant included
    assert _ns(summary["warmup_hours"]) == WARMUP
    assert _ns(summary["refill_hours"]) == REFILL
    cw = bl.compare_windows(ev, SLO, ["1h"]).iloc[0]
    assert _ns(cw["hours"]) == EVALUATED
    assert _ns(cw["hours_no_traffic"]) == SILENT
    # compare-windows' evaluated hours + the summary's warm-up + no traffic: the 48 h exactly
    assert _ns(cw["hours"]) + _ns(summary["warmup_hours"]) + _ns(cw["hours_no_traffic"]) == PERIOD


def test_the_timeline_warm_up_bands_hold_the_lone_events_closing_instant():
    from budgetlab.plotting.status_bands import warmup_spans

    start, end = warmup_spans(bl.status_spans(_log(), SLO))
    # hand: [00:00, 01:00), [13:00, 14:00 + 1 ns), [16:00, 17:00)
    t0 = pd.Timestamp("2026-01-01", tz="UTC").value
    assert (start - t0).tolist() == [0, 13 * H, 16 * H]
    assert (end - t0).tolist() == [H, 14 * H + NS, 17 * H]
    assert int((end - start).sum()) == WARMUP
