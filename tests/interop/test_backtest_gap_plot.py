"""Stop 60: backtest's --plot did not mark the scrape gaps (bins counted as no traffic whose
counts are unknown). Each gap is drawn on every tier row of its group, cross-hatched grey, and a
gap of a group without a row is named in the legend. Oracle: the gap's times and the rows of
its group, by hand; the artists read back (not pixels)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events  # noqa: E402
from budgetlab.cli.alert_figure import policy_figure  # noqa: E402

T0 = pd.Timestamp("2026-01-06 10:00", tz="UTC")


def _episodes() -> tuple[pd.DataFrame, pd.DataFrame]:
    """fra and ams, 4 h at one event a minute each; both fail 11:00..11:20 (each gets an alert),
    par never fails (no row)."""
    ts = pd.date_range(T0, periods=240, freq="1min").repeat(3)
    region = ["fra", "ams", "par"] * 240
    ok = [not (r != "par" and 60 <= i // 3 < 80) for i, r in enumerate(region)]
    b = bin_events(as_events(ts, ok, groups={"region": region}), "1min", by=["region"])
    return alert_episodes(b, 0.9, AlertPolicy.single_window("10min", burn=4.5)), b


def test_a_gap_is_drawn_on_its_group_s_rows_and_one_without_a_row_is_named():
    ep, b = _episodes()
    gaps = [{"region": "ams", "start": "2026-01-06T12:00:00+00:00",
             "end": "2026-01-06T12:11:00+00:00", "bins": 11},
            {"region": "par", "start": "2026-01-06T13:00:00+00:00",
             "end": "2026-01-06T13:02:00+00:00", "bins": 2}]
    fig, _ = policy_figure({"w": ep}, None, groups=b[["region"]].drop_duplicates(), gaps=gaps)
    try:
        (ax,) = fig.axes
        labels = {float(y): t.get_text() for y, t in zip(ax.get_yticks(), ax.get_yticklabels(),
                                                         strict=True)}
        marks = [c for c in ax.collections if c.get_gid() == "scrape_gap"]
        assert len(marks) == 1  # ams has one tier row; par has none
        ((x0, y0), (x1, _)) = marks[0].get_paths()[0].get_extents().get_points()
        lo, hi = (mdates.date2num(pd.Timestamp(t).tz_localize(None))
                  for t in ("2026-01-06 12:00", "2026-01-06 12:11"))
        assert (round(x0, 9), round(x1, 9)) == (round(lo, 9), round(hi, 9))
        assert labels[round(y0 + 0.45)].startswith("ams · ")
        keyed = [h.get_label() for h in ax.alert_keys if h.get_gid() == "scrape_gap"]
        assert keyed == ["scrape gap: no scrape,\ncounts unknown",
                         "scrape gaps in groups\nwithout a row: region=par"]
    finally:
        plt.close(fig)


def test_a_gap_on_a_firing_row_is_drawn_over_the_episode_which_shows_through():
    """ams fires 11:00..11:20 (a bar on its row); a gap 11:05..11:10 on that row is drawn above
    the bar (a higher zorder) with a transparent face, so the bar shows under the hatching."""
    ep, b = _episodes()
    gaps = [{"region": "ams", "start": "2026-01-06T11:05:00+00:00",
             "end": "2026-01-06T11:10:00+00:00", "bins": 5}]
    fig, _ = policy_figure({"w": ep}, None, groups=b[["region"]].drop_duplicates(), gaps=gaps)
    try:
        (ax,) = fig.axes
        (mark,) = [c for c in ax.collections if c.get_gid() == "scrape_gap"]
        ((_, y0), _) = mark.get_paths()[0].get_extents().get_points()
        lo, hi = (mdates.date2num(pd.Timestamp(t)) for t in ("2026-01-06 11:05",
                                                              "2026-01-06 11:10"))
        bars = [p for p in ax.patches if p.get_x() <= lo and p.get_x() + p.get_width() >= hi
                and abs(p.get_y() + p.get_height() / 2 - (y0 + 0.45)) < 1e-9]
        assert len(bars) == 1  # the ams episode, under the gap
        assert mark.get_zorder() > bars[0].get_zorder()
        assert not [c for c in mark.get_facecolor() if c[3] > 0]  # no face that hides the bar
        assert mark.get_hatch() == "xx"
    finally:
        plt.close(fig)
