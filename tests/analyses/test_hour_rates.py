"""Notebook 03's "Over the day": a log silent at some hours every night (the captcha log,
01:00-05:00 UTC) had no column for them in the table and an unexplained gap in the plot, while
the text says an hour with too few attempts reads "too few" "as for an hour without attempts".
Every hour of the day now has its column and the plot shades an hour no group had an attempt at
grey, said in the legend. Stop 58: an hour without any attempt reads ``no attempts`` (as the
notebook's text and the plot's legend say it), ``too few`` stays for 1-19 attempts. Hand-built
events, hand-counted."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from budgetlab.analyses.history import hourly_profile  # noqa: E402
from budgetlab.plotting import plot_hourly_profile  # noqa: E402


def events() -> pd.DataFrame:
    """Region fra: 25 attempts at every hour but 01..04 (none), 5 timeouts of them at 00:00 and
    06:00; region ams: 3 attempts at 10:00 (one timeout), nothing else."""
    rows = []
    for h in [0, *range(5, 24)]:
        for i in range(25):
            bad = h in (0, 6) and i < 5
            rows.append(("fra", f"2026-01-01 {h:02d}:{i:02d}", not bad,
                         "timeout" if bad else "success"))
    rows += [("ams", "2026-01-01 10:00", False, "timeout"), ("ams", "2026-01-01 10:01", True,
                                                            "success"),
             ("ams", "2026-01-01 10:02", True, "success")]
    out = pd.DataFrame(rows, columns=["region", "ts", "ok", "bucket"])
    out["ts"] = pd.to_datetime(out["ts"], utc=True)
    return out


def test_the_table_has_every_hour_and_says_no_attempts_where_none_was():
    from budgetlab.analyses.hour_rates import hour_rate_table

    table = hour_rate_table(hourly_profile(events(), bucket="timeout", by="region"))
    assert list(table.columns) == list(range(24))
    fra = table.loc["fra"].tolist()
    # by hand: 5 of 25 = 20 % at 00 and 06, 0 of 25 elsewhere; 01..04 without attempts
    want = ["0.00 %"] * 24
    want[0] = want[6] = "20.00 %"
    want[1:5] = ["no attempts"] * 4
    assert fra == want
    # ams: 3 attempts at 10 (under 20: too few), none elsewhere (no attempts)
    assert table.loc["ams"].tolist() == ["no attempts"] * 10 + ["too few"] + ["no attempts"] * 13


def test_the_plot_shades_the_hours_without_any_attempt_and_says_so():
    ax = plot_hourly_profile(hourly_profile(events(), bucket="timeout", by="region"),
                             ax=plt.subplots()[1])
    grey = [p for p in ax.patches if p.get_gid() == "no_attempts"]
    # 01..04: no region had an attempt (ams's hours other than 10 are fra's: not shaded)
    assert sorted(round(p.get_x() + 0.5) for p in grey) == [1, 2, 3, 4]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "grey: no attempts at that hour" in texts
    assert texts[-1] == "hollow: under 20 attempts at that hour"  # ams at 10
    plt.close("all")
