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


def test_an_exhausted_warmup_shows_both_the_strip_and_the_band():
    # the sshd log's 66 events lie within 1 h 37 min, all in the 24 h window's warm-up, and
    # exhaust the budget at its second event: the exhausted band fills the panel, the warm-up
    # strip runs along its whole foot. Both must be seen in the rendered pixels: the strip
    # drawn over the band and under the lines, in a colour apart from the band's grey
    from matplotlib.colors import to_rgb

    from budgetlab.plotting.status_bands import WARMUP_COLOR

    ev = read_events(FIXTURES / "loghub/openssh_300.log", preset="sshd", year=2026)
    slo = SLO(target=0.95, window="24h")
    ax = plot_timeline(replay(ev, slo), slo=slo, spans=status_spans(ev, slo, steps=True))
    bottom = ax.panels[-1]
    z = {str(a.get_gid()): a.get_zorder() for a in bottom.collections}
    line = [ln for ln in bottom.get_lines() if ln.get_gid() == "budget_remaining"]
    assert z["status_exhausted"] < z["warmup"] < line[0].get_zorder()
    fig = bottom.figure
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    box = bottom.get_window_extent()
    height = pixels.shape[0]
    rows = pixels[height - int(box.y1):height - int(box.y0)]  # the panel, top to bottom
    cols = rows[:, int(box.x0) + 5:int(box.x1) - 5]

    def share(colour):  # per column, how many pixel rows show ``colour``
        rgb = np.array([round(255 * c) for c in to_rgb(colour)])
        return (np.abs(cols - rgb).max(axis=2) <= 2).sum(axis=0)

    strip, band = share(WARMUP_COLOR[0]), share((0.84, 0.84, 0.84))  # black at 16 % on white
    # the strip's 6 % of the ~100-pixel panel, less its outline and the budget line at 0
    assert strip.min() >= 3, strip.min()
    assert band.min() >= 30, band.min()



def _lab(rgb) -> np.ndarray:
    """CIELAB (D65) of an sRGB colour: the published sRGB and CIE 1976 formulas."""
    c = np.asarray(rgb, dtype=float)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_the_warmup_strip_stands_apart_from_every_status_tint():
    # a strip a few pixels high over a band that fills the panel: its fill at least 20 CIE76
    # units (a plainly different colour) from each status's tint on white, the exhausted grey
    # included (the earlier light blue was 12 from it, and from the healthy green)
    from matplotlib.colors import to_rgb

    from budgetlab.plotting._common import STATUS_COLORS
    from budgetlab.plotting.status_bands import BAND_ALPHA, WARMUP_COLOR

    strip = _lab(to_rgb(WARMUP_COLOR[0]))
    for name, color in STATUS_COLORS.items():
        alpha = BAND_ALPHA[name][0]
        tint = _lab([1 - alpha + alpha * v for v in to_rgb(color)])
        assert np.linalg.norm(strip - tint) >= 20, name
