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
