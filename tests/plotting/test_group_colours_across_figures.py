"""One colour per group across figures: every figure that draws groups takes their colours from
:func:`budgetlab.plotting._common.group_colors`, in the sorted order of the group names, so a
group has the same colour in the daily success, recalibration, window comparison and bucket
figures of a run (in notebook 01 ``image`` was blue in the daily figure and pink in the
recalibration figure). The expected colours are written out by hand: the names sorted, then
Okabe–Ito blue, vermillion and reddish purple."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex

import budgetlab as bl
from budgetlab.analyses.history import daily_success
from budgetlab.plotting._common import group_colors

pytestmark = pytest.mark.usefixtures("close_figures")

# the demo's captcha types, sorted: image, recaptcha_v2, turnstile (by events they are
# recaptcha_v2, turnstile, image: the order the recalibration summary drew them in)
EXPECTED = {"image": "#0072b2", "recaptcha_v2": "#d55e00", "turnstile": "#cc79a7"}


@pytest.fixture(scope="module")
def demo():
    return bl.datasets.load("demo")


def _lines(ax, prefix: str) -> dict[str, str]:
    """The colour of each line whose gid starts with ``prefix:``, by the group after it."""
    return {str(line.get_gid()).split(":", 1)[1]: to_hex(line.get_color())
            for a in ax.figure.axes for line in a.get_lines()
            if str(line.get_gid()).startswith(prefix + ":")}


def test_daily_success_colours(demo):
    ax = bl.plotting.plot_daily_success(daily_success(demo, by="captcha_type", tz="UTC"),
                                        ax=plt.subplots()[1])
    assert {h.get_label(): to_hex(h.get_color())
            for h in ax.get_legend().legend_handles} == EXPECTED


def test_recalibration_colours(demo):
    rec = bl.recalibrate(demo, target=0.95, window="24h", by="captcha_type", n_boot=0,
                         show_progress=False)
    assert rec.summary["captcha_type"].astype(str).tolist()[0] != "image"  # not drawn first
    ax = bl.plotting.plot_recalibration(rec, ax=plt.subplots()[1])
    assert _lines(ax, "distribution") == EXPECTED


def test_window_comparison_colours(demo):
    table = bl.compare_windows(demo, bl.SLO(target=0.95), ["1h", "24h"], by="captcha_type",
                               show_progress=False)
    ax = bl.plotting.plot_window_comparison(table, ax=plt.subplots()[1])
    assert _lines(ax, "transitions_per_day") == EXPECTED


def test_bucket_layers_colours(demo):
    over_time = bl.bucket_burn_over_time(demo, bl.SLO(target=0.95, window="24h"), freq="6h",
                                         by="captcha_type")
    ax = bl.plotting.plot_buckets(over_time, by="captcha_type", ax=plt.subplots()[1])
    keyed = {h.get_label().split(" · ")[1]: to_hex(h.get_facecolor())
             for h in ax.get_legend().legend_handles if " · " in h.get_label()}
    assert keyed == EXPECTED


def test_the_rule_does_not_depend_on_the_order_drawn():
    assert group_colors(["turnstile", "image", "recaptcha_v2"]) == {
        "turnstile": "#CC79A7", "image": "#0072B2", "recaptcha_v2": "#D55E00"}
    # more groups than colours: the six with the most weight keep one, in their sorted order
    # (g3 .. g8 by hand), the others are "other" (None)
    names = [f"g{i}" for i in range(9)][::-1]  # g8 first
    weights = [9, 8, 7, 6, 5, 4, 1, 1, 1]  # g8 .. g3 the heaviest
    c = group_colors(names, weights)
    assert [c[f"g{i}"] for i in range(3, 9)] == ["#0072B2", "#D55E00", "#CC79A7", "#009E73",
                                                 "#882255", "#332288"]
    assert [c[f"g{i}"] for i in range(3)] == [None, None, None]
    assert list(c) == names  # the mapping keeps the order given (a legend's)
