"""plot_recalibration's x label says each group's evaluated time where they differ (Stop 56): it
said the calendar span "15 d 22 h measured" for a group with 5 d 22 h of traffic in it. The
figures are computed by hand in :mod:`tests.silence_log`."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from budgetlab import recalibrate
from budgetlab.plotting import plot_recalibration
from tests.silence_log import silence_log


def test_the_axis_says_each_groups_evaluated_time():
    r = recalibrate(silence_log(), by="group", target=0.8, window="1h", n_boot=0)
    assert r.summary["group"].tolist() == ["gappy", "steady"]
    ax = plot_recalibration(r, ax=plt.figure().gca())
    # gappy: 142 h 40 min with traffic (5 d 22 h); steady: 382 h 50 min (15 d 22 h)
    assert ax.get_xlabel() == ("target, on the rolling 1 h window, evaluated time gappy 5 d 22 h, "
                               "steady 15 d 22 h (%)")
    plt.close("all")


def test_alike_groups_share_one_figure():
    r = recalibrate(silence_log(("gappy",)), target=0.8, window="1h", n_boot=0)
    ax = plot_recalibration(r, ax=plt.figure().gca())
    assert ax.get_xlabel() == "target, on the rolling 1 h window, 5 d 22 h of evaluated time (%)"
    plt.close("all")
