"""The timeline marks the warm-up (each first window of a traffic stretch: from the group's first
event, or refilling after a silence longer than the window) as a strip keyed "warm-up (window
filling)". The oracle: the spans add up to :func:`budgetlab.replay_summary`'s ``warmup_hours``
(two real logs), and a hand-built case whose spans are counted by hand."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, read_events, replay, replay_summary, status_spans
from budgetlab.plotting import plot_timeline
from budgetlab.plotting.status_bands import WARMUP_LABEL, draw_warmup, warmup_spans

pytestmark = pytest.mark.usefixtures("close_figures")

FIXTURES = Path(__file__).parents[1] / "fixtures"
MIN = 60_000_000_000


def _hand_events() -> pd.DataFrame:
    # 1 h window: events at 00:00, 00:30 (a failure), then silence until 03:00 and 03:10.
    # By hand: warm-up 00:00..01:00 (the first window), then 03:00..03:10 (the window refilling
    # after the silence, cut by the observation's end at the last event): 70 min, 10 of them refill
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:30", "2026-01-01 03:00",
                         "2026-01-01 03:10"], utc=True)
    return as_events(ts, [True, False, True, True])


def _drawn(ax) -> list[tuple[pd.Timestamp, pd.Timestamp]]:
    """The warm-up bars drawn on the bottom panel, as UTC times (rounded to the second)."""
    (bars,) = [c for c in ax.panels[-1].collections if c.get_gid() == "warmup"]
    out = []
    for path in bars.get_paths():
        x = path.vertices[:, 0]
        lo, hi = (pd.Timestamp(mdates.num2date(v)).round("s") for v in (x.min(), x.max()))
        out.append((lo, hi))
    return out


def test_hand_built_warmup_is_drawn_and_keyed():
    ev = _hand_events()
    slo = SLO(target=0.9, window="1h")
    ax = plot_timeline(replay(ev, slo), slo=slo, spans=status_spans(ev, slo, steps=True))
    t = pd.Timestamp("2026-01-01", tz="UTC")
    assert _drawn(ax) == [(t, t + pd.Timedelta("1h")),
                          (t + pd.Timedelta("3h"), t + pd.Timedelta("3h10min"))]
    labels = [h.get_label() for h in ax.legend_entries[-1]]
    assert WARMUP_LABEL in labels
    # keyed after no traffic (the silence is drawn), before the statuses
    assert labels.index(WARMUP_LABEL) == labels.index("no traffic (window empty)") + 1
    summary = replay_summary(replay(ev, slo), ev)
    assert summary.loc[0, "warmup_hours"] == pytest.approx(70 / 60)
    assert summary.loc[0, "refill_hours"] == pytest.approx(10 / 60)


def test_spans_past_their_warmup_have_none():
    # the part of the hand-built steps after 01:00: the first window is over, then no traffic
    ev = _hand_events()
    steps = status_spans(ev, SLO(target=0.9, window="1h"), steps=True)
    later = steps[steps["start"] > pd.Timestamp("2026-01-01 01:00", tz="UTC")]
    later = later[later["start"] < pd.Timestamp("2026-01-01 03:00", tz="UTC")]
    assert len(later) == 2  # premise: exhausted 01:00..01:30, then no traffic
    assert [len(v) for v in warmup_spans(later)] == [0, 0]


def test_no_spans_no_warmup_strip():
    ev = _hand_events()
    slo = SLO(target=0.9, window="1h")
    ax = plot_timeline(replay(ev, slo), slo=slo)  # per-event statuses: no window's clock
    assert not [c for c in ax.panels[-1].collections if c.get_gid() == "warmup"]
    assert WARMUP_LABEL not in [h.get_label() for h in ax.legend_entries[-1]]


@pytest.mark.parametrize("log, options, slo", [
    ("loghub/openssh_300.log", {"preset": "sshd", "year": 2025}, SLO(target=0.95, window="24h")),
    ("elastic_apache/apache_logs", {"preset": "access", "by": ["method"]},
     SLO(target=0.95, window="1h")),
])
def test_warmup_spans_add_up_to_the_summarys_warmup_hours(log, options, slo):
    ev = read_events(FIXTURES / log, **options)
    by = options.get("by")
    summary = replay_summary(replay(ev, slo, by=by), ev)
    steps = status_spans(ev, slo, by=by, steps=True)
    keys = by or []
    parts = steps.groupby(keys, observed=True, sort=True) if keys else [((), steps)]
    hours = {}
    for key, part in parts:
        start, end = warmup_spans(part)
        assert (end > start).all() and (start[1:] > end[:-1]).all()  # apart, in time order
        hours[key] = float((end - start).sum()) / (60 * MIN)
    expected = (summary.set_index(keys)["warmup_hours"] if keys
                else summary["warmup_hours"].rename(index={0: ()}))
    assert hours == pytest.approx(expected.rename(index=lambda k: (k,) if keys else k).to_dict())
    assert sum(hours.values()) > 0


def test_a_warmup_under_one_pixel_column_stays_visible():
    # 700 warm-ups of 1 ns each over [0, 1000) ns cut into 10 columns of 100 ns: those at 0..499
    # and 700..899 fill columns 0-4 and 7-8. More spans than columns: drawn as the runs of the
    # columns holding any, [0, 500) and [700, 900) by hand, each at least a column wide, outlined
    fig, ax = plt.subplots()
    starts = np.r_[np.arange(500), 700 + np.arange(200)].astype(np.int64)
    draw_warmup(ax, (starts, starts + 1), 0, 1000, 10)
    (bars,) = [c for c in ax.collections if c.get_gid() == "warmup"]
    drawn = [(p.vertices[:, 0].min(), p.vertices[:, 0].max()) for p in bars.get_paths()]
    expected = mdates.date2num(np.array([0, 500, 700, 900], dtype="datetime64[ns]"))
    assert np.asarray(drawn).ravel() == pytest.approx(expected, abs=1e-15)
    assert bars.get_linewidth()[0] > 0
