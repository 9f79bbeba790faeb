"""Notebook 01's day-to-day spread withholds a group too thin for its target (stop 60, D3): a
30-event group (1-2 events a day over 17 days) printed ``full_days 17``, ``spread_ratio 5.13``,
``day_min 0.0``, and the plot drew its days as 0-100 % points and intervals, the real groups
squeezed at the top. The package's thin rule (fewer than 10 expected failures under the target,
:func:`~budgetlab.analyses.recalibration.rules.too_few_events`) now withholds them in words, and
the plot leaves such a group out, naming it.

Oracle: hand-built daily tables. ``big``: two days of 1,000 events, 950 and 990 good (day rates
0.95 and 0.99, spread 0.04). ``thin``: 17 days, 13 of 2 events and 4 of 1 (30 events), one day
with no success; under 95 % 30 events hold 1.5 expected failures (200 needed).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from budgetlab.analyses.history import daily_spread  # noqa: E402
from budgetlab.plotting import plot_daily_success  # noqa: E402

THIN_NOTE = ("30 events in the group: too few for a verdict (under 95 % they hold 1.5 expected "
             "failures; one needs at least 10, i.e. 200 events)")


def _daily() -> pd.DataFrame:
    days = pd.date_range("2026-10-12", periods=17, freq="D", tz="Europe/Berlin")
    thin_total = [2] * 13 + [1] * 4
    thin_good = [2] * 12 + [0] + [1] * 4
    rows = [("big", days[0], 1000, 950), ("big", days[1], 1000, 990)]
    rows += [("thin", d, n, g) for d, n, g in zip(days, thin_total, thin_good, strict=True)]
    t = pd.DataFrame(rows, columns=["g", "day", "total", "good"])
    t["success_rate"] = t["good"] / t["total"]
    t["ci_low"] = t["success_rate"] - 0.01  # the plot's bars only; not judged here
    t["ci_high"] = (t["success_rate"] + 0.01).clip(upper=1.0)
    t["full_day"] = True
    return t


def test_thin_group_withheld_in_words() -> None:
    s = daily_spread(_daily(), target=0.95).set_index("g")
    assert s.loc["thin", "total"] == 30 and s.loc["thin", "good"] == 28  # 12 x 2 + 0 + 4 x 1
    assert s.loc["thin", "note"] == THIN_NOTE
    for col in ("full_days", "day_min", "day_max", "spread", "spread_ratio"):
        assert pd.isna(s.loc["thin", col]), col
    assert s.loc["big", "note"] == ""
    assert s.loc["big", "full_days"] == 2
    assert s.loc["big", "day_min"] == pytest.approx(0.95)
    assert s.loc["big", "spread"] == pytest.approx(0.04)


def test_target_per_group_table() -> None:
    # under 50 % the thin group's 30 events hold 15 expected failures: enough, figures kept
    table = pd.DataFrame({"g": ["big", "thin"], "target": [0.95, 0.5]})
    s = daily_spread(_daily(), target=table).set_index("g")
    assert s.loc["thin", "note"] == ""
    assert s.loc["thin", "day_min"] == 0.0 and s.loc["thin", "full_days"] == 17


def test_plot_leaves_thin_group_out() -> None:
    fig, ax = plt.subplots()
    try:
        plot_daily_success(_daily(), ax=ax, target=0.95)
        assert [c.get_label() for c in ax.containers] == ["big"]
        low, high = ax.get_ylim()
        assert low > 90  # the big group's days (94 .. 100 %) set the scale, not 0 %
        assert "not drawn" in ax.get_xlabel() and "thin" in ax.get_xlabel()
    finally:
        plt.close(fig)
